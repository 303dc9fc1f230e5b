"""The legal options of a `choose action` decision are every binding of the actions' parameters that
passes their `require` prefix (listed by generated code: compiler._option_lister) and no active `forbid`
(tested only while one is active: allowed). Labels are made only when asked for."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from interpreter.runtime.errors import GameRuleError

if TYPE_CHECKING:
    from dsl.ast import Pos
    from interpreter.runtime.state import State

Forbid = tuple[Optional[Callable[..., Any]], list[Any], "Pos"]


def allowed(st: "State", seat: int, values: list[Any]) -> list[Any]:
    """The listed options `(action id, parameters)` that no active `forbid` rules out, in their order: one
    whose condition holds for the seat and the option's parameters (or that has none)."""
    kept: list[Any] = []
    by_action: dict[int, list[Forbid]] = {}
    for value in values:
        aid, chosen = value
        forbids = by_action.get(aid)
        if forbids is None:
            forbids = by_action[aid] = restrictions(st, aid)
        for cond, cap, pos in forbids:
            try:
                if cond is None or cond(st, seat, *chosen, *cap):
                    break
            except GameRuleError as exc:  # the restriction's own line
                raise exc.at(pos) from None
        else:
            kept.append(value)
    return kept


def restrictions(st: "State", aid: int) -> list[Forbid]:
    """The active `forbid`s that name action `aid`: condition, captured values, position."""
    defs = st.game.program.forbids
    return [(defs[fid].where[aid], cap, defs[fid].pos) for fid, _, cap in st.forbids if aid in defs[fid].where]


def option_label(st: "State", value: Any, seat: int) -> str:
    """The stable label of one action option, from the action's label template; `{me}` names the
    deciding seat. A label depends only on the option and the seat, so the game remembers it."""
    labels = st.game.labels[seat]  # a dict per seat: a key of its own would cost a tuple and its hash
    try:
        return labels[value]
    except KeyError:
        label = labels[value] = _label(st, value, seat)
        if len(labels) > LABELS_KEPT:
            labels.clear()
        return label
    except TypeError:  # a parameter that is a list
        return _label(st, value, seat)


LABELS_KEPT = 100_000


def _label(st: "State", value: Any, seat: int) -> str:
    aid, chosen = value
    action = st.game.program.actions[aid]
    fields = {"me": f"P{seat + 1}"}
    for p, fmt, v in zip(action.params, action.formats, chosen):
        fields[p[0]] = fmt(st, v)
    return str(action.label.format_map(fields))
