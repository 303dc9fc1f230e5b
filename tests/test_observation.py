"""Observations of Mächtige Monster never show a seat a card it cannot see, logs included."""
from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from dsl.loader import REPO_ROOT
from interpreter import load_game
from interpreter.game import Game
from interpreter.state import State

RULESET = "maechtige_monster"
VARIANT_SETS: list[tuple[str, ...]] = [(), ("waechterkette",), ("koenigs_neue_regeln",),
                                       ("waechterkette", "koenigs_neue_regeln")]
CONFIGS = [(n, v) for v in VARIANT_SETS for n in (3, 4, 5, 6)]
CONFIG_IDS = [f"{n}p-{'+'.join(v) or 'base'}" for n, v in CONFIGS]
# Visibility as game.rules declares it, written out independently of the engine.
PUBLIC_FAMILIES = {"monster_box", "attack", "king_shown"}
OWNER_FAMILIES = {"hand", "reserve"}
SHUFFLED = {"guard_deck", "reserve", "king_box"}
GUARD_BACKS = {1: (3, 6, 3, 7), 2: (5, 8, 6, 11), 3: (7, 10, 9, 14)}  # strength_min/max, loot_min/max
MOVE_LINE = re.compile(r"^(?P<what>.+): (?P<src>\S+) → (?P<dst>\S+)$")


def family(zone_name: str) -> str:
    """`attack[2]` → `attack`, `hand[P1]` → `hand`."""
    return zone_name.split("[")[0]


def zone_visible_to(zone_name: str, seat: int) -> bool:
    """Whether the zone shows its cards' fronts to `seat` (public, or the seat's own hand/reserve)."""
    fam = family(zone_name)
    if fam in PUBLIC_FAMILIES:
        return True
    return fam in OWNER_FAMILIES and zone_name.endswith(f"[P{seat + 1}]")


def expected_back(card_id: str) -> dict[str, Any]:
    """The back of a card as the rules print it: guards show level and ranges, monsters their type."""
    if card_id.startswith("guard_"):
        level = int(card_id.split("_")[1])
        smin, smax, lmin, lmax = GUARD_BACKS[level]
        return {"kind": "guard", "level": level, "strength_min": smin, "strength_max": smax,
                "loot_min": lmin, "loot_max": lmax}
    if card_id.rsplit("_", 1)[-1].isdigit():
        return {"kind": "monster", "type": card_id.rsplit("_", 1)[0]}
    return {"kind": "king_tile"}


WORD = re.compile(r"[A-Za-z0-9_]+")


def words(text: str) -> set[str]:
    """The whole words of a text; card ids are words, so orks_1 never matches inside orks_12."""
    return set(WORD.findall(text))


def mentions(text: str, card_id: str) -> bool:
    """Whether `card_id` occurs in `text` as a whole word."""
    return card_id in words(text)


def zone_ids(state: State) -> Iterator[tuple[str, int, str]]:
    """(zone name, card, card id) for every card on the table."""
    game = state.game
    for z, name in enumerate(game.zone_names):
        for c in state.zones[z]:
            yield name, c, game.card_ids[c]


def visible(state: State, zone_name: str, c: int, seat: int) -> bool:
    """The model: a card is visible where its zone shows fronts to the seat, or while it lies face up."""
    return zone_visible_to(zone_name, seat) or bool(state.face_up[c])


class Knowledge:
    """Which cards each seat has legitimately seen so far (at a stop, or revealed in a fight)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: dict[int, set[str]] = {p: set() for p in game.players}
        self.revealed: set[str] = set()  # guards turned over in a fight
        self.shown_tiles: set[str] = set()  # king tiles that lay in king_shown
        self.snapshot: list[str] = []
        self.snapshot_round = -1

    def update(self, state: State) -> None:
        """Takes in what the stop shows; once the fight is over, the guards it turned over."""
        if self.snapshot and (state.is_terminal() or state.round != self.snapshot_round or state.phase == "heal"):
            lost = state.observation(0)["vars"]["lost_at"]
            for i, gid in enumerate(self.snapshot, start=1):
                if lost == 0 or i <= lost:
                    self.revealed.add(gid)
            self.snapshot = []
        zones = {name: [state.game.card_ids[c] for c in state.zones[z]]
                 for z, name in enumerate(state.game.zone_names)}
        if state.phase == "play" and not state.is_chance_node() and not state.is_terminal():
            self.snapshot = [zones[f"guard_at[{i}]"][0] for i in range(1, self.game.num_players + 1)]
            self.snapshot_round = state.round
        self.shown_tiles.update(zones.get("king_shown", []))
        for name, c, cid in zone_ids(state):
            for seat in self.game.players:
                if visible(state, name, c, seat):
                    self.seen[seat].add(cid)
        for seat in self.game.players:
            self.seen[seat] |= self.revealed


def random_states(game: Game, seed: int) -> Iterator[State]:
    """Every stop of one seeded random game, the end included (the same object, advanced)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    yield state
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
        yield state


def check_zone_views(state: State, seat: int, obs: dict[str, Any]) -> None:
    """Each zone of the observation shows exactly the fronts the seat may see, backs for the rest."""
    views = obs["zones"]
    assert set(views) == set(state.game.zone_names)
    for z, name in enumerate(state.game.zone_names):
        cards = state.zones[z]
        view = views[name]
        ids = [state.game.card_ids[c] for c in cards]
        shown = [cid for c, cid in zip(cards, ids) if visible(state, name, c, seat)]
        if isinstance(view, dict):
            assert view == {"count": len(cards)}, f"{name}: {view}"
            assert family(name) in SHUFFLED, f"{name} is not shuffled, yet shows only a count"
            assert not shown, f"{name} hides {shown}, which seat {seat} may see"
            continue
        assert len(view) == len(cards), f"{name}: {view}"
        if family(name) in SHUFFLED:
            assert sorted(v for v in view if isinstance(v, str)) == sorted(shown), f"{name}: {view}"
            backs = [v for v in view if not isinstance(v, str)]
            hidden = [cid for cid in ids if cid not in shown]
            assert sorted(json.dumps(b, sort_keys=True) for b in backs) == \
                sorted(json.dumps(expected_back(cid), sort_keys=True) for cid in hidden), f"{name}: {view}"
            continue
        for c, cid, v in zip(cards, ids, view):
            want: Any = cid if visible(state, name, c, seat) else expected_back(cid)
            assert v == want, f"seat {seat}, {name}: shows {v!r} for {cid}, expected {want!r}"


def check_log(state: State, seat: int, obs: dict[str, Any], know: Knowledge) -> None:
    """Move lines name a card only if the seat saw it move; hidden moves say only 'a … card'."""
    all_ids = state.game.card_ids
    for line in obs["log"]:
        assert isinstance(line, str)
        if line.startswith("revealed "):
            cid = line.removeprefix("revealed ")
            assert cid in all_ids
            continue
        m = MOVE_LINE.match(line)
        if m is None:
            assert not (words(line) - know.seen[seat]) & set(all_ids), f"seat {seat} reads a hidden card: {line}"
            continue
        what, src, dst = m["what"], m["src"], m["dst"]
        seen_move = zone_visible_to(src, seat) or zone_visible_to(dst, seat)
        if what.startswith("a ") and what.endswith(" card"):
            assert not seen_move, f"seat {seat} could see this move, yet the log hides the card: {line}"
            continue
        assert what in all_ids, line
        if seen_move:
            continue
        # a face-up card moving between hidden zones: a fought guard going to the discard pile
        assert what in know.revealed and family(src) == "guard_at" and dst == "guard_discard", \
            f"seat {seat} sees a hidden move in the log: {line}"


def check_observation(state: State, seat: int, know: Knowledge) -> None:
    """All observation checks for one seat at one stop."""
    obs = state.observation(seat)
    text = json.dumps(obs)
    assert json.loads(text) == obs, "the observation is not plain JSON data (tuples, sets, objects?)"
    assert obs["seat"] == seat
    check_zone_views(state, seat, obs)
    never_seen = set(state.game.card_ids) - know.seen[seat]
    leaked = sorted(never_seen & words(text))
    assert not leaked, f"seat {seat} is shown {leaked}, which it never saw"
    own_hand = {state.game.card_ids[c] for c in state.zones[state.game.zone_names.index(f"hand[P{seat + 1}]")]}
    assert own_hand <= words(text), f"seat {seat} does not see its own {sorted(own_hand - words(text))}"
    check_log(state, seat, obs, know)
    decision = obs.get("decision")
    if state.is_terminal():
        assert obs["terminal"] is True and obs["scores"] == state.scores() and obs["returns"] == state.returns()
        assert decision is None
    elif state.is_chance_node():
        assert decision is None or decision.get("options") is None
    else:
        assert decision is not None and decision["seat"] == state.current_player()
        assert decision["options"] == (state.legal_labels() if seat == state.current_player() else None)


@pytest.mark.parametrize("players,variants", CONFIGS, ids=CONFIG_IDS)
def test_observations_never_leak(players: int, variants: tuple[str, ...]) -> None:
    """At every stop of a random game and for every seat, the observation shows exactly what the seat may see."""
    game = load_game(RULESET, variants=list(variants), players=players)
    know = Knowledge(game)
    checked_hidden = 0
    for state in random_states(game, seed=players * 7 + len(variants)):
        know.update(state)
        for seat in game.players:
            check_observation(state, seat, know)
            checked_hidden += sum(1 for cid in game.card_ids if cid not in know.seen[seat])
    assert checked_hidden > 0, "the check never had a hidden card to look for"
    assert know.revealed, "no guard was ever revealed"
    if "koenigs_neue_regeln" in variants:
        assert know.shown_tiles
    else:
        assert not know.shown_tiles


def test_guards_and_king_tiles_stay_hidden_until_revealed() -> None:
    """Before the fight no seat sees a guard's or a king tile's id; the backs show the printed ranges."""
    game = load_game(RULESET, variants=["waechterkette"], players=4)
    rng = random.Random(4)
    state = game.new_initial_state(seed=4)
    while not (state.phase == "play" and not state.is_chance_node()):
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    guards = [game.card_ids[c] for i in range(1, 5) for c in state.zones[game.zone_names.index(f"guard_at[{i}]")]]
    tiles = [game.card_ids[c] for c in state.zones[game.zone_names.index("king_stack")]]
    deck = [game.card_ids[c] for c in state.zones[game.zone_names.index("guard_deck")]]
    assert len(guards) == 4 and len(tiles) == 6 and len(deck) == 32
    levels = [int(g.split("_")[1]) for g in guards]
    assert levels == sorted(levels), "the guard chain lies sorted by level"
    for seat in game.players:
        obs = state.observation(seat)
        text = json.dumps(obs)
        for cid in guards + tiles + deck:
            assert not mentions(text, cid), f"seat {seat} sees {cid}"
        assert obs["zones"]["guard_deck"] == {"count": 32}
        assert obs["zones"]["king_stack"] == [{"kind": "king_tile"}] * 6
        assert [obs["zones"][f"guard_at[{i}]"][0] for i in range(1, 5)] == [expected_back(g) for g in guards]


def test_other_players_hand_draws_are_hidden_in_the_log() -> None:
    """While P2 picks a monster type, P1's log names the three cards P1 drew, everyone else's does not."""
    game = load_game(RULESET, players=3)
    state = game.new_initial_state(seed=5)
    state.apply_label("orks")
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    assert state.current_player() == 1
    hand = [game.card_ids[c] for c in state.zones[game.zone_names.index("hand[P1]")]]
    assert len(hand) == 3 and all(cid.startswith("orks_") for cid in hand)
    own_log = state.observation(0)["log"]
    for cid in hand:
        assert f"{cid}: reserve[P1] → hand[P1]" in own_log
    for seat in (1, 2):
        log = state.observation(seat)["log"]
        assert log.count("a monster card: reserve[P1] → hand[P1]") == 3, log
        for cid in hand:
            assert not any(mentions(line, cid) and "hand[P1]" in line for line in log), f"seat {seat} learns {cid}"
        assert state.observation(seat)["zones"]["hand[P1]"] == [{"kind": "monster", "type": "orks"}] * 3
        assert state.observation(seat)["zones"]["reserve[P1]"] == {"count": 2}
    assert state.observation(0)["zones"]["hand[P1]"] == [game.card_ids[c] for c in
                                                         state.zones[game.zone_names.index("hand[P1]")]]


PAUSE_VARIANT = """
variant pause_after_fight {
  title de "Pause nach dem Kampf" en "Pause after the fight"
  add phase pause de "Pause" en "Pause" after fight {
    let ok = choose start_player from [1]
  }
}
"""


@pytest.fixture(scope="module")
def paused_ruleset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of Mächtige Monster with a decision right after the fight, so the revealed guards can be observed."""
    folder = tmp_path_factory.mktemp("mm_pause") / "maechtige_monster"
    shutil.copytree(REPO_ROOT / "rulesets" / RULESET, folder)
    (folder / "variants" / "pause_after_fight.rules").write_text(PAUSE_VARIANT, encoding="utf-8")
    return folder


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3), (6, 4), (4, 5), (3, 6)])
def test_revealed_guards_are_visible_to_all_after_the_fight(paused_ruleset: Path, players: int, seed: int) -> None:
    """After the fight every seat sees the fought guards' ids; guards behind a lost fight stay face down."""
    game = load_game(str(paused_ruleset), variants=["pause_after_fight"], players=players)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    zone = {name: z for z, name in enumerate(game.zone_names)}
    while state.phase != "pause":
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    before: list[tuple[str, int]] = []
    for i in range(1, players + 1):
        (g,) = state.zones[zone[f"guard_at[{i}]"]]
        pair = sum(int(game.card_ids[c].rsplit("_", 1)[1]) for c in state.zones[zone[f"attack[{i}]"]])
        assert len(state.zones[zone[f"attack[{i}]"]]) == 2
        before.append((game.card_ids[g], pair))
    # the rulebook: fight from the gate on, stop at the first guard stronger than its pair
    fought = []
    for gid, pair in before:
        fought.append(gid)
        if pair < int(gid.split("_")[2]):
            break
    unfought = [gid for gid, _ in before if gid not in fought]
    for seat in game.players:
        obs = state.observation(seat)
        views = [obs["zones"][f"guard_at[{i}]"][0] for i in range(1, players + 1)]
        assert views[:len(fought)] == fought, f"seat {seat} does not see the fought guards"
        assert views[len(fought):] == [expected_back(g) for g in unfought]
        for gid in fought:
            assert f"revealed {gid}" in obs["log"]
        text = json.dumps(obs)
        for gid in unfought:
            assert not mentions(text, gid), f"seat {seat} sees the unfought {gid}"
