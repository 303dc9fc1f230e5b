"""Load-time checks on the AST that need no compiling: named parts and their uniqueness, and that
every display text exists in every language the rulebooks are written in."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from pydantic import BaseModel

from dsl import ast as A
from dsl.errors import RulesError, error_at

LANGUAGES = ("de", "en")

_PARTS: dict[type, str] = {
    A.GameDef: "game", A.EnumDef: "enum", A.KindDef: "kind", A.CardsDef: "cards", A.ZoneDef: "zone",
    A.VarDef: "var", A.ConstDef: "const", A.CurrencyDef: "currency", A.FunctionDef: "function",
    A.RuleDef: "rule", A.ActionDef: "action", A.SetupDef: "setup", A.RoundDef: "round",
    A.ScoreDef: "score", A.HeuristicDef: "heuristic", A.TriggerDef: "trigger",
}


def part_key(item: Any, existing: Mapping[tuple[str, str], int]) -> tuple[str, str]:
    """The (part, name) by which a variant addresses an item; triggers are numbered per event."""
    part = _PARTS[type(item)]
    if isinstance(item, A.TriggerDef):
        n = sum(1 for k in existing if k[0] == "trigger" and k[1].split("#")[0] == item.event)
        return part, f"{item.event}#{n + 1}"
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
