"""The legal options of a `choose action` decision are every binding of the actions' parameters that
passes their `require` prefix (listed by generated code: compiler._option_listers) and no active `forbid`
(tested only while one is active: allowed). Labels are made only when asked for."""
from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any, Callable

from interpreter.runtime.errors import GameRuleError

if TYPE_CHECKING:
    from interpreter.runtime.program import ActionInfo
    from interpreter.runtime.state import State


def allowed(st: "State", seat: int, values: list[Any], first: int = 0) -> list[Any]:
    """The listed options `(action id, *parameters)` that no active `forbid` from the `first` on rules out, in their
    order: each restriction's generated `keep` drops those of its actions whose condition holds for the seat."""
    defs = st.game.program.forbids
    for fid, _, cap in st.forbids[first:]:
        try:
            values = defs[fid].keep(st, seat, values, *cap)
        except GameRuleError as exc:  # the restriction's own line
            raise exc.at(defs[fid].pos) from None
    return values


def option_label(st: "State", value: Any, seat: int) -> str:
    """The stable label of one action option, from the action's label template; `{me}` names the
    deciding seat. A label depends only on the option and the seat, so the game remembers it (Game.labels:
    a dict per seat, as a key of its own would cost a tuple and its hash, or one for all where no label names it)."""
    labels = st.game.labels[seat]
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
    make = action.make_label
    if make is None:
        make = action.make_label = _label_function(action)
    return str(make(st, seat, value))


def _label_function(action: "ActionInfo") -> Callable[["State", int, tuple[Any, ...]], str]:
    """The action's label template as generated code `(st, seat, option) → label`: its texts and fields joined
    without a format pass (a field is shown as ops.formatter shows its type, a card by its id inline; a field's
    conversion and format spec apply to that text, as `str.format` applies them)."""
    parts = []
    for text, name, spec, conv in string.Formatter().parse(action.label):
        if text:
            parts.append(repr(text))
        if name is None:
            continue
        k = next((i for i, p in enumerate(action.params) if p[0] == name), -1)  # -1: {me}
        shown = ("'P' + str(seat + 1)" if k < 0 else f"st.game.card_ids[option[{k + 1}]]"
                 if action.params[k][2].name == "card" else f"_formats[{k}](st, option[{k + 1}])")
        shown = f"{_CONVERSIONS[conv]}({shown})" if conv else shown
        parts.append(f"format({shown}, {spec!r})" if spec else shown)
    namespace: dict[str, Any] = {"_formats": action.formats}
    exec(f"def label(st, seat, option):\n    return {' + '.join(parts) or repr('')}", namespace)  # noqa: S102
    return namespace["label"]  # type: ignore[no-any-return]


_CONVERSIONS = {"r": "repr", "s": "str", "a": "ascii"}
