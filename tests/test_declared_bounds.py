"""Declared bounds: max_chance_outcomes() bounds every chance node (and a node past it is a rules
error), max_game_length() bounds every game, and the returns lie in utility_range()."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime.errors import GameRuleError
from test_primitives import build

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
CONFIGS = [("maechtige_monster", 3), ("maechtige_monster", 6), (str(GAMES_DIR / "spitzel"), 3),
           (str(GAMES_DIR / "marktplatz"), 2)]


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=["mm3", "mm6", "spitzel3", "marktplatz2"])
def test_random_play_keeps_within_the_declared_bounds(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    low, high = game.utility_range()
    assert game.max_chance_outcomes() >= len(game.card_ids)
    widest = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                widest = max(widest, len(state.chance_outcomes()))
                state.apply_action(state.sample_chance())
            else:
                state.apply_action(rng.randrange(len(state.legal_actions())))
        assert len(state.history) <= game.max_game_length()
        assert all(low <= r <= high for r in state.returns())
    assert 1 < widest <= game.max_chance_outcomes()


def test_a_random_is_bounded_by_its_list_its_constant_or_its_type(tmp_path: Path) -> None:
    body = """
const faces = [1, 2, 3, 4, 5, 6, 7, 8, 9]
round {
  repeat while round < 1
  phase a {
    let x = random faces
    let y = random [1, 2, 3, 4, 5, 6, 7]
    let who = random players
  }
}
score(p) = 0
"""
    game = build(tmp_path, body, players=3)
    assert sorted(kind for kind, _ in game.program.random_bounds) == ["const", "literal", "player"]
    assert game.max_chance_outcomes() == 9  # the constant list, longer than the 5 cards and 7 literals
    assert game.max_game_length() == game.limits.max_actions
    assert game.utility_range() == (0.0, 1.0)


def test_a_chance_node_past_the_declared_bound_is_a_rules_error(tmp_path: Path) -> None:
    """A list of players that repeats one has more outcomes than there are players or cards."""
    body = """
round {
  repeat while round < 1
  phase a {
    let who = random concat(players, concat(players, concat(players, players)))
  }
}
score(p) = 0
"""
    game = build(tmp_path, body, players=2)
    assert game.max_chance_outcomes() == 5
    with pytest.raises(GameRuleError, match="more than the 5 the game declares"):
        game.new_initial_state(seed=1)
