"""Small complete games of our own under tests/fixtures/games, written with the constructs later
games need: each loads with every variant, passes its scenarios and plays seeded bot games to the
end with no rules error at every player count."""
from __future__ import annotations

from pathlib import Path

import pytest

from dsl.loader import read_ruleset
from interpreter import load_game
from interpreter.play.scenario import run_all
from interpreter.play.simulate import simulate

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
GAMES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "game.rules").is_file())


def combos(folder: Path) -> list[tuple[str, ...]]:
    """The base game, each variant alone, and all variants together."""
    names = sorted(read_ruleset(folder).variants)
    return [()] + [(v,) for v in names] + ([tuple(names)] if len(names) > 1 else [])


def test_there_are_fixture_games() -> None:
    assert len(GAMES) >= 2, GAMES


@pytest.mark.parametrize("name", GAMES)
def test_scenarios_pass(name: str) -> None:
    results = run_all(str(GAMES_DIR / name))
    assert results, f"{name} has no scenarios"
    failed = [f"{r.name}: {r.message}" for r in results if not r.passed]
    assert not failed, failed


@pytest.mark.parametrize("name", GAMES)
def test_bots_play_every_player_count_and_variant_without_errors(name: str) -> None:
    folder = GAMES_DIR / name
    for variants in combos(folder):
        first = load_game(str(folder), list(variants), players=0)
        for players in range(first.program.min_players, first.program.max_players + 1):
            game = load_game(str(folder), list(variants), players=players)
            summary = simulate(game, str(folder), 20, 1, ["random"] * players)
            assert summary.errors == 0, (name, variants, players)
            assert summary.finished == 20 and summary.decisions > 0


def test_a_peek_shows_the_card_to_the_peeker_only() -> None:
    """Spitzel: P1 peeks at P2's top card; P3's observation names neither that card nor P1's chips."""
    game = load_game(str(GAMES_DIR / "spitzel"), players=3)
    state = game.new_initial_state(seed=5)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    hand_p2 = game.fam_zones[game.program.zone_by_name["hand"].family_id][1]
    seen = game.card_ids[state.zones[hand_p2][-1]]
    state.apply_label("P1 peeks at P2")
    assert seen in str(state.observation(0)["zones"]["hand[P2]"])
    assert seen not in str(state.observation(2))
    assert state.observation(2)["players"][0]["chips"] is None
    assert state.observation(0)["players"][0]["chips"] == 2
