"""OpenSpiel-style random simulation of Mächtige Monster: invariants at every step, determinism, clone and save/load."""
from __future__ import annotations

import random
import re
from typing import Any, Callable, Optional

import pytest

from interpreter import CHANCE_PLAYER, TERMINAL_PLAYER, load_game
from interpreter.play.agents import RandomAgent
from interpreter.play.simulate import play_bots
from interpreter.runtime.game import Game
from interpreter.runtime.state import State, WrongNodeError

RULESET = "maechtige_monster"
VARIANT_SETS: list[tuple[str, ...]] = [(), ("waechterkette",), ("koenigs_neue_regeln",),
                                       ("waechterkette", "koenigs_neue_regeln")]
PLAYER_COUNTS = [3, 4, 5, 6]
CONFIGS = [(n, v) for v in VARIANT_SETS for n in PLAYER_COUNTS]
CONFIG_IDS = [f"{n}p-{'+'.join(v) or 'base'}" for n, v in CONFIGS]
GAMES_PER_CONFIG = 3
# From the rulebook (and game.rules): 6 monster types x strengths 1-5, 36 guards, 12 king tiles.
N_MONSTERS, N_GUARDS, N_KING_TILES = 30, 36, 12
KING_TILES = {3: 6, 4: 6, 5: 5, 6: 6}
START_GOLD = 8
KING_IDS = {"no_weaklings", "equal_pairs", "strong_hands", "first_rich", "first_two_poor", "last_two_rich",
            "costly_healing", "weakest_pair_rich", "no_change", "second_strong_rich", "last_very_rich",
            "last_weak_poor"}
PLACE = re.compile(r"^place (?P<card>\w+) at (?P<i>\d+)$")
DISPLACE = re.compile(r"^displace (?P<victim>\w+) with (?P<card>\w+)$")

Picker = Callable[[State], int]


def game_for(players: int, variants: tuple[str, ...]) -> Game:
    """The compiled game for one configuration."""
    return load_game(RULESET, variants=list(variants), players=players)


def strength(card_id: str) -> int:
    """A monster's printed strength, read from its id `{type}_{strength}`."""
    return int(card_id.rsplit("_", 1)[1])


def zones_by_name(state: State) -> dict[str, list[str]]:
    """Every zone's cards as ids, keyed by the zone's display name."""
    ids = state.game.card_ids
    return {name: [ids[c] for c in state.zones[z]] for z, name in enumerate(state.game.zone_names)}


def in_castle(zones: dict[str, list[str]], state: State, seat: int) -> int:
    """How many monsters of `seat` lie at the guards (the rulebook's skip rule)."""
    idx = state.game.card_index
    return sum(1 for name, cards in zones.items() if name.startswith("attack[")
               for cid in cards if state.owner[idx[cid]] == seat)


def random_picker(seed: int) -> Picker:
    """Chance nodes from the state's own seeded stream, decisions uniformly from `seed`."""
    rng = random.Random(seed)

    def pick(state: State) -> int:
        if state.is_chance_node():
            return state.sample_chance()
        return rng.randrange(len(state.legal_actions()))
    return pick


def check_invariants(state: State) -> None:
    """Everything that must hold at every stop of a Mächtige Monster game."""
    game = state.game
    n = game.num_players
    ids = game.card_ids
    ncards = len(ids)
    assert ncards == N_MONSTERS + N_GUARDS + N_KING_TILES
    # every card in exactly one zone, and `where` agrees
    seen = sorted(c for zone in state.zones for c in zone)
    assert seen == list(range(ncards)), "a card is missing or lies in two zones"
    for z, zone in enumerate(state.zones):
        for c in zone:
            assert state.where[c] == z, f"{ids[c]} lies in {game.zone_names[z]} but where says {state.where[c]}"
    zones = zones_by_name(state)
    # cards stay in zones of their kind
    for name, cards in zones.items():
        for cid in cards:
            assert cid.startswith("guard_") == name.startswith("guard_"), f"{cid} in {name}"
            assert (cid in KING_IDS) == name.startswith("king_"), f"{cid} in {name}"
            if not cid.startswith("guard_") and cid not in KING_IDS:
                assert name.split("[")[0] in ("monster_box", "attack", "hand", "reserve"), f"{cid} in {name}"
    assert sum(len(v) for k, v in zones.items() if k.startswith("king_")) == N_KING_TILES
    # capacities: one guard per card place, two monsters per attack place
    for name, cards in zones.items():
        if name.startswith("guard_at["):
            assert len(cards) <= 1, f"{name} holds {cards}"
        if name.startswith("attack["):
            assert len(cards) <= 2, f"{name} holds {cards}"
    for z, cap in enumerate(game.zone_cap):
        if cap is not None:
            assert len(state.zones[z]) <= cap
    assert sum(1 for k in zones if k.startswith("attack[")) == n
    assert sum(1 for k in zones if k.startswith("guard_at[")) == n
    # gold: the bank tracks the net flow, nobody goes below zero
    pidx, bank = game.program.currencies["gold"]
    golds = [state.pvars[p][pidx] for p in game.players]
    assert sum(golds) + state.gvars[bank] == 0, f"gold not conserved: {golds} + bank {state.gvars[bank]}"
    assert all(g >= 0 for g in golds), f"negative gold: {golds}"
    # ownership: a monster out of the box belongs to someone and lies in that player's zones or at a guard
    owned: dict[int, list[str]] = {p: [] for p in game.players}
    for name, cards in zones.items():
        for cid in cards:
            c = game.card_index[cid]
            if cid.startswith("guard_") or name.startswith("king_"):
                assert state.owner[c] == -1, f"{cid} has an owner"
                continue
            if name == "monster_box":
                continue
            assert state.owner[c] in game.players, f"{cid} in {name} has no owner"
            owned[state.owner[c]].append(cid)
            if name.startswith(("hand[", "reserve[")):
                assert name.endswith(f"[P{state.owner[c] + 1}]"), f"{cid} of P{state.owner[c] + 1} in {name}"
    for p, cards in owned.items():
        assert len(cards) in (0, 5), f"P{p + 1} owns {cards}"
        assert len({cid.rsplit('_', 1)[0] for cid in cards}) <= 1, f"P{p + 1} owns several types: {cards}"
    # rounds never exceed the king tiles dealt for this player count
    assert 0 <= state.round <= KING_TILES[n]
    if state.is_terminal():
        assert state.current_player() == TERMINAL_PLAYER
        assert state.legal_actions() == [] and state.legal_labels() == []
        return
    # an open node: options exist and are told apart by their labels
    labels = state.legal_labels()
    actions = state.legal_actions()
    assert actions, "no legal action before the end of the game"
    assert actions == list(range(len(labels)))
    assert len(set(labels)) == len(labels), f"duplicate labels: {labels}"
    assert [state.action_to_string(a) for a in actions] == labels
    who = state.current_player()
    if who == CHANCE_PLAYER:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == actions
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
        return
    assert who in game.players
    with pytest.raises(WrongNodeError, match="only a chance node"):
        state.chance_outcomes()
    if state.phase == "play":
        check_play_options(state, zones, labels, who)


def check_play_options(state: State, zones: dict[str, list[str]], labels: list[str], who: int) -> None:
    """Every offered place/displace follows the rulebook, and the skip rule holds for the seat to move."""
    assert in_castle(zones, state, who) < 2, f"P{who + 1} has two monsters at the guards but is asked"
    assert not all(len(v) == 2 for k, v in zones.items() if k.startswith("attack[")), "castle full, yet turns go on"
    hand = zones[f"hand[P{who + 1}]"]
    no_weaklings = "no_weaklings" in zones.get("king_shown", [])
    for label in labels:
        m = PLACE.match(label)
        if m:
            assert m["card"] in hand, label
            assert len(zones[f"attack[{m['i']}]"]) < 2, label
            assert not (no_weaklings and strength(m["card"]) == 1), f"{label} despite 'no weaklings'"
            continue
        m = DISPLACE.match(label)
        assert m is not None, f"unexpected option {label!r} in the play phase"
        assert m["card"] in hand, label
        victim = m["victim"]
        assert any(victim in v for k, v in zones.items() if k.startswith("attack[")), label
        assert strength(victim) < strength(m["card"]), label
        assert strength(victim) < 5, label
        assert not (no_weaklings and strength(m["card"]) == 1), f"{label} despite 'no weaklings'"


def check_end(state: State) -> None:
    """The scored end: winners hold the top score, the round count matches the king tiles."""
    game = state.game
    n = game.num_players
    assert state.is_terminal()
    returns = state.returns()
    scores = state.scores()
    pidx, _ = game.program.currencies["gold"]
    assert scores == [state.pvars[p][pidx] for p in game.players], "score(p) = p.gold"
    assert len(returns) == n and set(returns) <= {0.0, 1.0}
    winners = [p for p in game.players if returns[p] == 1.0]
    assert winners, f"nobody won: returns {returns}"
    best = max(scores)
    assert winners == [p for p in game.players if scores[p] == best], f"returns {returns} vs scores {scores}"
    assert state.round == KING_TILES[n], f"{state.round} rounds with {n} players"
    zones = zones_by_name(state)
    assert zones["king_stack"] == []
    assert all(len(v) == 0 for k, v in zones.items() if k.startswith(("attack[", "guard_at[")))
    assert len(zones["guard_discard"]) == n * KING_TILES[n]


def play(state: State, pick: Picker, check: bool = True, limit: int = 5000) -> list[int]:
    """Plays to the end with `pick`, checking the invariants at every stop; returns the actions taken."""
    taken: list[int] = []
    if check:
        check_invariants(state)
    while not state.is_terminal():
        assert len(taken) < limit, "the game does not end"
        a = pick(state)
        taken.append(a)
        state.apply_action(a)
        if check:
            check_invariants(state)
    return taken


@pytest.mark.parametrize("players,variants", CONFIGS, ids=CONFIG_IDS)
def test_random_games_keep_invariants(players: int, variants: tuple[str, ...]) -> None:
    """Seeded random games hold every invariant at every step and end after the right number of rounds."""
    game = game_for(players, variants)
    for seed in range(GAMES_PER_CONFIG):
        state = game.new_initial_state(seed=seed)
        assert state.current_player() == 0  # setup: the first seat picks its monster type
        assert state.observation(0)["players"][0]["gold"] == START_GOLD
        play(state, random_picker(1000 + seed))
        check_end(state)


@pytest.mark.parametrize("players,variants", CONFIGS, ids=CONFIG_IDS)
def test_same_seed_same_game(players: int, variants: tuple[str, ...]) -> None:
    """Same seed and same choices give a byte-identical saved state at the end."""
    game = game_for(players, variants)
    runs = []
    for _ in range(2):
        state = game.new_initial_state(seed=11)
        actions = play(state, random_picker(5), check=False)
        runs.append((actions, state.history, state.to_json()))
    assert runs[0][0] == runs[1][0]
    assert runs[0][1] == runs[1][1]
    assert runs[0][2] == runs[1][2]
    other = game.new_initial_state(seed=12)
    play(other, random_picker(5), check=False)
    assert other.history != runs[0][1], "different seeds should deal differently"


def replay(state: State, actions: list[int], chance_draws: list[Optional[int]]) -> None:
    """Applies `actions`; at chance nodes the copy must draw the same outcome from its own seeded stream."""
    for a, drawn in zip(actions, chance_draws):
        if drawn is not None:
            assert state.is_chance_node()
            assert state.sample_chance() == drawn, "the copy's seeded stream diverged"
        state.apply_action(a)
    assert state.is_terminal()


def branch_points(state_seq: list[tuple[bool, str]], rng: random.Random) -> list[int]:
    """Step indices to branch at: a chance node, a decision inside the play phase, a setup decision."""
    chance = [i for i, (is_chance, _) in enumerate(state_seq) if is_chance]
    in_play = [i for i, (is_chance, phase) in enumerate(state_seq) if not is_chance and phase == "play"]
    setup = [i for i, (is_chance, phase) in enumerate(state_seq) if not is_chance and phase == "setup"]
    chance_mid = [i for i in chance if state_seq[i][1] != "setup"]
    points = {rng.choice(chance), rng.choice(in_play), rng.choice(setup), rng.choice(chance_mid), in_play[-1]}
    return sorted(points)


@pytest.mark.parametrize("players,variants", CONFIGS, ids=CONFIG_IDS)
def test_clone_and_json_round_trip_continue_identically(players: int, variants: tuple[str, ...]) -> None:
    """A clone and a JSON round-trip taken mid-game (chance node, mid-turn) play on exactly like the original."""
    game = game_for(players, variants)
    rng = random.Random(players * 31 + len(variants))
    seed = rng.randrange(1000)
    # a first pass finds where the chance nodes and the play-phase decisions are
    probe = game.new_initial_state(seed=seed)
    kinds: list[tuple[bool, str]] = []
    pick = random_picker(seed)
    while not probe.is_terminal():
        kinds.append((probe.is_chance_node(), probe.phase))
        probe.apply_action(pick(probe))
    points = branch_points(kinds, rng)
    # the second pass takes copies at those points while the original plays on
    state = game.new_initial_state(seed=seed)
    pick = random_picker(seed)
    copies: dict[int, tuple[State, State, str]] = {}
    actions: list[int] = []
    draws: list[Optional[int]] = []
    step = 0
    while not state.is_terminal():
        if step in points:
            saved = state.to_json()
            clone = state.clone()
            restored = game.state_from_json(saved)
            assert clone.to_json() == saved
            assert restored.to_json() == saved
            assert restored.legal_labels() == state.legal_labels()
            assert restored.current_player() == state.current_player()
            for seat in game.players:
                assert restored.observation(seat) == state.observation(seat)
                assert clone.observation(seat) == state.observation(seat)
            copies[step] = (clone, restored, saved)
        a = pick(state)
        draws.append(a if state.is_chance_node() else None)
        actions.append(a)
        state.apply_action(a)
        step += 1
    final = state.to_json()
    assert len(copies) == len(points)
    assert probe.to_json() == final, "the first pass and the second pass differ"
    for at, (clone, restored, saved) in copies.items():
        assert saved != final
        replay(clone, actions[at:], draws[at:])
        replay(restored, actions[at:], draws[at:])
        assert clone.to_json() == final, f"the clone taken at step {at} ended differently"
        assert restored.to_json() == final, f"the JSON copy taken at step {at} ended differently"
        assert clone.returns() == state.returns() and restored.scores() == state.scores()


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=[("+".join(v) or "base") for v in VARIANT_SETS])
def test_clone_is_independent(variants: tuple[str, ...]) -> None:
    """Playing or poking a clone (and a restored copy) leaves the original untouched."""
    game = game_for(4, variants)
    state = game.new_initial_state(seed=3)
    pick = random_picker(3)
    while not (state.phase == "play" and not state.is_chance_node() and state.round == 2):
        state.apply_action(pick(state))
    before = state.to_json()
    history = list(state.history)
    clone = state.clone()
    play(clone, random_picker(99), check=False)
    assert clone.is_terminal()
    assert state.to_json() == before
    restored = game.state_from_json(before)
    play(restored, random_picker(98), check=False)
    assert state.to_json() == before
    poked = state.clone()
    for zone in poked.zones:
        zone.clear()
    poked.where[0] = 99
    poked.owner[0] = 3
    poked.known[0] = ~poked.known[0]  # turned over (State.known)
    poked.gvars[0] = 12345
    for pv in poked.pvars:
        pv[0] = -1
    for frame in poked.frames:
        frame[1] = -7
        for i in range(len(frame[2])):
            frame[2][i] = None
    poked.frames.clear()
    poked.log.clear()
    poked.history.append("nonsense")
    poked.mods.clear()
    poked.forbids.clear()
    assert state.to_json() == before
    assert state.history == history
    # and the original still plays on normally
    play(state, pick)
    check_end(state)


@pytest.mark.parametrize("variants", [(), ("waechterkette", "koenigs_neue_regeln")], ids=["base", "both"])
def test_reading_a_state_does_not_change_it(variants: tuple[str, ...]) -> None:
    """Asking for options, labels, observations or scores leaves the saved state byte-identical."""
    game = game_for(4, variants)
    state = game.new_initial_state(seed=8)
    pick = random_picker(8)
    while not state.is_terminal():
        before = state.to_json()
        state.legal_actions()
        if state.is_chance_node():
            state.chance_outcomes()
        state.current_player()
        state.scores()
        state.returns()
        state.legal_labels()
        state.action_to_string(0)
        for seat in game.players:
            state.observation(seat)
        state.clone()
        assert state.to_json() == before, f"reading the state at {state!r} changed its saved form"
        state.apply_action(pick(state))


@pytest.mark.parametrize("ruleset, players", [(RULESET, 4), ("magical_friends", 4)])
def test_advance_through_chance_plays_the_same_game(ruleset: str, players: int) -> None:
    """advance(a, sample_chance=True) decides each chance event from the state's stream as
    advance(sample_chance()) would: same labels, same log and same end; it stops only at decisions."""
    game = load_game(ruleset, players=players)
    for seed in (1, 2):
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        one_by_one, through = game.new_initial_state(seed), game.new_initial_state(seed)
        while not one_by_one.is_terminal():
            one_by_one.advance(one_by_one.sample_chance() if one_by_one.is_chance_node()
                               else rng_a.randrange(len(one_by_one.legal_actions())))
        if through.is_chance_node():
            through.advance(through.sample_chance(), True)
        while not through.is_terminal():
            assert not through.is_chance_node()
            through.advance(rng_b.randrange(len(through.legal_actions())), True)
        assert through.history == one_by_one.history
        assert through.log == one_by_one.log
        assert through.to_json() == one_by_one.to_json()
        assert through.returns() == one_by_one.returns()


def test_a_state_advanced_through_chance_steps_on_as_any_other() -> None:
    """A sampling run is advance's own (State.sampling, reset as it returns): after advance(a, sample_chance=True), an
    apply_action stops at the next chance event, as on the same state loaded (whose run never sampled)."""
    game = load_game(RULESET, players=4)
    state, rng = game.new_initial_state(3), random.Random(3)
    if state.is_chance_node():
        state.advance(state.sample_chance(), True)
    for _ in range(5):
        state.advance(rng.randrange(len(state.legal_actions())), True)
    loaded = game.state_from_json(state.to_json())
    chances = 0
    for _ in range(40):
        if state.is_terminal():
            break
        chances += state.is_chance_node()
        action = state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions()))
        if loaded.is_chance_node():
            assert loaded.sample_chance() == action
        state.apply_action(action)
        loaded.apply_action(action)
        assert state.to_json() == loaded.to_json()
    assert chances > 3


class Recorder:
    """A random agent that keeps the saved form of every state it is asked to decide in."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[str] = []

    def act(self, state: State) -> int:
        self.seen.append(state.to_json())
        return self.rng.randrange(len(state.legal_actions()))


def stepped_from_outside(game: Game, seed: int, agents: list[Any], start: Optional[State] = None) -> tuple[State, int]:
    """The game of `seed` (or from the state `start` on) stepped from outside, each decision asked of its seat's agent:
    the state and the decisions."""
    stepped = game.new_initial_state(seed) if start is None else start
    count = 0
    while not stepped.is_terminal():
        if stepped.is_chance_node():
            stepped.advance(stepped.sample_chance())
        else:
            stepped.advance(agents[stepped.current_player()].act(stepped))
            count += 1
    return stepped, count


@pytest.mark.parametrize("ruleset, players", [(RULESET, 4), ("magical_friends", 4)])
def test_agents_deciding_inside_the_run_see_and_play_what_they_would_at_each_stop(ruleset: str, players: int) -> None:
    """play_bots lets the agents decide inside the run (State.decide_inline): each sees the state it would
    see stopped at that decision, and the game, its decisions and its end are those of stepping from outside."""
    game = load_game(ruleset, players=players)
    for seed in (1, 2):
        inside = [Recorder(seed * 10 + seat) for seat in range(players)]
        outside = [Recorder(seed * 10 + seat) for seat in range(players)]
        played = game.new_initial_state(seed)
        decisions = play_bots(played, inside)
        stepped, count = stepped_from_outside(game, seed, outside)
        assert decisions == count > 10
        assert [r.seen for r in inside] == [r.seen for r in outside]
        assert played.to_json() == stepped.to_json() and played.returns() == stepped.returns()
        assert played.agents is None


def test_agents_deciding_inside_a_run_that_took_an_action_see_the_nodes_they_decide() -> None:
    """A run that starts by taking a `choose action` option (whose node a step leaves in place until the run stops)
    and goes on to the agents' decisions: each agent sees the node it decides, as stepping from outside shows it."""
    game = load_game(RULESET, players=3)
    for seed in (1, 2):
        start = game.new_initial_state(seed)
        rng = random.Random(seed)
        while start.is_chance_node() or start.pending[4] >= 0 or start.phase != "play":  # type: ignore[index]
            start.apply_action(start.sample_chance() if start.is_chance_node() else rng.randrange(len(start.legal_actions())))
        inside = [Recorder(seed * 10 + seat) for seat in range(3)]
        outside = [Recorder(seed * 10 + seat) for seat in range(3)]
        played = start.clone()
        decisions = play_bots(played, inside)
        stepped, count = stepped_from_outside(game, seed, outside, start.clone())
        assert decisions == count > 10
        assert [r.seen for r in inside] == [r.seen for r in outside]
        assert played.to_json() == stepped.to_json()


@pytest.mark.parametrize("ruleset, players", [(RULESET, 4), ("magical_friends", 4), ("fuerchterliche_feinde", 2)])
def test_random_agents_picking_inside_the_run_draw_what_act_draws(ruleset: str, players: int) -> None:
    """A plain RandomAgent's pick inside the run is written out by the state (State.agent_pick, from the agent's
    bits): the same numbers from the same stream as its act(), so the same game as stepping from outside (also
    where a `choose action` only counts its first action's options: compiler._option_picker)."""
    game = load_game(ruleset, players=players)
    for seed in (1, 2):
        played = game.new_initial_state(seed)
        decisions = play_bots(played, [RandomAgent(seed * 10 + seat) for seat in range(players)])
        stepped, count = stepped_from_outside(game, seed, [RandomAgent(seed * 10 + seat) for seat in range(players)])
        assert decisions == count > 10
        assert played.history == stepped.history and played.to_json() == stepped.to_json()
        assert played.random_bits == ()


@pytest.mark.parametrize("ruleset, players", [(RULESET, 4), ("magical_friends", 4)])
def test_a_playout_that_keeps_only_the_log_count_plays_the_same_game(ruleset: str, players: int) -> None:
    """play_bots with keep_log False (simulate's play_one) and plain random agents keeps only the number of log
    entries (State.keep_log): the same game, labels, returns and log length; an agent that looks at the state
    (any other agent) gets the whole log all the same."""
    game = load_game(ruleset, players=players)
    for seed in (1, 2):
        kept, counted = game.new_initial_state(seed), game.new_initial_state(seed)
        assert play_bots(kept, [RandomAgent(seed * 10 + s) for s in range(players)]) == \
            play_bots(counted, [RandomAgent(seed * 10 + s) for s in range(players)], keep_log=False)
        assert counted.history == kept.history and counted.returns() == kept.returns()
        assert len(counted.log) == len(kept.log) and () in counted.log and () not in kept.log
        looked = game.new_initial_state(seed)
        play_bots(looked, [Recorder(seed * 10 + s) for s in range(players)], keep_log=False)
        assert looked.keep_log and () not in looked.log


def test_legal_actions_gives_a_new_list_each_time() -> None:
    """A caller may change the list legal_actions gives: the next node of as many options still lists them all
    (fails if State.legal_actions hands out the list it keeps per number of options)."""
    state = game_for(3, ()).new_initial_state(seed=5)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    n = len(state.legal_actions())  # the list for n options made
    actions = state.legal_actions()
    actions.clear()
    assert state.legal_actions() == list(range(n))
