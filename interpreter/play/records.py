"""Game records: the seed and the labels of one game in order, which replay it exactly anywhere and
stay readable (and diffable) when the engine's internal state layout changes. A record is input, not
trusted: replay checks every step, the chance outcomes against the seed, and reads rules only from the
rulesets folder or a path the user gives."""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from dsl.errors import RulesError
from dsl.files import find_ruleset, is_variant_file, rulesets_dir
from interpreter.compile.loading import load_game
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.state import State

FORMAT = "regelwerk-record/1"
SEEDED, CHOSEN = "seed", "chosen"  # where a record's chance outcomes came from
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")  # a ruleset name: no path, no dots


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
    chance: str = SEEDED  # SEEDED: every chance outcome was drawn from the seed, so replay checks each one


    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "ruleset": self.ruleset, "variants": list(self.variants),
                                "players": self.players, "seed": self.seed}
        if self.agents is not None:
            data["agents"] = list(self.agents)
        data["chance"] = self.chance
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
        chance = data.get("chance", SEEDED)  # records from before the field: every writer drew from the seed
        if chance not in (SEEDED, CHOSEN):
            raise RecordError(f"'chance' must be \"{SEEDED}\" or \"{CHOSEN}\"")
        return cls(ruleset=ruleset, variants=strings("variants", data.get("variants")),
                   players=integer("players"), seed=integer("seed"),
                   actions=strings("actions", data.get("actions")),
                   scores=tuple(scores) if scores is not None else None,
                   agents=strings("agents", agents) if agents is not None else None, error=error,
                   chance=chance)


def ruleset_ref(game: str) -> str:
    """How a record names its ruleset: by name if the rulesets folder holds it, else by absolute path."""
    path = find_ruleset(game).resolve()
    return path.name if path == (rulesets_dir() / path.name).resolve() else str(path)


def variant_ref(variant: str) -> str:
    """How a record names a variant: one from a file outside the ruleset by absolute path, to replay anywhere."""
    return str(Path(variant).resolve()) if is_variant_file(variant) else variant


def record_of(state: State, ruleset: str, agents: Optional[Sequence[str]] = None,
              error: Optional[GameRuleError] = None) -> Record:
    """`error`: the GameRuleError that stopped the game; it has no scores then, and its labels (the failed
    step included: the state itself went back to before it) replay to the error."""
    game = state.game
    return Record(ruleset=ruleset, variants=tuple(variant_ref(v) for v in game.variants), players=game.num_players,
                  seed=state.seed, actions=error.actions if error is not None else tuple(state.history),
                  scores=tuple(state.scores()) if state.is_terminal() and error is None else None,
                  agents=tuple(agents) if agents is not None else None, error=str(error) if error is not None else None)


def write_record(path: Path, record: Record) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_record(path: Path) -> Record:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise RecordError(f"{path} is not a record: the JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError and integers beyond Python's digit limit
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return Record.from_dict(data)


def ruleset_source(record: Record, path: Optional[str] = None) -> str:
    """Where replay reads the rules: the path the user gave, else the record's ruleset by name from the
    rulesets folder. A path inside the record is never opened (a record could name any file)."""
    if path is not None:
        return path
    if not _NAME.fullmatch(record.ruleset):
        raise RecordError(f"the record names its ruleset by path ({record.ruleset!r}); replay reads rulesets by "
                          f"name from {rulesets_dir()} only; give the rules with --ruleset PATH")
    folder = rulesets_dir() / record.ruleset
    if not folder.is_dir():
        raise RecordError(f"no ruleset '{record.ruleset}' in {rulesets_dir()}; give the rules with --ruleset PATH")
    return str(folder)


def variant_sources(record: Record, given: Sequence[str] = ()) -> list[str]:
    """The variants to replay with: names as the record says; a variant file the record names by path
    only if the user gave that file (same path or file name) with --variant, never opened from the record."""
    out = []
    files = [g for g in given if is_variant_file(g)]
    for ref in record.variants:
        if _NAME.fullmatch(ref):
            out.append(ref)
            continue
        match = next((g for g in files if Path(g).resolve() == Path(ref)), None) or \
            next((g for g in files if Path(g).name == Path(ref).name), None)
        if match is None:
            raise RecordError(f"the record names a variant file ({ref!r}); replay reads variant files only from "
                              f"the command line: give it with --variant PATH")
        out.append(match)
    return out


def replay_command(record_path: str, ruleset: str, variants: Sequence[str] = ()) -> str:
    """The `regelwerk replay` command for a record; rules and variant files named by path are given on
    the command line."""
    extra = "" if _NAME.fullmatch(ruleset) else f" --ruleset {shlex.quote(ruleset)}"
    extra += "".join(f" --variant {shlex.quote(variant_ref(v))}" for v in variants if is_variant_file(v))
    return f"regelwerk replay {shlex.quote(record_path)}{extra}"


def replay(record: Record, ruleset: Optional[str] = None, variants: Sequence[str] = ()) -> State:
    """Applies every label from the seeded initial state; the first illegal one, or a chance outcome the
    seed does not give, stops it by step number. `ruleset`, `variants`: paths the user gave for the rules."""
    try:
        game = load_game(ruleset_source(record, ruleset), variant_sources(record, variants), record.players)
    except RulesError as exc:
        raise RecordError(f"the rules the record names do not load:\n{exc.render()}") from None
    except (ValueError, OSError) as exc:  # an unknown variant or ruleset, a player count the game has not
        raise RecordError(str(exc)) from None
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
        action = legal.index(label)
        if state.is_chance_node() and record.chance == SEEDED:
            action = state.sample_chance()
            if legal[action] != label:
                raise RecordError(f"step {step} of {total}: the chance outcome '{label}' is not the one the seed "
                                  f"gives ('{legal[action]}'); the record was edited")
        try:
            state.apply_action(action)
        except GameRuleError as exc:
            raise RecordError(f"step {step} of {total}: '{label}' breaks a rule: {exc}") from None
    return state
