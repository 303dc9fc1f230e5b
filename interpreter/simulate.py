"""Plays many seeded bot games and summarises them; every game is reproducible from (seed, seat), and
a digest of the final states shows at a glance whether two runs (or two engine versions) agree."""
from __future__ import annotations

import hashlib
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from interpreter.agents import Agent, make_agent
from interpreter.game import Game
from interpreter.primitives import GameRuleError
from interpreter.records import Record, record_of, replay_command, variant_ref, write_record
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


def reproduce_command(ruleset: str, variants: Sequence[str], players: int, seed: int,
                      agents: Sequence[str]) -> str:
    """The one `regelwerk simulate` command that plays exactly the game of this seed again."""
    parts = ["regelwerk", "simulate", shlex.quote(ruleset)]
    parts += [f"--variant {shlex.quote(v)}" for v in variants]
    parts += [f"--players {players}", f"--seed {seed}", "--games 1"]
    if set(agents) != {"random"}:
        parts.append(f"--agents {','.join(agents)}")
    return " ".join(parts)


@dataclass
class Failure:
    """One kind of failure (same message, same place in the rules): its first game and how often."""

    message: str
    location: str
    seed: int
    decision: int
    command: str
    record: Optional[str] = None  # the saved record of the first game, with --save
    count: int = 1
    replay: Optional[str] = None  # the command that replays that record

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "location": self.location, "seed": self.seed, "decision": self.decision,
                "count": self.count, "command": self.command, "record": self.record,
                "replay": self.replay}

    def describe(self) -> str:
        where = f"{self.location}: " if self.location else ""
        lines = [f"{where}runtime error: {self.message} ({self.count} game{'s' if self.count != 1 else ''}; "
                 f"first: seed {self.seed}, after decision {self.decision})", f"  reproduce: {self.command}"]
        if self.replay is not None:
            lines.append(f"  replay: {self.replay}")
        return "\n".join(lines)


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
    failures: list[Failure] = field(default_factory=list)

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
                "games_per_second": round(self.games_per_second, 1), "digest": self.digest,
                "failures": [f.to_dict() for f in self.failures]}


def simulate(game: Game, ruleset: str, games: int, seed: int, agents: Sequence[str],
             save: Optional[Path] = None, advance: Callable[[], None] = lambda: None) -> Summary:
    """Game k uses seed + k; a game that breaks a rule (GameRuleError) counts as an error, its kind is
    kept in `failures` with the first seed that shows it, and its record is saved like any other."""
    summary = Summary(agents=list(agents), wins_by_seat=[0] * game.num_players)
    kinds: dict[tuple[str, str], Failure] = {}
    digest = hashlib.sha256()
    start = time.perf_counter()
    for k in range(games):
        game_seed = seed + k
        summary.games += 1
        path = save / f"{game.ruleset}-{game_seed}.json" if save is not None else None
        try:
            state = game.new_initial_state(game_seed)
            bots = [make_agent(name, agent_seed(game_seed, seat)) for seat, name in enumerate(agents)]
            summary.decisions += play_bots(state, bots)
        except GameRuleError as exc:
            summary.errors += 1
            key = (exc.message, exc.location)
            if key in kinds:
                kinds[key].count += 1
            else:
                kinds[key] = Failure(exc.message, exc.location, game_seed, exc.decision,
                                     reproduce_command(ruleset, game.variants, game.num_players, game_seed, agents),
                                     str(path) if path is not None else None,
                                     replay=replay_command(str(path), ruleset, game.variants) if path is not None else None)
            if path is not None:  # the labels up to the failing one, so `regelwerk replay` fails there too
                write_record(path, Record(ruleset, tuple(map(variant_ref, game.variants)), game.num_players,
                                          game_seed, exc.actions, None, tuple(agents), str(exc)))
        else:
            for seat, value in enumerate(state.returns()):
                summary.wins_by_seat[seat] += value == 1.0
            digest.update(state.to_json().encode())
            if path is not None:
                write_record(path, record_of(state, ruleset, agents))
        advance()
    summary.failures = list(kinds.values())
    summary.seconds = time.perf_counter() - start
    summary.digest = digest.hexdigest()
    return summary
