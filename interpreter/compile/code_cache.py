"""Generated code compiled at an earlier load, kept on disk beside the parse cache: most of a cold load of a big
ruleset went into lowering and compiling the generated sources, which are the same at every load of the same files.
An entry maps the generated source (with what it asks of the compiler) to its code object, or to the result of
another step of the compiler that depends on nothing else, so a stale entry is never used, only not found; a file
is keyed by the rules files, the engine's compiler, runtime and checks and the Python running it, carries a checksum
of its contents, and one that does not read back whole is ignored. It also marks the load's checks as passed (checked)."""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Generic, Iterator, Optional, TypeVar, Union

from dsl.files import REPO_ROOT
from dsl.cache_folder import cache_dir, write_atomic

_CHECKSUM = 32  # bytes of sha256 before the marshalled entries
V = TypeVar("V")


class _Codes:
    """One load's entries: those read from its file, and those it used (written back if any was compiled anew)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found = _read(path)
        self.used: dict[str, Any] = {}
        self.later: dict[str, Any] = {}  # the entries kept for later (kept_for_later)
        self.made = False


_current: ContextVar[Optional[_Codes]] = ContextVar("regelwerk_code_cache", default=None)
MEMORY = 4096  # entries kept in this process (_made), forgotten all at once past that
_made: dict[str, Any] = {}  # key → value of the entries this process's loads used, for another load that lacks them


def kept(key: str, make: Callable[[], V], shared: bool = True) -> V:
    """`make()`, or what it gave at an earlier load (a value marshal keeps: code, strings, numbers, and lists, tuples
    and dicts of them; shared with the file, so read, never changed); `key` is what `make` starts from, with a name
    for the steps it takes (everything its result depends on besides the compiler's own code). A load whose file lacks
    it takes it from an earlier load in this process, of other files too (a game and its variants share most code),
    if `shared`. Outside a load (a scenario's expression), or without a cache, it is made every time."""
    codes = _current.get()
    if codes is None:
        return make()
    if key in codes.found:
        value: V = codes.found[key]
    else:
        value = _made[key] if shared and key in _made else make()
        codes.made = True
    if shared:
        _remember(key, value)
    codes.used[key] = value
    return value


def _remember(key: str, value: Any) -> None:
    if len(_made) >= MEMORY:
        _made.clear()
    _made[key] = value


def kept_for_later(key: str, make: Callable[[], V]) -> Callable[[], V]:
    """What gives `make()` (as kept) at its first use after the load, for code most processes never run: made by a
    load that reads no file and kept in a file of its own beside the load's, which a later load reads only then
    (_later); without a cache, made only then."""
    codes = _current.get()
    if codes is None:
        return make
    if codes.found:
        later = codes.path.with_suffix(".later")
        return Later(lambda: _later(later).get(key) or make())
    value = codes.later[key] = _made[key] if key in _made else make()
    _remember(key, value)
    return Later(lambda: value)


class Later(Generic[V]):
    """What kept_for_later gives: the value, read or made at the first call. A program kept whole (program_cache)
    keeps the value itself, marshalled, not how it is made (from the compiler's own notes)."""

    def __init__(self, read: Callable[[], V]) -> None:
        self.read = read
        self.value: Optional[V] = None

    def __call__(self) -> V:
        if self.value is None:
            self.value = self.read()
        return self.value

    def __reduce__(self) -> tuple[Callable[[bytes], Later[Any]], tuple[bytes]]:
        value: Any = self()
        return _unmarshalled, (marshal.dumps(value),)


def _unmarshalled(blob: bytes) -> Later[Any]:
    return Later(partial(marshal.loads, blob))


def checked(name: str, check: Callable[[], None]) -> None:
    """Runs `check` (it raises where the rules fail it), unless a load of the same files by the same engine passed it
    before (a file is written only once its whole load succeeded); `name` tells the check and what else it reads."""
    def passed() -> bool:
        check()
        return True
    kept(f"checked\0{name}", passed, shared=False)  # passed for these files only


def compiled(key: str, make: Callable[[], Union[str, CodeType]]) -> CodeType:
    """The code of `make()` (source or code), or the code it gave at an earlier load (kept)."""
    return kept(key, lambda: _code(make()))


def _code(made: Union[str, CodeType]) -> CodeType:
    return made if isinstance(made, CodeType) else compile(made, "<string>", "exec")


@contextmanager
def kept_code(fingerprint: Optional[str]) -> Iterator[None]:
    """The codes of a load of the files `fingerprint` names (None: files that cannot be read, no cache), written
    once the load succeeded, if it compiled any afresh."""
    folder = cache_dir()
    if fingerprint is None or folder is None:
        yield
        return
    key = hashlib.sha256(compiler_fingerprint() + fingerprint.encode()).hexdigest()
    codes = _Codes(folder / f"code-{key}.marshal")
    token = _current.set(codes)
    try:
        yield
    finally:
        _current.reset(token)
    if codes.made:
        _write(codes.path, codes.used)
        if codes.later:
            _write(codes.path.with_suffix(".later"), codes.later)


@lru_cache(maxsize=4)
def _later(path: Path) -> dict[str, Any]:
    """The entries kept for later beside a load's file, read at the first use of one."""
    return _read(path)


@lru_cache(maxsize=1)
def compiler_fingerprint() -> bytes:
    """What an entry depends on besides its key: the compiler's steps (this package), the runtime whose names and
    limits they write into the code, the language's checks (dsl) that a load passed, and the Python."""
    digest = hashlib.sha256(sys.version.encode() + importlib.util.MAGIC_NUMBER)
    here = Path(__file__).parent
    sources = [*here.glob("*.py"), *(here.parent / "runtime").glob("*.py"), *(REPO_ROOT / "dsl").glob("*.py")]
    for file in sorted(sources):
        digest.update(f"{file.parent.name}/{file.name}\0".encode() + file.read_bytes())
    return digest.digest()


def _read(path: Path) -> dict[str, Any]:
    """The entries of a whole file; none if it is missing, damaged or not of this form."""
    body = read_whole(path)
    if body is None:
        return {}
    try:
        found = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) for k in found):
        return {}
    return found


def read_whole(path: Path) -> Optional[memoryview]:
    """What write_whole wrote to `path`; None if it is missing, cut short or altered (its checksum fails)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    body = memoryview(data)[_CHECKSUM:]
    return body if hashlib.sha256(body).digest() == data[:_CHECKSUM] else None


def _write(path: Path, codes: dict[str, Any]) -> None:
    """A value marshal does not take is skipped with the file."""
    try:
        body = marshal.dumps(codes)
    except ValueError:
        return
    write_whole(path, body)


def write_whole(path: Path, body: bytes) -> None:
    """`body` behind its checksum, atomically."""
    write_atomic(path, hashlib.sha256(body).digest() + body)
