"""Chapters a player learns from besides the rules: what each kind of card shows face up and face down
(from its `back` fields), and a variant's short chapter of what changes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl import ast as A
from dsl.loader import read_ruleset
from rulebook.assemble import build_rulebook
from rulebook.docs import expected_files
from rulebook.model import Rulebook, Section, inner_first
from rulebook.order import replaced_in_setup

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
    # a pair `F_min`, `F_max` beside `F` says F once; a label's "on the back" is not said again in the back column
    assert rows["Wächterkarte"][1] == "Level, kleinste und größte Stärke, kleinste und größte Beute"
    # each field under the side it is printed on; a face-up card shows its back's fields too, said once
    assert rows["Wächterkarte"][0] == "Stärke, Beute, außerdem alles von der Rückseite"
    assert rows["Monsterkarte"] == ["Stärke, Heilkosten, außerdem alles von der Rückseite", "Monstertyp"]
    assert not rows["Königsplättchen"][0].endswith("Rückseite")  # plain backs: nothing more to show
    assert rows["Königsplättchen"][1] == "leer"
    # a pair of fields `F_min`, `F_max` beside `F` is the range of F
    assert "Die Rückseite jeder Wächterkarte zeigt nur das Level, die Spanne der Stärke und die Spanne der Beute." \
        in de.paragraphs
    assert "Königsplättchen haben eine einheitliche Rückseite." in de.paragraphs
    en = section(base["en"], "card-anatomy")
    assert "The back of every guard card shows its level, strength range and loot range." in en.paragraphs
    assert "King tiles have plain backs." in en.paragraphs
    assert [r for r in en.tables[0].rows if r[0] == "Guard card"][0][2] == "level, lowest and highest strength, lowest and highest loot"


def test_card_anatomy_follows_the_back_fields(tmp_path: Path) -> None:
    """A field marked `back` in the rules moves to the back column: the text comes from the kind."""
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    rules = game / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        'field heal: int de "die:pl Heilkosten" en "heal cost"',
        'field heal: int back de "die:pl Heilkosten" en "heal cost"\n  field wounds: int = 0 de "die Wunden" en "wounds"'),
        encoding="utf-8")
    book = build_rulebook(read_ruleset(game), [], "de")
    rows = {row[0]: row[1:] for row in section(book, "card-anatomy").tables[0].rows}
    assert rows["Monsterkarte"] == ["Stärke, außerdem alles von der Rückseite", "Monstertyp, Heilkosten"]  # `wounds`: state only


def test_a_card_table_heads_a_back_field_without_the_words_that_name_the_back(base: dict[str, Rulebook]) -> None:
    """A table header is short: "highest strength on the back" (rule sentences need it) heads "highest strength"."""
    headers = [t.headers for s in base["en"].sections for t in s.tables]
    assert ["level", "lowest strength", "highest strength", "lowest loot", "highest loot", "strength", "loot"] in headers
    assert not any(h.endswith("on the back") for row in headers for h in row)


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
    assert change.lines[0].text == "Lege je Spieler eine Wächterkarte vom Wächterstapel in die Wächterauslage."
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
    assert (place.title, place.code, [line.text for line in place.lines]) == (
        "Neu: Platz „Trophäen“", "trophies", ["Hier liegen Wächterkarten (offen)."])
    assert rule.title == "Entfällt: Aktion „Monster verdrängen“: eine Bedingung"
    assert rule.code == "displace.not_strongest"
    assert [line.text for line in rule.lines] == [
        "Ein Monster mit Stärke 5 kann nicht verdrängt werden."]


# --- the print's order, player-facing values, parts of a variant -------------------------------

def entry_tree(book: Rulebook, anchor: str) -> dict[str, list[str]]:
    return {e.anchor: [inner.anchor for inner in e.entries] for e in section(book, anchor).entries}


def test_actions_and_rules_stand_inside_the_phase_that_uses_them(base: dict[str, Rulebook]) -> None:
    """As the print tells them: displacing inside playing, sharing the loot inside fighting."""
    assert entry_tree(base["en"], "round") == {
        "phase-play": ["action-place", "action-displace"], "phase-fight": ["rule-share-loot"],
        "phase-heal": ["rule-return-king-tile"]}
    assert entry_tree(base["en"], "setup") == {"setup-rules": ["rule-lay-out-guards"]}  # first used there
    anchors = [s.anchor for s in base["en"].sections]
    assert "actions" not in anchors and "special-rules" not in anchors  # nothing is left over
    assert anchors.index("setup") < anchors.index("round") < anchors.index("game-end")


def test_the_order_follows_the_calls_in_the_rules(tmp_path: Path) -> None:
    """A rule the setup calls is told in the setup, not in the phase that calls it again later."""
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    rules = game / "game.rules"
    text = rules.read_text(encoding="utf-8")
    old = "  call lay_out_guards\n}"
    assert old in text
    rules.write_text(text.replace(old, "  call lay_out_guards\n  call return_king_tile\n}", 1), encoding="utf-8")
    book = build_rulebook(read_ruleset(game), [], "en")
    assert [e.anchor for e in section(book, "setup").entries[0].entries] == [
        "rule-lay-out-guards", "rule-return-king-tile"]
    assert entry_tree(book, "round")["phase-heal"] == []


def test_rules_only_cards_use_keep_a_chapter_of_their_own() -> None:
    """Rules no phase reaches (those a spell card carries out) stay under "Special rules"."""
    book = build_rulebook(read_ruleset(ROOT / "rulesets" / "fuerchterliche_feinde"), [], "en")
    turn = section(book, "round").entries[0]
    inside = [e.anchor for e in inner_first(turn.entries)]
    assert inside[:3] == ["section-course-of-play", "rule-take-turn", "action-enter"]  # `new_turn` only resets counts
    assert "action-fight" in inside
    special = [e.anchor for e in inner_first(section(book, "special-rules").entries)]
    assert "rule-lengthen-move" in special and not set(special) & set(inside)


def test_the_values_table_holds_only_what_players_keep_track_of(base: dict[str, Rulebook]) -> None:
    """An `internal` var (the place where the fight was lost) and a var the setup sets before anyone reads
    it (the start player, drawn at random) have no start value worth printing."""
    values = next(t for t in section(base["en"], "components").tables if t.caption == "Values")
    assert [row[0] for row in values.rows] == ["Gold per player at the start", "Number of cards in hand",
                                              "Number of king tiles", "Fee to the treasury for displacing",
                                              "Compensation for displacing"]
    share = next(x for e in base["en"].every_entry() for x in e.examples if "share the loot" in x.title)
    assert share.table is not None
    shown = [row[0] for row in share.table.rows]
    assert "start player" in shown and "place where the fight was lost" not in shown  # a marker, not bookkeeping


def test_internal_marks_vars_and_consts(tmp_path: Path) -> None:
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    rules = game / "game.rules"
    text = rules.read_text(encoding="utf-8").replace("internal var lost_at", "var lost_at")
    rules.write_text(text.replace("\nconst hand_size", "\ninternal const hand_size"), encoding="utf-8")
    src = read_ruleset(game)
    const = next(i for i in src.items if getattr(i, "name", "") == "hand_size")
    assert const.internal
    values = next(t for t in section(build_rulebook(src, [], "en"), "components").tables if t.caption == "Values")
    names = [row[0] for row in values.rows]
    assert "Place where the fight was lost" in names and "Number of cards in hand" not in names


def test_bots_are_an_appendix_and_a_variants_parts_say_so(base: dict[str, Rulebook]) -> None:
    en = base["en"]
    anchors = [s.anchor for s in en.sections]
    assert anchors[-3:] == ["bots", "formulas", "assumptions"]  # the appendices: for bots, for modders, assumed values
    bots = section(en, "bots")
    assert bots.title == "Appendix: For bots" and bots.paragraphs[0].startswith("Not a rule of the game")
    assert "bots" not in [e.anchor for e in section(en, "game-end").entries]
    assert section(en, "reference-king-tile").paragraphs == [
        "These rules apply only in the variant “The King's New Rules”."]
    zones = {row[0] for row in section(en, "components").tables[0].rows}
    assert "King's display (only in the variant “The King's New Rules”)" in zones
    assert "Guard display (only in the variant “Guard chain”)" in zones and "King's stack" in zones
    rows = {row[0]: row[1] for row in section(en, "card-anatomy").tables[0].rows}
    assert rows["King tile"] == "rule change (only in the variant “The King's New Rules”)"
    king = build_rulebook(read_ruleset(MM), ["koenigs_neue_regeln"], "en")  # its own book: no such note
    assert not section(king, "reference-king-tile").paragraphs
    assert "King's display" in {row[0] for row in section(king, "components").tables[0].rows}


FF = ROOT / "rulesets" / "fuerchterliche_feinde"


@pytest.fixture(scope="module")
def feinde() -> dict[str, Rulebook]:
    src = read_ruleset(FF)
    return {lang: build_rulebook(src, [], lang) for lang in ("de", "en")}


def test_a_piece_has_no_face_or_back_to_tell(feinde: dict[str, Rulebook]) -> None:
    """Playing figures: nothing printed, always face up; no "plain backs", no "face up" place."""
    de, en = section(feinde["de"], "card-anatomy"), section(feinde["en"], "card-anatomy")
    assert "Spielfiguren haben eine einheitliche Rückseite." not in de.paragraphs
    assert "Playing figures have plain backs." not in en.paragraphs
    assert not any(row[0] == "Playing figure" for row in en.tables[0].rows)
    assert "Teleports have plain backs." in en.paragraphs  # a face-down pile: still a card
    md = expected_files(["fuerchterliche_feinde"])["fuerchterliche_feinde/rulebook.en.md"]
    assert "| Table | playing figure |  |  |  |" in md and "| Table | playing figure |  | face up |" not in md


def test_a_single_card_among_counted_ones_says_it_is_one(feinde: dict[str, Rulebook]) -> None:
    """Spell cards come 2 of a kind; the single ones say "1 in the game", not nothing."""
    md = expected_files(["fuerchterliche_feinde"])["fuerchterliche_feinde/rulebook.en.md"]
    card = md[md.index('<a id="card-movement-5"></a>'):]
    assert card.split("\n\n", 2)[1].startswith("- 1 in the game.")


def test_a_start_value_every_player_gets_replaced_in_the_setup_is_not_printed(feinde: dict[str, Rulebook]) -> None:
    """The setup puts each player's wisdom marker on their place in turn order: a start value of 1 would
    contradict it. A loop over only some players, or one reading the value first, keeps the row."""
    values = next(t for t in section(feinde["en"], "components").tables if t.caption == "Values")
    assert "Wisdom per player at the start" not in [row[0] for row in values.rows]
    at = A.Pos(file="t", line=1, col=1)
    q, clock, players = (A.Name(pos=at, name=n) for n in ("q", "clock", "players"))
    score = A.Attr(pos=at, obj=q, name="score")
    mark, read = A.SetStmt(pos=at, target=score, value=clock), A.SetStmt(pos=at, target=clock, value=score)
    assert replaced_in_setup("score", [A.For(pos=at, var="q", source=players, body=[mark])])
    assert not replaced_in_setup("score", [A.For(pos=at, var="q", source=A.Name(pos=at, name="winners"), body=[mark])])
    assert not replaced_in_setup("score", [A.For(pos=at, var="q", source=players, body=[read, mark])])
