"""A loaded Program kept on disk whole, beside the code cache: a load of files read before then runs neither the parser
nor the compiler (they made most of a load's time even with every code kept: the compiler still wrote each source
to find its code). The file is keyed by everything the program depends on: the files read (their paths, contents
and the working folder, as the load's fingerprint names them), the ruleset and variants asked for, the budgets the
load's checks spent, the engine's parser (its grammar too), compiler, runtime and checks, pydantic and the Python
running it; a file written by an older engine is so never found, and one that does not read back whole (checksum)
is ignored. It is written only once its load succeeded (the checks passed), so a file with errors is compiled, and
reported, every time.

A Program is plain data and functions: the generated ones are kept by their code (marshal), their namespace and
their closures' values; modules and their functions by name. What the compiler gives for later compiles (a
scenario's expressions) compiles the files again at its first call (_Recompiled)."""
from __future__ import annotations

import hashlib
import importlib
import io
import marshal
import pickle
import sys
from pathlib import Path
from types import CellType, CodeType, FunctionType, MethodType, ModuleType
from typing import Any, Optional

import pydantic

from dsl import ast as A
from dsl.cache_folder import cache_dir
from dsl.parse_cache import parser_fingerprint
from interpreter.compile.code_cache import compiler_fingerprint, kept_code, read_whole, write_whole
from interpreter.compile.compile_base import CompilerBase
from interpreter.compile.compiler import compile_program
from interpreter.compile.types import T
from interpreter.runtime.program import Block, Fn, Program


def program_path(load: str) -> Optional[Path]:
    """Where the program of a load is kept (`load`: its files' fingerprint and all else it read), None without a
    cache on disk."""
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(compiler_fingerprint() + parser_fingerprint() + f"{pydantic.VERSION}\0{load}".encode())
    return folder / f"program-{key.hexdigest()}.pickle"


def read_program(path: Path) -> Optional[Program]:
    """The program kept at `path`; None if it is missing, damaged or not one."""
    body = read_whole(path)
    if body is None:
        return None
    try:
        program = _Unpickler(io.BytesIO(body)).load()
    except Exception:  # noqa: BLE001 - written by another engine or cut short: compile afresh
        return None
    return program if isinstance(program, Program) else None


def keep_program(path: Path, program: Program, code: str) -> None:
    """Writes the program of a load that succeeded (`code`: its code cache's key, for _Recompiled); one that does not
    pickle (a value of a new sort in it) is not kept."""
    out = io.BytesIO()
    try:
        _Pickler(out, _Recompiled(program, code)).dump(program)
    except (pickle.PicklingError, TypeError, ValueError, AttributeError, RecursionError):
        return
    write_whole(path, out.getvalue())


class _Recompiled:
    """A kept program's compiler, for what it compiles after the load (Program.compile_expr, compile_block: a
    scenario's expectations and arrange steps): the same files compiled again, at the first such call."""

    def __init__(self, program: Program, code: str) -> None:
        self.program, self.code = program, code
        self.fresh: Optional[Program] = None

    def _compiled(self) -> Program:
        if self.fresh is None:
            with kept_code(self.code):
                self.fresh = compile_program(self.program.items, self.program.name, self.program.variants)
        return self.fresh

    def detached(self, node: Any, names: dict[str, T]) -> tuple[Fn, T, int]:
        made = self._compiled().compile_expr
        assert made is not None
        return made(node, names)

    def detached_block(self, body: list[A.Stmt], names: dict[str, T], at: A.Pos) -> Block:
        made = self._compiled().compile_block
        assert made is not None
        return made(body, names, at)


def _function(code: CodeType, names: dict[str, Any], name: str, defaults: Optional[tuple[Any, ...]],
              closure: Optional[tuple[CellType, ...]], kwdefaults: Optional[dict[str, Any]]) -> FunctionType:
    """A function made again as it was: its module and qualified name follow from its namespace and code."""
    made = FunctionType(code, names, name, defaults, closure)
    made.__kwdefaults__ = kwdefaults
    return made


def _cell() -> CellType:
    """An empty cell, named so that pickle finds it (the cell type has no importable name)."""
    return CellType()


def _fill(cell: CellType, value: tuple[Any, ...]) -> None:
    """A cell's value is set after it is made (a closure may hold its own function: pickle makes the cell first)."""
    if value:
        cell.cell_contents = value[0]


FIXED = ("interpreter.compile.", "interpreter.runtime.", "dsl.")  # the engine's modules in the key (compiler_fingerprint)


def _fixed(module: str) -> str:
    """A module a kept program may name: one of the engine's in its key, the standard library's or pydantic's (their
    versions are in it); not another (a test's stand-in for an engine function would be kept for later loads)."""
    if not f"{module}.".startswith(FIXED) and module.partition(".")[0] not in {*sys.stdlib_module_names, "pydantic"}:
        raise pickle.PicklingError(f"a program names module {module}")
    return module


def _named(module: str, qualname: str) -> Any:
    """What `module.qualname` names in this process (None if nothing): pickle finds an object by that name only."""
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found


class _Pickler(pickle.Pickler):
    """Modules and their namespaces by name; a function that cannot be imported by its name (generated, or made
    inside another) by its code, namespace, defaults and closure; the compiler's methods as _Recompiled's."""

    def __init__(self, out: io.BytesIO, recompiled: _Recompiled) -> None:
        super().__init__(out, pickle.HIGHEST_PROTOCOL)
        self.recompiled = recompiled
        # each namespace held, not only its id: a module whose __dict__ is made at each read (a C extension's) would
        # free it at once, and a dict made while pickling could take its id
        self.modules = {id(d): (m.__name__, d) for m in list(sys.modules.values()) if isinstance(m, ModuleType)
                        for d in (m.__dict__,)}

    def persistent_id(self, obj: Any) -> Optional[tuple[str, str]]:
        if type(obj) is ModuleType:
            return ("module", _fixed(obj.__name__))
        if type(obj) is dict and (found := self.modules.get(id(obj))) is not None and found[1] is obj:
            return ("namespace", _fixed(found[0]))
        return None

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if isinstance(obj, type):
            _fixed(obj.__module__)
            return NotImplemented
        if kind is FunctionType:
            if obj.__module__ is not None and "<locals>" not in obj.__qualname__ \
                    and _named(obj.__module__, obj.__qualname__) is obj:
                _fixed(obj.__module__)
                return NotImplemented
            return _function, (obj.__code__, obj.__globals__, obj.__name__, obj.__defaults__, obj.__closure__,
                               obj.__kwdefaults__)
        if kind is CellType:
            try:
                value: tuple[Any, ...] = (obj.cell_contents,)
            except ValueError:  # empty
                value = ()
            return _cell, (), value, None, None, _fill
        if kind is CodeType:
            return marshal.loads, (marshal.dumps(obj),)
        if kind is MethodType and isinstance(obj.__self__, CompilerBase):
            return getattr, (self.recompiled, obj.__name__)
        if isinstance(obj, CompilerBase):
            raise pickle.PicklingError("a program holds its compiler")
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Modules and their namespaces, which _Pickler keeps by name, are this process's own."""

    def persistent_load(self, pid: tuple[str, str]) -> Any:
        module = importlib.import_module(pid[1])
        return module if pid[0] == "module" else module.__dict__

