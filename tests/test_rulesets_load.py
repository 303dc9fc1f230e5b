"""Every shipped ruleset compiles alone and with each combination of its variants, for every
player count it allows, and its generic engine code names no game."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from dsl.loader import VariantConflict, find_ruleset, read_ruleset, rulesets_dir
from interpreter.compile.loading import load_game, load_program

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.name for p in rulesets_dir().iterdir() if p.is_dir())


def _combinations(name: str) -> list[tuple[str, ...]]:
    variants = sorted(read_ruleset(find_ruleset(name)).variants)
    return [c for n in range(len(variants) + 1) for c in itertools.combinations(variants, n)]


@pytest.mark.parametrize("name", RULESETS)
def test_every_variant_combination_compiles(name: str) -> None:
    """A variant that breaks alone or in company is found at once; only variants that change the same
    part may refuse to be loaded together."""
    for combo in _combinations(name):
        try:
            program = load_program(name, combo)
        except VariantConflict as exc:
            assert len(combo) > 1 and "both change" in str(exc)
            continue
        for players in range(program.min_players, program.max_players + 1):
            state = load_game(name, combo, players=players).new_initial_state(seed=0)
            assert not state.is_terminal()


def test_engine_names_no_ruleset() -> None:
    """The engine and the rulebook generator know no game: no ruleset's name, nor a kind, zone or card id
    of one, is in their code, sentence catalogues or templates."""
    words: set[str] = set()
    for name in RULESETS:
        program = load_program(name, ())
        words |= {name} | set(program.kinds) | {z.name for z in program.zones} | {c.id for c in program.cards}
    words = {w for w in words if len(w) > 5}  # short ids like "hand" are ordinary English
    for folder in ("dsl", "interpreter", "rulebook"):
        for path in [*(ROOT / folder).rglob("*.py"), *(ROOT / folder).glob("catalogue/??.toml"),
                     *(ROOT / folder).rglob("templates/*.j2")]:
            text = path.read_text(encoding="utf-8").lower()
            found = sorted(w for w in words if w in text)
            assert not found, f"{path} names {found}"
