"""Worked examples: a scenario's `example` step is played when the rulebook is built and shown as a box
in the entry of its action, rule or phase, with the moves and the position before and after; one that
no longer plays is an error at the step."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from interpreter.cli import check_ruleset
from rulebook.assemble import build_rulebook
from rulebook.docs import expected_files, rulebooks
from rulebook.model import Entry, Example, Rulebook

ROOT = Path(__file__).resolve().parent.parent
MM = ROOT / "rulesets" / "maechtige_monster"
MARKT = Path(__file__).parent / "fixtures" / "games" / "marktplatz"


@pytest.fixture(scope="module")
def books() -> dict[str, Rulebook]:
    src = read_ruleset(MM)
    return {lang: build_rulebook(src, [], lang) for lang in ("de", "en")}


def entry(book: Rulebook, anchor: str) -> Entry:
    return next(e for e in book.every_entry() if e.anchor == anchor)


def example(book: Rulebook, anchor: str, title: str) -> Example:
    return next(x for x in entry(book, anchor).examples if x.title.endswith(title))


def rows(x: Example) -> dict[str, list[str]]:
    assert x.table is not None
    return {row[0]: row[1:] for row in x.table.rows}


def test_the_printed_examples_stand_in_their_sections_in_both_languages(books: dict[str, Rulebook]) -> None:
    de, en = books["de"], books["en"]
    assert [x.title for x in entry(de, "action-displace").examples] == [
        "Beispiel 1: Ani darf verdrängen", "Beispiel 2: Ani darf nicht verdrängen",
        "Beispiel 3: Verdrängen kostet je nach Wächter-Level"]  # numbered as the print: displacing comes first
    assert [x.title for x in entry(de, "rule-share-loot").examples] == ["Beispiel 4: Inga und Frank teilen die Beute"]
    assert [x.title for x in entry(en, "rule-share-loot").examples] == ["Example 4: Inga and Frank share the loot"]
    assert [x.title for x in entry(de, "phase-heal").examples] == ["Beispiel 5: Heilkosten", "Beispiel 6: Jennys neue Hand"]
    for book in (de, en):
        assert sum(len(e.examples) for e in book.every_entry()) == 6


def test_an_example_shows_the_moves_and_what_they_changed_by_display_name(books: dict[str, Rulebook]) -> None:
    ani = example(books["de"], "action-displace", "Ani darf verdrängen")
    assert ani.text.startswith("Ani könnte eines der Monster verdrängen")
    assert ani.moves == [
        "Inga legt Untote 3 an den Anlegeplatz 1.", "Frank legt Meereswesen 2 an den Anlegeplatz 1.",
        "Jenny legt Dämonen 1 an den Anlegeplatz 2.",
        "Ani könnte Franks Meereswesen 2 mit der Karte Orks 4 verdrängen.",  # another player's card is theirs
        "Ani könnte Ingas Untote 3 mit der Karte Orks 4 verdrängen.",
        "Ani könnte Ingas Untote 3 mit der Karte Orks 1 nicht verdrängen: "  # the refusing requirement's text
        "Ein Monster kann nur von einem stärkeren verdrängt werden.",
        "Ani verdrängt Franks Meereswesen 2 mit der Karte Orks 4."]
    changed = rows(ani)
    assert changed["Gold von Ani"] == ["8", "7"]
    assert changed["Anlegeplatz 1"] == ["—", "Untote 3, Orks 4"]
    assert "Hand von Frank" not in changed  # his monster came back: the hand holds what it held
    assert all("_" not in cell for row in changed.values() for cell in row)  # no rules-file ids
    en = example(books["en"], "action-displace", "Ani may displace")
    assert en.moves[3:] == ["Ani could displace Frank's Sea creatures 2 with Orcs 4.",
                            "Ani could displace Inga's Undead 3 with Orcs 4.",
                            "Ani could not displace Inga's Undead 3 with Orcs 1: A monster can only be displaced by a "
                            "stronger one.",
                            "Ani displaces Frank's Sea creatures 2 with Orcs 4."]
    assert rows(en)["Ani's gold"] == ["8", "7"]


def test_show_names_the_rows_of_the_table(books: dict[str, Rulebook]) -> None:
    healing = example(books["de"], "phase-heal", "Heilkosten")
    assert rows(healing) == {"Gold von Inga": ["8", "8"], "Gold von Ani": ["8", "9"],
                             "Gold von Frank": ["8", "6"], "Gold von Jenny": ["8", "10"]}
    jenny = example(books["en"], "phase-heal", "Jenny's new hand")
    assert rows(jenny) == {"Jenny's hand": ["Demons 1, Demons 2", "Demons 1, Demons 4, Demons 5"],
                           "Jenny's reserve": ["Demons 4, Demons 5", "Demons 3, Demons 2"]}


def test_a_second_example_of_the_same_moves_says_so(books: dict[str, Rulebook]) -> None:
    """Heal costs and Jenny's new hand are two examples of one position and one move."""
    assert example(books["en"], "phase-heal", "Heal costs").moves == ["Jenny places Demons 2 at attack place 2."]
    assert example(books["en"], "phase-heal", "Jenny's new hand").moves == [
        "As in Example 5: Jenny places Demons 2 at attack place 2."]
    assert example(books["de"], "phase-heal", "Jennys neue Hand").moves == [
        "Wie in Beispiel 5: Jenny legt Dämonen 2 an den Anlegeplatz 2."]


def test_the_box_is_rendered_in_markdown_and_html() -> None:
    files = expected_files(["maechtige_monster"])
    md, html = files["maechtige_monster/rulebook.de.md"], files["maechtige_monster/rulebook.de.html"]
    assert "##### Beispiel 1: Ani darf verdrängen\n\nAni könnte" in md  # inside the action, inside its phase
    assert "| Was | Vorher | Nachher |" in md and "| Gold von Ani | 8 | 7 |" in md
    assert '<section class="example">\n<h5>Beispiel 1: Ani darf verdrängen</h5>' in html
    assert "<li>Ani verdrängt Franks Meereswesen 2 mit der Karte Orks 4.</li>" in html
    assert md.index("##### Beispiel 1") > md.index('<a id="action-displace">') > md.index('<a id="phase-play">')


def test_a_reason_is_given_once_per_example(books: dict[str, Rulebook]) -> None:
    """Three moves refused by the same requirement: its text follows the first only."""
    moves = example(books["en"], "action-displace", "Ani may not displace").moves
    guard = ("Displacing is only allowed while the combined strength of the monsters at the attack place is less than the highest "
             "strength on the guard's back.")
    assert moves[3:] == [f"Ani could not displace Inga's Undead 2 with Orcs 4: {guard}",
                         "Ani could not displace Inga's Undead 2 with Orcs 5.",
                         "Ani could not displace Frank's Sea creatures 4 with Orcs 5.",
                         "Ani could place Orcs 4 at attack place 2."]


def test_a_refusal_without_a_text_and_an_owner_ending_in_s(tmp_path: Path) -> None:
    """A move refused by a `require` with no text is left out (a bare "could not" reads as a log line: the
    example's text says why); "Klaus’" takes the bare apostrophe in German."""
    game = copy_mm(tmp_path)
    replace_in(game / "game.rules", 'as stronger\n    de "Ein Monster kann nur von einem stärkeren verdrängt werden." '
                                    'en "A monster can only be displaced by a stronger one."', "as stronger")
    examples = game / "scenarios" / "rulebook_examples.rules"
    examples.write_text(examples.read_text(encoding="utf-8").replace("inga", "klaus"), encoding="utf-8")
    books = rulebooks(read_ruleset(game))
    de = example(books["de"], "action-displace", "Ani darf verdrängen").moves
    assert "Ani könnte Klaus’ Untote 3 mit der Karte Orks 4 verdrängen." in de
    assert not any("Orks 1" in move for move in de)
    en = example(books["en"], "action-displace", "Ani may displace").moves
    assert "Ani could displace Klaus's Undead 3 with Orcs 4." in en
    assert not any("Orcs 1" in move for move in en)
    assert "Klaus places Undead 3 at attack place 1." in en


def test_a_french_game_shows_its_examples_in_french() -> None:
    fr = expected_files([str(MARKT)])["marktplatz/rulebook.fr.md"]
    assert "#### Exemple 1\u00a0: Une position en cours de partie" in fr
    assert "1. Ani choisit «\u00a0Prendre\u00a0: 2\u00a0»." in fr  # an action without `told`: its option
    assert "peut choisir" not in fr  # "could take 2" just before "takes 2" says nothing the move does not
    assert "Prendre\u00a0: 1" not in fr  # refused for no reason the rules give: left out
    assert "| panier d'Ani | lune 5 | lune 5, lune 4 |" in fr


def copy_mm(tmp_path: Path) -> Path:
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    return game


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_example_that_no_longer_plays_fails_docs_and_check_at_its_step(tmp_path: Path) -> None:
    game = copy_mm(tmp_path)
    # a rule change: displacing now needs 8 gold more, so Ani's example cannot be played
    replace_in(game / "game.rules", "require me.gold >= displace_cost(me, victim) as affordable",
               "require me.gold >= displace_cost(me, victim) + 8 as affordable")
    examples = game / "scenarios" / "rulebook_examples.rules"
    line = examples.read_text(encoding="utf-8").splitlines().index(
        "  example in displace show guard_at[1], attack[1], hand(ani), ani.gold") + 1
    with pytest.raises(RulesError) as err:
        rulebooks(read_ruleset(game))
    text = err.value.render()
    assert f"rulebook_examples.rules:{line}:3" in text
    assert "the example of scenario 'ani_may_displace' does not play any more" in text
    assert "is not legal" in text or "is legal" in text  # the failing step, quoted
    with pytest.raises(RulesError) as err:
        check_ruleset(str(game))
    assert "does not play any more" in err.value.render()


@pytest.mark.parametrize("old,new,message", [
    ("  example in displace show", "  example in displaec show", "no action, rule or phase 'displaec'"),
    ("  example in heal show hand(jenny), reserve(jenny)", "  example in heal show count(hand(jenny))",
     "an example shows zones and players' values only"),
    ("  example in heal show hand(jenny), reserve(jenny)",
     "  example in heal show hand(jenny)\n    de \"x\" en \"x\"\n  example in heal", "more than one example"),
    ("  players inga frank ani jenny\n  seed 5\n",
     "  players inga frank ani jenny\n  seed 5\n  variant waechterkette\n  variant billiges_verdraengen\n",
     "an example stands in the rulebook of the base game or of one variant"),
])
def test_check_reports_a_wrong_example_step(tmp_path: Path, old: str, new: str, message: str) -> None:
    game = copy_mm(tmp_path)
    replace_in(game / "scenarios" / "rulebook_examples.rules", old, new)
    with pytest.raises(RulesError) as err:
        check_ruleset(str(game))
    assert message in err.value.render()
    assert "rulebook_examples.rules:" in err.value.render()


def test_a_seat_with_a_text_is_named_by_it_in_each_language() -> None:
    """`players yellow de "Gelb" en "Yellow" …`: the seat's name in the example's moves and table is its
    text in the book's language; a seat without one keeps its name."""
    src = read_ruleset(ROOT / "rulesets" / "fuerchterliche_feinde")
    books = {lang: build_rulebook(src, [], lang) for lang in ("de", "en")}
    de = [m for e in books["de"].every_entry() for x in e.examples for m in x.moves]
    en = [m for e in books["en"].every_entry() for x in e.examples for m in x.moves]
    assert "Gelb zieht das wandernde Monster auf das Feld 97." in de
    assert "Yellow moves the wandering monster to space 97." in en
    assert not any("Yellow" in m for m in de)
    assert any(m.startswith("Chris moves and battles") for m in en)
    assert any(m.startswith("Spieler A zieht und kämpft") for m in de)
