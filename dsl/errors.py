"""Diagnostics for rules files: `file:line:col: error: message`, the source line and a caret."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Optional

from dsl.ast import Pos

_WIDTH = 160  # longest source line shown whole under a message


@dataclass(frozen=True)
class Diagnostic:
    """One problem in one place of a rules file (line 0: the file as a whole)."""

    file: str
    line: int
    col: int
    message: str
    hint: str = ""

    def render(self, sources: dict[str, str]) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file  # line 0: the whole file
        head = f"{where}: error: {self.message}"
        text = sources.get(self.file)
        lines = [head]
        src = source_line(text, self.line) if text is not None else None
        if src is not None:
            start = max(0, self.col - 1 - _WIDTH // 2) if len(src) > _WIDTH else 0
            if start or len(src) > _WIDTH:  # a very long line: show the part around the caret
                cut = src[start:start + _WIDTH]
                src = ("…" if start else "") + cut + ("…" if start + _WIDTH < len(src) else "")
                start -= 1 if start else 0
            lines.append(f"    {src}")
            # Keep tabs under tabs so the caret lines up however wide the terminal draws them.
            lead = "".join("\t" if ch == "\t" else " " for ch in src[:max(self.col - start, 1) - 1])
            lines.append(f"    {lead}^")
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


def source_line(text: str, line: int) -> Optional[str]:
    """Line `line` (1-based) as the parser counts lines: only '\n' ends a line (not form feeds etc.)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    return "".join(ch if ch == "\t" or ch.isprintable() else " " for ch in lines[line - 1].rstrip("\r"))


class RulesError(Exception):
    """One or more diagnostics; carries the sources so it can draw carets itself."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional[dict[str, str]] = None) -> None:
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


def error_at(pos: Pos, message: str, hint: str = "") -> RulesError:
    """A single diagnostic at an AST position (sources are attached by the loader)."""
    return RulesError([Diagnostic(pos.file, pos.line, pos.col, message, hint)])


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A hint naming the closest known spelling; failing that, the few known names; or nothing."""
    names = sorted({k for k in known if k != name and not k.startswith("_")})
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    if 0 < len(names) <= 6:
        return "known here: " + ", ".join(names)
    return ""
