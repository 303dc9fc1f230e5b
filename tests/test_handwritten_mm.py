"""The hand-written Mächtige Monster of the speed benchmark plays the ruleset's game: over a few hundred
random games its decisions per game and its gold match the engine's within noise, for the base game and
each variant; and the side-by-side benchmark still runs."""
from __future__ import annotations

import random
import statistics

import pytest

from benchmarks.bench_engine import versus
from benchmarks.handwritten_mm import VARIANTS, play
from interpreter import load_game


def engine_games(players: int, variants: tuple[str, ...], games: int) -> list[tuple[int, list[int]]]:
    """(decisions, gold per seat) of random engine games."""
    game = load_game("maechtige_monster", variants, players=players)
    rng = random.Random(11)
    out = []
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                state.apply_action(rng.randrange(len(state.legal_actions())))
                decisions += 1
        out.append((decisions, state.scores()))
    return out


def z_score(a: list[float], b: list[float]) -> float:
    """How many standard errors apart the two means are."""
    se = (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5
    return (statistics.mean(a) - statistics.mean(b)) / se


@pytest.mark.parametrize(("players", "variants"), [(3, ()), (4, ()), (6, ())] + [(n, (v,)) for n, v in zip((4, 5, 3), VARIANTS)])
def test_hand_written_game_plays_like_the_engine(players: int, variants: tuple[str, ...]) -> None:
    ours = engine_games(players, variants, 200)
    rng = random.Random(3)
    theirs = [play(players, rng, frozenset(variants)) for _ in range(800)]
    for name, stat in (("decisions", lambda d, g: d), ("total gold", lambda d, g: sum(g)),
                       ("winner's gold", lambda d, g: max(g)), ("P1's gold", lambda d, g: g[0])):
        z = z_score([stat(*x) for x in ours], [stat(*x) for x in theirs])
        assert abs(z) < 4, f"{name}: engine and hand-written differ by {z:.1f} standard errors"
    # the spread of game lengths too, not only their mean
    spread = statistics.stdev(d for d, _ in ours) / statistics.stdev(d for d, _ in theirs)
    assert 0.75 < spread < 1.33
    assert {len(g) for _, g in theirs} == {players}


def test_a_rule_changed_by_hand_is_noticed() -> None:
    """The comparison can fail: playing the base game by hand against the engine's guard chain differs."""
    ours = engine_games(4, ("waechterkette",), 200)
    rng = random.Random(3)
    theirs = [play(4, rng) for _ in range(800)]
    assert abs(z_score([sum(g) for _, g in ours], [sum(g) for _, g in theirs])) > 4


def test_side_by_side_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    versus(games=1, seed=1, rounds=1)
    rows = capsys.readouterr().out.splitlines()[2:]
    assert len(rows) == 4 * (1 + len(VARIANTS))
    assert all(float(row.split()[-1]) > 0 for row in rows)
