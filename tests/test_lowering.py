"""Generated expressions with their list comprehensions run as loops (compile/lowering.py): the same values,
the same short-circuits and the same first error as the expression as written."""
from __future__ import annotations

import ast
from typing import Any

import pytest

from interpreter.compile.lowering import (
    frame_as_locals,
    function_source,
    loop_slots_as_locals,
    lowered_code,
    lowered_function,
)
from interpreter.compile.statements import _loop_variable

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
    "all([1 / x > a for x in xs]) or any([all([y for y in xs if y < x]) for x in xs])",
    "[len([x for x in xs if x > a]) + x for x in xs] + [len([y for y in xs if y])]",
    "any([x == a for x in xs] if xs else []) or all([len(xs) > x for x in xs if x != a] if xs else [])",
    "any([x > a for x in xs if f(x)]) and all([x < a and 1 / (x - a) for x in xs] if xs else [])",
    "(h := sum([x for x in xs if x > a])) + h",  # a value kept once computed (hoist.py)
    "a if a > 2 else (h := [1 / x for x in xs]) and len(h)",
    "[x for x in xs if x in [abs(y - a) for y in xs if y > a]] + [len([y for y in xs if y > x]) + x for x in xs]",
    "[len(t := [y for y in xs if y > x]) + len(t) for x in xs] if a else (u := [x for x in xs if x]) + u",
    "[x for x in xs if any([(y > a) == (x > 1) for y in xs] if xs else [])] + [x for x in xs if any([x == y for y in xs])]",
    "[x for x in xs if any([1 / y == x for y in xs])] + [x for x in xs if any([y == 1 / x for y in xs])]",
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


def test_a_sum_adds_its_items_as_they_come() -> None:
    tree = ast.parse(function_source("xs, a", "sum([x * a for x in xs if x])"))
    assert not any(isinstance(n, (ast.ListComp, ast.Call)) for n in ast.walk(tree))  # no list, no call of sum


def test_a_kept_value_is_computed_by_loops() -> None:
    code = function_source("xs, a", "h if a else (h := sum([x for x in xs]))")
    assert not any(isinstance(n, ast.ListComp) for n in ast.walk(ast.parse(code)))


def test_any_and_all_stop_at_the_answer_only_where_the_items_left_cannot_fail() -> None:
    pure = ast.parse(function_source("xs, a", "any([x == a for x in xs] if xs else []) and all([len(xs) > x for x in xs])"))
    assert not any(isinstance(n, (ast.ListComp, ast.IfExp)) for n in ast.walk(pure))
    assert sum(isinstance(n, ast.Break) for n in ast.walk(pure)) == 2
    for src in ("any([1 / x == a for x in xs])", "all([f(x) for x in xs])", "any([x == y for x in xs for y in xs])"):
        assert not any(isinstance(n, ast.Break) for n in ast.walk(ast.parse(function_source("xs, a, f", src)))), src


def test_a_comprehension_inside_one_with_its_variable_keeps_its_scope() -> None:
    code = function_source("xs", "[[x for x in xs] for x in xs]")
    tree = ast.parse(code)
    assert sum(isinstance(n, ast.ListComp) for n in ast.walk(tree)) == 1


def test_expression_without_comprehension_is_returned_as_written() -> None:
    assert function_source("st, L", "L[0] + 1") == "def _fn(st, L):\n    return L[0] + 1"


FUNCTION = """def run(xs, a):
    out = []
    try:
        for x in [y for y in xs if y != a]:
            if x > 1 and len([y for y in xs if y < x]) > 1:
                out.append([y * x for y in xs])
            else:
                out += [x]
        n = 0
        while [y for y in xs if y > n]:
            n += 1
    except ZeroDivisionError:
        return [1 / y for y in xs if y]
    return out, n, [1 / (x - a) for x in xs]
"""


def test_lowered_statements_do_what_they_did() -> None:
    written: dict[str, Any] = {}
    made: dict[str, Any] = {}
    exec(FUNCTION, {}, written)  # noqa: S102 - the code under test
    code = lowered_function(FUNCTION)
    exec(code, {}, made)  # noqa: S102 - the code under test
    tree = ast.parse(code)
    whiles = [n for n in ast.walk(tree) if isinstance(n, ast.While)]
    assert sum(isinstance(n, ast.ListComp) for n in ast.walk(tree)) == 1 == len(whiles)
    assert isinstance(whiles[0].test, ast.ListComp)  # tested again each round: left as written
    for xs, a in INPUTS:
        assert outcome(lambda xs, a, f: made["run"](xs, a), xs, a) \
            == outcome(lambda xs, a, f: written["run"](xs, a), xs, a), (xs, a)


def test_source_python_would_refuse_lowered_stays_as_written() -> None:
    deep = "x"
    for k in range(25):  # each level a loop inside the last: more nested blocks than Python allows
        deep = f"[{deep} for x{k} in xs if [x for x in xs]]"
    src = f"def run(xs, x):\n    return {deep}\n"
    assert lowered_function(src) == src
    assert function_source("xs, x", deep) == f"def _fn(xs, x):\n    return {deep}"


def test_a_search_the_loop_does_not_change_is_made_once_at_its_first_use() -> None:
    calls: list[Any] = []

    def search(*args: Any) -> list[int]:
        calls.append(args)
        return [2, 3]

    made: dict[str, Any] = {}
    exec(function_source("xs, a", "[x for x in xs if x in _frontier(a, 0, xs)] + [x for x in xs if x in _within(a, x, 1, xs)]"),
         {"_frontier": search, "_within": search}, made)  # noqa: S102 - the code under test
    assert made["_fn"]([1, 2, 3], 7) == [2, 3, 2, 3]
    assert calls == [(7, 0, [1, 2, 3])] + [(7, x, 1, [1, 2, 3]) for x in (1, 2, 3)]  # _within reads x: each round
    calls.clear()
    assert made["_fn"]([], 7) == [] and calls == []  # no round, no search


def test_an_any_that_compares_its_items_with_the_loops_variable_searches_one_list_made_once() -> None:
    """`any(f(y) == x for y in ys)` in a loop over x: `x in [f(y) for y in ys]`, that list made at its first use."""
    tree = ast.parse(function_source("xs, a", "[x for x in xs if any([(y > a) == x for y in xs])]"))
    assert sum(isinstance(n, ast.For) for n in ast.walk(tree)) == 2 and not any(isinstance(n, ast.Break) for n in ast.walk(tree))
    assert any(isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.In) for n in ast.walk(tree))
    for src in ("[x for x in xs if any([1 / y == x for y in xs])]", "[x for x in xs if any([y == x for y in xs if y])]"):
        assert not any(isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.In)
                       for n in ast.walk(ast.parse(function_source("xs, a", src)))), src


def test_a_comprehension_reads_the_frame_slots_once_before_its_loops() -> None:
    """An expression sets no slot of its frame `L`: those a comprehension's items, conditions and inner loops read
    are read once, before its loops, with the same values."""
    src = "[x * L[1] for x in xs if x > L[0]] + [len([y for y in xs if y < L[0]]) + L[2] for x in xs]"
    made: dict[str, Any] = {}
    code = function_source("xs, L", src)
    exec(code, {}, made)  # noqa: S102 - the code under test
    written = eval(f"lambda xs, L: {src}")  # noqa: S307 - the expression under test
    for xs, a in INPUTS:
        assert made["_fn"](xs, [a, a + 1, 2 * a]) == written(xs, [a, a + 1, 2 * a]), (xs, a)
    loops = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.For)]
    assert loops and not any(isinstance(n, ast.Subscript) and ast.unparse(n).startswith("L[") for loop in loops
                             for n in ast.walk(loop))


def test_a_runner_goes_over_a_family_of_few_zones_zone_by_zone_and_else_over_its_kept_list() -> None:
    """lowered_code (a block runner's): a comprehension over a family's cards reads the family's zones one by one
    where the family has few zones (a move drops its kept list), else the list the state keeps of it."""
    src = "def run(st, L):\n    return [c for c in _s_fam_cards.get(1) or _famcards(st, 1) if c != L[0]]\n"
    env: dict[str, Any] = {"_s_zones": [[9], [1, 2], [], [3]], "_g_fam_zones": [[0], [1, 2, 3]], "_s_fam_cards": {}}
    built: list[int] = []
    env["_famcards"] = lambda st, fam: built.append(fam) or [3, 2, 1]
    exec(lowered_code(src), env)  # noqa: S102 - the code under test
    env["_g_fam_few"] = [True, True]
    assert env["run"](None, [2]) == [1, 3] and built == []
    env["_g_fam_few"] = [True, False]
    assert env["run"](None, [2]) == [3, 1] and built == [1]
    env["_s_fam_cards"][1] = [1, 3]
    assert env["run"](None, [2]) == [1, 3] and built == [1]


IFS_ON_ANY = '''
def run(xs, a):
    out = []
    for k in range(3):
        b = a + k
        if all([x != b for x in xs]):
            out.append(("all", k))
        if any([x == b for x in xs]):
            out.append(("any", k))
        else:
            out.append(("none", k))
        if not any([x > b for x in xs]):
            out.append(("not any", k))
        elif a:
            out.append(("elif", k))
        if any([x == k for x in xs]):
            continue
        out.append(("end", k))
    return out
'''


def test_an_if_on_any_or_all_is_the_loop_that_settles_it() -> None:
    """`if any(…)`/`if all(…)`: the branch taken at the loop's break runs there, the other in its `else`; no truth
    value kept, unless the branch at the break would `continue` (or break) the loop around it."""
    written: dict[str, Any] = {}
    made: dict[str, Any] = {}
    exec(IFS_ON_ANY, {}, written)  # noqa: S102 - the code under test
    code = lowered_function(IFS_ON_ANY)
    exec(code, {}, made)  # noqa: S102 - the code under test
    for xs, a in INPUTS:
        assert made["run"](xs, a) == written["run"](xs, a), (xs, a)
    loops = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.For) and n.orelse]
    assert len(loops) == 3  # the last `if` continues the loop around it: a truth value kept


def test_a_loop_that_runs_through_sets_a_local_unless_its_body_hands_the_frame_on() -> None:
    """Its variable's scope ends with the loop: the frame slot is left as it was (a saved state shows the same in a run
    op by op), where the body reads the frame slot by slot only and no message reads the variable."""
    item, body = _loop_variable(1, ["L[2] = L[2] + L[1] * L[1]", "if L[1] > 9:", "    raise E('too big')"])
    assert item == "_l1" and body == ["L[2] = L[2] + _l1 * _l1", "if _l1 > 9:", "    raise E('too big')"]
    made: dict[str, Any] = {}
    exec("\n".join(["def run(L, xs):", f"    for {item} in xs:", *("        " + ln for ln in body)]), {}, made)  # noqa: S102
    frame = [0, None, 5]
    made["run"](frame, [1, 2, 3])
    assert frame == [0, None, 19]
    for passes_on in (["st.f(fr)", "L[2] = L[1]"], ["_f(st, L)"], ["raise E(f'at {L[1]}')"]):
        assert _loop_variable(1, passes_on) == ("L[1]", passes_on)


def test_a_function_whose_frame_is_dropped_holds_its_slots_in_locals() -> None:
    src = ("def run(st, L):\n    try:\n        L[2] = L[0] + L[0] + L[0]\n    except E as e:\n        raise e\n"
           "    for L[3] in L[1]:\n        L[2] += L[3]\n    return L[2], L[1]\n")
    code = frame_as_locals(src)
    made: dict[str, Any] = {}
    exec(code, {"E": ValueError}, made)  # noqa: S102 - the code under test
    assert made["run"](None, [2, [1, 2], None, None]) == (9, [1, 2])
    assert code.count("L[") == 3  # L[0] read once as it starts, L[1] (used twice) where it was
    passed_on = src.replace("return L[2], L[1]", "return f(L)")
    assert frame_as_locals(passed_on) == passed_on


def test_a_runner_updates_a_slot_or_field_plainly_and_enters_a_try_if_or_while_true_without_a_nop() -> None:
    src = ("def run(st, L, k):\n    try:\n        L[k] += 2\n        st.n -= L[k]\n        L[k] += (k := 0)\n"
           "    except ValueError:\n        raise\n    while True:\n        if True:\n            return L, st.n\n"
           "        else:\n            return None\n")
    made: dict[str, Any] = {}
    code = lowered_code(src)
    exec(code, {}, made)  # noqa: S102 - the code under test
    st = type("St", (), {"n": 10})()
    assert made["run"](st, [1, 2], 1) == ([1, 4], 6)
    ops = [i.opname for c in code.co_consts if hasattr(c, "co_code") for i in __import__("dis").get_instructions(c)]
    assert "NOP" not in ops and ops.count("SWAP") == 2  # the update whose value sets k keeps its form


RUNNER = """
def run(st, fr):
    _, pc, L = fr
    while True:
        if L[0] >= 3:
            return None
        st.pending = (0, L[0], None, [L[0] + 10, L[0] + 20], 1)
        fr[1] = 2
        yield True
        st.seen.append((L[0], L[1] - L[1] // 2))
        L[0] += 1
"""


def _runner_made(src: str) -> tuple[Any, str]:
    tree = ast.parse(src)
    loop_slots_as_locals(tree)
    made: dict[str, Any] = {}
    exec(compile(ast.fix_missing_locations(tree), "<runner>", "exec"), {}, made)  # noqa: S102 - the code under test
    return made["run"], ast.unparse(tree)


def test_a_runner_loop_keeps_a_slot_it_reads_in_a_local_but_not_one_its_stop_fills() -> None:
    run, code = _runner_made(RUNNER)
    assert "_f0 = L[0]" in code and "L[0] = _f0 = _f0 + 1" in code and "_f1" not in code
    assert code.count("fr[1] = 2") == 1 and code.index("fr[1] = 2") < code.index("while True")  # one step: set once
    st = type("St", (), {})()
    st.seen = []
    fr = [0, 0, [0, None]]
    for _ in run(st, fr):  # each step's outcome goes into the slot the node names, as State.apply_action does
        fr[2][st.pending[4]] = st.pending[3][1]
    assert st.seen == [(0, 10), (1, 11), (2, 11)] and fr[2] == [3, 22]


def test_a_runner_loop_counts_no_read_of_an_inner_loops_rounds_entered_past_its_first_arm() -> None:
    """An inner loop's rounds entered past its first arm (`while pc > k:`, blocks._loop) run once an entry at most:
    their reads make no slot worth a local read at every entry of the loop around them (a runner entered often that
    leaves it at once); a slot that is read often enough elsewhere is read through the local there too."""
    inner = ("        while pc > 4:\n            st.seen.append(L[2] + L[2] + L[0])\n            pc = 3\n            continue\n"
             "        else:\n            while True:\n                st.seen.append(L[2])\n                break\n")
    run, code = _runner_made(RUNNER.replace("        L[0] += 1\n", "        L[0] += 1\n" + inner))
    assert "_f2" not in code and "st.seen.append(L[2] + L[2] + _f0)" in code
    st = type("St", (), {})()
    st.seen = []
    fr = [0, 5, [0, None, 1]]
    for _ in run(st, fr):
        fr[2][st.pending[4]] = st.pending[3][1]
    assert st.seen == [(0, 10), 3, 1, (1, 11), 1, (2, 11), 1] and fr[2] == [3, 22, 1]
    _, counted = _runner_made(RUNNER.replace("        L[0] += 1\n", "        L[0] += 1\n" + inner.replace("pc > 4", "pc")))
    assert "_f2 = L[2]" in counted


@pytest.mark.parametrize("handed", ["_o1(st, fr)", "f(L)"])
def test_a_runner_loop_that_hands_its_frame_on_keeps_its_slots_in_the_frame(handed: str) -> None:
    _, code = _runner_made(RUNNER.replace("        L[0] += 1", f"        L[0] += 1\n        {handed}"))
    assert "_f0" not in code


def test_a_runner_loop_that_stops_at_two_steps_sets_each_where_it_stops() -> None:
    run, code = _runner_made(RUNNER.replace("        L[0] += 1", "        L[0] += 1\n        if L[0] == 2:\n"
                                                                 "            fr[1] = 4\n            yield True"))
    assert code.index("fr[1] = 2") > code.index("while True")
    st = type("St", (), {})()
    st.seen = []
    fr = [0, 0, [0, None]]
    steps = []
    for _ in run(st, fr):
        steps.append(fr[1])
        fr[2][st.pending[4]] = st.pending[3][1]
    assert steps == [2, 2, 4, 2]


def test_a_list_searched_by_each_of_constant_items_is_made_before_their_loop() -> None:
    """`[x for x in [a, b, …] if any(f(y) == x for y in ys)]`: the first round makes the list of the f(y) in any case,
    so it is made before the loop, with no test in each round of whether it is made yet; the same items, and the same
    first error. Items that are not constants keep the test."""
    for src, before in (("[x for x in [3, 1, 2, 7] if any([y == x for y in xs])]", True),
                        ("[x for x in [0, 1, 2] if any([(y > a) == x for y in xs])]", True),
                        ("[x for x in [1, 2] if x in [1 / y for y in xs]]", True),
                        ("[x for x in [a, 1] if any([y == x for y in xs])]", False)):
        code = function_source("xs, a", src)
        tested = any(isinstance(n, ast.Compare) and isinstance(n.ops[0], (ast.Is, ast.IsNot)) for n in ast.walk(ast.parse(code)))
        assert tested != before, src
        made: dict[str, Any] = {}
        exec(code, {}, made)  # noqa: S102 - the code under test
        written = eval(f"lambda xs, a: {src}")  # noqa: S307 - the expression under test
        for xs, a in INPUTS:
            assert outcome(lambda xs, a, f: made["_fn"](xs, a), xs, a) == outcome(lambda xs, a, f: written(xs, a), xs, a), src


def test_a_test_of_a_length_against_0_tests_what_is_measured() -> None:
    """`if len(x) > 0`, `!= 0`, `== 0` (also under `not`, `and`, `or`, in a `while` or an `x if … else y`) test x itself:
    no call of len; a length compared with anything else, or a length as a value, stays."""
    src = ("def run(xs, ys):\n    out = []\n    if not len(xs) > 0 or len(ys) == 0:\n        out.append(1)\n"
           "    while len(ys) != 0 and len(xs) > 0:\n        ys = list(ys)\n        ys.pop()\n        out.append(2)\n"
           "    out.append(3 if len(xs) == 0 else 4)\n    if len(xs) > 1:\n        out.append(5)\n"
           "    out.append(len(ys) > 0)\n    return out\n")
    made: dict[str, Any] = {}
    code = lowered_code(src)
    exec(code, {}, made)  # noqa: S102 - the code under test
    written: dict[str, Any] = {}
    exec(src, {}, written)  # noqa: S102 - the code as written
    for xs, ys in (([], []), ([1], []), ([], [1, 2]), ([1, 2], [3, 4]), ("ab", {1: 2})):
        assert made["run"](xs, ys) == written["run"](xs, ys), (xs, ys)
    names = [i.argval for c in code.co_consts if hasattr(c, "co_code") for i in __import__("dis").get_instructions(c)]
    assert names.count("len") == 2  # `len(xs) > 1` and the value `len(ys) > 0`
