"""Generated texts kept by the content of everything they are made from, so `regelwerk docs` and
`docs --check` on an unchanged tree render nothing. The key is a sha256 of the engine's, parser's and
rulebook's own files, the Python and library versions, and the rules files' names and texts: any edit
there renders afresh. Entries sit beside the parse cache (REGELWERK_CACHE; empty: none on disk)."""
from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Callable, Mapping, Optional

from dsl.files import REPO_ROOT
from dsl.cache_folder import cache_dir, write_atomic

CODE_DIRS = ("dsl", "interpreter", "rulebook")  # every file below these can change a generated text
LIBRARIES = ("jinja2", "markupsafe", "lark", "pydantic", "pydantic_core")
Texts = dict[str, str]


@lru_cache(maxsize=1)
def code_fingerprint() -> bytes:
    """What a rendering depends on besides the rules: the code and data of the three packages, the
    Python running them and the libraries they render with."""
    digest = hashlib.sha256(sys.version.encode())
    for name in LIBRARIES:
        digest.update(f"{name}={_version(name)}\0".encode())
    for folder in CODE_DIRS:
        for path in sorted((REPO_ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(REPO_ROOT).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.digest()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def key_of(kind: str, sources: Mapping[str, bytes], extra: tuple[str, ...]) -> str:
    """The key of one cached rendering: its kind, the code, the rules files it read and its extra variants."""
    digest = hashlib.sha256(code_fingerprint() + kind.encode() + b"\0")
    for name in sorted(sources):
        digest.update(f"{name}\0{len(sources[name])}\0".encode() + sources[name])
    digest.update("\0".join(extra).encode())
    return digest.hexdigest()


def cached_texts(key: str, render: Callable[[], Texts]) -> Texts:
    """render(), or what an earlier render with the same key produced. An unreadable entry is rendered
    again; errors are never cached, so a broken rules file is reported every time."""
    folder = cache_dir()
    path = folder / "docs" / f"{key}.json" if folder is not None else None
    found = _load(path) if path is not None else None
    if found is not None:
        return found
    texts = render()
    if path is not None:
        _store(path, texts)
    return texts


def _load(path: Path) -> Optional[Texts]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(found, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        return found
    return None


def _store(path: Path, texts: Texts) -> None:
    write_atomic(path, json.dumps(texts, ensure_ascii=False).encode("utf-8"))
