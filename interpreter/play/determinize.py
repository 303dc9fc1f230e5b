"""Determinization: a full state sampled from what one seat has seen, so a bot can look ahead on it
without reading anything hidden from that seat (LANGUAGE.md 1.18)."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from interpreter.compile.types import T
from interpreter.runtime.observation import card_visible
from interpreter.runtime.ops import CHANCE

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def _group(st: "State", c: int) -> tuple[Any, ...]:
    """What a seat sees of a card it cannot see: its kind and its back fields (as text, so a list field
    can be a key); such cards may trade places."""
    prog = st.game.program
    kind = prog.kinds[prog.card_kind[c]]
    return (kind.name, *(repr(v) for v, back in zip(st.card_vals[c], kind.back) if back))


def unseen_places(st: "State", seat: int) -> dict[tuple[Any, ...], list[tuple[int, int]]]:
    """The places (zone, index) of the cards `seat` cannot see, by what it sees of them."""
    places: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
    for z, cards in enumerate(st.zones):
        for i, c in enumerate(cards):
            if not card_visible(st, c, seat):
                places.setdefault(_group(st, c), []).append((z, i))
    return places


def uncertain(state: "State", seat: int) -> bool:
    """Whether samples can differ: two unseen cards alike to the seat, or another seat's hidden value."""
    hidden = bool(state.game.program.hidden) and state.game.num_players > 1
    return hidden or any(len(places) > 1 for places in unseen_places(state, seat).values())


def determinize(state: "State", seat: int, rng: random.Random) -> "State":
    """A clone equal to `state` in everything `seat` observes, with the rest drawn from `rng` alone:
    the same observation and the same rng state give the same sample, whatever the hidden truth.

    Cards: the unseen cards of one group (kind and back fields) are dealt at random over the places
    where unseen cards of that group lie, each zone keeping its count (so kinds and capacities hold).
    A card's identity moves with its values (`set` changes belong to the card); what the others know of
    a place stays with the place: its `owner` and the seats a card there was shown to. Card-typed
    variables and card fields follow the card from their place. Locals of running frames are not
    rewritten: they keep naming the card they named, now wherever it lies (sound while the seat's own
    decision is open, whose frames name only cards it saw). The log stays as the seat read it.
    Values: the other seats' `hidden` player values go back to their start values (never read), a
    hidden currency's bank balance is set from them. The random stream gets a seed from `rng` (the real
    one would foretell the chance outcomes). An open chance node or another seat's decision is
    opened again on the sample (its options may name the moved cards; a GameRuleError if the sample
    cannot open it); the seat's own decision is kept, as its options are part of what it observes."""
    d = state.clone()
    d.edited()  # written to below: a failing step goes back to the sample, not by replaying the real game's steps
    moved: dict[int, int] = {}  # old card at a place → the card dealt there
    for _, places in sorted(unseen_places(state, seat).items(), key=lambda kv: kv[1][0]):
        if len(places) < 2:
            continue
        cards = sorted(state.zones[z][i] for z, i in places)  # by number: the real places are not used
        rng.shuffle(cards)
        for (z, i), c in zip(places, cards):
            old = state.zones[z][i]
            moved[old] = c
            d.zones[z][i] = c
            d.where[c] = z
            d.owner[c] = state.owner[old]
            known = state.known[old]
            d.known[c] = ~known if known < 0 else known  # face down (State.known)
    changed = {old: c for old, c in moved.items() if old != c}
    if changed:
        _follow(d, changed)
    _conceal(d, seat)
    d.seed, d.draws = rng.getrandbits(63), 0  # the real seed would tell the chance outcomes to come
    pending = d.pending
    if pending is not None and (pending[0] == CHANCE or pending[1] != seat) and moved:
        _reopen(d)
    return d


def _remap(t: T, v: Any, moved: dict[int, int]) -> Any:
    """A value of type t with each moved card replaced by the card now at its place."""
    if t.name == "card" and isinstance(v, int):
        return moved.get(v, v)
    if t.name == "list" and t.elem is not None and isinstance(v, list):
        elem = t.elem
        if elem.name == "card":
            return [moved.get(x, x) if isinstance(x, int) else x for x in v]
        if elem.name != "list":
            return v  # no card in it
        return [_remap(elem, x, moved) for x in v]
    return v


def _follow(d: "State", moved: dict[int, int]) -> None:
    """Card-typed variables and card fields that named a moved card name the card now at its place."""
    prog = d.game.program
    d.gvars = [_remap(t, v, moved) for (_, t, _), v in zip(prog.gvars, d.gvars)]
    d.pvars = [[_remap(t, v, moved) for (_, t, _), v in zip(prog.pvars, row)] for row in d.pvars]
    for c, row in enumerate(d.card_vals):
        types = prog.kinds[prog.card_kind[c]].types
        if any(t.name in ("card", "list") for t in types):
            d.card_vals[c] = [_remap(t, v, moved) for t, v in zip(types, row)]


def _conceal(d: "State", seat: int) -> None:
    """The other seats' hidden values set to their start values; a hidden currency's bank balances them."""
    prog = d.game.program
    for p in d.game.players:
        if p != seat:
            for i in prog.hidden:
                d.pvars[p][i] = prog.pvars[i][2](d, [p])
    for pidx, bank in prog.currencies.values():
        if pidx in prog.hidden:
            d.gvars[bank] = -sum(row[pidx] for row in d.pvars)


def _reopen(d: "State") -> None:
    """Runs the op that opened the node again on a clone (as loading a saved state does) and takes its node."""
    probe = d.clone()
    fr = probe.frames[-1]
    op: Callable[..., Any] = d.game.code[fr[0]][fr[1] - 1]
    op(probe, fr)
    d.pending = probe.pending
