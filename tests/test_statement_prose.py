"""Statement prose a player follows: a rule's player who is always the reader is "you", and bookkeeping
that only resets an `internal` count, flag or list is left out (docs/LANGUAGE.md 1.9, 1.15)."""
from __future__ import annotations

from dsl import ast as A
from dsl.parser import parse_text
from rulebook.model import Line
from rulebook.sentences import Speaker, Symbols

RULES = """
kind card { title de "die Karte" en "card" fr "la carte" field value: int de "der Wert" en "value" fr "la valeur"
  field hidden: bool = false de "{it} ist verdeckt" en "{it} is hidden" fr "{it} est cachée" }
zone deck de "der Stapel" en "deck" fr "la pioche" of card hidden shuffled
zone hand de "die Hand" en "hand" fr "la main" per player of card owner
currency gold de "das Gold" en "gold" fr "l'or" start 5
internal var steps: int = 0 de "die Zahl der Schritte" en "steps taken" fr "le nombre de pas"
internal var left: int = 0 de "die Zahl der übrigen Schritte" en "steps left" fr "le nombre de pas restants"
internal var mover: player = first(players) de "der Spieler am Zug" en "player whose turn it is" fr "le joueur actif"
rule fresh de "Neu beginnen" en "Start afresh" fr "Recommencer" { set steps = 0 }
rule pay_up(p: player, n: int) de "Bezahlen" en "Pay up" fr "Payer" { pay n gold from p to bank }
rule walk(p: player) de "Gehen" en "Walk" fr "Marcher" {
  set mover = p
  call fresh
  set left = 0
  while left > 0 { set left = left - 1 }
  if count(deck) == 0 { set steps = 0 }
  call pay_up(p, 2)
  draw 1 from deck to hand(p)
  call toss(top(hand(p)), 2)
}
rule toss(c: card, n: int) de "Eine Karte abwerfen" en "Discard a card" fr "Défausser une carte" {
  move c to deck
  set c.hidden = true
  set c.hidden = false
}
rule gift(p: player) de "Schenken" en "Gift" fr "Offrir" { draw 1 from deck to hand(p) }
var first_up: player = first(players) de "der Startspieler" en "start player" fr "le premier joueur"
rule deal de "Austeilen" en "Deal" fr "Distribuer" {
  for q in concat([first_up], others(first_up)) { draw 1 from deck to hand(q) }
}
function bonus(p: player) de "der Bonus" en "bonus" fr "le bonus" = 1
rule tip(p: player) de "Trinkgeld" en "Tip" fr "Pourboire" {
  let b de "der Bonus" en "bonus" fr "le bonus" = bonus(p)
  pay b gold from p to bank
}
rule r de "R" en "R" fr "R" {
  turns p from me until count(deck) == 0 { call walk(p) }
  for q in players { call gift(q) call tip(q) }
}
"""


def said(rule: str, lang: str = "en") -> list[str]:
    items = parse_text(RULES, "prose.rules").items
    body = next(i for i in items if isinstance(i, A.RuleDef) and i.name == rule).body

    def flat(lines: list[Line]) -> list[str]:
        return [t for line in lines for t in [line.text] + flat(line.children)]
    return flat(Speaker(lang, Symbols(items)).lines(body))


def test_a_rule_whose_player_is_always_the_reader_addresses_them() -> None:
    assert "Pay up for 2 (see “Pay up”)." in said("walk")  # not "for the player and 2"
    assert "Draw one card from the deck into your hand." in said("walk")
    assert "Ziehe eine Karte vom Stapel auf deine Hand." in said("walk", "de")


def test_a_rule_also_called_for_another_player_keeps_its_third_person() -> None:
    assert said("gift") == ["Draw one card from the deck into their hand."]


def test_resetting_bookkeeping_is_left_out_but_not_where_it_decides_something() -> None:
    lines = said("walk")
    assert not any("player whose turn it is" in line for line in lines)  # set to the reader: "you" already
    assert not any("Start afresh" in line for line in lines)  # a rule that only resets says nothing
    assert "The steps left is now 0." in lines  # a loop tests it: ending the loop is a rule
    assert "The steps taken is now 0." in lines  # what a branch does is said


def test_a_call_puts_an_argument_in_place_of_the_noun_its_title_names() -> None:
    assert "Discard the top card of your hand for 2 (see “Discard a card”)." in said("walk")
    assert "Die oberste Karte deiner Hand abwerfen für 2 (siehe „Eine Karte abwerfen“)." in said("walk", "de")


def test_a_round_from_a_player_is_said_as_clockwise_turns() -> None:
    assert said("deal")[0] == "Starting with the start player, each player in turn clockwise:"
    assert said("deal", "de")[0] == "Beginnend mit dem Startspieler macht reihum im Uhrzeigersinn jeder Spieler Folgendes:"


def test_a_local_named_as_the_function_it_holds_is_not_said_again() -> None:
    assert said("tip") == ["The player pays the bonus in gold to the bank."]


def test_a_flag_set_or_cleared_is_said_as_a_plain_clause() -> None:
    assert said("toss")[1:] == ["The card is hidden.", "The card is not hidden."]
    assert said("toss", "de")[1:] == ["Die Karte ist verdeckt.", "Die Karte ist nicht verdeckt."]
