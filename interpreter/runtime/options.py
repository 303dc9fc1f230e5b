"""The legal options of a `choose action` decision are every binding of the actions' parameters that
passes their `require` prefix (listed by generated code: compiler._option_lister) and no active `forbid`
(tested only while one is active: allowed). Labels are made only when asked for."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.runtime.errors import GameRuleError

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def allowed(st: "State", seat: int, values: list[Any]) -> list[Any]:
    """The listed options `(action id, *parameters)` that no active `forbid` rules out, in their order: each
    restriction's generated `keep` drops those of its actions whose condition holds for the seat."""
    defs = st.game.program.forbids
    for fid, _, cap in st.forbids:
        try:
            values = defs[fid].keep(st, seat, values, *cap)
        except GameRuleError as exc:  # the restriction's own line
            raise exc.at(defs[fid].pos) from None
    return values


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
    action = st.game.program.actions[value[0]]
    fields = {"me": f"P{seat + 1}"}
    for p, fmt, v in zip(action.params, action.formats, value[1:]):
        fields[p[0]] = fmt(st, v)
    return str(action.label.format_map(fields))
