"""Plays many seeded bot games and summarises them; every game is reproducible from (seed, seat), and
a digest of the final states shows at a glance whether two runs (or two engine versions) agree."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from interpreter.agents import Agent, make_agent
from interpreter.game import Game
from interpreter.primitives import GameRuleError
from interpreter.records import record_of, write_record
from interpreter.state import State


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's own stream, derived from the game's seed, so agents never share randomness."""
    digest = hashlib.sha256(f"regelwerk-agent/{game_seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seat_agents(names: Sequence[str], players: int) -> list[str]:
    """One agent name per seat; a single name stands for every seat."""
    if len(names) == 1:
        return list(names) * players
    if len(names) != players:
        raise ValueError(f"{len(names)} agents given for {players} players (give one, or one per seat)")
    return list(names)


def play_bots(state: State, agents: Sequence[Agent]) -> int:
    """Plays to the end, sampling chance from the state's seed; returns the number of decisions made."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(agents[state.current_player()].act(state))
            decisions += 1
    return decisions


@dataclass
class Summary:
    agents: list[str]
    games: int = 0
    errors: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0
    digest: str = ""

    @property
    def finished(self) -> int:
        return self.games - self.errors

    @property
    def mean_decisions(self) -> float:
        return self.decisions / self.finished if self.finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "errors": self.errors, "wins_by_seat": self.wins_by_seat,
                "mean_decisions": round(self.mean_decisions, 2), "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games_per_second, 1), "digest": self.digest}


def simulate(game: Game, ruleset: str, games: int, seed: int, agents: Sequence[str],
             save: Optional[Path] = None, advance: Callable[[], None] = lambda: None) -> Summary:
    """Game k uses seed + k; a game that breaks a rule (GameRuleError) counts as an error and is skipped."""
    summary = Summary(agents=list(agents), wins_by_seat=[0] * game.num_players)
    digest = hashlib.sha256()
    start = time.perf_counter()
    for k in range(games):
        game_seed = seed + k
        state = game.new_initial_state(game_seed)
        bots = [make_agent(name, agent_seed(game_seed, seat)) for seat, name in enumerate(agents)]
        summary.games += 1
        try:
            decisions: Optional[int] = play_bots(state, bots)
        except GameRuleError:
            decisions = None
        if decisions is None:
            summary.errors += 1
        else:
            summary.decisions += decisions
            for seat, value in enumerate(state.returns()):
                summary.wins_by_seat[seat] += value == 1.0
            digest.update(state.to_json().encode())
        if save is not None:
            write_record(save / f"{game.ruleset}-{game_seed}.json", record_of(state, ruleset, agents, decisions is None))
        advance()
    summary.seconds = time.perf_counter() - start
    summary.digest = digest.hexdigest()
    return summary
