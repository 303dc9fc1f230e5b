"""Game records: the seed and the labels of one game in order, which replay it exactly anywhere and
stay readable (and diffable) when the engine's internal state layout changes."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from dsl.loader import find_ruleset, is_variant_file, rulesets_dir
from interpreter.loading import load_game
from interpreter.primitives import GameRuleError
from interpreter.state import State

FORMAT = "regelwerk-record/1"


class RecordError(ValueError):
    """A record that is malformed or does not replay; the message says which field or step."""


@dataclass(frozen=True)
class Record:
    ruleset: str
    variants: tuple[str, ...]
    players: int
    seed: int
    actions: tuple[str, ...]
    scores: Optional[tuple[int, ...]]
    agents: Optional[tuple[str, ...]] = None
    error: Optional[str] = None  # the rules error that stopped the game; replaying the actions shows it again

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "ruleset": self.ruleset, "variants": list(self.variants),
                                "players": self.players, "seed": self.seed}
        if self.agents is not None:
            data["agents"] = list(self.agents)
        data["actions"] = list(self.actions)
        data["scores"] = list(self.scores) if self.scores is not None else None
        if self.error is not None:
            data["error"] = self.error
        return data

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        """Validates every field, so a hand-edited record fails here with its field's name."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record of format {FORMAT}")

        def strings(key: str, value: Any) -> tuple[str, ...]:
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise RecordError(f"'{key}' must be a list of strings")
            return tuple(value)

        def integer(key: str) -> int:
            value = data.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RecordError(f"'{key}' must be an integer")
            return value

        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str) or not ruleset:
            raise RecordError("'ruleset' must be a non-empty string")
        scores = data.get("scores")
        if scores is not None and (not isinstance(scores, list)
                                   or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
            raise RecordError("'scores' must be a list of integers or null")
        agents = data.get("agents")
        error = data.get("error")
        if error is not None and not isinstance(error, str):
            raise RecordError("'error' must be a string or absent")
        return cls(ruleset=ruleset, variants=strings("variants", data.get("variants")),
                   players=integer("players"), seed=integer("seed"),
                   actions=strings("actions", data.get("actions")),
                   scores=tuple(scores) if scores is not None else None,
                   agents=strings("agents", agents) if agents is not None else None, error=error)


def ruleset_ref(game: str) -> str:
    """How a record names its ruleset: by name if the rulesets folder holds it, else by absolute path."""
    path = find_ruleset(game).resolve()
    return path.name if path == (rulesets_dir() / path.name).resolve() else str(path)


def variant_ref(variant: str) -> str:
    """How a record names a variant: one from a file outside the ruleset by absolute path, to replay anywhere."""
    return str(Path(variant).resolve()) if is_variant_file(variant) else variant


def record_of(state: State, ruleset: str, agents: Optional[Sequence[str]] = None,
              error: Optional[GameRuleError] = None) -> Record:
    """`error`: the GameRuleError that stopped the game; it has no scores then, even if nothing is pending."""
    game = state.game
    return Record(ruleset=ruleset, variants=tuple(variant_ref(v) for v in game.variants), players=game.num_players,
                  seed=state.seed, actions=tuple(state.history),
                  scores=tuple(state.scores()) if state.is_terminal() and error is None else None,
                  agents=tuple(agents) if agents is not None else None, error=str(error) if error is not None else None)


def write_record(path: Path, record: Record) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_record(path: Path) -> Record:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return Record.from_dict(data)


def replay(record: Record) -> State:
    """Applies every label from the seeded initial state; the first illegal one stops it by step number."""
    game = load_game(record.ruleset, record.variants, record.players)
    try:
        state = game.new_initial_state(record.seed)
    except GameRuleError as exc:
        raise RecordError(f"the setup breaks a rule: {exc}") from None
    total = len(record.actions)
    for step, label in enumerate(record.actions, start=1):
        legal = state.legal_labels()
        if label not in legal:
            options = ", ".join(legal[:20]) + (" …" if len(legal) > 20 else "")
            raise RecordError(f"step {step} of {total}: '{label}' is not legal here"
                              + (f"; legal: {options}" if legal else "; the game is already over"))
        try:
            state.apply_label(label)
        except GameRuleError as exc:
            raise RecordError(f"step {step} of {total}: '{label}' breaks a rule: {exc}") from None
    return state
