"""Saved states are input, not trusted: a pydantic schema at the edge, then the engine's invariants,
then the open node recomputed from the state. Every problem becomes one SavedStateError."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from interpreter.runtime.ops import CHANCE, DECIDE, L_DECIDE, L_MOVE, L_PAY, L_PHASE, L_REVEAL, L_ROUND, L_TEXT, MAX_DEPTH

if TYPE_CHECKING:
    from interpreter.compile.types import T
    from interpreter.runtime.game import Game
    from interpreter.runtime.state import State

FORMAT = "regelwerk-state/1"
MAX_NESTING = 32  # lists inside lists in a local, variable or log entry; the engine's own values are flat
MAX_ITEMS = 1_000_000  # scalars in one value: far above any real state, far below a memory bomb
MAX_INT = 1 << 63  # numbers in a game stay far below; 10**4000 gold is a forgery

Seed = Annotated[int, Field(strict=True, ge=-(1 << 63), lt=1 << 64)]
Count = Annotated[int, Field(strict=True, ge=0, lt=1 << 63)]


class SavedStateError(ValueError):
    """A saved state that is malformed or inconsistent; the message names the field and what is wrong."""


class SavedState(BaseModel):
    """The shape of a saved state; values of rules-defined types are checked against the game after it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built at the first load, not at import
    format: Literal["regelwerk-state/1"]
    ruleset: StrictStr
    variants: list[StrictStr]
    players: StrictInt
    program: Optional[StrictStr] = None  # Program.layout; saves from before it have none
    seed: Seed
    draws: Count
    round: Count
    phase: StrictStr
    zones: list[list[StrictInt]]
    face_up: list[StrictBool]
    known: Optional[list[StrictInt]] = None  # saves from before private reveals have none
    owner: list[StrictInt]
    changed_cards: dict[StrictStr, list[Any]]
    gvars: list[Any]
    pvars: list[list[Any]]
    frames: list[tuple[StrictInt, StrictInt, list[Any]]]
    mods: list[tuple[StrictInt, StrictInt, list[Any]]]
    forbids: list[tuple[StrictInt, StrictInt, list[Any]]]
    pending: Optional[tuple[StrictInt, StrictInt, Optional[list[StrictStr]], list[Any], StrictInt]]
    log: list[list[Any]]
    history: list[StrictStr]
    returns: Optional[list[Annotated[float, Field(strict=True, allow_inf_nan=False)]]]


def _reject_constant(name: str) -> Any:
    raise SavedStateError(f"not a saved state: {name} is not a number JSON allows")


def parse(text: str) -> dict[str, Any]:
    """The JSON object of a saved state; bad JSON, NaN and absurd nesting are one SavedStateError."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise SavedStateError("not a saved state: the JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers beyond Python's digit limit
        if isinstance(exc, SavedStateError):
            raise
        raise SavedStateError(f"not a saved state: {exc}") from None
    if not isinstance(data, dict):
        raise SavedStateError("not a saved state: the JSON is not an object")
    return data


def validate(game: "Game", data: Any) -> SavedState:
    """The schema, then every invariant the engine relies on; the first problem found is raised."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SavedStateError(f"not a saved state of format {FORMAT}")
    try:
        saved = SavedState.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise SavedStateError(f"{where}: {err['msg']}") from None
    except RecursionError:
        raise SavedStateError("not a saved state: a value is nested too deeply") from None
    if saved.ruleset != game.ruleset or saved.variants != game.variants or saved.players != game.num_players:
        raise SavedStateError("the saved state belongs to another game "
                              f"({saved.ruleset}, variants {saved.variants}, {saved.players} players)")
    if saved.program is not None and saved.program != game.program.layout:
        raise SavedStateError(f"program: the state was saved from a program laid out as {saved.program}, this one is "
                              f"{game.program.layout}: the rules or the engine changed since, and its frames would "
                              "resume at other steps")
    _check_cards(game, saved)
    _check_vars(game, saved)
    _check_stack(game, saved)
    _check_log(game, saved)
    return saved


def _sane(value: Any, depth: int = 0, budget: Optional[list[int]] = None) -> bool:
    """Plain JSON data the engine could have made: ints, bools, texts, None, lists and text-keyed maps."""
    budget = budget if budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_NESTING:
        return False
    if value is None or isinstance(value, (bool, str)):
        return True
    if isinstance(value, int):
        return -MAX_INT <= value < MAX_INT
    if isinstance(value, list):
        return all(_sane(v, depth + 1, budget) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _sane(v, depth + 1, budget) for k, v in value.items())
    return False


def _typed(game: "Game", t: T, v: Any) -> bool:
    """Whether v is a value of the rules type t in this game (player -1 is the bank, as in `owner`)."""
    name = t.name
    if name == "int":
        return type(v) is int and -MAX_INT <= v < MAX_INT
    if name == "bool":
        return type(v) is bool
    if name == "text":
        return isinstance(v, str)
    if name == "player":
        return type(v) is int and -1 <= v < game.num_players
    if name == "card":
        return type(v) is int and 0 <= v < len(game.card_ids)
    if name == "zone":
        return type(v) is int and 0 <= v < len(game.zone_names)
    if name == "family":
        return type(v) is int and 0 <= v < len(game.fam_zones)
    if name == "enum":
        return isinstance(v, str) and v in game.program.enums.get(t.arg, ())
    if name == "list":
        return isinstance(v, list) and (t.elem is None or all(_typed(game, t.elem, x) for x in v))
    return _sane(v)


def _shown(v: Any) -> str:
    """A value for an error message, cut short: a forged one may be huge."""
    text = repr(v) if not isinstance(v, int) or abs(v) < MAX_INT else "a number beyond 64 bits"
    return text if len(text) <= 40 else text[:37] + "..."


def _card_name(game: "Game", c: int) -> str:
    return f"'{game.card_ids[c]}'"


def _check_cards(game: "Game", s: SavedState) -> None:
    """Every card lies in exactly one zone of this game, within capacity, with flags and values in range."""
    ncards, nzones, prog = len(game.card_ids), len(game.zone_names), game.program
    if len(s.zones) != nzones:
        raise SavedStateError(f"zones: {len(s.zones)} zones, this game has {nzones}")
    where: list[Optional[int]] = [None] * ncards
    for z, cards in enumerate(s.zones):
        cap = game.zone_cap[z]
        if cap is not None and len(cards) > cap:
            raise SavedStateError(f"zones: {game.zone_names[z]} holds {len(cards)} cards, at most {cap} fit")
        for c in cards:
            if not 0 <= c < ncards:
                raise SavedStateError(f"zones: zone {z} holds card {c}, this game has cards 0 to {ncards - 1}")
            holds = prog.zones[game.zone_family[z]].kind
            if holds in prog.kinds and prog.card_kind[c] != holds:
                raise SavedStateError(f"zones: {game.zone_names[z]} holds {holds} cards, not {_card_name(game, c)}")
            seen = where[c]
            if seen is not None:
                raise SavedStateError(f"zones: card {_card_name(game, c)} lies in two zones ({seen} and {z})")
            where[c] = z
    if None in where:
        raise SavedStateError(f"zones: card {_card_name(game, where.index(None))} lies in no zone")
    for key, values in (("face_up", s.face_up), ("owner", s.owner), ("known", s.known)):
        if values is not None and len(values) != ncards:
            raise SavedStateError(f"{key}: {len(values)} entries, this game has {ncards} cards")
    for c, p in enumerate(s.owner):
        if not -1 <= p < game.num_players:
            raise SavedStateError(f"owner: card {_card_name(game, c)} belongs to seat {p}, which is no player")
    for c, mask in enumerate(s.known or []):
        if not 0 <= mask <= game.all_mask:
            raise SavedStateError(f"known: card {_card_name(game, c)} was shown to seats {mask}, which are no players")
    for key, values in (("face_up", s.face_up), ("known", s.known)):
        shown = next((c for c, v in enumerate(values or []) if v and prog.card_kind[c] in prog.unshown), None)
        if shown is not None:
            raise SavedStateError(f"{key}: card {_card_name(game, shown)} was shown, but no rule reveals a "
                                  f"{prog.card_kind[shown]} card and the rules rely on that")
    for key, row in s.changed_cards.items():
        c = int(key) if key.isdigit() and len(key) < 10 else -1
        if not 0 <= c < ncards:
            raise SavedStateError(f"changed_cards: '{key}' is not a card number of this game")
        kind = prog.kinds[prog.card_kind[c]]
        if len(row) != len(kind.fields):
            raise SavedStateError(f"changed_cards: card {_card_name(game, c)} has {len(row)} values, "
                                  f"a {kind.name} has {len(kind.fields)}")
        for name, t, v, base in zip(kind.fields, kind.types, row, game.card_vals[c]):
            if v != base if t.name == "effect" else not _typed(game, t, v):
                raise SavedStateError(f"changed_cards: card {_card_name(game, c)}: {name} = {_shown(v)} "
                                      f"is not a value of type {t}")
            if v != base and (kind.name, name) in prog.printed:
                raise SavedStateError(f"changed_cards: card {_card_name(game, c)}: {name} = {_shown(v)}, but no "
                                      f"rule changes its printed {_shown(base)}")


def _check_vars(game: "Game", s: SavedState) -> None:
    """Variables of their declared types; each currency in whole coins that the players and bank conserve."""
    prog = game.program
    if len(s.gvars) != len(prog.gvars):
        raise SavedStateError(f"gvars: {len(s.gvars)} values, this game has {len(prog.gvars)} variables")
    for (name, t, _), v in zip(prog.gvars, s.gvars):
        if not _typed(game, t, v):
            raise SavedStateError(f"gvars: {name} = {_shown(v)} is not a value of type {t}")
    if len(s.pvars) != game.num_players:
        raise SavedStateError(f"pvars: {len(s.pvars)} players, this game has {game.num_players}")
    for p, row in enumerate(s.pvars):
        if len(row) != len(prog.pvars):
            raise SavedStateError(f"pvars: P{p + 1} has {len(row)} values, this game has {len(prog.pvars)}")
        for (name, t, _), v in zip(prog.pvars, row):
            if not _typed(game, t, v):
                raise SavedStateError(f"pvars: P{p + 1}.{name} = {_shown(v)} is not a value of type {t}")
    for name, (pidx, bank) in prog.currencies.items():
        for p, row in enumerate(s.pvars):
            if row[pidx] < 0:
                raise SavedStateError(f"pvars: P{p + 1} holds {row[pidx]} {name}; no payment leaves a player below 0")
        held = sum(row[pidx] for row in s.pvars)
        if held + s.gvars[bank] != 0:
            raise SavedStateError(f"pvars: the players hold {held} {name} and the bank's balance is "
                                  f"{s.gvars[bank]}; paying moves {name}, so the two add up to 0")


def _check_stack(game: "Game", s: SavedState) -> None:
    """Frames name existing blocks with the program counter in range and as many locals as the block has;
    modifiers and prohibitions name existing ones; an open node needs a frame to resume."""
    if len(s.frames) > MAX_DEPTH + 1:
        raise SavedStateError(f"frames: {len(s.frames)} frames, the engine stops at {MAX_DEPTH}")
    for i, (bid, pc, L) in enumerate(s.frames):
        if not 0 <= bid < len(game.code):
            raise SavedStateError(f"frames: frame {i} runs block {bid}, this game has blocks 0 to {len(game.code) - 1}")
        first = 0 if i < len(s.frames) - 1 else 1  # a trigger's frame waits below at step 0 until it runs
        if not first <= pc <= len(game.code[bid]):
            raise SavedStateError(f"frames: frame {i} stands at step {pc} of a block of {len(game.code[bid])} steps")
        if len(L) != game.nlocals[bid]:
            raise SavedStateError(f"frames: frame {i} has {len(L)} locals, its block has {game.nlocals[bid]}")
        if not _sane(L):
            raise SavedStateError(f"frames: frame {i} holds a local that is no plain value")
    for key, table, defs in (("mods", s.mods, game.program.moddefs), ("forbids", s.forbids, game.program.forbids)):
        for ident, scope, captured in table:  # the scope its definition gives: expiry code exists only for those
            if not 0 <= ident < len(defs) or scope != defs[ident].scope or not _sane(captured):
                raise SavedStateError(f"{key}: entry ({ident}, {scope}, …) names no {key[:-1]} of this game")
    if s.pending is not None and not s.frames:
        raise SavedStateError("pending: an open node but no frame to resume")
    if s.pending is None and s.frames:
        raise SavedStateError(f"pending: null, but {len(s.frames)} frames are still running; "
                              "only a finished game has no open node")
    if s.pending is not None and s.returns is not None:
        raise SavedStateError("returns: a game in progress has no returns")


# log entry tag → its allowed lengths (tag included)
_LOG_SHAPES = {L_MOVE: (5,), L_REVEAL: (2, 4), L_PAY: (5,), L_DECIDE: (3,), L_ROUND: (2,), L_PHASE: (2,),
               L_TEXT: (2, 3)}


def _check_log(game: "Game", s: SavedState) -> None:
    """Each entry has a known tag and shape, and the cards, zones and seats it names exist."""
    ncards, nzones = len(game.card_ids), len(game.zone_names)
    for i, e in enumerate(s.log):
        tag = e[0] if e else None
        ok = type(tag) is int and len(e) in _LOG_SHAPES.get(tag, ()) and _sane(e)
        if ok and tag in (L_MOVE, L_REVEAL):
            ok = all(type(x) is int for x in e) and 0 <= e[1] < ncards
            ok = ok and (tag != L_MOVE or (0 <= e[2] < nzones and 0 <= e[3] < nzones))
        elif ok and tag == L_PAY:
            ok = (all(type(x) is int and -1 <= x < game.num_players for x in e[1:3]) and type(e[3]) is int
                  and e[4] in game.program.currencies)
        elif ok and tag == L_DECIDE:
            ok = type(e[1]) is int and 0 <= e[1] < game.num_players and isinstance(e[2], str)
        elif ok and tag == L_TEXT:
            ok = isinstance(e[1], str) and (len(e) == 2 or isinstance(e[2], dict))
        if not ok:
            raise SavedStateError(f"log: entry {i} is not a log entry of this game")


def _plain(value: Any) -> Any:
    """value as it reads back from JSON (tuples become lists), to compare a recomputed node with a saved one."""
    return json.loads(json.dumps(value))


def resume(state: "State", s: SavedState) -> None:
    """Sets the open node, or the returns, from the state itself: the op that opened the node runs again
    on a clone and must open the saved node; a finished game is scored again. The file only confirms."""
    if s.pending is None:
        try:
            state._finish()
        except Exception as exc:  # the scores read the untrusted state; any failure is the file's fault
            raise SavedStateError(f"returns: the finished game cannot be scored ({type(exc).__name__}: {exc})") from None
        if s.returns != state._returns:
            raise SavedStateError(f"returns: the file says {s.returns}, the scores give {state._returns}")
        return
    probe = state.clone()
    fr = probe.frames[-1]
    op = state.game.code[fr[0]][fr[1] - 1]
    try:
        opened = op(probe, fr)
    except Exception as exc:  # untrusted locals can break the op in any way; that is the file's fault
        raise SavedStateError(f"pending: the open node cannot be recomputed from the state "
                              f"({type(exc).__name__}: {exc})") from None
    node = probe.pending
    if not opened or node is None or node[0] not in (DECIDE, CHANCE):
        raise SavedStateError("pending: the last frame does not stand after a decision or chance step")
    expected = _plain(state._saved_pending(node))
    if expected != _plain(list(s.pending)):
        what = "decision" if node[0] == DECIDE else "chance node"
        raise SavedStateError(f"pending: the saved options differ from the {what} the state opens "
                              f"({len(node[3])} options, seat {node[1]})")
    state.pending = node
