"""The catalogue in tests/broken/: each broken rules file fails to load with a RulesError whose text
is `file:line:col: error: message`, the source line and a caret (and a hint where one is expected).

A case is a file NAME.rules, or a folder NAME/ with game.rules and variants/*.rules. Its first lines
say what to expect:

    # expect: LINE:COL: part of the message
    # hint: part of the hint              (optional)
    # expect-file: variants/x.rules       (optional: the file the error is in, inside a folder case)
    # variants: x y                       (optional: the variants to load, for a folder case)
"""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from dsl.errors import RulesError
from interpreter.compile.loading import load_program

BROKEN = Path(__file__).resolve().parent / "broken"
EXPECT = re.compile(r"^# expect: (\d+):(\d+): (.+)$")
HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$")


@dataclass(frozen=True)
class Case:
    """One broken ruleset and what loading it must report."""

    name: str
    load: Path  # what is passed to load_program: the file, or the folder
    file: Path  # the file the error must point into
    line: int
    col: int
    message: str
    hint: str
    variants: tuple[str, ...]


def _header(path: Path) -> dict[str, str]:
    """The `# key: value` comment lines at the top of a file."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(": ")
        found.setdefault(key, value)
    return found


def read_case(path: Path) -> Case:
    """A catalogue entry from a NAME.rules file or a NAME/ folder."""
    main = path / "game.rules" if path.is_dir() else path
    first = main.read_text(encoding="utf-8").split("\n")[0]
    match = EXPECT.match(first)
    assert match, f"{main}: the first line must be `# expect: LINE:COL: message`, got {first!r}"
    header = _header(main)
    target = path / header["expect-file"] if "expect-file" in header else main
    return Case(name=path.stem, load=path, file=target, line=int(match[1]), col=int(match[2]),
                message=match[3], hint=header.get("hint", ""), variants=tuple(header.get("variants", "").split()))


CASES = [read_case(p) for p in sorted(BROKEN.iterdir()) if p.suffix == ".rules" or p.is_dir()]


def test_catalogue_is_large_enough() -> None:
    """The catalogue covers a good spread of mistakes."""
    assert len(CASES) >= 24


def load_error(case: Case) -> RulesError:
    """Load the case and return its RulesError; any other outcome fails the test."""
    load_program.cache_clear()
    try:
        load_program(str(case.load), case.variants)
    except RulesError as error:
        return error
    except Exception:  # noqa: BLE001 - the point: nothing but a RulesError may escape
        pytest.fail(f"{case.name}: a Python exception instead of a RulesError:\n{traceback.format_exc()}")
    pytest.fail(f"{case.name}: loaded without an error")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_rules_file(case: Case) -> None:
    """The message names the expected place, quotes the source line and draws a caret under the column."""
    text = load_error(case).render()
    lines = text.split("\n")
    head = HEADER.match(lines[0])
    assert head, f"not `file:line:col: error: message`:\n{text}"
    assert Path(head["file"]).resolve() == case.file.resolve(), text
    assert (int(head["line"]), int(head["col"])) == (case.line, case.col), text
    assert case.message in head["message"], text
    source = case.file.read_text(encoding="utf-8").split("\n")[case.line - 1]
    assert lines[1] == f"    {source}", text
    assert lines[2].rstrip() == " " * (4 + case.col - 1) + "^", text
    if case.hint:
        hints = [line for line in lines if line.startswith("  hint: ")]
        assert any(case.hint in line for line in hints), text
    assert "Traceback" not in text
