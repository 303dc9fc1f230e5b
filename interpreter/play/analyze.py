"""Balance data of many bot games: per seat and game the return and score, the game's length, and which
actions and cards each seat chose; then win rates with intervals, correlations with winning and the
comparison of two rule sets. `regelwerk analyze` renders it (interpreter/play/report.py)."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence

from interpreter.play.agents import make_agent
from interpreter.play.simulate import _worker_game, agent_seed
from interpreter.play.workers import play_seeds
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.limits import Limits
from interpreter.runtime.state import State

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


@dataclass(frozen=True)
class GameData:
    """One game, small and picklable: a worker process sends it back."""

    seed: int
    returns: tuple[float, ...] = ()
    scores: tuple[float, ...] = ()  # each seat's first score component
    decisions: int = 0
    actions: tuple[tuple[int, str, int], ...] = ()  # (seat, action, times chosen)
    cards: tuple[tuple[int, str, int], ...] = ()  # (seat, card id, times in a chosen option)
    error: str = ""


def _option_cards(st: State, choice: int) -> tuple[Optional[str], list[int]]:
    """The action an option takes (None for a `choose` among values) and the cards among its values."""
    _, _, _, values, slot = st.pending  # type: ignore[misc]
    value = values[choice]
    if slot < 0:
        action = st.game.program.actions[value[0]]
        return action.name, [v for (_, _, t), v in zip(action.params, value[1:]) if t.name == "card"]
    _, t, _ = st.open_node_type()
    return None, [value] if t.name == "card" else []


def play_counted(game: Game, seed: int, agents: Sequence[str]) -> GameData:
    """One seeded bot game as simulate plays it (same agent seeds, State.advance: a failed game is dropped),
    counting each seat's choices."""
    actions: Counter[tuple[int, str]] = Counter()
    cards: Counter[tuple[int, str]] = Counter()
    decisions = 0
    try:
        state = game.new_initial_state(seed)
        bots = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(agents)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.advance(state.sample_chance())
                continue
            seat = state.current_player()
            choice = bots[seat].act(state)
            action, chosen = _option_cards(state, choice)
            if action is not None:
                actions[(seat, action)] += 1
            for c in chosen:
                cards[(seat, game.card_ids[c])] += 1
            state.advance(choice)
            decisions += 1
        scores = tuple(float(s[0] if isinstance(s, list) else s) for s in state.scores())
    except GameRuleError as exc:
        return GameData(seed, decisions=decisions, error=str(exc))
    return GameData(seed, tuple(state.returns()), scores, decisions,
                    tuple((s, a, n) for (s, a), n in sorted(actions.items())),
                    tuple((s, c, n) for (s, c), n in sorted(cards.items())))


_Task = tuple[str, tuple[str, ...], int, Limits, tuple[str, ...], range]


def _play_chunk(task: _Task) -> list[GameData]:
    ruleset, variants, players, limits, agents, seeds = task
    game = _worker_game(ruleset, variants, players, limits)
    return [play_counted(game, seed, agents) for seed in seeds]


def play_many(game: Game, ruleset: str, games: int, seed: int, agents: Sequence[str], jobs: int = 1,
              cluster: Optional[str] = None) -> Iterator[GameData]:
    """Games seed … seed + games - 1 in order, here, on `jobs` worker processes or on a Dask cluster
    (the same data every way)."""
    how = (ruleset, tuple(game.variants), game.num_players, game.limits, tuple(agents))
    yield from play_seeds(lambda s: play_counted(game, s, agents), _play_chunk, how, range(seed, seed + games),
                          jobs, cluster)


# ------------------------------------------------------------------ statistics

@dataclass(frozen=True)
class Rate:
    """A share of n with its Wilson 95 % interval."""

    k: float
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        if not self.n:
            return 0.0, 1.0
        p, n, z = self.value, self.n, Z95
        mid = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, mid - half), min(1.0, mid + half)

    @property
    def half_width(self) -> float:
        lo, hi = self.interval
        return (hi - lo) / 2

    def text(self) -> str:
        return f"{self.value * 100:.0f} % ± {self.half_width * 100:.0f}"


def two_proportion_p(a: Rate, b: Rate) -> float:
    """Two-sided p-value that two shares differ (pooled z-test); 1.0 where it cannot be computed."""
    if not a.n or not b.n:
        return 1.0
    pooled = (a.k + b.k) / (a.n + b.n)
    se = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    return math.erfc(abs(a.value - b.value) / se / math.sqrt(2)) if se > 0 else 1.0


def mean_and_sd(xs: Sequence[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0


def welch_p(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Two-sided p-value that two means differ (Welch's statistic, normal approximation: samples are large)."""
    (mx, sx), (my, sy) = mean_and_sd(xs), mean_and_sd(ys)
    se = math.sqrt(sx * sx / max(1, len(xs)) + sy * sy / max(1, len(ys)))
    return math.erfc(abs(mx - my) / se / math.sqrt(2)) if se > 0 else (1.0 if mx == my else 0.0)


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's r (with a 0/1 variable, the point-biserial correlation); 0.0 where a side does not vary."""
    (mx, sx), (my, sy) = mean_and_sd(xs), mean_and_sd(ys)
    if sx == 0 or sy == 0 or len(xs) < 2:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / ((len(xs) - 1) * sx * sy)


@dataclass
class Choice:
    """How often one action (or card) was chosen, and whether choosing it goes with winning."""

    name: str
    per_game: float  # times chosen per game, all seats
    games_share: float  # share of seat-games in which it was chosen at least once
    win_correlation: float  # over seat-games: times chosen vs won


@dataclass
class Analysis:
    """Everything the report shows of one rule set."""

    title: str
    variants: list[str]
    players: int
    agents: list[str]
    games: list[GameData] = field(default_factory=list)

    @property
    def finished(self) -> list[GameData]:
        return [g for g in self.games if not g.error]

    @property
    def errors(self) -> list[GameData]:
        return [g for g in self.games if g.error]

    def win_rates(self) -> list[Rate]:
        done = self.finished
        return [Rate(sum(g.returns[s] == 1.0 for g in done), len(done)) for s in range(self.players)]

    def ties(self) -> Rate:
        done = self.finished
        return Rate(sum(sum(r == 1.0 for r in g.returns) > 1 for g in done), len(done))

    def no_winner(self) -> Rate:
        done = self.finished
        return Rate(sum(all(r != 1.0 for r in g.returns) for g in done), len(done))

    def lengths(self) -> list[float]:
        return [float(g.decisions) for g in self.finished]

    def margins(self) -> list[float]:
        """The best score minus the next best (by the first score component), per finished game."""
        out = []
        for g in self.finished:
            top = sorted(g.scores, reverse=True)
            out.append(top[0] - top[1] if len(top) > 1 else 0.0)
        return out

    def choices(self, which: str) -> list[Choice]:
        """Per action (`which` = "actions") or card ("cards"): frequency and correlation with winning."""
        done = self.finished
        names = sorted({name for g in done for _, name, _ in getattr(g, which)})
        rows = []
        for name in names:
            counts, wins = [], []
            for g in done:
                by_seat = {s: n for s, a, n in getattr(g, which) if a == name}
                for s in range(self.players):
                    counts.append(float(by_seat.get(s, 0)))
                    wins.append(1.0 if g.returns[s] == 1.0 else 0.0)
            rows.append(Choice(name, sum(counts) / len(done), sum(c > 0 for c in counts) / len(counts),
                               correlation(counts, wins)))
        return rows

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-able data."""
        length = mean_and_sd(self.lengths())
        return {"title": self.title, "variants": self.variants, "players": self.players, "agents": self.agents,
                "games": len(self.games), "errors": len(self.errors),
                "win_rate": [{"seat": s + 1, "rate": r.value, "low": r.interval[0], "high": r.interval[1]}
                             for s, r in enumerate(self.win_rates())],
                "ties": self.ties().k, "no_winner": self.no_winner().k,
                "length_mean": length[0], "length_sd": length[1],
                "actions": [vars(c) for c in self.choices("actions")],
                "cards": [vars(c) for c in self.choices("cards")]}


@dataclass
class Difference:
    """One figure of two rule sets side by side, said in words."""

    what: str
    a: str
    b: str
    p: float
    sentence: str


def compare(a: Analysis, b: Analysis, change: str) -> list[Difference]:
    """Win rate per seat, ties and game length of b against a, each with its p-value and a sentence
    whose subject is `change`, what b adds to a ("the house rule")."""
    out = []
    pairs = [(f"seat {s + 1}'s win rate", ra, rb) for s, (ra, rb) in enumerate(zip(a.win_rates(), b.win_rates()))]
    pairs.append(("the share of tied games", a.ties(), b.ties()))
    for what, ra, rb in pairs:
        p = two_proportion_p(ra, rb)
        if ra.text() == rb.text():
            said = f"{change} leaves {what} at {ra.text()}"
        else:
            said = f"{change} {'raises' if rb.value > ra.value else 'lowers'} {what} from {ra.text()} to {rb.text()}"
        out.append(Difference(what, ra.text(), rb.text(), p, f"{said} ({_significance(p)})."))
    la, lb = a.lengths(), b.lengths()
    (ma, _), (mb, _) = mean_and_sd(la), mean_and_sd(lb)
    p = welch_p(la, lb)
    verb = "lengthens" if mb > ma else "shortens" if mb < ma else "keeps"
    out.append(Difference("decisions per game", f"{ma:.1f}", f"{mb:.1f}", p,
                          f"{change} {verb} a game from {ma:.1f} to {mb:.1f} decisions ({_significance(p)})."))
    return out


def _significance(p: float) -> str:
    if p < 0.001:
        return "p < 0.001, significant"
    return f"p = {p:.3f}, " + ("significant at 5 %" if p < 0.05 else "within chance")
