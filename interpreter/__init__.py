"""The generic engine: it knows no game, only the rules language."""
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

__all__ = ["load_game", "load_program", "State", "CHANCE_PLAYER", "TERMINAL_PLAYER", "IllegalActionError",
           "NotASeatError", "SavedStateError", "StateUsageError", "WrongNodeError"]
