"""Every ruleset as a pyspiel game (the optional extra `openspiel`): OpenSpiel's algorithms, bots and its
own random simulation test run on Regelwerk games unchanged. Actions and chance outcomes are the
catalogue's stable ids (LANGUAGE.md §3), so a policy head has one fixed output per move.

`import interpreter.play.openspiel` registers each shipped ruleset as `regelwerk_GAME`; `register(GAME,
variants)` registers a variant combination or a ruleset elsewhere. The player count is the game
parameter `players` (default: the ruleset's smallest)."""
from __future__ import annotations

import json
import re
from typing import Any, Optional, Sequence

import numpy as np
import pyspiel

from dsl.files import rulesets_dir
from interpreter.compile.loading import load_game, load_program
from interpreter.runtime.game import Game
from interpreter.runtime.information_tensor import information_state_tensor_size, recall_entries
from interpreter.runtime.state import State

_T = pyspiel.GameType
_REGISTERED: dict[str, type] = {}  # short name → the registered game class


def short_name(ruleset: str, variants: Sequence[str] = ()) -> str:
    """`regelwerk_GAME` with `__VARIANT` for each variant, in the order given; letters, digits and _ only."""
    name = "__".join([re.sub(r"\W", "_", ruleset.rstrip("/").split("/")[-1])] + [re.sub(r"\W", "_", v) for v in variants])
    return f"regelwerk_{name}"


def register(ruleset: str, variants: Sequence[str] = ()) -> str:
    """Registers the ruleset (by name in rulesets/ or a path) with these variants; returns the short name.
    Registering the same combination again is a no-op."""
    name = short_name(ruleset, variants)
    if name in _REGISTERED:
        return name
    program = load_program(ruleset, tuple(variants))
    game_type = _T(
        short_name=name, long_name=f"Regelwerk {program.name}" + "".join(f" + {v}" for v in variants),
        dynamics=_T.Dynamics.SEQUENTIAL, chance_mode=_T.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_T.Information.IMPERFECT_INFORMATION, utility=_T.Utility.GENERAL_SUM,
        reward_model=_T.RewardModel.TERMINAL, max_num_players=program.max_players,
        min_num_players=program.min_players, provides_information_state_string=True,
        provides_information_state_tensor=True, provides_observation_string=True,
        provides_observation_tensor=True, parameter_specification={"players": program.min_players})

    class RegelwerkGame(SpielGame):
        def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
            super().__init__(game_type, ruleset, list(variants), params or {})

    pyspiel.register_game(game_type, RegelwerkGame)
    _REGISTERED[name] = RegelwerkGame
    return name


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """One Regelwerk game at a fixed player count, as OpenSpiel sees it."""

    def __init__(self, game_type: Any, ruleset: str, variants: list[str], params: dict[str, Any]) -> None:
        players = int(params.get("players", game_type.min_num_players))
        self.rules: Game = load_game(ruleset, variants, players=players)
        lo, hi = self.rules.utility_range()
        distinct = self.rules.num_distinct_actions()
        info = pyspiel.GameInfo(num_distinct_actions=distinct, max_chance_outcomes=distinct,  # chance ids share the catalogue
                                num_players=players, min_utility=lo, max_utility=hi, utility_sum=None,
                                max_game_length=self.rules.max_game_length())
        super().__init__(game_type, info, {"players": players})

    def new_initial_state(self, seed: int = 0) -> "SpielState":
        return SpielState(self, self.rules.new_initial_state(seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.rules, perfect_recall)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A Regelwerk state behind OpenSpiel's State API; ids are catalogue ids for actions and outcomes alike."""

    def __init__(self, game: SpielGame, state: State) -> None:
        super().__init__(game)
        self.inner = state  # OpenSpiel serialises a Python state by pickling its fields: State pickles as JSON

    def current_player(self) -> int:
        st = self.inner
        if st.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if st.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return st.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_action_ids() if player == self.inner.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcome_ids()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_id_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        return json.dumps(self.inner.public_observation(), ensure_ascii=False, sort_keys=True)


class Observer:
    """OpenSpiel's observer: the seat's observation tensor and view, or (perfect recall) its information-state
    tensor (interpreter/runtime/information_tensor.py) and its whole filtered history."""

    def __init__(self, rules: Game, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = information_state_tensor_size(rules) if perfect_recall else rules.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"information_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        observed = state.inner.observation_tensor(player)
        if not self.perfect_recall:
            self.tensor[:] = observed
            return
        self.tensor[:len(observed)] = observed
        self.tensor[len(observed):] = 0.0
        entries = recall_entries(state.inner, player)
        self.tensor[len(observed) + np.fromiter(entries.keys(), np.int64, len(entries))] = \
            np.fromiter(entries.values(), np.float32, len(entries))

    def string_from(self, state: SpielState, player: int) -> str:
        view = state.inner.information_state(player) if self.perfect_recall else state.inner.observation(player)
        return json.dumps(view, ensure_ascii=False, sort_keys=True)


for _folder in sorted(p for p in rulesets_dir().iterdir() if (p / "game.rules").is_file()):
    register(_folder.name)
