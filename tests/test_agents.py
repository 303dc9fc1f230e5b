"""The bots: random is uniform and seeded; greedy, driven by the ruleset's `heuristic`, beats it."""
from __future__ import annotations

from interpreter import load_game
from interpreter.play.agents import GreedyAgent, RandomAgent, make_agent
from interpreter.play.simulate import play_bots
from interpreter.runtime.state import State


def _play(state: State, agents: list[RandomAgent | GreedyAgent]) -> State:
    play_bots(state, agents)
    return state


def test_random_agent_is_reproducible() -> None:
    """Same seeds, same game: the agent's choices come from its own seeded stream."""
    game = load_game("maechtige_monster", players=3)
    runs = [_play(game.new_initial_state(seed=4), [RandomAgent(s) for s in (1, 2, 3)]).to_json() for _ in range(2)]
    assert runs[0] == runs[1]


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
