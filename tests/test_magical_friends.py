"""Magical Friends over random play, 2–5 players and every variant: the invariants of issue 9 at every stop."""
from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Callable

import pytest

from dsl import ast as A
from dsl.parser import parse_text
from interpreter import load_game
from interpreter.runtime.game import Game
from interpreter.runtime.state import State

RULESET = "magical_friends"
VARIANT_SETS: list[tuple[str, ...]] = [(), ("erstes_spiel",), ("maechtige_magier",), ("erstes_spiel", "maechtige_magier")]
CONFIGS = [(n, v) for v in VARIANT_SETS for n in (2, 3, 4, 5)]
CONFIG_IDS = [f"{n}p-{'+'.join(v) or 'base'}" for n, v in CONFIGS]
GAMES_PER_CONFIG = 2
# 50 creatures with a summoning card, 3 skeletons, Purgana and 5 catapults; 10 Mimimi and 10 fairy dust cards.
N_CREATURES, N_BONUS = 59, 20
BONUS_MOVE = re.compile(r"^(?:artifact|mimimi|fairy_dust) move (\w+)$|^third wizard: (?:bonus|fairy dust) move (\w+)$")
BASE_MOVE = re.compile(r"^(?:third wizard: )?base move (\w+)$")

Reader = Callable[[State], Any]


def reader(game: Game, expr: str) -> Reader:
    """An expression of the rules language, evaluated on a state (as a scenario's `expect` is)."""
    parsed = parse_text(f'scenario probe {{ title de "P" en "P" players a b expect {expr} }}')
    step = parsed.scenarios[0].steps[0]
    assert step.kind == "expect" and step.expr is not None
    compile_expr = game.program.compile_expr
    assert compile_expr is not None
    fn, _, size = compile_expr(step.expr, {})
    return lambda st: fn(st, [None] * (size + 32))


class Probe:
    """The values of the rules that the invariants read, compiled once per game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.trophies = reader(game, "sum(p.trophies for p in players) + neutral_trophies")
        self.bids = reader(game, "[p.bid_total for p in players if count(bid(p)) > 0]")
        self.kinds = reader(game, "[count(cards(spot)) + count(creature_box) + count(lost) + count(neutral_tavern) "
                                  "+ sum(count(tavern(p)) for p in players), count(mimimi_supply) + count(fairy_supply) "
                                  "+ count(bonus_discard) + count(neutral_bonus) + sum(count(bonus_hand(p)) for p in players)]")
        round_no, active = reader(game, "round"), reader(game, "active")
        self.turn: Reader = lambda st: (round_no(st), active(st))
        self.base_moves = reader(game, "[c.base_moves for c in cards(spot)]")
        self.on_souvenir = reader(game, "count(c for c in cards(spot) if square_type(position(c)) == souvenir)")
        self.lost_zone = game.zone_names.index("lost")
        self.on_chili = reader(game, "[c for c in cards(spot) if square_type(position(c)) == chili]")
        self.in_taverns = reader(game, "count(neutral_tavern) + sum(count(tavern(p)) for p in players)")


def check_cards(state: State) -> None:
    """Every card (creatures, bonus cards, summoning cards, artifacts) lies in exactly one zone."""
    seen = sorted(c for zone in state.zones for c in zone)
    assert seen == list(range(len(state.game.card_ids))), "a card is missing or lies in two zones"
    for z, zone in enumerate(state.zones):
        for c in zone:
            assert state.where[c] == z


def play(game: Game, seed: int, check: Callable[[State, str], None]) -> State:
    """One random game: chance from the state's seeded stream, decisions uniformly; `check` after every step."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    check(state, "")
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance()
            label = ""
        else:
            action = rng.randrange(len(state.legal_actions()))
            label = state.action_to_string(action)
        state.apply_action(action)
        check(state, label)
    return state


@pytest.mark.parametrize("players,variants", CONFIGS, ids=CONFIG_IDS)
def test_random_games_keep_the_invariants(players: int, variants: tuple[str, ...]) -> None:
    """Every creature in one place; trophies only from beaten creatures (two at most: Arachne and the earth
    elemental give one to the mover and one to their owner) and the souvenir shop; creatures in the tavern stay
    there (out of play); each artifact value once per round; at most one base and one bonus movement per friend
    per turn; hidden stack."""
    game = load_game(RULESET, variants=list(variants), players=players)
    probe = Probe(game)
    for g in range(GAMES_PER_CONFIG):
        last: dict[str, Any] = {"trophies": 0, "log": 0, "turn": None, "tavern": 0}
        moved: Counter[tuple[str, str]] = Counter()
        chili: Counter[str] = Counter()

        def check(state: State, label: str) -> None:
            check_cards(state)
            assert probe.kinds(state) == [N_CREATURES, N_BONUS], "a creature or bonus card left the game's places"
            trophies = probe.trophies(state)
            gained = trophies - last["trophies"]
            beaten = sum(1 for entry in state.log[last["log"]:] if entry[0] == 0 and entry[3] == probe.lost_zone)
            assert gained >= 0, "a trophy was lost"
            # a beaten creature gives at most two hearts (Arachne, Erdelementar: the mover's and the owner's)
            assert gained <= 2 * beaten + probe.on_souvenir(state), f"{gained} trophies from {beaten} beaten ({label})"
            last["trophies"], last["log"] = trophies, len(state.log)
            in_taverns = probe.in_taverns(state)
            assert in_taverns >= last["tavern"], f"a creature left the tavern ({label})"
            last["tavern"] = in_taverns
            bids = probe.bids(state)
            assert len(bids) == len(set(bids)), f"an artifact value twice in a round: {bids}"
            turn = probe.turn(state)
            if turn != last["turn"]:
                moved.clear()
                chili.clear()
                last["turn"] = turn
            assert all(n <= 1 for n in probe.base_moves(state)), "a second base movement without the chili contest"
            for c in probe.on_chili(state):
                chili[state.game.card_ids[c]] += 1
            for kind, pattern in (("bonus", BONUS_MOVE), ("base", BASE_MOVE)):
                m = pattern.match(label)
                if m:
                    who = next(x for x in m.groups() if x)
                    moved[(kind, who)] += 1
                    allowed = 1 if kind == "bonus" else 1 + chili[who]
                    assert moved[(kind, who)] <= allowed, f"{who}: {moved[(kind, who)]} {kind} movements in one turn"

        state = play(game, 1000 * players + g, check)
        assert state.is_terminal()
        scores = state.scores()
        assert len(scores) == players


def test_observations_hide_the_summoning_stack() -> None:
    """The face-down draw pile shows no card ids to any seat; the display is public."""
    game = load_game(RULESET, players=4)
    state = game.new_initial_state(seed=3)
    state.apply_label("random_board")
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    stack = [game.card_ids[c] for c in state.zones[game.zone_names.index("summon_stack")]]
    assert len(stack) > 30
    for seat in range(4):
        text = str(state.observation(seat))
        assert not any(f"'{cid}'" in text for cid in stack), "a card of the face-down stack is visible"
    shown = [game.card_ids[c] for c in state.zones[game.zone_names.index("summon_row")]]
    assert shown and all(cid in str(state.observation(0)) for cid in shown)


def test_the_third_wizard_can_win() -> None:
    """With two players, a game in which the third wizard has more friends than both is won by nobody."""
    game = load_game(RULESET, players=2)
    third_total = reader(game, "neutral_total()")
    totals = reader(game, "[friends_total(p) for p in players]")
    outcomes = Counter()
    for seed in range(12):
        state = play(game, seed, lambda s, l: None)
        if third_total(state) > max(totals(state)):
            assert state.returns() == [0.0, 0.0]
            outcomes["third"] += 1
        else:
            assert max(state.returns()) == 1.0
            outcomes["players"] += 1
    assert outcomes["third"] > 0


def test_ties_are_broken_by_the_highest_remaining_artifact() -> None:
    """The score is the friends (with bonus friends) followed by the remaining artifacts, highest first:
    equal friends are decided by the highest remaining artifact, then the next highest."""
    game = load_game(RULESET, players=3)
    remaining = reader(game, "[[a.value for a in artifacts(p) by -a.value] for p in players]")
    totals = reader(game, "[friends_total(p) for p in players]")
    for seed in range(4):
        state = play(game, seed, lambda s, l: None)
        scores = state.scores()
        assert scores == [[t] + r for t, r in zip(totals(state), remaining(state))]
        assert all(len(r) >= 11 - 7 and r == sorted(r, reverse=True) for r in remaining(state))  # the djinn returns one
        best = max(scores)
        assert state.returns() == [1.0 if s == best else 0.0 for s in scores]
