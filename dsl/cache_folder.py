"""The folder every cache on disk shares (parsed files, compiled code and programs, rendered docs), its one atomic
writer, and its size limit: each load of new rules writes files there, so without pruning it only grows."""
from __future__ import annotations

import os
import time
import warnings
from pathlib import Path
from typing import NamedTuple, Optional

DEFAULT_LIMIT_MB = 1024
PRUNE_EVERY_S = 3600.0  # a write looks at the folder's size at most this often
STAMP = ".pruned"  # its mtime: when the folder was last pruned
KEEP_SHARE = 0.75  # a prune brings the folder down to this share of the limit, so the next one is not at once


def cache_dir() -> Optional[Path]:
    """REGELWERK_CACHE (empty: no cache on disk), else $XDG_CACHE_HOME/regelwerk or ~/.cache/regelwerk."""
    chosen = os.environ.get("REGELWERK_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "regelwerk"


def limit_bytes() -> int:
    """The folder's size limit: REGELWERK_CACHE_MB megabytes, default 1024. A bad value is warned about and the
    default used, since a cache setting must never stop a load (`regelwerk cache` refuses it: cache_limit)."""
    try:
        return cache_limit()
    except ValueError as exc:
        warnings.warn(f"{exc}; the cache keeps {DEFAULT_LIMIT_MB} MB", stacklevel=2)
        return DEFAULT_LIMIT_MB * 1_000_000


def cache_limit() -> int:
    """REGELWERK_CACHE_MB in bytes (default 1024 MB); ValueError if it is no whole number of at least 1."""
    chosen = os.environ.get("REGELWERK_CACHE_MB", "").strip()
    if not chosen:
        return DEFAULT_LIMIT_MB * 1_000_000
    if not (chosen.isdigit() and int(chosen) > 0):
        raise ValueError(f"REGELWERK_CACHE_MB={chosen!r} is not a whole number of megabytes of at least 1")
    return int(chosen) * 1_000_000


def write_atomic(path: Path, data: bytes) -> None:
    """Writes `data` to `path` whole or not at all (parallel processes may write the same entry: each writes a file
    of its own and renames it); a cache that cannot be written is skipped. Now and then the folder is pruned."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        return
    folder = cache_dir()
    if folder is not None and folder in path.parents:
        prune_if_due(folder)


def prune_if_due(folder: Path) -> None:
    """Prunes `folder` if it was not pruned in the last PRUNE_EVERY_S: one stat per write, not a walk."""
    stamp = folder / STAMP
    try:
        if time.time() - stamp.stat().st_mtime < PRUNE_EVERY_S:
            return
    except OSError:
        pass  # never pruned
    try:
        stamp.touch()
    except OSError:
        return
    prune(folder, limit_bytes())


class Entry(NamedTuple):
    """A cache file and what pruning weighs: when it was last used (read or written) and its size."""
    used: float
    size: int
    path: Path


def entries(folder: Path) -> list[Entry]:
    """Every file under `folder` but the stamp; last use is the later of access and change time (a read sets the
    access time where the file system keeps it, at least once a day under Linux's default relatime)."""
    found: list[Entry] = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            if path.name == STAMP:
                continue
            try:
                st = path.stat()
            except OSError:
                continue  # removed meanwhile by another process
            found.append(Entry(max(st.st_atime, st.st_mtime), st.st_size, path))
    return found


class Pruned(NamedTuple):
    """What a prune found and removed."""
    files: int
    size: int
    removed: int
    freed: int


def prune(folder: Path, limit: int) -> Pruned:
    """Removes the files used longest ago until the folder holds at most KEEP_SHARE of `limit` bytes, if it holds
    more than `limit`. Readers of the caches treat a missing file as one never written, so removing is safe."""
    found = entries(folder)
    total = sum(e.size for e in found)
    removed = freed = 0
    if total > limit:
        for entry in sorted(found):
            if total - freed <= limit * KEEP_SHARE:
                break
            try:
                entry.path.unlink()
            except OSError:
                continue
            removed += 1
            freed += entry.size
    return Pruned(len(found), total, removed, freed)
