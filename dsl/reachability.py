"""Finds definitions nothing can reach: a rule never called, an action never offered, a function
never used. Such a part is almost always a misspelling or a leftover, so it is a load error."""
from __future__ import annotations

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, error_at


def _recursive_rules(items: list[A.Node]) -> list[Diagnostic]:
    """A rule that calls itself on every path (not under an `if` or a loop), directly or through
    others, would never end; recursion under a condition is allowed (the engine caps the depth)."""
    calls = {item.name: [n for n in A.opened(item.body) if isinstance(n, A.CallRule)]
             for item in items if isinstance(item, A.RuleDef)}
    problems: list[Diagnostic] = []
    for start in calls:
        path = [start]
        seen = {start}
        stack = [(start, iter(calls[start]))]
        while stack:
            _, it = stack[-1]
            call = next(it, None)
            if call is None:
                stack.pop()
                path.pop()
                continue
            if call.rule == start:
                chain = " → ".join(path + [start])
                problems.extend(error_at(call.pos, f"rule '{start}' calls itself ({chain}), so it would never end",
                                         "repeat with a loop instead").diagnostics)
                break
            if call.rule in calls and call.rule not in seen:
                seen.add(call.rule)
                path.append(call.rule)
                stack.append((call.rule, iter(calls[call.rule])))
    return problems


def check_reachable(items: list[A.Node]) -> None:
    """Every rule, action and function must be used somewhere else in the (variant-applied) game."""
    used: dict[str, set[str]] = {"rule": set(), "action": set(), "function": set()}
    for item in items:
        own = getattr(item, "name", None)
        used["rule"].update(node.rule for node in A.found(item, A.CallRule) if node.rule != own)
        for choose in A.found(item, A.ChooseAction):
            used["action"].update(choose.actions)
        calls: list[A.Call | A.CallComp] = [*A.found(item, A.Call), *A.found(item, A.CallComp)]
        used["function"].update(node.func for node in calls if not (isinstance(item, A.FunctionDef) and node.func == own))
    problems = _recursive_rules(items)
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
