"""What the parts of the compiler share: the program being built, the names it knows so far, the
namespace of the generated code, type references and type expectations."""
from __future__ import annotations

import itertools
import string
from contextlib import contextmanager
from types import CodeType
from typing import Any, Callable, Iterator, Optional, Union

from dsl import ast as A
from dsl.errors import did_you_mean, error_at
from interpreter.compile.code_cache import compiled
from interpreter.compile.hoist import game_tables_bound, hoist_function_reads, made_for_game, pure_function_code
from interpreter.compile.lowering import function_source
from interpreter.compile.types import (
    BOOL,
    EFFECT,
    INT,
    PLAYER,
    TEXT,
    T,
    card,
    compatible,
    enum,
    list_of,
)
from interpreter.runtime.helpers import ENV
from interpreter.runtime.options import allowed
from interpreter.runtime.program import SCOPES, Fn, Program

BUILTIN_TYPES = {"int": INT, "bool": BOOL, "text": TEXT, "player": PLAYER, "effect": EFFECT}


def check_told(told: Optional[A.Told], names: list[str], owner: str, allowed: str) -> None:
    """A `told` text may name only what the example fills in: an action's parameters, a choice's value."""
    for text in [told.done, told.infinitive] if told is not None else []:
        for lang, template in text.by_lang.items():
            for fname in template_fields(template, text.pos, f"the {lang} told text of {owner}"):
                if fname not in names:
                    raise error_at(text.pos, f"the told text of {owner} names '{fname}', which is not {allowed}",
                                   did_you_mean(fname, names))


def template_fields(template: str, pos: A.Pos, what: str) -> list[str]:
    """The names in braces of a label or id template; a malformed template is a RulesError."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise error_at(pos, f"{what} is malformed: {exc}", "write names in braces, as in \"{name}\"; '{{' is a brace") \
            from None
    names = []
    for _, fname, _, _ in parts:
        if fname is not None:
            if not fname.isidentifier():
                raise error_at(pos, f"{what} has '{{{fname}}}', which is not a name", "write a name in the braces")
            names.append(fname)
    return names


def names_in(node: Any) -> set[str]:
    return {n.name for n in A.walk(node) if isinstance(n, A.Name)}


def guard_levels(act: A.ActionDef) -> list[tuple[Any, int]]:
    """The leading `let`s and `require`s of an action's body (they guard its options), each with its level: the
    number of the last parameter it depends on, 0 for none (the listing tests it before the loops)."""
    level_of = {prm.name: i + 1 for i, prm in enumerate(act.params)}
    out: list[tuple[Any, int]] = []
    for stmt in A.opened(act.body):
        if not isinstance(stmt, (A.Let, A.Require)):
            break
        level = max([level_of.get(n, 0) for n in names_in(stmt.value if isinstance(stmt, A.Let) else stmt.cond)] + [0])
        if isinstance(stmt, A.Let):
            level_of[stmt.name] = level
        out.append((stmt, level))
    return out


def counted_first(act: A.ActionDef) -> bool:
    """Whether a `choose action` whose first action is `act` lets a plain random agent count that action's options
    (compiler._option_picker): one parameter and no guard that reads it, so its options are one loop over a list."""
    return len(act.params) == 1 and all(level == 0 for _, level in guard_levels(act))


def owner_count(e: A.CallComp) -> Optional[tuple[str, A.Name]]:
    """`count(c for c in cards(F) if owner(c) == x)`, x a name other than c: (F, x). Such a count is kept per owner
    as cards move and change hands (State.owned), not found by a pass over F's cards each time it is read."""
    comp, cond = e.comp, e.comp.cond
    if e.func != "count" or comp.key is not None or not (isinstance(comp.expr, A.Name) and comp.expr.name == comp.var) \
            or not (isinstance(comp.source, A.Call) and comp.source.func == "cards" and len(comp.source.args) == 1
                    and isinstance(comp.source.args[0], A.Name)) or not (isinstance(cond, A.BinOp) and cond.op == "=="):
        return None
    for mine, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if isinstance(mine, A.Call) and mine.func == "owner" and len(mine.args) == 1 and isinstance(mine.args[0], A.Name) \
                and mine.args[0].name == comp.var and isinstance(other, A.Name) and other.name != comp.var:
            return comp.source.args[0].name, other
    return None


@contextmanager
def nesting_limit(at: A.Pos) -> Iterator[None]:
    """Python's own limits on nesting, met while generated code is parsed or run, as a rules error at `at`."""
    try:
        yield
    except (SyntaxError, RecursionError, MemoryError):
        raise error_at(at, "this expression is nested too deeply", "split it up with `let` or a `function`") from None


class CompilerBase:
    """The compiler's shared state; the expression, statement and definition parts build on it."""

    def __init__(self, items: list[A.Node], name: str, variants: list[str]) -> None:
        self.items = items
        # the card kinds a rule may reveal, where known before the moves are compiled (compile_program; None: any);
        # and those the `reveal`s compiled so far name (s_Reveal)
        self.shown: Optional[frozenset[str]] = None
        self.revealed: set[str] = set()
        self.at: A.Pos = items[0].pos if items else A.Pos(file="?", line=1, col=1)  # where errors point
        game = next((i for i in items if isinstance(i, A.GameDef)), None)
        if game is None:
            raise error_at(items[0].pos if items else A.Pos(file="?", line=1, col=1), "no `game` definition found")
        self.p = Program(name=game.name, min_players=game.min_players, max_players=game.max_players,
                         variants=variants, items=items)
        self.by_type: dict[type, list[Any]] = {}
        for item in items:
            self.by_type.setdefault(type(item), []).append(item)
        self.functions: dict[str, A.FunctionDef] = {f.name: f for f in self.of(A.FunctionDef)}
        self.compiled_functions: dict[str, tuple[str, T]] = {}
        self.function_src: dict[str, tuple[list[str], str]] = {}  # parameters' and body's generated code
        # `_fires`: event → the function that sets off its triggers (blocks.dispatcher), once all are compiled
        self.env: dict[str, Any] = dict(ENV, _allowed=allowed, _fires={})
        self.lambdas: dict[str, Any] = {}
        self.numbers = itertools.count()  # of the Python names of its generated code (scope.numbering)
        self.compiling: set[str] = set()
        self.rules: dict[str, A.RuleDef] = {r.name: r for r in self.of(A.RuleDef)}
        self.rule_blocks: dict[str, int] = {}
        self.straight_rules: dict[str, bool] = {}  # rule → whether it runs through (StatementCompiler._straight_rule)
        self.straight_effects: dict[str, bool] = {}  # effect field → whether all run through (_straight_effects)
        # such a rule, and per parameter the family whose positions its argument runs over (if any) → its function's
        # name and its locals (StatementCompiler._rule_function)
        self.rule_functions: dict[tuple[str, tuple[Optional[int], ...]], tuple[str, int]] = {}
        # (kind, effect field) → its table in Program.effect_runs and most locals, None where an effect may stop (StatementCompiler._effect_table)
        self.effect_tables: dict[tuple[str, str], Optional[tuple[int, int]]] = {}
        self.action_ids: dict[str, int] = {}
        self.option_code: dict[int, list[str]] = {}  # action → its options' loops, for the listing functions
        self.size_code: dict[int, str] = {}  # a numbered zone family → the code of its size (compiler._zone_sizes)
        # the actions of each `choose action` → its number k: its listing function is Program.listers[2k], its
        # picking function (or None) [2k + 1], compiled once the actions are
        self.option_listers: dict[tuple[int, ...], int] = {}
        self.consts: dict[str, tuple[int, T]] = {}
        # a `let`'s value code and its slot, while the statement right after it starts: that code reads the slot
        self.reused: Optional[tuple[str, str]] = None
        self.after_let: Optional[tuple[str, str]] = None  # the `let` just compiled, for the next statement
        # a `let` of cards whose family the compiler knows (its name, that family), while the next statement compiles:
        # nothing ran between them, so the cards still lie there (a move of them needs not look where they are)
        self.let_source: Optional[tuple[str, Any]] = None
        # while an action's body is compiled: the moves of its option's cards that still lie in their domains, with the
        # family each comes from, and its lets of such a card's position, with the family it is a place of
        # (Compiler._as_listed)
        self.listed_moves: dict[int, Any] = {}
        self.listed_places: dict[int, int] = {}
        self.roomy: Optional[A.Move] = None  # the move about to be compiled, if its destination has room (_note_room)
        self.emptied: Optional[int] = None  # the counted family the loop being compiled empties (_emptied)
        self.swept: Optional[A.Move] = None  # the move of the loop being compiled that sweeps a family (_sweep)
        self.const_code: dict[str, str] = {}  # a constant whose value is a number, truth value or text: that literal
        self.gvar_index: dict[str, tuple[int, T]] = {}
        self.pvar_index: dict[str, tuple[int, T]] = {}
        self.events: set[str] = {t.event for t in self.of(A.TriggerDef)}
        self.listed: set[int] = set()  # ids of the requirements of the action being compiled that list its options
        self.declared: dict[str, A.EventDef] = {e.name: e for e in self.of(A.EventDef)}  # `event NAME(…) TEXT`
        changes = [n for item in items for cls in (A.Modify, A.Forbid) for n in A.found(item, cls)]
        # the zone families some count by owner may read (owner_count): their moves keep the counts (Program.counted)
        self.owner_counted = {m[0] for m in map(owner_count, (n for item in items for n in A.found(item, A.CallComp))) if m}
        # the zone families the rules read the cards of (Program.cached): as `cards(F)` or an aggregate over F (the
        # calls the load's checks index anyway); one read otherwise is read afresh each time (helpers.family_cards)
        families = {z.name for z in self.of(A.ZoneDef) if z.shape != "single"}
        read = [n.args[0] for item in items for n in A.found(item, A.Call) if n.func == "cards" and len(n.args) == 1]
        read += [n.comp.source for item in items for n in A.found(item, A.CallComp)]
        self.read_whole = {e.name for e in read if isinstance(e, A.Name) and e.name in families}
        self.modifiable: set[tuple[str, str]] = {(m.kind, m.field) for m in changes if isinstance(m, A.Modify)}
        # the field names some `set` writes (of any kind: a card of a kind known only at run time is set by name)
        self.set_fields = {n.target.name for item in items for n in A.found(item, A.SetStmt) if isinstance(n.target, A.Attr)}
        # the last read of a card field that keeps its printed values: (its code, kind, field), for e_Index
        self.printed_read: Optional[tuple[str, str, str]] = None
        self.const_keys: dict[str, set[Any]] = {}  # a constant map written with literal keys → those keys
        # per restriction that cannot fail (`forbid`, statements.s_Forbid): its condition for each action it names, in
        # the names of the action's lister (`me`, `_p0` …), and its captured locals' names, comma-separated
        self.folds: dict[int, tuple[dict[int, str], str]] = {}
        self.by_column = True  # the rules read a card field no rule sets from its column (ExpressionCompiler.field_read)
        # how long the modifiers and the restrictions last (SCOPES): which of them the end of a scope can end
        self.lasting: dict[type, set[int]] = {cls: {SCOPES[n.until] for n in changes if isinstance(n, cls)}
                                              for cls in (A.Modify, A.Forbid)}
        self.pos_names: dict[A.Pos, str] = {}

    def of(self, cls: type) -> list[Any]:
        return self.by_type.get(cls, [])

    def _type(self, ref: A.TypeRef) -> T:
        if ref.list_of is not None:
            return list_of(self._type(ref.list_of))
        if ref.name in BUILTIN_TYPES:
            return BUILTIN_TYPES[ref.name]
        if ref.name == "card":
            return card("")
        if ref.name in self.p.kinds:
            return card(ref.name)
        if ref.name in self.p.enums:
            return enum(ref.name)
        known = list(BUILTIN_TYPES) + list(self.p.kinds) + list(self.p.enums) + ["card"]
        raise error_at(ref.pos, f"unknown type '{ref.name}'", did_you_mean(ref.name, known))

    def _expect(self, node: Any, got: T, want: T, what: str) -> None:
        if not compatible(want, got):
            raise error_at(node.pos, f"{what} must be {want}, got {got}")

    def where(self, pos: A.Pos) -> str:
        """The name under which generated code passes this position to a helper that may fail."""
        if pos not in self.pos_names:
            self.pos_names[pos] = f"_at{len(self.pos_names)}"
            self.env[self.pos_names[pos]] = pos
        return self.pos_names[pos]

    def fn(self, src: str, params: str = "st, L") -> Fn:
        """Generated expression source → one Python function (cached). Frame locals are `L[slot]`;
        comprehension variables, function parameters and a modifier's `it` are plain names."""
        key = f"{params}|{src}"
        if key not in self.lambdas:
            with nesting_limit(self.at):
                made: dict[str, Fn] = {}
                code = compiled(f"fn\0{params}\0{src}",
                                lambda: pure_function_code(hoist_function_reads(function_source(params, src))))
                exec(code, self.env, made)  # noqa: S102 - our own generated code
                self.lambdas[key] = made["_fn"]
        result: Fn = self.lambdas[key]
        return result

    def fn_for_game(self, src: str, params: str) -> Callable[[Any], Fn]:
        """What makes, for a game, fn's function of `src`, the game's tables and the rules functions it calls being its
        parameters' defaults (hoist.made_for_game): no call reads them from the state's game."""
        def made() -> Union[str, CodeType]:
            lines, bound = game_tables_bound(function_source(params, src).split("\n"))
            return pure_function_code(made_for_game(hoist_function_reads("\n".join(lines)), bound))

        with nesting_limit(self.at):
            namespace: dict[str, Callable[[Any], Fn]] = {}
            exec(compiled(f"fn for game\0{params}\0{src}", made), self.env, namespace)  # noqa: S102 - our own code
        return namespace["make"]
