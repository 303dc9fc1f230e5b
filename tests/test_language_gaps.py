"""Constructs that games beyond the first need (issue: the language beyond the first game): who `me`
is in a card effect, filled log places, bare enum values, richer card tables, constants as family
sizes, lowest-score wins with list scores, and labels that name the mover."""
from __future__ import annotations

from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from interpreter import load_game
from interpreter.play.agents import GreedyAgent
from interpreter.runtime.game import Game
from rulebook.assemble import Assembler

HEADER = '''
game gaps { title de "L" en "G" players 2 to 3 }
enum role title de "die Rolle" en "role" { countess de "Gräfin" en "countess"  thief de "Dieb" en "thief" }
kind tile {
  title de "das Plättchen" en "tile"
  field n: int de "die Zahl" en "number"
  field role: role = thief de "die Rolle" en "role"
  field eff: effect de "die Wirkung" en "effect"
}
zone box de "die Schachtel" en "box" of tile hidden
zone hand de "die Hand" en "hand" per player of tile owner
currency coins de "die Münzen" en "coins" start 0
'''


def _write(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "gaps"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.rules").write_text(HEADER + body, encoding="utf-8")
    return folder


def _game(tmp_path: Path, body: str, players: int = 2) -> Game:
    return load_game(str(_write(tmp_path, body)), players=players)


def _load_error(tmp_path: Path, body: str) -> str:
    with pytest.raises(RulesError) as exc:
        _game(tmp_path, body)
    return exc.value.render()


ONE_ROUND = 'round { repeat while round < 1 phase main de "H" en "M" { %s } }\nscore(p) = p.coins\n'


# ------------------------------------------------------------------ who `me` is in an effect

PAYING = 'cards tile in box { card gift { n = 1 eff { pay 5 coins from bank to me } } }\n'


def test_run_by_names_who_carries_out_the_effect(tmp_path: Path) -> None:
    """`run X.eff by p` from a phase makes `me` = p inside the effect: p is paid, not the bank."""
    game = _game(tmp_path, PAYING + ONE_ROUND % 'run card("gift").eff by next(first(players))')
    state = game.new_initial_state(seed=1)
    assert state.is_terminal()
    assert state.scores() == [0, 5]
    assert state.gvars[game.program.currencies["coins"][1]] == -5


def test_run_without_a_player_where_the_effect_needs_one_is_a_load_error(tmp_path: Path) -> None:
    """A phase knows no `me`; an effect that speaks of `me` must be told who carries it out."""
    text = _load_error(tmp_path, PAYING + ONE_ROUND % 'run card("gift").eff')
    assert "game.rules:" in text and "who carries out this effect?" in text
    assert "run … by PLAYER" in text


def test_run_without_a_player_is_fine_when_the_effect_needs_none(tmp_path: Path) -> None:
    game = _game(tmp_path, 'cards tile in box { card calm { n = 1 eff { set self.n = 7 } } }\n'
                 + ONE_ROUND % 'run card("calm").eff')
    state = game.new_initial_state(seed=1)
    assert state.card_vals[game.card_index["calm"]][0] == 7


def test_a_nested_run_passes_me_on_so_it_needs_a_player_too(tmp_path: Path) -> None:
    body = ('cards tile in box { card outer { n = 1 eff { run card("inner").eff } }\n'
            '  card inner { n = 2 eff { pay 1 coins from bank to me } } }\n')
    assert "who carries out this effect?" in _load_error(tmp_path, body + ONE_ROUND % 'run card("outer").eff')


def test_a_decision_inside_an_effect_goes_to_the_player_named_by_by(tmp_path: Path) -> None:
    game = _game(tmp_path, 'cards tile in box { card ask { n = 1 eff { let x = choose me from [1, 2] '
                 'pay x coins from bank to me } } }\n' + ONE_ROUND % 'run card("ask").eff by next(first(players))')
    state = game.new_initial_state(seed=1)
    assert state.current_player() == 1
    state.apply_label("2")
    assert state.scores() == [0, 2]


def test_effect_in_an_action_keeps_the_acting_seat(tmp_path: Path) -> None:
    game = _game(tmp_path, PAYING + 'action use() de "nutzen" en "use" { label "{me} uses the gift" '
                 'run card("gift").eff }\n' + ONE_ROUND % 'choose action for next(first(players)): use')
    state = game.new_initial_state(seed=1)
    assert state.legal_labels() == ["P2 uses the gift"]  # a label may name the mover
    state.apply_action(0)
    assert state.scores() == [0, 5]


def test_a_label_reads_as_str_format_fills_its_template(tmp_path: Path) -> None:
    """Labels are made by code generated from the template (options._label_function): braces, the seat, a
    field's conversion and format spec give what str.format gives, and a label naming the seat differs by seat."""
    game = _game(tmp_path, PAYING + 'action use(n in [7, 8]) de "nutzen" en "use" { label "{{{me}}} {n!r:>5}|{n:x<3}" '
                 'run card("gift").eff }\n' + ONE_ROUND % 'choose action for next(first(players)): use')
    state = game.new_initial_state(seed=1)
    assert state.legal_labels() == ["{P2}   '7'|7xx", "{P2}   '8'|8xx"]
    assert game.labels[0] is not game.labels[1]  # the label names the seat: remembered per seat


# ------------------------------------------------------------------ log places

LOGGING = ('cards tile in box { columns n row 1..4 }\n'
           'setup { for p in players { let c = top(box) move c to hand(p) '
           'log de "{p} zieht {c} in Runde {round}." en "{p} draws {c} in round {round}." } }\n')


def test_log_places_are_filled_and_cards_shown_only_to_who_sees_them(tmp_path: Path) -> None:
    game = _game(tmp_path, LOGGING + ONE_ROUND % 'log de "Ende" en "End {{here}}"')
    state = game.new_initial_state(seed=1)
    mine = [line for line in state.observation(0)["log"] if "draws" in line]
    theirs = [line for line in state.observation(1)["log"] if "draws" in line]
    first = game.card_ids[state.zones[game.fam_zones[game.program.zone_by_name["hand"].family_id][0]][0]]
    assert mine[0] == f"P1 draws {first} in round 0."
    assert theirs[0] == "P1 draws a tile card in round 0."
    assert first not in " ".join(state.observation(1)["log"])
    assert state.observation(0)["log"][-1] == "End {here}"  # doubled braces are a brace


def test_a_list_of_cards_in_a_log_place_hides_the_cards_others_did_not_see(tmp_path: Path) -> None:
    game = _game(tmp_path, LOGGING + ONE_ROUND % ('let x = cards(hand(first(players))) let y = [c for c in box if false] '
                                                  'log de "{x}" en "hands {x} {y}"'))
    state = game.new_initial_state(seed=1)
    mine, theirs = state.observation(0)["log"][-1], state.observation(1)["log"][-1]
    first = game.card_ids[state.zones[game.fam_zones[game.program.zone_by_name["hand"].family_id][0]][0]]
    assert mine == f"hands [{first}] []"
    assert theirs == "hands [a tile card] []"


def test_an_unknown_log_place_is_a_load_error(tmp_path: Path) -> None:
    text = _load_error(tmp_path, LOGGING.replace("{round}.\" }", "{zzz}.\" }") + ONE_ROUND % "")
    assert "the log text names '{zzz}', which is not known here" in text


# ------------------------------------------------------------------ bare enum values

def test_enum_values_by_their_bare_name(tmp_path: Path) -> None:
    game = _game(tmp_path, '''
cards tile in box { columns n role row 1 countess row 2 thief row 3 countess }
function has_role(c: tile, r: role) de "{c} hat {r}" en "{c} has {r}" = c.role == r
var last: role = countess de "die letzte Rolle" en "last role"
setup { for c in box { if c.role == countess and has_role(c, countess) { set last = thief } } }
''' + (ONE_ROUND % '').replace("score(p) = p.coins", "score(p) = count(c for c in box if countess == c.role)"))
    state = game.new_initial_state(seed=1)
    assert state.scores() == [2, 2]
    assert state.gvars[game.program.gvars.index(next(v for v in game.program.gvars if v[0] == "last"))] == "thief"


def test_a_bare_value_of_two_enums_needs_its_enum(tmp_path: Path) -> None:
    body = ('enum shade title de "die Farbe" en "shade" { thief de "D" en "T" }\n'
            'cards tile in box { card a { n = 1 } }\nsetup { let x = thief }\n' + ONE_ROUND % '')
    assert "'thief' is a value of several enums (role, shade)" in _load_error(tmp_path, body)
    # where the context gives the type, the bare name is enough
    _game(tmp_path / "typed", body.replace("let x = thief", 'if card("a").role == thief { log de "x" en "x" }'))


def test_the_rulebook_says_an_enum_value_by_its_text(tmp_path: Path) -> None:
    folder = _write(tmp_path, 'cards tile in box { card a { n = 1 } }\n'
                    'setup { if card("a").role == role.countess { log de "x" en "x" } }\n' + ONE_ROUND % '')
    text = "\n".join(line.text for line in Assembler(read_ruleset(folder), (), "en").sp.lines(
        [i for i in read_ruleset(folder).items if type(i).__name__ == "SetupDef"][0].body))
    assert text == "If the role of the card “a” is countess:"  # not "the countess of the role"


# ------------------------------------------------------------------ card tables

def test_ranges_copies_row_effects_and_two_tables_of_one_kind(tmp_path: Path) -> None:
    game = _game(tmp_path, '''
cards tile in box { columns n row 3..5 { eff { pay n_bonus coins from bank to me } } row 9 }
cards jewels of tile in box { card jewel { copies 3 n = 1 eff { pay 2 coins from bank to me } } }
const n_bonus = 1 de "der Bonus" en "bonus"
''' + ONE_ROUND % 'for c in box { run c.eff by first(players) }')
    assert game.card_ids == ["tile_1", "tile_2", "tile_3", "tile_4", "jewel_1", "jewel_2", "jewel_3"]
    assert [v[0] for v in game.card_vals] == [3, 4, 5, 9, 1, 1, 1]
    state = game.new_initial_state(seed=1)
    assert state.scores() == [3 * 1 + 3 * 2, 0]  # tile_4 (row 9) has no effect
    effects = {game.program.cards[c].effects["eff"] for c in range(3)}
    assert len(effects) == 1  # one compiled block for the row's three cards


@pytest.mark.parametrize(("body", "message"), [
    ('cards tile in box { columns n row 5..3 }', "the range 5..3 runs backwards"),
    ('cards tile in box { columns role row countess..thief }', "unexpected"),
    ('cards tile in box { card a { n = 1 copies 0 } }', "has 0 copies"),
    ('cards tile in box { card a { n = 1 } }\ncards tile in box { card b { n = 2 } }', "is defined twice"),
    ('cards tile in box { columns n row 1 { zap { } } }', "has no effect field 'zap'"),
])
def test_card_table_mistakes_are_load_errors(tmp_path: Path, body: str, message: str) -> None:
    assert message in _load_error(tmp_path, body + "\n" + ONE_ROUND % "")


def test_a_range_in_a_text_column_is_a_load_error(tmp_path: Path) -> None:
    body = HEADER.replace("field n: int", "field n: text")
    folder = tmp_path / "gaps"
    folder.mkdir()
    (folder / "game.rules").write_text(body + 'cards tile in box { columns n row 1..2 }\n' + ONE_ROUND % "",
                                       encoding="utf-8")
    with pytest.raises(RulesError, match="a range stands for numbers"):
        load_game(str(folder), players=2)


# ------------------------------------------------------------------ constants as family sizes

def test_a_constant_gives_a_zone_familys_size(tmp_path: Path) -> None:
    game = _game(tmp_path, 'const room_count = player_count + 2 de "Räume" en "rooms"\n'
                 'zone room de "der Raum" en "room" [room_count] of tile public\n'
                 'cards tile in box { card a { n = 1 } }\n' + ONE_ROUND % 'move card("a") to room[room_count]',
                 players=3)
    assert game.zone_names[-5:] == [f"room[{i}]" for i in range(1, 6)]
    state = game.new_initial_state(seed=1)
    assert game.zone_names[state.where[game.card_index["a"]]] == "room[5]"


# ------------------------------------------------------------------ lowest wins, min/max over lists

def test_lowest_score_wins_and_min_max_compare_lists(tmp_path: Path) -> None:
    game = _game(tmp_path, '''
cards tile in box { card a { n = 1 } }
player var pts: int = 0 de "die Punkte" en "points"
var best: list of int = [] de "bestes Paar" en "best pair"
setup { set first(players).pts = 3  set best = max([1, 5], [2, 0], [1, 9])  set best = min(best, [2, 1]) }
round { repeat while round < 1 phase main de "H" en "M" { } }
score(p) = p.pts lowest wins
''')
    state = game.new_initial_state(seed=1)
    assert state.scores() == [3, 0]
    assert state.returns() == [0.0, 1.0]
    assert state.gvars[[v[0] for v in game.program.gvars].index("best")] == [2, 0]


def test_greedy_bot_aims_low_when_the_lowest_score_wins(tmp_path: Path) -> None:
    game = _game(tmp_path, '''
cards tile in box { card a { n = 1 } }
player var pts: int = 0 de "die Punkte" en "points"
action take(k in [1, 2, 3]) de "nehmen" en "take" { label "take {k}" set me.pts = me.pts + k }
round { repeat while round < 3 phase main de "H" en "M" { for p in players { choose action for p: take } } }
score(p) = p.pts lowest wins
''')
    state = game.new_initial_state(seed=1)
    bot = GreedyAgent(seed=1)
    assert state.legal_labels()[bot.act(state)] == "take 1"


# ------------------------------------------------------------------ typed event values

def test_a_typed_event_value_can_be_read_and_is_checked_where_emitted(tmp_path: Path) -> None:
    body = ('cards tile in box { card a { n = 4 } }\n'
            'when shown(t: tile, by: player) { pay t.n coins from bank to by }\n'
            + ONE_ROUND % 'emit shown(card("a"), next(first(players)))')
    state = _game(tmp_path, body).new_initial_state(seed=1)
    assert state.scores() == [0, 4]
    text = _load_error(tmp_path / "wrong", body.replace('emit shown(card("a"), next', 'emit shown(3, next'))
    assert "'t' of event 'shown'" in text and "must be tile card" in text


def test_an_untyped_event_value_has_no_fields_to_read(tmp_path: Path) -> None:
    body = ('cards tile in box { card a { n = 4 } }\n'
            'when shown(t) { pay t.n coins from bank to first(players) }\n' + ONE_ROUND % 'emit shown(card("a"))')
    assert "has no field 'n'" in _load_error(tmp_path, body)
