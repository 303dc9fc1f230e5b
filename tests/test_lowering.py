"""Generated expressions with their list comprehensions run as loops (compile/lowering.py): the same values,
the same short-circuits and the same first error as the expression as written."""
from __future__ import annotations

import ast
from typing import Any

import pytest

from interpreter.compile.lowering import function_source

CASES = [
    "[x * 2 for x in xs if x > a]",
    "len([x for x in xs if x != a]) + (0 if not xs else [y for y in xs][0])",
    "(1 / a if a else [x for x in xs]) or [x for x in xs if x]",
    "a and [x for x in xs] and [1 / x for x in xs]",
    "a or [1 / x for x in xs]",
    "sum([x * y for x in xs if x for y in xs if y > x])",
    "[[y for y in xs if y < x] for x in xs]",
    "any([x > a for x in xs]) and max([1 / (x - a) for x in xs])",
    "f(a, [x for x in xs], 1 / a)",
    "(a, [x for x in xs])[1] if a < 3 else [x for x in [x for x in xs] if x]",
    "[x for x in xs if [x for x in xs if x == a]]",
]
INPUTS = [([], 0), ([1, 2, 3], 0), ([1, 2, 3], 2), ([0, 2], 1), ([3, 1, 2], 3)]


def outcome(fn: Any, xs: list[int], a: int) -> Any:
    calls: list[Any] = []

    def f(*args: Any) -> Any:
        calls.append(args)
        return len(args)

    try:
        return fn(xs, a, f), calls
    except ZeroDivisionError as exc:
        return type(exc), calls


@pytest.mark.parametrize("src", CASES)
def test_lowered_function_gives_what_the_expression_gives(src: str) -> None:
    made: dict[str, Any] = {}
    code = function_source("xs, a, f", src)
    exec(code, {}, made)  # noqa: S102 - the code under test
    written = eval(f"lambda xs, a, f: {src}")  # noqa: S307 - the expression under test
    for xs, a in INPUTS:
        assert outcome(made["_fn"], xs, a) == outcome(written, xs, a), (src, xs, a)


def test_comprehensions_become_loops() -> None:
    code = function_source("xs, a", "len([x for x in xs if x > a]) if a else [x for x in xs]")
    tree = ast.parse(code)
    assert not any(isinstance(n, ast.ListComp) for n in ast.walk(tree))
    assert sum(isinstance(n, ast.For) for n in ast.walk(tree)) == 2


def test_a_comprehension_inside_one_with_its_variable_keeps_its_scope() -> None:
    code = function_source("xs", "[[x for x in xs] for x in xs]")
    tree = ast.parse(code)
    assert sum(isinstance(n, ast.ListComp) for n in ast.walk(tree)) == 1


def test_expression_without_comprehension_is_returned_as_written() -> None:
    assert function_source("st, L", "L[0] + 1") == "def _fn(st, L):\n    return L[0] + 1"
