"""Fürchterliche Feinde under random play for 2–6 players: what must hold at every stop (chips conserved,
every tile in one place, wisdom capped and never falling, observations that hide what the table hides),
clone and JSON round trips at every decision (out-of-turn ones included), and games that end."""
from __future__ import annotations

import json
import random
from typing import Any, Optional

import pytest

from interpreter import CHANCE_PLAYER, load_game
from interpreter.runtime.game import Game
from interpreter.runtime.state import State

RULESET = "fuerchterliche_feinde"
PLAYER_COUNTS = [2, 3, 4, 5, 6]
CHIP_TOTAL = 85  # power chips in the box: 6 per player, 49 on the chambers, the rest out of the game
FOE_TILES = 50 + 3 + 1  # monsters 1–50, three treasures, the dumbest player tile
HIDDEN_PILES = ("start_pile", "final_pile", "drawn")  # face down: their tiles are not drawn yet


def game_for(players: int) -> Game:
    return load_game(RULESET, players=players)


def gvar(state: State, name: str) -> Any:
    names = [v[0] for v in state.game.program.gvars]
    return state.gvars[names.index(name)]


def pvar(state: State, seat: int, name: str) -> Any:
    names = [v[0] for v in state.game.program.pvars]
    return state.pvars[seat][names.index(name)]


def chips(state: State, seat: int) -> int:
    pidx, _ = state.game.program.currencies["chips"]
    return int(state.pvars[seat][pidx])


def zone_ids(state: State, name: str) -> list[str]:
    z = state.game.zone_names.index(name)
    return [state.game.card_ids[c] for c in state.zones[z]]


def check_invariants(state: State, wisdom_before: Optional[list[int]]) -> list[int]:
    """The table's invariants; returns each seat's wisdom, which must never fall."""
    game = state.game
    seats = list(game.players)
    # every tile and card in exactly one place
    placed = sorted(c for zone in state.zones for c in zone)
    assert placed == list(range(len(game.card_ids))), "a tile is missing or lies in two places"
    assert sum(1 for c in game.program.cards if c.kind == "foe") == FOE_TILES
    # chips: players, chambers, supply and out of the game add up to the box
    total = sum(chips(state, p) for p in seats) + len(gvar(state, "chip_rooms")) + gvar(state, "supply") \
        + gvar(state, "chips_out")
    assert total == CHIP_TOTAL, f"chips not conserved: {total}"
    assert all(chips(state, p) >= 0 for p in seats)
    assert 0 <= gvar(state, "supply") <= 24 and gvar(state, "chips_out") >= 0
    # wisdom 1–50, never falling
    wisdom = [pvar(state, p, "wisdom") for p in seats]
    assert all(1 <= w <= 50 for w in wisdom), wisdom
    if wisdom_before is not None:
        assert all(w >= b for w, b in zip(wisdom, wisdom_before)), f"wisdom fell: {wisdom_before} -> {wisdom}"
    # at a decision, the rules' note of the chambers with a monster (where movement stops) is the truth
    if not state.is_chance_node():
        family = game.program.zone_by_name["foe_at"].family_id
        beasts = sorted(i + 1 for i, z in enumerate(game.fam_zones[family]) for c in state.zones[z]
                        if game.card_ids[c].startswith("foe_"))
        assert sorted(gvar(state, "beast_rooms")) == beasts, "beast_rooms is out of date"
    return wisdom


def check_observation(state: State, seat: int) -> None:
    """A seat never sees a face-down intersection, an undrawn tile, or another player's spells or loot."""
    zones = state.observation(seat)["zones"]
    for name, shown in zones.items():
        hidden_pile = name in HIDDEN_PILES
        others = name.startswith(("spells[", "trophies[")) and name != f"spells[P{seat + 1}]" \
            and name != f"trophies[P{seat + 1}]"
        if hidden_pile or others:
            cards = shown if isinstance(shown, list) else []
            assert all(not isinstance(c, str) for c in cards), f"P{seat + 1} sees {name}: {shown}"
        if name.startswith("crossing_at["):
            i = int(name[len("crossing_at["):-1])
            tiles = zone_ids(state, name)
            if tiles and not state.face_up[state.game.card_index[tiles[0]]]:
                assert all(not isinstance(c, str) for c in shown), f"face-down intersection {i} shown: {shown}"


def check_round_trips(game: Game, state: State) -> None:
    """A clone and a saved-and-loaded copy are the same state and go on the same way."""
    saved = state.to_json()
    assert state.clone().to_json() == saved
    loaded = game.state_from_json(saved)
    assert loaded.to_json() == saved
    assert loaded.legal_labels() == state.legal_labels()


def walk(game: Game, seed: int, decisions: int, round_trips: bool, observe_every: int = 1) -> tuple[State, int, int]:
    """Random play from `seed` for at most `decisions` decisions, checking the invariants at every stop
    and a seat's observation at every `observe_every`-th decision; returns the state, the decisions made
    and how many were taken out of turn."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    wisdom = check_invariants(state, None)
    made = out_of_turn = 0
    while not state.is_terminal() and made < decisions:
        if state.current_player() == CHANCE_PLAYER:
            state.apply_action(state.sample_chance())
        else:
            seat = state.current_player()
            if seat != gvar(state, "mover"):
                out_of_turn += 1
            if round_trips:
                check_round_trips(game, state)
            if made % observe_every == 0:
                check_observation(state, (seat + made) % game.num_players)
            state.apply_action(rng.randrange(len(state.legal_actions())))
            made += 1
        wisdom = check_invariants(state, wisdom)
    return state, made, out_of_turn


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_invariants_and_round_trips_at_every_decision(players: int) -> None:
    game = game_for(players)
    state, made, _ = walk(game, seed=players, decisions=250, round_trips=True)
    assert made == 250 or state.is_terminal()


def test_out_of_turn_decisions_round_trip() -> None:
    """Students are asked during the master's turn; such a stop saves and loads like any other."""
    game = game_for(4)
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE_PLAYER:
                state.apply_action(state.sample_chance())
                continue
            if state.current_player() != gvar(state, "mover"):
                labels = state.legal_labels()
                assert any(label.startswith("follow ") for label in labels), labels
                check_round_trips(game, state)
                saved = json.loads(state.to_json())
                assert saved["pending"] is not None
                return
            state.apply_action(rng.randrange(len(state.legal_actions())))
    pytest.fail("no student was asked to follow in 40 games")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_end_and_are_scored(players: int) -> None:
    """A whole random game: it ends (both Furunkulus and Fürst Fieso beaten) and the richest win."""
    game = game_for(players)
    state, made, _ = walk(game, seed=100 + players, decisions=40_000, round_trips=False, observe_every=97)
    assert state.is_terminal(), f"no end after {made} decisions"
    beaten = [t for p in game.players for t in zone_ids(state, f"trophies[P{p + 1}]")] + zone_ids(state, "change_pool")
    assert {"foe_49", "foe_50"} <= set(beaten)
    scores = state.scores()
    best = max(scores)
    assert [p for p in game.players if state.returns()[p] == 1.0] == [p for p in game.players if scores[p] == best]
