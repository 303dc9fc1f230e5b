"""The error a rules file causes while a game runs; every layer raises or catches it, so it lives at the bottom."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from dsl.ast import Pos


class GameRuleError(Exception):
    """A rules file asked for something impossible at run time (empty zone, unaffordable payment).
    The engine adds where in the rules it failed and the seed and decision that lead there again."""

    def __init__(self, message: str, file: Optional[str] = None, line: int = 0, col: int = 0,
                 seed: Optional[int] = None, actions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.file, self.line, self.col = file, line, col
        self.seed = seed
        self.actions = tuple(actions)  # the labels applied before it failed: a record that replays to it

    def at(self, pos: "Pos") -> "GameRuleError":
        """This error placed at pos, unless an inner, more exact position is known already."""
        if self.file is not None:
            return self
        return GameRuleError(self.message, pos.file, pos.line, pos.col, self.seed, self.actions)

    def during(self, seed: int, actions: Sequence[str]) -> "GameRuleError":
        """This error with the game's seed and the decisions and chance outcomes applied so far."""
        if self.seed is not None:
            return self
        return GameRuleError(self.message, self.file, self.line, self.col, seed, actions)

    @property
    def decision(self) -> int:
        return len(self.actions)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.file is not None else ""

    def __str__(self) -> str:
        text = f"{self.location}: runtime error: {self.message}" if self.file is not None else self.message
        return text + (f" (seed {self.seed}, after decision {self.decision})" if self.seed is not None else "")
