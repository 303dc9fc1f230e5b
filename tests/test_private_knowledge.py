"""Private knowledge: `reveal c to p` shows a card to some seats only, and `hidden` player values and
currencies are seen only by their own seat. Unit tests of both, the observations and logs of every
seat at every stop of random games, the bots, the terminal view, and save/load mid-game."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import given, settings, strategies

from dsl import ast as A
from dsl.errors import RulesError
from dsl.loader import read_ruleset
from dsl.parser import parse_text
from interpreter import load_game
from interpreter.play.agents import GreedyAgent
from interpreter.play.display import Display
from interpreter.play.terminal import view_lines
from interpreter.runtime.game import Game
from interpreter.runtime.ops import L_REVEAL
from interpreter.runtime.state import State
from rulebook.assemble import build_rulebook
from rulebook.render import render

RULES = '''
game secrets { title de "Geheimnisse" en "Secrets" players 2 to 4 }
kind token { title de "der Stein" en "token" field power: int de "die Kraft" en "power" }
zone box de "die Schachtel" en "box" of token hidden shuffled
zone hand de "die Hand" en "hand" per player of token owner
zone table de "der Tisch" en "table" of token hidden
zone display de "die Auslage" en "display" of token public
cards token in box { columns power row 1 row 2 row 3 row 4 row 5 row 6 row 7 row 8 row 9 row 10 row 11 row 12 }
currency chips de "die Chips" en "chips" start 5 hidden
currency gold de "das Gold" en "gold" start 2
player var vp: int = 0 hidden de "die Siegpunkte" en "victory points"
player var moves: int = 0 de "die Züge" en "moves"
var turn_count: int = 0 de "die Zugzahl" en "turn count"
setup { for p in players { draw 3 from box to hand(p) } }
action peek(q in [q for q in players if q != me]) de "spicken" en "peek" {
  label "peek at {q}"
  require count(hand(q)) > 0
  reveal top(hand(q)) to me
  let c = top(hand(q))
  log de "Ein Blick zu {q}: {c}." en "A look at {q}: {c}."
}
action compare(q in [q for q in players if q != me]) de "vergleichen" en "compare" {
  label "compare with {q}"
  require count(hand(q)) > 0 and count(hand(me)) > 0
  reveal top(hand(me)) to q
  reveal top(hand(q)) to [me]
  if top(hand(me)).power > top(hand(q)).power { set me.vp = me.vp + 1 } else { pay 1 chips from me to q at most available }
}
action show(q in [me]) de "zeigen" en "show" {
  label "show {q}"
  require count(hand(me)) > 0
  reveal top(hand(me)) to [p for p in players if p != me]
}
action look(q in [me]) de "ansehen" en "look" {
  label "look {q}"
  require count(hand(me)) > 0
  reveal top(hand(me)) to me
}
action steal(q in [q for q in players if q != me]) de "stehlen" en "steal" {
  label "steal from {q}"
  pay 2 chips from q to me at most available
}
action discard(q in [me]) de "ablegen" en "discard" {
  label "discard {q}"
  require count(hand(me)) > 0
  move top(hand(me)) to table
  pay 2 chips from bank to me
  pay 1 gold from me to bank at most available
}
action flip(q in [me]) de "aufdecken" en "flip" {
  label "flip {q}"
  require count(hand(me)) > 0
  reveal top(hand(me))
  move top(hand(me)) to display
}
round { repeat while turn_count < 6
  phase play de "Spielen" en "Play" {
    for p in players {
      choose action for p: peek, compare, show, look, steal, discard, flip
      set p.moves = p.moves + 1
    }
    set turn_count = turn_count + 1
  }
}
score(p) = p.vp + p.chips
heuristic(p) = p.chips + p.vp - sum(q.chips for q in players if q != p)
'''
HIDDEN = ("chips", "vp")
WORD = re.compile(r"[A-Za-z0-9_]+")
PAY_LINE = re.compile(r"^(?P<src>P\d|the bank) pays (?P<n>\S+) (?P<cur>\w+) to (?P<dst>P\d|the bank)$")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("private") / "secrets"
    path.mkdir()
    (path / "game.rules").write_text(RULES, encoding="utf-8")
    return path


def game_of(folder: Path, players: int = 3) -> Game:
    return load_game(str(folder), players=players)


def started(game: Game, seed: int = 1) -> State:
    """The state at the first decision, after the shuffled deals."""
    state = game.new_initial_state(seed=seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    return state


def hand(state: State, seat: int) -> list[str]:
    game = state.game
    return [game.card_ids[c] for c in state.zones[game.zone_names.index(f"hand[P{seat + 1}]")]]


def mentions(obs: dict[str, Any], card_id: str) -> bool:
    return card_id in set(WORD.findall(json.dumps(obs)))


# ------------------------------------------------------------------ syntax and load checks


def test_syntax_of_private_reveals_and_hidden_values() -> None:
    rules = parse_text('''
currency chips de "die Chips" en "chips" start 5 hidden
currency gold de "das Gold" en "gold" start 5
player var vp: int = 0 hidden de "die Siegpunkte" en "victory points"
player var wisdom: int = 1 de "die Weisheit" en "wisdom"
rule r(p: player) { reveal top(hand(p)) to me  reveal top(hand(me)) to [p, next(p)]  reveal top(hand(p)) }
''', "t.rules")
    chips, gold, vp, wisdom, rule = rules.items
    assert [getattr(x, "hidden") for x in (chips, gold, vp, wisdom)] == [True, False, True, False]
    assert isinstance(rule, A.RuleDef)
    tos = [s.to for s in rule.body if isinstance(s, A.Reveal)]
    assert isinstance(tos[0], A.Name) and isinstance(tos[1], A.ListLit) and tos[2] is None


@pytest.mark.parametrize("change,message", [
    ('var turn_count: int = 0 de "die Zugzahl" en "turn count"',
     'var turn_count: int = 0 hidden de "die Zugzahl" en "turn count"'),
    ("reveal top(hand(q)) to me", "reveal top(hand(q)) to 3"),
    ("reveal top(hand(q)) to me", "reveal top(hand(q)) to [1, 2]"),
], ids=["hidden-game-var", "reveal-to-int", "reveal-to-int-list"])
def test_misuse_is_a_load_error(tmp_path: Path, change: str, message: str) -> None:
    """Only a player var can be hidden; a card is shown only to a player or a list of players."""
    path = tmp_path / "secrets"
    path.mkdir()
    assert change in RULES
    (path / "game.rules").write_text(RULES.replace(change, message, 1), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_game(str(path), players=3)
    assert "hidden" in str(info.value) or "shown to a player" in str(info.value)


# ------------------------------------------------------------------ private reveals


def test_peek_shows_the_card_to_the_peeking_seat_only(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    target = hand(state, 1)[-1]
    state.apply_label("peek at P2")
    c = game.card_index[target]
    assert state.known[c] == 0b001
    assert not state.face_up[c]
    p1, p2, p3 = (state.observation(s) for s in game.players)
    assert p1["zones"]["hand[P2]"][-1] == target
    assert "P1 is shown " + target in p1["log"]
    assert "P1 is shown " + target in p2["log"], "the owner sees its own card named"
    assert p3["zones"]["hand[P2]"][-1] == {"kind": "token"}
    assert "P1 is shown a token card" in p3["log"]
    assert f"A look at P2: {target}." in p1["log"] and "A look at P2: a token card." in p3["log"]
    assert not mentions(p3, target)


def test_showing_again_or_a_face_up_card_logs_nothing(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    state.apply_label("peek at P2")  # P1 looks at P2's top card
    before = len(state.log)
    state.apply_label("compare with P1")  # P2 shows that same card to P1 again, and P1's top card to P2
    shown = [e for e in state.log[before:] if e[0] == L_REVEAL]
    assert len(shown) == 1 and shown[0][2] == 0b010, "only the new knowledge is logged"
    face_up = game.card_index[hand(state, 0)[-1]]
    state.known[face_up] = ~state.known[face_up]  # as if turned over by `reveal` (State.known): everyone sees it already
    before = len(state.log)
    state.apply_label("peek at P1")  # P3 looks at it: nothing to learn
    assert state.face_up[face_up] and json.loads(state.to_json())["known"][face_up] == 0b010
    assert not [e for e in state.log[before:] if e[0] == L_REVEAL], "nothing is shown, nothing logged"


def test_showing_a_seat_its_own_card_does_nothing(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    before = len(state.log)
    state.apply_label("look P1")
    assert not any(state.known)
    assert not [e for e in state.log[before:] if e[0] == L_REVEAL]


def test_a_move_ends_the_knowledge_but_the_knowing_seat_sees_it_go(folder: Path) -> None:
    """Knowledge lasts until the card moves; the move's log line still names it to those who knew it."""
    game = game_of(folder)
    state = started(game)
    state.apply_label("show P1")  # P1 shows its top card to P2 and P3
    card = hand(state, 0)[-1]
    c = game.card_index[card]
    assert state.known[c] == 0b110
    state.apply_label("peek at P1")  # P2: nothing new to learn
    state.apply_label("peek at P1")  # P3: nothing new either
    assert state.current_player() == 0
    state.apply_label("discard P1")
    assert state.known[c] == 0, "the move clears the knowledge"
    for seat in game.players:
        obs = state.observation(seat)
        assert f"{card}: hand[P1] → table" in obs["log"], f"seat {seat} knew the card and sees it leave"
        assert obs["zones"]["table"] == [{"kind": "token"}], "in the hidden pile it is a back again"


def test_a_public_reveal_stays_public(folder: Path) -> None:
    """`reveal c` without `to` still turns the card face up for all, logged as before."""
    game = game_of(folder)
    state = started(game)
    card = hand(state, 0)[-1]
    state.apply_label("flip P1")
    assert state.observation(1)["zones"]["display"] == [card]
    assert f"revealed {card}" in state.observation(2)["log"]


# ------------------------------------------------------------------ hidden values


def test_hidden_values_are_seen_only_by_their_seat(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    state.apply_label("steal from P3")  # P1 takes 2 chips from P3
    pidx = {name: i for i, (name, _, _) in enumerate(game.program.pvars)}
    for seat in game.players:
        obs = state.observation(seat)
        for p, row in enumerate(obs["players"]):
            for name in HIDDEN:
                want = state.pvars[p][pidx[name]] if p == seat else None
                assert row[name] == want, (seat, p, name)
            assert row["gold"] == 2 and row["moves"] == (1 if p == 0 else 0)
        assert obs["bank"]["chips"] is None and obs["bank"]["gold"] == -6  # net: the start balances came from it
        pay = [line for line in obs["log"] if "pays" in line][-1]
        assert pay == ("P3 pays 2 chips to P1" if seat in (0, 2) else "P3 pays some chips to P1"), pay


def test_payments_of_a_public_currency_stay_public(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    state.apply_label("discard P1")
    for seat in game.players:
        log = state.observation(seat)["log"]
        assert "P1 pays 1 gold to the bank" in log
        assert ("the bank pays 2 chips to P1" if seat == 0 else "the bank pays some chips to P1") in log


def test_terminal_observation_shows_every_value(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    obs = state.observation(1)
    assert obs["scores"] == state.scores()
    chips = game.program.currencies["chips"][0]
    assert [row["chips"] for row in obs["players"]] == [state.pvars[p][chips] for p in game.players]
    assert obs["bank"]["chips"] is not None


def test_the_terminal_view_shows_a_question_mark(folder: Path) -> None:
    game = game_of(folder)
    state = started(game)
    lines = view_lines(state, 0, ["human", "random", "random"], Display(game))
    assert any(line.startswith("  P1 (human): chips 5, gold 2, victory points 0") for line in lines), lines
    assert any(line.startswith("  P2 (random): chips ?, gold 2, victory points ?") for line in lines), lines


def test_greedy_ignores_what_it_may_not_know(folder: Path) -> None:
    """Stealing from a seat with chips beats stealing from a broke one, but P1 cannot tell them apart:
    its choice is the same whoever is broke."""
    game = game_of(folder)
    chips = game.program.currencies["chips"][0]
    for seed in range(8):
        picks = []
        for broke in (1, 2):
            state = started(game)
            state.pvars[broke][chips] = 0
            picks.append(state.legal_labels()[GreedyAgent(seed).act(state)])
        assert picks[0] == picks[1], picks
        assert picks[0].startswith("steal from"), picks


# ------------------------------------------------------------------ every seat, every stop


class Model:
    """What each seat may know, kept from the labels alone: cards it held or saw on the display, cards
    shown to it (while they lie where they lay), and its own hidden values."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.ever: dict[int, set[str]] = {p: set() for p in game.players}
        self.shown: dict[int, dict[str, int]] = {p: {} for p in game.players}  # card → zone it lay in

    def decide(self, state: State, label: str) -> None:
        """Takes in whom the option about to be taken shows which card."""
        seat = state.current_player()
        game = state.game
        learn: list[tuple[int, int]] = []  # (seat, card)
        if label.startswith("peek at P"):
            q = int(label[-1]) - 1
            learn.append((seat, state.zones[game.zone_names.index(f"hand[P{q + 1}]")][-1]))
        elif label.startswith("compare with P"):
            q = int(label[-1]) - 1
            learn.append((q, state.zones[game.zone_names.index(f"hand[P{seat + 1}]")][-1]))
            learn.append((seat, state.zones[game.zone_names.index(f"hand[P{q + 1}]")][-1]))
        elif label.startswith("show "):
            top = state.zones[game.zone_names.index(f"hand[P{seat + 1}]")][-1]
            learn += [(p, top) for p in game.players if p != seat]
        for p, c in learn:
            self.shown[p][game.card_ids[c]] = state.where[c]
            self.ever[p].add(game.card_ids[c])

    def update(self, state: State) -> None:
        """Cards in the seat's hand or on the display become known; shown cards that moved are forgotten."""
        game = state.game
        for seat in game.players:
            self.ever[seat].update(hand(state, seat))
            self.ever[seat].update(game.card_ids[c] for c in state.zones[game.zone_names.index("display")])
            self.shown[seat] = {cid: z for cid, z in self.shown[seat].items() if state.where[game.card_index[cid]] == z}

    def sees(self, seat: int, zone: str, cid: str) -> bool:
        return zone == f"hand[P{seat + 1}]" or zone == "display" or cid in self.shown[seat]


def stops(game: Game, seed: int, model: Model) -> Iterator[State]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    model.update(state)
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            action = rng.randrange(len(state.legal_actions()))
            model.decide(state, state.legal_labels()[action])
            state.apply_action(action)
        model.update(state)
        yield state


def check_seat(state: State, seat: int, model: Model) -> None:
    game = state.game
    obs = state.observation(seat)
    for z, name in enumerate(game.zone_names):
        ids = [game.card_ids[c] for c in state.zones[z]]
        view = obs["zones"][name]
        if isinstance(view, dict):
            assert name == "box" and view == {"count": len(ids)}
            continue
        want = [cid if model.sees(seat, name, cid) else {"kind": "token"} for cid in ids]
        assert view == want, f"seat {seat}, {name}: {view} ≠ {want}"
    leaked = set(WORD.findall(json.dumps(obs))) & set(game.card_ids) - model.ever[seat]
    assert not leaked, f"seat {seat} reads {sorted(leaked)}, never shown to it"
    pidx = {name: i for i, (name, _, _) in enumerate(game.program.pvars)}
    for p, row in enumerate(obs["players"]):
        for name in HIDDEN:
            secret = p != seat and not state.is_terminal()
            assert row[name] == (None if secret else state.pvars[p][pidx[name]]), (seat, p, name)
    for line in obs["log"]:
        m = PAY_LINE.match(line)
        if m is not None and m["cur"] == "chips":
            party = f"P{seat + 1}" in (m["src"], m["dst"])
            assert (m["n"] != "some") == party, f"seat {seat}: {line}"


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (3, 5), (4, 3), (4, 8)])
def test_observations_leak_no_private_knowledge(folder: Path, players: int, seed: int) -> None:
    """At every stop of a random game, each seat sees exactly the cards shown to it and its own secrets."""
    game = game_of(folder, players)
    model = Model(game)
    shown = 0
    for state in stops(game, seed, model):
        for seat in game.players:
            check_seat(state, seat, model)
        shown += sum(len(m) for m in model.shown.values())
    assert shown > 0, "no card was ever shown privately"


@settings(max_examples=30, deadline=None)
@given(players=strategies.integers(2, 4), seed=strategies.integers(0, 2**32))
def test_no_random_game_leaks_private_knowledge(folder: Path, players: int, seed: int) -> None:
    """The same check over games hypothesis picks: any player count, any seed."""
    game = game_of(folder, players)
    model = Model(game)
    for state in stops(game, seed, model):
        for seat in game.players:
            check_seat(state, seat, model)


# ------------------------------------------------------------------ clone and save


def test_knowledge_and_secrets_survive_clone_and_save_mid_game(folder: Path) -> None:
    game = game_of(folder)
    state = started(game, seed=4)
    for label in ("peek at P2", "compare with P3", "steal from P1"):
        state.apply_label(label)
    assert any(state.known)
    clone = state.clone()
    restored = game.state_from_json(state.to_json())
    assert restored.known == clone.known == state.known
    for seat in game.players:
        assert restored.observation(seat) == clone.observation(seat) == state.observation(seat)
    rng = random.Random(9)
    while not state.is_terminal():
        action = state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions()))
        for s in (state, clone, restored):
            s.apply_action(action)
    assert restored.to_json() == clone.to_json() == state.to_json()


def test_saves_without_knowledge_still_load(folder: Path) -> None:
    """A save from before private reveals has no "known" list: it loads with nobody knowing anything."""
    game = game_of(folder)
    state = started(game)
    data = json.loads(state.to_json())
    del data["known"]
    restored = game.state_from_json(json.dumps(data))
    assert restored.known == [0] * len(game.card_ids)
    assert restored.to_json() == state.to_json()


# ------------------------------------------------------------------ the rulebook


@pytest.mark.parametrize("lang,expected", [
    ("de", ["Halte deine Chips geheim: Die anderen Spieler sehen den Betrag erst am Spielende; "
            "von einer Zahlung erfahren sie nur, dass sie geschieht.",
            "Halte deine Siegpunkte geheim: Die anderen Spieler sehen den Wert erst am Spielende.",
            "| Chips je Spieler zu Beginn | 5 (geheim: nur der eigene Spieler sieht den Wert) |",
            "- Sieh dir den obersten Stein seiner Hand geheim an.",
            "- Zeige den obersten Stein deiner Hand nur dem Spieler."]),
    ("en", ["Keep your chips secret: the other players see the amount only when the game ends; "
            "of a payment they learn only that it happens.",
            "Keep your victory points secret: the other players see the value only when the game ends.",
            "| Chips per player at the start | 5 (secret: only its own player sees it) |",
            "- Look at the top token of their hand in secret.",
            "- Show the top token of your hand only to the player."]),
])
def test_the_rulebook_says_who_sees_what(folder: Path, lang: str, expected: list[str]) -> None:
    """`reveal … to me` and `to [me]` read as looking in secret; hidden values get a rule and a table note."""
    book = render(build_rulebook(read_ruleset(folder), (), lang), "md")
    lines = book.splitlines()
    for line in expected:
        assert line in lines, line
