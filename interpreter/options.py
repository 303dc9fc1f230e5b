"""Enumerates the legal options of a `choose action` decision: every binding of the actions'
parameters that passes their `require` prefix and no active `forbid`, each with a stable label."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from interpreter.program import ActionInfo

if TYPE_CHECKING:
    from interpreter.state import State

Forbid = tuple[Callable[["State", list[Any]], Any] | None, list[int], int]


def enumerate_options(st: "State", seat: int, aids: list[int]) -> tuple[list[str], list[Any]]:
    labels: list[str] = []
    values: list[Any] = []
    prog = st.game.program
    for aid in aids:
        action = prog.actions[aid]
        forbids = [prog.forbids[fid].where[aid] for fid, _ in st.forbids if aid in prog.forbids[fid].where]
        L: list[Any] = [None] * action.nlocals
        L[0] = seat
        _bind(st, action, 0, L, seat, forbids, labels, values)
    if len(set(labels)) != len(labels):
        from interpreter.ops import unique
        labels = unique(labels)
    return labels, values


def _forbidden(st: "State", seat: int, chosen: list[Any], forbids: list[Forbid]) -> bool:
    for cond, slots, size in forbids:
        if cond is None:
            return True
        FL: list[Any] = [None] * size
        FL[0] = seat
        for slot, value in zip(slots, chosen):
            FL[slot] = value
        if cond(st, FL):
            return True
    return False


def _bind(st: "State", action: ActionInfo, k: int, L: list[Any], seat: int, forbids: list[Forbid],
          labels: list[str], values: list[Any]) -> None:
    """Binds parameter k and beyond, checking each requirement as soon as its inputs are bound."""
    for is_let, fn, slot in action.prefix[k]:
        if is_let:
            L[slot] = fn(st, L)
        elif not fn(st, L):
            return
    params = action.params
    if k == len(params):
        chosen = [L[p[2]] for p in params]
        if forbids and _forbidden(st, seat, chosen, forbids):
            return
        labels.append(action.label.format(**{p[0]: fmt(st, v) for p, fmt, v in zip(params, action.formats, chosen)}))
        values.append((action.aid, tuple(chosen)))
        return
    _, domain, slot, _ = params[k]
    for v in list(domain(st, L)):
        L[slot] = v
        _bind(st, action, k + 1, L, seat, forbids, labels, values)
