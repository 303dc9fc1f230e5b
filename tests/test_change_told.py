"""`told KIND TEXT` and `unsaid` on vars and fields (LANGUAGE.md 1.9): a change of a value is said as the game
action it stands for, or left out where it is bookkeeping; a KIND that does not fit the type is a load error."""
from __future__ import annotations

import pytest

from dsl import ast as A
from dsl.errors import RulesError
from dsl.parser import parse_text
from dsl.validate import check_definitions
from rulebook.sentences import Speaker, Symbols

RULES = """
enum window title de "der Zeitpunkt" en "timing" { shut de "geschlossen" en "closed" open de "offen" en "open" }
kind token { title de "der Stein" en "token"
  field poisoned: bool = false de "{it} ist vergiftet" en "{it} is poisoned"
    not de "{it} ist nicht vergiftet" en "{it} is not poisoned"
    told false de "{it} verliert das Gift" en "{it} loses its poison"
  field used: bool = false de "{it} wurde benutzt" en "{it} has been used" unsaid }
zone bag de "der Beutel" en "bag" of token public
var steps: int = 0 de "die Zahl der Schritte" en "steps left"
  told 0 de "deine Bewegung endet" en "your movement ends" told sub de "" en ""
  told add de "du darfst {amount:acc} weiter ziehen" en "you may move {amount} further"
  told set de "du darfst so weit ziehen wie {value:nom}" en "you may move as far as {value}"
var win: window = shut de "das Fenster" en "window" told shut de "" en "" told open de "ab jetzt darfst du zaubern" en "from now on you may cast"
var count_up: int = 0 de "der Zähler" en "counter" unsaid
player var points: int = 0 de "die Punkte" en "points"
rule r de "R" en "R" { STMT }
"""


def said(stmt: str, lang: str = "en") -> list[str]:
    items = parse_text(RULES.replace("STMT", stmt), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    return [line.text for line in Speaker(lang, Symbols(items)).lines(rule.body)]


@pytest.mark.parametrize("stmt,de,en", [
    ("set steps = 0", "Deine Bewegung endet.", "Your movement ends."),
    ("set steps = steps + 2", "Du darfst 2 weiter ziehen.", "You may move 2 further."),
    ("set steps = 6", "Du darfst so weit ziehen wie 6.", "You may move as far as 6."),
    ("set win = open", "Ab jetzt darfst du zaubern.", "From now on you may cast."),
    ("set top(bag).poisoned = false", "Der oberste Stein des Beutels verliert das Gift.",
     "The top token of the bag loses its poison."),
])
def test_a_change_is_said_by_its_told_text(stmt: str, de: str, en: str) -> None:
    assert said(stmt, "de") == [de]
    assert said(stmt, "en") == [en]


@pytest.mark.parametrize("stmt", ["set steps = steps - 1", "set win = shut", "set count_up = count_up + 1",
                                  "set top(bag).used = true"])
def test_an_empty_text_or_unsaid_leaves_the_change_out(stmt: str) -> None:
    assert said(stmt) == []


def test_a_change_without_a_text_for_it_is_said_as_before() -> None:
    assert said("set top(bag).poisoned = true") == ["The top token of the bag is poisoned."]
    assert said("set me.points = me.points + 1") == ["Add 1 to your points."]


def test_an_if_left_with_nothing_to_say_is_told_by_its_other_branch_or_not_at_all() -> None:
    assert said("if steps > 2 { set count_up = 1 } else { set me.points = 0 }") == ["If the steps left is at most 2:"]
    assert said("if steps > 2 { set count_up = 1 }") == []
    assert said("if steps > 2 { set count_up = 1 } else if steps == 1 { set me.points = 0 }") \
        == ["If the steps left is at most 2 and the steps left is 1:"]


@pytest.mark.parametrize("told", ["add", "open", "3"])
def test_a_told_kind_that_does_not_fit_the_type_is_a_load_error(told: str) -> None:
    items = parse_text(f'var flag: bool = false de "die Fahne" en "flag" told {told} de "x" en "x"\n', "bad.rules").items
    check_definitions(parse_text('var flag: bool = false de "die Fahne" en "flag" told true de "x" en "x"\n',
                                 "ok.rules").items)
    with pytest.raises(RulesError, match="cannot change that way"):
        check_definitions(items)
