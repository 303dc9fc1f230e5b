"""A loop that logs (a card move's or a payment's entry, blocks.logged) tests the state's log flag, hoisted as
`_s_keep_log`, once per entry logged. The flag is the same all through the loop (a local set once, before it), so
the loop is written twice under one test of it, each copy with the flag's value put in and its tests folded: one
test per loop, not two or three bytecodes per entry (State.keep_log)."""
from __future__ import annotations

import ast
import copy
from typing import cast

from interpreter.compile.astwalk import OWN_SCOPE, walked

FLAG = "_s_keep_log"  # the local a generated function reads the state's keep_log into (hoist)
_LARGEST = 800  # nodes of a loop that may be written twice (a longer one keeps its tests)
_BLOCKS = ("body", "orelse", "finalbody")


def flag_unswitched(tree: ast.AST) -> None:
    """Each function below tree with its outermost loops that read the flag written twice (module docstring)."""
    for fn in walked(tree):
        if isinstance(fn, ast.FunctionDef):
            _unswitch_in(fn)


def _unswitch_in(node: ast.AST) -> None:
    """The loops in node's own statement lists (not a nested function's), each list changed in place."""
    for owner in [node, *getattr(node, "handlers", [])]:
        for field in _BLOCKS:
            block = getattr(owner, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if isinstance(stmt, ast.For) and _reads_flag(stmt):
                    block[i] = _written_twice(stmt)
                elif not isinstance(stmt, ast.FunctionDef):
                    _unswitch_in(stmt)


def _reads_flag(loop: ast.For) -> bool:
    """Whether the loop reads the flag in its own scope, sets it nowhere, stops nowhere (a generator's yield) and
    is short enough to be written twice."""
    nodes = walked(loop)
    if len(nodes) > _LARGEST:
        return False
    reads = False
    for node in nodes:
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.FunctionDef, *OWN_SCOPE)):
            return False
        if isinstance(node, ast.Name) and node.id == FLAG:
            if not isinstance(node.ctx, ast.Load):
                return False
            reads = True
    return reads


def _written_twice(loop: ast.For) -> ast.If:
    """`if FLAG: <loop, FLAG true> else: <loop, FLAG false>`, on the loop's line."""
    test = ast.copy_location(ast.Name(FLAG, ast.Load()), loop)
    twice = ast.If(test, [_Folded(True).visit(copy.deepcopy(loop))], [_Folded(False).visit(copy.deepcopy(loop))])
    return ast.copy_location(twice, loop)


class _Folded(ast.NodeTransformer):
    """A copy of a loop with the flag's value put in: `x if FLAG else y` as x or y, `if FLAG:` as its branch."""

    def __init__(self, value: bool) -> None:
        self.value = value

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        if isinstance(node.test, ast.Name) and node.test.id == FLAG:
            return cast(ast.AST, self.visit(node.body if self.value else node.orelse))
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        if isinstance(node.test, ast.Name) and node.test.id == FLAG:
            kept: list[ast.stmt] = []
            for stmt in node.body if self.value else node.orelse:
                done = self.visit(stmt)
                kept += done if isinstance(done, list) else [done]
            return kept or [ast.copy_location(ast.Pass(), node)]
        return self.generic_visit(node)
