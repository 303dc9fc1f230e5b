"""Rules files that never stop or ask for too much fail fast with a located error (issue 13): the
engine's run-time budgets, the load-time size caps and the refusal of files that are not plain files."""
from __future__ import annotations

import ast
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsl.errors import RulesError
from interpreter import load_game
from interpreter.cli import main
from interpreter.compile.budget import budget_kept_locally
from interpreter.compile.loading import load_program
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.limits import Limits

HEAD = """game probe {
  players 2 to 3
}
kind tok {
  field v: int
  id "t{v}"
}
cards tok in box {
  columns v
  row 1
}
zone box of tok public
var acc: int = 2
"""
REST = """action rest(x in [me]) {
  label "rest {x}"
}
"""
ONE_ROUND = """round {
  repeat while round < 1
  phase idle { }
}
score(p) = 0
"""


def write(tmp_path: Path, rules: str, *variants: tuple[str, str]) -> Path:
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(rules, encoding="utf-8")
    if variants:
        (folder / "variants").mkdir()
        for name, text in variants:
            (folder / "variants" / f"{name}.rules").write_text(text, encoding="utf-8")
    return folder


def game_of(tmp_path: Path, rules: str, limits: Limits) -> Game:
    program = load_program(str(write(tmp_path, rules)))
    return Game(program, 2, program.name, [], limits)


def where(rules: str, line_text: str, at: str) -> tuple[int, int]:
    """Line and column (from 1) of `at` in the first line of `rules` that starts with `line_text`."""
    lines = rules.split("\n")
    line = next(i for i, text in enumerate(lines) if text.startswith(line_text))
    return line + 1, lines[line].index(at) + 1


def run_error(tmp_path: Path, rules: str, limits: Limits, play: bool = False) -> GameRuleError:
    """The rules error of a fresh game (played on with the first option if `play`); it must come within
    seconds of CPU time (CPU, not wall-clock: the machine is shared)."""
    game = game_of(tmp_path, rules, limits)
    start = time.process_time()
    with pytest.raises(GameRuleError) as info:
        state = game.new_initial_state(seed=3)
        while play and not state.is_terminal():
            state.apply_action(0)
    assert time.process_time() - start < 5.0
    return info.value


SMALL = Limits(max_steps=1000, max_log=5000, max_actions=50, max_int_bits=256, max_list=1000)

# (body after HEAD, the line that must be named, where in it, a fragment of the message)
RUN_CASES = {
    "a round that only sets a variable": (
        "round {\n  repeat while round >= 0\n  phase tick { set acc = 1 }\n}\nscore(p) = 0\n",
        "round {", "round", "more than 1000 loop rounds and calls without a decision"),
    "repeat a billion times": (
        "setup {\n  repeat 1000000000 { set acc = 1 }\n}\n" + ONE_ROUND,
        "  repeat 1000000000", "repeat", "does this loop never end?"),
    "a while that logs": (
        "setup {\n  while acc > 0 { log de \"nochmal\" en \"again\" }\n}\n" + ONE_ROUND,
        "  while acc > 0", "while", "does this loop never end?"),
    "a recursion that branches": (
        "rule twice(n: int) {\n  if n > 0 {\n    call twice(n - 1)\n    call twice(n - 1)\n  }\n}\n"
        "setup {\n  call twice(40)\n}\n" + ONE_ROUND,
        "    call twice(n - 1)", "call", "more than 1000 loop rounds and calls"),
    "squaring in a loop": (
        "setup {\n  repeat 40 { set acc = acc * acc }\n}\n" + ONE_ROUND,
        "  repeat 40", "acc * acc", "a product of more than 256 bits"),
    "a long range": (
        "setup {\n  set acc = count(range(1, 1000000000))\n}\n" + ONE_ROUND,
        "  set acc", "set", "range(1, 1000000000) would have 1000000000 items, more than 1000"),
    "a list that doubles": (
        "var xs: list of int = [1]\nsetup {\n  repeat 40 { set xs = concat(xs, xs) }\n}\n" + ONE_ROUND,
        "  repeat 40", "set", "the joined list would have 1024 items"),
    "a list grown one item at a time": (  # the join made inline (primitives._concat)
        "var xs: list of int = [1]\nsetup {\n  repeat 1000 { set xs = concat(xs, [1]) }\n}\n" + ONE_ROUND,
        "  repeat 1000", "set", "the joined list would have 1001 items"),
}


@pytest.mark.parametrize("case", RUN_CASES)
def test_a_run_past_a_budget_is_a_located_rules_error(tmp_path: Path, case: str) -> None:
    body, line_text, at, fragment = RUN_CASES[case]
    exc = run_error(tmp_path, HEAD + body, SMALL)
    assert fragment in exc.message
    line, col = where(HEAD + body, line_text, at)
    assert (Path(str(exc.file)).name, exc.col) == ("game.rules", col)
    assert (HEAD + body).split("\n")[exc.line - 1].startswith(line_text)  # a branching call: either call


def test_a_game_that_never_ends_runs_out_of_decisions(tmp_path: Path) -> None:
    body = "round {\n  repeat while round >= 0\n  phase play {\n    choose action for first(players): rest\n  }\n}\nscore(p) = 0\n"
    exc = run_error(tmp_path, HEAD + REST + body, SMALL, play=True)
    assert "more than 50 decisions and chance outcomes" in exc.message
    assert (exc.line, exc.col) == where(HEAD + REST + body, "    choose action", "choose")
    assert exc.decision == 51


def test_limits_set_after_the_game_is_built_are_the_ones_its_steps_spend(tmp_path: Path) -> None:
    """A game's limits may be set again after it is built (a pickled game's reload does): a state made since steps
    with the new budgets (Game keeps the two a step reads with the limits, a new state or clone copies them), both
    that of a stop and that of a run."""
    body = ("round {\n  repeat while round >= 0\n  phase play {\n    choose action for first(players): rest\n"
            "    repeat 100 { set acc = 1 }\n  }\n}\nscore(p) = 0\n")
    game = game_of(tmp_path, HEAD + REST + body, Limits())
    game.limits = Limits(max_steps=1000, max_log=5000, max_actions=20)
    assert (game.max_steps, game.max_both) == (1000, 20)
    state = game.new_initial_state(seed=3)
    with pytest.raises(GameRuleError) as info:
        while True:
            state.apply_action(0)
    assert "more than 20 decisions and chance outcomes" in info.value.message
    game.limits = Limits(max_steps=50)
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state(seed=4).apply_action(0)
    assert "more than 50 loop rounds and calls" in info.value.message
    assert (state.clone().max_steps, state.max_steps) == (50, 1000)


def test_the_sum_a_stop_compares_is_the_lesser_budget_of_log_and_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below Limits.max_both neither the log nor the history can be past its budget; the decisions test above runs
    far past it (each decision is logged too) and still fails only at its 51st decision."""
    assert Limits(max_log=5000, max_actions=50).max_both == 50
    assert Limits(max_log=7, max_actions=50).max_both == 7
    monkeypatch.setenv("REGELWERK_MAX_LOG", "30")
    assert Limits.from_env().max_both == 30


def test_a_game_that_never_ends_runs_out_of_log(tmp_path: Path) -> None:
    body = ("round {\n  repeat while round >= 0\n  phase play {\n    repeat 200 { log de \"mehr\" en \"more\" }\n"
            "    choose action for first(players): rest\n  }\n}\nscore(p) = 0\n")
    exc = run_error(tmp_path, HEAD + REST + body, SMALL, play=True)
    assert "more than 5000 log entries" in exc.message
    assert (exc.line, exc.col) == where(HEAD + REST + body, "    choose action", "choose")


def test_a_loop_over_a_list_spends_the_rounds_it_runs(tmp_path: Path) -> None:
    """A `for` in which nothing stops spends its rounds as it starts where it cannot break off, round by round
    where it can: a loop that breaks off early spends only the rounds it ran, and nested loops past the budget
    fail at one of them."""
    early = "setup {\n  repeat 3 {\n    for x in range(1, 900) {\n      if x > 2 { break }\n    }\n  }\n}\n" + ONE_ROUND
    (tmp_path / "early").mkdir()
    assert game_of(tmp_path / "early", HEAD + early, SMALL).new_initial_state(seed=3).is_terminal()
    nested = "setup {\n  for x in range(1, 900) {\n    for y in range(1, 3) { set acc = y }\n  }\n}\n" + ONE_ROUND
    exc = run_error(tmp_path, HEAD + nested, SMALL)
    assert "does this loop never end?" in exc.message
    assert (HEAD + nested).split("\n")[exc.line - 1].lstrip().startswith("for ")


def test_simulate_counts_the_log_entries_it_does_not_keep(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """simulate's playouts keep only the number of log entries (State.keep_log): they run out of log all the same."""
    body = ("round {\n  repeat while round >= 0\n  phase play {\n    repeat 200 { log de \"mehr {acc}\" en \"more {acc}\" }\n"
            "    choose action for first(players): rest\n  }\n}\nscore(p) = 0\n")
    folder = write(tmp_path, HEAD + REST + body)
    monkeypatch.setenv("REGELWERK_MAX_LOG", "5000")
    assert main(["simulate", str(folder), "--players", "2", "--games", "1", "--seed", "1"]) == 1
    assert "more than 5000 log entries" in capsys.readouterr().err


def test_the_default_step_budget_stops_a_hang_within_seconds(tmp_path: Path) -> None:
    body = "setup {\n  repeat 1000000000 { }\n}\n" + ONE_ROUND
    exc = run_error(tmp_path, HEAD + body, Limits())
    assert f"more than {Limits().max_steps} loop rounds" in exc.message


def test_simulate_reports_a_hang_with_the_budget_from_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path, HEAD + "round {\n  repeat while round >= 0\n  phase tick { set acc = 1 }\n}\n"
                   "score(p) = 0\n")
    monkeypatch.setenv("REGELWERK_MAX_STEPS", "500")
    assert main(["simulate", str(folder), "--players", "2", "--games", "2", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert "game.rules:" in err and "more than 500 loop rounds" in err and "REGELWERK_MAX_STEPS" in err


def test_a_bad_budget_in_the_environment_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGELWERK_MAX_LOG", "lots")
    with pytest.raises(ValueError, match="REGELWERK_MAX_LOG must be a whole number"):
        Limits.from_env()


def load_error(tmp_path: Path, rules: str, *variants: tuple[str, str]) -> str:
    """The rendered load error of a ruleset (with all its variants); it must come quickly."""
    folder = write(tmp_path, rules, *variants)
    start = time.process_time()
    with pytest.raises(RulesError) as info:
        load_program(str(folder), tuple(name for name, _ in variants))
    assert time.process_time() - start < 5.0
    return info.value.render()


LOAD_CASES = {
    "while true that only waits": (HEAD + "setup {\n  while true { log de \"tick\" en \"tick\" }\n}\n" + ONE_ROUND, "  while true",
                                   "this `while true` loop never ends"),
    "an empty while true": (HEAD + "setup {\n  while true {}\n}\n" + ONE_ROUND, "  while true", "never ends"),
    "a round that only sets a variable": (
        HEAD + "round {\n  repeat while true\n  phase tick { set acc = 1 }\n}\nscore(p) = 0\n", "round {",
        "this `repeat while true` loop never ends"),
    "too many players": (HEAD.replace("players 2 to 3", "players 3 to 100000000") + ONE_ROUND, "game probe",
                         "a game is for at most 100 players"),
    "a huge zone family": (HEAD + "zone spot [100000000] of tok public\n" + ONE_ROUND, "zone spot",
                           "a family has at most 1000 zones, not 100000000"),
    "too many zones in all": (HEAD.replace("players 2 to 3", "players 2 to 100")
                              + "".join(f"zone s{i} [player_count * 10] of tok public\n" for i in range(11))
                              + ONE_ROUND, "zone s10", "a game has at most 10000 zones in all"),
    "too many copies": (HEAD.replace("  row 1\n", "  row 1\n}\ncards more of tok in box {\n  card many {\n"
                                     "    copies 100000000\n    v = 2\n  }\n") + ONE_ROUND,
                        "  card many", "a game has at most 10000 cards in all"),
    "a very long text": (HEAD.replace("kind tok", 'const note = "' + "x" * 20000 + '"\nkind tok') + ONE_ROUND,
                         "const note", "this text has 20000 characters; a text holds at most 10000"),
}


@pytest.mark.parametrize("case", LOAD_CASES)
def test_a_ruleset_that_asks_too_much_is_a_quick_load_error(tmp_path: Path, case: str) -> None:
    rules, line_text, fragment = LOAD_CASES[case]
    message = load_error(tmp_path, rules)
    line, col = where(rules, line_text, '"' if case == "a very long text" else line_text.strip().split()[0])
    assert f"game.rules:{line}:{col}: error: " in message
    assert fragment in message


def test_a_variant_that_removes_the_only_phase_is_a_load_error(tmp_path: Path) -> None:
    variant = 'variant calm {\n  title de "Ruhig" en "Calm"\n  remove phase idle\n}\n'
    message = load_error(tmp_path, HEAD + ONE_ROUND, ("calm", variant))
    assert f"game.rules:{where(HEAD + ONE_ROUND, 'round {', 'round')[0]}:1: error: the round has no phase" in message


def test_many_players_are_checked_quickly(tmp_path: Path) -> None:
    rules = HEAD.replace("players 2 to 3", "players 2 to 100") + "zone row [player_count * 10] of tok public\n"
    start = time.process_time()
    load_program(str(write(tmp_path, rules + ONE_ROUND)))
    assert time.process_time() - start < 2.0


def test_a_file_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    message = load_error(tmp_path, HEAD + ONE_ROUND + "#" * 1_000_000 + "\n")
    assert message.startswith("probe/game.rules: error: the file is larger than 1000000 bytes") \
        or "game.rules: error: the file is larger than 1000000 bytes" in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_and_a_symlink_loop_are_named_not_waited_for(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = write(tmp_path, HEAD + ONE_ROUND)
    os.mkfifo(folder / "pipe.rules")
    (folder / "loop.rules").symlink_to("loop.rules")
    start = time.process_time()
    assert main(["check", str(folder)]) == 1
    assert time.process_time() - start < 2.0
    err = capsys.readouterr().err
    assert "loop.rules: error: cannot read the file: Too many levels of symbolic links" in err
    assert "pipe.rules: error: not a regular file" in err
    assert "Traceback" not in err


def test_the_shipped_game_is_far_from_every_budget() -> None:
    """Measured over seeded bot games (see docs/LANGUAGE.md §3): a few dozen steps between stops."""
    game = load_game("maechtige_monster", players=6)
    state = game.new_initial_state(seed=5)
    used = 0
    while not state.is_terminal():
        used = max(used, game.limits.max_steps - state.budget)
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
    assert used * 1000 < game.limits.max_steps
    assert len(state.log) * 100 < game.limits.max_log and len(state.history) * 100 < game.limits.max_actions


def test_chance_events_decided_inside_a_run_spend_the_same_budget(tmp_path: Path) -> None:
    """A game of nothing but chance events fails alike whether each event is a stop (sample_chance, then a
    step) or is decided inside the run (advance(a, sample_chance=True), as simulate plays)."""
    body = "round {\n  repeat while round >= 0\n  phase roll {\n    let r = random [1, 2]\n    set acc = r\n  }\n}\nscore(p) = 0\n"
    game = game_of(tmp_path, HEAD + body, SMALL)
    errors = []
    for inside in (False, True):
        state = game.new_initial_state(seed=3)
        with pytest.raises(GameRuleError) as info:
            while True:
                state.advance(state.sample_chance(), inside)
        errors.append(info.value)
    assert "more than 50 decisions and chance outcomes" in errors[1].message
    assert (errors[1].line, errors[1].col) == where(HEAD + body, "    let r", "let")
    as_stops, inside_the_run = [(e.message, e.line, e.col, e.actions) for e in errors]
    assert as_stops == inside_the_run


# a function as the snippets write a runner's spends (blocks.spent): a loop's rounds spent as it starts, a round's
# spend, a call (of code that spends too), a stop, a return and a budget test after the loop
SPENDER = """def run(st, xs):
    try:
        st.budget = st.budget - len(xs)
        if st.budget < 0:
            _over_budget(st)
        for x in xs:
            st.budget = st.budget - 1
            if st.budget < 0:
                _over_budget(st)
            if x == 2:
                callee(st)
            elif x == 3:
                yield x
                st.budget = st.budget - 1
                if st.budget < 0:
                    _over_budget(st)
            elif x == 4:
                return None
        st.budget = st.budget - 2
        if st.budget < 0:
            _over_budget(st)
    except GameRuleError:
        raise
"""


def _spent_by(tree: ast.Module, xs: list[int], steps: int) -> list[tuple[str, int]]:
    """What a run of SPENDER's `run` over `xs` shows (a step budget `steps`, renewed at each stop as by a step): the
    count a callee is entered with, the count at each stop and at the end, or the line of the spend that failed."""
    seen: list[tuple[str, int]] = []

    def over(st: Any) -> None:
        raise GameRuleError("over")

    def callee(st: Any) -> None:
        seen.append(("call", st.budget))
        st.budget -= 1

    ns: dict[str, Any] = {"_over_budget": over, "callee": callee, "GameRuleError": GameRuleError}
    exec(compile(tree, "<spender>", "exec"), ns)  # noqa: S102 - the test's own code
    st = SimpleNamespace(budget=steps)
    try:
        for _ in ns["run"](st, xs):
            seen.append(("stop", st.budget))
            st.budget = steps
    except GameRuleError as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_name != "run":
            tb = tb.tb_next
        assert tb is not None
        return seen + [("over", tb.tb_lineno)]
    return seen + [("end", st.budget)]


def test_a_count_held_in_a_local_is_spent_and_read_as_the_states_would_be() -> None:
    """A function that spends the budget keeps its count in a local (budget.budget_kept_locally): a callee sees the
    count, a stop and the end leave it in the state, and a spend runs out at the same line, as with the count spent in
    the state, for every budget; the spend right after a stop, of 1, has no test (max_steps is at least 1)."""
    kept = ast.parse(SPENDER)
    budget_kept_locally(kept)
    ast.fix_missing_locations(kept)  # (as lowering does after its passes)
    source = ast.unparse(kept)
    assert "_left = _left - 1" in source and source.count("_over_budget") == SPENDER.count("_over_budget") - 1
    for xs in ([1, 1, 1, 1], [1, 2, 1, 2], [3, 1, 3], [1, 4, 1], [2, 3, 2, 1, 3], []):
        for steps in range(1, 14):
            assert _spent_by(kept, xs, steps) == _spent_by(ast.parse(SPENDER), xs, steps), (xs, steps)
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        Limits(max_steps=0)


LOCAL_BODY = HEAD + REST + """var n: int = 0
rule bump(k: int) {
  set acc = acc + k
}
round {
  repeat while round < 3
  phase tally {
    for p in players { set acc = acc + 1 }
    for p in players { set acc = acc + 2 }
    call bump(1)
    for p in players { set acc = acc + 3 }
    while n < 4 { set n = n + 1 }
    set n = 0
  }
  phase play {
    for p in players {
      choose action for p: rest
      set acc = acc + 1
    }
  }
}
score(p) = acc
"""


def test_a_count_held_in_a_local_runs_out_where_the_states_would(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose phases spend the budget in loops, calls and after stops fails at the same step, line and
    column, and has the same count left at each stop, with the count held in a local as with it in the state."""
    monkeypatch.setenv("REGELWERK_CACHE", "")  # (the code made afresh at each load)
    folder = write(tmp_path, LOCAL_BODY)
    runs: list[list[Any]] = []
    for kept in (True, False):
        if not kept:
            monkeypatch.setattr("interpreter.compile.lowering.budget_kept_locally", lambda tree: None)
            load_program.cache_clear()
        program = load_program(str(folder))
        names = {name for fn in program.rules for name in fn(Game(program, 2, "probe", [])).__code__.co_varnames}
        assert ("_left" in names) == kept
        seen: list[Any] = []
        for steps in range(1, 30):
            try:
                state = Game(program, 2, program.name, [], Limits(max_steps=steps)).new_initial_state(seed=3)
                while not state.is_terminal():
                    seen.append(state.budget)
                    state.apply_action(0)
                seen.append(("end", state.returns()))
            except GameRuleError as exc:
                seen.append((exc.message, exc.line, exc.col, exc.decision))
        runs.append(seen)
    assert runs[0] == runs[1]
    assert any(isinstance(s, tuple) and s[0] == "end" for s in runs[0])
    assert any(isinstance(s, tuple) and "loop rounds and calls" in s[0] for s in runs[0])
