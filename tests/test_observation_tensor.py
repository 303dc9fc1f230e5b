"""Observation tensors: one fixed length per game over all its states, and blind to what the seat
cannot see (two unseen cards trading places leave the seat's tensor as it was)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime.state import NotASeatError
from test_determinize import _swapped

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
FIXTURES = sorted(str(p) for p in GAMES_DIR.iterdir() if (p / "game.rules").is_file())
CONFIGS = [("maechtige_monster", n) for n in (3, 4, 5, 6)] + [(f, n) for f in FIXTURES for n in (2, 3)]


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=[f"{Path(r).name}-{n}" for r, n in CONFIGS])
def test_the_size_is_fixed_and_hidden_cards_do_not_change_the_tensor(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    size = game.observation_tensor_size()
    swaps = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        k = 0
        while True:
            for seat in game.players:
                tensor = state.observation_tensor(seat)
                assert len(tensor) == size and all(isinstance(x, float) for x in tensor)
                shown = sum(tensor[i] for z in range(len(game.zone_names))
                            for i in range(z * (len(game.card_ids) + 1), (z + 1) * (len(game.card_ids) + 1) - 1))
                obs = state.observation(seat)
                assert shown == sum(isinstance(v, str) for view in obs["zones"].values()
                                    if isinstance(view, list) for v in view)
                if k % 4 == 0:
                    other = _swapped(state, seat)
                    if other is not None:
                        swaps += 1
                        assert other.observation_tensor(seat) == tensor
            if state.is_terminal():
                break
            k += 1
            state.apply_action(state.sample_chance() if state.is_chance_node()
                               else rng.randrange(len(state.legal_actions())))
    assert swaps > 0


def test_a_hidden_value_is_zero_with_its_mask_bit_set() -> None:
    """Spitzel's secret chips: seat 0 reads its own balance, the other seat's is 0 with the mask bit 1."""
    game = load_game(str(GAMES_DIR / "spitzel"), players=2)
    state = game.new_initial_state(seed=1)
    prog = game.program
    hidden = [i for i in prog.hidden if prog.pvars[i][1].name in ("int", "bool")]
    assert hidden
    numeric = [i for i, (_, t, _) in enumerate(prog.pvars) if t.name in ("int", "bool")]
    base = len(game.zone_names) * (len(game.card_ids) + 1)
    at = base + 2 * numeric.index(hidden[0])
    tensor = state.observation_tensor(0)
    assert tensor[at:at + 2] == [float(state.pvars[0][hidden[0]]), 0.0]
    at_other = at + 2 * len(numeric)
    assert tensor[at_other:at_other + 2] == [0.0, 1.0]


def test_the_tensor_checks_the_seat() -> None:
    state = load_game(str(GAMES_DIR / "spitzel"), players=2).new_initial_state(seed=1)
    with pytest.raises(NotASeatError):
        state.observation_tensor(2)
