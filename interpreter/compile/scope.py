"""Names visible while compiling: frame slots of a block's locals, Python variables of generated
code, and the capturing scope of code that runs later (modifiers, restrictions)."""
from __future__ import annotations

import itertools
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Iterator, Optional, Union

from interpreter.compile.types import T

if TYPE_CHECKING:
    from interpreter.runtime.program import ZoneSpec

# the numbers of the Python names a compiler gives (Scope.define_py): its own, so that the same rules give the same
# generated code in every process, however many it compiled before (the code cache finds it by its text)
_numbers: ContextVar[Iterator[int]] = ContextVar("regelwerk_name_numbers", default=itertools.count())


@contextmanager
def numbering(numbers: Iterator[int]) -> Iterator[None]:
    """Python names defined meanwhile take their numbers from `numbers`."""
    token = _numbers.set(numbers)
    try:
        yield
    finally:
        _numbers.reset(token)


class Layout:
    """Slot allocation for one frame's locals; nested scopes share it."""

    def __init__(self) -> None:
        self.size = 0

    def alloc(self) -> int:
        self.size += 1
        return self.size - 1


class Scope:
    """Names visible at one place: frame slots (ints) or Python variables of generated code (strs)."""

    def __init__(self, layout: Layout, parent: Optional["Scope"] = None, note: str = "") -> None:
        self.layout = layout
        self.parent = parent
        self.names: dict[str, tuple[Union[int, str], T]] = {}
        self.index_of: dict[str, int] = {}  # names that run over positions(family): index it unchecked
        self.sources: dict[str, "ZoneSpec"] = {}  # a loop's card, where it still lies in this family when moved
        self.seats: set[str] = set()  # names that hold a player's seat (0 to n - 1) until they are set
        self.note = note  # why outer locals are not visible here, for the error message

    def define(self, name: str, t: T, index_of: Optional[int] = None, seat: bool = False) -> int:
        slot = self.layout.alloc()
        self._fresh(name)
        self.names[name] = (slot, t)
        if index_of is not None:
            self.index_of[name] = index_of
        if seat:
            self.seats.add(name)
        return slot

    def define_py(self, name: str, t: T, index_of: Optional[int] = None) -> str:
        ident = f"_v{next(_numbers.get())}_{name}"
        self._fresh(name)
        self.names[name] = (ident, t)
        if index_of is not None:
            self.index_of[name] = index_of
        return ident

    def _fresh(self, name: str) -> None:
        """A name defined again in this scope (`let p = …` in a loop over seats) knows nothing its old definition did."""
        self.index_of.pop(name, None)
        self.seats.discard(name)
        self.sources.pop(name, None)

    def forget_index(self, name: str) -> None:
        """A name that is set may leave the family's range (or the seats): its reads are checked from here on."""
        if name in self.names:
            self.index_of.pop(name, None)
            self.seats.discard(name)
        elif self.parent is not None:
            self.parent.forget_index(name)

    def forget_source(self, name: str) -> None:
        """A loop's card once moved: no longer where its source found it (a give after the move asks its family)."""
        if name in self.names:
            self.sources.pop(name, None)
        elif self.parent is not None:
            self.parent.forget_source(name)

    def safe_index(self, name: str) -> Optional[int]:
        """The family whose positions `name` runs over, if its nearest definition says so."""
        if name in self.names:
            return self.index_of.get(name)
        return self.parent.safe_index(name) if self.parent is not None else None

    def is_seat(self, name: str) -> bool:
        """Whether `name`, by its nearest definition, holds a player's seat (a turn's player, an action's `me`)."""
        if name in self.names:
            return name in self.seats
        return self.parent.is_seat(name) if self.parent is not None else False

    def card_source(self, name: str) -> Optional["ZoneSpec"]:
        """The family the card `name` lies in where it is moved, if its nearest definition says so."""
        if name in self.names:
            return self.sources.get(name)
        return self.parent.card_source(name) if self.parent is not None else None

    def lookup(self, name: str) -> Optional[tuple[Union[int, str], T]]:
        if name in self.names:
            return self.names[name]
        return self.parent.lookup(name) if self.parent is not None else None

    def all_names(self) -> list[str]:
        out: list[str] = []
        scope: Optional[Scope] = self
        while scope is not None:
            out.extend(scope.names)
            scope = scope.parent
        return out

    def child(self) -> "Scope":
        return Scope(self.layout, self, self.note)


class CaptureScope(Scope):
    """The scope of code that runs later (a modifier, a restriction): the creating block's locals
    it names are captured by value when it is created, and become extra parameters of its code."""

    def __init__(self, outer: Scope, note: str) -> None:
        super().__init__(Layout(), None, note)
        self.outer = outer
        self.captured: list[tuple[int, str]] = []  # (slot in the creating frame, parameter name)

    def lookup(self, name: str) -> Optional[tuple[Union[int, str], T]]:
        if name in self.names:
            return self.names[name]
        found = self.outer.lookup(name)
        if found is None or not isinstance(found[0], int):
            return found
        ident = f"_k{len(self.captured)}_{name}"
        self.captured.append((found[0], ident))
        self.names[name] = (ident, found[1])
        return self.names[name]

    def params(self) -> str:
        return "".join(", " + ident for _, ident in self.captured)

    def slots(self) -> list[int]:
        return [slot for slot, _ in self.captured]


def _chain(scope: Optional[Scope]) -> Iterator[Scope]:
    """A scope and those around it, through a capturing scope to the block that creates it."""
    while scope is not None:
        yield scope
        scope = scope.outer if isinstance(scope, CaptureScope) else scope.parent


def _visible_names(scope: Scope) -> list[str]:
    return [name for s in _chain(scope) for name in s.names]


def _captures(scope: Scope) -> bool:
    return any(isinstance(s, CaptureScope) for s in _chain(scope))
