"""Finds definitions nothing can reach: a rule never called, an action never offered, a function
never used. Such a part is almost always a misspelling or a leftover, so it is a load error."""
from __future__ import annotations

from typing import Any, Iterator

from pydantic import BaseModel

from dsl import ast as A
from dsl.errors import RulesError, error_at


def _nodes(node: Any) -> Iterator[Any]:
    if isinstance(node, BaseModel):
        yield node
        for name in type(node).model_fields:
            yield from _nodes(getattr(node, name))
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _nodes(item)


def check_reachable(items: list[A.Node]) -> None:
    """Every rule, action and function must be used somewhere else in the (variant-applied) game."""
    used: dict[str, set[str]] = {"rule": set(), "action": set(), "function": set()}
    for item in items:
        own = getattr(item, "name", None)
        for node in _nodes(item):
            if isinstance(node, A.CallRule) and node.rule != own:
                used["rule"].add(node.rule)
            elif isinstance(node, A.ChooseAction):
                used["action"].update(node.actions)
            elif isinstance(node, (A.Call, A.CallComp)) and not (isinstance(item, A.FunctionDef) and node.func == own):
                used["function"].add(node.func)
    problems = []
    for item in items:
        for cls, part, how in ((A.RuleDef, "rule", "call it with `call`"),
                               (A.ActionDef, "action", "offer it in a `choose action for …: …`"),
                               (A.FunctionDef, "function", "use it in an expression")):
            if isinstance(item, cls) and item.name not in used[part]:
                name = item.name
                problems.extend(error_at(item.pos, f"{part} '{name}' is never used, so it can never take effect",
                                         f"{how}, or remove it").diagnostics)
    if problems:
        raise RulesError(problems)
