"""Bots that pick an action for the seat to move. They see the state through clone/apply only, so
a search agent (MCTS) fits the same interface later."""
from __future__ import annotations

import random
from typing import Any, Callable, Protocol

from interpreter.observation import conceal
from interpreter.primitives import GameRuleError
from interpreter.state import State


class Agent(Protocol):
    name: str

    def act(self, state: State) -> int:
        """Index of a legal action for `state.current_player()`."""
        ...


class RandomAgent:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> int:
        return self.rng.randrange(len(state.pending[3])) if state.pending is not None else 0


class GreedyAgent:
    """Tries every option on a clone and keeps the best by the ruleset's `heuristic(p)` (or its score);
    a won end of game beats any heuristic value. Ties are broken at random. The clone has the other
    seats' `hidden` values set back to their start values, so what it may not know cannot sway it."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> int:
        seat = state.current_player()
        prog = state.game.program
        value = prog.heuristic or prog.score
        assert value is not None
        lower = prog.heuristic is None and prog.lowest_wins  # a heuristic is always "more is better"
        where = prog.def_pos["heuristic" if prog.heuristic else "score"]
        hidden = bool(prog.hidden)
        best: list[int] = []
        best_value: Any = None
        for action in state.legal_actions():
            child = state.clone()
            if hidden:
                conceal(child, seat)
            try:
                child.apply_action(action)
            except GameRuleError:
                if not hidden:
                    raise
                continue  # it breaks a rule only with the values guessed for the others
            try:
                v = (child.returns()[seat] if child.is_terminal() else 0.0, _better(value(child, seat), lower))
            except GameRuleError as exc:
                raise exc.at(where).during(child.seed, child.history) from None
            if best_value is None or v > best_value:
                best, best_value = [action], v
            elif v == best_value:
                best.append(action)
        return self.rng.choice(best or state.legal_actions())


def _better(v: Any, lower: bool) -> Any:
    """A score turned so that more is better: negated, item by item for a list, when the lowest wins."""
    if not lower:
        return v
    return [-x for x in v] if isinstance(v, list) else -v


AGENTS: dict[str, Callable[[int], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(AGENTS)})")
    return AGENTS[name](seed)
