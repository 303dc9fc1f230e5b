"""A generated expression as a function whose list comprehensions are plain loops: in Python 3.11 each run
of a comprehension makes a function object and a frame, and a function's value (a rule's `function`, a
condition) runs a few small ones per call. The value and the order of evaluation stay as written
(`and`/`or`/`if` short-circuit as before; `any`/`all` stop at the answer only where the items left could
not fail); only what never suspends is compiled here."""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from types import CodeType
from typing import Callable, cast

from interpreter.compile.astwalk import GRAPH_SEARCHES, OWN_SCOPE, pure, walked
from interpreter.compile.budget import budget_kept_locally
from interpreter.compile.code_cache import compiled
from interpreter.compile.copies import copies_forwarded
from interpreter.compile.unswitch import flags_unswitched
from interpreter.compile.primitives import FAMILY_CARDS
from interpreter.compile import reuse

Stmts = list[ast.stmt]
# the locals a block runner's loop over a family's zones reads (_Lowering._loop): its hoisted state and game reads
# (blocks._runner sets them where the runner reads a family's cards)
BY_ZONE_READS = {"_s_fam_cards": "st.fam_cards", "_s_zones": "st.zones", "_g_fam_zones": "st.game.fam_zones",
                 "_g_fam_few": "st.game.fam_few"}


@dataclass
class _Lowering:
    temps: int = 0
    loops: list[str] = field(default_factory=list)  # the variables of the comprehensions being lowered
    by_zone: bool = False  # a block runner's: it reads a family once per pass, between moves (_loop)

    def temp(self) -> str:
        self.temps += 1
        return f"_lw{self.temps}"

    def lower(self, node: ast.expr) -> tuple[Stmts, ast.expr]:
        """Statements to run first and the expression that then gives node's value; no statements where
        nothing inside needs any (the node is returned as it was)."""
        if isinstance(node, ast.ListComp) and all(not g.is_async for g in node.generators):
            return self._comprehension(node)
        kept = kept_value(node)
        if kept is not None:  # a value kept (_kept_once, hoist.hoist_zone_work): its statements run only on its first use
            value_s, value = self.lower(kept[1])
            if not value_s:
                return [], node
            test = ast.Compare(ast.Name(kept[0], ast.Load()), [ast.Is()], [kept[2]])
            return [ast.If(test, value_s + [_assign(kept[0], value)], [])], ast.Name(kept[0], ast.Load())
        if isinstance(node, ast.NamedExpr):  # a value kept by the code around it (hoist.py): set as a statement
            value_s, value = self.lower(node.value)
            if not value_s:
                return [], node
            return value_s + [_assign(node.target.id, value)], ast.Name(node.target.id, ast.Load())
        fold, comp = _folded(node)
        if comp is not None:  # `len([d for d in xs if …])`, `any([…])`, `all([…])`: no list
            return self._comprehension(comp, fold)
        if isinstance(node, ast.IfExp):
            return self._if(node)
        if isinstance(node, ast.BoolOp):
            return self._bool(node)
        parts = _parts(node)
        if parts is None:
            return [], node
        lowered = [self.lower(p) for p in parts]
        if not any(stmts for stmts, _ in lowered):
            return [], node
        out: Stmts = []
        values: list[ast.expr] = []
        last = max(i for i, (stmts, _) in enumerate(lowered) if stmts)
        for i, (stmts, value) in enumerate(lowered):
            out += stmts
            if i < last and not isinstance(value, (ast.Constant, ast.Name)):  # keep it before later parts run
                name = self.temp()
                out.append(_assign(name, value))
                value = ast.Name(name, ast.Load())
            values.append(value)
        return out, _rebuilt(node, values)

    def _if(self, node: ast.IfExp) -> tuple[Stmts, ast.expr]:
        test_s, test = self.lower(node.test)
        body_s, body = self.lower(node.body)
        else_s, orelse = self.lower(node.orelse)
        if not body_s and not else_s:
            return test_s, ast.IfExp(test, body, orelse) if test_s else node
        name = self.temp()
        return test_s + [ast.If(test, body_s + [_assign(name, body)], else_s + [_assign(name, orelse)])], \
            ast.Name(name, ast.Load())

    def _bool(self, node: ast.BoolOp) -> tuple[Stmts, ast.expr]:
        lowered = [self.lower(v) for v in node.values]
        if not any(stmts for stmts, _ in lowered[1:]):
            first_s, first = lowered[0]
            return first_s, ast.BoolOp(node.op, [first] + node.values[1:]) if first_s else node
        name = self.temp()
        out: Stmts = lowered[-1][0] + [_assign(name, lowered[-1][1])]
        for stmts, value in reversed(lowered[:-1]):  # `a and b`: b only where a holds, else a's value
            test: ast.expr = ast.Name(name, ast.Load())
            if isinstance(node.op, ast.Or):
                test = ast.UnaryOp(ast.Not(), test)
            out = stmts + [_assign(name, value), ast.If(test, out, [])]
        return out, ast.Name(name, ast.Load())

    def _comprehension(self, node: ast.ListComp, fold: str = "") -> tuple[Stmts, ast.expr]:
        """Its loops, unless one would set a variable a loop around it sets (a function's body inlined into
        itself): that comprehension keeps its own scope. `fold` ("len", "sum", "any" or "all"): that of its
        items instead of the list."""
        targets = [n.id for g in node.generators for n in walked(g.target) if isinstance(n, ast.Name)]
        if set(targets) & set(self.loops):
            return [], ast.Call(ast.Name(fold, ast.Load()), [node], []) if fold else node
        self.loops += targets
        kept = self._kept_once(node, set(targets))
        kept += self._slots_once(node)
        among = _among_found(node) if not fold else None
        if among is not None:  # made before the loop, as its first round would: no test of it in each round
            made = cast(tuple[str, ast.expr, ast.expr], kept_value(among))
            kept = [s for s in kept if not (isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == made[0])]
            made_s, made_v = self.lower(made[1])
            kept += made_s + [_assign(made[0], made_v)]
            cast(ast.Compare, node.generators[0].ifs[0]).comparators[0] = ast.Name(made[0], ast.Load())
        name = self.temp()
        elt_s, elt = self.lower(node.elt) if fold != "len" else ([], node.elt)
        step = _fold_step(name, fold, elt)
        if isinstance(step, ast.If) and len(node.generators) == 1 and all(map(pure, [node.elt, *node.generators[0].ifs])):
            step.body.append(ast.Break())  # any/all settled: the items left cannot fail, so they are skipped
        body = elt_s + [step]
        for gen in reversed(node.generators):
            for cond in reversed(gen.ifs):
                cond_s, test = self.lower(cond)
                body = cond_s + [ast.If(test, body, [])]
            iter_s, items = self.lower(gen.iter)
            body = iter_s + [self._loop(gen.target, items, body)]
        del self.loops[len(self.loops) - len(targets):]
        start = ast.List([], ast.Load()) if not fold else ast.Constant({"len": 0, "sum": 0, "any": False, "all": True}[fold])
        return [_assign(name, start)] + kept + self._searched_once(body[-1]) + body, ast.Name(name, ast.Load())

    def _loop(self, target: ast.expr, items: ast.expr, body: Stmts) -> ast.For:
        """The loop over items; over a zone family's cards not kept in the state, zone by zone where the family
        has few zones (a move drops such a family's kept list: no list built to be dropped again), unless the
        body breaks off early."""
        family = FAMILY_CARDS.fullmatch(ast.unparse(items)) if self.by_zone else None
        if family is None or any(isinstance(n, (ast.Break, ast.Continue)) for s in body for n in walked(s)):
            return ast.For(target, items, body, [])
        fam, zone = family[1], self.temp()  # a family of many zones: its kept list, as one pass of zone -1
        zones, cards = (_unlocated(ast.parse(src, mode="eval").body) for src in (
            f"_g_fam_zones[{fam}] if _g_fam_few[{fam}] else (-1,)",
            f"_s_zones[{zone}] if {zone} >= 0 else _s_fam_cards.get({fam}) or _famcards(st, {fam})"))
        return ast.For(ast.Name(zone, ast.Store()), zones, [ast.For(target, cards, body, [])], [])

    def _kept_once(self, node: ast.ListComp, targets: set[str]) -> Stmts:
        """The parts of a comprehension's items, conditions and inner sources that read none of its variables
        and call something or build a list (`[t for t in ts if kind(t) in [kind(d) for d in ds]]`) are computed
        at their first use and kept for the other rounds: an expression changes nothing, so they give the same
        value (and failed the first time if ever); so is the list an `any` searches (_found_among). The
        statements that empty the kept values before the loop."""
        kept: Stmts = []

        def keep(part: ast.AST) -> ast.AST:
            if isinstance(part, ast.expr) and _invariant_work(part, targets):
                return self._kept_at_first_use(part, kept)
            found = _found_among(part, targets)
            if found is not None:
                return ast.Compare(found[0], [ast.In()], [self._kept_at_first_use(found[1], kept)])
            if isinstance(part, OWN_SCOPE):  # an inner comprehension keeps its own parts (when lowered)
                return part
            return _with_children(part, keep)

        node.elt = cast(ast.expr, keep(node.elt))
        for k, gen in enumerate(node.generators):
            gen.ifs = [cast(ast.expr, keep(cond)) for cond in gen.ifs]
            if k:  # an inner source is read again for each item of the loops around it
                gen.iter = cast(ast.expr, keep(gen.iter))
        return kept

    def _slots_once(self, node: ast.ListComp) -> Stmts:
        """The frame slots `L[k]` that a comprehension's items, conditions and inner sources read are read once,
        before its loops, into locals: an expression sets no slot, and reading one cannot fail. The statements
        that read them."""
        names: dict[int, str] = {}

        def local(part: ast.AST) -> ast.AST:
            if isinstance(part, ast.Subscript) and isinstance(part.value, ast.Name) and part.value.id == "L" \
                    and isinstance(part.slice, ast.Constant) and type(part.slice.value) is int:
                return ast.Name(names.setdefault(part.slice.value, self.temp()), ast.Load())
            return _with_children(part, local)

        node.elt = cast(ast.expr, local(node.elt))
        for k, gen in enumerate(node.generators):
            gen.ifs = [cast(ast.expr, local(cond)) for cond in gen.ifs]
            if k:
                gen.iter = cast(ast.expr, local(gen.iter))
        return [_assign(name, ast.Subscript(ast.Name("L", ast.Load()), ast.Constant(slot), ast.Load()))
                for slot, name in names.items()]

    def _kept_at_first_use(self, value: ast.expr, kept: Stmts) -> ast.expr:
        """`(t if t is not None else (t := value))` for a new name t, emptied first by a statement added to `kept`."""
        name = self.temp()
        kept.append(_assign(name, ast.Constant(None)))
        return kept_at_first_use(name, value, ast.Constant(None))

    def _searched_once(self, loop: ast.stmt) -> Stmts:
        """A graph search in the loop whose arguments the loop does not change (`[i for i in xs if contains(
        frontier(e, a, s), i)]`) is made at its first use and kept for the other rounds: the searches are pure
        functions of their arguments and values are never changed in place. The statements that empty the
        kept answers before the loop."""
        changed = {n.id for n in walked(loop) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        kept: Stmts = []

        def once(node: ast.AST) -> ast.AST:
            if isinstance(node, ast.NamedExpr):  # a search kept by an inner loop already
                return node
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GRAPH_SEARCHES \
                    and not node.keywords and all(map(pure, node.args)) \
                    and not any(isinstance(n, ast.Name) and n.id in changed for a in node.args for n in walked(a)):
                return self._kept_at_first_use(node, kept)
            return _with_children(node, once)

        assert isinstance(loop, ast.For)
        loop.body = [once(s) for s in loop.body]  # type: ignore[misc]
        return kept


def _folded(node: ast.expr) -> tuple[str, ast.ListComp | None]:
    """"len", "sum", "any" or "all" and the comprehension, for such a call of one comprehension (for `len`, one
    whose items are names or constants: reading them cannot fail; a `sum` adds whole numbers, the rules' only
    numbers, so adding each item as it comes gives sum's value), also of one over a plain read that is skipped
    when the read is empty (`[…] if xs else []`: looping over no items gives the same); else ("", None)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("len", "sum", "any", "all")
            and len(node.args) == 1 and not node.keywords):
        return "", None
    comp = node.args[0]
    if isinstance(comp, ast.IfExp) and isinstance(comp.orelse, ast.List) and not comp.orelse.elts \
            and isinstance(comp.body, ast.ListComp) and len(comp.body.generators) == 1 \
            and ast.dump(comp.test) == ast.dump(comp.body.generators[0].iter) and pure(comp.test):
        comp = comp.body
    if not isinstance(comp, ast.ListComp) or any(g.is_async for g in comp.generators):
        return "", None
    if node.func.id == "len" and not isinstance(comp.elt, (ast.Name, ast.Constant)):
        return "", None
    return node.func.id, comp


def _with_children(node: ast.AST, fn: Callable[[ast.AST], ast.AST]) -> ast.AST:
    """node, each of its child nodes replaced by fn(child)."""
    for fname, value in ast.iter_fields(node):
        if isinstance(value, list):
            setattr(node, fname, [fn(v) if isinstance(v, ast.AST) else v for v in value])
        elif isinstance(value, ast.AST):
            setattr(node, fname, fn(value))
    return node


def _independent(node: ast.AST, targets: set[str]) -> bool:
    """Whether node names none of `targets` (not even as a variable of its own) and sets nothing."""
    return not any(isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Starred)) or (isinstance(n, ast.Name) and n.id in targets)
                   for n in walked(node))


def _invariant_work(node: ast.expr, targets: set[str]) -> bool:
    """Whether node is _independent of `targets` and calls something other than `len` or builds a list by a
    comprehension: worth keeping across a loop's rounds."""
    return _independent(node, targets) and any(
        isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp))
        or (isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id == "len")) for n in walked(node))


def _found_among(node: ast.AST, targets: set[str]) -> tuple[ast.expr, ast.ListComp] | None:
    """x and `[f(d) for d in ds]` for `any(f(d) == x for d in ds)` (either side of the `==`) where only x reads
    `targets`: as neither f(d) nor x can fail, `x in` that list (which compares by `==` too), made once for the
    loop's rounds, gives the same, without a pass over ds for each of them."""
    fold, comp = _folded(node) if isinstance(node, ast.expr) else ("", None)
    if fold != "any" or comp is None or len(comp.generators) != 1 or comp.generators[0].ifs \
            or not isinstance(comp.elt, ast.Compare) or not isinstance(comp.elt.ops[0], ast.Eq) or len(comp.elt.ops) != 1:
        return None
    gen, (left, right) = comp.generators[0], (comp.elt.left, comp.elt.comparators[0])
    own = {n.id for n in walked(gen.target) if isinstance(n, ast.Name)}
    for item, x in ((left, right), (right, left)):
        if _independent(item, targets) and _independent(gen.iter, targets) and _independent(x, own) \
                and pure(item) and pure(x):
            return x, ast.ListComp(item, [gen])
    return None


def _among_found(node: ast.ListComp) -> ast.expr | None:
    """The list K of `[x for x in [a, b, …] if x in K]` (constant items, K a list kept at its first use that reads
    no x, as _found_among makes it): the first round makes K in any case, and every round finds the same; else None."""
    gen = node.generators[0] if len(node.generators) == 1 else None
    if gen is None or not isinstance(gen.target, ast.Name) or len(gen.ifs) != 1 or not isinstance(gen.iter, ast.List) \
            or not gen.iter.elts or not all(isinstance(e, ast.Constant) for e in gen.iter.elts):
        return None
    test = gen.ifs[0]
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)
            and isinstance(test.left, ast.Name) and test.left.id == gen.target.id):
        return None
    among = test.comparators[0]
    kept = kept_value(among)
    if kept is None or any(isinstance(n, ast.Name) and n.id == gen.target.id for n in walked(among)):
        return None
    return among


def kept_at_first_use(name: str, value: ast.expr, mark: ast.expr) -> ast.IfExp:
    """`(name if name is not MARK else (name := value))`: a value computed at its first use and kept (the name
    holds `mark` until then); kept_value reads it back."""
    return ast.IfExp(ast.Compare(ast.Name(name, ast.Load()), [ast.IsNot()], [mark]),
                     ast.Name(name, ast.Load()), ast.NamedExpr(ast.Name(name, ast.Store()), value))


def kept_value(node: ast.expr) -> tuple[str, ast.expr, ast.expr] | None:
    """The name, the expression and the mark of not yet computed of a value kept at its first use (_kept_once,
    hoist.hoist_zone_work): `(t if t is not MARK else (t := value))`."""
    if isinstance(node, ast.IfExp) and isinstance(node.orelse, ast.NamedExpr) and isinstance(node.body, ast.Name) \
            and node.body.id == node.orelse.target.id and isinstance(node.test, ast.Compare) \
            and isinstance(node.test.left, ast.Name) and node.test.left.id == node.body.id \
            and isinstance(node.test.ops[0], ast.IsNot) and len(node.test.ops) == 1:
        return node.body.id, node.orelse.value, node.test.comparators[0]
    return None


def _fold_step(name: str, fold: str, elt: ast.expr) -> ast.stmt:
    """What one item does: appended, counted, added, or (any, all) a truth value that sets the answer."""
    target = ast.Name(name, ast.Store())
    if fold == "len":
        return ast.AugAssign(target, ast.Add(), ast.Constant(1))
    if fold == "sum":
        return ast.AugAssign(target, ast.Add(), elt)
    if fold == "any":
        return ast.If(elt, [ast.Assign([target], ast.Constant(True))], [])
    if fold == "all":
        return ast.If(ast.UnaryOp(ast.Not(), elt), [ast.Assign([target], ast.Constant(False))], [])
    return ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()), [elt], []))


def _unlocated(node: ast.expr) -> ast.expr:
    """A parsed node without its positions: it takes those of the statement it serves (_Statements._lowered)."""
    for n in walked(node):
        for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(n, name):
                delattr(n, name)
    return node


def _assign(name: str, value: ast.expr) -> ast.stmt:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _parts(node: ast.expr) -> list[ast.expr] | None:
    """The subexpressions node evaluates, in order, each exactly once; None for a node that is taken whole."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return [node.left, node.comparators[0]]
    if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
        return [node.func, *node.args]
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        return [node.value, node.slice]
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return list(node.elts)
    return None


def _rebuilt(node: ast.expr, values: list[ast.expr]) -> ast.expr:
    if isinstance(node, ast.BinOp):
        return ast.BinOp(values[0], node.op, values[1])
    if isinstance(node, ast.UnaryOp):
        return ast.UnaryOp(node.op, values[0])
    if isinstance(node, ast.Compare):
        return ast.Compare(values[0], node.ops, [values[1]])
    if isinstance(node, ast.Call):
        return ast.Call(values[0], values[1:], [])
    if isinstance(node, ast.Subscript):
        return ast.Subscript(values[0], values[1], ast.Load())
    return ast.Tuple(values, ast.Load()) if isinstance(node, ast.Tuple) else ast.List(values, ast.Load())


class _Statements(ast.NodeTransformer):
    """Each statement's expression (a value set, a condition tested, a loop's source) with the statements
    that compute its comprehensions put before it; a `while` condition, tested again each round, stays."""

    def __init__(self, by_zone: bool = False) -> None:
        self.lowering = _Lowering(by_zone=by_zone)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, name, [new for stmt in block for new in self._lowered(stmt)])
        for handler in getattr(node, "handlers", []):
            self.generic_visit(handler)
        return node

    def _lowered(self, stmt: ast.stmt) -> Stmts:
        self.generic_visit(stmt)
        field = {ast.Assign: "value", ast.AugAssign: "value", ast.Expr: "value", ast.Return: "value",
                 ast.If: "test", ast.For: "iter"}.get(type(stmt))
        value = getattr(stmt, field) if field is not None else None
        if value is None:
            return [stmt]
        stmts, new = self.lowering.lower(value)
        setattr(stmt, field, new)  # type: ignore[arg-type]
        _locate([*stmts, new], stmt)
        return (_for_else(stmts, stmt) if isinstance(stmt, ast.If) else None) or stmts + [stmt]


def _for_else(stmts: Stmts, test: ast.If) -> Stmts | None:
    """An `if` on an any/all settled by a loop that breaks off at the answer (`t = True`, `for …: … t = False;
    break`, `if t:`) as that loop alone, no truth value kept: the branch taken at a break runs at the break, the other
    one in the loop's `else`; None where the branch at the break would break or continue a loop around it."""
    if len(stmts) < 2 or not isinstance(stmts[-1], ast.For) or stmts[-1].orelse:
        return None
    loop, first, flag = stmts[-1], stmts[0], test.test
    negated = isinstance(flag, ast.UnaryOp) and isinstance(flag.op, ast.Not)
    flag = flag.operand if isinstance(flag, ast.UnaryOp) and negated else flag
    if not (isinstance(flag, ast.Name) and isinstance(first, ast.Assign) and isinstance(first.value, ast.Constant)
            and [ast.unparse(t) for t in first.targets] == [flag.id]):
        return None
    sets = [(block, i) for block in _blocks(loop) for i, s in enumerate(block) if isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == flag.id for t in s.targets)]
    if len(sets) != 1 or len(_loose_jumps(loop.body)) != 1 or any(
            isinstance(n, ast.Name) and n.id == flag.id for s in stmts[1:-1] for n in walked(s)):
        return None
    block, i = sets[0]
    if i + 1 >= len(block) or not isinstance(block[i + 1], ast.Break) or flag.id in {
            n.id for n in walked(ast.Module(block[:i] + block[i + 1:], [])) if isinstance(n, ast.Name)}:
        return None
    broken = bool(first.value.value) == negated  # the test holds after a break
    at_break, at_end = (test.body, test.orelse) if broken else (test.orelse, test.body)
    if _loose_jumps(at_break):
        return None
    block[i:i + 1] = at_break
    loop.orelse = at_end
    return stmts[1:]


def _blocks(node: ast.AST) -> list[Stmts]:
    """The statement lists below node."""
    return [block for n in walked(node) for block in _own_blocks(n)]


def _own_blocks(node: ast.AST) -> list[Stmts]:
    """node's own statement lists (not those of its `try`'s handlers)."""
    return [block for name in ("body", "orelse", "finalbody")
            if isinstance(block := getattr(node, name, None), list) and block and isinstance(block[0], ast.stmt)]


def _loose_jumps(body: Stmts) -> list[ast.stmt]:
    """The `break`s and `continue`s in body of a loop around it (none inside a loop of its own)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.Break, ast.Continue)):
            out.append(stmt)
        elif not isinstance(stmt, (ast.For, ast.While, ast.FunctionDef)):
            out += [j for n in [stmt, *getattr(stmt, "handlers", [])] for block in _own_blocks(n)
                    for j in _loose_jumps(block)]
    return out


def _locate(nodes: list[ast.AST], stmt: ast.stmt) -> None:
    """The new code of a statement on its line: each node below `nodes` that has no position takes stmt's (its
    body's new code has its own statements'; as ast.copy_location, at less cost)."""
    where = (stmt.lineno, stmt.col_offset, stmt.end_lineno, stmt.end_col_offset)
    for node in [n for top in nodes for n in walked(top)]:
        if "lineno" in node._attributes and not hasattr(node, "lineno"):
            node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = where  # type: ignore[attr-defined]


def lowered_function(src: str) -> str:
    """Generated source of functions with their list comprehensions run as loops (as function_source); as
    it was where Python would not take the lowered source (it nests at most 20 blocks)."""
    if " for " not in src:
        return src
    try:
        lowered = ast.unparse(_lowered_tree(src))
        compile(lowered, "<lowered>", "exec")
    except (SyntaxError, RecursionError):
        return src
    return lowered


def function_code(src: str) -> CodeType:
    """The code of lowered_function(src), kept between loads."""
    return compiled(f"lowered_function\0{src}", lambda: lowered_function(src))


def lowered_code(src: str, rewrite: Callable[[ast.AST], bool] | None = None, fallback: bool = True) -> CodeType:
    """Generated functions compiled with their list comprehensions run as loops, each new line numbered as
    the statement it serves (a block runner maps the line that failed to its op); as written where Python
    would not take them (without `fallback`, its SyntaxError). `rewrite`: a further change of the lowered tree, in
    place (saying whether it changed it), whose new nodes take their parents' positions; its statements in
    cheaper_forms."""
    try:
        tree = _lowered_tree(src, by_zone=True) if " for " in src else ast.parse(src)
        if rewrite is not None and rewrite(tree):
            ast.fix_missing_locations(tree)
        cheaper_forms(tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                reuse.loops_hoisted(node)
        return compile(ast.fix_missing_locations(tree), "<string>", "exec")
    except (SyntaxError, RecursionError):
        if not fallback:
            raise
        return compile(src, "<string>", "exec")


def cheaper_forms(tree: ast.AST) -> None:
    """Statements below tree in forms that run fewer bytecodes: each `try`, each `if True:` (a resumable runner's
    test of whether it stops, blocks._expand) and each `while True:` (a runner's loop, whose rounds may jump back to its
    line), on its first statement's line (Python runs no NOP for a line of its own as it is entered; the lines that
    fail, in its statements and handlers, stay as they were); `x[k] += v` and `x.f += v`, x and k names or constants, as `x[k] = x[k] + v` (no COPY and SWAP
    of x and k: the engine's augmented assignments to a slot or a field are of whole numbers, and v sets neither
    name); a generated temporary's copy of a local or a constant dropped, its reads reading that (copies); a loop
    that tests a flag it cannot change once per card, written twice under one test of it (unswitch); a test of a
    length against 0 as the truth of what is measured (_truth); the step budget's count held in a local where that
    pays (budget)."""
    copies_forwarded(tree)
    flags_unswitched(tree)
    for node in reversed(walked(tree)):  # a statement's statements first: its first one's line is the one it keeps
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            node.test = _truth(node.test)
        if isinstance(node, ast.Try):
            node.lineno = node.body[0].lineno
        elif isinstance(node, (ast.If, ast.While)) and isinstance(node.test, ast.Constant) and node.test.value is True:
            node.lineno = node.test.lineno = node.test.end_lineno = node.body[0].lineno
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                block[:] = [_plain_update(s) if isinstance(s, ast.AugAssign) else s for s in block]
    budget_kept_locally(tree)


def _truth(test: ast.expr) -> ast.expr:
    """A test with `len(x) > 0` and `len(x) != 0` as `x`, `len(x) == 0` as `not x` (also inside `not`, `and`, `or`,
    whose values are only tested): the engine measures lists, strings and maps only, which are true when not empty."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return ast.copy_location(ast.UnaryOp(test.op, _truth(test.operand)), test)
    if isinstance(test, ast.BoolOp):
        return ast.copy_location(ast.BoolOp(test.op, [_truth(v) for v in test.values]), test)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Gt, ast.NotEq, ast.Eq))
            and isinstance(test.comparators[0], ast.Constant) and type(test.comparators[0].value) is int
            and test.comparators[0].value == 0):
        return test
    measure = test.left
    if not (isinstance(measure, ast.Call) and isinstance(measure.func, ast.Name) and measure.func.id == "len"
            and len(measure.args) == 1 and not measure.keywords and not isinstance(measure.args[0], ast.Starred)):
        return test
    measured = measure.args[0]
    return measured if not isinstance(test.ops[0], ast.Eq) else ast.copy_location(ast.UnaryOp(ast.Not(), measured), test)


def _plain_update(stmt: ast.AugAssign) -> ast.stmt:
    """`x[k] = x[k] + v` for `x[k] += v` (or `x.f`) where cheaper_forms allows it, else stmt."""
    target = stmt.target
    if isinstance(target, ast.Subscript):
        simple = isinstance(target.value, ast.Name) and isinstance(target.slice, (ast.Name, ast.Constant))
    else:
        simple = isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
    names = {n.id for n in walked(target) if isinstance(n, ast.Name)}
    if not simple or any(isinstance(n, ast.NamedExpr) and n.target.id in names for n in walked(stmt.value)):
        return stmt
    read = ast.Subscript(target.value, target.slice, ast.Load()) if isinstance(target, ast.Subscript) else \
        ast.Attribute(cast(ast.Attribute, target).value, cast(ast.Attribute, target).attr, ast.Load())
    return ast.copy_location(ast.Assign([target], ast.copy_location(ast.BinOp(read, stmt.op, stmt.value), stmt)), stmt)


def _lowered_tree(src: str, by_zone: bool = False) -> ast.Module:
    tree = ast.parse(src)
    for fn in tree.body:
        _Statements(by_zone).generic_visit(fn)
    return tree


def _slot(node: ast.AST) -> int | None:
    """k for a frame slot's `L[k]`, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "L" \
            and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
        return node.slice.value
    return None


def frame_as_locals(src: str) -> str:
    """The source of a function `run(st, L)` whose frame L is dropped once it ran (a rule's or an action's that runs
    through) with each slot L[k] a local `_lk`, where it reads L slot by slot only (no `fr` made for an op): read
    from L as it starts, unless its first use sets it (_set_first)."""
    tree = ast.parse(src)
    fn = tree.body[0]
    nodes = walked(fn)
    slots = [n for n in nodes if isinstance(n, ast.Subscript) and _slot(n) is not None]
    reads = {id(n.value) for n in slots}
    if not isinstance(fn, ast.FunctionDef) or [a.arg for a in fn.args.args] != ["st", "L"] or not slots \
            or any(isinstance(n, ast.Name) and (n.id == "fr" or n.id == "L" and id(n) not in reads) for n in nodes):
        return src

    uses = Counter(_slot(n) for n in slots)
    first = _set_first(fn.body, set())
    read = {_slot(n) for n in slots if isinstance(n.ctx, ast.Load)} - first
    chosen = {k for k in uses if k not in read or uses[k] >= 3}  # a read as it starts costs two reads of L[k]

    def local(node: ast.AST) -> ast.AST:
        k = _slot(node)
        return ast.Name(f"_l{k}", cast(ast.Subscript, node).ctx) if k in chosen else _with_children(node, local)

    fn.body = [_assign(f"_l{k}", _frame_slot(k, ast.Load())) for k in sorted(cast(set[int], read & chosen))] \
        + [cast(ast.stmt, local(s)) for s in fn.body]
    return ast.unparse(ast.fix_missing_locations(tree))


def loop_slots_as_locals(tree: ast.AST) -> bool:
    """Each `while True:` loop of a block runner (blocks._runner_code) that hands no op its frame (`fr`, a bare `L`)
    with each slot L[k] that its rounds read more often than they set it kept in a local `_fk` too: read from L just
    before the loop (whichever arm the run enters it at), every `L[k] = v` in it also setting `_fk`, every read of L[k]
    reading `_fk`. The frame's slots change only by the runner's own lines, and by a step's outcome, put into the slot
    its node names (State.apply_action, _choose), while a suspended runner holds the frame (a state written otherwise
    drops the run: State.edited): so such a loop keeps every slot but those its stops name. Also, where each of the
    loop's steps is the same (`fr[1] = c`), it is set once before the loop (_step_set_once). Says whether it changed
    the tree."""
    changed = False
    for node in walked(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and any(_endless(s) for s in block):
                new: Stmts = []
                for stmt in block:
                    if _endless(stmt) and not _frame_handed_on(stmt):
                        before = [_assign(f"_f{k}", _frame_slot(k, ast.Load())) for k in _slots_kept(stmt)]
                        before += _step_set_once(stmt)
                        new += [ast.copy_location(s, stmt) for s in before]
                        changed = changed or bool(before)
                    new.append(stmt)
                setattr(node, name, new)
    return changed


def _endless(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.While) and isinstance(stmt.test, ast.Constant) and stmt.test.value is True


def _frame_handed_on(loop: ast.While) -> bool:
    """Whether the loop hands its frame or the frame's list of locals on (an op's `fr`, a bare `L`)."""
    nodes = walked(loop)
    parent = {id(c): n for n in nodes for c in ast.iter_child_nodes(n)}
    return any(isinstance(n, ast.Name) and (n.id == "L" and _slot(parent[id(n)]) is None
                                            or n.id == "fr" and not _frame_step_or_test(n, parent[id(n)]))
               for n in nodes)


def _slots_kept(loop: ast.While) -> list[int]:
    """The slots loop_slots_as_locals keeps in locals in `loop`, its reads and sets of them rewritten."""
    nodes = walked(loop)
    parent = {id(c): n for n in nodes for c in ast.iter_child_nodes(n)}
    stopped: set[int] = set()  # the slots the loop's stops name (an outcome goes there)
    for n in nodes:  # a node set in st.pending, or yielded (blocks._expand: apply_action keeps it there)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "pending" for t in n.targets) \
                or isinstance(n, ast.Yield) and isinstance(n.value, ast.Tuple):
            assert n.value is not None
            if isinstance(n.value, ast.Constant) and n.value.value is None:
                continue
            last = n.value.elts[-1] if isinstance(n.value, ast.Tuple) and n.value.elts else None
            if isinstance(last, ast.UnaryOp) and isinstance(last.op, ast.USub):
                last = last.operand  # a negative slot: none (`choose action`)
            if not isinstance(last, ast.Constant) or type(last.value) is not int:
                return []
            stopped.add(last.value)
    own = {id(n) for scope in nodes if isinstance(scope, OWN_SCOPE) for n in walked(scope)}
    # an inner loop's rounds entered past its first arm (blocks._loop: `while pc > k:`) run once an entry at most
    once = {id(n) for w in nodes if isinstance(w, ast.While) and _entered_past_first(w) for n in walked(w)}
    reads: Counter[int] = Counter()
    sets: Counter[int] = Counter()
    unsure: set[int | None] = set(stopped)
    for n in nodes:
        k = _slot(n)
        if k is None:
            continue
        up, ctx = parent[id(n)], cast(ast.Subscript, n).ctx
        plain = isinstance(ctx, ast.Load) or isinstance(up, ast.Assign) \
            or isinstance(up, ast.AugAssign) and isinstance(up.op, (ast.Add, ast.Sub))
        if id(n) in own or not plain:  # in a scope of its own; set as a loop's variable, deleted, or otherwise
            unsure.add(k)
        elif id(n) not in once:  # (those are rewritten too, not counted)
            (reads if isinstance(ctx, ast.Load) else sets)[k] += 1
    kept = sorted(k for k in reads if k not in unsure and reads[k] >= sets[k] + 2)
    if not kept:
        return []

    def local(node: ast.AST) -> ast.AST:
        k = _slot(node)
        if k in kept and isinstance(cast(ast.Subscript, node).ctx, ast.Load):
            return ast.copy_location(ast.Name(f"_f{k}", ast.Load()), node)
        node = _with_children(node, local)
        if isinstance(node, ast.AugAssign) and _slot(node.target) in kept:
            k = cast(int, _slot(node.target))
            value = ast.BinOp(ast.Name(f"_f{k}", ast.Load()), node.op, node.value)
            return ast.copy_location(ast.Assign([node.target, ast.Name(f"_f{k}", ast.Store())], value), node)
        if isinstance(node, ast.Assign) and any(_slot(t) in kept for t in node.targets):
            node.targets += [ast.Name(f"_f{_slot(t)}", ast.Store()) for t in node.targets if _slot(t) in kept]
        return node

    loop.body = [cast(ast.stmt, local(s)) for s in loop.body]
    return kept


def _entered_past_first(loop: ast.While) -> bool:
    """Whether the loop is a peeled loop's rounds entered past its first arm (blocks._loop: `while pc > k:`)."""
    test = loop.test
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "pc" \
        and isinstance(test.ops[0], ast.Gt) and isinstance(test.comparators[0], ast.Constant)


def _step_set_once(loop: ast.While) -> Stmts:
    """`[fr[1] = c]` where every step the loop sets its frame to is c, those sets taken out of it, else []. The step is
    read only at a stop, a frame pushed, the end of a run or an error (which sets its own), each of them after a set of
    it; a loop that hands its frame to no op sets none other (_frame_handed_on), so before it is as good as inside."""
    sets = [n for n in walked(loop) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(t := n.targets[0], ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "fr"]
    values = {n.value.value if isinstance(n.value, ast.Constant) else None for n in sets}
    if len(values) != 1 or None in values:
        return []
    gone = {id(n) for n in sets}
    for node in walked(loop):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and any(id(s) in gone for s in block):
                setattr(node, name, [s for s in block if id(s) not in gone] or [ast.copy_location(ast.Pass(), block[0])])
    return [sets[0]]


def _frame_step_or_test(name: ast.Name, up: ast.AST) -> bool:
    """Whether the frame `fr` is only read for its step (`fr[1] = …`) or compared (`… is not fr`) there."""
    if isinstance(up, ast.Subscript):
        return isinstance(up.ctx, ast.Store) and isinstance(up.slice, ast.Constant) and up.slice.value == 1
    return isinstance(up, ast.Compare) and name in up.comparators and all(isinstance(o, ast.IsNot) for o in up.ops)


def _set_first(body: Stmts, seen: set[int | None]) -> set[int | None]:
    """The slots whose first use, statement by statement (into a `try` whose handlers all raise: the function ends
    there), sets them as a whole (`=` or a loop's); `seen`: the slots used before, updated."""
    first: set[int | None] = set()
    for stmt in body:
        if isinstance(stmt, ast.Try) and not stmt.orelse and not stmt.finalbody \
                and all(h.body and isinstance(h.body[-1], ast.Raise) for h in stmt.handlers):
            first |= _set_first(stmt.body, seen)
            seen |= {_slot(n) for h in stmt.handlers for n in walked(h)}
            continue
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.For) else None
        if target is not None and _slot(target) is not None:
            seen |= {_slot(n) for n in walked(stmt.value if isinstance(stmt, ast.Assign) else cast(ast.For, stmt).iter)}
            first |= {_slot(target)} - seen
        seen |= {_slot(n) for n in walked(stmt)}
    return first - {None}


def _frame_slot(k: int, ctx: ast.expr_context) -> ast.Subscript:
    return ast.Subscript(ast.Name("L", ast.Load()), ast.Constant(k), ctx)


def function_source(params: str, src: str) -> str:
    """The source of `_fn(params)` returning the expression `src`, its list comprehensions run as loops."""
    written = f"def _fn({params}):\n    return {src}"
    if " for " not in src:
        return written
    try:
        stmts, value = _Lowering().lower(ast.parse(src, mode="eval").body)
        body = ast.unparse(ast.fix_missing_locations(ast.Module(stmts + [ast.Return(value)], [])))
        lowered = f"def _fn({params}):\n" + "\n".join("    " + line for line in body.split("\n"))
        compile(lowered, "<lowered>", "exec")
    except (SyntaxError, RecursionError):  # more nested than Python takes: as written
        return written
    return lowered
