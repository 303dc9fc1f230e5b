"""A generated temporary's copy of a local or a constant dropped (compile/copies.py): its reads read what it
copied, and only where every read of it is sure to see the one assignment before it."""
from __future__ import annotations

import ast
import textwrap
from typing import Any

import pytest

from interpreter.compile.copies import copies_forwarded


def forwarded(src: str) -> str:
    tree = ast.parse(textwrap.dedent(src))
    copies_forwarded(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def run(src: str, *args: Any) -> Any:
    space: dict[str, Any] = {}
    exec(compile(src, "<test>", "exec"), space)
    return space["f"](*args)


def test_a_card_moves_copies_are_read_as_the_loop_local_and_the_bound_zone() -> None:
    src = """
    def f(cards, where, log, _g_zone=7):
        for _l3 in cards:
            try:
                _b_z = _g_zone
                _b_c = _l3
                _b_f = where[_b_c]
                where[_b_c] = _b_z
                if _b_f:
                    log.append((_b_c, _b_f, _b_z))
            except KeyError:
                raise
        return log
    """
    out = forwarded(src)
    assert "_b_c" not in out and "_b_z" not in out and "where[_l3] = _g_zone" in out
    assert "log.append((_l3, _b_f, _g_zone))" in out
    assert run(out, [1, 2], {1: 3, 2: 0}, []) == run(textwrap.dedent(src), [1, 2], {1: 3, 2: 0}, []) == [(1, 3, 7)]


def test_a_constant_copied_is_read_as_the_constant() -> None:
    out = forwarded("""
    def f(h):
        _b_n = 1
        if h < _b_n:
            raise ValueError(f'cannot pay {_b_n}')
        return h - _b_n
    """)
    assert "_b_n" not in out and "return h - 1" in out and run(out, 3) == 2


@pytest.mark.parametrize("src", [
    # the temporary set again in a branch: a later read may see either value
    """
    def f(a, b):
        _b_c = a
        if b:
            _b_c = b
        return _b_c
    """,
    # the copied local set again between the copy and a read
    """
    def f(a, b):
        _b_c = a
        a = b
        return _b_c
    """,
    # a read in a loop's body that an earlier round's assignment reaches
    """
    def f(a, xs):
        out = []
        _b_c = a
        for x in xs:
            out.append(_b_c)
            _b_c = x
        return out
    """,
    # a read in a handler, which may run after the body set it again
    """
    def f(a, b):
        try:
            _b_c = a
            _b_c = b + 1
        except TypeError:
            return _b_c
        return _b_c
    """,
    # a read in a comprehension (a scope of its own)
    """
    def f(a, xs):
        _b_c = a
        return [x + _b_c for x in xs]
    """,
    # a global is read by name, not copied (it may cost more to read than the local)
    """
    def f(a):
        _b_c = len
        return _b_c(a)
    """,
])
def test_a_copy_is_kept_where_a_read_might_see_another_value(src: str) -> None:
    assert forwarded(src) == ast.unparse(ast.parse(textwrap.dedent(src)))


def test_reads_after_a_loop_or_branch_that_does_not_set_the_temporary_read_the_copy() -> None:
    src = """
    def f(a, xs):
        out = []
        _b_c = a
        for x in xs:
            if x:
                out.append(_b_c + x)
        return out, _b_c
    """
    out = forwarded(src)
    assert "_b_c" not in out
    assert run(out, 2, [0, 1, 3]) == run(textwrap.dedent(src), 2, [0, 1, 3]) == ([3, 5], 2)

