"""Golden tests of the sentence generator: every statement, expression and definition of the
language renders as a sentence in German and English (tests/fixtures/sentences), and a few
representative sentences are spelled out here in full."""
from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import pytest

from dsl import ast as A
from dsl.loader import read_ruleset
from dsl.parser import parse_text
from rulebook import phrases
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
        if isinstance(item, (A.GameDef, A.EnumDef, A.KindDef, A.ZoneDef)):
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
kind card { title de "die Karte" en "card" field value: int de "der Wert" en "value" }
zone deck de "der Stapel" en "deck" of card hidden shuffled
zone slot de "der Platz" en "slot" [3] of card public
zone hand de "die Hand" en "hand" per player of card owner
currency gold de "das Gold" en "gold" start 5
rule r de "R" en "R" { STMT }
"""

EXAMPLES = [
    ("draw 2 from deck to hand(me)",
     "Ziehe 2 Karten vom Stapel in deine Hand.",
     "Draw 2 cards from the deck to your hand."),
    ("pay 3 gold from me to bank",
     "Du zahlst 3 Gold an die Bank.",
     "You pay 3 gold to the bank."),
    ("if count(slot[2]) < 2 { move top(deck) to slot[2] }",
     "Wenn die Anzahl der Karten im Platz 2 kleiner als 2 ist:",
     "If the number of cards in the slot 2 is less than 2:"),
    ("modify card.value by -2 where position(it) == 1 until end of round",
     "Bis zum Ende der Runde hat jede Karte, bei der die Platznummer von der Karte 1 ist, −2 Wert.",
     "Until the end of the round, every card for which the place number of the card is 1 has −2 value."),
    ("modify card.value to 4 until end of turn",
     "Bis zum Ende des Zuges hat jede Karte den Wert 4 als Wert.",
     "Until the end of the turn, the value of every card is 4."),
    ("for c in [c for c in hand(me) if c.value >= 3] { reveal c }",
     "Für jedes *c* aus deiner Hand, bei dem der Wert von *c* mindestens 3 ist:",
     "For each *c* in your hand for which the value of *c* is at least 3:"),
    ("if not revealed(top(deck)) { reveal top(deck) }",
     "Wenn die oberste Karte vom Stapel verdeckt ist:",
     "If the top card of the deck is face down:"),
    ("let s = sum(c.value for c in slot[1])",
     "Sei *s* die Summe vom Wert von *c* für jedes *c* aus dem Platz 1.",
     "Let *s* be the sum of the value of *c* for each *c* in the slot 1."),
]


@pytest.mark.parametrize("stmt,de,en", EXAMPLES)
def test_representative_sentences(stmt: str, de: str, en: str) -> None:
    items = parse_text(SNIPPET_RULES.replace("STMT", stmt), "snippet.rules").items
    rule = next(i for i in items if isinstance(i, A.RuleDef))
    for lang, expected in (("de", de), ("en", en)):
        first = Speaker(lang, Symbols(items)).lines(rule.body)[0].text
        assert first == expected


def keys(table: object, prefix: str = "") -> set[str]:
    """The message keys of a catalogue table; a table of forms counts as one message."""
    if not isinstance(table, dict) or set(table) <= {"nom", "acc", "dat", "main", "sub", "default", "you"}:
        return {prefix}
    return {k for name, value in table.items() for k in keys(value, f"{prefix}.{name}" if prefix else name)}


def test_both_catalogues_have_the_same_messages() -> None:
    """A message only one language has would render in one rulebook and fail in the other."""
    de, en = (phrases.catalogue(lang).data for lang in ("de", "en"))
    grammar_only = ("articles", "contractions")  # each language's own declension and spelling rules
    assert ({k for k in keys(de) if not k.startswith(grammar_only)}
            == {k for k in keys(en) if not k.startswith(grammar_only)})


def test_assumptions_name_the_value_in_the_rulebooks_language() -> None:
    for lang, power, why in (("de", "Erster Stein: Kraft 3", "Die Kraft ist nicht abgedruckt."),
                             ("en", "First stone: power 3", "The power is not printed.")):
        listed = Assembler(read_ruleset(FIXTURE), (), lang).assumptions().assumptions
        assert [(a.what, a.why, a.file) for a in listed] == [
            (power, why, "sentences/constructs.rules"),
            ("Grenze" if lang == "de" else "Limit", "Only one language given.", "sentences/constructs.rules")]
