"""Generated docs are cached by the content of what they are made from: a second run renders nothing and
gives the same files, an edited rules file or code file renders afresh, errors are never cached, and an
empty REGELWERK_CACHE keeps nothing on disk."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl.errors import RulesError
from rulebook import docs, docs_cache

FIXTURE = Path(__file__).parent / "fixtures" / "games" / "spitzel"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("REGELWERK_CACHE", str(folder))
    return folder


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "spitzel"
    shutil.copytree(FIXTURE, folder)
    return folder


def forbid_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_render(*args: object) -> dict[str, str]:
        raise AssertionError("rendered again")
    monkeypatch.setattr(docs, "ruleset_texts", no_render)
    monkeypatch.setattr(docs, "language_texts", no_render)


def test_a_second_run_renders_nothing_and_gives_the_same_files(cache: Path, game: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    first = docs.expected_files([str(game)])
    assert len(list((cache / "docs").glob("*.json"))) == 2  # the language reference and the ruleset
    forbid_rendering(monkeypatch)
    assert docs.expected_files([str(game)]) == first


def test_the_cached_files_are_those_a_fresh_render_gives(cache: Path, game: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    docs.expected_files([str(game)])
    cached = docs.expected_files([str(game)])
    monkeypatch.setenv("REGELWERK_CACHE", "")
    assert docs.expected_files([str(game)]) == cached


def test_an_edited_rules_file_is_rendered_afresh(cache: Path, game: Path) -> None:
    before = docs.expected_files([str(game)])
    rules = game / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("players 2 to 4", "players 2 to 3", 1), encoding="utf-8")
    after = docs.expected_files([str(game)])
    assert after["spitzel/rulebook.en.md"] != before["spitzel/rulebook.en.md"]
    assert len(list((cache / "docs").glob("*.json"))) == 3


def test_an_edited_code_file_changes_every_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in docs_cache.CODE_DIRS:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "code.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(docs_cache, "REPO_ROOT", tmp_path)
    docs_cache.code_fingerprint.cache_clear()
    try:
        before = docs_cache.key_of("ruleset", {"game.rules": b"game"}, ())
        (tmp_path / "rulebook" / "code.py").write_text("x = 2\n", encoding="utf-8")
        docs_cache.code_fingerprint.cache_clear()
        assert docs_cache.key_of("ruleset", {"game.rules": b"game"}, ()) != before
    finally:
        docs_cache.code_fingerprint.cache_clear()


def test_the_key_tells_names_texts_and_variants_apart() -> None:
    keys = {docs_cache.key_of("ruleset", {"a.rules": b"x"}, ()), docs_cache.key_of("ruleset", {"b.rules": b"x"}, ()),
            docs_cache.key_of("ruleset", {"a.rules": b"y"}, ()), docs_cache.key_of("ruleset", {"a.rules": b"x"}, ("v",)),
            docs_cache.key_of("language", {"a.rules": b"x"}, ())}
    assert len(keys) == 5


def test_a_broken_rules_file_is_reported_every_time(cache: Path, game: Path) -> None:
    (game / "game.rules").write_text("game spitzel {\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RulesError):
            docs.expected_files([str(game)])
    assert len(list((cache / "docs").glob("*.json"))) == 1  # only the language reference


def test_a_damaged_entry_is_rendered_again(cache: Path, game: Path) -> None:
    first = docs.expected_files([str(game)])
    for entry in (cache / "docs").glob("*.json"):
        entry.write_text("{not json", encoding="utf-8")
    assert docs.expected_files([str(game)]) == first


def test_an_empty_cache_setting_keeps_nothing_on_disk(tmp_path: Path, game: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    docs.expected_files([str(game)])
    assert not (tmp_path / "xdg").exists()
