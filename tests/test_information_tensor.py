"""Information-state tensors: one fixed length per game, the observation tensor first, a recall of every
card the seat saw and every move each seat made, and blind to what the seat cannot see (two
determinized samples of its information give the same tensor)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.play.determinize import determinize
from interpreter.runtime.information_tensor import information_state_tensor, information_state_tensor_size
from interpreter.runtime.state import NotASeatError
from test_observation import random_states

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
CONFIGS = [("maechtige_monster", 3), ("maechtige_monster", 5), ("magical_friends", 4),
           (str(GAMES_DIR / "spitzel"), 3), (str(GAMES_DIR / "marktplatz"), 2)]
IDS = ["mm3", "mm5", "mf4", "spitzel3", "marktplatz2"]


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=IDS)
def test_the_size_is_fixed_and_samples_of_the_seats_information_agree(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    size = information_state_tensor_size(game)
    nz, nc = len(game.zone_names), len(game.card_ids)
    assert size == game.observation_tensor_size() + nc * (nz + 1) + game.num_distinct_actions() \
        + players * len(game.catalogue.segments)
    compared = 0
    for k, state in ((k, s) for seed in (1, 2) for k, s in enumerate(random_states(game, seed))):
        if k % 7:
            continue
        seat = k % players
        tensor = information_state_tensor(state, seat)
        assert len(tensor) == size and all(isinstance(x, float) for x in tensor)
        assert tensor[:game.observation_tensor_size()] == state.observation_tensor(seat)
        if not state.is_terminal():
            a, b = (determinize(state, seat, random.Random(s)) for s in (k, k + 1))
            assert information_state_tensor(a, seat) == information_state_tensor(b, seat) == tensor
            compared += 1
    assert compared > 5


def test_it_counts_the_moves_by_catalogue_id_and_remembers_cards_gone_from_view() -> None:
    """Mächtige Monster: after a random game the seat's decisions are counted under their ids, every
    seat's under their actions, and some card the seat once saw is out of its sight now but still
    marked as seen."""
    game = load_game("maechtige_monster", players=4)
    size, segments = game.num_distinct_actions(), len(game.catalogue.segments)
    obs = game.observation_tensor_size()
    nz = len(game.zone_names)
    base = obs + len(game.card_ids) * (nz + 1)
    rng = random.Random(3)
    state = game.new_initial_state(seed=3)
    chosen = [[0.0] * size for _ in game.players]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        a = rng.randrange(len(state.legal_actions()))
        chosen[state.current_player()][game.catalogue.node_ids(state)[a]] += 1.0
        state.apply_action(a)
    tensor = information_state_tensor(state, 0)
    assert tensor[base:base + size] == chosen[0]
    kinds = [[0.0] * segments for _ in game.players]
    for p in game.players:
        for i, n in enumerate(chosen[p]):
            kinds[p][game.catalogue.decode(i)[0]] += n
    assert tensor[base + size:] == [n for row in kinds for n in row]
    assert sum(kinds[1]) > 10
    memory = tensor[obs:base]
    shown_now = {c for z, cards in enumerate(state.zones) for c in cards
                 if tensor[z * (len(game.card_ids) + 1) + c]}
    recalled = {c for c in range(len(game.card_ids)) if memory[c * (nz + 1) + nz]}
    assert recalled - shown_now, "perfect recall keeps a card the seat no longer sees"
    for c in range(len(game.card_ids)):
        last_zone = memory[c * (nz + 1):c * (nz + 1) + nz]
        assert sum(last_zone) <= 1.0 and (c in recalled or not sum(last_zone))


def test_the_tensor_checks_the_seat() -> None:
    state = load_game(str(GAMES_DIR / "spitzel"), players=2).new_initial_state(seed=1)
    with pytest.raises(NotASeatError):
        information_state_tensor(state, 2)
