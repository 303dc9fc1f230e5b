"""`regelwerk docs`: the rulebooks of every shipped ruleset and variant, built from the same rules the
engine runs, are what generated_docs/ holds; they have the sections a rulebook needs, tables from the
card data, the changes of a variant with old and new text, and every assumed value with file:line.
A construct or name the generator cannot render is a validation error at its place in the file."""
from __future__ import annotations

import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pytest

from dsl.loader import find_ruleset, read_ruleset
from interpreter.cli import main
from interpreter.compile.loading import load_program
from rulebook import phrases
from rulebook.assemble import build_rulebook
from rulebook.docs import DOCS_DIR, MANIFEST, expected_files, stale_files
from rulebook.model import Line, Rulebook

GAME = "maechtige_monster"
BASE_ORDER = ["overview", "flow", "components", "card-anatomy", "setup", "round", "game-end", "definitions",
              "reference-king-tile", "bots", "formulas", "assumptions"]
VARIANT_CHAPTERS = ["variant-billiges-verdraengen", "variant-koenigs-neue-regeln", "variant-waechterkette"]


@lru_cache(maxsize=None)
def book(lang: str, *variants: str) -> Rulebook:
    return build_rulebook(read_ruleset(find_ruleset(GAME)), variants, lang)


def texts(lines: list[Line]) -> list[str]:
    return [t for line in lines for t in [line.text, *texts(line.children)]]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_generated_docs_are_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "docs", "--check")
    assert code == 0, err
    assert "up to date" in out


def test_check_names_a_stale_file_and_docs_rewrites_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copytree(DOCS_DIR, tmp_path / "docs")
    out = tmp_path / "docs"
    page = out / GAME / "rulebook.en.md"
    page.write_text(page.read_text(encoding="utf-8").replace("gold", "silver"), encoding="utf-8")
    (out / GAME / "rulebook.xx.md").write_text("left over", encoding="utf-8")  # a language an earlier run wrote
    with (out / MANIFEST).open("a", encoding="utf-8") as manifest:
        manifest.write(f"{GAME}/rulebook.xx.md\n")
    code, _, err = run(capsys, "docs", "--check", "--out", str(out))
    assert code == 1
    assert f"stale: {page}" in err and f"left over: {out / GAME / 'rulebook.xx.md'}" in err
    assert run(capsys, "docs", "--out", str(out))[0] == 0
    assert run(capsys, "docs", "--check", "--out", str(out))[0] == 0
    assert not (out / GAME / "rulebook.xx.md").exists()
    assert "rulebook.xx.md" not in (out / MANIFEST).read_text(encoding="utf-8")


def test_every_game_and_variant_has_four_rulebooks() -> None:
    check_four_rulebooks(GAME, DOCS_DIR)


def check_four_rulebooks(game: str, out: Path, pdf: bool = True) -> None:
    """One folder per variant in the ruleset's variants/, each with German and English, Markdown, HTML
    and (unless the run left them alone) PDF."""
    files = expected_files([game], pdf=pdf)
    folders = [game] + [f"{game}/{v.stem}" for v in (find_ruleset(game) / "variants").glob("*.rules")]
    for folder in folders:
        for name in ("rulebook.de.md", "rulebook.en.md", "rulebook.de.html", "rulebook.en.html"):
            assert f"{folder}/{name}" in files
        assert all(f"{folder}/rulebook.{lang}.pdf" in files for lang in ("de", "en"))
        assert not pdf or all((out / folder / f"rulebook.{lang}.pdf").is_file() for lang in ("de", "en"))
    assert "language.md" in files
    assert stale_files(out, files) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_sections_come_in_rulebook_order(lang: str) -> None:
    assert [s.anchor for s in book(lang).sections] == BASE_ORDER[:-4] + VARIANT_CHAPTERS + BASE_ORDER[-4:]
    assert [s.anchor for s in book(lang, "waechterkette").sections] == ["changes"] + BASE_ORDER


def test_component_tables_list_every_card_with_its_numbers() -> None:
    components = next(s for s in book("en").sections if s.anchor == "components")
    captions = {t.caption: t for t in components.tables}
    program = load_program(GAME)
    monsters = captions["monster card (30) — box"]
    guards = captions["guard card (36) — guard deck"]
    assert len(monsters.rows) == sum(c.kind == "monster" for c in program.cards) == 30
    assert monsters.headers == ["monster type", "strength", "heal cost"]
    assert ["Dragons", "5", "3"] in monsters.rows
    # the guard Inga and Frank fight in the rulebook example: strength 6, loot 11, level 2
    assert ["2", "5", "8", "6", "11", "6", "11"] in guards.rows
    zones = captions["Places for cards"]
    assert ["Card place", "guard card", "one per player, numbered from 1", "face down", "1"] in zones.rows


def test_values_by_player_count_are_computed_by_the_engine() -> None:
    setup = next(s for s in book("de").sections if s.anchor == "setup")
    table = setup.entries[0].table
    assert table is not None
    assert table.headers[:2] == ["Spieler", "Zahl der Königsplättchen"]
    assert [row[:2] for row in table.rows] == [["3", "6"], ["4", "6"], ["5", "5"], ["6", "6"]]


def test_every_action_phase_and_king_tile_has_an_entry_with_generated_text() -> None:
    en = book("en", "koenigs_neue_regeln")
    anchors = {e.anchor: e for e in en.every_entry()}
    for name in ("action-place", "action-displace", "phase-king-tile", "phase-play", "phase-fight",
                 "rule-share-loot", "card-no-weaklings", "card-last-weak-poor"):
        assert anchors[name].lines, name
    tile = anchors["card-first-rich"]
    assert tile.note == "The first guard has +3 loot."  # the author's note, beside …
    assert texts(tile.lines)[1] == "This round, the first guard card has +3 loot."  # … the generated rule


def test_a_requirement_keeps_its_clarification_beside_the_generated_sentence() -> None:
    de = book("de")
    displace = next(e for e in de.every_entry() if e.anchor == "action-displace")
    line = next(l for l in displace.lines if "kleiner als die des neuen Monsters" in l.text)
    assert line.text == "Die Stärke des zu verdrängenden Monsters muss kleiner als die des neuen Monsters sein."
    assert line.note == "Ein Monster kann nur von einem stärkeren verdrängt werden."
    # a clarification that names every number and field of its condition is said instead of it
    [alone] = [l for l in displace.lines if "Stärke 5" in l.text]
    assert alone.text == "Ein Monster mit Stärke 5 kann nicht verdrängt werden." and alone.note is None


def test_a_variant_opens_with_its_changes_old_and_new() -> None:
    changes = book("en", "billiges_verdraengen").sections[0]
    assert changes.anchor == "changes" and changes.title == "Changes from the base game"
    [change] = changes.changes
    assert change.kind == "replaced" and change.what == "Constant “Compensation for displacing”"
    assert texts(change.old) == ["Compensation for displacing: nothing at level 1, 1 gold at level 2 and 2 gold at level 3."]
    assert texts(change.new) == ["Compensation for displacing: nothing at levels 1 and 2, 1 gold at level 3."]
    # the new value is what the rest of the variant's rulebook shows too
    displace = next(e for e in book("en", "billiges_verdraengen").every_entry()
                    if e.anchor == "action-displace")
    assert any("nothing at levels 1 and 2, 1 gold at level 3" in t for t in texts(displace.lines))


def test_an_added_phase_names_its_place() -> None:
    [added, replaced] = book("de", "koenigs_neue_regeln").sections[0].changes
    assert (added.kind, added.what) == ("added", "Phase „Königsplättchen umdrehen“ (vor „Monsterkarten spielen“)")
    assert added.old == [] and texts(added.new)[-1] == "Wende die Regeländerung des Königsplättchens an."
    assert replaced.kind == "replaced" and texts(replaced.old) != texts(replaced.new)


def test_every_assumed_value_is_in_the_appendix_with_file_and_line() -> None:
    folder = find_ruleset(GAME)
    marked = []
    for path in sorted(folder.rglob("*.rules")):
        if "scenarios" in path.parts:
            continue
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bassumed\b", text.split("#")[0]):
                marked.append((str(path.relative_to(folder.parent)), number))
    variant_book = book("de", "billiges_verdraengen")  # the house rule's own assumption included
    appendix = variant_book.sections[-1]
    assert sorted((a.file, a.line) for a in appendix.assumptions) == sorted(marked)
    assert all(a.why and a.what for a in appendix.assumptions)
    assert any(a.why.startswith("Die Anleitung nennt keine Heilkosten") for a in appendix.assumptions)


def test_a_function_without_display_text_is_a_validation_error(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    rules = folder / "game.rules"
    text = rules.read_text(encoding="utf-8")
    text = text.replace('function guard(i: int) de "der Wächter am Kartenplatz {i}" en "guard at card place {i}" =',
                        "function guard(i: int) =")
    rules.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("internal function guard("))
    code, out, err = run(capsys, "check", str(folder))
    assert code == 1 and out == ""
    assert f"game.rules:{line}:1: error: function 'guard' has no display text" in err
    assert re.search(r"^\s+\^$", err, re.MULTILINE) and "hint:" in err and "Traceback" not in err


def test_a_definition_naming_no_const_is_a_validation_error(tmp_path: Path) -> None:
    """A `{place}` in a function's note names a const; any other name would print as braces."""
    from dsl.errors import RulesError
    from rulebook.docs import check_renderings
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    rules = folder / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("{treasury_fee} gold", "{no_such_fee} gold"),
                     encoding="utf-8")
    with pytest.raises(RulesError, match="function 'displace_cost' names no_such_fee"):
        check_renderings(read_ruleset(folder))


def test_a_construct_without_a_sentence_is_a_validation_error(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    german = phrases.catalogue("de")
    stmt = dict(german.data["stmt"])  # type: ignore[call-overload]
    del stmt["reveal"]
    monkeypatch.setitem(german.data, "stmt", stmt)  # type: ignore[arg-type]
    code, _, err = run(capsys, "check", GAME)
    assert code == 1
    assert re.search(r"game\.rules:\d+:7: error: no de rendering for 'stmt\.reveal'", err)
    assert "reveal guard(i)" in err and "hint: add 'stmt.reveal' to catalogue/de.toml" in err


def test_links_between_rulebooks_lead_to_files_that_exist() -> None:
    """Each rulebook links the other language and the base game or its variants, in its own format."""
    check_links(GAME)


def check_links(game: str) -> None:
    """The links of one game's rulebooks; as many as its variants folder asks for, each to a file written."""
    files = expected_files([game])
    targets = 0
    for rel, text in files.items():
        if not rel.endswith((".md", ".html")) or rel == "language.md":
            continue
        ext = rel.rsplit(".", 1)[1]
        hrefs = re.findall(r'href="([^"#]+)"', text) if ext == "html" else re.findall(r"\]\(([^)#]+)\)", text)
        assert hrefs, rel
        for href in hrefs:
            assert href.endswith(f".{ext}"), (rel, href)
            target = (Path(rel).parent / href).as_posix()
            assert os.path.normpath(target) in files, (rel, href)
            targets += 1
    variants = len(list((find_ruleset(game) / "variants").glob("*.rules")))
    assert variants >= 1
    # per language and format: the base game links the other language and each variant; a variant, the
    # other language and the base game
    assert targets == 2 * 2 * (1 + variants + 2 * variants)


def test_a_modders_variant_lists_removed_replaced_and_added_parts(tmp_path: Path) -> None:
    """Every kind of overlay change shows up, with the generated text of what goes and what comes."""
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    (folder / "variants" / "schnell.rules").write_text('''
variant schnell {
  title de "Schnell" en "Quick"
  replace phase fight de "Kampflos" en "No fight" {
    set lost_at = 1
  }
  remove rule share_loot
  add const spare = 2 de "die Reserve" en "spare"
}
''', encoding="utf-8")
    en = build_rulebook(read_ruleset(folder), ("schnell",), "en")
    changes = en.sections[0].changes
    assert [(c.kind, c.what) for c in changes] == [
        ("replaced", "Phase “No fight”"),
        ("removed", "Rule “Share the loot”"),
        ("added", "Constant “Spare”")]
    assert texts(changes[0].old) and texts(changes[0].new) and texts(changes[0].old) != texts(changes[0].new)
    assert texts(changes[1].old) and not changes[1].new
    assert texts(changes[2].new) == ["Spare: 2."] and not changes[2].old
    assert "rule-share-loot" not in {e.anchor for e in en.every_entry()}


@pytest.fixture
def rulesets_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """REGELWERK_RULESETS pointed at a copy of the shipped rulesets (programs are cached by ruleset name)."""
    rulesets = tmp_path / "rulesets"
    shutil.copytree(find_ruleset(GAME), rulesets / GAME)
    monkeypatch.setenv("REGELWERK_RULESETS", str(rulesets))
    load_program.cache_clear()
    yield rulesets
    load_program.cache_clear()


def test_a_variant_added_as_the_readme_says_breaks_no_test(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           rulesets_copy: Path) -> None:
    """A file dropped into variants/ and `regelwerk docs` is all a new variant needs: the checks that count
    variants follow the folder, `docs --check` calls the new rulebooks missing, not stale, and a variant
    that changes the same part as a shipped one (they cannot be combined) still passes `check`."""
    (rulesets_copy / GAME / "variants" / "teure_schatzkammer.rules").write_text("""\
variant teure_schatzkammer {
  title de "Teure Schatzkammer" en "Costly treasury"
  replace const owner_fee = {1: 1, 2: 2, 3: 3} de "die Entschädigung je Wächter-Level" en "compensation per guard level"
}
""", encoding="utf-8")
    out = tmp_path / "generated_docs"
    shutil.copytree(DOCS_DIR, out)
    code, _, err = run(capsys, "docs", "--check", "--out", str(out), "--no-pdf")
    assert code == 1 and "run `regelwerk docs`" in err
    new = out / GAME / "teure_schatzkammer"
    assert {line for line in err.splitlines() if "teure_schatzkammer" in line} == {
        f"missing: {new / f'rulebook.{lang}.{fmt}'}" for lang in ("de", "en") for fmt in ("md", "html")}
    assert f"stale: {out / GAME / 'rulebook.en.md'}" in err  # the base game now links one more variant
    assert run(capsys, "docs", "--out", str(out), "--no-pdf")[0] == 0
    assert run(capsys, "docs", "--check", "--out", str(out), "--no-pdf")[0] == 0
    check_four_rulebooks(GAME, out, pdf=False)
    check_links(GAME)
    code, stdout, _ = run(capsys, "check", GAME)
    assert code == 0 and "teure_schatzkammer" in stdout and "+" not in stdout  # all four do not combine
    code, _, err = run(capsys, "check", GAME, "--variant", "teure_schatzkammer", "--variant", "billiges_verdraengen")
    assert code == 1 and "variants 'teure_schatzkammer' and 'billiges_verdraengen' both change const 'owner_fee'" in err


def test_no_two_parts_a_book_refers_to_share_a_heading() -> None:
    """A rule, action or phase is referred to by its title („siehe „Kämpfen““), so two with one title in a book
    leave the reader guessing which is meant; cards of one name (three treasures) may repeat theirs."""
    for path in sorted(DOCS_DIR.glob("**/rulebook.*.md")):
        headings = re.findall(r'^#+ <a id="(?!card-)[^"]+"></a>(.+)$', path.read_text(encoding="utf-8"), re.M)
        twice = sorted({h for h in headings if headings.count(h) > 1})
        assert not twice, (path.relative_to(DOCS_DIR).as_posix(), twice)
