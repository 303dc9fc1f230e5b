"""Loads a ruleset by name (or path) with variants into a compiled Program and a Game."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from dsl import ast as A
from dsl.errors import RulesError, error_at
from dsl.loader import (
    add_variant_files,
    apply_variants,
    find_ruleset,
    read_ruleset,
    validate_source,
)
from dsl.reachability import check_reachable
from interpreter.compiler import compile_program
from interpreter.game import ConstantError, Game
from interpreter.program import Program


@lru_cache(maxsize=64)
def load_program(ruleset: str, variants: tuple[str, ...] = ()) -> Program:
    """Parse, overlay, validate and compile once per (ruleset, variants); every error is a RulesError.
    A variant is a shipped variant's name or the path of a .rules file holding one."""
    src = read_ruleset(find_ruleset(ruleset))
    try:
        names = add_variant_files(src, variants)
        validate_source(src)
        items = apply_variants(src, names)
        program = compile_program(items, src.name, names)
        check_reachable(items)
        _check_player_counts(program, items, src.name, names)
        return program
    except RulesError as exc:
        for file, text in src.sources.items():
            exc.sources.setdefault(file, text)
        raise


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
    return Game(program, players or program.min_players, program.name, list(variants))
