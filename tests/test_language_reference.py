"""The generated language reference cannot drift: its keyword catalogue covers exactly the grammar's
keywords, every example in it parses, every primitive is in it, and the committed copy is fresh."""

from __future__ import annotations

import re

import pytest
from lark.lexer import PatternStr

from dsl.errors import RulesError
from dsl.lark_parser import grammar
from dsl.parser import parse_text
from interpreter.compile.primitives import REGISTRY
from rulebook.language_reference import (
    OUTPUT,
    KeywordEntry,
    example_source,
    keywords_in_grammar,
    load_catalogue,
    render_language_reference,
    symbols_of,
)

CATALOGUE = load_catalogue()
ENTRIES = CATALOGUE.entries
GRAMMAR_KEYWORDS = keywords_in_grammar()


@pytest.fixture(scope="module")
def rendered() -> str:
    """One render for the whole module: rendering is deterministic."""
    return render_language_reference()


def test_keyword_extraction_agrees_with_lark() -> None:
    """The text scan of the grammar finds the same keywords Lark itself builds terminals for."""
    lark_words = {t.pattern.value for t in grammar().terminals
                  if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[a-z_][a-z0-9_]*", t.pattern.value)}
    assert GRAMMAR_KEYWORDS == lark_words
    assert {"rule", "modify", "until", "de", "en"} <= GRAMMAR_KEYWORDS
    assert not GRAMMAR_KEYWORDS & {"{", "=", "==", "+", "."}


def test_every_grammar_keyword_has_an_entry() -> None:
    """A keyword added to the grammar must be described in rulebook/catalogue/keywords.toml."""
    covered = {k for entry in ENTRIES for k in entry.keywords}
    missing = sorted(GRAMMAR_KEYWORDS - covered)
    assert not missing, f"keywords of dsl/grammar.lark without an entry in keywords.toml: {missing}"


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_entry_keywords_exist_in_grammar(entry: KeywordEntry) -> None:
    """An entry may only claim keywords the grammar has, and each shows in its syntax line."""
    unknown = sorted(set(entry.keywords) - GRAMMAR_KEYWORDS)
    assert not unknown, f"entry '{entry.id}' lists keywords the grammar does not have: {unknown}"
    words = set(re.findall(r"[a-z_][a-z0-9_]*", entry.syntax))
    absent = [k for k in entry.keywords if k not in words]
    assert not absent, f"entry '{entry.id}': keywords {absent} do not appear in its syntax"


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_entry_example_parses(entry: KeywordEntry) -> None:
    """Each example parses with the real parser; statements and expressions are wrapped first."""
    source = example_source(entry)
    try:
        parse_text(source, f"<keywords.toml: {entry.id}>")
    except RulesError as error:
        pytest.fail(f"example of entry '{entry.id}' ({entry.form}) does not parse:\n{error.render()}")


def test_every_section_is_used() -> None:
    """A section without entries is a typo in some entry's `section`, or dead data."""
    used = {entry.section for entry in ENTRIES}
    assert [s.id for s in CATALOGUE.sections if s.id not in used] == []


def test_operators_come_from_the_grammar(rendered: str) -> None:
    """Every operator group finds its symbols in the grammar, and the rendered table shows them."""
    for group in CATALOGUE.operators:
        symbols = symbols_of(group.grammar)
        assert symbols, f"grammar definitions {group.grammar} hold no operator symbols"
        row = " ".join(f"`{s}`" for s in symbols)
        assert f"| {row} |" in rendered
    found = {s for group in CATALOGUE.operators for s in symbols_of(group.grammar)}
    assert {"==", "!=", "<", "+", "-", "*", "/", "%", "and", "or", "not"} <= found


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_primitive_is_rendered(name: str, rendered: str) -> None:
    """Each registered primitive appears with its example and both descriptions."""
    p = REGISTRY[name]
    assert f"| `{p.name}` |" in rendered
    assert f"`{p.example}`" in rendered
    assert " ".join(p.describe_en.split()) in rendered
    assert " ".join(p.describe_de.split()) in rendered


def test_primitives_in_registry_order(rendered: str) -> None:
    """The primitives table keeps the registry's order."""
    places = [rendered.index(f"| `{name}` |") for name in REGISTRY]
    assert places == sorted(places)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_primitive_example_parses(name: str) -> None:
    """A primitive's example is a valid expression of the language."""
    parse_text(f"function example() = {REGISTRY[name].example}\n", f"<primitive {name}>")


def test_every_keyword_in_index(rendered: str) -> None:
    """The keyword index names every keyword of the grammar."""
    index = rendered.split('<a id="keyword-index"></a>', 1)[1]
    missing = sorted(k for k in GRAMMAR_KEYWORDS if f"- `{k}`:" not in index)
    assert not missing


def test_rendering_is_deterministic(rendered: str) -> None:
    """No dates or set order leak in: two renders are identical."""
    assert render_language_reference() == rendered


def test_committed_copy_is_fresh(rendered: str) -> None:
    """generated_docs/language.md is what the sources render to now."""
    assert OUTPUT.exists(), f"{OUTPUT} is missing: run `python -m rulebook.language_reference`"
    assert OUTPUT.read_text(encoding="utf-8") == rendered, \
        f"{OUTPUT} is stale: run `python -m rulebook.language_reference` and commit the result"
