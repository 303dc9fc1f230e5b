"""The README's commands run as written: every `regelwerk …` example without a placeholder exits 0,
in a scratch folder holding the README's own variant file."""
from __future__ import annotations

import io
import re
import shlex
from pathlib import Path
from typing import Iterator

import pytest

from interpreter.cli import main
from interpreter.compile.loading import load_program

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLACEHOLDER = re.compile(r"\b[A-Z]+\b")  # GAME, FILE, N: to be filled in by the reader


def commands() -> list[str]:
    """`regelwerk …` in sh blocks (after any `&&`) and in the command table."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M)
    lines = [part.strip() for block in blocks for line in block.splitlines() for part in line.split("&&")]
    lines += re.findall(r"^\| `(regelwerk [^`]+)` \|", README, re.M)
    return [line for line in lines if line.startswith("regelwerk ")]


def runnable(command: str) -> bool:
    """Not a template, and not `regelwerk docs` writing into the repository's generated_docs/."""
    writes_repo = command.split()[1] == "docs" and "--check" not in command and "--out" not in command
    return not PLACEHOLDER.search(command) and not writes_repo


RUNNABLE = [c for c in commands() if runnable(c)]


def test_readme_has_the_examples_this_file_runs() -> None:
    assert any("--agents random,greedy" in c for c in RUNNABLE)
    assert any("--variant ./my_rule.rules" in c and c.split()[1] == "docs" for c in RUNNABLE)
    assert len(RUNNABLE) >= 9


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working folder with `rulesets/` (for relative paths) and the README's `my_rule.rules`."""
    (tmp_path / "rulesets").symlink_to(ROOT / "rulesets")
    variant = next(b for b in re.findall(r"^```rules\n(.*?)^```", README, re.S | re.M) if "variant reiche_spieler" in b)
    (tmp_path / "my_rule.rules").write_text(variant, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # a human seat quits at once
    yield tmp_path
    load_program.cache_clear()


@pytest.mark.parametrize("command", RUNNABLE)
def test_readme_command_runs(command: str, scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    assert code == 0, f"{command}\n{out}\n{err}"
