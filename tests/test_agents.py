"""The bots: random is uniform and seeded; greedy, driven by the ruleset's `heuristic`, beats it."""
from __future__ import annotations

import random
import time
from itertools import chain

import pytest

from interpreter import load_game
from interpreter.play.agents import GreedyAgent, IsmctsAgent, RandomAgent, make_agent, margin_values, margins, rank_values
from interpreter.play.simulate import play_bots
from interpreter.runtime.state import State
from test_determinize import GAMES_DIR, _stops, _swapped


def _play(state: State, agents: list[RandomAgent | GreedyAgent]) -> State:
    play_bots(state, agents)
    return state


def test_random_agent_is_reproducible() -> None:
    """Same seeds, same game: the agent's choices come from its own seeded stream."""
    game = load_game("maechtige_monster", players=3)
    runs = [_play(game.new_initial_state(seed=4), [RandomAgent(s) for s in (1, 2, 3)]).to_json() for _ in range(2)]
    assert runs[0] == runs[1]


def test_random_agent_draws_as_randrange() -> None:
    """The random bot's pick is random.Random(seed).randrange(n) at every decision (its written-out
    rejection sampling takes the same numbers from the stream), so seeded games stay as they were."""
    game = load_game("maechtige_monster", players=4)
    state = game.new_initial_state(seed=7)
    agent, reference = RandomAgent(11), random.Random(11)
    sizes = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        n = len(state.legal_actions())
        sizes.add(n)
        pick = agent.act(state)
        assert pick == reference.randrange(n)
        state.apply_action(pick)
    assert len(sizes) > 5  # powers of two and others: all drawn alike


def test_greedy_beats_random_players() -> None:
    """Over 60 seeded four-player games the greedy seat wins more often than any random seat."""
    game = load_game("maechtige_monster", players=4)
    wins = [0.0] * 4
    for k in range(60):
        agents: list[RandomAgent | GreedyAgent] = [GreedyAgent(k), RandomAgent(k + 1), RandomAgent(k + 2),
                                                   RandomAgent(k + 3)]
        final = _play(game.new_initial_state(seed=k), agents)
        wins = [w + r for w, r in zip(wins, final.returns())]
    assert wins[0] > max(wins[1:]), wins


def test_make_agent_names_the_known_agents() -> None:
    """An unknown agent name is refused with the list of known ones."""
    assert make_agent("greedy", 1).name == "greedy"
    try:
        make_agent("clever", 1)
    except ValueError as exc:
        assert "random" in str(exc) and "greedy" in str(exc)
    else:
        raise AssertionError("an unknown agent was accepted")


# Seeded, with a small budget: the search must give the same pick on states its seat cannot tell apart.
# Magical Friends keeps at most one card unseen (what is hidden is the chance to come): nothing to swap.
HIDDEN_CASES = [("maechtige_monster", 4, True), ("magical_friends", 4, False), ("fuerchterliche_feinde", 2, True)]


def _hidden_twin(state: State, seat: int) -> State:
    """The state with what `seat` cannot see changed: another random stream (the chance outcomes to
    come), and two unseen cards alike to the seat trading places where there are such."""
    twin = _swapped(state, seat) or state.clone()
    twin.seed += 1
    return twin


@pytest.mark.parametrize(("ruleset", "players", "swaps"), HIDDEN_CASES, ids=["mm4", "mf4", "ff2"])
def test_the_ismcts_choice_ignores_hidden_information(ruleset: str, players: int, swaps: bool) -> None:
    game = load_game(ruleset, players=players)
    compared = swapped = 0
    for state in chain.from_iterable(_stops(game, seed, every=5) for seed in (5, 6, 7)):  # long games: few stops each
        if state.is_chance_node() or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player()
        twin = _hidden_twin(state, seat)
        assert twin.observation(seat) == state.observation(seat) and twin.to_json() != state.to_json()
        swapped += twin.zones != state.zones
        picks = [IsmctsAgent(compared, iterations=16, depth=10).act(s) for s in (state, twin)]
        assert picks[0] == picks[1], f"stop {compared}: {state.legal_labels()[picks[0]]} / {state.legal_labels()[picks[1]]}"
        compared += 1
        if compared == 6:
            break
    assert compared == 6 and (swapped > 0) == swaps


def test_a_cut_game_is_valued_by_rank() -> None:
    """rank_values: each seat's share of the others it leads (ties half), ordered like the heuristic, on the
    scale of the returns; the pairs' shares add up to players / 2."""
    game = load_game("maechtige_monster", players=4)
    state = next(s for s in _stops(game, 2, every=1) if len(s.history) > 60)
    values = rank_values(state)
    heuristic = game.program.heuristic or game.program.score
    assert heuristic is not None
    h = [heuristic(state, p) for p in game.players]
    assert all(0.0 <= v <= 1.0 for v in values) and sum(values) == pytest.approx(2.0)
    for p in game.players:
        for q in game.players:
            assert (h[p] > h[q]) == (values[p] > values[q]) or h[p] == h[q]
    assert values[h.index(max(h))] == max(values)


def test_a_cut_game_is_valued_by_its_margin() -> None:
    """margin_values: 0.5 level, above for the leader and more so the larger its lead over the best other
    seat (where the rank stays 1.0), within [0, 1]; a list value by its first item the seats differ on."""
    assert margins([10, 5]) == pytest.approx([2 / 3, 1 / 3])
    assert margins([7, 7, 3]) == [0.5, 0.5, pytest.approx(0.3)]
    leads = [margins([lead, 1])[0] for lead in (2, 5, 50)]
    assert leads == sorted(leads) and leads[0] > 0.5 and leads[-1] < 1.0
    assert margins([5, -5]) == [1.0, 0.0] and margins([0, 0]) == [0.5, 0.5]
    assert margins([[2, 1], [2, 4]]) == pytest.approx([0.2, 0.8]) and margins([[1, 1], [1, 1]]) == [0.5, 0.5]
    game = load_game("maechtige_monster", players=4)
    state = next(s for s in _stops(game, 2, every=1) if len(s.history) > 60)
    heuristic = game.program.heuristic
    assert heuristic is not None
    h = [heuristic(state, p) for p in game.players]
    values = margin_values(state)
    assert all(0.0 <= v <= 1.0 for v in values)
    assert [p for p in game.players if values[p] > 0.5] == [p for p in game.players if h[p] > max(h[:p] + h[p + 1:])]


def test_ismcts_breaks_equal_visits_by_the_better_mean() -> None:
    """With one iteration per option each option is tried once: the pick is the best of them, here the
    accusation the seat's peek showed right, not the first option (the peek) on every seed."""
    game = load_game(str(GAMES_DIR / "spitzel"), players=2)
    state = game.new_initial_state(seed=3)
    for label in ("P1 peeks at P2", "P2 rests"):
        while state.is_chance_node():
            state.apply_action(state.sample_chance())
        state.apply_action(state.legal_labels().index(label))
    shown = next(str(line).rsplit(" ", 1)[1] for line in state.observation(0)["log"] if "is shown" in str(line))
    assert state.current_player() == 0 and shown == "guard_3"
    picks = {state.legal_labels()[IsmctsAgent(k, iterations=5, depth=0).act(state)] for k in range(4)}
    assert picks == {"P1 calls P2 a guard"}
    with pytest.raises(ValueError, match="margin"):
        IsmctsAgent(1, value="share")


def test_ismcts_keeps_to_its_time_budget_and_depth() -> None:
    """A time budget ends the search however many iterations are allowed; depth 0 values every play-out by
    rank at once, and the pick is still one of the options."""
    game = load_game("magical_friends", players=4)
    state = next(s for s in _stops(game, 3, every=1) if not s.is_chance_node() and len(s.legal_actions()) > 2)
    start = time.process_time()
    pick = IsmctsAgent(1, iterations=10 ** 9, depth=5, seconds=0.3).act(state)
    assert time.process_time() - start < 3.0 and 0 <= pick < len(state.legal_actions())
    assert 0 <= IsmctsAgent(1, iterations=20, depth=0).act(state) < len(state.legal_actions())
    assert make_agent("ismcts", 1, iterations=3).iterations == 3  # type: ignore[attr-defined]
