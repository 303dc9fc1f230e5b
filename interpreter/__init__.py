"""The generic engine: it knows no game, only the rules language. Its names are imported on first use, so
`regelwerk --help` and other light commands do not pay for the parser and compiler."""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.loading import load_game, load_program
    from interpreter.saved import SavedStateError
    from interpreter.state import (
        CHANCE_PLAYER,
        TERMINAL_PLAYER,
        IllegalActionError,
        NotASeatError,
        State,
        StateUsageError,
        WrongNodeError,
    )

_HOMES = {"load_game": "loading", "load_program": "loading", "SavedStateError": "saved", "State": "state",
          "CHANCE_PLAYER": "state", "TERMINAL_PLAYER": "state", "IllegalActionError": "state",
          "NotASeatError": "state", "StateUsageError": "state", "WrongNodeError": "state"}

__all__ = ["load_game", "load_program", "State", "CHANCE_PLAYER", "TERMINAL_PLAYER", "IllegalActionError",
           "NotASeatError", "SavedStateError", "StateUsageError", "WrongNodeError"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'interpreter' has no attribute '{name}'")
    return getattr(import_module(f"interpreter.{_HOMES[name]}"), name)
