"""Bots that pick an action for the seat to move. The look-ahead bots search only determinized
samples (interpreter/play/determinize.py), so nothing hidden from their seat can sway them."""
from __future__ import annotations

import _random
import math
import random
import time
from typing import Any, Callable, Optional, Protocol

from interpreter.play.determinize import determinize, uncertain
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.observation import card_visible
from interpreter.runtime.state import State, random_below


class Agent(Protocol):
    name: str

    def act(self, state: State) -> int:
        """Index of a legal action for `state.current_player()`."""
        ...


class RandomAgent:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        # the C generator random.Random is built on, seeded as random.Random(seed) seeds it (the same stream),
        # without its Python-level __init__ and seed: a playout makes an agent per seat and game
        self.rng = _random.Random(seed)
        self.bits = self.rng.getrandbits  # also drawn from by State.agent_pick, with the same rejection sampling

    def act(self, state: State) -> int:
        """rng.randrange over the legal actions, written out (random_below): the same numbers, fewer checks."""
        if state.pending is None:
            return 0
        return random_below(self.bits, len(state.pending[3]))


class GreedyAgent:
    """Tries every option on a few determinized samples of the state (`determinize`: what its seat cannot
    see is drawn at random) and keeps the best mean of the ruleset's `heuristic(p)` (or its score); a won
    end of game beats any heuristic value. Ties are broken at random. So what it may not know cannot
    sway it: states its seat cannot tell apart get the same choice from the same seed."""

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 4) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def act(self, state: State) -> int:
        seat = state.current_player()
        prog = state.game.program
        value = prog.heuristic or prog.score
        assert value is not None
        lower = prog.heuristic is None and prog.lowest_wins  # a heuristic is always "more is better"
        where = prog.def_pos["heuristic" if prog.heuristic else "score"]
        actions = state.legal_actions()
        totals: list[Any] = [None] * len(actions)
        counts = [0] * len(actions)
        for _ in range(self.samples if uncertain(state, seat) else 1):
            sample = determinize(state, seat, self.rng)
            for action in actions:
                child = sample.clone()
                try:  # advance: a child that breaks a rule is dropped, nothing to undo
                    child.advance(action)
                except GameRuleError:
                    state.clone().advance(action)  # breaks a rule in the real game too: an error
                    continue  # it breaks a rule only in a world the seat cannot rule out
                try:
                    v = [child.returns()[seat] if child.is_terminal() else 0.0, _better(value(child, seat), lower)]
                except GameRuleError as exc:
                    raise exc.at(where).during(state.seed, child.history) from None
                totals[action] = v if totals[action] is None else _add(totals[action], v)
                counts[action] += 1
        best: list[int] = []
        best_value: Any = None
        for action in actions:
            if counts[action]:
                v = _scaled(totals[action], 1 / counts[action])
                if best_value is None or v > best_value:
                    best, best_value = [action], v
                elif v == best_value:
                    best.append(action)
        return self.rng.choice(best or actions)


def _add(a: Any, b: Any) -> Any:
    """Item by item sum of two values of the same shape (numbers, or lists of them)."""
    return [_add(x, y) for x, y in zip(a, b)] if isinstance(a, list) else a + b


def _scaled(a: Any, k: float) -> Any:
    """A value of that shape times k: a sum over samples turned into their mean."""
    return [_scaled(x, k) for x in a] if isinstance(a, list) else a * k


def _better(v: Any, lower: bool) -> Any:
    """A score turned so that more is better: negated, item by item for a list, when the lowest wins."""
    if not lower:
        return v
    return [-x for x in v] if isinstance(v, list) else -v


class _Node:
    """A search node: a set of states the searching seat cannot tell apart, reached by the same labels
    (logged for every seat) and the same view of the cards; `edges` are its options by label."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[str, _Edge] = {}


class _Edge:
    """An option of a node, with the seat that chooses it; `after` holds the nodes it leads to, by view."""

    __slots__ = ("seat", "visits", "avail", "reward", "after")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0  # iterations in which this option was legal (ISMCTS selection)
        self.reward = 0.0
        self.after: dict[tuple[int, ...], _Node] = {}


class IsmctsAgent:
    """Information-set Monte Carlo tree search (single observer): each iteration plays on a fresh
    determinized sample, chance from the bot's own stream, random play past the tree; the option most
    visited wins, equal visits go to the better mean (a small budget tries many options once each).
    Deterministic given its seed unless `seconds` is set.

    Budget per decision: at most `iterations` iterations and, if `seconds` is set, no more CPU time
    than that (at least one iteration). `depth` bounds each play-out (decisions and chance outcomes past
    the tree; None plays to the end), so long games need not be played out: a cut play-out is worth
    `value` of the ruleset's `heuristic` (or score), "margin" (`margin_values`, the lead) or "rank"
    (`rank_values`)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, depth: Optional[int] = 400,
                 seconds: Optional[float] = None, exploration: float = 0.7, value: str = "margin") -> None:
        if value not in CUT_VALUES:
            raise ValueError(f"unknown value '{value}' (known: {', '.join(CUT_VALUES)})")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.depth = depth
        self.seconds = seconds
        self.exploration = exploration
        self.value = CUT_VALUES[value]

    def act(self, state: State) -> int:
        seat = state.current_player()
        labels = state.legal_labels()
        if len(labels) == 1:
            return 0
        root = _Node()
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        for _ in range(self.iterations):
            try:
                self._iterate(root, determinize(state, seat, self.rng), seat)
            except GameRuleError:
                pass  # a sample the seat cannot rule out broke a rule; the real game meets its own
            if deadline is not None and time.process_time() >= deadline:
                break
        tried = [(e.visits, e.reward / e.visits) if (e := root.edges.get(label)) and e.visits else (-1, 0.0)
                 for label in labels]
        return tried.index(max(tried))

    def _iterate(self, root: _Node, st: State, seat: int) -> None:
        """Selection and expansion down the tree on one sample, a random play-out, then the rewards back up."""
        rng = self.rng
        path: list[_Edge] = []
        here: Optional[_Node] = root
        while here is not None and not st.is_terminal():
            node = here
            who = st.current_player()
            labels = st.legal_labels()
            fresh = [label for label in labels if label not in node.edges]
            if fresh:
                label = rng.choice(fresh)
                node.edges[label] = _Edge(who)
            else:
                label = max(labels, key=lambda lb: self._ucb(node.edges[lb]))
            for lb in labels:
                if lb in node.edges:
                    node.edges[lb].avail += 1
            edge = node.edges[label]
            path.append(edge)
            st.advance(labels.index(label))  # a sample that breaks a rule is dropped (act): nothing to undo
            while st.is_chance_node():
                st.advance(rng.randrange(len(st.legal_actions())))
            view = _view(st, seat)
            here = edge.after.get(view)
            if here is None:
                edge.after[view] = _Node()  # one new node per iteration, then the play-out
        rewards = self._play_out(st)
        for edge in path:
            edge.visits += 1
            edge.reward += rewards[edge.seat]

    def _ucb(self, n: _Edge) -> float:
        """Upper confidence bound over the iterations the option was legal in; an untried one first
        (its iteration may have broken a rule in its sample)."""
        if not n.visits:
            return math.inf
        return n.reward / n.visits + self.exploration * math.sqrt(math.log(max(n.avail, 1)) / n.visits)

    def _play_out(self, st: State) -> list[float]:
        """Random play to the end (the returns) or to the depth limit (rank_values)."""
        steps = 0
        while not st.is_terminal() and (self.depth is None or steps < self.depth):
            st.advance(self.rng.randrange(len(st.legal_actions())))
            steps += 1
        return st.returns() if st.is_terminal() else self.value(st)


def _cut_values(st: State) -> list[Any]:
    """The ruleset's `heuristic(p)` (or score, turned when the lowest wins) of every seat: more is better."""
    prog = st.game.program
    value = prog.heuristic or prog.score
    assert value is not None
    lower = prog.heuristic is None and prog.lowest_wins
    where = prog.def_pos["heuristic" if prog.heuristic else "score"]
    try:
        return [_better(value(st, p), lower) for p in st.game.players]
    except GameRuleError as exc:
        raise exc.at(where).during(st.seed, st.history) from None


def rank_values(st: State) -> list[float]:
    """A game cut short, valued per seat by its rank in the ruleset's `heuristic(p)` (or score, turned when
    the lowest wins): the share of the other seats it is ahead of, a tie counting half. So 1.0 for a sole
    leader, 0.0 for the sole last, on the scale of the returns (1.0 a win, 0.0 a loss) whatever the
    numbers' range; a list value compares item by item."""
    values = _cut_values(st)
    others = max(len(values) - 1, 1)  # a seat ties with itself: that half is taken off again
    return [(sum(1.0 if v > w else 0.5 if v == w else 0.0 for w in values) - 0.5) / others for v in values]


def margin_values(st: State) -> list[float]:
    """A game cut short, valued per seat by its lead over the best other seat in the ruleset's heuristic (or
    score) as a share of both: 0.5 + (v - w) / (2 (|v| + |w|)), so 1.0 a lead from nothing, 0.5 level, 0.0
    nothing against a lead. Unlike the rank it grows with the lead, so a long game's small steps count. A
    list value is compared by its first item on which the seats differ."""
    return margins(_cut_values(st))


def margins(values: list[Any]) -> list[float]:
    """margin_values of these heuristic values, one per seat (numbers, or lists of them)."""
    if values and isinstance(values[0], list):
        values = next(([v[i] for v in values] for i in range(len(values[0])) if len({v[i] for v in values}) > 1),
                      [0.0] * len(values))
    out: list[float] = []
    for p, v in enumerate(values):
        w = max(values[:p] + values[p + 1:], default=v)
        out.append(0.5 + (v - w) / (2 * (abs(v) + abs(w))) if v != w else 0.5)
    return out


CUT_VALUES: dict[str, Callable[[State], list[float]]] = {"rank": rank_values, "margin": margin_values}


def _view(st: State, seat: int) -> tuple[int, ...]:
    """What `seat` sees of the cards, as (card, zone) pairs in a flat tuple: the key of its information."""
    return tuple(x for c, z in enumerate(st.where) if card_visible(st, c, seat) for x in (c, z))


AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "ismcts": IsmctsAgent}


def make_agent(name: str, seed: int, **options: Any) -> Agent:
    """The named agent with its seed; `options` are its constructor's keywords (e.g. iterations=50)."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(AGENTS)})")
    return AGENTS[name](seed, **options)
