"""Helpers that generated expression code calls: the checks a Python expression cannot make inline
(bounds, empty zones, division by zero) and reads through active modifiers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from interpreter.primitives import GameRuleError

if TYPE_CHECKING:
    from interpreter.state import State


def family_cards(st: "State", fam: int) -> list[int]:
    out: list[int] = []
    zones = st.zones
    for z in st.game.fam_zones[fam]:
        out.extend(zones[z])
    return out


def member(st: "State", fam: int, i: int, name: str) -> int:
    zones = st.game.fam_zones[fam]
    if 1 <= i <= len(zones):
        return zones[i - 1]
    raise GameRuleError(f"{name}[{i}] does not exist (1 to {len(zones)})")


def map_get(mapping: dict[Any, Any], key: Any) -> Any:
    try:
        return mapping[key]
    except KeyError:
        raise GameRuleError(f"the map has no entry for {key!r}") from None


def list_get(items: list[Any], i: int) -> Any:
    if 1 <= i <= len(items):
        return items[i - 1]
    raise GameRuleError(f"position {i} is outside the list (1 to {len(items)})")


def pick(items: list[Any], index: int, what: str) -> Any:
    if not items:
        raise GameRuleError(f"{what} of an empty list or zone")
    return items[index]


def extreme(fn: Callable[..., Any], items: list[Any], what: str) -> Any:
    if not items:
        raise GameRuleError(f"{what} of an empty list")
    return fn(items)


def divide(x: int, y: int) -> int:
    if y == 0:
        raise GameRuleError("division by zero")
    return x // y


def modulo(x: int, y: int) -> int:
    if y == 0:
        raise GameRuleError("division by zero")
    return x % y


def sorted_by(keyed: list[tuple[Any, Any]]) -> list[Any]:
    keyed.sort(key=lambda kv: kv[0])
    return [v for _, v in keyed]


def modified(st: "State", c: int, fidx: int, kind: str) -> Any:
    """A field some modifier may change: the printed value, then every active modifier in order."""
    v = st.game.card_vals[c][fidx]
    if st.mods:
        moddefs = st.game.program.moddefs
        for mid, _ in st.mods:
            md = moddefs[mid]
            if md.field == fidx and md.kind == kind and (md.where is None or md.where(st, c)):
                v = v + md.value(st, c) if md.add else md.value(st, c)
    return v


def dynamic_field(st: "State", c: int, name: str) -> Any:
    prog = st.game.program
    kind = prog.kinds[prog.card_kind[c]]
    if name not in kind.index:
        raise GameRuleError(f"{st.game.card_ids[c]} has no field '{name}'")
    return st.game.card_vals[c][kind.index[name]]


def card_by_id(st: "State", cid: str) -> int:
    index = st.game.card_index
    if cid not in index:
        raise GameRuleError(f"there is no card '{cid}'")
    return index[cid]


ENV: dict[str, Any] = {
    "_famcards": family_cards, "_member": member, "_mapget": map_get, "_listget": list_get, "_pick": pick,
    "_extreme": extreme, "_div": divide, "_mod": modulo, "_sorted_by": sorted_by, "_modified": modified,
    "_dynfield": dynamic_field, "_card": card_by_id, "GameRuleError": GameRuleError,
}
