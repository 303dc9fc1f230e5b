"""Copies of a local or a constant into a generated temporary (`_b_c = _l3`, `_b_z = _g_fam_zones_2_0`, a card
move's card and destination) dropped, each read of the temporary made a read of what it copies: two bytecodes less
per copy, on every card move. Only where every read of the temporary is settled by the one assignment before it
in its own statement list (or in a list around it, nothing between that sets it again), so no value of it ever
reaches another list's read; the generated blocks keep their `_b_` names to one snippet, so that is the rule."""
from __future__ import annotations

import ast
from typing import Optional, cast

from interpreter.compile.astwalk import OWN_SCOPE, walked

TEMP = "_b_"  # the prefix of the generated code's temporaries (blocks)
_BLOCKS = ("body", "orelse", "finalbody")
_Place = tuple[list[ast.stmt], int, ast.AST, str]  # a statement's list, its index there, the list's owner and field


def copies_forwarded(tree: ast.AST) -> None:
    """Each function below tree with its temporaries' copies dropped (module docstring), in place."""
    for fn in walked(tree):
        if isinstance(fn, ast.FunctionDef):
            _Function(fn).forward()


class _Function:
    """One function's own scope: where each statement lies, which temporaries are read where, what each
    statement sets."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.fn = fn
        self.place: dict[int, _Place] = {}
        self.reads: dict[str, list[tuple[ast.Name, ast.stmt]]] = {}
        self.unsure: set[str] = set()  # names read or set in a scope of their own (a comprehension's, a lambda's)
        self.stored: dict[int, set[str]] = {}  # by statement (and handler): the names it sets, its lists' too
        self.locals = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
        self.locals |= self._visit(fn.body, fn, "body")

    def _visit(self, block: list[ast.stmt], owner: ast.AST, field: str) -> set[str]:
        """Notes where block's statements lie, their temporaries' reads and what they set; the names block sets."""
        names: set[str] = set()
        for i, stmt in enumerate(block):
            self.place[id(stmt)] = (block, i, owner, field)
            head = self._head(stmt, stmt)
            for name in _BLOCKS:
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    head |= self._visit(inner, stmt, name)
            for handler in getattr(stmt, "handlers", []):
                caught = self._visit(handler.body, handler, "body") | ({handler.name} if handler.name else set())
                self.stored[id(handler)] = caught
                head |= caught | self._head(handler, stmt)
            self.stored[id(stmt)] = head
            names |= head
        return names

    def _head(self, node: ast.AST, stmt: ast.stmt) -> set[str]:
        """The names node's own parts (not its statement lists) set, its temporaries' reads noted (as in stmt);
        a scope of its own only noted as unsure, a nested function's or class's whole."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.unsure |= {n.id for n in walked(node) if isinstance(n, ast.Name)}
            return {node.name} | self.unsure
        names: set[str] = set()
        todo = [v for field, value in ast.iter_fields(node) if field not in (*_BLOCKS, "handlers")
                for v in (value if isinstance(value, list) else [value]) if isinstance(v, ast.AST)]
        while todo:
            part = todo.pop()
            if isinstance(part, OWN_SCOPE):
                inside = {n.id for n in walked(part) if isinstance(n, ast.Name)}
                self.unsure |= inside
                names |= inside  # a comprehension's `:=` sets a name of the function
                continue
            if isinstance(part, ast.Name):
                if isinstance(part.ctx, ast.Load):
                    if part.id.startswith(TEMP):
                        self.reads.setdefault(part.id, []).append((part, stmt))
                else:
                    names.add(part.id)
            elif isinstance(part, (ast.Global, ast.Nonlocal)):
                names |= set(part.names)
            elif isinstance(part, ast.alias):
                names.add((part.asname or part.name).split(".")[0])
            todo += [v for _, value in ast.iter_fields(part)
                     for v in (value if isinstance(value, list) else [value]) if isinstance(v, ast.AST)]
        return names

    def _stores(self, node: ast.AST) -> set[str]:
        """The names a statement sets anywhere below it (more than it may: a comprehension's own too)."""
        return self.stored[id(node)]

    def _head_stores(self, owner: ast.AST) -> set[str]:
        """The names a compound statement's own parts (its test, its loop's target and source …) set."""
        return {n.id for field, v in ast.iter_fields(owner) if field not in (*_BLOCKS, "handlers")
                for part in (v if isinstance(v, list) else [v]) if isinstance(part, ast.AST)
                for n in walked(part) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}

    def _setter(self, name: str, stmt: ast.stmt) -> Optional[ast.stmt]:
        """The statement whose value of `name` a read in `stmt` (its innermost statement) sees for sure: the
        assignment before it in its list or a list around it, nothing between setting the name (a loop's earlier
        rounds included), or a `for` over it; None where that is not sure."""
        if name in self._stores(stmt):
            return None
        while True:
            block, i, owner, field = self.place[id(stmt)]
            for before in reversed(block[:i]):
                if isinstance(before, ast.Assign) and len(before.targets) == 1 and \
                        isinstance(before.targets[0], ast.Name) and before.targets[0].id == name:
                    sets = any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                               for n in walked(before.value))
                    return None if sets else before
                if name in self._stores(before):
                    return None
            if isinstance(owner, ast.For) and field == "body" and isinstance(owner.target, ast.Name) \
                    and owner.target.id == name:
                return owner
            if isinstance(owner, (ast.For, ast.While)) and field == "body":
                if any(name in self._stores(s) for s in block):
                    return None
            elif not (isinstance(owner, ast.If) or isinstance(owner, (ast.Try, ast.With)) and field == "body"):
                return None
            if name in self._head_stores(owner):
                return None
            stmt = cast(ast.stmt, owner)

    def forward(self) -> None:
        """Drops each copy whose temporary is settled at every read (_setter), its reads made reads of the copied
        local or constant, where nothing between sets that local again."""
        settled: dict[int, list[tuple[ast.Name, ast.stmt]]] = {}
        for name, reads in self.reads.items():
            setters = [self._setter(name, stmt) for _, stmt in reads]
            if name in self.unsure or any(s is None for s in setters):
                continue
            for read, setter in zip(reads, setters):
                settled.setdefault(id(setter), []).append(read)
        swap: dict[int, ast.expr] = {}
        for stmt_id, reads in settled.items():
            block, i, _, _ = self.place[stmt_id]
            copy = block[i]
            if not isinstance(copy, ast.Assign) or len(block) < 2 or not self._copied(copy.value):
                continue
            last = max(self._index_in(block, stmt) for _, stmt in reads)
            if isinstance(copy.value, ast.Name) and any(copy.value.id in self._stores(s) for s in block[i + 1:last + 1]):
                continue
            for node, _ in reads:
                swap[id(node)] = ast.copy_location(type(copy.value)(**dict(ast.iter_fields(copy.value))), node)
            block.remove(copy)
            for j, moved in enumerate(block[i:], i):  # the statements after it lie one place up
                self.place[id(moved)] = (block, j, *self.place[id(moved)][2:])
        if swap:
            _Swapped(swap).visit(self.fn)

    def _copied(self, value: ast.expr) -> bool:
        """Whether value is a local of the function (not one a scope of its own reads) or a constant."""
        if isinstance(value, ast.Constant):
            return value.value is None or type(value.value) in (int, str, float, bool)
        return isinstance(value, ast.Name) and value.id in self.locals and value.id not in self.unsure

    def _index_in(self, block: list[ast.stmt], stmt: ast.stmt) -> int:
        """The index in block of the statement that is stmt or holds it."""
        node: ast.AST = stmt
        while True:
            held, i, owner, _ = self.place[id(node)]
            if held is block:
                return i
            node = owner


class _Swapped(ast.NodeTransformer):
    """Each read of a dropped copy's temporary replaced by what the copy read (by the read's node)."""

    def __init__(self, swap: dict[int, ast.expr]) -> None:
        self.swap = swap

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.swap.get(id(node), node)
