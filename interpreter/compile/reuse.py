"""A value that generated code which changes nothing (a rule's function, a trigger's conditions) computes again, kept
from its first computation where that runs before each later one: an inlined function reads the same card's zone,
row or square type several times (`(_rv1 := E)` once, then `_rv1`). Only reads, comparisons, arithmetic and calls
of pure helpers are kept; a name set, or a list changed in place, in between ends what reads it."""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from typing import Sequence, cast

from interpreter.compile.astwalk import GRAPH_SEARCHES, OWN_SCOPE, pure, walked

# the helpers a kept value may call: pure functions of their arguments (len, the graph searches, a rule's function
# `_fg_…`) and those that only fail or fill the state's family cache (the value stays the same)
_PURE_CALL = re.compile("|".join((r"len|_fg_\w+|_listget|_mapget|_member|_pick|_famcards",
                                   *sorted(GRAPH_SEARCHES))))
_PLAIN = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.IfExp,
          ast.BinOp, ast.Tuple, ast.NamedExpr, ast.Call, ast.expr_context, ast.cmpop, ast.boolop, ast.unaryop,
          ast.operator)
_CHANGING = frozenset(("append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update", "add",
                       "discard"))  # the methods that change a list, a map or a set in place
_READING = frozenset(("get", "index", "count", "keys", "values", "items", "copy"))  # those that only read
_PAUSES = (ast.Yield, ast.YieldFrom, ast.Await)
_TEMP = re.compile(r"_[ij]\d+")  # the walrus temporaries of one generated expression (an end item, a list item)
_PLACE = re.compile(r"_at\d+")  # the position a failing helper is given
_LEAST = 4  # nodes: a shorter read costs about what keeping it does
_KEEPING = 2  # the code units keeping a value costs (COPY, STORE_FAST)


@dataclass
class _Seen:
    """A value's first computation and the nodes that can read it instead; `size`: its nodes (about the code units
    it runs); `odds`: how often it runs, against the code around it (a branch half as often, a loop's body twice),
    and `spared`: the units its reads spare, each by how often it runs against the first."""
    first: ast.expr
    free: frozenset[str]
    size: int
    odds: float
    again: list[ast.expr] = field(default_factory=list)
    spared: float = 0.0


_Avail = dict[str, _Seen]


def _held(value: ast.expr) -> set[str]:
    """The names whose object value may be, or be a part of."""
    if isinstance(value, ast.Name):
        return {value.id}
    if isinstance(value, ast.Subscript):
        return _held(value.value)
    if isinstance(value, ast.NamedExpr):
        return {value.target.id} | _held(value.value)
    if isinstance(value, ast.IfExp):
        return _held(value.body) | _held(value.orelse)
    if isinstance(value, ast.BoolOp):
        return set().union(*map(_held, value.values))
    return set()


def _fresh(value: ast.expr, made: set[str]) -> bool:
    """Whether value is a new list (or None, a list not made yet), or one of the lists `made`."""
    if isinstance(value, ast.IfExp):
        return _fresh(value.body, made) and _fresh(value.orelse, made)
    return isinstance(value, (ast.List, ast.ListComp)) or isinstance(value, ast.Constant) and value.value is None \
        or isinstance(value, ast.Name) and value.id in made


def _parts(node: ast.AST) -> list[ast.expr]:
    """The expressions directly below node, in the order Python evaluates them (a keyword argument's value too)."""
    return [c.value if isinstance(c, ast.keyword) else c for c in ast.iter_child_nodes(node)
            if isinstance(c, (ast.expr, ast.keyword))]


def pure_call(node: ast.AST) -> bool:
    """Whether node is a call of a pure helper (_PURE_CALL)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and _PURE_CALL.fullmatch(node.func.id) is not None


class _Reuse:
    def __init__(self, func: ast.FunctionDef) -> None:
        nodes = walked(func)
        self.loads: dict[str, int] = {}
        self.changed: set[str] = set()  # names of lists changed in place (a method called, an item set) or aliased
        for n in nodes:
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                self.loads[n.id] = self.loads.get(n.id, 0) + 1
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.attr not in _READING:
                self.changed.add(n.func.value.id)
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name):
                self.changed.add(n.value.id)
        grew = True
        while grew:  # a list's other names: `a = b`, `a = b or c`, `a = b[k]`, `for a in b`
            grew = False
            for n in nodes:
                if isinstance(n, (ast.Assign, ast.NamedExpr, ast.For)):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    names = {t.id for t in targets if isinstance(t, ast.Name)}
                    held = _held(n.iter if isinstance(n, ast.For) else n.value)
                    if (names | held) & self.changed and not (names | held) <= self.changed:
                        self.changed |= names | held
                        grew = True
        # the lists the function makes itself: every value set to such a name is a new list or another such name
        # (_fresh)
        made = {t.id for n in nodes if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        shrunk = True
        while shrunk:
            shrunk = False
            for n in nodes:
                targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
                    n, (ast.For, ast.NamedExpr, ast.AugAssign)) else []
                for t in targets:
                    if isinstance(t, ast.Name) and t.id in made and not (isinstance(n, ast.Assign)
                                                                         and _fresh(n.value, made)):
                        made.discard(t.id)
                        shrunk = True
        self.made = made
        self.seen: list[_Seen] = []
        self.odds = 1.0

    def harmless(self, call: ast.Call) -> bool:
        """Whether call changes nothing a kept value reads: a pure helper, a method that only reads, or one that changes
        a list the function made itself (self.made), which no kept value reads (self.changed)."""
        if pure_call(call):
            return True
        method = call.func
        return isinstance(method, ast.Attribute) and (method.attr in _READING or method.attr in _CHANGING and isinstance(
            method.value, ast.Name) and method.value.id in self.made and method.value.id in self.changed)

    def key(self, node: ast.expr) -> tuple[str, frozenset[str], int] | None:
        """The value's key (its dump, its own temporaries renamed) and the names it reads, or None where it cannot
        be kept: too small, not plain, reading a list that changes or a temporary read outside it."""
        parts = [n for n in walked(node) if not isinstance(n, (ast.expr_context, ast.cmpop, ast.boolop, ast.unaryop,
                                                                ast.operator))]
        if len(parts) < _LEAST or isinstance(node, (ast.Name, ast.Constant, ast.NamedExpr)):
            return None
        bound: dict[str, str] = {}
        for n in parts:
            if isinstance(n, ast.NamedExpr):
                if not _TEMP.fullmatch(n.target.id):
                    return None
                bound[n.target.id] = f"_t{len(bound)}"
            elif not isinstance(n, _PLAIN) or isinstance(n, ast.Call) and not pure_call(n) \
                    or not isinstance(getattr(n, "ctx", ast.Load()), ast.Load) \
                    and not (isinstance(n, ast.Name) and n.id in bound):
                return None
        reads = [n.id for n in parts if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        for name in bound:
            if reads.count(name) != self.loads.get(name, 0):
                return None
        free = frozenset(r for r in reads if r not in bound)
        if free & self.changed:
            return None
        if not bound and not any(_PLACE.fullmatch(name) for name in free):
            return ast.dump(node), free, len(parts)
        same = copy.deepcopy(node)
        for n in walked(same):
            if isinstance(n, ast.Name) and n.id in bound:
                n.id = bound[n.id]
            elif isinstance(n, ast.Name) and _PLACE.fullmatch(n.id):
                n.id = "_at"  # where it fails: a later computation reached after the first runs through as it did
        return ast.dump(same), free, len(parts)

    def expr(self, node: ast.expr, avail: _Avail) -> None:
        """Notes node's values in evaluation order: those avail has already, and those it adds; avail is then what is
        known after node."""
        found = self.key(node)
        if found is not None and found[0] in avail:
            seen = avail[found[0]]
            seen.again.append(node)
            seen.spared += (seen.size - 1) * self.odds / seen.odds
            return
        if isinstance(node, OWN_SCOPE):
            avail.clear()
            return
        if isinstance(node, ast.BoolOp):
            self.expr(node.values[0], avail)
            self.maybe(node.values[1:], avail)
        elif isinstance(node, ast.IfExp):
            self.expr(node.test, avail)
            self.either([node.body], [node.orelse], avail)
        elif isinstance(node, ast.Compare):
            self.expr(node.left, avail)
            self.expr(node.comparators[0], avail)
            self.maybe(node.comparators[1:], avail)
        else:
            for child in _parts(node):
                self.expr(child, avail)
            if isinstance(node, ast.NamedExpr):
                self.kill({node.target.id}, avail)
            elif isinstance(node, _PAUSES) or isinstance(node, ast.Call) and not self.harmless(node):
                avail.clear()  # (while a generator waits, the state may change)
        if found is not None:
            seen = _Seen(node, found[1], found[2], self.odds)
            self.seen.append(seen)
            avail[found[0]] = seen

    def maybe(self, values: list[ast.expr], avail: _Avail) -> None:
        """values evaluated one after the other, each only if the one before was (the rest of an `and`, `or` or
        chained comparison): each knows what the ones before found; after them, only what avail knew stays."""
        inner = dict(avail)
        self.odds /= 2
        for v in values:
            self.expr(v, inner)
        self.odds *= 2
        self.keep(avail, [inner])

    def either(self, first: Sequence[ast.AST], second: Sequence[ast.AST], avail: _Avail, odds: float = 0.5) -> None:
        """One of two branches (expressions or statements) runs, each `odds` times as often as the code around: what
        both keep of avail stays."""
        outs = []
        self.odds *= odds
        for branch in (first, second):
            inner = dict(avail)
            for part in branch:
                self.expr(part, inner) if isinstance(part, ast.expr) else self.stmt(part, inner)  # type: ignore[arg-type]
            outs.append(inner)
        self.odds /= odds
        self.keep(avail, outs)

    @staticmethod
    def keep(avail: _Avail, outs: list[_Avail]) -> None:
        for k in [k for k, seen in avail.items() if any(out.get(k) is not seen for out in outs)]:
            del avail[k]

    @staticmethod
    def kill(names: set[str], avail: _Avail) -> None:
        for k in [k for k, seen in avail.items() if seen.free & names]:
            del avail[k]

    def stmts(self, body: list[ast.stmt], avail: _Avail) -> None:
        for s in body:
            self.stmt(s, avail)

    def stmt(self, node: ast.stmt, avail: _Avail) -> None:
        """Notes node's values as expr does, its branches and loops each seeing what runs before them for sure."""
        if isinstance(node, ast.If):
            self.expr(node.test, avail)
            self.either(list(node.body), list(node.orelse), avail)
        elif isinstance(node, (ast.For, ast.While)):
            if isinstance(node, ast.For):
                self.expr(node.iter, avail)
            self.looped(node, avail)
            if isinstance(node, ast.While):
                self.expr(node.test, avail)
            self.either(list(node.body), [], avail, 2.0)
            self.either(list(node.orelse), [], avail)
        elif isinstance(node, ast.Try):
            self.looped(node, avail)
            self.either(list(node.body) + list(node.orelse), [], avail)
            for handler in node.handlers:
                self.either(list(handler.body), [], avail)
            self.either(list(node.finalbody), [], avail)
        elif isinstance(node, ast.FunctionDef):
            self.stmts(node.body, {})
        else:
            for child in _parts(node):
                self.expr(child, avail)
            self.kill({n.id for n in walked(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}, avail)
            if isinstance(node, (ast.Assign, ast.AugAssign)) and not all(isinstance(t, ast.Name) for t in (
                    node.targets if isinstance(node, ast.Assign) else [node.target])):
                avail.clear()  # an item or a field set: of a list the values may read

    def looped(self, node: ast.stmt, avail: _Avail) -> None:
        """Before a loop (or a `try`, whose handler may start anywhere in it): what its statements set is unknown."""
        inner = walked(node)
        if not self.still(inner):
            avail.clear()
        self.kill(_set(inner), avail)

    def still(self, inner: list[ast.AST]) -> bool:
        """Whether the nodes `inner` change no list or field a kept value may read, and do not pause."""
        return not any(isinstance(n, _PAUSES) or isinstance(n, ast.Call) and not self.harmless(n)
                       or isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store) for n in inner)

    def invariant(self, body: list[ast.stmt], fixed: set[str], found: dict[str, list[ast.expr]]) -> None:
        """The largest values that body computes each time it runs (not in a branch, a later value of `and`/`or`, a
        nested loop's body or a scope of its own) that read no name in `fixed` and cannot fail (astwalk.pure), by
        key."""
        todo: list[ast.AST] = list(reversed(body))
        while todo:
            node = todo.pop()
            key = self.key(node) if isinstance(node, ast.expr) else None
            if key is not None and not key[1] & fixed and pure(node):
                found.setdefault(key[0], []).append(cast(ast.expr, node))
            elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.For)):
                todo.append(node.iter if isinstance(node, ast.For) else node.test)
            elif isinstance(node, ast.BoolOp):
                todo.append(node.values[0])
            elif isinstance(node, ast.Compare):
                todo += [node.comparators[0], node.left]
            elif isinstance(node, (ast.expr, ast.Assign, ast.AugAssign, ast.Expr, ast.Return)) \
                    and not isinstance(node, OWN_SCOPE):
                todo += reversed(_parts(node))


def _set(nodes: list[ast.AST]) -> set[str]:
    """The names the nodes set (or delete)."""
    return {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def loops_hoisted(func: ast.FunctionDef) -> bool:
    """func with each value that a `for` loop over a list it reads (from the state: not a local, which is often a short
    list the function made, where the value would cost more than it spares) which changes nothing
    outside its own lists computes in its body from names the loop does not set, and that cannot fail, computed once
    before the loop instead (`_rv… = …`): a comprehension's test against the same card's field, each item; whether
    anything changed."""
    reuse = _Reuse(func)
    blocks = [block for node in walked(func) for block in (getattr(node, f, None) for f in ("body", "orelse", "finalbody"))
              if isinstance(block, list)]
    names = {n.id for n in walked(func) if isinstance(n, ast.Name)}
    k = 0
    for loop in reversed([n for n in walked(func) if isinstance(n, ast.For)]):
        inner = walked(loop)
        if not reuse.still(inner) or isinstance(loop.iter, (ast.List, ast.Tuple, ast.Name)):
            continue  # (a list held in a local is often one the function made of few items, or none: see above)
        found: dict[str, list[ast.expr]] = {}
        reuse.invariant(loop.body, _set(inner), found)
        block = next(b for b in blocks if any(s is loop for s in b))
        for nodes in found.values():
            k += 1
            while f"_rv{k}" in names:
                k += 1
            first = nodes[0]
            at = next(i for i, s in enumerate(block) if s is loop)
            block.insert(at, ast.copy_location(ast.Assign([ast.Name(f"_rv{k}", ast.Store())], first), loop))
            for node in nodes:
                _replace(loop, node, ast.copy_location(ast.Name(f"_rv{k}", ast.Load()), node))
    if k:
        ast.fix_missing_locations(func)
    return k > 0


def _replace(root: ast.AST, old: ast.AST, new: ast.AST) -> None:
    """old, a node below root, replaced by new."""
    for parent in walked(root):
        for fname, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, fname, new)
                return
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is old:
                        value[i] = new
                        return


def values_reused(func: ast.FunctionDef) -> bool:
    """func (generated code that changes nothing but its own lists) with each value it computes again read from its
    first computation instead (see the module); whether anything changed."""
    reuse = _Reuse(func)
    reuse.stmts(func.body, {})
    kept = [seen for seen in reuse.seen if seen.spared > _KEEPING]
    if not kept:
        return False
    names = {n.id for n in walked(func) if isinstance(n, ast.Name)}
    k = 0
    swap: dict[int, ast.expr] = {}
    for seen in kept:
        k += 1
        while f"_rv{k}" in names:
            k += 1
        name = f"_rv{k}"
        swap[id(seen.first)] = ast.copy_location(ast.NamedExpr(ast.Name(name, ast.Store()), seen.first), seen.first)
        for node in seen.again:
            swap[id(node)] = ast.copy_location(ast.Name(name, ast.Load()), node)

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            new = swap.get(id(node))
            if isinstance(new, ast.Name):
                return new
            self.generic_visit(node)
            return new if new is not None else node

    Swap().visit(func)
    ast.fix_missing_locations(func)
    return True


def reused(tree: ast.Module, again: bool = True) -> None:
    """The functions of tree with their loops' fixed values computed before them (loops_hoisted) and, with `again`
    (code that changes nothing), each value computed again read from its first computation (values_reused)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            loops_hoisted(node)
            if again:
                values_reused(node)
