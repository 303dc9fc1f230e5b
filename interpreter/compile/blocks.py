"""Ops written as Python source (snippets), and each block's runner: one generated function that runs the
block's ops from a step on, inlining the snippets with their expressions, until the block suspends
(decision, chance), starts frames (calls, triggers) or ends. The ops and frames stay as they were, so a
state still stops, clones and saves at any step; the runner only spares the op-by-op dispatch."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import partial
from types import CodeType
from typing import Any, Callable, Iterator, Optional, Sequence, cast

from interpreter.compile.code_cache import compiled, kept, kept_for_later
from interpreter.compile.hoist import (
    GAME_TABLES,
    end_items_lines,
    game_tables_bound,
    locals_set,
    reads_end_items,
    repeated_reads_as_locals,
    reused_code,
    runner_reads_as_locals,
)
from interpreter.compile.lowering import BY_ZONE_READS, loop_slots_as_locals, lowered_code
from interpreter.compile.primitives import FAMILY_CARDS
from interpreter.compile.types import CARD
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.ops import (
    CHANCE,
    DECIDE,
    L_MOVE,
    L_PAY,
    L_PHASE,
    L_REVEAL,
    L_ROUND,
    MAX_DEPTH,
    check_seat,
    distinct,
    guard_depth,
    over_budget,
    unique,
)
from interpreter.runtime.program import Op, Trigger, ZoneSpec

Lines = list[str]
Resumable = Callable[[Any, list[Any]], Iterator[tuple[Any, ...]]]  # a block's resumable runner (_runner_code)


@dataclass
class Snippet:
    """One op as statements over `st`, `fr` and `L` (the frame's locals); a line `GOTO n` jumps to the step
    in cells[n][0] (patched once the target is emitted). `pushes`: it may start trigger frames. A line `STOP node`
    (a bare `STOP`: the node set in st.pending) stops the run at the node the snippet opened, to go on at the next
    step (none of the snippet's lines runs after it: they are in `else`s, so a resumable runner goes on past it,
    _runner_code); a line `AFTER` sets the frame's step after the snippet, as a stop would, and goes on; `node`: that
    node's type (Program.node_types)."""

    lines: Lines
    cells: tuple[list[int], ...] = ()
    pushes: bool = False
    calls: Optional[int] = None  # it pushes exactly one frame, `_b_t`, standing at the start of this block's runner
    stepped: bool = False  # each of its paths that goes on passes a STOP or AFTER: the frame's step is set after it
    node: Optional[tuple[str, Any, Any]] = None

    def __post_init__(self) -> None:
        assert _stops_last(self.lines), f"a line after a STOP outside an `else`: {self.lines}"


def _stops_last(lines: Lines) -> bool:
    """Whether each STOP is the last line on its path: the lines after it are in `else`s of the `if`s around it (a
    resumable runner goes on past a STOP, so a line it reached there would run after the node's outcome too)."""
    for k, line in enumerate(lines):
        if (line.strip() + " ").startswith("STOP "):
            limit, in_else = len(line) - len(line.lstrip()), False
            for later in lines[k + 1:]:
                pad = len(later) - len(later.lstrip())
                if pad < limit and later.lstrip().startswith(("else:", "elif ")):
                    limit, in_else = pad + 1, True
                elif pad < limit or not in_else:
                    return False
    return True


@dataclass
class Emitter:
    """Collects a block's ops (closures or snippets); `finish` turns snippets into ops and adds the runner."""

    at: Any  # the position of the statement being compiled
    code: list[Optional[Op]] = field(default_factory=list)
    snippets: list[Optional[Snippet]] = field(default_factory=list)
    pos: list[Any] = field(default_factory=list)  # per op, for located run-time errors
    loop_ends: list[list[list[int]]] = field(default_factory=list)
    jumps: tuple[list[int], ...] = ()  # the targets of closure ops' jumps
    root: bool = False  # the game's main block: its frame, the first, stands below all others (State.frames)

    def emit(self, op: Op, *jumps: list[int]) -> int:
        """A closure op; `jumps`: the cells of the steps it may jump to."""
        self.jumps += jumps
        return self._add(op, None)

    def emit_src(self, snippet: Snippet) -> int:
        return self._add(None, snippet)

    def _add(self, op: Optional[Op], snippet: Optional[Snippet]) -> int:
        self.code.append(op)
        self.snippets.append(snippet)
        self.pos.append(self.at)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def finish(self, env: dict[str, Any], node_types: dict[Op, Any]
               ) -> tuple[list[Op], Callable[[Any], Op], Callable[[Any], Resumable], frozenset[int]]:
        """The block's ops, what makes its runner and its resumable runner for a game and the steps they may be entered
        at; the types of the nodes its snippets open go into `node_types`."""
        ns = dict(env, _over_budget=over_budget, _guard_depth=guard_depth, _check_seat=check_seat,
                  _distinct=distinct, _unique=unique)
        code = [op if op is not None else _op_of(self.snippets[k], ns) for k, op in enumerate(self.code)]
        for op, s in zip(code, self.snippets):
            if s is not None and s.node is not None:
                node_types[op] = s.node
        run, resumable, starts = _runner(code, self.snippets, {c[0] for c in self.jumps}, self.pos, ns, self.root)
        return code, run, resumable, starts


# the tests before a STOP of whether the run stops at the node (no agent decides it inside the run; the run samples no
# chance): always true in the API loop, the only one that runs a resumable runner, which has `if True:` there (no
# bytecode: Python compiles the test and its `else` away, and lowering.cheaper_forms puts it on its first line's line)
STOPS_AT_DECISION = "if st.agents is None:"
STOPS_AT_CHANCE = "if not st.sampling:"


def _expand(s: Snippet, goto: Callable[[int], Lines], stop: Lines, resumable: bool = False) -> Lines:
    out: Lines = []
    for line in s.lines:
        body = line.lstrip()
        pad = line[:len(line) - len(body)]
        if resumable and body in (STOPS_AT_DECISION, STOPS_AT_CHANCE):
            out.append(pad + "if True:")
        elif body.startswith("GOTO "):
            out += [pad + g for g in goto(s.cells[int(body[5:])][0])]
        elif (body + " ").startswith("STOP "):  # with its node, where given: a resumable runner yields it
            node = body[5:]  # (State.apply_action keeps it in State.pending), a plain one sets it and returns
            ends = stop if not node else [*stop[:-1], f"yield {node}"] if resumable else [f"st.pending = {node}", *stop]
            out += [pad + g for g in ends]
        elif body == "AFTER":
            out += [pad + g for g in stop[:-1]]
        else:
            out.append(line)
    return out


def _op_of(s: Optional[Snippet], ns: dict[str, Any]) -> Op:
    """The snippet as an op of its own, for a run step by step."""
    assert s is not None
    return _StepOp(s, ns)


class _StepOp:
    """A snippet's op, written and compiled at its first call: only a frame between its block's starts (a saved or
    arranged state) runs one, so most processes never do, and writing and compiling them all cost about a tenth of
    a load (its cells are patched by then: the block is finished)."""

    __slots__ = ("snippet", "ns", "op")

    def __init__(self, snippet: Snippet, ns: dict[str, Any]) -> None:
        self.snippet, self.ns = snippet, ns
        self.op: Optional[Op] = None

    def __call__(self, st: Any, fr: list[Any]) -> Optional[bool]:
        if self.op is None:
            body = _expand(self.snippet, lambda t: [f"fr[1] = {t}", "return None"], ["return True"])
            src = "\n".join(["def op(st, fr):", "    L = fr[2]", *("    " + ln for ln in body)])
            exec(src, self.ns)  # noqa: S102 - our own generated code
            self.op = self.ns.pop("op")
        return self.op(st, fr)


# frames (those an op just pushed counted) past which a runner leaves what it pushed to State.apply_action's run
NEST_MAX = 40
# after an op that may push frames (or end the game): is the runner's frame still on top? If not, runs the frames
# above it in their runners at once and goes on with the block, unless one suspends or the game ended (the frames
# cleared: `frames[-1]` fails, and the runner returns, _ENDED). Each such frame stands at a start of its block's
# runner: a fresh frame, or one that pushed frames itself. No count of them is taken at entry: most entries test none.
_PUSHED = "if frames[-1] is not fr:"


def _enter(resumable: bool, block: str = "_b_t[0]") -> Lines:
    """Runs the frame `_b_t` in its block's runner (`block`: its number, where known here): a stop there stops this
    runner too (returns True); in a resumable runner, the frame's resumable runner runs inside this one (`yield
    from`), so the run goes on here once it ends."""
    if resumable:
        return [f"yield from st.game.gens[{block}](st, _b_t)"]
    return [f"if st.game.runners[{block}](st, _b_t):", "    return True"]


def _run_above(resumable: bool) -> Lines:
    """The lines after `_PUSHED` (see there)."""
    return [f"    if len(frames) > {NEST_MAX}:", "        return None", "    while (_b_t := frames[-1]) is not fr:",
            *("        " + ln for ln in _enter(resumable))]


_DEPTH = [f"if len(st.frames) > {MAX_DEPTH}:", "    _guard_depth(st)"]  # after a frame is pushed (MAX_DEPTH > NEST_MAX)


def _called(lines: Lines, step: int, block: int, resumable: bool, root: bool) -> Lines:
    """A call's lines in a runner (`step`: the step after it): the frame it pushed runs in `block`'s runner at once,
    unless there are more than NEST_MAX frames; only then can there be more than MAX_DEPTH, so the depth test goes in
    that branch, the lines after it (spending the budget) in both, so a depth error still comes before a budget one.
    The `root` block's call makes the second frame: no test."""
    at = lines.index(_DEPTH[0]) if _DEPTH[0] in lines else len(lines)
    tail = lines[at + len(_DEPTH):] + [f"fr[1] = {step}"]
    if root:
        return [*lines[:at], *tail, *_enter(resumable, str(block)), _PUSHED, *_run_above(resumable)[2:]]
    deep = lines[at:at + len(_DEPTH)] + tail + ["return None"]
    return [*lines[:at], f"if len(frames) > {NEST_MAX}:", *("    " + ln for ln in deep), *tail, *_enter(resumable, str(block)),
            _PUSHED, *_run_above(resumable)[2:]]


_ENDED = ["        except IndexError:  # the frames cleared (the game ended) under an op: `frames[-1]` found none",
          "            if frames:", "                raise", "            return None"]


Pairs = list[tuple[str, int]]  # lines of a runner, each with the step whose op it serves (for located errors)
_ON = "\0on"  # after `pc = t`: a jump forward that stays in its loop (or is in none) skips the rest of its arm
_ELSE_MAX = 16  # the `else:`s one arm nests (_skip_rest): past them a jump goes round the loop (deep nesting is a SyntaxError)


def _gotos(s: Snippet) -> list[int]:
    """The steps the snippet's GOTO lines jump to."""
    return [s.cells[int(ln.lstrip()[5:])][0] for ln in s.lines if ln.lstrip().startswith("GOTO ")]


def _goto(t: int, here: int, last: Optional[int], ends: set[int]) -> Lines:
    """A jump to step `t` from the arm at step `here`, in the loop whose last arm is at step `last` (None: in no
    loop): a step that ends the block ends it; a jump back (or to its own arm) goes round its loop, the arms' tests
    passing over those before `t`; one past the loop leaves it; any other goes on to `t` (_skip_rest)."""
    if t in ends:
        return list(_RET)
    if t <= here:
        return [f"pc = {t}", "continue"]
    return [f"pc = {t}", "break" if last is not None and t > last else _ON]


def _skip_rest(body: Pairs, depth: int = 0) -> tuple[Pairs, bool]:
    """An arm's lines with each jump forward that stays in its loop (_ON) made to skip the rest of the arm: where it
    ends a top-level `if`, the rest goes under an `else:`; where it ends the arm, the run falls through (the arms up
    to its target test `pc` and pass); else it goes round the loop (`continue`). Also says whether one did that."""
    out: Pairs = []
    around = False
    for i, (line, k) in enumerate(body):
        if line.strip() != _ON:
            out.append((line, k))
            continue
        rest = body[i + 1:]
        if not rest:
            break
        opener = next((ln for ln, _ in reversed(out) if not ln[:1].isspace()), "")
        if (depth < _ELSE_MAX and len(line) - len(line.lstrip()) == 4 and opener.startswith("if ")
                and not rest[0][0][:1].isspace() and not rest[0][0].startswith(("else", "elif"))):
            inner, deeper = _skip_rest(rest, depth + 1)
            return out + [("else:", k)] + _indented(inner, 1), around or deeper
        out.append((line.replace(_ON, "continue"), k))
        around = True
    return out, around


def _falls_through(body: Lines) -> bool:
    """Whether the run may go on past an arm's last line."""
    return not body[-1].startswith(("return", "raise", "continue", "break"))


def _runner(code: list[Op], snippets: list[Optional[Snippet]], targets: set[int], pos: list[Any], ns: dict[str, Any],
            root: bool = False) -> tuple[Callable[[Any], Op], Callable[[Any], Resumable], frozenset[int]]:
    """What makes the block's runner for a game (_runner_code), what makes its resumable runner (made or read at its
    first use: only the API loop runs one, code_cache.kept_for_later), and the steps they may be entered at; written and
    compiled at an earlier load of the same rules where the code cache has it (kept by the snippets and targets they
    are written from)."""
    shape = [None if s is None else (s.lines, [c[0] for c in s.cells], s.pushes, s.calls, s.stepped, s.node is not None)
             for s in snippets]
    key = f"{sorted(targets)!r}\0{shape!r}\0{root}"
    made, op_at, first, starts = kept(f"runner\0{key}", lambda: _runner_code(snippets, targets, root=root))
    exec(made, ns)  # noqa: S102 - our own generated code
    later = kept_for_later(f"resumable\0{key}", lambda: _runner_code(snippets, targets, True, root))

    def resumable(game: Any) -> Resumable:
        made, op_at, first, _ = later()
        exec(made, ns)  # noqa: S102 - our own generated code
        return ns.pop("make")(code, op_at, first, pos, game)  # type: ignore[no-any-return]
    return partial(ns.pop("make"), code, op_at, first, pos), resumable, frozenset(starts)


def _runner_code(snippets: list[Optional[Snippet]], targets: set[int], resumable: bool = False,
                 root: bool = False, nest: bool = True) -> tuple[CodeType, list[int], int, list[int]]:
    """`run(st, fr)`: the block's steps as arms, one from each start (where a run may be entered) to the next, in
    step order; an arm `if pc <= start:` is skipped by an entry past it. The run falls from arm to arm with `pc` left
    as it was, so each arm's test passes. The arms between a jump back and its target (a loop's body) are a
    `while True:` of their own: a jump back sets `pc` and goes round it, one past its end leaves it, one that stays
    in it (or is in no loop) skips the rest of its arm (_skip_rest) and the arms' tests pass over those before its
    target; a jump to a step that ends the block ends it. A generic op (a closure) ends an arm: it may suspend,
    jump (to one of `targets`) or push frames; so does a snippet that may stop or push frames. A GameRuleError
    leaves fr[1] after the op that raised it. Returns the code of `make(_ops, _op_at, _first, _pos, _g)`, which returns
    the runner for the game `_g`, its tables (GAME_TABLES) as `_g_…` parameters' defaults, with those arguments but the ops,
    their positions and the game: per line of the run from `_first` on, its op; and the starts. `resumable`: the run
    is a generator (State.apply_action's, in the API loop), which yields at a stop and goes on after it (a snippet's
    lines after a STOP are in `else`s) as after its agent's decision, and runs the frames it pushes inside itself.
    `root`: the game's main block (Emitter.root), whose calls test no depth (_called). `nest`: loops inside loops are
    loops of their own (_nested), unless that nests more blocks than Python compiles (then they are merged)."""
    n = len(snippets)
    starts = {0} | targets
    for k, s in enumerate(snippets):
        if s is None or s.pushes or s.stepped or s.node is not None:  # (stepped: a run stops there, and goes on after it)
            starts.add(k + 1)
        if s is not None:
            starts.update(c[0] for c in s.cells)
    steps = sorted(k for k in starts if k < n)  # per arm, its first step
    arm_of = [i for i, (k, nxt) in enumerate(zip(steps, steps[1:] + [n])) for _ in range(k, nxt)]
    ends = {k for k, s in enumerate(snippets) if s is not None and s.lines == _RET}
    jumps = [(arm_of[k], arm_of[t] if t < n else len(steps), t <= steps[arm_of[k]]) for k, s in enumerate(snippets)
             if s is not None for t in _gotos(s) if t not in ends]
    spans = [(t, k) for k, t, back in jumps if back]
    groups = _groups(spans)
    group_of = {i: g for g in groups for i in range(g[0], g[1] + 1)}
    inner_of = _nested(groups, spans, [(k, t) for k, t, back in jumps if not back]) if nest else {g: [] for g in groups}
    loop_of = dict(group_of)  # each arm's innermost loop
    for g in inner_of.values():
        loop_of.update((i, loop) for loop in g for i in range(loop[0], loop[1] + 1))
    arms: list[Pairs] = [[] for _ in steps]
    run_above = _run_above(resumable)
    for k, s in enumerate(snippets):
        i = arm_of[k]
        group = loop_of.get(i)
        if s is None:
            stopped = ["    yield st.pending", "    return None"] if resumable else ["    return True"]  # op set the node
            body = [f"fr[1] = {k + 1}", f"if _o{k}(st, fr):", *stopped, _PUSHED, *run_above,
                    f"if fr[1] != {k + 1}:", "    return None"]
        else:
            body = _expand(s, lambda t: _goto(t, steps[i], None if group is None else steps[group[1]], ends),
                           [f"fr[1] = {k + 1}", "yield st.pending" if resumable else "return True"], resumable)
            if s.calls is not None:  # the frame it pushed runs in its runner at once, the rest (if any) as below
                body = _called(body, k + 1, s.calls, resumable, root)
            elif s.pushes:  # the frames it pushed run, this one standing after it (set already where it is `stepped`)
                body += [_PUSHED, *([] if s.stepped else [f"    fr[1] = {k + 1}"]), *run_above]
        arms[i] += [(ln, k) for ln in body]
    outer = False  # whether an arm in no loop goes round the runner's own loop (_skip_rest)
    for i, arm in enumerate(arms):
        arms[i], around = _skip_rest(arm)
        outer = outer or (around and i not in group_of)
    units = [group_of[i][0] if i in group_of else i for i in range(len(steps))]  # a loop's: its first arm
    # a comprehension over a family's cards may go zone by zone (lowering), reading these as locals
    by_zone = [i for i, arm in enumerate(arms) if any(FAMILY_CARDS.search(ln) for ln, _ in arm)]
    bound: dict[str, str] = {}  # the game's tables the runner is made with (hoist.game_tables_bound)
    for i, arm in enumerate(arms):
        text, names = game_tables_bound([ln for ln, _ in arm])
        arms[i] = [(ln, k) for ln, (_, k) in zip(text, arm)]
        bound.update(names)
    if by_zone:
        bound.update((name, read[8:]) for name, read in BY_ZONE_READS.items() if read[8:] in GAME_TABLES)
    forced = {i: [read for read in BY_ZONE_READS.values() if read[8:] not in GAME_TABLES] for i in by_zone}
    bodies, hoisted, own = runner_reads_as_locals([[ln for ln, _ in arm] for arm in arms], units,
                                                  [i in group_of for i in range(len(steps))], forced)
    game = sum(read.startswith("st.game.") for read in hoisted.values()) > 1  # the head reads the game (locals_set)
    out: Pairs = []
    for i, (k, arm, body) in enumerate(zip(steps, arms, bodies)):  # a unit sets the locals only it reads as it starts
        lines = list(zip(body, (j for _, j in arm)))
        sets = [(ln, k) for ln in locals_set(own.get(i, {}), 1, game)] if units[i] == i else []
        group = group_of.get(i)
        if group is None:  # the last arm is entered at its start or before
            out += sets + lines if i == len(steps) - 1 else [(f"if pc <= {k}:", k)] + _indented(sets + lines, 1)
        elif i == group[0]:  # the loop is entered at one of its arms or before
            made = [list(zip(body, (j for _, j in arm))) for arm, body in zip(arms, bodies)]
            out += [(f"if pc <= {steps[group[1]]}:", k)] + _indented(sets + _loop_of(group, inner_of, made, steps), 1)
    defaults = "".join(f", {name}=_g.{table}" for name, table in sorted(bound.items()))  # set by the call: no bytecode
    head = [f"def run(st, fr{defaults}):", *("    " + ln for ln in locals_set(hoisted, 1)),
            *("    " + ln for ln in _frame_read([ln for ln, _ in out])), "    try:"]
    ended = any(ln.lstrip() == _PUSHED for ln, _ in out)
    if ended:  # the frames, where an op may push some (the block's end pops its frame off them)
        head[-1:-1] = ["    frames = st.frames"]
        out = [(_ST_FRAMES.sub("frames.", ln), k) for ln, k in out]
    if resumable and not any("yield" in ln for ln, _ in out):  # a generator all the same, for `yield from`
        head[-1:-1] = ["    if False:", "        yield True"]
    if outer:
        head.append("        while True:")
    tail = ["        except GameRuleError as _e:", "            _k = _op_at[_e.__traceback__.tb_lineno - _first]",
            "            fr[1] = _k + 1", "            raise _e.at(_pos[_k]) from None",
            *(_ENDED if ended else []), "    return run"]
    generics = [f"_o{k}" for k, s in enumerate(snippets) if s is None]
    pad = "    " * (4 if outer else 3)
    src = "\n".join(["def make(_ops, _op_at, _first, _pos, _g):"] + [f"    {g} = _ops[{g[2:]}]" for g in generics]
                    + ["    " + ln for ln in head] + [pad + ln for ln, _ in out] + tail)
    first = 1 + 1 + len(generics) + len(head)  # the line number of out[0]
    inline = end_items_lines(src) if reads_end_items(src) else None  # end items read inline (hoist.end_items_in)
    nested = any(inner_of.values())
    try:
        code = lowered_code(src, partial(_rewritten, inline), not nested)  # (no fallback to the unlowered source)
    except (SyntaxError, RecursionError):  # Python nests at most 20 blocks (loops, tries)
        return _runner_code(snippets, targets, resumable, root, False)
    return code, [k for _, k in out], first, sorted(starts)


def _rewritten(inline: Optional[Callable[[ast.AST], bool]], tree: ast.AST) -> bool:
    """A runner's lowered tree with its end items read inline where `inline` (hoist.end_items_in) and its loops' frame
    slots kept in locals (lowering.loop_slots_as_locals), in place; whether it changed."""
    changed = inline is not None and inline(tree)
    return loop_slots_as_locals(tree) or changed


def _frame_read(lines: Lines) -> Lines:
    """The runner's line that reads the step `pc` and the locals `L` from its frame, as far as its lines use them."""
    pc, slots = (any(re.search(rf"\b{name}\b", ln) for ln in lines) for name in ("pc", "L"))
    return ["_, pc, L = fr"] if pc and slots else ["pc = fr[1]"] if pc else ["L = fr[2]"] if slots else []


_ST_FRAMES = re.compile(r"\bst\.frames\.(?=(?:append|pop)\()")  # read as the runner's `frames`, where it has them
_PC = re.compile(r" *pc = (\d+)$")
PEEL_MAX = 120  # the lines of a loop's arms after its first past which its rounds keep the arms' tests (code size)


def _nested(groups: list[tuple[int, int]], spans: list[tuple[int, int]], forward: list[tuple[int, int]]
            ) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Per loop (first and last arm: `groups` and the loops found in them), the loops of its own arms that are loops of
    their own (`spans`: the jumps back, target and source arm; `forward`: the other jumps, source and target arm): a
    loop inside it that no jump leaves for an arm but the one after it (none goes back past its first arm, none skips
    the arms after it), so that it is left where it ends, and the outer loop goes on at its next arm (_loop_of)."""
    inner: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def visit(loop: tuple[int, int]) -> None:
        inner[loop] = []
        for c, d in _groups([(x, y) for x, y in spans if loop[0] < x and y <= loop[1]]):
            if not any(x < c <= y <= d for x, y in spans) and all(t == d + 1 for k, t in forward
                                                                   if c <= k <= d and not c <= t <= d):
                inner[loop].append((c, d))
                visit((c, d))
    for g in groups:
        visit(g)
    return inner


def _loop_of(loop: tuple[int, int], inner: dict[tuple[int, int], list[tuple[int, int]]], arms: list[Pairs],
             steps: list[int]) -> Pairs:
    """The lines of a loop (its first and last arm) over `arms` (the runner's, `steps`: their first steps), a loop
    inside it (_nested) made first, as one of its arms."""
    parts: list[Pairs] = []
    starts: list[int] = []
    loops: dict[int, tuple[int, Optional[Pairs]]] = {}
    i = loop[0]
    while i <= loop[1]:
        sub = next((sub for sub in inner[loop] if sub[0] == i), None)
        starts.append(steps[i])
        if sub is None:
            parts.append(arms[i])
            i += 1
            continue
        made = _loop_of(sub, inner, arms, steps)
        loops[len(parts)] = (steps[sub[1]], _rounds(made))
        parts.append(made)
        i = sub[1] + 1
    return _loop(parts, starts, loops)


def _rounds(loop: Pairs) -> Optional[Pairs]:
    """A loop made by _loop as entered at its first arm: its untested rounds, where it is peeled, else None."""
    first = loop[0]
    if not first[0].startswith("while pc > "):
        return None
    return [(ln[4:], k) for ln, k in loop[loop.index(("else:", first[1])) + 1:]]


def _loop(arms: list[Pairs], starts: list[int], inner: Optional[dict[int, tuple[int, Optional[Pairs]]]] = None) -> Pairs:
    """A loop's arms (`starts`: their first steps), each but the last tested against `pc` so that an entry (or a
    jump) past an arm skips it; the loop is left where its last arm falls through. Where each jump in it goes round
    from its first arm or leaves it, the tests pass in every round after one from the first arm: the loop is peeled,
    rounds entered past the first arm run with the tests (`while pc > first`), every other without them (its `else`).
    `inner`: the arms (by index) that are loops of their own (_loop_of), each with the last step it is entered at and
    its rounds from its first arm (_rounds; a loop around it is peeled only where each inner one is: it enters them
    there). An inner loop is left at the arm after it, and ends no round of this one."""
    inner = inner or {}
    first = starts[0]
    bounds = [inner[j][0] if j in inner else k for j, k in enumerate(starts)]

    def ended(arm: Pairs, j: int) -> Pairs:  # the last arm, which leaves the loop where it falls through
        return arm + ([("break", arm[-1][1])] if j in inner or _falls_through([ln for ln, _ in arm]) else [])
    last = ended(arms[-1], len(arms) - 1)
    tested = [[(f"if pc <= {b}:", k)] + _indented(arm, 1) for k, b, arm in zip(starts, bounds, arms[:-1])]
    rest = [ln for arm in tested[1:] for ln in arm] + last
    lines = [ln for j, arm in enumerate(arms) for ln in (["while"] if j in inner else [ln for ln, _ in arm])] + [""]
    jumps = [(m.group(1), lines[j + 1].strip()) for j, ln in enumerate(lines) if (m := _PC.match(ln))]
    if (len(arms) == 1 or len(rest) > PEEL_MAX or any(rounds is None for _, rounds in inner.values())
            or any(then != "break" and (t, then) != (str(first), "continue") for t, then in jumps)):
        return [("while True:", first), *_indented([ln for arm in tested for ln in arm] + last, 1)]
    plain = [cast(Pairs, inner[j][1]) if j in inner else arm for j, arm in enumerate(arms)]
    free = [(ln, k) for arm in plain[:-1] for ln, k in arm] + ended(plain[-1], len(arms) - 1) + [("", first)]
    free = [(ln, k) for j, (ln, k) in enumerate(free[:-1])  # no round after a tested one reads pc: not set going round
            if ln.strip() != f"pc = {first}" or free[j + 1][0].strip() != "continue"]
    return [(f"while pc > {first}:", first), *_indented(rest, 1), ("else:", first), ("    while True:", first),
            *_indented(free, 2)]


def _indented(lines: Pairs, levels: int) -> Pairs:
    """Lines moved into the block of the statement before them."""
    return [("    " * levels + ln, k) for ln, k in lines]


def _groups(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans (first and last arm) of the loops made by jumps back, those that share an arm merged into one."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


# ================================================================== the ops written as snippets


def set_local(slot: int, value: str) -> Snippet:
    return Snippet([f"L[{slot}] = {value}"])


def set_gvar(idx: int, value: str) -> Snippet:
    return Snippet([f"st.gvars[{idx}] = {value}"])


def set_pvar(obj: str, idx: int, value: str) -> Snippet:
    return Snippet([f"_b_o = {obj}", f"st.pvars[_b_o][{idx}] = {value}"])


def set_card_field(obj: str, fidx: int, value: str) -> Snippet:
    """Changes a card's base value (ops.set_card_field, for a field known here): a new row, never one changed
    in place, so clones stay apart."""
    return Snippet([f"_b_c = {obj}", "_b_r = st.card_vals[_b_c][:]", f"_b_r[{fidx}] = {value}",
                    "st.card_vals[_b_c] = _b_r"])


_RET = ["st.frames.pop()", "return None"]


def ret() -> Snippet:
    """Ends the block: its frame goes, and the run goes on in the frame below (a jump to it ends the block too)."""
    return Snippet(list(_RET))


def jump(cell: list[int]) -> Snippet:
    return Snippet(["GOTO 0"], (cell,))


def spent(rounds: str) -> Lines:
    """The lines that spend `rounds` of the step budget (Limits.max_steps), failing once it is gone."""
    return [f"st.budget -= {rounds}", "if st.budget < 0:", "    _over_budget(st)"]


SPEND = spent("1")


def located(lines: Lines, at: str) -> Lines:
    """Lines whose GameRuleError is placed at the position named `at` (CompilerBase.where), unless an inner
    one placed it already; a try costs nothing until it catches."""
    return ["try:", *("    " + ln for ln in lines), "except GameRuleError as _e:", f"    raise _e.at({at}) from None"]


def loop_back(cell: list[int]) -> Snippet:
    """A loop's jump back to its head: the one place a run can go on for ever, so it spends the budget
    (the log is checked at each stop; between two, the step budget bounds its growth)."""
    return Snippet(SPEND + ["GOTO 0"], (cell,))


def jump_unless(cond: str, cell: list[int]) -> Snippet:
    return Snippet([f"if not ({cond}):", "    GOTO 0"], (cell,))


NONE_END, SOME_END, ALL_END = range(3)  # at the end of a scope: no modifier (restriction) can end, some may, all do


def expire(scope: int, mods: int, forbids: int) -> Snippet:
    """Ends the modifiers and restrictions that last until the end of `scope` (SCOPES); `mods`, `forbids`: which of
    them the rules let end here (NONE_END, SOME_END, ALL_END). The lists (and `modded`) are replaced (clones share
    them), only when one ends: most end with the round, not each turn."""
    lines: Lines = []
    if mods == ALL_END:
        lines += ["if st.mods:", "    st.mods = []", "    st.modded = frozenset()"]
    elif mods == SOME_END:
        lines += ["if st.mods:", f"    _b_m = [m for m in st.mods if m[1] > {scope}]",
                  "    if len(_b_m) < len(st.mods):", "        st.mods = _b_m",
                  "        st.modded = frozenset(map(st.game.mod_field.__getitem__, [m[0] for m in _b_m]))"]
    if forbids == ALL_END:
        lines += ["if st.forbids:", "    st.forbids = []"]
    elif forbids == SOME_END:
        lines += ["if st.forbids:", f"    _b_m = [f for f in st.forbids if f[1] > {scope}]",
                  "    if len(_b_m) < len(st.forbids):", "        st.forbids = _b_m"]
    return Snippet(lines)


def for_init(items_src: str, items: int, idx: int) -> Snippet:
    return Snippet([f"L[{items}] = {items_src}", f"L[{idx}] = 0"])


def _next_item(items: int, idx: int, var: int, counted: Optional[tuple[str, int]]) -> Lines:
    """Takes the next item into `var`, or jumps to cells[0] (the loop's end) when none is left. `counted`: the
    items are the numbers first, first + 1, … (the seats, a family's places) and the code of how many there
    are, a number the game keeps (first 0 or 1): the item is worked out from the index, the list not read."""
    if counted is None:
        return [f"_b_i = L[{idx}]", f"_b_s = L[{items}]", "if _b_i >= len(_b_s):", "    GOTO 0",
                f"L[{var}] = _b_s[_b_i]", f"L[{idx}] = _b_i + 1"]
    count, first = counted
    take = [f"L[{var}] = L[{idx}] = _b_i + 1"] if first else [f"L[{var}] = _b_i", f"L[{idx}] = _b_i + 1"]
    return [f"_b_i = L[{idx}]", f"if _b_i >= {count}:", "    GOTO 0", *take]


def for_first(items: int, idx: int, var: int, end: list[int]) -> Snippet:
    """A `for` loop's head, which only for_init's step goes on to (its jump back, for_back, takes the next items
    itself, and no state stands between the two): the first item, if any, into `var` (for_init set the index to 0)."""
    return Snippet([f"_b_s = L[{items}]", "if not _b_s:", "    GOTO 0", f"L[{var}] = _b_s[0]", f"L[{idx}] = 1"], (end,))


def for_back(items: int, idx: int, var: int, body: list[int], end: list[int],
             counted: Optional[tuple[str, int]] = None) -> Snippet:
    """A `for` loop's jump back (as loop_back) that takes the next item itself, without a trip through
    the loop's head."""
    return Snippet(SPEND + _next_item(items, idx, var, counted) + ["GOTO 1"], (end, body))


def countdown(left: int, end: list[int]) -> Snippet:
    return Snippet([f"if L[{left}] <= 0:", "    GOTO 0", f"L[{left}] -= 1"], (end,))


def turns_init(start: str, var: int, skips: int) -> Snippet:
    """The turns start at a player's seat (the bank or any other number is a rules error, as a decision for it is):
    the turns' player is a seat throughout (Scope.is_seat)."""
    return Snippet([f"L[{var}] = {start}", f"if not 0 <= L[{var}] < st.game.num_players:",
                    f"    raise GameRuleError(f'the turns start at seat {{L[{var}]}}, which is no player')", f"L[{skips}] = 0"])


def turns_head(until: str, skip: Optional[str], var: int, skips: int, end: list[int], itself: list[int]) -> Snippet:
    """Ends the turns when `until` holds; passes over a player who must be skipped (and comes back here, or, where
    `until` reads neither the turns' player nor the skips, which alone changed, straight to the next `skip` test,
    the skips counted in a local `_b_j`: they never outlast this snippet, and a turn that skips no one sets none)."""
    lines = [f"if {until}:", "    GOTO 0"]
    if skip is None:
        return Snippet(lines + [f"L[{skips}] = 0"], (end, itself))
    again = re.search(rf"\bL\[(?:{var}|{skips})\]", until)
    count = f"L[{skips}]" if again else "_b_j"
    step = [f"    {count} += 1", f"    if {count} > st.game.num_players:",
            "        raise GameRuleError('every player would be skipped, but the turns have not ended')",
            f"    L[{var}] = st.game.next_seat[L[{var}]]"]
    if again:
        return Snippet(lines + [f"if {skip}:", *step, "    GOTO 1", f"L[{skips}] = 0"], (end, itself))
    return Snippet(lines + [f"if {skip}:", "    _b_j = 0", "    while True:", *("    " + ln for ln in step),
                            f"        if not ({skip}):", "            break"], (end, itself))


def next_player(var: int) -> Snippet:
    """The turns go on to the next seat (the turns' player is a seat throughout: turns_init)."""
    return Snippet([f"L[{var}] = st.game.next_seat[L[{var}]]"])


def require(cond: str, message: str) -> Snippet:
    return Snippet([f"if not ({cond}):", f"    raise GameRuleError({message!r})"])


def each_card(what: str, one: Optional[str], body: Lines) -> Lines:
    """`body` for each card `_b_c` of the list `what`, or for the card `one` alone where it is one (no loop)."""
    if one is not None:
        return [f"_b_c = {one}", *body]
    return [f"for _b_c in {what}:", *("    " + ln for ln in body)]


def reveal(what: str, one: Optional[str] = None) -> Snippet:
    """Turns cards face up: State.known holds ~ of a face-up card's seats."""
    return Snippet(each_card(what, one, ["_b_s = st.known[_b_c]", "if _b_s >= 0:", "    st.known[_b_c] = ~_b_s",
                                         f"    st.log.append(({L_REVEAL}, _b_c))"]))


def give(what: str, to: str, one: Optional[str], counted: Sequence[int], family: Optional[int] = None,
         seat: bool = False) -> Snippet:
    """`counted`: the families whose cards are counted by owner (recount_move): a card there moves from one count to
    the other, so where there are any, the new owner must be a seat or the bank (-1), as a saved state's owners are
    (unchecked where `to` reads a name that holds a seat: `seat`, Scope.is_seat). `family`: the family the cards lie
    in, where the compiler knows it (no test of each card's)."""
    check = ["if not -1 <= _b_p < st.game.num_players:",
             "    raise GameRuleError(f'a card given to seat {_b_p}, which is no player')"] if counted and not seat \
        else []
    recount = "st.owned[{k}][st.owner[_b_c]] -= 1; st.owned[{k}][_b_p] += 1"
    moved = [f"if st.game.zone_family[st.where[_b_c]] == {k}: " + recount.format(k=k) if family is None
             else recount.format(k=k) for k in counted if family in (None, k)]
    return Snippet([f"_b_p = {to}", *check, *each_card(what, one, [*moved, "st.owner[_b_c] = _b_p"])])


def recount_move(counted: Sequence[int], dest: Optional[int], src: Optional[int]) -> Lines:
    """After card_move: the counts per owner of a family whose cards the rules count by owner (State.owned), one line
    per such family where the destination's family is known (`dest`), none where the source's is known too (`src`) and
    neither or both are that family."""
    lines: Lines = []
    for k in counted:
        count = f"st.owned[{k}][st.owner[_b_c]]"
        if dest is not None and src is not None:
            lines += [f"{count} += 1"] if dest == k != src else [f"{count} -= 1"] if src == k != dest else []
        elif dest == k:
            lines.append(f"if st.game.zone_family[_b_f] != {k}: {count} += 1")
        elif dest is not None:
            lines.append(f"if st.game.zone_family[_b_f] == {k}: {count} -= 1")
        else:
            lines += [f"if st.game.zone_family[_b_f] != st.game.zone_family[_b_z]:",
                      f"    if st.game.zone_family[_b_f] == {k}: {count} -= 1",
                      f"    if st.game.zone_family[_b_z] == {k}: {count} += 1"]
    return lines


def no_owned(family: int) -> Lines:
    """The counts by owner of a family that no card lies in any more (statements._emptied), set in place: code may
    hold the family's list of counts as a local (hoist._STATE_READ)."""
    return [f"st.owned[{family}][:] = st.game.no_counts"]


_ONE_CARD = re.compile(r"\[(?:[A-Za-z_]\w*|L\[\d+\]|\d+)\]")  # a list of one card given by a name, slot or number


def card_move(bottom: bool, dest: Optional[ZoneSpec], owners: bool, unsure: bool, src: Optional[ZoneSpec],
              few: tuple[Optional[bool], Optional[bool]], cached: frozenset[int], whole: bool = False,
              swept: bool = False, revealed: bool = True) -> Lines:
    """Moves card `_b_c` from its zone (`_b_f`, read here) to zone `_b_z`: the one place a move is written, inline
    as the hot path of every game (capacity, family cache, face and knowledge reset,
    log entry with the seats that see it go, as Game.sees; `owners`: some zone is seen by its cards' owners only).
    What `dest` and `src`, the destination's and the source's family where the compiler knows them, tell is settled
    here, else read at run time; `few`: whether each of them has few zones (Game.fam_few), where known; `cached`: the
    families the state may keep the cards of (Program.cached); `unsure`: the
    card's or the zone's kind is not known at load, so it is checked here (else settled at load). `whole`: the card
    goes with every card of its zone `_b_f` to a zone of no capacity, their lists changed at once by move_all;
    `swept`: the card lies in zone `_b_f` of a family that a sweep empties, which leaves its list and the cache to it;
    `revealed`: the card may have been revealed (else its kind is in Program.unshown: State.known is 0)."""
    family = "st.game.zone_family[_b_z]" if dest is None else dest.family_id
    if whole:
        return ["st.where[_b_c] = _b_z", *_refiled(bottom, family, src, few, cached), *_seen_go(dest, src, owners, revealed)]
    lines = [] if swept else [f"_b_f = st.game.fam_zones[{src.family_id}][0]" if src is not None and src.shape == "single"
                              else "_b_f = st.where[_b_c]"]  # a card of a family of one zone lies in that zone
    put = "insert(0, _b_c)" if bottom else "append(_b_c)"
    cap = "st.game.zone_cap[_b_z]" if dest is None else dest.capacity
    if unsure:
        holds = f"st.game.program.zones[{family}].kind" if dest is None else repr(dest.kind)
        lines += [f"_b_h = {holds}", "if st.game.program.card_kind[_b_c] != _b_h:",
                  "    raise GameRuleError(f'cannot move the {st.game.program.card_kind[_b_c]} "
                  "{st.game.card_ids[_b_c]} into {st.game.zone_names[_b_z]}: it holds {_b_h} cards')"]
    if cap is not None:
        full = "_b_k" if cap == 1 else f"len(_b_k) >= {cap}"  # a list of at least one card is true: no len call
        test, shown = f"{full} and (_b_f != _b_z or len(_b_k) > {cap})", cap  # a full zone is rare
        if dest is None:  # read at run time, where a zone may have none
            test, shown = f"{cap} is not None and {test}", f"{{{cap}}}"
        lines += ["_b_k = st.zones[_b_z]", f"if {test}:",
                  f"    raise GameRuleError(f'{{st.game.zone_names[_b_z]}} holds at most {shown} card(s)')"]
    lines += [*([] if swept else ["st.zones[_b_f].remove(_b_c)"]), ("_b_k." if cap is not None else "st.zones[_b_z].") + put,
              "st.where[_b_c] = _b_z", *([] if swept else _refiled(bottom, family, src, few, cached))]
    return lines + _seen_go(dest, src, owners, revealed)


def _seen_go(dest: Optional[ZoneSpec], src: Optional[ZoneSpec], owners: bool, revealed: bool) -> Lines:
    """card_move's reset of the moved card's face and knowledge (one number: State.known; none where it cannot have
    been `revealed`), and its log entry; the seats that see it go are those that see either zone (Game.zone_mask), each
    zone's settled where its family is known (a public one: every seat, nothing else counts; a hidden one: none)."""
    seen_by = [(zone, spec.visibility if spec is not None else None) for zone, spec in (("_b_f", src), ("_b_z", dest))]
    if any(vis == "public" for _, vis in seen_by):
        return ["st.known[_b_c] = 0"] * revealed + [logged(f"({L_MOVE}, _b_c, _b_f, _b_z, st.game.all_mask)")]
    mask = " | ".join(f"st.game.zone_mask[{zone}]" for zone, vis in seen_by if vis != "hidden") or "0"
    seen = [f"_b_s = {mask}"]
    if owners:
        seen += ["if _b_s < 0:", "    _b_s = st.game.sees(_b_f, _b_c, st.owner) | st.game.sees(_b_z, _b_c, st.owner)"]
    entry = f"({L_MOVE}, _b_c, _b_f, _b_z, _b_s)"
    common = [*seen, f"st.log.append({entry})"] if owners else [f"st.log.append({entry.replace('_b_s', mask)})"]
    # who knew the card still sees it leave (every seat, if it was face up); who else saw it is worked out only
    # where the log keeps its entries
    if not revealed:
        return ["if st.keep_log:", *("    " + ln for ln in common), "else:", "    st.log.append(())"]
    known = [*seen, "_b_s |= st.known[_b_c]"] if mask != "0" or owners else ["_b_s = st.known[_b_c]"]
    return ["if st.known[_b_c]:", "    if st.known[_b_c] < 0:", "        _b_s = st.game.all_mask",
            "    else:", *("        " + ln for ln in known),
            "    st.known[_b_c] = 0", "    " + logged(entry), "elif st.keep_log:", *("    " + ln for ln in common),
            "else:", "    st.log.append(())"]


def _refiled(bottom: bool, family: object, src: Optional[ZoneSpec], few: tuple[Optional[bool], Optional[bool]],
             cached: frozenset[int]) -> Lines:
    """card_move's upkeep of the family cache (State.fam_cards): a family of few zones is dropped, to be read afresh
    when next asked for; else the moved card is refiled where a family's list is kept (State.refile). None where
    neither family can be kept (`cached`)."""
    if not cached or (src is not None and src.family_id not in cached and isinstance(family, int) and family not in cached):
        return []
    origin = "_b_o" if src is None else str(src.family_id)
    tests = [test for test, known in ((f"st.game.fam_few[{origin}]", few[0]), (f"st.game.fam_few[{family}]", few[1]))
             if known is None]
    dropped = [f"st.fam_cards.pop({origin}, None)", *([f"st.fam_cards.pop({family}, None)"] if str(family) != origin else [])]
    refiled = [f"if {origin} in st.fam_cards or {family} in st.fam_cards:", f"    st.refile(_b_c, _b_f, _b_z, {bottom})"]
    lines = ["if st.fam_cards:"] + (["    _b_o = st.game.zone_family[_b_f]"] if src is None else [])
    if False in few:  # one has many zones: never dropped
        return lines + ["    " + ln for ln in refiled]
    if not tests:
        return lines + ["    " + ln for ln in dropped]
    return lines + [f"    if {' and '.join(tests)}:", *("        " + ln for ln in dropped), "    el" + refiled[0],
                    "    " + refiled[1]]


def logged(entry: str) -> str:
    """The line that logs `entry`, or only counts it where the log keeps no entries (State.keep_log)."""
    return f"st.log.append({entry} if st.keep_log else ())"


def move_all(zone: str, to: str, moving: Lines, apart: bool = False) -> Snippet:
    """Moves every card of the zone `zone` to the top of `to` (`moving`: card_move's lines with `whole`), the zones'
    lists changed once, not a card at a time: the same order, entries and state as card by card. `apart`: the zones
    are of two families, so never one zone (not tested)."""
    moved = ["st.zones[_b_z].extend(_b_y)", "_b_y.clear()"]
    return Snippet([f"_b_z = {to}", f"_b_f = {zone}", "_b_y = st.zones[_b_f]", "if _b_y:", "    for _b_c in _b_y:",
                    *("        " + ln for ln in moving),
                    *(["    " + ln for ln in moved] if apart else ["    if _b_f != _b_z:", *("        " + ln for ln in moved)])])


def sweep(family: int, dest: int, item: str, body: Lines, cached: frozenset[int]) -> Lines:
    """A loop that moves every card of `family` to zones of the family `dest` (statements._sweep; `body`: the move,
    card_move's lines `swept`, of card `item`), zone by zone in the family's order: each zone's list emptied once
    its cards are gone, the family cache dropped at the start. The budget is spent as each zone starts: all of a
    loop's rounds are spent before its last one runs, as for any loop that cannot break off."""
    drop = [f"    st.fam_cards.pop({k}, None)" for k in (family, dest) if k in cached]
    return [*(["if st.fam_cards:", *drop] if drop else []), f"for _b_f in st.game.fam_zones[{family}]:",
            "    _b_y = st.zones[_b_f]", *("    " + ln for ln in spent("len(_b_y)")), f"    for {item} in _b_y:",
            *("        " + ln for ln in body), "    _b_y.clear()"]


def move(what: str, to: str, moving: Lines, notify: bool, one: Optional[str] = None) -> Snippet:
    """Moves cards (`moving`: card_move's lines); with `notify` (a trigger listens) the moves are noted and
    `moved` fires. `one`: the code of the one card `what` lists, if it is known to be one."""
    if not notify:
        if one is None and _ONE_CARD.fullmatch(what):  # a list written with one card
            one = what[1:-1]
        top = None if one is None else _top_of(one)
        if top is not None and moving[0].startswith("_b_f = ") and moving.count(_TAKEN) == 1:  # _b_f: the card's zone
            if moving[1] == _TAKEN:  # taken out first: read by the pop that takes it
                return Snippet([f"_b_z = {to}", f"_b_f = {top[0]}", f"_b_c = (st.zones[_b_f] or {top[1]}).pop()",
                                *moving[2:]])
            return Snippet([f"_b_z = {to}", f"_b_f = {top[0]}", f"_b_c = (st.zones[_b_f] or {top[1]})[-1]",
                            *("st.zones[_b_f].pop()" if ln == _TAKEN else ln for ln in moving[1:])])
        return Snippet([f"_b_z = {to}", *each_card(what, one, moving)])
    return Snippet([f"_b_z = {to}", "_b_m = []", f"for _b_c in {what}:", *("    " + ln for ln in moving),
                    "    _b_m.append([_b_c, _b_f, _b_z])", "_fires['moved'](st, _b_m)"], pushes=True)


_TAKEN = "st.zones[_b_f].remove(_b_c)"  # card_move's line that takes the card out of its zone


def _top_of(one: str) -> Optional[tuple[str, str]]:
    """The zone and the failing call of a card read as a zone's top (hoist.end_items_inline: `(st.zones[Z] or
    _pick(…))[-1]`), else None: a move of it knows its zone and takes it by `pop()`, as nothing runs between."""
    tree = ast.parse(one, mode="eval").body
    if not (isinstance(tree, ast.Subscript) and ast.unparse(tree.slice) == "-1" and isinstance(tree.value, ast.BoolOp)
            and isinstance(tree.value.op, ast.Or) and len(tree.value.values) == 2):
        return None
    read, fail = tree.value.values
    if not (isinstance(read, ast.Subscript) and ast.unparse(read.value) == "st.zones" and isinstance(fail, ast.Call)
            and ast.unparse(fail.func) == "_pick"):
        return None
    return ast.unparse(read.slice), ast.unparse(fail)


def _decider(seat: str, known: bool) -> Lines:
    """The deciding seat `_b_w`, checked to be a player (ops.check_seat raises the error) unless `known` to be one:
    `seat` reads a name that holds a seat (Scope.is_seat)."""
    check = [] if known else ["if not 0 <= _b_w < st.game.num_players:", "    _check_seat(st, _b_w)"]
    return [f"_b_w = {seat}", *check]


def choose_action(seat: str, lister: int, actions: str, counts: bool, known: bool, through: bool) -> Snippet:
    """`choose action`: the options listed by the game's lister number `lister` (Game.listers, each made by
    compiler._option_listers), their labels made only when read. With agents playing inside the
    run (play_bots), the seat's agent takes the decision at once (State.agent_pick, which opens the node only for an
    agent that looks at the state), else the run stops at the node. `counts`: a plain random agent takes its option
    from the picking function beside it, `lister + 1` (compiler._option_picker), which counts the first action's
    options and builds the one drawn (not while a `forbid` is active: only listed options are tested against it).
    `known`: `seat` is known to be a player's (_decider). `through`: every action's body runs through (a function,
    ActionInfo.run), so taking one starts no frame: the run goes on with no test of the frames on top."""
    listed = [f"    _b_v = st.game.listers[{lister}](st, _b_w)", "    if not _b_v:", "        " + no_action("_b_w", actions)]
    stop = [STOPS_AT_DECISION, *listed, f"    STOP ({DECIDE}, _b_w, None, _b_v, -1)"]
    picked = [*listed, "    AFTER", "    st.take_action(_b_w, _b_v[st.agent_pick(_b_w, _b_v)])"]
    if not counts:
        return Snippet([*_decider(seat, known), *stop, "else:", *picked], pushes=not through, stepped=True)
    return Snippet([*_decider(seat, known), *stop, "elif st.forbids or st.random_bits[_b_w] is None:", *picked, "else:",
                    f"    _b_v = st.game.listers[{lister + 1}](st, _b_w)", "    AFTER", "    st.take_action(_b_w, _b_v)"],
                   pushes=not through, stepped=True)


def no_action(seat: str, actions: str) -> str:
    """The line that fails a `choose action` among `actions` (names) that offers the seat no option."""
    return f"raise GameRuleError(f'P{{{seat} + 1}} has no legal action ({actions})')"


def decide(seat: str, options: str, slot: int, labels: str, node: tuple[str, Any, Any], known: bool) -> Snippet:
    """`let x = choose … from …`: a decision among the listed values, labelled at once by the function named
    `labels` (ops.labels_of; equal labels are one option, ops.distinct); taken at once by the seat's agent
    with agents playing inside the run (State.decide_inline), else the run stops. `known`: as choose_action's."""
    return Snippet([*_decider(seat, known), f"_b_v = list({options})", "if not _b_v:",
                    "    raise GameRuleError('a decision with no options')",
                    f"_b_l = {labels}(st, _b_v)", "if len(set(_b_l)) < len(_b_l):", "    _b_l, _b_v = _distinct(_b_l, _b_v)",
                    f"st.pending = ({DECIDE}, _b_w, _b_l, _b_v, {slot})", STOPS_AT_DECISION, "    STOP", "else:",
                    "    AFTER", "    st.decide_inline()"],
                   node=node)


def random_pick(options: str, slot: int, labels: str, node: tuple[str, Any, Any]) -> Snippet:
    """`let x = random …`: a chance node over the listed values (one value: none), labelled at once by the
    function named `labels` (ops.labels_of; equal labels numbered, ops.unique); decided at once in a sampling run
    (State.sample_chance(n)), else the run stops."""
    too_many = ("f'a random choice among {len(_b_v)} outcomes, more than the {st.game.max_outcomes} the game declares "
                "(game.max_chance_outcomes(); a list of players, cards, zones or enum values must not repeat one)'")
    return Snippet([f"_b_v = list({options})", "if not _b_v:", "    raise GameRuleError('a random choice among no outcomes')",
                    "if len(_b_v) == 1:", f"    L[{slot}] = _b_v[0]", "else:", "    if len(_b_v) > st.game.max_outcomes:",
                    f"        raise GameRuleError({too_many})", f"    _b_l = _unique({labels}(st, _b_v))",
                    "    " + STOPS_AT_CHANCE, f"        STOP ({CHANCE}, -1, _b_l, _b_v, {slot})",
                    "    else:", "        _b_p = st.sample_chance(len(_b_v))", "        st.history.append(_b_l[_b_p])",
                    f"        L[{slot}] = _b_v[_b_p]"],
                   node=node)


def draw_pick(src: str, left: Optional[int], picked: int, end: list[int], shuffled: Optional[bool] = None) -> Snippet:
    """One card of a draw: a chance node over the cards left in a shuffled zone (decided at once in a sampling
    run, State.sample_chance(n); its labels, the card ids, are made when read), else the top card; none left to draw
    (`left`, the count, where the draw is of more than one card): to `end`. `shuffled`: whether the zone is, where
    the compiler knows it."""
    counted = [f"if L[{left}] <= 0:", "    GOTO 0"] if left is not None else []
    test = {None: "st.game.zone_shuffled[_b_z] and len(_b_k) > 1", True: "len(_b_k) > 1"}.get(shuffled)
    empty = "    raise GameRuleError(f'cannot draw from the empty zone {st.game.zone_names[_b_z]}')"
    top = f"L[{picked}] = _b_k[-1]"
    pick = ["if not _b_k:", empty, top] if test is None else [  # a chance node: more than one card, tested first
        f"if {test}:", "    " + STOPS_AT_CHANCE, f"        STOP ({CHANCE}, -1, None, _b_k.copy(), {picked})",
        "    else:", "        _b_c = _b_k[st.sample_chance(len(_b_k))]",
        "        st.history.append(st.game.card_ids[_b_c])", f"        L[{picked}] = _b_c", "elif _b_k:", "    " + top,
        "else:", empty]
    return Snippet([*counted, f"_b_z = {src}", "_b_k = st.zones[_b_z]", *pick],
                   (end,) if counted else (), node=("random", CARD, None))


def draw_place(picked: int, left: Optional[int], to: str, moving: Lines, notify: bool) -> Snippet:
    """Puts the drawn card (see draw_pick) where it goes (`moving`: card_move's lines) and counts it."""
    lines = [f"_b_c = L[{picked}]", f"_b_z = {to}", *moving, *([f"L[{left}] -= 1"] if left is not None else [])]
    if not notify:
        return Snippet(lines)
    return Snippet(lines + ["_fires['moved'](st, [[_b_c, _b_f, _b_z]])"], pushes=True)


def pay(amount: str, payer: Optional[str], payee: Optional[str], pidx: int, bank: int, name: str,
        at_most: bool, unsigned: Optional[tuple[Optional[str], str]] = None,
        seats: tuple[bool, bool] = (False, False)) -> Snippet:
    """A payment; the bank's side (no payer or payee given) and a whole-number amount are settled here, not
    tested each time (a player's side may still be the bank, -1, at run time, unless `seats` says that the payer's
    or the payee's code reads a name that holds a seat, Scope.is_seat). `unsigned`: where its test holds
    (None: always), the amount is its plain read, never below 0 (statements._unsigned): its sign is not checked."""
    short = ("    _b_n = _b_h" if at_most else
             f"    raise GameRuleError(f'P{{_b_s + 1}} cannot pay {{_b_n}} ' + {name!r} + f' (has {{_b_h}})')")
    lines = [f"_b_n = {amount}"]
    if not amount.isdigit():
        lines += ["if _b_n < 0:", f"    raise GameRuleError(f'a payment of {{_b_n}} ' + {name!r})"]
    if unsigned is not None:
        lines = [f"_b_n = {unsigned[1]}"] if unsigned[0] is None else \
            [f"if {unsigned[0]}:", f"    _b_n = {unsigned[1]}", "else:", *("    " + ln for ln in lines)]
    lines += [f"_b_s = {payer}"] if payer is not None else []
    lines += [f"_b_d = {payee}"] if payee is not None else []
    take = [f"st.gvars[{bank}] -= _b_n"]  # the bank's side
    give = [f"st.gvars[{bank}] += _b_n"]
    paid = take if payer is None else ["_b_r = st.pvars[_b_s]", f"_b_h = _b_r[{pidx}]", "if _b_h < _b_n:", short,
                                       f"_b_r[{pidx}] = _b_h - _b_n"]  # the payer's row read once
    got = give if payee is None else [f"st.pvars[_b_d][{pidx}] += _b_n"]
    if payer is not None and not seats[0] and payee is None:  # a seat or the bank pays the bank: only a seat changes
        lines += ["if _b_s >= 0:", *("    " + ln for ln in paid + got)]
    elif payee is not None and not seats[1] and payer is None:  # the bank pays a seat or itself
        lines += ["if _b_d >= 0:", *("    " + ln for ln in paid + got)]
    else:
        lines += (paid if payer is None or seats[0] else ["if _b_s >= 0:", *("    " + ln for ln in paid), "else:",
                                                           *("    " + ln for ln in take)]) \
            + (got if payee is None or seats[1] else ["if _b_d >= 0:", *("    " + ln for ln in got), "else:",
                                                      *("    " + ln for ln in give)])
    who = f"{'_b_s' if payer is not None else -1}, {'_b_d' if payee is not None else -1}"
    log = logged(f"({L_PAY}, {who}, _b_n, {name!r})")
    if amount.isdigit() and int(amount) and not at_most:  # a whole number paid in full: logged
        return Snippet(lines + [log])
    return Snippet(lines + ["if _b_n:", "    " + log])


def frame_locals(args: list[str], nlocals: Optional[int], bid: int) -> str:
    """The code of a new frame's locals: the arguments, then None up to `nlocals` (where known here, else read from
    the game: block `bid`'s), made as one list."""
    if nlocals is None:
        read = f"[None] * (st.game.nlocals[{bid}] - {len(args)})" if args else f"[None] * st.game.nlocals[{bid}]"
        return f"[{', '.join(args)}] + {read}" if args else read
    blank = nlocals - len(args)
    return f"[{', '.join(args + ['None'] * blank)}]" if blank <= 8 else f"[{''.join(a + ', ' for a in args)}*(None,) * {blank}]"


def call_rule(bid: int, args: list[str], nlocals: Optional[int]) -> Snippet:
    """Starts the rule's frame with its arguments (and spends the budget, as every rule entered does); `nlocals`: the
    rule's number of locals, where known."""
    return Snippet([f"_b_t = [{bid}, 0, {frame_locals(args, nlocals, bid)}]",
                    "st.frames.append(_b_t)", *_DEPTH] + SPEND, pushes=True, calls=bid)


def phase_begin(name: str, bid: int, nlocals: int) -> Snippet:
    """Enters a phase: set, logged, and its block's frame started (run at once, as a rule's); `nlocals`: the phase's
    number of locals (its block is compiled first), so the frame's list is written out."""
    return Snippet([*_phase_entered(name), f"_b_t = [{bid}, 0, {frame_locals([], nlocals, bid)}]", "st.frames.append(_b_t)"],
                   pushes=True, calls=bid)


def phase_through(name: str, fn: str, nlocals: int) -> Snippet:
    """Enters a phase whose body runs through (no stop inside), as phase_begin: its function `fn` (Game.rules) called
    at once, with no frame."""
    return Snippet([*_phase_entered(name), f"{fn}(st, {frame_locals([], nlocals, 0)})"])


def _phase_entered(name: str) -> Lines:
    """A phase entered: set and logged."""
    return [f"st.phase = {name!r}", f"st.log.append(({L_PHASE}, {name!r}))"]


def run_effect(obj: str, field: str, acting: str, as_self: Optional[str]) -> Snippet:
    """Runs a card's effect block, if it has one, with `self` = the card (or the card `as_self`) and `me` = the
    seat `acting` (and spends the budget, as every effect entered does)."""
    me = "_b_c" if as_self is None else as_self
    return Snippet([f"_b_c = {obj}", f"_b_b = st.game.program.cards[_b_c].effects.get({field!r})", "if _b_b is not None:",
                    f"    _b_t = [_b_b, 0, [{me}, {acting}] + [None] * (st.game.nlocals[_b_b] - 2)]",
                    "    st.frames.append(_b_t)", *("    " + ln for ln in SPEND)], pushes=True)


def run_effect_through(obj: str, table: int, slots: int, acting: str, as_self: Optional[str]) -> Snippet:
    """run_effect where every effect the `run` may reach runs through: the card's function in the game's table
    `table` (Game.effect_runs) called at once, with no frame (the budget spent as a frame's entry spends it) and the
    most locals one of them has (`slots`) past `self` and `me`."""
    me = "_b_c" if as_self is None else as_self
    return Snippet([f"_b_c = {obj}", f"_b_e = st.game.effect_runs[{table}][_b_c]", "if _b_e is not None:",
                    *("    " + ln for ln in SPEND), f"    _b_e(st, [{me}, {acting}{', None' * slots}])"])


def add_modifier(mid: int, fidx: int, scope: int, captured: list[int]) -> Snippet:
    """Activates a modifier, with the values of the creating block's locals it names; `fidx`: the field it
    changes, noted in the state's `modded`. The lists of modifiers and restrictions are replaced, never
    changed in place, so clones share them."""
    values = ", ".join(f"L[{slot}]" for slot in captured)
    return Snippet([f"st.mods = [*st.mods, ({mid}, {scope}, [{values}])]",
                    f"st.modded = st.modded | {{{fidx}}}"])


def add_forbid(fid: int, scope: int, captured: list[int]) -> Snippet:
    """Activates a restriction (a new list, as add_modifier)."""
    values = ", ".join(f"L[{slot}]" for slot in captured)
    return Snippet([f"st.forbids = [*st.forbids, ({fid}, {scope}, [{values}])]"])


def emit(event: str, args: list[str]) -> str:
    """The line that sets off the triggers listening to `event`, with the event's values."""
    return f"_fires[{event!r}](st, [[{', '.join(args)}]])"


def round_begin(emits: Optional[str]) -> Snippet:
    """Counts and logs the new round; `emits`: the line that sets off `round_start` triggers, if any listen."""
    lines = ["st.round += 1", f"st.log.append(({L_ROUND}, st.round))"]
    return Snippet(lines + [emits], pushes=True) if emits is not None else Snippet(lines)


def dispatcher(triggers: list[Trigger], nlocals: list[int], env: dict[str, Any]) -> Callable[..., None]:
    """`fire(st, occurrences)` for one event: pushes the frames of its triggers whose condition holds, each
    occurrence's in definition order, so they run in that order (a condition reads only the event's values
    `L`, so a frame is made only once it holds); it spends the budget as every rule entered does. The conditions
    change nothing: the state's lists they read are read once, and a value one computes that a later one computes
    again is kept (hoist.reused_code)."""
    lines = ["def fire(st, occurrences):", "    pushed = []", "    t = 0", "    try:", "        for L in occurrences:"]
    for k, trig in enumerate(triggers):
        values = "".join(f"L[{i}], " for i in range(trig.values)) + "None, " * (nlocals[trig.block] - trig.values)
        lines += [f"            t = {k}", f"            if {trig.where or True}:",
                  f"                pushed.append([{trig.block}, 0, [{values}]])"]
    lines += ["    except GameRuleError as e:", "        raise e.at(_positions[t]) from None", "    if pushed:",
              "        pushed.reverse()", "        frames = st.frames", "        frames += pushed",
              f"        if len(frames) > {MAX_DEPTH}:", "            _guard_depth(st)", *("    " + ln for ln in SPEND)]
    ns = dict(env, GameRuleError=GameRuleError, _positions=[t.pos for t in triggers], _guard_depth=guard_depth,
              _over_budget=over_budget)
    made = lambda: reused_code("\n".join([lines[0], *repeated_reads_as_locals(lines[1:], "    ")]))  # noqa: E731
    exec(compiled("dispatcher\0" + "\n".join(lines), made), ns)  # noqa: S102 - our own generated code
    fire: Callable[..., None] = ns["fire"]
    return fire
