"""A program kept whole on disk (program_cache) is the program the compiler makes, for every game and variant: every
table, every generated function's code, namespace and closure. A later load takes it without parsing or compiling;
a file from another engine or Python, or one cut short or altered, is not used; a load that fails keeps nothing;
parallel loads leave a file that reads back whole."""
from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path
from types import CellType, CodeType, FunctionType, MethodType, ModuleType
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from dsl.errors import RulesError
from dsl.files import REPO_ROOT
from interpreter import load_game
from interpreter.compile import code_cache, loading, program_cache
from interpreter.compile.code_cache import Later
from interpreter.compile.loading import load_program
from interpreter.play.scenario import run_all
from interpreter.play.simulate import simulate
from interpreter.runtime import helpers
from interpreter.runtime.program import Program

GAMES = [("maechtige_monster", ()), ("maechtige_monster", ("waechterkette",)),
         ("maechtige_monster", ("koenigs_neue_regeln",)), ("maechtige_monster", ("billiges_verdraengen",)),
         ("fuerchterliche_feinde", ()), ("fuerchterliche_feinde", ("franzoesische_regel",)),
         ("magical_friends", ()), ("magical_friends", ("erstes_spiel",)), ("magical_friends", ("maechtige_magier",))]
CODE_FIELDS = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_argcount", "co_kwonlyargcount",
               "co_flags", "co_name", "co_qualname", "co_linetable", "co_exceptiontable", "co_filename")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("REGELWERK_CACHE", str(folder))
    load_program.cache_clear()
    return folder


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One folder for the games and variants (they share code, so each compiles only its own)."""
    folder = tmp_path_factory.mktemp("programs")
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("REGELWERK_CACHE", str(folder))
        yield folder


def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the programs compiled from now on."""
    ran: list[str] = []
    compile_program = loading.compile_program

    def spy(items: Any, name: str, variants: Any) -> Program:
        ran.append(name)
        return compile_program(items, name, variants)
    monkeypatch.setattr(loading, "compile_program", spy)
    return ran


def imported(a: Any) -> bool:
    """Whether `a` is a function or class a module names (pickled by that name)."""
    module, name = getattr(a, "__module__", None), getattr(a, "__qualname__", None)
    return callable(a) and isinstance(module, str) and isinstance(name, str) and program_cache._named(module, name) is a


def same(a: Any, b: Any, where: str, seen: dict[tuple[int, int], tuple[Any, Any]]) -> None:
    """a and b are equal all through: values, tables, functions (by code, namespace, defaults and closure); objects
    imported by name (modules, classes, the engine's own functions) are the very same."""
    if (id(a), id(b)) in seen:
        return
    seen[id(a), id(b)] = (a, b)  # kept alive, so no id is used twice
    assert type(a) is type(b), where
    if isinstance(a, (type, ModuleType)) or imported(a):
        assert a is b, where
    elif a is None or isinstance(a, (bool, int, float, str, bytes, BaseModel)):
        assert a == b, where
    elif isinstance(a, CodeType):
        assert [getattr(a, f) for f in CODE_FIELDS] == [getattr(b, f) for f in CODE_FIELDS], where
        same(a.co_consts, b.co_consts, f"{where}.co_consts", seen)
    elif isinstance(a, FunctionType):
        for name in ("__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__", "__dict__"):
            same(getattr(a, name), getattr(b, name), f"{where}.{name}", seen)
    elif isinstance(a, CellType):
        same(a.cell_contents, b.cell_contents, f"{where}.cell", seen)
    elif isinstance(a, MethodType):  # the compiler's, kept as the one that compiles the files again at need
        assert a.__name__ == b.__name__ and isinstance(b.__self__, program_cache._Recompiled), where
    elif isinstance(a, Later):
        same(a(), b(), f"{where}()", seen)
    elif isinstance(a, dict):
        assert len(a) == len(b), where
        for (ka, va), (kb, vb) in zip(a.items(), b.items()):
            same(ka, kb, f"{where} key", seen)
            same(va, vb, f"{where}[{ka!r}]", seen)
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{k}]", seen)
    elif isinstance(a, (set, frozenset)):
        assert a == b, where
    elif isinstance(a, functools.partial):
        same((a.func, a.args, a.keywords), (b.func, b.args, b.keywords), f"{where}.partial", seen)
    else:
        slots = [s for cls in type(a).__mro__ for s in getattr(cls, "__slots__", ())]
        same([getattr(a, s, None) for s in slots], [getattr(b, s, None) for s in slots], f"{where}.slots", seen)
        same(getattr(a, "__dict__", None), getattr(b, "__dict__", None), f"{where}.__dict__", seen)


@pytest.mark.parametrize("game, variants", GAMES)
def test_the_kept_program_is_the_compiled_one(shared_cache: Path, game: str, variants: tuple[str, ...],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    load_program.cache_clear()
    made = load_program(game, variants)
    load_program.cache_clear()
    ran = compiles(monkeypatch)
    kept = load_program(game, variants)
    assert ran == [] and kept is not made
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        same(made, kept, "program", {})
    finally:
        sys.setrecursionlimit(limit)


def test_a_later_load_neither_parses_nor_compiles_and_plays_the_same(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = simulate(load_game("maechtige_monster", players=4), "maechtige_monster", 3, 1, ["random"] * 4).digest
    assert len(list(cache.glob("program-*.pickle"))) == 1
    load_program.cache_clear()
    ran = compiles(monkeypatch)
    monkeypatch.setattr(loading, "read_ruleset", None)
    assert simulate(load_game("maechtige_monster", players=4), "maechtige_monster", 3, 1, ["random"] * 4).digest == first
    assert ran == []


def test_a_kept_program_compiles_a_scenarios_expressions_as_the_compiler(cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Program.compile_expr and compile_block of a kept program compile the files again at their first call."""
    first = [(r.name, r.passed, r.message) for r in run_all("maechtige_monster")]
    load_program.cache_clear()
    ran = compiles(monkeypatch)
    assert [(r.name, r.passed, r.message) for r in run_all("maechtige_monster")] == first
    assert ran == [] and all(passed for _, passed, _ in first)


@pytest.mark.parametrize("other", ["compiler", "grammar", "python"])
def test_a_program_kept_by_another_engine_or_python_is_not_used(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 other: str) -> None:
    load_program("maechtige_monster")
    if other == "compiler":
        monkeypatch.setattr(program_cache, "compiler_fingerprint", lambda: b"an older compiler")
    elif other == "grammar":
        monkeypatch.setattr(program_cache, "parser_fingerprint", lambda: b"an older grammar")
    else:
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    code_cache.compiler_fingerprint.cache_clear()
    load_program.cache_clear()
    ran = compiles(monkeypatch)
    try:
        load_program("maechtige_monster")
    finally:
        code_cache.compiler_fingerprint.cache_clear()
    assert ran == ["maechtige_monster"]
    assert len(list(cache.glob("program-*.pickle"))) == 2


@pytest.mark.parametrize("damage", ["truncated", "flipped", "not a program"])
def test_a_damaged_program_is_compiled_afresh(cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    load_program("maechtige_monster")
    [kept] = cache.glob("program-*.pickle")
    data = bytearray(kept.read_bytes())
    if damage == "truncated":
        kept.write_bytes(bytes(data[:len(data) // 2]))
    elif damage == "flipped":
        data[len(data) // 2] ^= 0xFF
        kept.write_bytes(bytes(data))
    else:  # whole, but of another form
        code_cache.write_whole(kept, b"not a pickle")
    assert program_cache.read_program(kept) is None
    load_program.cache_clear()
    ran = compiles(monkeypatch)
    load_program("maechtige_monster")
    assert ran == ["maechtige_monster"]
    assert program_cache.read_program(kept) is not None  # written again


def test_a_load_that_fails_keeps_no_program(cache: Path) -> None:
    broken = Path(__file__).resolve().parent / "broken" / "constant_fails.rules"  # fails after compiling its code
    with pytest.raises(RulesError):
        load_program(str(broken))
    assert not list(cache.glob("program-*"))


def test_a_file_broken_after_its_program_was_kept_gives_its_located_error(cache: Path, tmp_path: Path) -> None:
    game = tmp_path / "spitzel"
    shutil.copytree(Path(__file__).resolve().parent / "fixtures" / "games" / "spitzel", game)
    load_program(str(game))
    rules = game / "game.rules"
    lines = rules.read_text().count("\n")
    rules.write_text(rules.read_text() + "const broken = no_such_name\n")
    load_program.cache_clear()
    with pytest.raises(RulesError) as failed:
        load_program(str(game))
    [problem] = failed.value.diagnostics
    assert (Path(problem.file).name, problem.line) == ("game.rules", lines + 1)
    assert len(list(cache.glob("program-*"))) == 1


def divide(a: int, b: int) -> int:
    """A stand-in for an engine function, as a test may patch one in."""
    return a // b


def test_a_program_that_names_a_function_outside_the_engine_is_not_kept(cache: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Such a function (a test's stand-in) is not in the key: a later load must not be given it."""
    monkeypatch.setitem(helpers.ENV, "_div", divide)
    load_program("maechtige_monster")
    assert list(cache.glob("code-*")) and not list(cache.glob("program-*"))


class _FreshNamespace(ModuleType):
    """A module whose __dict__ is made at each read, as a C extension's may be (cffi's `_openssl.lib`)."""

    @property  # type: ignore[misc]
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        return {"made": "now"}


def test_a_module_whose_namespace_is_made_at_each_read_does_not_stop_a_program_being_kept(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its namespace, freed at once, gave its id to a dict made while pickling: every program was refused as naming
    that module, once the suite had imported one (CI)."""
    monkeypatch.setitem(sys.modules, "fresh_namespace", _FreshNamespace("fresh_namespace"))
    load_program("maechtige_monster")
    assert len(list(cache.glob("program-*"))) == 1


def test_parallel_loads_leave_a_whole_program(cache: Path) -> None:
    """As `simulate --jobs N` starts them: each writes a file of its own and renames it over the kept one."""
    code = "from interpreter.compile.loading import load_program; load_program('maechtige_monster')"
    env = {"REGELWERK_CACHE": str(cache), "PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"}
    jobs = [subprocess.Popen([sys.executable, "-c", code], env=env, cwd=Path.cwd()) for _ in range(4)]
    assert [job.wait() for job in jobs] == [0] * 4
    [kept] = cache.glob("program-*")
    assert program_cache.read_program(kept) is not None
