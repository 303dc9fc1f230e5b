"""A loop that tests a flag it cannot change per card (the hoisted log flag, a field's modifiers) is written twice
under one test of it (compile/unswitch.py): each copy with the flag's value put in, the same entries logged and values
read; loops it cannot be sure of keep their tests."""
from __future__ import annotations

import ast
import textwrap

import pytest

from interpreter.compile.unswitch import flags_unswitched
from test_copies import run

MOVES = """
def f(st, cards, known):
    _s_keep_log = st.keep_log
    _s_log = st.log
    for c in cards:
        try:
            if known[c]:
                known[c] = 0
                _s_log.append(('seen', c) if _s_keep_log else ())
            elif _s_keep_log:
                _s_log.append(('moved', c))
            else:
                _s_log.append(())
        except KeyError:
            raise
    return _s_log
"""


def unswitched(src: str) -> str:
    tree = ast.parse(textwrap.dedent(src))
    flags_unswitched(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


class Log:
    def __init__(self, keep: bool) -> None:
        self.keep_log, self.log = keep, []


def test_a_loop_logging_each_card_tests_the_flag_once_and_logs_the_same() -> None:
    out = unswitched(MOVES)
    body = ast.parse(out).body[0].body  # type: ignore[attr-defined]
    assert isinstance(body[2], ast.If) and ast.unparse(body[2].test) == "_s_keep_log"
    assert all(isinstance(s, ast.For) for s in (*body[2].body, *body[2].orelse))
    assert out.count("_s_keep_log") == 2  # the hoisting and the one test: none inside either loop
    assert "_s_log.append(('moved', c))" in ast.unparse(body[2].body[0]) and "()" not in ast.unparse(body[2].body[0])
    assert "'moved'" not in ast.unparse(body[2].orelse[0]) and "'seen'" not in ast.unparse(body[2].orelse[0])
    for keep in (True, False):
        before, after = {1: 0, 2: 5, 3: -1}, {1: 0, 2: 5, 3: -1}
        assert run(out, Log(keep), [1, 2, 3], after) == run(textwrap.dedent(MOVES), Log(keep), [1, 2, 3], before)
        assert after == before


@pytest.mark.parametrize("change", [
    ("    for c in cards:\n", "    for c in cards:\n        _s_keep_log = c > 1\n"),  # set in the loop
    ("            raise\n", "            raise\n        yield c\n"),  # a generator's stop: resumed later
    ("_s_log.append(('moved', c))", "_s_log.append([lambda: ('moved', c, _s_keep_log)][0]())"),  # another scope
    ("            else:\n", "            elif c:\n" + "                x = [1, 2, 3]\n" * 150 + "            else:\n"),  # too long
])
def test_a_loop_the_flag_may_change_in_or_too_long_keeps_its_tests(change: tuple[str, str]) -> None:
    src = MOVES.replace(*change)
    assert src != MOVES
    out = unswitched(src)
    assert out == ast.unparse(ast.parse(src))


FIELD = """
def f(st, cards, vals, _through):
    total = 0
    for c in cards:
        try:
            total += vals[c][2] if 2 not in st.modded else _through(st, c, 2, 'monster')
        except KeyError:
            raise
    return total
"""


class Mods:
    def __init__(self, modded: frozenset[int]) -> None:
        self.modded = modded


def test_a_loop_reading_a_modifiable_field_tests_its_modifiers_once_and_reads_the_same() -> None:
    out = unswitched(FIELD)
    loop = ast.parse(out).body[0].body[1]  # type: ignore[attr-defined]
    assert isinstance(loop, ast.If) and ast.unparse(loop.test) == "2 not in st.modded"
    assert "modded" not in ast.unparse(loop.body[0]) + ast.unparse(loop.orelse[0])
    assert "_through" not in ast.unparse(loop.body[0]) and "vals[c]" not in ast.unparse(loop.orelse[0])

    def through(st: Mods, c: int, k: int, kind: str) -> int:
        return 10 * c
    vals = {1: [0, 0, 3], 2: [0, 0, 4]}
    for modded in (frozenset(), frozenset({2}), frozenset({1})):
        assert run(out, Mods(modded), [1, 2], vals, through) == run(FIELD, Mods(modded), [1, 2], vals, through)


@pytest.mark.parametrize("change", [
    ("            raise\n", "            raise\n        st.modded = st.modded | {2}\n"),  # a modifier added
    ("            raise\n", "            raise\n        _g_rules_0(st, [c])\n"),  # a rule: it may add one
    ("            raise\n", "            raise\n        _op7f3a(st, fr)\n"),  # an op: so may it
    ("total += vals[c][2] if 2 not in st.modded else _through(st, c, 2, 'monster')",  # read in some rounds only: the
     "total += c > 1 and (vals[c][2] if 2 not in st.modded else _through(st, c, 2, 'monster'))"),  # test may cost more
])
def test_a_loop_that_may_change_the_modifiers_tests_them_per_card(change: tuple[str, str]) -> None:
    src = FIELD.replace(*change)
    assert src != FIELD and unswitched(src) == ast.unparse(ast.parse(src))
