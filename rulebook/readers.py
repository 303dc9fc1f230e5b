"""Which parameters of a rule are the reader: a rule only ever called for the player whose turn it is is
told to that player ("pay the battle cost"), as the turn itself is, not to "the player"."""
from __future__ import annotations

from typing import Iterable

from dsl import ast as A

Calls = list[tuple[str, list[A.Expr], frozenset[str]]]  # (rule, arguments, the names that are the reader there)


def _calls(node: object, readers: frozenset[str], found: Calls) -> None:
    """Every rule call below `node`, with the names that are the reader where it stands: `me`, a turn
    loop's player, and the caller's own reader parameters (`params:RULE` marks them, resolved later)."""
    if isinstance(node, A.CallRule):
        found.append((node.rule, node.args, readers))
    if isinstance(node, (A.Turns, A.TurnsIn)):
        inner = readers | {node.var}
        for child in node.body:
            _calls(child, inner, found)
        return
    if isinstance(node, A.For):
        _calls(node.source, readers, found)
        for child in node.body:
            _calls(child, readers - {node.var}, found)
        return
    if isinstance(node, A.Node):
        for name in type(node).model_fields:
            _calls(getattr(node, name), readers, found)
    elif isinstance(node, (list, tuple)):
        for child in node:
            _calls(child, readers, found)


def _passes_reader(args: list[A.Expr], i: int, readers: frozenset[str], own: frozenset[str]) -> bool:
    """Whether argument `i` of a call is the reader where the call stands."""
    arg = args[i] if i < len(args) else None
    return isinstance(arg, A.Name) and (arg.name in readers or arg.name in own)


def reader_params(items: Iterable[object]) -> dict[str, frozenset[str]]:
    """Each rule's player parameters that every call passes the reader (a rule nobody calls has none)."""
    items = list(items)
    rules = {i.name: i for i in items if isinstance(i, A.RuleDef)}
    sites: dict[str, list[tuple[list[A.Expr], frozenset[str], str]]] = {name: [] for name in rules}
    for item in items:
        owner = item.name if isinstance(item, A.RuleDef) else ""
        found: Calls = []
        _calls(item if isinstance(item, A.CardsDef) else getattr(item, "body", None), frozenset({"me"}), found)
        for called, args, readers in found:
            if called in sites:
                sites[called].append((args, readers, owner))
    current = {name: frozenset(p.name for p in rule.params if p.type.name == "player" and sites[name])
               for name, rule in rules.items()}
    changed = True
    while changed:  # drop a parameter some call passes anyone else, until nothing changes
        changed = False
        for name, rule in rules.items():
            keep = frozenset(p.name for i, p in enumerate(rule.params) if p.name in current[name] and all(
                _passes_reader(args, i, readers, current.get(owner, frozenset())) for args, readers, owner in sites[name]))
            if keep != current[name]:
                current[name], changed = keep, True
    return current
