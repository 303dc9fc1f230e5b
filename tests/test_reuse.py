"""reuse: a value generated code computes again is read from its first computation, and a loop's fixed values are
computed before it, only where nothing in between can change them; the results stay the same."""
import ast
import textwrap
from typing import Any, Callable

import pytest

from interpreter.compile.reuse import loops_hoisted, values_reused


def _changed(src: str, rewrite: Callable[[ast.FunctionDef], bool]) -> tuple[bool, str]:
    tree = ast.parse(textwrap.dedent(src))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    changed = rewrite(func)
    return changed, ast.unparse(tree)


def _run(src: str, *args: Any) -> Any:
    ns: dict[str, Any] = {}
    exec(src, ns)  # noqa: S102 - the test's own code
    return ns["f"](*args)


VALS = [[7, "small"], [9, "large"], [7, "large"]]


def test_a_value_computed_again_after_its_first_computation_is_read_from_a_local() -> None:
    src = """
    def f(vals, c, d):
        return vals[c][0] + vals[d][0] * vals[c][0] if vals[d][0] != 9 else 0
    """
    changed, out = _changed(src, values_reused)
    assert changed
    assert out.count("vals[c][0]") == 1 and "_rv1" in out
    for c, d in [(0, 2), (0, 1), (1, 0)]:
        assert _run(out, VALS, c, d) == _run(textwrap.dedent(src), VALS, c, d)


def test_a_value_first_computed_in_a_branch_is_not_read_after_it() -> None:
    src = """
    def f(vals, c, t):
        x = 0
        if t:
            x = vals[c][0] + 1
        return x + vals[c][0]
    """
    changed, out = _changed(src, values_reused)
    assert not changed
    assert _run(out, VALS, 0, False) == 7


@pytest.mark.parametrize("between", ["g(vals)", "vals[c] = [1, 'x']", "yield 1", "c = 2"])
def test_a_call_a_store_a_pause_or_a_name_set_in_between_ends_what_was_kept(between: str) -> None:
    src = f"""
    def f(vals, c, g):
        x = vals[c][0] + 1
        {between}
        return x + vals[c][0]
    """
    changed, out = _changed(src, values_reused)
    assert not changed, out


def test_a_list_the_function_changes_in_place_is_not_kept() -> None:
    src = """
    def f(vals, c):
        got = [[1, 2]]
        x = got[0][1] + vals[c][0]
        got.append([3, 4])
        got[0] = [5, 6]
        return x + got[0][1] + vals[c][0]
    """
    changed, out = _changed(src, values_reused)
    assert out.count("got[0][1]") == 2
    assert _run(out, VALS, 0) == _run(textwrap.dedent(src), VALS, 0) == 2 + 7 + 6 + 7


def test_a_failing_helpers_position_does_not_keep_equal_values_apart() -> None:
    src = """
    def f(vals, c):
        return _member(vals, c, _at1)[0] + _member(vals, c, _at2)[0]
    """
    changed, out = _changed(src, values_reused)
    assert changed and out.count("_member(") == 1


def test_a_loops_fixed_value_is_computed_once_before_it() -> None:
    src = """
    def f(vals, zones, me):
        out = []
        for c in zones[0]:
            if vals[c][0] == vals[me][0]:
                out.append(c)
        return out
    """
    changed, out = _changed(src, loops_hoisted)
    assert changed
    assert out.index("_rv1 = vals[me][0]") < out.index("for c in")
    assert out.count("vals[me][0]") == 1
    assert _run(out, VALS, [[0, 1, 2]], 0) == _run(textwrap.dedent(src), VALS, [[0, 1, 2]], 0) == [0, 2]


@pytest.mark.parametrize("loop, call", [("zones[0]", "g(c)"), ("made", "n += 0")])
def test_a_loop_that_calls_what_may_change_the_state_or_runs_over_a_local_keeps_its_values_inside(
        loop: str, call: str) -> None:
    src = f"""
    def f(vals, zones, me, g):
        made = [0, 1]
        n = 0
        for c in {loop}:
            {call}
            if vals[c][0] == vals[me][0]:
                n += 1
        return n
    """
    changed, out = _changed(src, loops_hoisted)
    assert not changed, out


def test_a_value_in_a_branch_of_the_loops_body_stays_there() -> None:
    src = """
    def f(vals, zones, me):
        n = 0
        for c in zones[0]:
            if c > 5:
                n += vals[me][0] + 0
        return n
    """
    changed, out = _changed(src, loops_hoisted)
    assert not changed, out
