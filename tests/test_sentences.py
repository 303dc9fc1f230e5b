"""Golden tests of the sentence generator: every statement, expression and definition of the
language renders as a sentence in German, English and French (tests/fixtures/sentences), and a few
representative sentences are spelled out here in full."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import get_args

import pytest

from dsl import ast as A
from dsl.lark_parser import grammar
from dsl.loader import read_ruleset
from dsl.parser import parse_text
from rulebook import clauses, phrases
from rulebook.assemble import Assembler
from rulebook.model import Line
from rulebook.phrases import LANGUAGES
from rulebook.sentences import Speaker, Symbols

FIXTURE = Path(__file__).parent / "fixtures" / "sentences"
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REGELWERK_UPDATE_GOLDEN") == "1"


def flatten(lines: list[Line], depth: int = 0) -> list[str]:
    out = []
    for line in lines:
        out.append("  " * depth + "- " + line.text + (f"  [{line.note}]" if line.note else ""))
        out.extend(flatten(line.children, depth + 1))
    return out


def render_fixture(lang: str) -> str:
    """Each part of the fixture as the rulebook renders it, headed by its kind and name."""
    asm = Assembler(read_ruleset(FIXTURE), (), lang)
    out: list[str] = []
    for item in asm.items:
        if isinstance(item, A.RoundDef):
            out += [asm.sp.cat.polish(asm.item_lines(item, asm.sp)[0].text)]
            for phase in item.phases:
                out += [f"## phase {phase.name}"] + flatten(asm.sp.lines(phase.body))
            continue
        if isinstance(item, (A.GameDef, A.EnumDef, A.KindDef, A.ZoneDef, A.EventDef)):
            continue
        out += [f"## {type(item).__name__} {getattr(item, 'name', '') or ''}".rstrip()]
        out += flatten(asm.item_lines(item, asm.sp))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_construct_renders_as_in_the_golden_file(lang: str) -> None:
    text = render_fixture(lang)
    golden = GOLDEN / f"sentences.{lang}.txt"
    if UPDATE:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), \
        f"sentences changed; review and rerun with REGELWERK_UPDATE_GOLDEN=1 to accept ({golden})"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_placeholder_or_code_leaks_into_sentences(lang: str) -> None:
    text = render_fixture(lang)
    for leak in ("{", "}", "None", "[<", "Name(", "BinOp", "pos=", "_s_", "_e_", "**"):
        assert leak not in text, leak


def test_the_fixture_uses_every_statement_and_expression() -> None:
    """The golden files cover the whole language only if the fixture does."""
    rules = parse_text((FIXTURE / "constructs.rules").read_text(encoding="utf-8"), "constructs.rules")
    used = {type(n) for n in A.walk(rules)}
    for cls in get_args(A.Stmt) + get_args(A.Expr) + get_args(A.Item):
        if cls not in (A.SetupDef, A.CardsDef, A.PictureDef):  # components and setup: rendered by the real
            # rulesets; pictures are drawn, not said (tests/test_pictures.py)
            assert cls in used, f"the fixture uses no {cls.__name__}"


def test_every_node_type_has_a_renderer() -> None:
    for cls in get_args(A.Stmt):
        assert hasattr(Speaker, f"_s_{cls.__name__}"), cls
    for cls in get_args(A.Expr):
        assert hasattr(Speaker, f"_e_{cls.__name__}"), cls


SNIPPET_RULES = """
kind card { title de "die Karte" en "card" fr "la carte" field value: int de "der Wert" en "value" fr "la valeur" }
zone deck de "der Stapel" en "deck" fr "la pioche" of card hidden shuffled
zone slot de "der Platz" en "slot" fr "l'emplacement" [3] of card public
zone hand de "die Hand" en "hand" fr "la main" per player of card owner
zone discard de "der Ablagestapel" en "discard pile" fr "la défausse" of card public
currency gold de "das Gold" en "gold" fr "l'or" start 5
currency coins de "die Münzen" en "coins" fr "les pièces" start 1
player var points: int = 0 de "die:pl Punkte" en "points" fr "les points"
const die = [1, 2, 2] de "der Würfel" en "die" fr "le dé" told de "wirf den Würfel" en "roll the die" fr "lancez le dé"
rule r de "R" en "R" fr "R" { STMT }
"""

EXAMPLES = [
    # a player's own cards counted, said as what they have; every place of a family in the plural
    ("if count(c for c in cards(slot) if owner(c) == me) >= 2 { end game }",
     "Wenn du mindestens 2 Karten in den Plätzen hast:",
     "If you have at least 2 cards in the slots:"),
    ("if count(c for c in cards(slot) if owner(c) == first(players)) == 1 { end game }",
     "Wenn der erste von allen Spielern 1 Karte in den Plätzen hat:",
     "If the first of all players has 1 card in the slots:"),
    # a drawn card laid on a place that is no player's own: German „Lege“, not „Ziehe … auf“
    ("draw 1 from deck to slot[2]",
     "Lege eine Karte vom Stapel in Platz 2.",
     "Draw one card from the deck to slot 2."),
    # several cards into a shuffled pile: shuffled in, as their order there is left to chance
    ("move cards(discard) to deck",
     "Mische die Karten auf dem Ablagestapel in den Stapel ein.",
     "Shuffle the cards on the discard pile into the deck."),
    ("draw 2 from deck to hand(me)",
     "Ziehe 2 Karten vom Stapel auf deine Hand.",
     "Draw 2 cards from the deck into your hand."),
    ("pay 3 gold from me to bank",
     "Du zahlst 3 Gold an die Bank.",
     "You pay 3 gold to the bank."),
    ("if count(slot[2]) < 2 { move top(deck) to slot[2] }",
     "Wenn in Platz 2 höchstens 1 Karte liegt:",
     "If slot 2 holds at most 1 card:"),
    ("modify card.value by -2 where position(it) == 1 until end of round",
     "In dieser Runde hat die erste Karte −2 Wert.",
     "This round, the first card has −2 value."),
    ("modify card.value to 4 until end of turn",
     "In diesem Zug hat jede Karte Wert 4.",
     "This turn, every card has a value of 4."),
    ("for c in [c for c in hand(me) if c.value >= 3] { reveal c }",
     "Für jede Karte auf deiner Hand, deren Wert mindestens 3 ist:",
     "For every card in your hand whose value is at least 3:"),
    ("if not revealed(top(deck)) { reveal top(deck) }",
     "Wenn die oberste Karte des Stapels verdeckt ist:",
     "If the top card of the deck is face down:"),
    ("let s = sum(c.value for c in slot[1])",
     "Zahl A ist die Summe der Werte der Karten in Platz 1.",
     "Number A is the sum of the values of the cards in slot 1."),
    # a choice among written-out options, said as the alternatives
    ("let x = choose me from [1, 2, 3]",
     "Du wählst eine Zahl: 1, 2 oder 3.",
     "You choose a number: 1, 2 or 3."),
    ("let x = random [1, 2, 3]",
     "Bestimme eine Zahl zufällig: 1, 2 oder 3.",
     "Pick a number at random: 1, 2 or 3."),
    # a pick from a list whose const says how it is picked: the order, not the faces
    ("let x = random die",
     "Wirf den Würfel.",
     "Roll the die."),
    # a draw from the six faces of a die is a die roll, and the number drawn is "the roll"
    ("let x = random [1, 2, 3, 4, 5, 6]",
     "Würfle.",
     "Roll a die."),
    ("let x = random [1, 2]\n set me.points = x",
     "Bestimme deine Punkte zufällig: 1 oder 2.",
     "Choose your points at random: 1 or 2."),
    # a list of the items that pass a test: German says who belongs to it, English after a colon; one item
    # left out: "without"
    ("let k = [c for c in hand(me) if c.value > 2]",
     "Zu Liste A zählt jede Karte auf deiner Hand, deren Wert größer als 2 ist.",
     "Every card in your hand whose value is greater than 2 counts among list A."),
    ("let k = [c for c in hand(me) if c != top(deck)]",
     "Liste A ist deine Hand ohne die oberste Karte des Stapels.",
     "List A is your hand without the top card of the deck."),
]


def first_sentence(stmt: str, lang: str) -> str:
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    return Speaker(lang, Symbols(items)).lines(rule.body)[0].text


@pytest.mark.parametrize("stmt,de,en", EXAMPLES)
def test_representative_sentences(stmt: str, de: str, en: str) -> None:
    for lang, expected in (("de", de), ("en", en)):
        assert first_sentence(stmt, lang) == expected


def test_an_item_left_out_of_a_local_list_is_removed_from_it() -> None:
    items = parse_text(SNIPPET_RULES.replace(
        "STMT", "let k = [c for c in hand(me) if c.value > 2]\n set k = [c for c in k if c != top(deck)]"), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[1].text for lang in ("de", "en")}
    assert said == {"de": "Die oberste Karte des Stapels zählt nicht mehr zu Liste A.",
                    "en": "Remove the top card of the deck from list A."}


def test_a_die_roll_is_then_called_the_roll() -> None:
    items = parse_text(SNIPPET_RULES.replace("STMT", "let x = random [1, 2, 3, 4, 5, 6]\n if x >= 4 { end game }"),
                       "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[1].text for lang in ("de", "en")}
    assert said == {"de": "Wenn der Wurf mindestens 4 ist:", "en": "If the roll is at least 4:"}


def test_a_break_out_of_a_repetition_ends_it_and_skips_no_items() -> None:
    items = parse_text(SNIPPET_RULES.replace("STMT", "while count(deck) > 0 { break }"), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[0].children[0].text for lang in ("de", "en")}
    assert said == {"de": "Hör hier auf.", "en": "Stop."}


MOVES = 'let left de "die:pl übrigen Züge" en "the:pl moves left" fr "les coups restants" = '


@pytest.mark.parametrize("stmt,de,en", [
    # a number named by a plural noun compared with a number: "there are …", not "… is greater than 0"
    (MOVES + "count(deck)\n if left > 0 { end game }", "Wenn es übrige Züge gibt:", "If there are moves left:"),
    (MOVES + "count(deck)\n if left <= 0 { end game }", "Wenn es keine übrigen Züge gibt:", "If there are no moves left:"),
    (MOVES + "count(deck)\n if left >= 3 { end game }", "Wenn es mindestens 3 übrige Züge gibt:",
     "If there are at least 3 moves left:"),
    # a list only chosen from: the choice says which items, "if possible"
    ('let k de "die:pl möglichen Karten" en "the:pl possible cards" fr "les cartes possibles" = '
     "[c for c in hand(me) if c.value > 2]\n if count(k) > 0 { let d = choose me from k\n move d to discard }",
     "Falls möglich, wählst du eine Karte auf deiner Hand, deren Wert größer als 2 ist:",
     "If possible, you choose a card in your hand whose value is greater than 2:"),
    # a number chosen from a range: "from 1 to 3", not "from the numbers from 1 to 3"
    ('let n de "die Anzahl Karten" en "number of cards" fr "le nombre de cartes" = choose me from range(1, 3)',
     "Du wählst eine Anzahl Karten zwischen 1 und 3.", "You choose a number of cards from 1 to 3."),
    # a modifier of one card is said of that card, not "every card for which the card is …"
    ("modify card.value by 2 where it == top(deck) until end of turn",
     "In diesem Zug hat die oberste Karte des Stapels +2 Wert.", "This turn, the top card of the deck has +2 value."),
    # … and a condition beside it that reads no other card says how long, before the card; an amount that is no number
    # says what changes by it
    ("modify card.value by me.points where it == top(deck) and count(deck) > 2 until end of turn",
     "In diesem Zug und solange auf dem Stapel mehr als 2 Karten liegen, ist der Wert der obersten Karte des "
     "Stapels um deine Punkte verändert.",
     "This turn, but only as long as the deck holds more than 2 cards, the value of the top card of the deck changes by "
     "your points."),
])
def test_counts_and_choices_are_said_without_bookkeeping(stmt: str, de: str, en: str) -> None:
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[-1].text for lang in ("de", "en")}
    assert said == {"de": de, "en": en}


ROUNDS = """
var done: int = 0 de "die Zahl der beendeten Runden" en "the number of finished rounds" fr "le nombre de manches finies"
function none_since(n: int) de "keine weitere Runde ist zu Ende gegangen, seit du dir {n:acc} gemerkt hast"
    en "no further round has ended since you noted {n}" fr "aucune manche n'a pris fin depuis que vous avez noté {n}"
    not de "die nächste Runde ist zu Ende" en "the next round ends" fr "la manche suivante est terminée" = done == n
rule finish de "Runde beenden" en "End a round" fr "Finir une manche" { set done = done + 1 }
"""


def test_a_modifier_until_a_counter_grows_is_said_by_its_end() -> None:
    """`where it == x and f(n)`, f(n) true while a counter that only grows still equals the n noted from it: said
    as an end by f's `not` text ("until the next round ends"), at most the duration; the noting is no step."""
    stmt = ('let n de "die Zahl der Runden" en "the number of rounds" fr "le nombre de manches" = done\n'
            " modify card.value by 2 where it == top(deck) and none_since(n) until end of game")
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt) + ROUNDS, "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: [line.text for line in Speaker(lang, Symbols(items)).lines(rule.body)] for lang in ("de", "en", "fr")}
    assert said == {
        "de": ["Bis die nächste Runde zu Ende ist, höchstens aber bis zum Ende des Spiels, hat die oberste Karte des "
               "Stapels +2 Wert."],
        "en": ["Until the next round ends or the game ends, whichever comes first, the top card of the deck has +2 value."],
        "fr": ["Jusqu'à ce que la manche suivante soit terminée, mais pas au-delà de la fin de la partie, la carte du "
               "dessus de la pioche a +2 en valeur."]}


def test_a_text_that_starts_with_its_place_says_it_in_the_case_its_sentence_asks_for() -> None:
    """`de "{n}, aber höchstens 3"`: the place is the text's head, so a choice up to it says it in the dative
    („zwischen 1 und der Punktzahl …“) and the formula appendix in the nominative („Eine Zahl, …“), no `{n:dat}`."""
    said = render_fixture("de")
    assert "wählt eine Anzahl Felder zwischen 1 und der Punktzahl von Spieler A, aber höchstens 3." in said
    assert "- Eine Zahl, aber höchstens 3: die Zahl (nie mehr als 3)." in said


LOOK = """
function ready(p: player) de "{p} ist bereit" en "{p} is ready" fr "{p} est prêt" = count(hand(p)) > 0
function spot(p: player) de "der Platz {p:vgen}" en "slot of {p}" fr "l'emplacement de {p}" = p.points
rule look(at: int) de "Umschauen" en "Look around" fr "Regarder"
    told de "schau dich von {at:dat} aus um" en "look around from {at}" fr "regardez autour de vous depuis {at}"
      by at de "{at} schaut sich von seinem Platz aus um" en "{at} looks around from their slot"
        fr "{at} regarde autour de lui depuis son emplacement" { end game }
"""


@pytest.mark.parametrize("stmt,de,en,fr", [
    ("call look(spot(me))", "Schau dich von deinem Platz aus um (siehe „Umschauen“).",
     "Look around from your slot (see “Look around”).", "Regardez autour de vous depuis votre emplacement"),
    ("for q in [q for q in players if ready(q)] { call look(spot(q)) }",
     "Jeder Spieler, der bereit ist, schaut sich von seinem Platz aus um (siehe „Umschauen“).",
     "Every player who is ready looks around from their slot (see “Look around”).",
     "Chaque joueur qui est prêt regarde autour de lui depuis son emplacement"),
])
def test_a_rule_told_for_another_players_own_place_says_that_player_acting(stmt: str, de: str, en: str, fr: str) -> None:
    """`told … by at …` with `at` a place: a call with another player's own place (`spot(q)`) says that player."""
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt) + LOOK, "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[0].text for lang in ("de", "en", "fr")}
    assert (said["de"], said["en"]) == (de, en) and said["fr"].startswith(fr)


@pytest.mark.parametrize("cond,de,en", [
    (" and count(deck) > 0", "Bis zu 3-mal, solange der Stapel nicht leer ist:", "Up to 3 times, as long as the deck is not empty:"),
    ("", "Wiederhole 3-mal:", "Repeat 3 times:"),
])
def test_a_counter_counted_down_in_a_loop_is_the_number_of_times(cond: str, de: str, en: str) -> None:
    stmt = MOVES + f"3\n while left > 0{cond} {{ move top(deck) to discard\n set left = left - 1 }}"
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en)):
        lines = Speaker(lang, Symbols(items)).lines(rule.body)
        assert [line.text for line in lines] == [expected]  # the counter and its step go unsaid
        assert len(lines[0].children) == 1


def test_the_players_in_an_order_of_their_own_take_turns_by_it() -> None:
    stmt = "for p in [q for q in players by -q.points] { set p.points = 0 }"
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[0].text for lang in ("de", "en")}
    assert said["de"].startswith("Jeder Spieler macht der Reihe nach, absteigend nach ")
    assert said["en"] == "Each player in turn, by their points, highest first, does the following:"


PAIR = ('let a de "die erste Karte" en "first card" fr "la première carte" = first(slot[1])\n'
        ' let b de "die zweite Karte" en "second card" fr "la deuxième carte" = last(slot[1])\n'
        ' if owner(a) == owner(b) and a.value != b.value { move a to discard }')


@pytest.mark.parametrize("capacity,de,en", [
    # a place that holds just the two: one sentence names them together
    (" capacity 2", ["Sieh dir die beiden Karten in Platz 1 an."],
     ["Look at the two cards in slot 1."]),
    ("", ["Die erste Karte ist die erste Karte in Platz 1.", "Die zweite Karte ist die letzte Karte in Platz 1."],
     ["The first card is the first card in slot 1.", "The second card is the last card in slot 1."]),
])
def test_the_first_and_the_last_card_of_one_place_are_said_together_as_a_pair(capacity: str, de: list[str],
                                                                              en: list[str]) -> None:
    """Two locals with their own nouns bound to the first and the last card of one place: "A and B" of just
    them is "both cards" / "the two cards"; one of them alone keeps its noun."""
    rules = SNIPPET_RULES.replace("[3] of card public", "[3] of card public" + capacity).replace("STMT", PAIR)
    items = parse_text(rules, "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: flatten(Speaker(lang, Symbols(items)).lines(rule.body)) for lang in ("de", "en")}
    assert said["de"] == [f"- {t}" for t in de] + [
        "- Wenn beide Karten demselben Spieler gehören und die beiden Karten sich im Wert unterscheiden:",
        "  - Lege die erste Karte auf den Ablagestapel."]
    assert said["en"] == [f"- {t}" for t in en] + [
        "- If both cards belong to the same player and the two cards differ in value:",
        "  - Move the first card onto the discard pile."]


@pytest.mark.parametrize("test,de,en", [
    ("player_count <= 3", "Bei 2 oder 3 Spielern:", "With 2 or 3 players:"),
    ("player_count != 3", "Bei 2, 4 oder 5 Spielern:", "With 2, 4 or 5 players:"),
    ("player_count > 2", "Bei 3 bis 5 Spielern:", "With 3 to 5 players:"),
    ("player_count == 2", "Bei 2 Spielern:", "With 2 players:"),
    ("player_count >= 2", "Wenn die Spielerzahl mindestens 2 ist:", "If the number of players is at least 2:"),
])
def test_a_test_of_the_player_count_is_said_by_the_counts_it_holds_for(test: str, de: str, en: str) -> None:
    rules = "game g { title de \"G\" en \"G\" fr \"G\" players 2 to 5 }\n" + SNIPPET_RULES
    items = parse_text(rules.replace("STMT", f"if {test} {{ end game }}"), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    assert [Speaker(lang, Symbols(items)).lines(rule.body)[0].text for lang in ("de", "en")] == [de, en]


@pytest.mark.parametrize("lang,text,said", [
    ("en", "take up to 1 power chip(s)", "take up to 1 power chip"),
    ("en", "take up to 21 power chip(s)", "take up to 21 power chips"),
    ("de", "drehe bis zu 1 aufgedeckte Kreuzung(en)", "drehe bis zu 1 aufgedeckte Kreuzung"),
    ("de", "drehe bis zu 2 aufgedeckte Kreuzung(en)", "drehe bis zu 2 aufgedeckte Kreuzungen"),
    ("fr", "prenez jusqu'à 3 pion(s) pouvoir", "prenez jusqu'à 3 pions pouvoir"),
])
def test_an_ending_in_brackets_agrees_with_the_number_before_it(lang: str, text: str, said: str) -> None:
    assert phrases.catalogue(lang).contract(text) == said


@pytest.mark.parametrize("pattern,pieces", [
    (r"\bvon dem ", ["von dem "]),
    (r"\b([Dd])u (steh|sieh|lieg|ha)t\b", ["u ", "t"]),  # groups and positions split the runs
    (r"(?<![\d.,])\b1 Schritte\b", ["1 Schritte"]),
    (r"\b(\d+) ((?:[\w-]+ ){0,2}[\w-]+)\(s\)", [" ", "(s)"]),  # an escaped bracket is itself
    (r"ab?c+d{2}e", ["a", "e"]),  # a repeated character is no certain piece
    (r",,+", [","]),
    (r"\x41bc", []),  # an escape's own characters are none
    (r"abc|de", []),  # an alternative at the top: nothing is certain
    (r"(?i)von dem", []),  # nor where case does not count
])
def test_a_contraction_is_tried_only_on_text_with_the_pieces_each_match_has(pattern: str, pieces: list[str]) -> None:
    assert phrases.needed(pattern) == pieces


NBSP = "\u00a0"  # French puts a no-break space before a colon and inside « »

FRENCH = [
    # the article of the text, contracted with "de" and "à", elided before a vowel
    ("draw 2 from deck to hand(me)", "Piochez 2 cartes de la pioche et placez-les dans votre main."),
    ("if count(c for c in cards(slot) if owner(c) == me) >= 2 { end game }",
     f"Si vous avez au moins 2 cartes sur les emplacements{NBSP}:"),
    ("move top(discard) to slot[2]", "Placez la carte du dessus de la défausse sur l'emplacement 2."),
    ("move top(deck) to discard bottom", "Placez la carte du dessus de la pioche sous la défausse."),
    ("pay 3 gold from me to bank", "Vous payez 3 or à la banque."),
    ("pay 3 gold from bank to me", "Vous prenez 3 or à la banque."),
    ("pay 1 coins from me to bank", "Vous payez 1 pièce à la banque."),  # "1 pièces": one, so singular
    ("pay count(deck) gold from bank to me", "Vous prenez à la banque autant d'or que le nombre de cartes dans la pioche."),
    ("if count(slot[2]) < 2 { move top(deck) to slot[2] }",
     f"Si l'emplacement 2 contient au plus 1 carte{NBSP}:"),
    ("if count(deck) == 0 { end game }", f"Si la pioche est vide{NBSP}:"),
    ("for i in positions(slot) { reveal top(slot[i]) }", f"Pour chaque emplacement{NBSP}:"),
    ("modify card.value by -2 where position(it) == 1 until end of round",
     "Jusqu'à la fin de la manche, la carte en position 1 a −2 en valeur."),
    ("for c in [c for c in hand(me) if c.value >= 3] { reveal c }",
     f"Pour chaque carte de votre main dont la valeur vaut au moins 3{NBSP}:"),
    ("if not revealed(top(deck)) { reveal top(deck) }", f"Si la carte du dessus de la pioche est face cachée{NBSP}:"),
    ("let s = sum(c.value for c in slot[1])", "Le nombre A est la somme des valeurs des cartes de l'emplacement 1."),
    # the subjunctive after "jusqu'à ce que"
    ("turns p from me until count(deck) == 0 { end game }",
     "En commençant par vous, les joueurs jouent à tour de rôle dans le sens horaire jusqu'à ce que la pioche "
     f"soit vide. À votre tour{NBSP}:"),
    ("log de \"x\" en \"x\" fr \"Fini.\"", f"Annoncez{NBSP}: «{NBSP}Fini.{NBSP}»"),
    # "vous" is the subject where you are compared; a number is "vaut", a value "est"
    ("if owner(top(deck)) != me { end game }", f"Si la carte du dessus de la pioche appartient à un autre joueur{NBSP}:"),
    ("if me != owner(top(deck)) { end game }",
     f"Si vous n'êtes pas le propriétaire de la carte du dessus de la pioche{NBSP}:"),
    ("if count(deck) == player_count { end game }", f"Si le nombre de cartes dans la pioche vaut le nombre de joueurs{NBSP}:"),
    ("if top(deck).value == top(discard).value { end game }",
     f"Si la valeur de la carte du dessus de la pioche vaut la valeur de la carte du dessus de la défausse{NBSP}:"),
    # a plural subject ("les points") takes a plural verb
    ("if me.points >= 3 { end game }", f"Si vos points valent au moins 3{NBSP}:"),
    ("set me.points = 2", "Vos points deviennent 2."),
    ("turns p from me until p.points > 9 { end game }",
     f"En commençant par vous, les joueurs jouent à tour de rôle dans le sens horaire jusqu'à ce que vos points "
     f"dépassent 9. À votre tour{NBSP}:"),
]


@pytest.mark.parametrize("stmt,fr", FRENCH)
def test_representative_french_sentences(stmt: str, fr: str) -> None:
    assert first_sentence(stmt, "fr") == fr


FORMS = {"nom", "acc", "dat", "gen", "main", "sub", "subj", "must", "pl", "default", "you", "agree", "number", "actor", "fem", "heavy", "singly"}  # "x_pl", "x_you", "x_fem", "x_filtered" too
VARIANTS = ("_fem", "_pl", "_you", "_filtered")  # a form's variant a language may have alone (French « telles que », a move's place first)


def keys(table: object, prefix: str = "") -> set[str]:
    """The message keys of a catalogue table; a table of forms (with their `VARIANTS`: a plural one `FORM_pl`, a
    feminine one `FORM_fem`, …) counts as one message."""
    if not isinstance(table, dict) or {functools.reduce(str.removesuffix, VARIANTS, k) for k in table} <= FORMS:
        return {prefix}
    return {k for name, value in table.items() for k in keys(value, f"{prefix}.{name}" if prefix else name)}


def messages(lang: str) -> set[str]:
    """A catalogue's messages, without its own declension and spelling rules and without the optional
    refinements (`expr.eq_num`: "vaut 3", `expr.ge_ref`: „mindestens so groß wie“) the generator uses only
    where a catalogue has them."""
    grammar_only = ("articles", "contractions", "plural", "grammar", "place")  # "place": each language's prepositions
    return {k for k in keys(phrases.catalogue(lang).data) if not k.startswith(grammar_only) and not k.endswith(("_num", "_ref"))}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalogue_has_the_same_messages(lang: str) -> None:
    """A message only one language has would render in one rulebook and fail in the other."""
    assert messages(lang) == messages("en")


def test_every_language_the_grammar_accepts_has_a_catalogue() -> None:
    """`fr "…"` parses only if a French rulebook can be written from it."""
    accepted = {t.pattern.value for t in grammar().terminals if t.name in ("DE", "EN", "FR")}
    assert accepted == set(LANGUAGES)
    assert {lang for lang in LANGUAGES if (phrases.CATALOGUE_DIR / f"{lang}.toml").is_file()} == set(LANGUAGES)


def test_assumptions_name_the_value_in_the_rulebooks_language() -> None:
    for lang, power, why, limit in (
            ("de", "Erster Stein: Kraft 3", "Die Kraft ist nicht abgedruckt.", "Grenze"),
            ("en", "First stone: power 3", "The power is not printed.", "Limit"),
            ("fr", "Première pierre (force\u00a0: 3)", "La force n'est pas imprimée.", "Limite")):
        listed = Assembler(read_ruleset(FIXTURE), (), lang).assumptions().assumptions
        assert [(a.what, a.why, a.file) for a in listed] == [
            (power, why, "sentences/constructs.rules"), (limit, "Only one language given.", "sentences/constructs.rules")]


def tables_of(node: object) -> list[dict[str, str]]:
    """Every table of forms in a catalogue."""
    if not isinstance(node, dict):
        return []
    if {k.removesuffix("_pl").removesuffix("_you") for k in node} <= FORMS:
        return [node]
    return [t for value in node.values() for t in tables_of(value)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_agreement_forms_belong_to_a_form_and_agree_names_a_place(lang: str) -> None:
    """`main_pl` only beside `main`, and `agree = "x"` only where every form has a place {x}."""
    for table in tables_of(phrases.catalogue(lang).data):
        for key in table:
            base = key.removesuffix("_pl").removesuffix("_you")
            assert base == key or base in table, (lang, table)
        if "agree" in table:
            assert all(f"{{{table['agree']}" in v for k, v in table.items() if k != "agree"), (lang, table)


CLAUSES = [  # (language, clause as the rules file writes it, subordinate order, negated)
    ("de", "{it} steht auf dem Spielplan", "{it} auf dem Spielplan steht", "{it} steht nicht auf dem Spielplan"),
    ("de", "{it} nimmt Kreaturen mit", "{it} Kreaturen mitnimmt", "{it} nimmt nicht Kreaturen mit"),
    ("de", "der dritte Magier hat noch eine Bewegung, die keinen Freund opfert",
     "der dritte Magier noch eine Bewegung hat, die keinen Freund opfert",
     "der dritte Magier hat noch keine Bewegung, die keinen Freund opfert"),
    ("de", "der Anführer bekommt ein Katapult", "der Anführer ein Katapult bekommt", "der Anführer bekommt kein Katapult"),
    ("de", "kein Portal wurde betreten", "kein Portal betreten wurde", "ein Portal wurde betreten"),
    ("de", "{it} hat sich noch nicht bewegt", "{it} sich noch nicht bewegt hat", "{it} hat sich schon bewegt"),
    ("de", "der Spieler am Zug muss anhalten", "der Spieler am Zug anhalten muss", "der Spieler am Zug muss nicht anhalten"),
    ("de", "über einen Kampf wird gerade entschieden", "über einen Kampf gerade entschieden wird",
     "über einen Kampf wird gerade nicht entschieden"),
    ("de", "{p} steht auf oder sieht die Kreuzung {x}", None, None),  # two verbs: said after "gilt:"
    # a clause of its own after the comma: its "oder" joins no second verb of the main clause
    ("de", "du stehst auf einem Monster, ohne ziehen, fliehen oder zaubern zu können",
     "du auf einem Monster stehst, ohne ziehen, fliehen oder zaubern zu können",
     "du stehst nicht auf einem Monster, ohne ziehen, fliehen oder zaubern zu können"),
    # two participles share the closing auxiliary: one verb, negated by dropping its "nicht"
    ("de", "{c} kann jetzt nicht geschlagen oder vergiftet werden", "{c} jetzt nicht geschlagen oder vergiftet werden kann",
     "{c} kann jetzt geschlagen oder vergiftet werden"),
    # a noun that is spelt like a particle ends the clause as it is: "den Weg", not "den Wegversperrt"
    ("de", "{it} versperrt den Weg", "{it} den Weg versperrt", "{it} versperrt nicht den Weg"),
    ("en", "{it} flies", None, "{it} does not fly"),
    ("en", "{it} carries creatures", None, "{it} does not carry creatures"),
    ("en", "the lava is rising", None, "the lava is not rising"),
    ("en", "{it} cannot be beaten", None, "{it} can be beaten"),
    ("en", "{it} has a magic ability", None, "{it} does not have a magic ability"),
    ("en", "value {n} has been played", None, "value {n} has not been played"),
    ("en", "every movement of {c} by {n} steps would get {c} beaten", None,
     "every movement of {c} by {n} steps would not get {c} beaten"),
]


@pytest.mark.parametrize("lang,text,sub,neg", CLAUSES, ids=[c[1] for c in CLAUSES])
def test_a_clause_of_the_rules_is_turned_and_negated_by_its_language(lang: str, text: str, sub: str | None,
                                                                      neg: str | None) -> None:
    """German moves the finite verb last in a subordinate clause; both languages negate a clause in words
    (a clause with two verbs has no single place for the verb and keeps the "gilt:" fallback)."""
    grammar_ = phrases.catalogue(lang).data["grammar"]
    assert isinstance(grammar_, dict)
    words = grammar_["clause"]
    if lang == "de":
        assert clauses.verb_last(text, words) == sub
    assert clauses.negated(text, words) == neg


def all_sentences(stmt: str, lang: str) -> list[str]:
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    return [t.strip()[2:] for t in flatten(Speaker(lang, Symbols(items)).lines(rule.body))]


def test_the_items_but_one_of_the_same_noun_are_the_other_ones_not_lettered() -> None:
    """`[d for d in L if d != c]` with `c` a card too: "every other card", and `c` keeps "the card"."""
    stmt = "for c in slot[1] { for d in [d for d in slot[1] if d != c and d.value > 1] { reveal d } }"
    assert all_sentences(stmt, "en")[1:] == ["For every other card in slot 1 whose value is greater than 1:",
                                             "Turn the other card face up."]
    assert all_sentences(stmt, "de")[1:] == ["Für jede andere Karte in Platz 1, deren Wert größer als 1 ist:",
                                             "Decke die andere Karte auf."]
    counted = "for c in slot[1] { if count(d for d in slot[1] if d != c) > 1 { reveal c } }"
    assert "the number of other cards in slot 1" in all_sentences(counted, "en")[1]
    assert "die Anzahl der anderen Karten in Platz 1" in all_sentences(counted, "de")[1]


@pytest.mark.parametrize("stmt,de,en", [
    ("for i in ends { draw 1 from deck to slot[i] }",  # a card drawn afresh for each place: "one per place"
     ["Lege je eine Karte vom Stapel in jeden Platz der Randplätze."],
     ["For every slot of the end slots, draw one card from the deck and put it there."]),
    ("for i in all_slots { move top(deck) to slot[i] }",  # a card picked afresh for each place: "in turn"
     ["Lege der Reihe nach in jeden Platz jeweils die oberste Karte des Stapels."],
     ["For every slot in turn, move the top card of the deck to it."]),
    ("for i in ends { move top(slot[i]) to slot[i] }",  # the place named twice: the loop stays
     ["Für die Randplätze jeweils:", "Lege die oberste Karte des Platzes in den Platz."],
     ["For each of the end slots:", "Move the top card of the slot to the slot."]),
])
def test_a_loop_that_only_fills_each_place_is_one_sentence(stmt: str, de: list[str], en: list[str]) -> None:
    """`for i in L { draw 1 from P to Z[i] }`: "to every slot of L", or "to every slot" where L is all the slots."""
    lists = 'internal const ends = [1, 3] de "die:pl Randplätze" en "the:pl end slots" fr "les emplacements du bord"\n' \
            'internal const all_slots = [1, 2, 3] de "die:pl Plätze" en "the:pl slots" fr "les emplacements"\n'
    items = parse_text(lists + SNIPPET_RULES.replace("STMT", stmt), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en)):
        assert [t.strip()[2:] for t in flatten(Speaker(lang, Symbols(items)).lines(rule.body))] == expected


def test_a_local_with_its_own_noun_is_declined_with_its_adjective() -> None:
    """German: „des verdrängten Blattes“ (a short noun on -t takes -es), not „des verdrängtes Blatt“."""
    stmt = 'let a de "das verdrängte Blatt" en "displaced card" fr "la carte écartée" = top(deck)\n' \
           'pay 1 gold from me to owner(a)'
    assert "des verdrängten Blattes" in all_sentences(stmt, "de")[1]
    assert "the displaced card" in all_sentences(stmt, "en")[1]


KINDED = """
enum ground title de "die Feldart" en "ground" fr "le terrain" {
  meadow de "die Wiese" en "meadow" fr "pré"
  swamp de "der Sumpf" en "swamp" fr "marais"
}
const grounds = [meadow, swamp, meadow] de "die:pl Feldarten" en "the:pl grounds" fr "les terrains"
function ground_of(i: int) de "die Feldart von Platz {i}" en "ground of slot {i}" fr "le terrain de l'emplacement {i}"
  is de "der Platz {i} ist {value}" en "slot {i} is a {value}" fr "l'emplacement {i} est de type {value}" = grounds[i]
"""


@pytest.mark.parametrize("op,de,en", [
    ("==", "Wenn der Platz 2 ein Sumpf ist:", "If slot 2 is a swamp:"),
    ("!=", "Wenn der Platz 2 kein Sumpf ist:", "If slot 2 is not a swamp:"),
])
def test_a_value_compared_with_one_of_its_kind_is_said_by_the_is_text(op: str, de: str, en: str) -> None:
    """`function f(i) … is de "der Platz {i} ist {value}"`: `f(2) == swamp` is "slot 2 is a swamp", not
    "the ground of slot 2 is swamp"; the value is declined with the article of its text ("ein Sumpf")."""
    items = parse_text(KINDED + SNIPPET_RULES.replace("STMT", f"if ground_of(2) {op} swamp {{ end game }}"),
                       "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en)):
        assert flatten(Speaker(lang, Symbols(items)).lines(rule.body))[0] == f"- {expected}"


@pytest.mark.parametrize("op,de,en,fr", [
    ("==", "Wenn der Platz 2 die Dünen ist:", "If slot 2 is the dunes:", "Si l'emplacement 2 est de type dunes\u00a0:"),
    ("!=", "Wenn der Platz 2 nicht die Dünen ist:", "If slot 2 is not the dunes:",
     "Si l'emplacement 2 n'est pas de type dunes\u00a0:"),
])
def test_a_plural_value_compared_by_the_is_text_is_said_definite(op: str, de: str, en: str, fr: str) -> None:
    """A value its text marks plural („die:pl Dünen“, "the:pl dunes") names the one kind there is of it: "slot 2
    is the dunes", not "is a dunes" (the is text's "a" goes); French « de type » takes it bare as any value."""
    kinded = KINDED.replace('swamp de "der Sumpf" en "swamp" fr "marais"', 'dunes de "die:pl Dünen" en "the:pl dunes" fr "dunes"')
    items = parse_text(kinded + SNIPPET_RULES.replace("STMT", f"if ground_of(2) {op} dunes {{ end game }}"),
                       "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en), ("fr", fr)):
        assert flatten(Speaker(lang, Symbols(items)).lines(rule.body))[0] == f"- {expected}"


def test_a_french_title_whose_article_elides_may_be_feminine() -> None:
    """« l':f Opale »: elided like « l' » (« l'Opale », « de l'Opale »), feminine where a word agrees or picks its
    form (« cette Opale », « une Opale »); « l' » alone stays masculine (« cet Ogre »)."""
    fr = phrases.catalogue("fr")
    opal, ogre = phrases.Noun("l':f Opale", fr), phrases.Noun("l'Ogre", fr)
    assert [opal.np(d).form("nom") for d in ("def", "this", "indef")] == ["l'Opale", "cette Opale", "une Opale"]
    assert opal.feminine() and opal.word == "Opale"
    assert [ogre.np(d).form("nom") for d in ("def", "this")] == ["l'Ogre", "cet Ogre"] and not ogre.feminine()


def test_a_german_name_declines_its_adjectives() -> None:
    """A name's capitalised adjective and an adjective made a noun take an adjective's endings: a heading
    „Dunkler Stein“, „Schattenloser“, „dem Dunklen Stein“; a letter after a noun is no name („der Reihe B“)."""
    de = phrases.catalogue("de")
    dusk, nemo, row = (phrases.Noun(t, de) for t in ("der Dunkle Stein", "der Schattenlose", "die Reihe B"))
    assert [dusk.np("label").form("nom"), dusk.np("def").form("dat"), dusk.np("def").form("gen")] \
        == ["Dunkler Stein", "dem Dunklen Stein", "des Dunklen Steins"]
    assert [nemo.np("label").form("nom"), nemo.np("def").form("dat")] == ["Schattenloser", "dem Schattenlosen"]
    assert row.np("def").form("dat") == "der Reihe B"


def test_a_masculine_noun_ending_in_e_is_declined_weak() -> None:
    """German: „den Riesen“, „des Riesen“, „dem Mitreisenden“; „der Spieler“ keeps its strong endings."""
    stmt = 'let a de "der Riese" en "giant" fr "le géant" = top(deck)\npay 1 gold from me to owner(a)'
    assert "des Riesen" in all_sentences(stmt, "de")[1]
    de = phrases.catalogue("de")
    assert phrases.Noun("der Mitreisende", de).np("def").form("dat") == "dem Mitreisenden"
    assert phrases.Noun("der Riese", de).np("indef").form("acc") == "einen Riesen"
    assert phrases.Noun("der Spieler", de).np("def").form("gen") == "des Spielers"


def test_a_german_name_without_its_article_declines_its_adjectives_strong() -> None:
    """A table names a place without its article: „erster Stapel“, „ausgespieltes Artefakt“, „abgelegte
    Karten“, not „erste Stapel“; in a sentence the article stays („der erste Stapel“)."""
    de = phrases.catalogue("de")
    assert phrases.Noun("der erste Stapel", de).np("label").form("nom") == "erster Stapel"
    assert phrases.Noun("das ausgespielte Plättchen", de).np("label").form("nom") == "ausgespieltes Plättchen"
    assert phrases.Noun("die:pl abgelegten Karten", de).np("label").form("nom") == "abgelegte Karten"
    assert phrases.Noun("der erste Stapel", de).np("def").form("dat") == "dem ersten Stapel"
    assert phrases.Noun("die letzte Reihe", de).np("label").form("nom") == "letzte Reihe"
    assert phrases.Noun("the:pl drawn messengers", phrases.catalogue("en")).np("label").form("nom") == "drawn messengers"
    assert phrases.Noun("die:pl möglichen Mitreisenden", de).np("some").form("nom") == "mögliche Mitreisende"  # a participle noun
    assert phrases.Noun("die:pl alten Legenden", de).np("some").form("nom") == "alte Legenden"
    assert phrases.Noun("der Wert des ausgespielten Plättchens", de).np("their").form("dat") == \
        "dem Wert seines ausgespielten Plättchens"  # the possessive goes to the genitive after the name


PUSH = """
rule push(c: card, up: bool) de "Schieben" en "Push" fr "Pousser"
    told de "{c} wird 1 Feld {up?vorwärtsgeschoben|zurückgeschoben}" en "{c} is pushed 1 space {up?forward|back}"
    fr "{c} est poussée d'une case {up?en avant|en arrière}" { reveal c }
function out(c: card) de "{c} liegt aus" en "{c} is out" fr "{c} est sortie" = c.value > 2
"""


def test_german_word_order_of_a_told_choice_and_a_separable_verb(monkeypatch: pytest.MonkeyPatch) -> None:
    """A condition in a told text's choice follows the whole German text („wird 1 Feld vorwärtsgeschoben,
    falls …, sonst zurückgeschoben“), two choices ending alike share it („vorwärts- oder zurückgeschoben“),
    and a separable particle right after the verb joins it in a subordinate clause („wenn die Karte ausliegt“)."""
    monkeypatch.setattr(sys.modules[__name__], "SNIPPET_RULES", SNIPPET_RULES + PUSH)
    assert all_sentences("for c in slot[1] { call push(c, c.value > 1) }", "de")[1] == (
        "Die Karte wird 1 Feld vorwärtsgeschoben, falls der Wert der Karte größer als 1 ist, sonst zurückgeschoben "
        "(siehe „Schieben“).")
    assert all_sentences("for c in slot[1] { call push(c, c.value > 1) }", "en") == [  # one sentence: "its value"
        "Every card in slot 1 is pushed 1 space forward if its value is greater than 1, otherwise back (see “Push”)."]
    decided = ('for c in slot[1] { let u de "die Karte geht vorwärts" en "the card goes forward" fr "la carte avance" '
               '= choose me from [true, false]\n call push(c, u) }')
    assert all_sentences(decided, "de")[2] == "Die Karte wird 1 Feld vorwärts- oder zurückgeschoben (siehe „Schieben“)."
    assert all_sentences("for c in slot[1] { if out(c) { reveal c }\n reveal c }", "de")[1] == "Wenn die Karte ausliegt:"
    assert all_sentences("for c in slot[1] { if out(c) { reveal c } }", "de")[0] == "Für jede Karte in Platz 1, die ausliegt:"


def test_a_move_to_a_place_of_the_rules_player_is_said_with_that_player_as_subject() -> None:
    """A rule about a player (not the reader) that moves a card to that player's place: „Der Spieler legt …
    auf seine Hand“, not the imperative „Lege … auf seine Hand“, which mixes „du“ and „sein“."""
    src = SNIPPET_RULES.replace("STMT", "call give(first(players))") + \
        'rule give(p: player) de "Geben" en "Give" fr "Donner" { move top(deck) to hand(p) }\n'
    items = parse_text(src, "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef) and i.name == "give")
    said = {}
    for lang in ("de", "en"):
        speaker = Speaker(lang, Symbols(items))
        speaker.enter(rule.body)
        said[lang] = flatten(speaker.lines(rule.body))
    assert said == {"de": ["- Der Spieler legt die oberste Karte des Stapels auf seine Hand."],
                    "en": ["- The player moves the top card of the deck into their hand."]}


def test_a_place_number_named_by_a_local_of_another_noun_is_said_as_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """`"… dem Platz {i}"` with `i` a local said by its own noun: „dem Platz der gewählten Marke“, not „dem
    Platz die gewählte Marke“."""
    fn = ('function card_on(i: int) de "die Karte auf dem Platz {i}" en "card on slot {i}" '
          'fr "la carte sur l\'emplacement {i}" = top(slot[i])\n')
    monkeypatch.setattr(sys.modules[__name__], "SNIPPET_RULES", SNIPPET_RULES + fn)
    stmt = 'let k de "die Marke" en "marker" fr "la marque" = choose me from [1, 2]\n reveal card_on(k)'
    assert all_sentences(stmt, "de")[1] == "Decke die Karte auf dem Platz der gewählten Marke auf."
    assert all_sentences(stmt, "en")[1] == "Turn the card on the slot of the chosen marker face up."


def test_a_local_named_as_its_owner_lookup_is_not_a_step_of_its_own() -> None:
    """`let o de "der Besitzer" en "owner" = owner(c)`: not "the owner is the owner of the card"."""
    stmt = 'let o de "der Besitzer" en "owner" fr "le propriétaire" = owner(top(deck))\npay 1 gold from me to o'
    assert all_sentences(stmt, "en") == ["You pay 1 gold to the owner."]
    assert all_sentences(stmt, "de") == ["Du zahlst 1 Gold an den Besitzer."]


def test_a_local_whose_noun_names_whose_owner_it_is_is_not_a_step_of_its_own() -> None:
    """`let w en "wizard of the top card of the deck" = owner(top(deck))`: not "the wizard … is the owner …";
    a field's lookup named by its field is not a step either."""
    stmt = 'let o de "der Spieler der obersten Karte des Stapels" en "player of the top card of the deck" ' \
           'fr "le joueur de la carte du dessus de la pioche" = owner(top(deck))\npay 1 gold from me to o'
    assert all_sentences(stmt, "en") == ["You pay 1 gold to the player of the top card of the deck."]
    assert all_sentences(stmt, "de") == ["Du zahlst 1 Gold an den Spieler der obersten Karte des Stapels."]
    field = 'let v de "die Punkte" en "points" fr "les points" = first(players).points\nif v > 1 { end game }'
    assert all_sentences(field, "en")[0].startswith("If the points ")


def test_a_place_numbered_by_a_value_is_said_with_of_not_juxtaposed() -> None:
    """`slot[me.points]`: "the slot of your points", not "the slot your points"; a numbered place is its
    name: "slot 2"."""
    stmt = "move top(deck) to slot[me.points]"
    assert all_sentences(stmt, "en") == ["Move the top card of the deck to the slot of your points."]
    assert all_sentences(stmt, "de") == ["Lege die oberste Karte des Stapels in den Platz deiner Punkte."]
    assert all_sentences("move top(deck) to slot[2]", "en") == ["Move the top card of the deck to slot 2."]


def test_a_move_of_a_whole_group_is_said_in_the_plural_where_it_reads_the_same_of_all() -> None:
    """German moves a group with „alle“ and the plural, its „deren“ clause unchanged; a condition that
    names the item again stays with „jede“; English keeps "every"."""
    moved = "move [c for c in hand(me) if c.value >= 3] to discard"
    assert first_sentence(moved, "de") == "Lege alle Karten aus deiner Hand, deren Wert mindestens 3 ist, auf den Ablagestapel."
    assert first_sentence(moved, "en").startswith("Move every card from your hand whose value is at least 3")
    looped = "for c in hand(me) { move c to deck }"
    assert all_sentences(looped, "de") == ["Lege alle Karten auf deiner Hand auf den Stapel."]
    named = "move [c for c in hand(me) if c.value > count(hand(me)) or revealed(c)] to discard"
    assert first_sentence(named, "de").startswith("Lege jede Karte aus deiner Hand, die aufgedeckt ist oder deren Wert ")


@pytest.mark.parametrize("stmt,de,en", [
    # a list said by the chosen thing's plural: "one of the cards", „eine der Karten“
    ('let k de "die:pl möglichen Karten" en "the:pl possible cards" fr "les cartes possibles" = '
     "[c for c in hand(me) if c.value > 2]\n let d = choose me from k\n move d to discard",
     "Du wählst eine der möglichen Karten.", "You choose one of the possible cards."),
    # a choice with a name of its own keeps it where the list does not say that noun
    ('let k de "die:pl möglichen Karten" en "the:pl possible cards" fr "les cartes possibles" = '
     '[c for c in hand(me) if c.value > 2]\n let d de "das Opfer" en "victim" fr "la victime" = choose me from k\n'
     " move d to discard",
     "Du wählst ein Opfer aus den möglichen Karten.", "You choose a victim from the possible cards."),
    # choosing "if possible" from a list said by a plural noun: "one of …" with the filter after it
    ('let k de "die:pl möglichen Karten" en "the:pl possible cards" fr "les cartes possibles" = [c for c in hand(me)]\n'
     "let p de \"die:pl guten Karten\" en \"the:pl good cards\" fr \"les bonnes cartes\" = [c for c in k if c.value > 2]\n"
     " if count(p) > 0 { let d = choose me from p\n move d to discard }",
     "Falls möglich, wählst du eine der möglichen Karten, deren Wert größer als 2 ist:",
     "If possible, you choose one of the possible cards whose value is greater than 2:"),
])
def test_a_choice_among_a_plural_list_is_one_of_them(stmt: str, de: str, en: str) -> None:
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: [line.text for line in Speaker(lang, Symbols(items)).lines(rule.body)] for lang in ("de", "en")}
    assert de in said["de"] and en in said["en"], said


def test_a_repetition_that_may_stop_early_says_at_most_and_stops_in_one_step() -> None:
    """`repeat N { …; if C {…} else { break } }`: "Repeat at most as many times as …", "Otherwise, stop."."""
    stmt = "repeat me.points { draw 1 from deck to hand(me)\n if count(deck) > 1 { reveal top(deck) } else { break } }"
    assert all_sentences(stmt, "en") == ["Repeat at most as many times as your points:",
                                         "Draw one card from the deck into your hand.",
                                         "If the deck holds at least 2 cards:", "Turn the top card of the deck face up.",
                                         "Otherwise, stop."]
    assert all_sentences(stmt, "de")[0] == "Wiederhole Folgendes höchstens so oft, wie deine Punkte angeben:"
    assert all_sentences(stmt, "de")[-1] == "Sonst hör hier auf."
    assert all_sentences("repeat 3 { if count(deck) > 1 { reveal top(deck) } else { break } }", "en")[0] \
        == "Repeat up to 3 times:"


@pytest.mark.parametrize("internal,de,en", [
    ("internal ", "das Ziel", "the goal"),  # a named number the values table does not show: said by its name
    ("", "10", "10"),  # a shown constant: said by its value
])
def test_an_internal_named_number_is_said_by_its_name(internal: str, de: str, en: str) -> None:
    """`internal const tower = 1 de "der Turm"`: „auf dem Turm“, not „auf 1“, since no table shows the 1."""
    goal = f'{internal}const goal = 10 de "das Ziel" en "goal" fr "le but"\n'
    items = parse_text(goal + SNIPPET_RULES.replace("STMT", "if me.points >= goal { end game }"), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en)):
        said = " ".join(flatten(Speaker(lang, Symbols(items)).lines(rule.body)))
        assert expected in said and (internal == "" or "10" not in said), said


def test_a_break_with_a_text_says_what_ends() -> None:
    """`break de "der Flug endet" en "the flight ends"`: the rulebook says what ends, not "Stop." („Hör hier auf.“),
    also as the other branch of an `if`, which is then a branch of its own."""
    stmt = ('repeat 3 { if count(deck) == 0 { break de "der Flug endet" en "the flight ends" fr "le vol s\'arrête" } '
            'else { break de "der Flug endet" en "the flight ends" fr "le vol s\'arrête" } }')
    assert "The flight ends." in all_sentences(stmt, "en") and "Stop." not in all_sentences(stmt, "en")
    assert "Der Flug endet." in all_sentences(stmt, "de") and "Hör hier auf." not in all_sentences(stmt, "de")
    assert "Otherwise:" in all_sentences(stmt, "en")
    assert "Stop." in all_sentences("repeat 3 { if count(deck) == 0 { break } }", "en")


def test_a_choice_among_the_parts_of_one_thing_names_the_thing_in_the_genitive() -> None:
    """A local named in the singular that holds a list (a tile's two sides): "a side of the tile", not
    „eine Seite aus dem Plättchen“; a direction chosen is "forward or back", its adverbs no verbs."""
    stmt = ('let e de "das Plättchen" en "tile" fr "la tuile" = [1, 2]\n'
            'let s de "die Seite" en "side" fr "la face" = random e\n'
            'let t de "die Kante" en "edge" fr "le bord" = choose me from e\n'
            'let f de "die Karte geht vorwärts oder rückwärts" en "the card goes forward or back" '
            'fr "la carte avance ou recule" = choose me from [true, false]')
    assert all_sentences(stmt, "de")[-3:] == ["Bestimme zufällig eine Seite des Plättchens.",
                                              "Du wählst eine Kante des Plättchens.",
                                              "Du entscheidest, ob die Karte vorwärts oder rückwärts geht."]
    assert all_sentences(stmt, "en")[-3:] == ["Pick a side of the tile at random.", "You choose an edge of the tile.",
                                              "You decide whether the card goes forward or back."]


GAIN = """
rule gain(p: player, most: int de "der Wert" en "value" fr "la valeur") de "Gewinnen" en "Gain" fr "Gagner"
    told de "nimm {most#|bis zu |}{most} Münze(n)" en "take {most#|up to |}{most} coin(s)"
    fr "prenez {most} pièce(s) au plus" { pay most coins from bank to p }
"""


@pytest.mark.parametrize("value,de,en", [(1, "Nimm 1 Münze", "Take 1 coin"),
                                         (3, "Nimm bis zu 3 Münzen", "Take up to 3 coins")])
def test_a_told_count_of_a_cards_own_number_is_that_number(value: int, de: str, en: str) -> None:
    """`{most#…}` given `self.value` in one card's effect counts the number printed on that card: "take 1 coin",
    but "take up to 3 coins", as for a number written out."""
    items = parse_text(SNIPPET_RULES.replace("STMT", "call gain(me, self.value)") + GAIN, "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef) and i.name == "r")
    for lang, said in (("de", de), ("en", en)):
        speaker = Speaker(lang, Symbols(items))
        speaker.printed = {"value": value}
        assert flatten(speaker.lines(rule.body)) == [f"- {said} (siehe „Gewinnen“)." if lang == "de"
                                                     else f"- {said} (see “Gain”)."]


def test_german_verb_of_the_reader_goes_last_before_and() -> None:
    """A subordinate clause about the reader ends in the reader's verb also before „und“: „wenn du weiser als
    der Spieler bist und …“, not „… ist und …“."""
    de = phrases.catalogue("de")
    assert de.polish("Wenn du weiser als der Spieler ist und er steht:") == \
        "Wenn du weiser als der Spieler bist und er steht:"


def test_an_item_without_a_noun_of_a_list_a_function_names_is_said_by_the_list() -> None:
    """`any(open_slot(x) for x in reachable(n))`: "one of the slots … is open", not "there is a value in the slots
    … that is open" (a clause that the nearest noun would take); German keeps its agreeing „der“."""
    extra = """
function reachable(n: int) de "die:pl Plätze, die ein Stein von Platz {n} aus erreicht" en "the:pl slots a token reaches from slot {n}"
    fr "les emplacements qu'un pion atteint depuis l'emplacement {n}" = [n, n + 1]
function open_slot(n: int) de "Platz {n} ist frei" en "slot {n} is open" fr "l'emplacement {n} est libre" = count(slot[n]) == 0
"""
    items = parse_text(SNIPPET_RULES.replace("STMT", "if any(open_slot(x) for x in reachable(2)) { end game }") + extra,
                       "s.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    said = {lang: Speaker(lang, Symbols(items)).lines(rule.body)[0].text for lang in ("de", "en", "fr")}
    assert said == {
        "de": "Wenn es einen Wert aus den Plätzen, die ein Stein von Platz 2 aus erreicht, gibt, der frei ist:",
        "en": "If one of the slots a token reaches from slot 2 is open:",
        "fr": "Si l'un des emplacements qu'un pion atteint depuis l'emplacement 2 est libre\u00a0:"}
