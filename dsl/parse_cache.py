"""Parsed rules files kept by content, in this process and pickled on disk between processes, so a cold
load neither parses again nor builds the AST's validators. The key is a sha256 of the parser's own sources
and of the file's name and text: an edited file, or an edited parser, is parsed afresh."""
from __future__ import annotations

import hashlib
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

from dsl import ast as A
from dsl.cache_folder import cache_dir, write_atomic

MEMORY_FILES = 256  # parsed files kept in this process
_memory: dict[str, A.RulesFile] = {}


@lru_cache(maxsize=1)
def parser_fingerprint() -> bytes:
    """What the parser's output depends on besides the text: its grammar and code, and the Python running it."""
    digest = hashlib.sha256(sys.version.encode())
    here = Path(__file__).parent
    for name in ("grammar.lark", "parser.py", "lark_parser.py", "ast.py", "limits.py", "errors.py", "parse_cache.py"):
        digest.update((here / name).read_bytes())
    return digest.digest()


def _nodes(parsed: A.RulesFile) -> list[A.Node]:
    """The nodes whose index (A.found) a cache entry holds: the file's items, variants and scenarios."""
    return [*parsed.items, *parsed.variants, *parsed.scenarios]


def _load(path: Path) -> Optional[A.RulesFile]:
    """A cached parse, or None if it is missing or unreadable (a damaged entry is parsed again). Its nodes' indexes
    come with it: made by walking every node at each load, read back they are lists of nodes read already."""
    try:
        found = pickle.loads(path.read_bytes())  # noqa: S301 - the user's own cache, like __pycache__
    except Exception:  # missing, truncated or from an older parser: parse again
        return None
    if not (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], A.RulesFile)):
        return None
    parsed: A.RulesFile = found[0]
    A.adopt_indexes(_nodes(parsed), found[1])
    return parsed


def _store(path: Path, parsed: A.RulesFile) -> None:
    write_atomic(path, pickle.dumps((parsed, A.indexes(_nodes(parsed))), protocol=pickle.HIGHEST_PROTOCOL))


def cached_parse(source: str, file: str, parse: Callable[[str, str], A.RulesFile]) -> A.RulesFile:
    """parse(source, file), or the AST of an earlier parse of the same name and text (ASTs are frozen, so
    they are shared). Errors are never cached: a file with one is parsed, and reported, every time."""
    key = hashlib.sha256(parser_fingerprint() + f"{file}\0{source}".encode()).hexdigest()
    parsed = _memory.get(key)
    if parsed is not None:
        return parsed
    folder = cache_dir()
    parsed = _load(folder / f"{key}.pickle") if folder is not None else None
    if parsed is None:
        parsed = parse(source, file)
        if folder is not None:
            _store(folder / f"{key}.pickle", parsed)
    if len(_memory) >= MEMORY_FILES:
        _memory.clear()
    _memory[key] = parsed
    return parsed
