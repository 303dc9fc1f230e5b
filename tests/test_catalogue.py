"""The action catalogue: every move a game can offer has a fixed id below num_distinct_actions(), the same
move the same id in any state, and ids apply exactly like the matching positions."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.state import IllegalActionError, State, WrongNodeError
from test_primitives import build

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
CONFIGS = [("maechtige_monster", n) for n in (3, 4, 5, 6)] + [
    (str(GAMES_DIR / name), n) for name in ("marktplatz", "spitzel") for n in (2, 3)]


def _label_ids(state: State) -> dict[str, int]:
    """Each option's label with its id, read through the positions."""
    ids = state.game.catalogue.node_ids(state)
    return {label: ids[pos] for pos, label in enumerate(state.legal_labels())}


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=[f"{Path(r).name}-{n}" for r, n in CONFIGS])
def test_ids_are_fixed_unique_and_apply_like_positions(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    size = game.num_distinct_actions()
    seen: dict[tuple[int, str], int] = {}  # (deciding seat or -1, label) → id, over all states and seeds
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            assert ids == sorted(set(ids)) and all(0 <= i < size for i in ids)
            labels = _label_ids(state)
            assert len(ids) == len(set(labels.values())) == len(labels)  # one move, one id, within the node
            who = state.current_player()
            for label, action_id in labels.items():
                assert seen.setdefault((who, label), action_id) == action_id
                assert state.action_id_to_string(action_id) == label
            if state.is_chance_node():
                outcomes = state.chance_outcome_ids()
                assert [i for i, _ in outcomes] == ids and sum(p for _, p in outcomes) == pytest.approx(1.0)
            illegal = next(i for i in range(size) if i not in set(ids))
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply_action_id(illegal)
            assert state.to_json() == before
            if len(state.history) % 10 == 0:  # a loaded state finds the node's value types from its frames
                assert game.state_from_json(before).legal_action_ids() == ids
            pos = rng.randrange(len(state.legal_actions()))
            action_id = state.game.catalogue.node_ids(state)[pos]
            by_position = state.clone()
            by_position.apply_action(pos)
            state.apply_action_id(action_id)
            assert state.to_json() == by_position.to_json()
    again = load_game(ruleset, players=players)
    assert again.num_distinct_actions() == size
    assert all(game.action_id_to_string(i) == again.action_id_to_string(i) for i in range(size))


def test_the_same_placement_has_the_same_id_across_states() -> None:
    game = load_game("maechtige_monster", players=4)
    found: set[int] = set()
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for label, action_id in _label_ids(state).items():
                if label == "place orks_1 at 2":
                    found.add(action_id)
            state.apply_action(rng.randrange(len(state.legal_actions())))
    assert len(found) == 1
    assert game.action_id_to_string(found.pop()) == "place orks_1 at 2"


def test_bad_ids_and_wrong_nodes_are_usage_errors() -> None:
    game = load_game("maechtige_monster", players=3)
    state = game.new_initial_state(seed=1)
    for bad in (-1, game.num_distinct_actions(), True, "3", None):
        with pytest.raises(IllegalActionError):
            game.action_id_to_string(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            state.apply_action_id(bad)  # type: ignore[arg-type]
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    with pytest.raises(WrongNodeError):
        state.chance_outcome_ids()


def test_an_int_outside_the_catalogued_range_is_a_rules_error(tmp_path: Path) -> None:
    """A domain the catalogue cannot read falls back to 0 … int_bound; a bigger value names its action."""
    body = """
action bid(x in [n1 + 40, 2]) {
  label "bid {x}"
  set acc = x
}
action pass(k in range(1, 3)) {
  label "pass {k}"
  set acc = k
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): bid, pass
  }
}
score(p) = 0
"""
    game = build(tmp_path, body, players=2)
    bound = game.catalogue.int_bound()
    assert game.num_distinct_actions() == bound + 1 + 3
    state = game.new_initial_state(seed=1)
    assert state.legal_labels()
    with pytest.raises(GameRuleError, match="action 'bid': the value 40 has no id"):
        state.legal_action_ids()
    assert [game.action_id_to_string(i) for i in range(bound + 1, bound + 4)] == ["pass 1", "pass 2", "pass 3"]
