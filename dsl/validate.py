"""Load-time checks on the AST that need no compiling: named parts and their uniqueness, and that
every display text exists in every language the rulebooks are written in."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from pydantic import BaseModel

from dsl import ast as A
from dsl.errors import RulesError, error_at
from dsl.limits import MAX_PLAYERS
from dsl.pictures import picture_problems
from dsl.steps import duplicate_names

LANGUAGES = ("de", "en")

_PARTS: dict[type, str] = {
    A.GameDef: "game", A.EnumDef: "enum", A.KindDef: "kind", A.CardsDef: "cards", A.ZoneDef: "zone",
    A.VarDef: "var", A.ConstDef: "const", A.CurrencyDef: "currency", A.FunctionDef: "function",
    A.RuleDef: "rule", A.ActionDef: "action", A.SetupDef: "setup", A.RoundDef: "round",
    A.ScoreDef: "score", A.HeuristicDef: "heuristic", A.WinnerDef: "can_win", A.TriggerDef: "trigger",
    A.PictureDef: "picture",
}


def part_key(item: Any, existing: Mapping[tuple[str, str], int]) -> tuple[str, str]:
    """The (part, name) by which a variant addresses an item; unnamed triggers are numbered per event."""
    part = _PARTS[type(item)]
    if isinstance(item, A.TriggerDef) and item.name is None:
        n = sum(1 for k in existing if k[0] == "trigger" and k[1].split("#")[0] == item.event)
        return part, f"{item.event}#{n + 1}"
    if isinstance(item, A.CardsDef):
        return part, item.table or item.name
    return part, str(getattr(item, "name", ""))


def _texts(node: Any) -> Iterator[A.Text]:
    if isinstance(node, A.Text):
        yield node
    elif isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _texts(getattr(node, name))
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _texts(item)


def check_texts(nodes: list[Any]) -> None:
    problems = []
    for node in nodes:
        for text in _texts(node):
            missing = [lang for lang in LANGUAGES if lang not in text.by_lang]
            if missing:
                problems.extend(error_at(text.pos, f"text has no {' and no '.join(missing)} version",
                                         'write both, as in de "…" en "…"').diagnostics)
    if problems:
        raise RulesError(problems)


def _names_twice(what: str, named: list[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    out = []
    for node in named:
        if node.name in seen:
            out.extend(error_at(node.pos, f"{what} '{node.name}' appears twice (first at line {seen[node.name].line})"
                                ).diagnostics)
        seen.setdefault(node.name, node.pos)
    return out


def check_definitions(nodes: list[Any]) -> None:
    """Small sanity checks inside single definitions: names given twice, an impossible player range."""
    problems = []
    for node in nodes:
        for item in _walk_items(node):
            if isinstance(item, (A.FunctionDef, A.RuleDef, A.ActionDef)):
                problems += _names_twice("parameter", list(item.params))
            if isinstance(item, (A.RuleDef, A.ActionDef, A.PhaseDef)):
                problems += duplicate_names(_PARTS.get(type(item), "phase"), item)
            elif isinstance(item, A.RoundDef):
                for phase in item.phases:
                    problems += duplicate_names("phase", phase)
            elif isinstance(item, A.PictureDef):
                problems += picture_problems(item)
            elif isinstance(item, A.EnumDef):
                problems += _names_twice("enum value", list(item.values))
            elif isinstance(item, A.GameDef) and not 1 <= item.min_players <= item.max_players:
                problems += error_at(item.pos, f"players {item.min_players} to {item.max_players}: the "
                                     "range must start at 1 or more and not run backwards",
                                     "write the smaller number first, as in players 3 to 6").diagnostics
            elif isinstance(item, A.GameDef) and item.max_players > MAX_PLAYERS:
                problems += error_at(item.pos, f"players {item.min_players} to {item.max_players}: a game is "
                                     f"for at most {MAX_PLAYERS} players").diagnostics
    if problems:
        raise RulesError(problems)


def _walk_items(node: Any) -> Iterator[Any]:
    """A top-level item, or the items and phases a variant adds or replaces."""
    if isinstance(node, A.VariantDef):
        for op in node.ops:
            if op.item is not None:
                yield op.item
            if op.phase is not None:
                yield op.phase
    else:
        yield node
