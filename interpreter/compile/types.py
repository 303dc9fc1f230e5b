"""Static types of the rules language, checked once at load so the engine never checks at run time."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class T:
    """A type: `name` is int, bool, text, player, card, zone, family, enum, list, map, effect or any.

    `arg` names the card kind, zone kind or enum; `elem` is the element type of lists and maps."""

    name: str
    arg: str = ""
    elem: Optional["T"] = None
    key: Optional["T"] = None

    def __str__(self) -> str:
        if self.name == "list":
            return f"list of {self.elem}"
        if self.name == "map":
            return f"map of {self.key} to {self.elem}"
        if self.arg:
            if self.name in ("zone", "family"):
                return f"{self.name} ({self.arg})"
            return f"{self.arg} card" if self.name == "card" else self.arg
        return self.name


INT = T("int")
BOOL = T("bool")
TEXT = T("text")
PLAYER = T("player")
ANY = T("any")
EFFECT = T("effect")
CARD = T("card")


def card(kind: str) -> T:
    return T("card", kind)


def list_of(elem: T) -> T:
    return T("list", elem=elem)


def enum(name: str) -> T:
    return T("enum", name)


def compatible(expected: T, got: T) -> bool:
    """Whether a value of type `got` may stand where `expected` is wanted."""
    if expected == got or expected.name == "any" or got.name == "any":
        return True
    if expected.name == got.name and expected.name in ("card", "zone"):
        return not expected.arg or not got.arg or expected.arg == got.arg
    if expected.name == "list" and got.name == "list":
        assert expected.elem is not None and got.elem is not None
        return compatible(expected.elem, got.elem)
    if expected.name == "map" and got.name == "map":
        return True
    return False


def element_type(t: T) -> Optional[T]:
    """What iterating over a value of type t yields: list items, or the cards of a zone or family."""
    if t.name in ("list", "family"):
        return t.elem
    if t.name == "zone":
        return card(t.arg)
    return None
