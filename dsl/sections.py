"""Load-time check of the rulebook's sections, over the game's items once its variants are laid over:
each groups rules and actions that exist, and a part stands in one section at most, so the book tells
it once."""
from __future__ import annotations

from typing import Any

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, did_you_mean, error_at


def check_sections(items: list[Any]) -> None:
    """A section naming no rule or action of the game, or a part two sections (or one twice) claim."""
    parts = {i.name for i in items if isinstance(i, (A.RuleDef, A.ActionDef))}
    owner: dict[str, str] = {}
    found: list[Diagnostic] = []
    for sec in (i for i in items if isinstance(i, A.SectionDef)):
        for name in sec.parts:
            if name not in parts:
                found += error_at(sec.pos, f"section '{sec.name}' names '{name}', which is no rule or action",
                                  did_you_mean(name, parts)).diagnostics
            elif name in owner:
                found += error_at(sec.pos, f"section '{sec.name}' names '{name}', which section "
                                  f"'{owner[name]}' already holds", "a part stands in one section").diagnostics
            owner.setdefault(name, sec.name)
    if found:
        raise RulesError(found)
