"""Generated code compiled at an earlier load, kept on disk beside the parse cache: most of a cold load of a big
ruleset went into lowering and compiling the generated sources, which are the same at every load of the same files.
An entry maps the generated source (with what it asks of the compiler) to its code object, so a stale entry is
never used, only not found; a file is keyed by the rules files, the engine's compiler and the Python running it,
carries a checksum of its contents, and one that does not read back whole is ignored."""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Callable, Iterator, Optional, Union

from dsl.parse_cache import cache_dir

_CHECKSUM = 32  # bytes of sha256 before the marshalled entries


class _Codes:
    """One load's entries: those read from its file, and those it used (written back if any was compiled anew)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found = _read(path)
        self.used: dict[str, CodeType] = {}
        self.compiled = False


_current: ContextVar[Optional[_Codes]] = ContextVar("regelwerk_code_cache", default=None)


def compiled(key: str, make: Callable[[], Union[str, CodeType]]) -> CodeType:
    """The code of `make()` (source or code), or the code it gave at an earlier load; `key` is the source `make`
    starts from, with a name for the steps it takes (everything its result depends on besides the compiler's own
    code). Outside a load (a scenario's expression), or without a cache, it is compiled every time."""
    codes = _current.get()
    code = codes.found.get(key) if codes is not None else None
    if code is None:
        made = make()
        code = made if isinstance(made, CodeType) else compile(made, "<string>", "exec")
        if codes is not None:
            codes.compiled = True
    if codes is not None:
        codes.used[key] = code
    return code


@contextmanager
def kept_code(fingerprint: Optional[str]) -> Iterator[None]:
    """The codes of a load of the files `fingerprint` names (None: files that cannot be read, no cache), written
    once the load succeeded, if it compiled any afresh."""
    folder = cache_dir()
    if fingerprint is None or folder is None:
        yield
        return
    key = hashlib.sha256(_compiler_fingerprint() + fingerprint.encode()).hexdigest()
    codes = _Codes(folder / f"code-{key}.marshal")
    token = _current.set(codes)
    try:
        yield
    finally:
        _current.reset(token)
    if codes.compiled:
        _write(codes.path, codes.used)


@lru_cache(maxsize=1)
def _compiler_fingerprint() -> bytes:
    """What a code object depends on besides its source: the compiler's steps (this package) and the Python."""
    digest = hashlib.sha256(sys.version.encode() + importlib.util.MAGIC_NUMBER)
    for file in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.digest()


def _read(path: Path) -> dict[str, CodeType]:
    """The entries of a whole file; none if it is missing, damaged or not of this form."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    body = memoryview(data)[_CHECKSUM:]
    if hashlib.sha256(body).digest() != data[:_CHECKSUM]:
        return {}
    try:
        found = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) and isinstance(v, CodeType) for k, v in found.items()):
        return {}
    return found


def _write(path: Path, codes: dict[str, CodeType]) -> None:
    """Atomically (parallel loads may write the same file); a cache that cannot be written is skipped."""
    body = marshal.dumps(codes)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(hashlib.sha256(body).digest() + body)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
