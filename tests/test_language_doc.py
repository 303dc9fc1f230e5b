"""Every ```rules snippet in docs/LANGUAGE.md parses with dsl/grammar.lark."""

from __future__ import annotations

import re
from pathlib import Path

import lark
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "LANGUAGE.md"
GRAMMAR = ROOT / "dsl" / "grammar.lark"
SNIPPET = re.compile(r"^```rules\n(.*?)^```", re.S | re.M)


def snippets() -> list[tuple[int, str]]:
    """Return (line of the opening fence, source) for each rules snippet."""
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in SNIPPET.finditer(text)]


PARSER = lark.Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", strict=True)
SNIPPETS = snippets()


def test_doc_has_snippets() -> None:
    """The document holds rules snippets at all."""
    assert SNIPPETS, f"no ```rules blocks found in {DOC}"


@pytest.mark.parametrize(("line", "source"), SNIPPETS, ids=[f"line{line}" for line, _ in SNIPPETS])
def test_snippet_parses(line: int, source: str) -> None:
    """The snippet starting at this line parses with the LALR grammar."""
    try:
        PARSER.parse(source)
    except lark.exceptions.LarkError as error:
        pytest.fail(f"docs/LANGUAGE.md line {line}: ```rules snippet does not parse:\n{error}")
