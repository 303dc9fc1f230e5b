"""The language data rulebook sentences need: a zone's preposition (`at de "auf" en "on"`) and an
event's declaration with its values and display texts (`event bid(p: player) de "…" en "…"`), both
checked where they are written and used in the generated books."""
from __future__ import annotations

from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from interpreter import load_game
from rulebook.docs import rulebooks
from test_rulebook_identifiers import texts_of

GAME = '''
game words { title de "W" en "W" players 2 to 2 }
kind token { title de "der Stein" en "token" field n: int de "die Zahl" en "number" }
cards token in box { columns n row 1 row 2 row 3 }
zone box de "die Schachtel" en "box" of token public
zone pile de "der Stapel" en "pile" per player of token public
zone row de "die Reihe" en "row" [2] of token public ZONE_AT
currency coins de "die Münzen" en "coins" start 0
EVENT
when scored(q: player, k: int) { pay k coins from bank to q }
round { repeat while count(box) > 0
  phase p de "P" en "P" {
    move top(box) to row[1]
    draw 1 from box to pile(first(players))
    EMIT
  } }
score(p) = p.coins
'''
EVENT = 'event scored(p: player, n: int) de "{p} {n} Punkte bekommt" en "{p} scores {n} points"'


def _write(tmp_path: Path, zone_at: str = "", event: str = EVENT, emit: str = "emit scored(first(players), 2)") -> Path:
    folder = tmp_path / "words"
    folder.mkdir(parents=True, exist_ok=True)
    text = GAME.replace("ZONE_AT", zone_at).replace("EVENT", event).replace("EMIT", emit)
    (folder / "game.rules").write_text(text, encoding="utf-8")
    return folder


def _book(folder: Path, lang: str) -> str:
    """The book's text for players: the modders' appendix names the rules file's parts on purpose."""
    return "\n".join(texts_of([s for s in rulebooks(read_ruleset(folder))[lang].sections if s.anchor != "formulas"]))


def test_a_zone_says_its_own_preposition_and_a_pile_its_nouns(tmp_path: Path) -> None:
    """Without `at`, the default ("in Reihe 1", "to row 1": a numbered place has no article); a pile takes "auf"/"onto" from the catalogue's nouns."""
    plain = _write(tmp_path)
    assert "Lege den obersten Stein der Schachtel in Reihe 1." in _book(plain, "de")
    assert "Move the top token of the box to row 1." in _book(plain, "en")
    assert "Ziehe einen Stein aus der Schachtel auf den Stapel" in _book(plain, "de")
    assert "Draw one token from the box onto the pile" in _book(plain, "en")
    declared = _write(tmp_path, 'at de "an" en "at"')
    assert "Lege den obersten Stein der Schachtel an Reihe 1." in _book(declared, "de")
    assert "Move the top token of the box to row 1." in _book(declared, "en")
    on = _write(tmp_path, 'at de "auf" en "on"')
    assert "Lege den obersten Stein der Schachtel auf Reihe 1." in _book(on, "de")
    assert "Move the top token of the box onto row 1." in _book(on, "en")


def test_a_preposition_the_catalogue_does_not_know_is_an_error_at_its_text(tmp_path: Path) -> None:
    folder = _write(tmp_path, 'at de "neben" en "at"')
    with pytest.raises(RulesError) as err:
        rulebooks(read_ruleset(folder))
    text = str(err.value)
    assert "knows no preposition 'neben'" in text and "game.rules:7:" in text and "an, auf, in" in text


def test_a_declared_event_is_said_by_its_text_in_triggers_and_emits(tmp_path: Path) -> None:
    folder = _write(tmp_path)
    de, en = _book(folder, "de"), _book(folder, "en")
    assert "Immer wenn ein Spieler eine Zahl Punkte bekommt:" in de
    assert "Dann greifen die Sonderregeln für den Fall, dass der erste von allen Spielern 2 Punkte bekommt" in de
    assert "Whenever a player scores a number points:" in en
    assert "Then the special rules for when the first of all players scores 2 points apply" in en
    assert "scored" not in de + en


def test_an_undeclared_event_cannot_be_said_in_a_rulebook(tmp_path: Path) -> None:
    folder = _write(tmp_path, event="")
    load_game(str(folder), players=2)  # the engine needs no declaration
    with pytest.raises(RulesError, match="event 'scored' has no display text"):
        rulebooks(read_ruleset(folder))


@pytest.mark.parametrize("event,emit,message", [
    (EVENT, "emit scored(first(players))", "event 'scored' carries 2 value(s) (line 9), but is emitted with 1"),
    (EVENT, 'emit scored(first(players), "x")', "'n' of event 'scored' (line 9) must be int"),
    (EVENT.replace("n: int", "n: player"), "emit scored(first(players), first(players))",
     "'k' of event 'scored' is declared player (line 9), not int"),
    (EVENT.replace(", n: int", ""), "emit scored(first(players))", "event 'scored' carries 1 value(s) (line 9), not 2"),
    ('event moved(c: card) de "{c} wandert" en "{c} moves"', "emit scored(first(players), 2)",
     "'moved' is an event of the engine"),
])
def test_emits_and_triggers_are_checked_against_the_declaration(tmp_path: Path, event: str, emit: str,
                                                                 message: str) -> None:
    folder = _write(tmp_path, event=event, emit=emit)
    with pytest.raises(RulesError) as err:
        load_game(str(folder), players=2)
    assert message in str(err.value) and "game.rules:" in str(err.value)


def test_an_event_text_names_only_its_values(tmp_path: Path) -> None:
    folder = _write(tmp_path, event=EVENT.replace("{n} Punkte", "{m} Punkte"))
    with pytest.raises(RulesError, match=r"has a place \{m\}, but it has no such parameter"):
        rulebooks(read_ruleset(folder))
