"""Perfect recall and the public view: information_state(seat) keeps the seat's whole filtered log, in
agreement with observation(seat) at every stop; public_observation() names no card a seatless observer
cannot see, and knows nothing that any seat does not."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.runtime.game import Game
from interpreter.runtime.observation import LOG_TAIL
from interpreter.runtime.ops import L_DECIDE
from interpreter.runtime.state import NotASeatError, State
from test_observation import random_states

GAMES_DIR = Path(__file__).parent / "fixtures" / "games"
CONFIGS = [("maechtige_monster", 4), ("maechtige_monster", 3), (str(GAMES_DIR / "spitzel"), 3),
           (str(GAMES_DIR / "spitzel"), 2), (str(GAMES_DIR / "marktplatz"), 2)]
IDS = ["mm4", "mm3", "spitzel3", "spitzel2", "marktplatz2"]
WORD = re.compile(r"[A-Za-z0-9_]+")


def named(game: Game, value: Any) -> set[str]:
    """The card ids a JSON value names as whole words."""
    return set(WORD.findall(json.dumps(value, ensure_ascii=False))) & set(game.card_ids)


def publicly_visible(state: State) -> set[str]:
    """The model, written from the rules' words: cards face up or lying in a zone declared public."""
    game = state.game
    return {game.card_ids[c] for z, cards in enumerate(state.zones) for c in cards
            if state.face_up[c] or game.program.zones[game.zone_family[z]].visibility == "public"}


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=IDS)
def test_the_public_view_names_only_public_cards(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    for seed in range(3):
        for state in random_states(game, seed):
            pub = state.public_observation(full_log=True)
            assert pub["seat"] is None and "options" not in json.dumps(pub.get("decision") or {}).replace(
                '"options": null', "")
            zones_named = named(game, pub["zones"])
            assert zones_named <= publicly_visible(state), sorted(zones_named - publicly_visible(state))
            # the public log knows no card that any seat does not also read in its own log
            seats_know = set.intersection(*(named(game, state.information_state(p)["log"]) for p in game.players))
            leaked = named(game, pub["log"]) - seats_know
            assert not leaked, f"seed {seed}: the public log names {sorted(leaked)}"
            if not state.is_terminal():
                for i, (name, _, _) in enumerate(game.program.pvars):
                    if i in game.program.hidden:
                        assert all(row[name] is None for row in pub["players"])


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS, ids=IDS)
def test_the_information_state_keeps_every_entry_and_agrees_with_the_observation(ruleset: str, players: int) -> None:
    game = load_game(ruleset, players=players)
    longest = 0
    for seed in range(2):
        before: dict[int, list[str]] = {p: [] for p in game.players}
        first: dict[int, list[str]] = {}
        for k, state in enumerate(random_states(game, seed)):
            for seat in game.players:
                info = state.information_state(seat)
                obs = state.observation(seat)
                log = info.pop("log")
                assert len(log) == len(state.log)
                assert log[-LOG_TAIL:] == obs.pop("log"), "the tail is what observation(seat) shows"
                assert log[:len(before[seat])] == before[seat], "an entry changed or went missing"
                assert len(info.pop("decisions")) <= len(state.history)
                assert info == obs, "apart from the log, the information state is the observation"
                before[seat] = log
                if k == 5:
                    first[seat] = log[:5]
                if k >= 100:
                    assert log[:5] == first[seat]
            longest = max(longest, len(state.log))
    assert longest > LOG_TAIL or ruleset != "maechtige_monster", "the games are long enough to test recall past the observation's tail"


def test_the_own_decisions_are_listed_in_order() -> None:
    game = load_game("maechtige_monster", players=3)
    state = next(s for s in random_states(game, 1) if len(s.history) > 30)
    for seat in game.players:
        mine = [e[2] for e in state.log if e[0] == L_DECIDE and e[1] == seat]
        assert mine and state.information_state(seat)["decisions"] == mine


@pytest.mark.parametrize("seat", [-1, 9, None, True, "0"])
def test_information_state_checks_the_seat(seat: Any) -> None:
    state = load_game(str(GAMES_DIR / "spitzel"), players=2).new_initial_state(seed=1)
    with pytest.raises(NotASeatError):
        state.information_state(seat)
