"""`section NAME TEXT { PART, … }`: the rulebook tells rules and actions under a print's headings (parts of
no section first, then the sections in written order, each with its parts in listed order), load errors
for a section that names no part or claims one another section holds, and nothing changes in play."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from interpreter import CHANCE_PLAYER, load_game
from rulebook.assemble import build_rulebook
from rulebook.model import Entry, Rulebook

ROOT = Path(__file__).resolve().parent.parent
MM = ROOT / "rulesets" / "maechtige_monster"
SECTIONS = '''
section moves de "Die Züge" en "Moves" note de "Wie im Druck." en "As printed." { displace }
section kings de "Die Könige" en "The kings" { return_king_tile, lay_out_guards }
'''


def with_rules(tmp_path: Path, extra: str) -> Path:
    """Mächtige Monster with `extra` appended to its rules file."""
    game = tmp_path / "maechtige_monster"
    shutil.copytree(MM, game)
    rules = game / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return game


def tree(entries: list[Entry]) -> list[object]:
    """Each entry's anchor, with the anchors told inside it as a list after it (if any)."""
    out: list[object] = []
    for e in entries:
        out.append(e.anchor)
        if e.entries:
            out.append(tree(e.entries))
    return out


def chapter(book: Rulebook, anchor: str) -> list[Entry]:
    return next(s for s in book.sections if s.anchor == anchor).entries


def test_sections_group_the_parts_told_in_each_phase_and_in_the_setup(tmp_path: Path) -> None:
    book = build_rulebook(read_ruleset(with_rules(tmp_path, SECTIONS)), [], "en")
    assert tree(chapter(book, "round")) == [
        "phase-play", ["action-place", "section-moves", ["action-displace"]],  # no section first
        "phase-fight", ["rule-share-loot"],
        "phase-heal", ["section-kings", ["rule-return-king-tile"]]]
    assert tree(chapter(book, "setup")) == ["setup-rules", ["section-kings", ["rule-lay-out-guards"]]]
    moves = chapter(book, "round")[0].entries[1]
    assert (moves.title, moves.code, moves.note, moves.lines) == ("Moves", "moves", "As printed.", [])
    german = build_rulebook(read_ruleset(with_rules(tmp_path / "de", SECTIONS)), [], "de")
    assert chapter(german, "round")[0].entries[1].title == "Die Züge"


def test_a_section_lists_its_parts_in_its_own_order_and_sections_keep_theirs(tmp_path: Path) -> None:
    extra = '''
section late de "Später" en "Later" { place }
section early de "Früher" en "Earlier" { displace }
'''
    book = build_rulebook(read_ruleset(with_rules(tmp_path, extra)), [], "en")
    assert tree(chapter(book, "round"))[1] == ["section-late", ["action-place"], "section-early", ["action-displace"]]
    both = '''
section both de "Beide" en "Both" { displace, place }
'''
    book = build_rulebook(read_ruleset(with_rules(tmp_path / "b", both)), [], "en")
    assert tree(chapter(book, "round"))[1] == ["section-both", ["action-displace", "action-place"]]


def test_sections_group_the_special_rules_too() -> None:
    """Rules no phase reaches (a card's effects) stand under their section in their own chapter."""
    book = build_rulebook(read_ruleset(ROOT / "rulesets" / "fuerchterliche_feinde"), [], "en")
    special = tree(chapter(book, "special-rules"))
    assert special[::2] == ["section-blue-spells", "section-red-spells", "section-green-spells"]
    assert special[5] == ["rule-rotate-crossings"]


@pytest.mark.parametrize("extra, message", [
    ('section s de "S" en "S" { displac }', "section 's' names 'displac', which is no rule or action"),
    ('section s de "S" en "S" { score }', "section 's' names 'score', which is no rule or action"),
    ('section s de "S" en "S" { place }\nsection t de "T" en "T" { displace, place }',
     "section 't' names 'place', which section 's' already holds"),
    ('section s de "S" en "S" { place, place }', "section 's' names 'place', which section 's' already holds"),
    ('section s de "S" en "S" { place }\nsection s de "T" en "T" { displace }', "section 's' is defined twice"),
])
def test_a_section_must_name_parts_no_other_section_holds(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        load_game(str(with_rules(tmp_path, "\n" + extra + "\n")), players=3)
    assert message in str(info.value)
    if "displac'" in message:
        assert "did you mean 'displace'?" in str(info.value)


def test_sections_change_nothing_in_play(tmp_path: Path) -> None:
    """The same seed and the same random choices play the same game with and without sections."""
    def play(game_dir: Path) -> list[str]:
        state = load_game(str(game_dir), players=4).new_initial_state(7)
        rng = random.Random(7)
        seen: list[str] = []
        while not state.is_terminal() and len(seen) < 300:
            if state.current_player() == CHANCE_PLAYER:
                state.apply_action(state.sample_chance())
            else:
                labels = state.legal_labels()
                pick = rng.randrange(len(labels))
                seen.append(labels[pick])
                state.apply_action(pick)
        return seen
    assert play(with_rules(tmp_path / "a", SECTIONS)) == play(with_rules(tmp_path / "b", ""))


@pytest.mark.parametrize("game", ["maechtige_monster", "fuerchterliche_feinde", "magical_friends"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_entry_is_empty(game: str, lang: str) -> None:
    """A heading a reader finds without a word under it reads as a lost rule: every rule and action says
    something (a step, a note, a table or the entries inside it); bookkeeping alone gets no entry."""
    book = build_rulebook(read_ruleset(ROOT / "rulesets" / game), [], lang)
    empty = [e.anchor for e in book.every_entry()
             if not (e.lines or e.note or e.table or e.examples or e.entries)]
    assert empty == []
