"""Every shipped ruleset as a real pyspiel game: OpenSpiel's own random simulation test (with
serialisation) at every player count, stable catalogue ids, observers, pickling, and OpenSpiel's MCTS
bot beating random seats."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra: pip install -e '.[test]'")
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from dsl.loader import rulesets_dir  # noqa: E402
from interpreter.compile.loading import load_program  # noqa: E402
from interpreter.play import openspiel  # noqa: E402
from interpreter.runtime.information_tensor import information_state_tensor, information_state_tensor_size  # noqa: E402

RULESETS = sorted(p.name for p in rulesets_dir().iterdir() if (p / "game.rules").is_file())
# Random games of these last thousands of decisions, and OpenSpiel's simulation test renders the whole
# perfect-recall history at every step: they are walked for a bounded number of steps instead.
LONG_GAMES = {"fuerchterliche_feinde"}
ALL_COUNTS = [(name, n) for name in RULESETS
              for n in range(load_program(name, ()).min_players, load_program(name, ()).max_players + 1)]
COUNTS = [(name, n) for name, n in ALL_COUNTS if name not in LONG_GAMES]
LONG_COUNTS = [(name, n) for name, n in ALL_COUNTS if name in LONG_GAMES]


@pytest.mark.parametrize("name, players", COUNTS)
def test_openspiels_random_simulation_test_passes(name: str, players: int) -> None:
    game = pyspiel.load_game(f"regelwerk_{name}", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name, players", LONG_COUNTS)
def test_long_games_walk_with_serialisation_and_observations(name: str, players: int) -> None:
    game = pyspiel.load_game(f"regelwerk_{name}", {"players": players})
    state = game.new_initial_state()
    rng = np.random.RandomState(players)
    for _ in range(60):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            assert all(0 <= a < game.num_distinct_actions() for a in state.legal_actions())
            assert len(state.observation_tensor(state.current_player())) == game.observation_tensor_size()
        _advance(state, rng, 1)
        _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert loaded.inner.to_json() == state.inner.to_json()
    assert state.history()


def test_a_variant_combination_registers_on_request() -> None:
    name = openspiel.register("maechtige_monster", ["waechterkette", "koenigs_neue_regeln"])
    assert name == "regelwerk_maechtige_monster__waechterkette__koenigs_neue_regeln"
    assert openspiel.register("maechtige_monster", ["waechterkette", "koenigs_neue_regeln"]) == name
    game = pyspiel.load_game(name, {"players": 4})
    assert "waechterkette" in game.get_type().long_name
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _advance(state: pyspiel.State, rng: np.random.RandomState, steps: int) -> None:
    for _ in range(steps):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_actions_are_catalogue_ids_named_by_their_labels() -> None:
    game = pyspiel.load_game("regelwerk_maechtige_monster", {"players": 4})
    state = game.new_initial_state()
    _advance(state, np.random.RandomState(3), 40)
    assert not state.is_terminal()
    inner = state.inner
    if state.is_chance_node():
        assert [a for a, _ in state.chance_outcomes()] == [a for a, _ in inner.chance_outcome_ids()]
    else:
        assert state.legal_actions() == inner.legal_action_ids()
        labels = set(inner.legal_labels())
        assert {state.action_to_string(a) for a in state.legal_actions()} == labels
    assert game.num_distinct_actions() == inner.game.num_distinct_actions()
    assert all(0 <= a < game.num_distinct_actions() for a in state.legal_actions())


def test_observers_give_the_seats_view_and_its_perfect_recall_history() -> None:
    game = pyspiel.load_game("regelwerk_maechtige_monster", {"players": 3})
    state = game.new_initial_state()
    _advance(state, np.random.RandomState(5), 60)
    tensor = state.observation_tensor(1)
    assert len(tensor) == game.observation_tensor_size() == state.inner.game.observation_tensor_size()
    assert list(tensor) == pytest.approx(state.inner.observation_tensor(1))
    info = state.information_state_string(1)
    assert '"log"' in info and len(info) >= len(state.observation_string(1))
    assert state.observation_string(0) != state.observation_string(1)  # each seat sees its own hand


@pytest.mark.parametrize("name", RULESETS)
def test_the_information_state_tensor_has_the_games_shape(name: str) -> None:
    game = pyspiel.load_game(f"regelwerk_{name}")
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    size = information_state_tensor_size(state.inner.game)
    assert game.information_state_tensor_shape() == [size] and game.information_state_tensor_size() == size
    _advance(state, np.random.RandomState(2), 30)
    seat = 1
    tensor = state.information_state_tensor(seat)
    assert len(tensor) == size
    assert list(tensor) == pytest.approx(information_state_tensor(state.inner, seat))


def test_states_pickle_and_serialise_mid_game() -> None:
    game = pyspiel.load_game("regelwerk_maechtige_monster", {"players": 5})
    state = game.new_initial_state()
    _advance(state, np.random.RandomState(7), 80)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and copy.inner.to_json() == state.inner.to_json()
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert loaded.inner.to_json() == state.inner.to_json()
    assert loaded.legal_actions() == state.legal_actions()


def test_openspiels_mcts_bot_beats_random_seats() -> None:
    """Seeded, so the same games every run: MCTS in seat 1 against two random seats, whose expected
    share is 1/3."""
    game = pyspiel.load_game("regelwerk_maechtige_monster", {"players": 3})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    wins = 0.0
    games = 6
    for _ in range(games):
        bots = [mcts.MCTSBot(game, 2, 30, evaluator, random_state=rng, solve=False)] + \
               [uniform_random.UniformRandomBot(seat, rng) for seat in (1, 2)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[0]
    assert wins / games >= 2 / 3, f"MCTS won {wins} of {games} three-player games against random seats"
