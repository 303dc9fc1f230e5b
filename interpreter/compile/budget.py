"""The step budget (Limits.max_steps) a generated function spends, at its loops and calls, held in a local (`_left`)
between the places where the state's count may be read: before a call into code that spends or renews it, at a
stop (a generator's yield) and at a return, the local is written back (State.budget), and read again at the next
spend. A spend in the local is 8 bytecodes, in the state 11. Where a spend is the first since a stop renewed the
count (the step, State.agent_pick, sample_chance(n): max_steps, at least 1) and spends 1, it cannot fail: its test
is dropped. Errors need no write-back: nothing reads the count after one (the step goes back, the run ends; the
budget's error names the limit). Each loop's count is kept where its rounds spend less (ROUNDS rounds a loop)."""
from __future__ import annotations

import ast
import copy
from typing import NamedTuple, Optional, cast


LEFT = "_left"  # the local that holds the count
ROUNDS = 3  # the rounds a loop is taken to run, weighing its rounds' spends against its entry's
# what generated code calls that neither spends the budget nor renews it: Python's builtins and the engine's helpers
# (they read and change the state's lists, never run a rule), and the methods of lists, maps and errors
_SAFE_NAMES = frozenset(("len", "sum", "min", "max", "any", "all", "list", "tuple", "set", "frozenset", "dict",
                         "sorted", "range", "enumerate", "zip", "map", "filter", "abs", "isinstance", "divmod", "int",
                         "str", "GameRuleError", "_over_budget", "_guard_depth", "_check_seat", "_distinct", "_unique",
                         "_pick", "_through", "_member", "_mapget", "_concat", "_famcards"))
_EXPRESSIONS = ("_f_", "_fg_")  # the rules' functions (expressions._function): an expression never spends
_SAFE_METHODS = frozenset(("append", "remove", "extend", "insert", "clear", "pop", "get", "copy", "index", "count",
                           "at", "refile", "setdefault", "add", "discard", "items", "keys", "values", "bit_length"))
# State's calls that renew the count (a decision or a draw inside the run), with the arguments they then have (the
# API's sample_chance() has none: it renews nothing)
_RENEWS = {"agent_pick": 2, "sample_chance": 1, "decide_inline": 0}
# bytecodes of a spend in the state's count, in the local and from the state's into the local (checked, unchecked), and
# of a write-back or read of the local
_IN_STATE, _IN_LOCAL, _INTO_LOCAL = (11, 6), (8, 4), (9, 5)
_MOVE = 3


class _At(NamedTuple):
    """Where the count is at a point of the code."""

    local: bool  # in the local (the state's is behind)
    fresh: bool  # as a stop renewed it: nothing spent since


_STATE = _At(False, False)


class _Unsure(Exception):
    """The function holds a form the pass does not follow: it is left as it is."""


def budget_kept_locally(tree: ast.AST) -> None:
    """Each function below tree that spends the budget, with its count held in the local where that pays (module
    docstring), in place (one that holds a function of its own is left as it is)."""
    facts, functions = _facts(tree)
    for fn in functions:
        if facts[id(fn)] & _NAMES:
            _Function(fn, facts).lowered()


def _is_count(node: ast.AST) -> bool:
    """`st.budget`."""
    return (isinstance(node, ast.Attribute) and node.attr == "budget" and isinstance(node.value, ast.Name)
            and node.value.id == "st")


def _count(store: bool = False) -> ast.Attribute:
    return ast.Attribute(ast.Name("st", ast.Load()), "budget", ast.Store() if store else ast.Load())


def _left(store: bool = False) -> ast.Name:
    return ast.Name(LEFT, ast.Store() if store else ast.Load())


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _spent(stmt: ast.stmt, test: Optional[ast.stmt]) -> Optional[ast.expr]:
    """What `stmt` spends, where it and `test` are a spend as the snippets write it (blocks.spent, as cheaper_forms
    leaves it): `st.budget = st.budget - n` and `if st.budget < 0: _over_budget(st)`."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_count(stmt.targets[0])
            and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.op, ast.Sub) and _is_count(stmt.value.left)
            and isinstance(test, ast.If) and not test.orelse and isinstance(test.test, ast.Compare)
            and _is_count(test.test.left) and isinstance(test.test.ops[0], ast.Lt)
            and isinstance(test.test.comparators[0], ast.Constant) and test.test.comparators[0].value == 0
            and len(test.body) == 1 and isinstance(call := getattr(test.body[0], "value", None), ast.Call)
            and _is_name(call.func, "_over_budget")):
        return None
    return stmt.value.right


# the facts of a node (and of those below it): it names the count (the state's or the local); it stops (a yield, or
# one of State's calls that renew the count: a decision or draw inside the run); it calls what may spend (a call into
# other generated code, a `yield from`); it leaves the function (any of those, or a return)
_NAMES, _STOPS, _CALLS, _LEAVES = 1, 2, 4, 8


def _facts(tree: ast.AST) -> tuple[dict[int, int], list[ast.FunctionDef]]:
    """Each node's facts (by id), those of the nodes below it included, and the functions below tree."""
    nodes, parents = [tree], [-1]
    i = 0
    while i < len(nodes):  # (walked, noting each node's parent; an expression's context is no node of interest)
        for name in nodes[i]._fields:
            value = getattr(nodes[i], name, None) if name != "ctx" else None
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, ast.AST):
                    nodes.append(v)
                    parents.append(i)
        i += 1
    facts = [_own_facts(n) for n in nodes]
    for j in range(len(nodes) - 1, 0, -1):
        facts[parents[j]] |= facts[j]
    return {id(n): f for n, f in zip(nodes, facts)}, [n for n in nodes if isinstance(n, ast.FunctionDef)]


def _own_facts(n: ast.AST) -> int:
    """The node's own facts (_facts), by its type (a test of the commonest first)."""
    kind = type(n)
    if kind is ast.Name:
        return _NAMES if cast(ast.Name, n).id == LEFT else 0
    if kind is ast.Attribute:
        return _NAMES if _is_count(n) else 0
    if kind is ast.Call:
        f = cast(ast.Call, n).func
        if isinstance(f, ast.Name):
            safe = f.id in _SAFE_NAMES or f.id.startswith(_EXPRESSIONS)
        elif isinstance(f, ast.Attribute) and _is_name(f.value, "st"):
            return _STOPS | _LEAVES if len(cast(ast.Call, n).args) == _RENEWS.get(f.attr) else _CALLS | _LEAVES
        else:
            safe = isinstance(f, ast.Attribute) and f.attr in _SAFE_METHODS
        return 0 if safe else _CALLS | _LEAVES
    if kind is ast.Yield:
        return _STOPS | _LEAVES
    if kind is ast.YieldFrom or kind is ast.Await:
        return _CALLS | _LEAVES
    return _LEAVES if kind is ast.Return else 0


Made = tuple[list[ast.stmt], Optional[_At], float]  # statements, where the count is at their end (None: never), cost


def _own(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of the statements, not those of the loops inside them (whose breaks are their own)."""
    out: list[ast.AST] = []
    for s in stmts:
        if isinstance(s, (ast.For, ast.While)):
            out += _own(s.orelse)
        else:
            out += [s, *_own([c for c in ast.iter_child_nodes(s) if isinstance(c, ast.stmt)])]
            for h in getattr(s, "handlers", []):
                out += _own(h.body)
    return out


class _Function:
    """One function's statements with the count held in the local where it pays."""

    def __init__(self, fn: ast.FunctionDef, facts: dict[int, int]) -> None:
        self.fn = fn
        self.facts = facts
        self.heads: list[_At] = []  # the heads of the loops around
        # a loop (by its id, -1) or the rest of a statement list (its id, the index) made, by its entry
        self.made: dict[tuple[int, int, _At, Optional[_At], Optional[_At]], Made] = {}

    def lowered(self) -> None:
        """The function with its count held in the local, if the pass follows all of it."""
        try:
            self.fn.body = self.block(self.fn.body, _STATE, _STATE)[0]  # (falling off its end: a return)
        except _Unsure:
            return

    def block(self, stmts: list[ast.stmt], at: Optional[_At], goal: Optional[_At] = None, i: int = 0) -> Made:
        """The statements from the i-th on, entered with the count at `at` (and moved to where `goal` has it at their
        end, if given): at a spend where the count is in the state, the rest made both with the count left there and
        with it read into the local, the cheaper kept."""
        out: list[ast.stmt] = []
        cost = 0.0
        while i < len(stmts):
            if at is None:  # past a return, raise, break or continue: never run
                return out + stmts[i:], None, cost
            amount = _spent(stmts[i], stmts[i + 1] if i + 1 < len(stmts) else None)
            if amount is None:
                made, at, c = self._statement(stmts[i], at)
                out += made
                cost += c
                i += 1
                continue
            test = cast(ast.If, stmts[i + 1])
            if self.facts[id(amount)] & (_NAMES | _LEAVES):  # (a count that reads the budget or calls: never written)
                raise _Unsure
            if at.local:
                made, at, c = self._spend(stmts[i], test, amount, at, True)
                out += made
                cost += c
                i += 2
                continue
            key = (id(stmts), i, at, self.heads[-1] if self.heads else None, goal)
            if key not in self.made:
                ways = []
                for local in (False, True):
                    made, after, c = self._spend(stmts[i], test, amount, at, local)
                    rest, end, c2 = self.block(stmts, after, goal, i + 2)
                    ways.append((made + rest, end, c + c2))
                self.made[key] = min(ways, key=lambda way: way[2])
            made, end, c = self.made[key]
            return out + made, end, cost + c
        if at is not None and goal is not None and at.local != goal.local:
            made, c = self._to(at, goal, stmts[-1])
            return out + made, at._replace(local=goal.local), cost + c
        return out, at, cost

    def _spend(self, stmt: ast.stmt, test: ast.If, amount: ast.expr, at: _At, local: bool) -> Made:
        """A spend of `amount`, the count then in the local (read into it from the state's) or in the state; its test
        dropped where it cannot fail."""
        checked = not (at.fresh and isinstance(amount, ast.Constant) and amount.value == 1)
        name, read = (_left(True), _left()) if local else (_count(True), _count())
        new = ast.copy_location(ast.Assign([name], ast.BinOp(_left() if at.local else _count(), ast.Sub(), amount)),
                                stmt)
        made: list[ast.stmt] = [new]
        if checked:
            check = copy.copy(test)
            check.test = ast.copy_location(ast.Compare(read, [ast.Lt()], [ast.Constant(0)]), test.test)
            made.append(check)
        cost = (_IN_LOCAL if at.local else _INTO_LOCAL if local else _IN_STATE)[0 if checked else 1]
        return made, _At(local, False), cost

    def _statement(self, s: ast.stmt, at: _At) -> Made:
        if isinstance(s, ast.If):
            return self._if(s, at)
        if isinstance(s, (ast.For, ast.While)):
            return self._loop(s, at)
        if isinstance(s, ast.Try):
            return self._try(s, at)
        if self.facts[id(s)] & _NAMES or isinstance(s, (ast.With, ast.AsyncWith, ast.AsyncFor, ast.Match, ast.Global,
                                                        ast.Nonlocal)):
            raise _Unsure
        if isinstance(s, ast.Raise):  # an error: nothing reads the count after it
            return [s], None, 0.0
        if isinstance(s, (ast.Break, ast.Continue)):
            if not self.heads:
                raise _Unsure
            made, c = self._to(at, self.heads[-1], s)
            return made + [s], None, c
        spends, fresh = self._calls(s)
        if isinstance(s, ast.Return) or spends:
            made, c = self._to(at, _STATE, s)
            return made + [s], None if isinstance(s, ast.Return) else _At(False, fresh), c
        return [s], at, 0.0

    def _calls(self, node: ast.AST) -> tuple[bool, bool]:
        """Whether node may spend or renew the count, or stop, and whether the count is then as a stop renewed it."""
        f = self.facts[id(node)]
        return bool(f & (_STOPS | _CALLS)), f & (_STOPS | _CALLS) == _STOPS

    def _to(self, at: _At, to: _At, like: ast.stmt) -> tuple[list[ast.stmt], float]:
        """The line that moves the count from where `at` has it to where `to` has it (at like's line), if any, and its
        cost."""
        if at.local == to.local:
            return [], 0.0
        stmt = ast.Assign([_count(True)], _left()) if at.local else ast.Assign([_left(True)], _count())
        return [ast.copy_location(stmt, like)], _MOVE

    def _tested(self, test: ast.expr, s: ast.stmt, at: _At) -> tuple[list[ast.stmt], _At, float]:
        """The line before a test or a loop's source that may spend (the count back in the state), if any."""
        if self.facts[id(test)] & _NAMES:
            raise _Unsure
        spends, fresh = self._calls(test)
        if not spends:
            return [], at, 0.0
        made, c = self._to(at, _STATE, s)
        return made, _At(False, fresh), c

    def _if(self, s: ast.If, at: _At) -> Made:
        head, at, cost = self._tested(s.test, s, at)
        new = copy.copy(s)
        if isinstance(s.test, ast.Constant) and s.test.value is True:  # a resumable runner's stop: its else never runs
            new.body, then, c1 = self.block(s.body, at)
            new.orelse = []
            return head + [new], then, cost + c1
        new.body, then, c1 = self.block(s.body, at, at)  # each branch ends with the count where it was before them
        new.orelse, other, c2 = self.block(s.orelse, at, at)
        ends = [e for e in (then, other) if e is not None]
        return head + [new], at._replace(fresh=all(e.fresh for e in ends)) if ends else None, cost + max(c1, c2)

    def _try(self, s: ast.Try, at: _At) -> Made:
        """A try whose handlers each end in a raise (or end the run of an ended game: the generated `except
        IndexError`, blocks._ENDED): the count goes on from its body."""
        if s.finalbody:
            raise _Unsure
        for h in s.handlers:
            first = h.body[0]
            ended = (isinstance(h.body[-1], ast.Return) and h.type is not None and _is_name(h.type, "IndexError")
                     and isinstance(first, ast.If) and _is_name(first.test, "frames")
                     and isinstance(first.body[0], ast.Raise) and not first.body[0].exc)
            if self.facts[id(h)] & _NAMES or not (isinstance(h.body[-1], ast.Raise) or ended):
                raise _Unsure
        new = copy.copy(s)
        new.body, end, c = self.block(s.body, at, at)
        new.orelse, end, c2 = self.block(s.orelse, end, at)
        return [new], end, c + c2

    def _loop(self, s: ast.For | ast.While, at: _At) -> Made:
        """A loop entered at `at`, its count at its head where its rounds cost less; one that neither spends nor calls
        as it is."""
        if not self.facts[id(s)] & (_NAMES | _LEAVES):
            return [s], at, 0.0
        if isinstance(s, ast.For):
            head, at, cost = self._tested(s.iter, s, at)
        elif self.facts[id(s.test)] & (_NAMES | _LEAVES):
            raise _Unsure
        else:
            head, cost = [], 0.0
        outer = self.heads[-1] if self.heads else None
        choices = []
        for local in (False, True):
            start = _At(local, False)
            key = (id(s), -1, start, outer, None)
            if key not in self.made:
                self.made[key] = self._rounds(s, start)
            new, _, c = self.made[key]
            entry, move = self._to(at, start, s)
            opened = _MOVE if local and not at.local else 0  # the write-back after it, somewhere
            choices.append((move + c + opened, local, entry + new))
        c, local, made = min(choices, key=lambda choice: choice[0])
        endless = isinstance(s, ast.While) and isinstance(s.test, ast.Constant) and s.test.value is True
        left = not endless or any(isinstance(n, ast.Break) for n in _own(s.body))
        return head + made, _At(local, False) if left else None, cost + c

    def _rounds(self, s: ast.For | ast.While, head: _At) -> Made:
        """The loop with its count at `head` as each round starts, and the bytecodes ROUNDS rounds spend on it."""
        new = copy.copy(s)
        self.heads.append(head)
        try:
            new.body, _, c = self.block(s.body, head, head)
        finally:
            self.heads.pop()
        new.orelse, _, c2 = self.block(s.orelse, head, head)
        tested = (isinstance(s, ast.While) and isinstance(s.test, ast.Compare) and _is_name(s.test.left, "pc")
                  and isinstance(s.test.ops[0], ast.Gt))  # (blocks._loop's tested rounds:
        return [new], head, (1 if tested else ROUNDS) * c + c2  # the round a runner entered past a loop's first arm)
