"""Loads a ruleset by name (or path) with variants into a compiled Program and a Game."""
from __future__ import annotations

import gc
import hashlib
import os
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional, Sequence

from dsl import ast as A
from dsl.errors import RulesError, error_at
from dsl.files import find_ruleset, is_variant_file, rules_files
from dsl.loader import add_variant_files, apply_variants, read_ruleset, validate_source
from dsl.parser import read_rules_bytes
from dsl.reachability import check_reachable
from interpreter.compile.code_cache import checked, kept_code
from interpreter.compile.compiler import compile_program
from interpreter.compile.pictures import check_pictures
from interpreter.compile.program_cache import keep_program, program_path, read_program
from interpreter.runtime.game import ConstantError, Game
from interpreter.runtime.limits import Limits
from interpreter.runtime.program import Program


def _fingerprint(ruleset: str, variants: tuple[str, ...]) -> Optional[str]:
    """A sha256 of every file a load reads (paths, contents, and the working folder the messages name
    them from); None if one cannot be read, so that the load itself reports it."""
    digest = hashlib.sha256(os.getcwd().encode())
    files = rules_files(find_ruleset(ruleset), scenarios=False) + [Path(v) for v in variants if is_variant_file(v)]
    for file in files:
        try:
            raw = read_rules_bytes(file, str(file))
        except RulesError:
            return None
        digest.update(f"\0{file.resolve()}\0{len(raw)}\0".encode())
        digest.update(raw)
    return digest.hexdigest()


class ProgramCache:
    """load_program: compiles once per ruleset, variants and content of the files read, so a rules file
    edited in place is read afresh (a cache by path alone would keep the old program)."""

    def __call__(self, ruleset: str, variants: tuple[str, ...] = ()) -> Program:
        """Parse, overlay, validate and compile; every error is a RulesError. A variant is a shipped
        variant's name or the path of a .rules file holding one."""
        fingerprint = _fingerprint(ruleset, variants)
        if fingerprint is None:
            return _compile(ruleset, variants, None)
        return _cached(ruleset, variants, fingerprint)

    def cache_clear(self) -> None:
        _cached.cache_clear()


@lru_cache(maxsize=64)
def _cached(ruleset: str, variants: tuple[str, ...], fingerprint: str) -> Program:
    return _compile(ruleset, variants, fingerprint)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while loading: a load makes tens of thousands of objects and frees few, so the collector
    would walk them (and, once, everything the imports made) for next to nothing. Then they go straight to its oldest
    generation (a freeze and unfreeze moves them, walking none; left frozen if a caller froze the heap): its next two
    passes, of the young ones, would each walk them all (MF: 2 x 9 ms) only to put them there."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        frozen = gc.get_freeze_count()
        gc.freeze()
        if not frozen:
            gc.unfreeze()
        if paused:
            gc.enable()


def _compile(ruleset: str, variants: tuple[str, ...], fingerprint: Optional[str]) -> Program:
    """The game's files and variants only: scenario files are read by `check` and `test`, not to play. The program is
    kept whole by `fingerprint`, the files read, and by the budgets its checks spent (program_cache), and so is the
    generated code, for a load of other files (kept_code)."""
    budgets = repr(Limits.from_env())
    kept = program_path(f"{fingerprint}\0{ruleset}\0{variants!r}\0{budgets}") if fingerprint else None
    with _collector_paused():
        program = read_program(kept) if kept else None
        return program if program is not None else _compiled(ruleset, variants, fingerprint, budgets, kept)


def _compiled(ruleset: str, variants: tuple[str, ...], fingerprint: Optional[str], budgets: str,
              kept: Optional[Path]) -> Program:
    """Checks that a load of the same files passed before are not run again (checked): the budgets that building a
    game for each player count spends are in their name. The program is kept at `kept` once all passed."""
    src = read_ruleset(find_ruleset(ruleset), scenarios=False)
    try:
        names = add_variant_files(src, variants)
        code = f"{fingerprint}\0{names}"
        with kept_code(fingerprint and code):  # kept once the whole load succeeded
            checked("texts and definitions", lambda: validate_source(src))
            items = apply_variants(src, names)
            program = compile_program(items, src.name, names)
            checked("reachable", lambda: check_reachable(items))
            checked(f"player counts\0{budgets}", lambda: _check_player_counts(program, items, src.name, names))
            if program.pictures:
                checked(f"pictures\0{budgets}", lambda: check_pictures(
                    Game(program, program.max_players, src.name, names), items))
        if kept:
            keep_program(kept, program, code)
        return program
    except RulesError as exc:
        for file, text in src.sources.items():
            exc.sources.setdefault(file, text)
        raise


load_program = ProgramCache()


def _check_player_counts(program: Program, items: list[A.Node], name: str, variants: list[str]) -> None:
    """Constants and zone sizes are computed for every allowed player count once, at load."""
    for players in range(program.min_players, program.max_players + 1):
        try:
            Game(program, players, name, variants)
        except ConstantError as exc:
            where = next((i for i in items if isinstance(i, (A.ConstDef, A.ZoneDef)) and i.name == exc.name), items[0])
            raise error_at(where.pos, str(exc)) from None


def load_game(ruleset: str, variants: Sequence[str] = (), players: int = 0) -> Game:
    program = load_program(ruleset, tuple(variants))
    game = Game(program, players or program.min_players, program.name, list(variants))
    path = Path(ruleset)
    game.source = str(path.resolve()) if path.exists() else ruleset
    game.reload = _reload
    return game


def _reload(source: str, variants: tuple[str, ...], players: int, limits: Limits) -> Game:
    """How a pickled Game comes back: its rules loaded again, with the budgets it had."""
    game = load_game(source, variants, players)
    game.limits = limits
    return game
