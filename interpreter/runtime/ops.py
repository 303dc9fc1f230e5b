"""Builders of the engine's statement ops `op(state, frame)` over plain data that suspend, call or do
more than a few lines (the simple ones are Python snippets, compile/blocks.py), and option labels.
This is the hot path: no pydantic, no type checks here (the compiler checked everything)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.program import Fn, Op

if TYPE_CHECKING:
    from interpreter.compile.types import T
    from interpreter.runtime.state import State

DECIDE, CHANCE = 0, 1  # node kinds; State.apply_action and sample_chance tell them by truth (CHANCE the true one)
# log entry tags
L_MOVE, L_REVEAL, L_PAY, L_DECIDE, L_ROUND, L_PHASE, L_TEXT = range(7)

Fmt = Callable[["State", Any], str]


# ================================================================== value formatting (labels)


def formatter(t: T) -> Fmt:
    """How a value of type t is shown in a stable option label."""
    if t.name == "card":
        return lambda st, v: st.game.card_ids[v]
    if t.name == "player":
        return lambda st, v: f"P{v + 1}"
    if t.name == "bool":
        return lambda st, v: "yes" if v else "no"
    if t.name == "list" and t.elem is not None:
        inner = formatter(t.elem)
        return lambda st, v: "[" + ", ".join(inner(st, x) for x in v) + "]"
    return lambda st, v: str(v)


def unique(labels: list[str]) -> list[str]:
    """Labels of one decision must differ; equal ones get a running number."""
    if len(set(labels)) == len(labels):
        return labels
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


# ================================================================== statements


def push_block(bid: int) -> Op:
    def op(st: "State", fr: list[Any]) -> None:
        st.frames.append([bid, 0, [None] * st.game.nlocals[bid]])
    return op


def check_seat(st: "State", who: int) -> int:
    """A decision goes to a seat that exists; the bank (-1) or any other number is a rules error."""
    if not 0 <= who < st.game.num_players:
        raise GameRuleError(f"a decision for seat {who}, which is no player (the players are seats 0 to "
                            f"{st.game.num_players - 1}, P1 to P{st.game.num_players})")
    return who


def labels_of(t: T) -> Callable[["State", list[Any]], list[str]]:
    """The labels of a list of values of type t, made at once: without a call per value where formatter's is
    a lookup, a format or `str`."""
    if t.name == "card":
        return lambda st, values: list(map(st.game.card_ids.__getitem__, values))
    if t.name == "player":
        return lambda st, values: [f"P{v + 1}" for v in values]
    if t.name in ("bool", "list"):
        fmt = formatter(t)
        return lambda st, values: [fmt(st, v) for v in values]
    return lambda st, values: list(map(str, values))


def distinct(labels: list[str], values: list[Any]) -> tuple[list[str], list[Any]]:
    """A choice among equal values is one option, the first of them: the labels and values with each label once."""
    by_label: dict[str, Any] = {}
    for text, v in zip(labels, values):
        by_label.setdefault(text, v)
    return list(by_label), list(by_label.values())


def reveal_to(what: Fn, seats: Fn, single: bool) -> Op:
    """Shows cards to some seats only; the log entry `(L_REVEAL, c, shown, readers)` names the card
    to the shown seats and to whoever sees it anyway (plain public reveals have no seat masks)."""
    def op(st: "State", fr: list[Any]) -> None:
        L = fr[2]
        who = seats(st, L)
        mask = 0
        for p in [who] if single else who:
            if not 0 <= p < st.game.num_players:
                raise GameRuleError(f"a card can be shown only to a player, not to {p}")
            mask |= 1 << p
        for c in what(st, L):
            sees, known = st.game.sees(st.where[c], c, st.owner), st.known[c]
            if known < 0 or not mask & ~(known | sees):  # face up (State.known), or nothing new to see
                continue
            st.known[c] = known | mask
            st.log.append((L_REVEAL, c, mask, known | mask | sees))
    return op


def over_budget(st: "State") -> None:
    """Raises the error of a run that went past a budget of its game's Limits."""
    lim = st.game.limits
    if len(st.log) > lim.max_log:
        raise GameRuleError(f"the game has written more than {lim.max_log} log entries; does it never end? "
                            "(the budget is REGELWERK_MAX_LOG)")
    if len(st.history) > lim.max_actions:
        raise GameRuleError(f"the game has taken more than {lim.max_actions} decisions and chance outcomes; "
                            "does it never end? (the budget is REGELWERK_MAX_ACTIONS)")
    raise GameRuleError(f"more than {lim.max_steps} loop rounds and calls without a decision, a chance event or "
                        "the end of the game; does this loop never end? (the budget is REGELWERK_MAX_STEPS)")


MAX_DEPTH = 200  # frames; deeper means triggers that keep setting each other off


def guard_depth(st: "State") -> None:
    if len(st.frames) > MAX_DEPTH:
        raise GameRuleError(f"more than {MAX_DEPTH} rules, effects and triggers are running inside each other; "
                            "do two triggers keep setting each other off?")


def set_card_field(obj: Fn, field: str, fn: Fn) -> Op:
    """Changes a card's base value, for a card whose kind is known only at run time (blocks.set_card_field
    where the compiler knows the field); rows are copied, never changed in place, so clones stay apart."""
    def op(st: "State", fr: list[Any]) -> None:
        L = fr[2]
        c = obj(st, L)
        kind = st.game.program.kinds[st.game.program.card_kind[c]]
        if field not in kind.index or kind.types[kind.index[field]].name == "effect":
            raise GameRuleError(f"{st.game.card_ids[c]} has no field '{field}' that can be set")
        if (kind.name, field) in st.game.program.printed:  # a scenario's arrange: the rules never set it
            raise GameRuleError(f"cannot set '{field}' of {st.game.card_ids[c]}: the rules rely on its printed values")
        fidx = kind.index[field]
        row = st.card_vals[c][:]
        row[fidx] = fn(st, L)
        st.card_vals[c] = row
    return op


def log_text(text: str, values: Sequence[tuple[str, Fn, str, Fmt]]) -> Op:
    """A text entry with its places filled; a card is kept as [card, seats that see it now] (a list of
    cards as a list of those), so each seat's log names only the cards that seat saw."""
    if not values:
        plain = text.format()  # '{{' is a brace

        def op_plain(st: "State", fr: list[Any]) -> None:
            st.log.append((L_TEXT, plain))
        return op_plain

    def op(st: "State", fr: list[Any]) -> None:
        L = fr[2]
        if not st.keep_log:  # only counted (State.keep_log); its values are worked out all the same, as one may fail
            for _, fn, _, _ in values:
                fn(st, L)
            st.log.append(())
            return
        filled: dict[str, Any] = {}
        game = st.game
        for name, fn, shape, fmt in values:  # shape: "card", "cards" or "value"
            v = fn(st, L)
            if shape == "value":
                filled[name] = fmt(st, v)
                continue
            pairs = [[c, game.all_mask if st.known[c] < 0 else st.known[c] | game.sees(st.where[c], c, st.owner)]
                     for c in ([v] if shape == "card" else v)]
            filled[name] = pairs[0] if shape == "card" else pairs
        st.log.append((L_TEXT, text, filled))
    return op


def end_game(st: "State", fr: list[Any]) -> None:
    st.frames.clear()
