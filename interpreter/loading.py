"""Loads a ruleset by name (or path) with variants into a compiled Program and a Game."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from dsl.errors import RulesError
from dsl.loader import apply_variants, find_ruleset, read_ruleset, validate_source
from dsl.reachability import check_reachable
from interpreter.compiler import compile_program
from interpreter.game import Game
from interpreter.program import Program


@lru_cache(maxsize=64)
def load_program(ruleset: str, variants: tuple[str, ...] = ()) -> Program:
    """Parse, overlay, validate and compile once per (ruleset, variants); every error is a RulesError."""
    src = read_ruleset(find_ruleset(ruleset))
    try:
        validate_source(src)
        items = apply_variants(src, variants)
        program = compile_program(items, src.name, list(variants))
        check_reachable(items)
        return program
    except RulesError as exc:
        for file, text in src.sources.items():
            exc.sources.setdefault(file, text)
        raise


def load_game(ruleset: str, variants: Sequence[str] = (), players: int = 0) -> Game:
    program = load_program(ruleset, tuple(variants))
    return Game(program, players or program.min_players, program.name, list(variants))
