"""Parses rules source text into the typed AST; syntax errors become diagnostics with a caret. A file
parsed before comes from the parse cache without importing Lark (dsl.lark_parser)."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError
from dsl.limits import MAX_FILE_BYTES
from dsl.parse_cache import cached_parse

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")


def parse_text(source: str, file: str = "<rules>") -> A.RulesFile:
    """Parse one file's text; raises RulesError (never a Lark exception) on bad input."""
    from dsl.lark_parser import parse_lark  # Lark and the transformer only when a file is parsed
    return parse_lark(source, file)


def read_rules_bytes(path: Path, file: str) -> bytes:
    """A rules file's bytes: only a regular file of at most MAX_FILE_BYTES (a FIFO or device would block
    or never end); a file that cannot be read is a RulesError naming it."""
    def problem(message: str) -> RulesError:
        return RulesError([Diagnostic(file, 0, 0, message)])

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # opening a FIFO must not wait
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise problem("not a regular file (a pipe, device or socket); rules files are plain files")
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise problem(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise problem(f"the file is larger than {MAX_FILE_BYTES} bytes; split it up or shorten it")
    return raw


def parse_file(path: Path, display: Optional[str] = None) -> tuple[A.RulesFile, str]:
    """Parse a file from disk; returns the AST and the source (kept for caret messages)."""
    file = display or str(path)
    raw = read_rules_bytes(path, file)
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start].decode("utf-8", errors="replace")
        line, col = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        text = raw.decode("utf-8", errors="replace")
        raise RulesError([Diagnostic(file, line, col, f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x})",
                                     "save the rules file as UTF-8")], {file: text}) from None
    if source.startswith("\ufeff"):
        source = source[1:]
    return cached_parse(source, file, parse_text), source


