"""Which rule parameters are the reader: a player parameter that every call passes the reader (`me`,
the player whose turn it is, or such a parameter of the calling rule) is "you" inside the rule too."""
from __future__ import annotations

from typing import Iterable

from dsl import ast as A


def addressed_params(items: Iterable[A.Node]) -> dict[str, set[str]]:
    """Each rule's player parameters told as "you", found as the largest set every call agrees with."""
    items = list(items)
    rules = {i.name: i for i in items if isinstance(i, A.RuleDef)}
    you = {name: {p.name for p in r.params if p.type.name == "player"} for name, r in rules.items()}
    calls: list[tuple[set[str], str, A.CallRule]] = []  # (the caller's own reader names, its rule, the call)
    for item in items:
        own = item.name if isinstance(item, A.RuleDef) else ""
        turn_vars = {n.var for n in A.found(item, A.Turns)} | {n.var for n in A.found(item, A.TurnsIn)}
        calls.extend((turn_vars, own, n) for n in A.found(item, A.CallRule) if n.rule in rules)
    called = {c.rule for _, _, c in calls}
    for name in set(you) - called:  # a rule nobody calls is told on its own: its player is not the reader
        you[name] = set()
    changed = True
    while changed:
        changed = False
        for turn_vars, own, call in calls:
            readers = turn_vars | you.get(own, set())
            for param, arg in zip(rules[call.rule].params, call.args):
                if param.name in you[call.rule] and not (isinstance(arg, A.Name) and (
                        arg.name == "me" or arg.name in readers)):
                    you[call.rule].discard(param.name)
                    changed = True
    return you
