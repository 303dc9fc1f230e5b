"""The language reference (generated_docs/language.md), generated rather than written by hand so it
cannot drift from the language: keywords and operators come from dsl/grammar.lark, their meanings and
examples from rulebook/catalogue/keywords.toml, the built-in functions from the primitive registry."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dsl.parser import GRAMMAR_PATH
from interpreter.compile.primitives import REGISTRY
from rulebook.render import environment

HERE = Path(__file__).resolve().parent
CATALOGUE_PATH = HERE / "catalogue" / "keywords.toml"
TEMPLATE = "language.md.j2"
OUTPUT = HERE.parent / "generated_docs" / "language.md"  # the committed copy the tests compare with

# In grammar text, left to right: a comment, a quoted literal or a regular expression. Scanning them
# together keeps a quote inside a regular expression (the STRING token) from reading as a literal.
_LEXEME = re.compile(r'//[^\n]*|"(?P<lit>(?:\\.|[^"\\\n])*)"|/(?:\\.|[^/\\\n])+/[imslux]*')
_WORD = re.compile(r"[a-z_][a-z0-9_]*")
# A definition starts at the line's beginning ("name:" or "?name:" or "!name:"); continuation lines
# (starting with whitespace and "|") belong to the definition above them.
_DEFINITION = re.compile(r"^[?!]?(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\.\d+)?\s*:", re.M)


# ------------------------------------------------------------------ the grammar


def _grammar_text() -> str:
    """The grammar source itself: the one place syntax is defined."""
    return GRAMMAR_PATH.read_text(encoding="utf-8")


def _literals(text: str) -> list[str]:
    """The quoted literals of a piece of grammar, in order, comments and regular expressions skipped."""
    return [m.group("lit") for m in _LEXEME.finditer(text) if m.group("lit") is not None]


def grammar_definitions() -> dict[str, str]:
    """Each rule's or terminal's name with the text of its definition, so parts can be read by name."""
    text = _grammar_text()
    starts = list(_DEFINITION.finditer(text))
    return {m.group("name"): text[m.end():nxt.start() if nxt else len(text)]
            for m, nxt in zip(starts, starts[1:] + [None])}


def keywords_in_grammar() -> set[str]:
    """The word-like quoted literals of the grammar ("rule", "modify", "until"), not punctuation."""
    return {lit for lit in _literals(_grammar_text()) if _WORD.fullmatch(lit)}


def symbols_of(definitions: list[str]) -> list[str]:
    """The quoted literals of the named grammar definitions, in grammar order without repeats."""
    found = grammar_definitions()
    missing = [name for name in definitions if name not in found]
    if missing:
        raise ValueError(f"{GRAMMAR_PATH.name} has no definition named {', '.join(missing)}")
    symbols: list[str] = []
    for name in definitions:
        symbols += [lit for lit in _literals(found[name]) if lit not in symbols]
    return symbols


# ------------------------------------------------------------------ the catalogue


class _Data(BaseModel):
    """Catalogue data: unknown or misspelt fields are errors, surrounding whitespace is dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class SectionInfo(_Data):
    """A chapter of the keyword part of the reference."""

    id: str
    title: str
    en: str
    de: str


class KeywordEntry(_Data):
    """One keyword, or one construct a group of keywords forms, with its syntax, meaning and example."""

    id: str
    section: str
    title: str
    keywords: list[str]
    syntax: str
    en: str
    de: str
    form: Literal["item", "statement", "expression"]
    example: str


class OperatorGroup(_Data):
    """Operators of one binding strength; the symbols are read from the named grammar definitions."""

    grammar: list[str]
    en: str
    de: str
    symbols: list[str] = Field(default_factory=list)


class Catalogue(_Data):
    """The whole keyword catalogue, in file order."""

    sections: list[SectionInfo]
    entries: list[KeywordEntry]
    operators: list[OperatorGroup]


def _tables(raw: dict[str, Any], key: str) -> dict[str, Any]:
    """A top-level group of named tables; anything else is a catalogue error, not a crash later."""
    value = raw.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ValueError(f"{CATALOGUE_PATH.name}: [{key}.NAME] must be tables")
    return value


def load_catalogue(path: Path = CATALOGUE_PATH) -> Catalogue:
    """Reads and checks the catalogue: every entry names a known section; keywords default to its id."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(raw) - {"sections", "entries", "operators"}
    if unknown:
        raise ValueError(f"{path.name}: unknown top-level key(s) {', '.join(sorted(unknown))}")
    sections = [SectionInfo(id=name, **table) for name, table in _tables(raw, "sections").items()]
    entries = [KeywordEntry(id=name, **{"keywords": [name], **table})
               for name, table in _tables(raw, "entries").items()]
    known = {s.id for s in sections}
    for entry in entries:
        if entry.section not in known:
            raise ValueError(f"{path.name}: entry '{entry.id}' names unknown section '{entry.section}'")
    operators = [OperatorGroup(**group) for group in raw.get("operators", [])]
    return Catalogue(sections=sections, entries=entries, operators=operators)


def example_source(entry: KeywordEntry) -> str:
    """The entry's example as a whole rules file: statements go into a rule, expressions into a
    function, so the real parser can check every example, fragments included."""
    if entry.form == "statement":
        body = "\n".join(f"  {line}" if line else "" for line in entry.example.splitlines())
        return f"rule example {{\n{body}\n}}\n"
    if entry.form == "expression":
        return f"function example() = {entry.example}\n"
    return entry.example + "\n"


# ------------------------------------------------------------------ rendering


def render_language_reference() -> str:
    """The Markdown language reference; deterministic (no dates), so the committed copy can be
    compared with a fresh render."""
    catalogue = load_catalogue()
    operators = [group.model_copy(update={"symbols": symbols_of(group.grammar)}) for group in catalogue.operators]
    sections = [(section, [e for e in catalogue.entries if e.section == section.id])
                for section in catalogue.sections]
    index: dict[str, list[KeywordEntry]] = {}
    for entry in catalogue.entries:
        for keyword in entry.keywords:
            index.setdefault(keyword, []).append(entry)
    name_pattern = grammar_definitions()["NAME"].strip().strip("/")
    return environment().get_template(TEMPLATE).render(
        sections=[(s, entries) for s, entries in sections if entries],
        operators=operators,
        primitives=list(REGISTRY.values()),
        keyword_index=sorted(index.items()),
        keyword_count=len(keywords_in_grammar()),
        entry_count=len(catalogue.entries),
        name_pattern=name_pattern,
    )


if __name__ == "__main__":  # python -m rulebook.language_reference: refresh the committed copy
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(render_language_reference(), encoding="utf-8")
    print(f"wrote {OUTPUT}")
