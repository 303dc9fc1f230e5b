"""Plays many seeded bot games and summarises them; every game is reproducible from (seed, seat), and
a digest of the games played shows at a glance whether two runs (or two engine versions) agree."""
from __future__ import annotations

import gc
import hashlib
import json
import os
import shlex
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from interpreter.compile.loading import load_program
from interpreter.play.agents import Agent, RandomAgent, make_agent
from interpreter.play.records import Record, record_of, replay_command, variant_ref, write_record
from interpreter.play.workers import play_seeds
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.limits import Limits
from interpreter.runtime.ops import CHANCE
from interpreter.runtime.state import State


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's own stream, derived from the game's seed, so agents never share randomness."""
    digest = hashlib.sha256(b"regelwerk-agent/%d/%d" % (game_seed, seat)).digest()  # the f-string's bytes, made at once
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


def play_bots(state: State, agents: Sequence[Agent], keep_log: bool = True) -> int:
    """Plays to the end, sampling chance from the state's seed; returns the number of decisions made.
    A game whose rules fail is over: the GameRuleError leaves the state mid-step (State.advance, no undo).
    `keep_log` False: the caller reads nothing of the log after the game, so where no agent looks at the state
    (each is a plain random one) the state keeps only the log's count from here on (State.keep_log)."""
    advance = state.advance
    state.keep_log = keep_log or any(type(a) is not RandomAgent for a in agents)
    # each decision and each chance outcome notes its label, and each chance outcome here is drawn: the decisions
    # are the labels that were not drawn
    steps = len(state.history) - state.draws
    if state.pending is not None and state.pending[0] == CHANCE:
        advance(state.sample_chance(), True)
    state.agents = agents  # past the first decision the run asks them itself
    state.random_bits = [a.bits if type(a) is RandomAgent else None for a in agents]
    try:
        while True:  # past the first node, advance decides the chance events itself: the stops are decisions
            pending = state.pending
            if pending is None:
                return len(state.history) - state.draws - steps
            advance(agents[pending[1]].act(state), True)
    finally:
        state.agents, state.random_bits = None, ()


@dataclass
class Summary:
    agents: list[str]
    games: int = 0
    errors: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    ties: int = 0  # finished games with more than one winner
    no_winner: int = 0  # finished games nobody won (`can_win` held for no one)
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
                "ties": self.ties, "no_winner": self.no_winner,
                "mean_decisions": round(self.mean_decisions, 2), "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games_per_second, 1), "digest": self.digest,
                "failures": [f.to_dict() for f in self.failures]}


@dataclass(frozen=True)
class Outcome:
    """What the summary needs of one game, small and picklable, so a worker process can send it back."""

    seed: int
    decisions: int = 0
    returns: tuple[float, ...] = ()
    final: bytes = b""  # the finished game's fingerprint, for the digest
    error: Optional[tuple[str, str, int]] = None  # message, location, decision of a GameRuleError


def record_path(save: Optional[Path], game: Game, game_seed: int) -> Optional[Path]:
    return save / f"{game.ruleset}-{game_seed}.json" if save is not None else None


def play_one(game: Game, ruleset: str, game_seed: int, agents: Sequence[str], save: Optional[Path]) -> Outcome:
    """Plays the game of one seed and writes its record (with `save`); a GameRuleError becomes the outcome."""
    path = record_path(save, game, game_seed)
    try:
        state = game.new_initial_state(game_seed)
        bots = [make_agent(name, agent_seed(game_seed, seat)) for seat, name in enumerate(agents)]
        decisions = play_bots(state, bots, keep_log=False)  # only its labels and returns are read
    except GameRuleError as exc:
        if path is not None:  # the labels up to the failing one, so `regelwerk replay` fails there too
            write_record(path, Record(ruleset, tuple(map(variant_ref, game.variants)), game.num_players,
                                      game_seed, exc.actions, None, tuple(agents), str(exc)))
        return Outcome(game_seed, error=(exc.message, exc.location, exc.decision))
    if path is not None:
        write_record(path, record_of(state, ruleset, agents))
    returns = tuple(state.returns())
    return Outcome(game_seed, decisions, returns, fingerprint(game_seed, returns, state.history))


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
_ESCAPED = bytes(range(32)) + b'\\"'  # the bytes JSON escapes in a string


def fingerprint(game_seed: int, returns: tuple[float, ...], history: list[str]) -> bytes:
    """What the digest takes of one finished game: `[seed,[returns],[labels]]` as compact JSON, the labels
    being every decision and chance outcome in order; the same game gives the same bytes, far cheaper
    than saving the whole final state. Labels that JSON would not escape (as a rule) are joined as they are,
    and the returns (finite floats) written by repr, as JSON writes them; that is half the encoder's work."""
    labels = '","'.join(history).encode()
    escaped = len(labels) - len(labels.translate(None, _ESCAPED))  # bytes JSON escapes, the commas' quotes too
    if not history or escaped != 2 * len(history) - 2:
        return _COMPACT.encode([game_seed, returns, history]).encode()
    return b'[%d,[%s],["%s"]]' % (game_seed, ",".join(map(repr, returns)).encode(), labels)


@lru_cache(maxsize=1)
def _worker_game(ruleset: str, variants: tuple[str, ...], players: int, limits: Limits) -> Game:
    """A worker's game, loaded once by name (a compiled Program holds closures and is not pickled); loaded
    in a task, not a pool initializer, so that a load error reaches the parent instead of respawning workers."""
    program = load_program(ruleset, variants)
    game = Game(program, players, program.name, list(variants), limits)
    gc.freeze()  # a worker keeps its game for good (see frozen_heap)
    return game


_Chunk = tuple[str, tuple[str, ...], int, Limits, tuple[str, ...], Optional[Path], range]


def _play_chunk(chunk: _Chunk) -> list[Outcome]:
    ruleset, variants, players, limits, agents, save, seeds = chunk
    game = _worker_game(ruleset, variants, players, limits)
    return [play_one(game, ruleset, game_seed, agents, save) for game_seed in seeds]


@contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects alive now (the loaded program, the modules) are left out of the collector's rounds while
    games run: it would walk them again and again in vain (FF about 8 % of the instructions)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def auto_jobs(games: int) -> int:
    """All cores, but at least 20 games per worker: a run that small is over before workers pay off."""
    return max(1, min(os.cpu_count() or 1, games // 20))


def simulate(game: Game, ruleset: str, games: int, seed: int, agents: Sequence[str],
             save: Optional[Path] = None, advance: Callable[[], None] = lambda: None, jobs: int = 1,
             cluster: Optional[str] = None) -> Summary:
    """Game k uses seed + k; a game that breaks a rule (GameRuleError) counts as an error, its kind is
    kept in `failures` with the first seed that shows it, and its record is saved like any other.
    With jobs > 1, worker processes load the game by `ruleset` (a name or path), variants and players and
    play it; their outcomes are summed in game order, so summary, digest and failures are those of jobs 1.
    `advance` is first called once the workers run (a forking caller starts its threads only then).
    With `cluster` (a Dask scheduler address) the cluster's workers play the chunks instead.
    The digest is the SHA-256 of the finished games' fingerprints (seed, returns, labels; see
    `fingerprint`) in seed order, games that broke a rule left out: same games, same digest."""
    summary = Summary(agents=list(agents), wins_by_seat=[0] * game.num_players)
    kinds: dict[tuple[str, str], Failure] = {}
    digest = hashlib.sha256()
    start = time.perf_counter()
    how = (ruleset, tuple(game.variants), game.num_players, game.limits, tuple(agents), save)
    with frozen_heap():
        for outcome in play_seeds(lambda s: play_one(game, ruleset, s, agents, save), _play_chunk, how,
                                  range(seed, seed + games), jobs, cluster):
            summary.games += 1
            if outcome.error is not None:
                summary.errors += 1
                message, location, decision = outcome.error
                key = (message, location)
                if key in kinds:
                    kinds[key].count += 1
                else:
                    path = record_path(save, game, outcome.seed)
                    kinds[key] = Failure(message, location, outcome.seed, decision,
                                         reproduce_command(ruleset, game.variants, game.num_players, outcome.seed, agents),
                                         str(path) if path is not None else None,
                                         replay=replay_command(str(path), ruleset, game.variants) if path is not None else None)
            else:
                for seat, value in enumerate(outcome.returns):
                    summary.wins_by_seat[seat] += value == 1.0
                winners = sum(value == 1.0 for value in outcome.returns)
                summary.ties += winners > 1
                summary.no_winner += winners == 0
                summary.decisions += outcome.decisions
                digest.update(outcome.final)
            advance()
    summary.failures = list(kinds.values())
    summary.seconds = time.perf_counter() - start
    summary.digest = digest.hexdigest()
    return summary
