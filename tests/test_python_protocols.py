"""A state works with Python's own protocols: copy.deepcopy is clone(), and pickle carries a state
(and its game) across processes through its saved form."""
from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compile.loading import load_program
from interpreter.runtime.game import Game
from interpreter.runtime.state import State

FIXTURE = Path(__file__).parent / "fixtures" / "games" / "spitzel"


def _midgame(ruleset: str, variants: list[str], players: int, steps: int = 8) -> State:
    state = load_game(ruleset, variants, players).new_initial_state(3)
    for _ in range(steps):
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize(("ruleset", "variants", "players"), [
    ("maechtige_monster", ["waechterkette"], 4), (str(FIXTURE), ["offene_augen"], 3)])
def test_pickle_round_trip_mid_game(ruleset: str, variants: list[str], players: int) -> None:
    state = _midgame(ruleset, variants, players)
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json()
    assert again.game.num_players == players and again.game.variants == variants
    again.apply_action(again.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert again.to_json() == state.to_json()  # both go on identically


def test_deepcopy_is_an_independent_clone() -> None:
    state = _midgame("maechtige_monster", [], 3)
    twin = copy.deepcopy(state)
    assert twin.game is state.game and twin.to_json() == state.to_json()
    twin.apply_action(0)
    assert twin.to_json() != state.to_json()
    assert copy.copy(state).to_json() == state.to_json()


def test_a_game_not_made_by_load_game_does_not_pickle() -> None:
    program = load_program("maechtige_monster")
    with pytest.raises(TypeError, match="load_game"):
        pickle.dumps(Game(program, 3, program.name, []))
