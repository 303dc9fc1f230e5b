"""Where a rulebook tells each rule and action: under the first part of the game that uses it (setup,
then the phases in round order), as a printed rulebook tells displacing inside playing. Follows the
calls and offered actions in the rules, so no game needs its own order."""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Sequence, TypeVar, Union, cast

from dsl import ast as A

Part = Union[A.RuleDef, A.ActionDef]
N = TypeVar("N", bound=A.Node)


def nodes_of(items: Sequence[A.Node], cls: type[N]) -> list[N]:
    """The nodes of class `cls` below these items, in source order: as a walk of them finds them, but from each
    item's index (A.found, made once per item and kept with its parse), not a walk per question."""
    return [n for item in items for n in A.found(item, cls)]


def used_parts(body: list[Any], rules: dict[str, A.RuleDef], actions: dict[str, A.ActionDef],
               in_place: frozenset[int] = frozenset()) -> Iterator[Part]:
    """The rules a body calls and the actions it offers, in the order they first come up (a choice with
    no list offers every action), each followed by what it uses in turn. A call told in place (its rule's
    steps stand where it is called) gives what that rule uses instead of the rule."""
    for node in _walk(body):
        if isinstance(node, A.CallRule) and node.rule in rules and id(node) in in_place:
            yield from used_parts(rules[node.rule].body, rules, actions, in_place)
        elif isinstance(node, A.CallRule) and node.rule in rules:
            yield rules[node.rule]
        elif isinstance(node, A.ChooseAction):
            yield from (actions[name] for name in (node.actions or list(actions)) if name in actions)


def rules_in_place(in_place: frozenset[int], items: list[A.Node]) -> set[str]:
    """The rules told where they are called (`in_place`: told_in_place's calls), so without an entry of their own."""
    return {n.rule for n in nodes_of(items, A.CallRule) if id(n) in in_place}


def told_in_place(bodies: list[list[Any]], items: list[A.Node]) -> frozenset[int]:
    """The calls a book tells as the called rule's own steps: the only step of a block, calling without
    values a rule called nowhere else (so the rule needs no entry of its own)."""
    calls: dict[str, int] = {}
    for node in nodes_of(items, A.CallRule):
        calls[node.rule] = calls.get(node.rule, 0) + 1
    rules = {r.name: r for r in items if isinstance(r, A.RuleDef)}
    blocks = list(bodies) + [value for node in _walk(list(items)) for value in node.__dict__.values()
                             if isinstance(value, list) and len(value) == 1]
    return frozenset(id(block[0]) for block in blocks if tells_in_place(block, rules, calls))


def tells_in_place(block: list[Any], rules: dict[str, A.RuleDef], calls: dict[str, int]) -> bool:
    """Whether a block is one call, without values, of a rule called nowhere else and without a note of
    its own: the book says that rule's steps here instead ("End of the round" is its one rule)."""
    call = block[0] if len(block) == 1 else None
    return isinstance(call, A.CallRule) and not call.args and calls.get(call.rule) == 1 \
        and call.rule in rules and rules[call.rule].note is None


def placement(owners: list[tuple[str, list[Any]]], items: list[A.Node], in_place: frozenset[int]) -> dict[str, list[Part]]:
    """For each owner (its key and body, in book order) the rules and actions told under it: each one
    under the first owner that reaches it, depth first, in the order it is reached (`in_place`: the calls
    told_in_place gives for these owners' bodies)."""
    rules = {r.name: r for r in items if isinstance(r, A.RuleDef)}
    actions = {a.name: a for a in items if isinstance(a, A.ActionDef)}
    placed: set[int] = set()
    out: dict[str, list[Part]] = {}
    for key, body in owners:
        found: list[Part] = []
        stack = list(reversed(list(used_parts(body, rules, actions, in_place))))
        while stack:
            part = stack.pop()
            if id(part) in placed:
                continue
            placed.add(id(part))
            found.append(part)
            stack.extend(reversed(list(used_parts(part.body, rules, actions, in_place))))
        out[key] = found
    return out


def by_section(parts: Sequence[Part], sections: list[A.SectionDef]) -> list[tuple[Optional[A.SectionDef], list[Part]]]:
    """These parts grouped as a print's sections group them: those of no section first, in their order;
    then each section holding some of them, in the order the sections are written, with its parts in the
    order it lists them."""
    named = {p.name: p for p in parts}
    home = {name for sec in sections for name in sec.parts}
    groups = [(None, [p for p in parts if p.name not in home])] + \
        [(sec, [named[name] for name in sec.parts if name in named]) for sec in sections]
    return [(sec, found) for sec, found in groups if found]


def _walk(nodes: list[Any]) -> Iterator[A.Node]:
    """Every node below these, in source order (depth first), so the first use comes first; the nodes in a
    list's lists or in a tuple (a map's pairs) are not reached. A stack, not nested generators, and a node's
    fields read as its `__dict__`'s values, in their order, as dsl.ast.walk reads them."""
    stack = list(reversed(nodes))
    nodes_types = _NODE_TYPES
    while stack:
        node = stack.pop()
        is_node = nodes_types.get(type(node))
        if is_node is None:  # isinstance of a pydantic model is an ABC's check, slow for the strings it meets
            is_node = nodes_types[type(node)] = isinstance(node, A.Node)
        if is_node:
            yield node
            for value in reversed(node.__dict__.values()):
                if isinstance(value, list):
                    stack.extend(reversed(value))
                else:
                    stack.append(value)


_NODE_TYPES: dict[type, bool] = {}  # a value's type → whether it is a node _walk yields and opens


def names_used(nodes: list[Any]) -> set[str]:
    """Every name the statements and expressions below these read, call or offer (not the names they
    define): what a part of the game needs of the others."""
    used: set[str] = set()
    for node in _walk(nodes):
        if isinstance(node, (A.Name, A.Attr)):
            used.add(node.name)
        elif isinstance(node, A.Call):
            used.add(node.func)
        elif isinstance(node, A.CallRule):
            used.add(node.rule)
        elif isinstance(node, A.ChooseAction):
            used.update(node.actions)
    return used


def same(a: object, b: object) -> bool:
    """Whether two expressions are the same, wherever they are written."""
    if isinstance(a, A.Node) and isinstance(b, A.Node):
        return type(a) is type(b) and all(same(getattr(a, f), getattr(b, f)) for f in type(a).model_fields if f != "pos")
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def substituted(e: A.Expr, values: Mapping[str, A.Expr]) -> A.Expr:
    """The expression with each name in `values` read as that expression (a function's body with its arguments
    in place of its parameters, a comprehension with its variable renamed); a comprehension's own variable hides
    a name of the same spelling in what it binds, not in its source."""
    return cast(A.Expr, _substituted(e, values))


def _substituted(node: object, values: Mapping[str, A.Expr]) -> object:
    """`substituted` on any value below an expression: a node copied with its parts substituted (nodes are frozen),
    a list or tuple rebuilt, any other value as it is."""
    if isinstance(node, A.Name):
        return values.get(node.name, node)
    if isinstance(node, (list, tuple)):
        return type(node)(_substituted(n, values) for n in node)
    if not isinstance(node, A.Node):
        return node
    inner = {k: v for k, v in values.items() if k != node.var} if isinstance(node, A.Comprehension) else values
    return node.model_copy(update={f: _substituted(v, values if f == "source" else inner)
                                   for f, v in node.__dict__.items() if f != "pos"})


def round_from(e: A.Expr) -> Optional[A.Expr]:
    """The first player of `concat([x], others(x))`, every player clockwise from x; else None."""
    if not (isinstance(e, A.Call) and e.func == "concat" and len(e.args) == 2):
        return None
    first, rest = e.args
    if isinstance(first, A.ListLit) and len(first.items) == 1 and isinstance(rest, A.Call) and rest.func == "others" \
            and len(rest.args) == 1 and same(rest.args[0], first.items[0]):
        return first.items[0]
    return None


def replaced_in_setup(name: str, setup: list[Any], each: Optional[str] = None) -> bool:
    """Whether one of the setup's own steps sets this var (a player's own, `each.name`, inside a loop over
    every player) before anything reads it: its start value is never seen."""
    for stmt in setup:
        target = stmt.target if isinstance(stmt, A.SetStmt) else None
        own = isinstance(target, A.Name) if each is None else \
            isinstance(target, A.Attr) and isinstance(target.obj, A.Name) and target.obj.name == each
        if own and isinstance(target, (A.Name, A.Attr)) and target.name == name:
            return name not in names_used([stmt.value])
        every_player = isinstance(stmt, A.For) and (isinstance(stmt.source, A.Name) and stmt.source.name == "players"
                                                     or round_from(stmt.source) is not None)
        if each is None and every_player and replaced_in_setup(name, stmt.body, stmt.var):
            return True
        if name in names_used([stmt]):
            return False
    return False
