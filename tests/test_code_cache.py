"""The generated code of a load is kept on disk beside the parse cache: a second process compiles nothing and
plays the same games, a damaged file is compiled afresh, a failed load writes nothing, an empty REGELWERK_CACHE
keeps nothing on disk."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl.errors import RulesError
from interpreter import load_game
from interpreter.compile import code_cache, loading, lowering
from interpreter.compile.loading import load_program
from interpreter.play.simulate import simulate


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("REGELWERK_CACHE", str(folder))
    monkeypatch.setattr(loading, "read_program", lambda path: None)  # a program kept whole would load with no code
    load_program.cache_clear()
    return folder


def digest() -> str:
    load_program.cache_clear()
    return simulate(load_game("maechtige_monster", players=4), "maechtige_monster", 3, 1, ["random"] * 4).digest


def forbid_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a process that must take every code from the file: compiling fails."""
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("compiled again")
    monkeypatch.setattr(code_cache, "compile", refuse, raising=False)
    monkeypatch.setattr(lowering, "compile", refuse, raising=False)


def test_a_second_load_takes_its_code_from_disk_and_plays_the_same(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = digest()
    assert len(list(cache.glob("code-*.marshal"))) == 1
    with monkeypatch.context() as patched:
        forbid_compiling(patched)
        assert digest() == first


def test_a_load_whose_file_lacks_an_entry_takes_it_from_an_earlier_load(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game and its variants share most code: a load made it once in a process, a load of other files takes it."""
    first = digest()
    for entry in cache.glob("code-*"):
        entry.unlink()
    with monkeypatch.context() as patched:
        forbid_compiling(patched)
        assert digest() == first
    assert len(list(cache.glob("code-*.marshal"))) == 1  # written again, whole


def api_game() -> list[str]:
    """A game of the API loop (its steps run in the blocks' resumable runners, compile/blocks.py)."""
    load_program.cache_clear()
    state, rng = load_game("maechtige_monster", players=4).new_initial_state(2), random.Random(2)
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    return state.history


def test_the_resumable_runners_are_kept_in_a_file_of_their_own(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled by the load that compiles anew, they are read by a later load only once the API loop runs one."""
    first = api_game()
    assert len(list(cache.glob("code-*.later"))) == 1
    with monkeypatch.context() as patched:
        forbid_compiling(patched)
        assert api_game() == first


@pytest.mark.parametrize("damage", ["truncated", "flipped", "missing"])
def test_a_damaged_file_of_resumable_runners_is_compiled_afresh(cache: Path, damage: str) -> None:
    """A later load whose file of resumable runners is cut short, altered or gone makes them again as it runs one."""
    first = api_game()
    [later] = cache.glob("code-*.later")
    data = bytearray(later.read_bytes())
    if damage == "missing":
        later.unlink()
    elif damage == "truncated":
        later.write_bytes(bytes(data[:len(data) // 2]))
    else:
        data[-5] ^= 0xFF
        later.write_bytes(bytes(data))
    code_cache._later.cache_clear()
    assert api_game() == first


def test_a_damaged_file_is_compiled_afresh(cache: Path) -> None:
    first = digest()
    [entry] = cache.glob("code-*.marshal")
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF
    entry.write_bytes(bytes(data))
    assert code_cache._read(entry) == {}
    assert digest() == first
    assert code_cache._read(entry) != {}  # written again


def test_a_load_that_fails_writes_no_code(cache: Path) -> None:
    broken = Path(__file__).resolve().parent / "broken" / "constant_fails.rules"  # fails after compiling its code
    with pytest.raises(RulesError):
        load_program(str(broken))
    assert not list(cache.glob("code-*.marshal"))


def test_an_empty_setting_keeps_no_code_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_program.cache_clear()
    load_game("maechtige_monster", players=4)
    assert not (tmp_path / "xdg").exists()


def test_checks_a_load_passed_are_not_run_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file is written once its whole load passed the checks: the same files, read by the same engine, pass them
    again; other budgets build the games for each player count again; the checks' own code is in the file's key."""
    load_program("maechtige_monster")
    ran: list[str] = []
    for name in ("validate_source", "check_reachable", "_check_player_counts"):
        monkeypatch.setattr(loading, name, lambda *args, name=name: ran.append(name))
    load_program.cache_clear()
    load_program("maechtige_monster")
    assert ran == []
    monkeypatch.setenv("REGELWERK_MAX_LIST", "5000")
    load_program.cache_clear()
    load_program("maechtige_monster")
    assert ran == ["_check_player_counts"]
    read: list[Path] = []

    def spy(path: Path) -> bytes:
        read.append(path)
        return b""
    monkeypatch.setattr(Path, "read_bytes", spy)
    code_cache.compiler_fingerprint.cache_clear()
    code_cache.compiler_fingerprint()
    code_cache.compiler_fingerprint.cache_clear()
    assert {"validate.py", "reachability.py", "steps.py"} <= {p.name for p in read if p.parent.name == "dsl"}
