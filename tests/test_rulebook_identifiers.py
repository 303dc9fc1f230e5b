"""No name of the rules file reaches a rulebook's prose: a reader sees display texts and nouns ("the
player", "monster card A"), never `victim`, `t`, `role.countess` or `orks_3`. Code spans (the small
"name in the rules file") and the language reference are not prose and are not looked at."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pytest

from dsl import ast as A
from dsl.loader import RulesetSource, read_ruleset, rulesets_dir
from rulebook.docs import rulebooks, variant_sets
from rulebook.model import Line, Rulebook, Table
from rulebook.phrases import catalogue

FIXTURE_GAMES = Path(__file__).parent / "fixtures" / "games"
GAMES = sorted(p for p in rulesets_dir().iterdir() if p.is_dir()) + sorted(p for p in FIXTURE_GAMES.iterdir() if p.is_dir())
WORD = re.compile(r"[A-Za-zÀ-ÿ0-9_]+(?:['’.][A-Za-zÀ-ÿ0-9_]+)*")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
MARKED = re.compile(r"(?<!\\)\*([A-Za-z_][A-Za-z0-9_]*)(?<!\\)\*")  # the old *variable* markup


@lru_cache(maxsize=None)
def source(folder: Path) -> RulesetSource:
    return read_ruleset(folder)


def identifiers(src: RulesetSource) -> set[str]:
    """Every name the rules files declare or bind: parts, fields, values, cards, parameters, locals."""
    names: set[str] = set()
    items = list(src.items) + list(src.variants.values())
    for node in A.walk(items):
        for attr in ("name", "var"):
            value = getattr(node, attr, None)
            if isinstance(value, str) and value:
                names.add(value)
        if isinstance(node, A.TriggerDef):
            names.update(node.params)
    return names


def texts_of(node: object) -> Iterator[str]:
    """Every piece of prose in a rulebook's model (not the code names of its entries)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, Line):
        yield node.text
        if node.note:
            yield node.note
        for child in node.children:
            yield from texts_of(child)
    elif isinstance(node, Table):
        yield node.caption
        yield from node.headers
        for row in node.rows:
            yield from row
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from texts_of(item)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            if name in ("code", "anchor", "file", "svg", "stem", "template", "line", "ui", "lang"):
                continue
            value = getattr(node, name)
            if isinstance(value, str):
                yield value
            else:
                yield from texts_of(value)


def vocabulary(src: RulesetSource, lang: str) -> set[str]:
    """The words a book in this language may contain: those of the game's texts, its examples' texts and of the
    catalogue."""
    words: set[str] = set()
    for node in A.walk(list(src.items) + list(src.variants.values())):
        if isinstance(node, A.Text) and lang in node.by_lang:
            words.update(WORD.findall(node.by_lang[lang]))
        if isinstance(node, A.Assumed):  # an author's reason in one language, shown as written
            words.update(WORD.findall(node.why))
    for step in A.walk(list(src.scenarios)):  # an example's text is the author's prose, shown as written
        if isinstance(step, A.Step) and step.kind == "example" and step.text is not None and lang in step.text.by_lang:
            words.update(WORD.findall(step.text.by_lang[lang]))
    words.update(WORD.findall(str(catalogue(lang).data)))
    return words | {w + end for w in words for end in ("s", "es", "n", "en", "e")}  # plurals the generator forms


def leaks(book: Rulebook, names: set[str], words: set[str]) -> list[str]:
    """The identifiers in a book's prose."""
    found = []
    prose = [s for s in book.sections if s.anchor != "formulas"]  # the modders' appendix names the rules file's names on purpose
    for text in texts_of(prose):
        for m in MARKED.finditer(text):
            if m.group(1) in names:
                found.append(f"{m.group(0)!r} in {text!r}")
        for m in SNAKE.finditer(text):
            found.append(f"{m.group(0)!r} in {text!r}")
        for token in WORD.findall(text):
            if token in names and token not in words:
                found.append(f"{token!r} in {text!r}")
            elif "." in token and token.split(".")[-1] in names and token.split(".")[0] in names:
                found.append(f"{token!r} in {text!r}")
    return found


def problems_of(folder: Path) -> list[str]:
    src = source(folder)
    names = identifiers(src)
    problems: list[str] = []
    for variants in variant_sets(src):
        for lang, book in rulebooks(src, variants).items():
            words = vocabulary(src, lang)
            problems += [f"{lang} {'+'.join(variants) or 'base'}: {p}" for p in leaks(book, names, words)]
    return problems


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_no_identifier_in_the_prose_of_any_rulebook(folder: Path) -> None:
    """Every name of the rules file is said by its display text or its noun, an event by its declared clause."""
    problems = problems_of(folder)
    assert not problems, f"{len(problems)} identifiers in prose, e.g.:\n" + "\n".join(p[:300] for p in problems[:60])


def test_events_have_display_texts() -> None:
    """An event is said by its declared clause ("whenever a player plays an artifact"), never by its name."""
    assert not problems_of(rulesets_dir() / "magical_friends")
    text = "\n".join(texts_of(rulebooks(source(rulesets_dir() / "magical_friends"))["en"].sections))
    assert "Whenever a player plays an artifact and" in text and "bid made" not in text


def test_the_check_finds_a_local_and_a_snake_case_name() -> None:
    """The test can fail: a marked local, a snake_case id and an id that is no word of the language."""
    book = Rulebook("en", "t", "s")
    from rulebook.model import Entry, Section
    book.sections = [Section("a", "A", "x", entries=[Entry("e", "E", "code_name", [
        Line("Move *victim* to the hand."), Line("Take orks_3."), Line("Das Spiel endet mit victim.")])])]
    found = leaks(book, {"victim", "orks_3"}, {"Move", "to", "the", "hand", "Take"})
    assert len(found) == 5 and not any("code_name" in f for f in found)
