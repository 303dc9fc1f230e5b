"""A loop that tests the same flag for each card tests it once: the state's log flag, hoisted as `_s_keep_log`, at
each entry logged (a card move's or a payment's, blocks.logged), and `K not in st.modded` at each read of a
modifiable field (expressions: the field's value, or the modifiers' when one is active). Where the flag cannot
change in the loop (a local set once, before it; no modifier added or ended in it), the loop is written twice under
one test of it, each copy with the flag's value put in and its tests folded: one test per loop, not per card."""
from __future__ import annotations

import ast
import copy
from typing import Optional, cast

from interpreter.compile.astwalk import OWN_SCOPE, walked

LOG_FLAG = "_s_keep_log"  # the local a generated function reads the state's keep_log into (hoist)
_LARGEST = 800  # nodes of a loop that may be written twice (a longer one keeps its tests)
_BLOCKS = ("body", "orelse", "finalbody")
# what a loop may call and still keep the modifiers as they are: the engine's helpers that read a field through them,
# read a zone's end, a place or a map, build an error or fail, and the lists' and the family cache's upkeep
_KEEPS_MODS = frozenset(("_through", "_pick", "_member", "_mapget", "_over_budget", "GameRuleError", "len", "_famcards",
                         "append", "remove", "extend", "insert", "clear", "pop", "get", "copy", "at", "refile"))


def flags_unswitched(tree: ast.AST) -> None:
    """Each function below tree with its outermost loops that test a flag written twice (module docstring)."""
    for fn in walked(tree):
        if isinstance(fn, ast.FunctionDef):
            _unswitch_in(fn)


def _unswitch_in(node: ast.AST) -> None:
    """The loops in node's own statement lists (not a nested function's), each list changed in place; a loop
    written twice is looked at again in each copy, for another flag."""
    for owner in [node, *getattr(node, "handlers", [])]:
        for field in _BLOCKS:
            block = getattr(owner, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                flag = _steady_flag(stmt) if isinstance(stmt, ast.For) else None
                if flag is not None:
                    stmt = block[i] = _written_twice(cast(ast.For, stmt), flag)
                if not isinstance(stmt, ast.FunctionDef):
                    _unswitch_in(stmt)


def _is_flag(node: ast.AST) -> bool:
    """`_s_keep_log`, or `K not in st.modded` (K a field's number)."""
    if isinstance(node, ast.Name):
        return node.id == LOG_FLAG
    return (isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and len(node.ops) == 1
            and isinstance(node.ops[0], ast.NotIn) and ast.unparse(node.comparators[0]) == "st.modded")


def _steady_flag(loop: ast.For) -> Optional[ast.expr]:
    """A flag the loop tests and cannot change: nothing in it sets the log flag or `st.modded` or calls what
    might add or end a modifier (only _KEEPS_MODS, for `st.modded`, tested also where no expression of its own
    may skip it: _unguarded); none where it stops (a generator's yield), has a scope of its own or is too long to
    be written twice."""
    nodes = walked(loop)
    if len(nodes) > _LARGEST:
        return None
    tests: list[ast.expr] = []
    sets_log, mods_steady = False, True
    for node in nodes:
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.FunctionDef, *OWN_SCOPE)):
            return None
        if isinstance(node, (ast.IfExp, ast.If)) and _is_flag(node.test):
            tests.append(node.test)
        elif isinstance(node, ast.Name) and node.id == LOG_FLAG and not isinstance(node.ctx, ast.Load):
            sets_log = True
        elif isinstance(node, ast.Attribute) and node.attr == "modded" and not isinstance(node.ctx, ast.Load):
            mods_steady = False
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            mods_steady = mods_steady and name in _KEEPS_MODS
    eager = {id(node) for node in _unguarded(loop)}
    steady = [test for test in tests if (mods_steady and id(test) in eager if isinstance(test, ast.Compare)
                                         else not sets_log)]
    return steady[0] if steady else None


def _unguarded(node: ast.AST) -> list[ast.AST]:
    """node and the parts of it that no expression of its own may skip (a later operand of `and`/`or`, a branch
    of `x if c else y`): a modifiers test there may run in few rounds, fewer than the one test before the loop
    would cost."""
    out: list[ast.AST] = [node]
    if isinstance(node, ast.BoolOp):
        out += _unguarded(node.values[0])
    elif isinstance(node, ast.IfExp):
        out += _unguarded(node.test)
    else:
        for child in ast.iter_child_nodes(node):
            out += _unguarded(child)
    return out


def _written_twice(loop: ast.For, flag: ast.expr) -> ast.If:
    """`if FLAG: <loop, FLAG true> else: <loop, FLAG false>`, on the loop's line."""
    test = ast.copy_location(copy.deepcopy(flag), loop)
    key = ast.dump(flag)
    twice = ast.If(test, [_Folded(key, True).visit(copy.deepcopy(loop))], [_Folded(key, False).visit(copy.deepcopy(loop))])
    return ast.copy_location(twice, loop)


class _Folded(ast.NodeTransformer):
    """A copy of a loop with the flag's value put in: `x if FLAG else y` as x or y, `if FLAG:` as its branch."""

    def __init__(self, key: str, value: bool) -> None:
        self.key, self.value = key, value

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        if _is_flag(node.test) and ast.dump(node.test) == self.key:
            return cast(ast.AST, self.visit(node.body if self.value else node.orelse))
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        if _is_flag(node.test) and ast.dump(node.test) == self.key:
            kept: list[ast.stmt] = []
            for stmt in node.body if self.value else node.orelse:
                done = self.visit(stmt)
                kept += done if isinstance(done, list) else [done]
            return kept or [ast.copy_location(ast.Pass(), node)]
        return self.generic_visit(node)
