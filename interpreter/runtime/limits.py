"""The engine's run-time budgets, so that a rules file that never stops fails with a located rules
error instead of hanging while its memory grows (the sizes checked at load are in dsl/limits.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

@dataclass(frozen=True)
class Limits:
    """Run-time budgets of one game. Override each with an environment variable, e.g.
    REGELWERK_MAX_STEPS=1000, or pass Limits(...) to Game."""

    max_steps: int = 1_000_000  # loop rounds and rule, effect and trigger calls between two stops
    max_log: int = 1_000_000  # log entries of a whole game
    max_actions: int = 100_000  # decisions and chance outcomes of a whole game
    max_int_bits: int = 4096  # size of a number that `*` makes
    max_list: int = 1_000_000  # items of a list that `range`, `concat` or `subsets` makes
    # log entries and actions together up to which neither is past its budget (the lesser of the two): a stop
    # compares their sum with it, and only a sum above it with each budget (State.past_written)
    max_both: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """A step budget of at least 1: the first spend of 1 after a stop cannot fail (compile/budget.py drops its
        test)."""
        if self.max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {self.max_steps}")
        object.__setattr__(self, "max_both", min(self.max_log, self.max_actions))

    @classmethod
    def from_env(cls) -> "Limits":
        """The defaults, with REGELWERK_MAX_STEPS / _LOG / _ACTIONS / _INT_BITS / _LIST taken from the environment."""
        values: dict[str, int] = {}
        for f in fields(cls):
            if not f.init:
                continue
            name = "REGELWERK_" + f.name.upper()
            text = os.environ.get(name)
            if text is not None:
                try:
                    values[f.name] = int(text)
                except ValueError:
                    raise ValueError(f"{name} must be a whole number, not {text!r}") from None
                if values[f.name] < 1:
                    raise ValueError(f"{name} must be at least 1, not {text}")
        return cls(**values)
