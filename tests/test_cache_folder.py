"""The caches' shared folder stays under its size limit: the files used longest ago go first, a write prunes at
most once an hour, and a load whose cached files were removed compiles them again."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from dsl import cache_folder
from dsl.cache_folder import STAMP, cache_limit, limit_bytes, prune, write_atomic
from interpreter.cli import main


def _file(folder: Path, name: str, size: int, age_s: float) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_prune_removes_the_files_used_longest_ago_down_to_three_quarters(tmp_path: Path) -> None:
    old = _file(tmp_path, "old.pickle", 400, 300)
    older = _file(tmp_path, "docs/older.json", 400, 400)
    new = _file(tmp_path, "new.pickle", 400, 100)
    done = prune(tmp_path, 1000)
    assert (done.files, done.size, done.removed, done.freed) == (3, 1200, 2, 800)
    assert not older.exists() and not old.exists() and new.exists()


def test_prune_leaves_a_folder_under_its_limit(tmp_path: Path) -> None:
    kept = [_file(tmp_path, f"f{i}", 100, i) for i in range(5)]
    assert prune(tmp_path, 500).removed == 0
    assert all(p.exists() for p in kept)


def test_a_write_prunes_when_the_last_prune_is_an_hour_old_and_not_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path))
    monkeypatch.setenv("REGELWERK_CACHE_MB", "1")
    stale = _file(tmp_path, "stale", 900_000, 1000)
    stamp = tmp_path / STAMP
    stamp.touch()
    write_atomic(tmp_path / "a", b"y" * 200_000)
    assert stale.exists()  # pruned just now: the write does not walk the folder
    then = time.time() - cache_folder.PRUNE_EVERY_S - 1
    os.utime(stamp, (then, then))
    write_atomic(tmp_path / "b", b"y" * 10)
    assert not stale.exists() and (tmp_path / "a").exists() and (tmp_path / "b").read_bytes() == b"y" * 10
    assert time.time() - stamp.stat().st_mtime < 60


def test_a_write_outside_the_cache_folder_prunes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path / "cache"))
    write_atomic(tmp_path / "elsewhere", b"z")
    assert (tmp_path / "elsewhere").read_bytes() == b"z" and not (tmp_path / "cache" / STAMP).exists()


def test_the_limit_is_read_in_megabytes_and_a_bad_one_refused_or_warned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REGELWERK_CACHE_MB", raising=False)
    assert cache_limit() == 1024 * 1_000_000
    monkeypatch.setenv("REGELWERK_CACHE_MB", "64")
    assert cache_limit() == 64_000_000
    for bad in ("0", "-5", "1.5", "lots"):
        monkeypatch.setenv("REGELWERK_CACHE_MB", bad)
        with pytest.raises(ValueError, match="REGELWERK_CACHE_MB"):
            cache_limit()
        with pytest.warns(UserWarning, match="keeps 1024 MB"):
            assert limit_bytes() == 1024 * 1_000_000


def test_the_cache_command_shows_prunes_and_clears(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path))
    monkeypatch.setenv("REGELWERK_CACHE_MB", "1")
    _file(tmp_path, "old", 900_000, 100)
    _file(tmp_path, "new", 300_000, 10)
    assert main(["cache"]) == 0
    assert f"{tmp_path}: 2 files, 1.2 MB (limit 1.0 MB" in capsys.readouterr().out
    assert main(["cache", "--prune"]) == 0
    assert "removed 1 of 2 files (0.9 MB of 1.2 MB)" in capsys.readouterr().out
    assert main(["cache", "--clear"]) == 0
    assert "removed 1 of 1 files" in capsys.readouterr().out and not any(tmp_path.iterdir())
    monkeypatch.setenv("REGELWERK_CACHE_MB", "many")
    assert main(["cache"]) == 1
    assert "REGELWERK_CACHE_MB='many' is not a whole number" in capsys.readouterr().err


def test_a_load_whose_cached_files_were_removed_compiles_them_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import load_game
    from interpreter.compile.loading import load_program
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path))
    load_program.cache_clear()
    first = load_game("maechtige_monster", players=3).new_initial_state(seed=5)
    assert any(tmp_path.iterdir())
    prune(tmp_path, 0)
    load_program.cache_clear()
    again = load_game("maechtige_monster", players=3).new_initial_state(seed=5)
    assert again.legal_actions() == first.legal_actions() and any(tmp_path.iterdir())
