"""The generic engine: it knows no game, only the rules language. Its names are imported on first use, so
`regelwerk --help` and other light commands do not pay for the parser and compiler."""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.compile.loading import load_game, load_program
    from interpreter.runtime.errors import GameRuleError
    from interpreter.runtime.saved import SavedStateError
    from interpreter.runtime.state import (
        CHANCE_PLAYER,
        TERMINAL_PLAYER,
        IllegalActionError,
        NotASeatError,
        State,
        StateUsageError,
        WrongNodeError,
    )

_HOMES = {"load_game": "interpreter.compile.loading", "load_program": "interpreter.compile.loading",
          "SavedStateError": "interpreter.runtime.saved", "State": "interpreter.runtime.state",
          "CHANCE_PLAYER": "interpreter.runtime.state", "TERMINAL_PLAYER": "interpreter.runtime.state",
          "IllegalActionError": "interpreter.runtime.state", "NotASeatError": "interpreter.runtime.state",
          "StateUsageError": "interpreter.runtime.state", "WrongNodeError": "interpreter.runtime.state",
          "GameRuleError": "interpreter.runtime.errors"}

__all__ = ["load_game", "load_program", "State", "CHANCE_PLAYER", "TERMINAL_PLAYER", "IllegalActionError",
           "NotASeatError", "SavedStateError", "StateUsageError", "WrongNodeError", "GameRuleError"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'interpreter' has no attribute '{name}'")
    return getattr(import_module(_HOMES[name]), name)
