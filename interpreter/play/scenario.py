"""Runs scenario files: a seeded game driven by chance outcomes and choices named by label, with
expectations on the state. Failures name the scenario file, line and column."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, did_you_mean, error_at
from dsl.files import find_ruleset
from dsl.loader import RulesetSource, add_variant_files, read_ruleset
from dsl.validate import check_texts, languages_of
from interpreter.compile.loading import load_game
from interpreter.compile.types import BOOL, PLAYER, T
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.state import IllegalActionError, State


@dataclass
class ScenarioResult:
    name: str
    file: str
    passed: bool
    message: str = ""
    steps: int = 0


class ScenarioFailure(Exception):
    def __init__(self, step: A.Node, message: str) -> None:
        super().__init__(f"{step.pos.file}:{step.pos.line}:{step.pos.col}: {message}")


def _pending(st: State) -> str:
    if st.is_terminal():
        return "the game is over"
    if st.is_chance_node():
        return f"a chance node ({', '.join(st.legal_labels()[:8])}{' …' if len(st.legal_labels()) > 8 else ''})"
    return f"P{st.current_player() + 1} decides ({', '.join(st.legal_labels()[:8])}{' …' if len(st.legal_labels()) > 8 else ''})"


def _to_decision(st: State, step: A.Step) -> None:
    """Chance nodes the scenario does not name are drawn from its seed."""
    while st.is_chance_node():
        st.apply_action(st.sample_chance())
    if st.is_terminal():
        raise ScenarioFailure(step, "the game is over")


def _to_chance(st: State, step: A.Step, label: str) -> None:
    """Skips (samples) chance nodes until one offers `label`; a decision on the way is an error."""
    while st.is_chance_node() and label not in st.legal_labels():
        st.apply_action(st.sample_chance())
    if not st.is_chance_node():
        raise ScenarioFailure(step, f"no chance node offers '{label}' before {_pending(st)}")


def _sides(expr: A.Expr, compile_expr: Any, players: list[str], st: State, frame: list[Any]) -> str:
    """For a failed comparison, what each side evaluated to."""
    if not isinstance(expr, A.BinOp) or expr.op not in ("==", "!=", "<", "<=", ">", ">="):
        return ""
    names = {n: PLAYER for n in players}
    left = compile_expr(expr.left, names)[0](st, frame + [None] * 32)
    right = compile_expr(expr.right, names)[0](st, frame + [None] * 32)
    return f": left side is {left!r}, right side is {right!r}"


# Called with each step as it is about to act (a seat's step once its decision is open) and with None at the end.
Watch = Callable[[Optional[A.Step], State], None]


def run_scenario(ruleset: str, scen: A.ScenarioDef, variants: Optional[Sequence[str]] = None,
                 watch: Optional[Watch] = None) -> ScenarioResult:
    """`variants`: the scenario's own as load_program takes them (RulesetSource.refs), if one is from a file;
    `watch` sees the state at each step (a rulebook example records its position before and after)."""
    result = ScenarioResult(scen.name, scen.pos.file, False)
    try:
        game = load_game(ruleset, scen.variants if variants is None else variants, players=len(scen.players))
        seat_of = {name: i for i, name in enumerate(scen.players)}
        compile_expr = game.program.compile_expr
        assert compile_expr is not None
        st = game.new_initial_state(seed=scen.seed)
        for step in scen.steps:
            try:
                _step(st, step, scen, seat_of, compile_expr, watch)
            except (IllegalActionError, GameRuleError) as exc:
                raise ScenarioFailure(step, str(exc)) from None
            result.steps += 1
        if watch is not None:
            watch(None, st)
        result.passed = True
    except (ScenarioFailure, ValueError) as exc:
        result.message = str(exc)
    except RulesError as exc:
        result.message = exc.render()
    return result


def _arrange(st: State, step: A.Step, scen: A.ScenarioDef, seat_of: dict[str, int]) -> None:
    """Runs the step's statements on the state as they stand, then opens the pending node again, so its
    options are those of the arranged state (a worked example that starts mid-game)."""
    compile_block = st.game.program.compile_block
    assert compile_block is not None
    block = compile_block(step.body, {n: PLAYER for n in scen.players}, step.pos)
    st.game.make_rules()  # those the block calls that were compiled for it
    code = st.game.code + [block.code]
    frames = st.frames
    st.frames = [[len(st.game.code), 0, list(seat_of.values()) + [None] * (block.nlocals - len(seat_of))]]
    st.budget = st.game.limits.max_steps
    try:
        while st.frames:
            fr = st.frames[-1]
            pc = fr[1]
            fr[1] = pc + 1
            if code[fr[0]][pc](st, fr):
                raise ScenarioFailure(step, "`arrange` led to a decision or a chance node (through a rule or "
                                            "effect it runs); use `choose` and `chance` steps for those")
    except GameRuleError as exc:
        at = block.pos[pc] if fr[0] == len(st.game.code) else st.game.op_pos[fr[0]][pc]
        raise ScenarioFailure(step, str(exc.at(at))) from None
    finally:
        st.frames = frames
    if st.pending is not None:
        st.frames[-1][1] -= 1  # the op that opened the node runs again on the arranged state
        st.pending = None
        st._run()
    st.edited()


def _step(st: State, step: A.Step, scen: A.ScenarioDef, seat_of: dict[str, int], compile_expr: Any,
          watch: Optional[Watch] = None) -> None:
    """One step of a scenario; failures raise ScenarioFailure at the step's position."""
    if watch is not None and step.seat is None:
        watch(step, st)
    if step.kind == "example":
        return
    if step.kind == "arrange":
        _arrange(st, step, scen, seat_of)
    elif step.kind == "chance":
        assert step.label is not None
        _to_chance(st, step, step.label)
        st.apply_label(step.label)
    elif step.kind == "expect":
        assert step.expr is not None
        fn, size = _expectation(step.expr, step, scen, compile_expr)
        frame = list(seat_of.values()) + [None] * (size - len(seat_of))
        if not fn(st, frame):
            raise ScenarioFailure(step, "expectation does not hold" + _sides(step.expr, compile_expr,
                                                                             scen.players, st, frame))
    else:
        assert step.seat is not None and step.label is not None
        if step.seat not in seat_of:
            raise ScenarioFailure(step, f"unknown player '{step.seat}' (players: {', '.join(scen.players)})")
        _to_decision(st, step)
        if st.current_player() != seat_of[step.seat]:
            raise ScenarioFailure(step, f"{step.seat} is not to decide: {_pending(st)}")
        if watch is not None:
            watch(step, st)
        legal = step.label in st.legal_labels()
        if step.kind == "choose":
            st.apply_label(step.label)
        elif legal != (step.kind == "legal"):
            raise ScenarioFailure(step, f"'{step.label}' is {'not ' if not legal else ''}legal for {step.seat}; "
                                        f"options: {', '.join(st.legal_labels())}")


def _expectation(expr: A.Expr, step: A.Step, scen: A.ScenarioDef, compile_expr: Any) -> tuple[Any, int]:
    """An `expect` compiled with the scenario's player names: the condition and its frame size."""
    fn, t, size = compile_expr(expr, {n: PLAYER for n in scen.players})
    if t != BOOL:
        raise error_at(step.pos, f"an expectation must be a condition, got {t}")
    return fn, size


def check_scenario(ruleset: str, scen: A.ScenarioDef, variants: Sequence[str]) -> None:
    """What can be checked without playing: the variants, the player count, the seats named and every
    expectation compiled; raises a RulesError at the scenario or step."""
    try:
        game = load_game(ruleset, variants, players=len(scen.players))
    except ValueError as exc:
        raise error_at(scen.pos, f"scenario '{scen.name}': {exc}") from None
    compile_expr = game.program.compile_expr
    assert compile_expr is not None
    problems: list[Diagnostic] = []
    for step in scen.steps:
        try:
            if step.expr is not None:
                _expectation(step.expr, step, scen, compile_expr)
            elif step.kind == "example":
                example_part(game.program.items, step, scen)
                example_shows(step, scen, compile_expr)
            elif step.kind == "arrange":
                assert game.program.compile_block is not None
                game.program.compile_block(step.body, {n: PLAYER for n in scen.players}, step.pos)
            elif step.seat is not None and step.seat not in scen.players:
                raise error_at(step.pos, f"unknown player '{step.seat}'", did_you_mean(step.seat, scen.players))
        except RulesError as exc:
            problems += exc.diagnostics
    if problems:
        raise RulesError(problems)


def example_parts(items: Sequence[A.Node]) -> dict[str, str]:
    """Name → part ("action", "rule", "phase") of everything a rulebook example may be shown in."""
    parts = {n.name: "phase" for item in items for n in A.found(item, A.PhaseDef)}
    parts.update({i.name: "rule" for i in items if isinstance(i, A.RuleDef)})
    parts.update({i.name: "action" for i in items if isinstance(i, A.ActionDef)})
    return parts


def example_part(items: Sequence[A.Node], step: A.Step, scen: A.ScenarioDef) -> str:
    """The part an `example` step names; a second example in one scenario or an unknown name is an error."""
    if next(s for s in scen.steps if s.kind == "example") is not step:
        raise error_at(step.pos, f"scenario '{scen.name}' has more than one example")
    if len(scen.variants) > 1:
        raise error_at(step.pos, "an example stands in the rulebook of the base game or of one variant, "
                                 f"and scenario '{scen.name}' loads {len(scen.variants)}")
    parts = example_parts(items)
    if str(step.label) not in parts:
        raise error_at(step.pos, f"no action, rule or phase '{step.label}' to show the example in",
                       did_you_mean(str(step.label), list(parts)))
    return parts[str(step.label)]


def example_shows(step: A.Step, scen: A.ScenarioDef, compile_expr: Any) -> list[tuple[A.Expr, Any, T, int]]:
    """The `show` expressions of an example, compiled with the seat names bound: each a zone or a
    value of a named player (`hand(ani)`, `ani.gold`), so the rulebook can name it."""
    shows = []
    for expr in step.shows:
        fn, t, size = compile_expr(expr, {n: PLAYER for n in scen.players})
        seat_value = isinstance(expr, A.Attr) and isinstance(expr.obj, A.Name) and expr.obj.name in scen.players
        if t.name != "zone" and not seat_value:
            raise error_at(expr.pos, "an example shows zones and players' values only",
                           f"e.g. `show hand({scen.players[0]}), {scen.players[0]}.gold`")
        shows.append((expr, fn, t, size))
    return shows


def scenarios_of(ruleset: str, variants: Sequence[str] = ()) -> tuple[RulesetSource, list[A.ScenarioDef]]:
    """The scenarios that load one of `variants` (those of variant files among them included); all
    of the ruleset's if none are given."""
    src = read_ruleset(find_ruleset(ruleset))
    wanted = set(add_variant_files(src, variants))
    check_texts(list(src.scenarios), languages_of(src.items))  # playing a game reads no scenario file
    return src, [s for s in src.scenarios if not wanted or wanted & set(s.variants)]


def run_all(ruleset: str, only: Optional[Path] = None, variants: Sequence[str] = ()) -> list[ScenarioResult]:
    src, scenarios = scenarios_of(ruleset, variants)
    return [run_scenario(str(src.folder), s, src.refs(s.variants)) for s in scenarios
            if only is None or s.pos.file == str(only)]
