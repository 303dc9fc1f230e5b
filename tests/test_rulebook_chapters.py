"""Chapters a player learns from besides the rules: what each kind of card shows face up and face down
(from its `back` fields), and a variant's short chapter of what changes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl.loader import read_ruleset
from rulebook.assemble import build_rulebook
from rulebook.docs import expected_files
from rulebook.model import Rulebook, Section

ROOT = Path(__file__).resolve().parent.parent
MM = ROOT / "rulesets" / "maechtige_monster"
SPITZEL = Path(__file__).parent / "fixtures" / "games" / "spitzel"


def section(book: Rulebook, anchor: str) -> Section:
    return next(s for s in book.sections if s.anchor == anchor)


@pytest.fixture(scope="module")
def base() -> dict[str, Rulebook]:
    src = read_ruleset(MM)
    return {lang: build_rulebook(src, [], lang) for lang in ("de", "en")}


def test_card_anatomy_lists_front_and_back_of_each_kind(base: dict[str, Rulebook]) -> None:
    de = section(base["de"], "card-anatomy")
    assert de.title == "Aufbau der Karten"
    table = de.tables[0]
    assert table.headers == ["Karte", "Vorderseite (aufgedeckt)", "Rückseite (verdeckt)"]
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["Wächterkarte"][1] == "Level, kleinste Stärke, größte Stärke, kleinste Beute, größte Beute"
    assert "Stärke, Beute" in rows["Wächterkarte"][0]
    assert rows["Monsterkarte"] == ["Monstertyp, Stärke, Heilkosten", "Monstertyp"]
    assert rows["Königsplättchen"][1] == "keine Werte"
    assert ("Auf der Rückseite zeigt jede Wächterkarte nur: Level, kleinste Stärke, größte Stärke, "
            "kleinste Beute und größte Beute.") in de.paragraphs
    assert "Auf der Rückseite zeigt jedes Königsplättchen keine Werte." in de.paragraphs
    en = section(base["en"], "card-anatomy")
    assert ("The back of every guard card shows its level, lowest strength, highest strength, "
            "lowest loot and highest loot.") in en.paragraphs


def test_card_anatomy_follows_the_back_fields(tmp_path: Path) -> None:
    """A field marked `back` in the rules moves to the back column: the text comes from the kind."""
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    rules = game / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        'field heal: int de "die Heilkosten" en "heal cost"',
        'field heal: int back de "die Heilkosten" en "heal cost"\n  field wounds: int = 0 de "die Wunden" en "wounds"'),
        encoding="utf-8")
    book = build_rulebook(read_ruleset(game), [], "de")
    rows = {row[0]: row[1:] for row in section(book, "card-anatomy").tables[0].rows}
    assert rows["Monsterkarte"] == ["Monstertyp, Stärke, Heilkosten", "Monstertyp, Heilkosten"]  # `wounds`: state only


def test_card_anatomy_is_rendered() -> None:
    md = expected_files(["maechtige_monster"])["maechtige_monster/rulebook.en.md"]
    assert "| Card | Front (face up) | Back (face down) |" in md
    assert md.index('<a id="card-anatomy"></a>') < md.index('<a id="setup"></a>')


def test_the_base_book_has_a_short_chapter_per_variant(base: dict[str, Rulebook]) -> None:
    de = section(base["de"], "variant-waechterkette")
    assert de.title == "Variante: Wächterkette — was sich ändert"
    assert de.paragraphs == ["Gespielt wird nach den Regeln des Grundspiels, mit diesen Änderungen:"]
    [change] = de.entries
    assert change.title == "Geändert: Regel „Wächter nach Level sortiert auslegen“ (statt „Wächter auslegen“)"
    assert change.code == "lay_out_guards"
    assert change.lines[0].text == "Ziehe Karten vom Wächterstapel in die Wächterauslage, so viele wie die Spielerzahl."
    king = section(base["en"], "variant-koenigs-neue-regeln")
    assert king.title == "Variant: The King's New Rules — what changes"
    assert [e.title for e in king.entries] == [
        "New: Phase “Turn over the king tile” (before “Play monster cards”)",
        "Changed: Rule “Return the king tile”"]
    anchors = [s.anchor for s in base["de"].sections]
    assert anchors.index("game-end") < anchors.index("variant-waechterkette") < anchors.index("assumptions")


def test_a_variant_chapter_follows_the_variant_ops() -> None:
    """Removed requirements and replaced steps (the fixture's variant) are said, with the text that goes."""
    src = read_ruleset(SPITZEL)
    book = build_rulebook(src, [], "en")
    chapters = [s for s in book.sections if s.anchor.startswith("variant-")]
    assert [s.anchor for s in chapters] == [f"variant-{name.replace('_', '-')}" for name in src.variants]
    for sec, variant in zip(chapters, src.variants.values()):
        assert len(sec.entries) == len(variant.ops)
        assert all(e.title.split(":")[0] in ("New", "Changed", "Dropped") and e.lines for e in sec.entries)
    assert not [s for s in build_rulebook(src, [next(iter(src.variants))], "en").sections
                if s.anchor.startswith("variant-")]  # a variant's own book shows its changes up front instead


def test_a_variant_chapter_names_a_new_place_and_says_a_new_value(tmp_path: Path) -> None:
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    (game / "variants" / "trophaeen.rules").write_text('''
variant trophaeen {
  title de "Trophäen" en "Trophies"
  add zone trophies de "die Trophäen" en "trophies" of guard public
  remove require displace.not_strongest
}
''', encoding="utf-8")
    sec = section(build_rulebook(read_ruleset(game), [], "de"), "variant-trophaeen")
    assert sec.title == "Variante: Trophäen — was sich ändert"
    place, rule = sec.entries
    assert (place.title, place.code, place.lines) == ("Neu: Platz „Trophäen“", "trophies", [])
    assert rule.title == "Entfällt: Aktion „Monster verdrängen“: eine Bedingung"
    assert rule.code == "displace.not_strongest"
    assert [line.text for line in rule.lines] == [
        "Nur erlaubt, wenn die Stärke von Monsterkarte A kleiner als 5 ist."]
