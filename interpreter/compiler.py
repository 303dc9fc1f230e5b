"""Compiles a validated AST into a Program: type-checked closures and flat instruction blocks.

Statements become ops over a frame `[block, pc, locals]`, so the engine can stop at any decision and
be saved, loaded or cloned there; expressions become closures `f(state, locals)`."""
from __future__ import annotations

import itertools
import string
from typing import Any, Iterator, Optional, Sequence, Union


from dsl import ast as A
from dsl.errors import RulesError, did_you_mean, error_at
from interpreter import ops as O
from interpreter.primitives import REGISTRY, GameRuleError, seq_code
from interpreter.options import forbidden
from interpreter.runtime import ENV
from interpreter.program import (SCOPES, ActionInfo, Block, CardInfo, Fn, ForbidDef, KindInfo, ModDef, Op,
                                 Program, Trigger, ZoneSpec)
from interpreter.types import ANY, BOOL, EFFECT, INT, PLAYER, TEXT, T, card, compatible, element_type, enum, list_of

AGGREGATES = {"sum", "count", "min", "max", "any", "all", "first", "last"}
# Events the engine itself raises, with the types of the values they carry.
ENGINE_EVENTS: dict[str, list[T]] = {"round_start": [], "moved": [card(""), T("zone", ""), T("zone", "")]}
ENGINE_EVENT_PARAMS = {"round_start": [], "moved": ["c", "source", "target"]}
BUILTIN_TYPES = {"int": INT, "bool": BOOL, "text": TEXT, "player": PLAYER, "effect": EFFECT}


class Layout:
    """Slot allocation for one frame's locals; nested scopes share it."""

    def __init__(self) -> None:
        self.size = 0

    def alloc(self) -> int:
        self.size += 1
        return self.size - 1


class Scope:
    """Names visible at one place: frame slots (ints) or Python variables of generated code (strs)."""

    counter = itertools.count()

    def __init__(self, layout: Layout, parent: Optional["Scope"] = None, note: str = "") -> None:
        self.layout = layout
        self.parent = parent
        self.names: dict[str, tuple[Union[int, str], T]] = {}
        self.index_of: dict[str, int] = {}  # names that run over positions(family): index it unchecked
        self.note = note  # why outer locals are not visible here, for the error message

    def define(self, name: str, t: T, index_of: Optional[int] = None) -> int:
        slot = self.layout.alloc()
        self.names[name] = (slot, t)
        if index_of is not None:
            self.index_of[name] = index_of
        return slot

    def define_py(self, name: str, t: T, index_of: Optional[int] = None) -> str:
        ident = f"_v{next(Scope.counter)}_{name}"
        self.names[name] = (ident, t)
        if index_of is not None:
            self.index_of[name] = index_of
        return ident

    def forget_index(self, name: str) -> None:
        """A name that is set may leave the family's range: its reads are checked from here on."""
        if name in self.names:
            self.index_of.pop(name, None)
        elif self.parent is not None:
            self.parent.forget_index(name)

    def safe_index(self, name: str) -> Optional[int]:
        """The family whose positions `name` runs over, if its nearest definition says so."""
        if name in self.names:
            return self.index_of.get(name)
        return self.parent.safe_index(name) if self.parent is not None else None

    def lookup(self, name: str) -> Optional[tuple[Union[int, str], T]]:
        if name in self.names:
            return self.names[name]
        return self.parent.lookup(name) if self.parent is not None else None

    def all_names(self) -> list[str]:
        out: list[str] = []
        scope: Optional[Scope] = self
        while scope is not None:
            out.extend(scope.names)
            scope = scope.parent
        return out

    def child(self) -> "Scope":
        return Scope(self.layout, self, self.note)


class CaptureScope(Scope):
    """The scope of code that runs later (a modifier, a restriction): the creating block's locals
    it names are captured by value when it is created, and become extra parameters of its code."""

    def __init__(self, outer: Scope, note: str) -> None:
        super().__init__(Layout(), None, note)
        self.outer = outer
        self.captured: list[tuple[int, str]] = []  # (slot in the creating frame, parameter name)

    def lookup(self, name: str) -> Optional[tuple[Union[int, str], T]]:
        if name in self.names:
            return self.names[name]
        found = self.outer.lookup(name)
        if found is None or not isinstance(found[0], int):
            return found
        ident = f"_k{len(self.captured)}_{name}"
        self.captured.append((found[0], ident))
        self.names[name] = (ident, found[1])
        return self.names[name]

    def params(self) -> str:
        return "".join(", " + ident for _, ident in self.captured)

    def slots(self) -> list[int]:
        return [slot for slot, _ in self.captured]


def _chain(scope: Optional[Scope]) -> Iterator[Scope]:
    """A scope and those around it, through a capturing scope to the block that creates it."""
    while scope is not None:
        yield scope
        scope = scope.outer if isinstance(scope, CaptureScope) else scope.parent


def _visible_names(scope: Scope) -> list[str]:
    return [name for s in _chain(scope) for name in s.names]


def _captures(scope: Scope) -> bool:
    return any(isinstance(s, CaptureScope) for s in _chain(scope))


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


class Emitter:
    """Collects a block's ops; jumps are patched once their target is known."""

    def __init__(self) -> None:
        self.code: list[Op] = []
        self.loop_ends: list[list[list[int]]] = []

    def emit(self, op: Op) -> int:
        self.code.append(op)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)


class Compiler:
    def __init__(self, items: list[A.Node], name: str, variants: list[str]) -> None:
        self.items = items
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
        self.env: dict[str, Any] = dict(ENV, _forbidden=forbidden)
        self.lambdas: dict[str, Any] = {}
        self.compiling: set[str] = set()
        self.rules: dict[str, A.RuleDef] = {r.name: r for r in self.of(A.RuleDef)}
        self.rule_blocks: dict[str, int] = {}
        self.action_ids: dict[str, int] = {}
        self.consts: dict[str, tuple[int, T]] = {}
        self.gvar_index: dict[str, tuple[int, T]] = {}
        self.pvar_index: dict[str, tuple[int, T]] = {}
        self.events: set[str] = {t.event for t in self.of(A.TriggerDef)}
        self.modifiable: set[tuple[str, str]] = {(m.kind, m.field) for m in A.walk(items) if isinstance(m, A.Modify)}

    def of(self, cls: type) -> list[Any]:
        return self.by_type.get(cls, [])

    # ================================================================== top level
    def compile(self) -> Program:
        self._enums()
        self._kinds()
        self._zones()
        self._values()
        self._cards()
        for act in self.of(A.ActionDef):
            self.action_ids[act.name] = len(self.action_ids)
            self.p.actions.append(None)  # type: ignore[arg-type]  # filled below; ids first for forbids
        for rule in self.of(A.RuleDef):
            self.rule_blocks[rule.name] = self._new_block(f"rule {rule.name}")
        for name in self.functions:
            self._function(name, self.functions[name].pos)
        for rule in self.of(A.RuleDef):
            scope = Scope(Layout())
            for prm in rule.params:
                scope.define(prm.name, self._type(prm.type))
            self._fill_block(self.rule_blocks[rule.name], rule.body, scope)
        for act in self.of(A.ActionDef):
            self.p.actions[self.action_ids[act.name]] = self._action(act)
        for trig in self.of(A.TriggerDef):
            self._trigger(trig)
        self._card_effects()
        self._flow()
        self.p.compile_expr = self.detached
        return self.p

    def detached(self, node: Any, names: dict[str, T]) -> tuple[Fn, T, int]:
        """Compiles an expression outside the rules (a scenario's `expect`), with extra local names."""
        scope = Scope(Layout(), note="a scenario expectation")
        for name, t in names.items():
            scope.define(name, t)
        fn, t = self.expr(node, scope)
        return fn, t, scope.layout.size

    def _new_block(self, name: str) -> int:
        self.p.blocks.append(Block(name, [], 0))
        return len(self.p.blocks) - 1

    def _fill_block(self, bid: int, body: list[Any], scope: Scope, prologue: Sequence[Op] = ()) -> None:
        em = Emitter()
        for op in prologue:
            em.emit(op)
        self.stmts(body, scope, em)
        em.emit(O.ret)
        self.p.blocks[bid].code = em.code
        self.p.blocks[bid].nlocals = scope.layout.size

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

    # ================================================================== components
    def _enums(self) -> None:
        for e in self.of(A.EnumDef):
            self.p.enums[e.name] = [v.name for v in e.values]

    def _kinds(self) -> None:
        for k in self.of(A.KindDef):
            info = KindInfo(k.name, [], [], [], {}, k)
            self.p.kinds[k.name] = info
        for k in self.of(A.KindDef):
            info = self.p.kinds[k.name]
            for f in k.fields:
                if f.name in info.index:
                    raise error_at(f.pos, f"field '{f.name}' is defined twice in kind '{k.name}'")
                info.index[f.name] = len(info.fields)
                info.fields.append(f.name)
                info.types.append(self._type(f.type))
                info.back.append(f.back)
            if k.id_template:
                for fname in template_fields(k.id_template, k.pos, f"the id template of kind '{k.name}'"):
                    if fname not in info.index:
                        raise error_at(k.pos, f"id template of kind '{k.name}' names unknown field '{fname}'",
                                       did_you_mean(fname, info.index))

    def _zones(self) -> None:
        for z in self.of(A.ZoneDef):
            if z.kind not in self.p.kinds:
                raise error_at(z.pos, f"zone '{z.name}' holds unknown kind '{z.kind}'", did_you_mean(z.kind, self.p.kinds))
            size: Optional[Fn] = None
            spec = ZoneSpec(z.name, len(self.p.zones), z.shape, None, z.kind, z.visibility, z.shuffled, z.capacity, z)
            self.p.zones.append(spec)
            self.p.zone_by_name[z.name] = spec
            if z.size is not None:
                fn, t = self.expr(z.size, Scope(Layout(), note="a zone's size"))
                self._expect(z.size, t, INT, "the size of a zone family")
                size = fn
            spec.size = size

    def _values(self) -> None:
        for c in self.of(A.ConstDef):
            fn, t = self.expr(c.value, Scope(Layout(), note="a constant"))
            self.consts[c.name] = (len(self.p.consts), t)
            self.p.consts.append((c.name, fn))
        for cur in self.of(A.CurrencyDef):
            fn, t = self.expr(cur.start, Scope(Layout()))
            self._expect(cur.start, t, INT, "a currency's start amount")
            self.pvar_index[cur.name] = (len(self.p.pvars), INT)
            self.p.pvars.append((cur.name, INT, fn))
            self.gvar_index[f"bank_{cur.name}"] = (len(self.p.gvars), INT)
            self.p.currencies[cur.name] = (len(self.p.pvars) - 1, len(self.p.gvars))
            self.p.gvars.append((f"bank_{cur.name}", INT, self.fn("0")))
        for v in self.of(A.VarDef):
            t = self._type(v.type)
            fn, it = self.expr(v.init, Scope(Layout(), note="a variable's start value"))
            self._expect(v.init, it, t, f"the start value of '{v.name}'")
            target = self.pvar_index if v.per_player else self.gvar_index
            store = self.p.pvars if v.per_player else self.p.gvars
            target[v.name] = (len(store), t)
            store.append((v.name, t, fn))

    def _literal(self, lit: A.Literal_, t: T, where: str) -> Any:
        if t.name == "enum":
            if not lit.is_name or lit.value not in self.p.enums[t.arg]:
                raise error_at(lit.pos, f"{where}: '{lit.value}' is not a value of enum '{t.arg}'",
                               did_you_mean(str(lit.value), self.p.enums[t.arg]))
            return lit.value
        want = {"int": int, "bool": bool, "text": str}.get(t.name)
        if want is None or lit.is_name or type(lit.value) is not want:
            raise error_at(lit.pos, f"{where}: expected {t}, got {lit.value!r}")
        return lit.value

    def _cards(self) -> None:
        seen: dict[str, A.Pos] = {}
        for cd in self.of(A.CardsDef):
            kind = self.p.kinds.get(cd.name)
            if kind is None:
                raise error_at(cd.pos, f"unknown kind '{cd.name}'", did_you_mean(cd.name, self.p.kinds))
            zone = self.p.zone_by_name.get(cd.zone)
            if zone is None:
                raise error_at(cd.pos, f"unknown zone '{cd.zone}'", did_you_mean(cd.zone, self.p.zone_by_name))
            if zone.shape != "single":
                raise error_at(cd.pos, f"cards must start in a single zone; '{cd.zone}' is a zone family")
            if zone.kind != cd.name:
                raise error_at(cd.pos, f"zone '{cd.zone}' holds {zone.kind} cards, not {cd.name}")
            each_vals: list[Optional[str]] = [None]
            if cd.each:
                fname, ename = cd.each
                if fname not in kind.index:
                    raise error_at(cd.pos, f"kind '{kind.name}' has no field '{fname}'", did_you_mean(fname, kind.index))
                if ename not in self.p.enums:
                    raise error_at(cd.pos, f"unknown enum '{ename}'", did_you_mean(ename, self.p.enums))
                each_vals = list(self.p.enums[ename])
            for col in cd.columns:
                if col not in kind.index:
                    raise error_at(cd.pos, f"kind '{kind.name}' has no field '{col}'", did_you_mean(col, kind.index))
            for ev in each_vals:
                for row in cd.rows:
                    if len(row.values) != len(cd.columns):
                        raise error_at(row.pos, f"row has {len(row.values)} values but {len(cd.columns)} columns")
                    vals: list[Any] = [None] * len(kind.fields)
                    if cd.each and ev is not None:
                        vals[kind.index[cd.each[0]]] = ev
                    for col, lit in zip(cd.columns, row.values):
                        vals[kind.index[col]] = self._literal(lit, kind.types[kind.index[col]], f"column '{col}'")
                    self._add_card(kind, vals, None, cd.zone, row, seen)
                for entry in cd.cards:
                    self._card_entry(kind, entry, cd.zone, seen)

    def _card_entry(self, kind: KindInfo, entry: A.CardEntry, zone: str, seen: dict[str, A.Pos]) -> None:
        vals: list[Any] = [None] * len(kind.fields)
        for fv in entry.values:
            if fv.name not in kind.index:
                raise error_at(fv.pos, f"kind '{kind.name}' has no field '{fv.name}'", did_you_mean(fv.name, kind.index))
            vals[kind.index[fv.name]] = self._literal(fv.value, kind.types[kind.index[fv.name]], f"field '{fv.name}'")
        for ef in entry.effects:
            idx = kind.index.get(ef.name)
            if idx is None or kind.types[idx] != EFFECT:
                raise error_at(ef.pos, f"kind '{kind.name}' has no effect field '{ef.name}'",
                               did_you_mean(ef.name, [f for f, t in zip(kind.fields, kind.types) if t == EFFECT]))
        self._add_card(kind, vals, entry.name, zone, entry, seen)

    def _add_card(self, kind: KindInfo, vals: list[Any], name: Optional[str], zone: str, node: A.Node,
                  seen: dict[str, A.Pos]) -> None:
        for i, (fname, t) in enumerate(zip(kind.fields, kind.types)):
            if vals[i] is None and t != EFFECT:
                raise error_at(node.pos, f"{kind.name} card has no value for field '{fname}'")
        cid = name
        if cid is None:
            if not kind.ast.id_template:
                cid = f"{kind.name}_{sum(1 for c in self.p.cards if c.kind == kind.name) + 1}"
            else:
                try:
                    cid = kind.ast.id_template.format(**dict(zip(kind.fields, vals)))
                except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                    raise error_at(kind.ast.pos, f"the id template of kind '{kind.name}' cannot be filled in: {exc}",
                                   'write plain field names in braces, as in id "{type}_{strength}"') from None
        if cid in seen:
            prev = seen[cid]
            raise error_at(node.pos, f"card id '{cid}' is used twice (first at line {prev.line})",
                           "give the kind an id template that tells its cards apart")
        seen[cid] = node.pos
        self.p.cards.append(CardInfo(cid, kind.name, vals, zone, {}, node))
        self.p.card_vals.append(vals)
        self.p.card_kind.append(kind.name)

    def _card_effects(self) -> None:
        for cid, info in enumerate(self.p.cards):
            if not isinstance(info.ast, A.CardEntry):
                continue
            for ef in info.ast.effects:
                bid = self._new_block(f"effect {info.id}.{ef.name}")
                scope = Scope(Layout())
                scope.define("self", card(info.kind))
                scope.define("me", PLAYER)
                self._fill_block(bid, ef.body, scope)
                info.effects[ef.name] = bid

    # ================================================================== functions, actions, triggers
    def _function(self, name: str, at: A.Pos) -> tuple[str, T]:
        """Compiles a pure function once into a Python function named in the generated code's globals."""
        if name in self.compiled_functions:
            return self.compiled_functions[name]
        if name in self.compiling:
            raise error_at(at, f"function '{name}' calls itself", "functions may not be recursive")
        self.compiling.add(name)
        fd = self.functions[name]
        scope = Scope(Layout(), note=f"function '{name}'")
        params = [scope.define_py(prm.name, self._type(prm.type)) for prm in fd.params]
        body, t = self.code(fd.body, scope)
        ident = f"_f_{name}"
        self.env[ident] = self.fn(body, "st" + "".join(", " + p for p in params))
        self.compiled_functions[name] = (ident, t)
        self.compiling.discard(name)
        return self.compiled_functions[name]

    def _action(self, act: A.ActionDef) -> ActionInfo:
        """Compiles an action's body, and its option enumerator: one generated function of nested loops
        over the parameters, each `let`/`require` of the pure prefix placed in the outermost loop
        where its inputs are bound."""
        aid = self.action_ids[act.name]
        scope = Scope(Layout(), note=f"action '{act.name}'")
        scope.define("me", PLAYER)
        params: list[tuple[str, int, T]] = []
        domains: list[str] = []
        level_of: dict[str, int] = {}
        for i, prm in enumerate(act.params):
            src, dt = self.code(prm.domain, scope)
            elem = element_type(dt)
            if elem is None:
                raise error_at(prm.domain.pos, f"the choices for '{prm.name}' must be a list, zone or zone family, "
                                               f"got {dt}")
            domains.append(seq_code(src, dt))
            params.append((prm.name, scope.define(prm.name, elem, self._positions_of(prm.domain)), elem))
            level_of[prm.name] = i + 1
        named = set(template_fields(act.label, act.pos, f"the label of action '{act.name}'"))
        for fname in sorted(named - set(level_of)):
            raise error_at(act.pos, f"label of action '{act.name}' names '{fname}', which is not a parameter",
                           did_you_mean(fname, level_of))
        for fname in [p[0] for p in params if p[0] not in named]:
            raise error_at(act.pos, f"label of action '{act.name}' does not name parameter '{fname}'",
                           "every option needs its own label: put {" + fname + "} into the label")
        try:  # labels are filled with texts at run time; a format spec that needs a number fails here
            act.label.format(**{p[0]: "x" for p in params})
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise error_at(act.pos, f"the label of action '{act.name}' cannot be filled in: {exc}",
                           "write plain parameter names in braces, as in label \"place {card} at {i}\"") from None
        prefix: list[list[str]] = [[] for _ in range(len(params) + 1)]
        body_scope = scope.child()
        for stmt in act.body:
            if not isinstance(stmt, (A.Let, A.Require)):
                break
            deps = names_in(stmt.value if isinstance(stmt, A.Let) else stmt.cond)
            level = max([level_of.get(n, 0) for n in deps] + [0])
            if isinstance(stmt, A.Let):
                src, t = self.code(stmt.value, body_scope)
                slot = body_scope.define(stmt.name, t)
                level_of[stmt.name] = level
                prefix[level].append(f"L[{slot}] = {src}")
            else:
                src, t = self.code(stmt.cond, body_scope)
                self._expect(stmt.cond, t, BOOL, "a requirement")
                prefix[level].append(f"if not {src}: {'continue' if level else 'return out'}")
        bid = self._new_block(f"action {act.name}")
        # The body re-runs the prefix: lets fill their slots, requires guard against stale options.
        em = Emitter()
        self.stmts(act.body, scope.child(), em)
        em.emit(O.ret)
        self.p.blocks[bid].code = em.code
        self.p.blocks[bid].nlocals = scope.layout.size
        lines = ["def enumerate_options(st, me, forbids):", f"    L = [None] * {scope.layout.size}",
                 "    L[0] = me", "    out = []"]
        lines += ["    " + line for line in prefix[0]]
        for k, (_, slot, _) in enumerate(params):
            pad = "    " * (k + 1)
            lines += [f"{pad}for _p{k} in {domains[k]}:", f"{pad}    L[{slot}] = _p{k}"]
            lines += [f"{pad}    {line}" for line in prefix[k + 1]]
        pad = "    " * (len(params) + 1)
        chosen = "(" + "".join(f"_p{k}, " for k in range(len(params))) + ")"
        skip = "continue" if params else "return out"
        lines += [f"{pad}if forbids and _forbidden(st, me, {chosen}, forbids): {skip}",
                  f"{pad}out.append(({aid}, {chosen}))", "    return out"]
        namespace: dict[str, Any] = {}
        exec("\n".join(lines), self.env, namespace)  # noqa: S102 - our own generated code
        return ActionInfo(act.name, aid, params, namespace["enumerate_options"], bid, scope.layout.size, act.label,
                          [O.formatter(p[2]) for p in params], act)

    def _trigger(self, trig: A.TriggerDef) -> None:
        scope = Scope(Layout())
        types = ENGINE_EVENTS.get(trig.event)
        if types is not None and len(types) != len(trig.params):
            raise error_at(trig.pos, f"event '{trig.event}' carries {len(types)} value(s), "
                                     f"not {len(trig.params)}", f"write `when {trig.event}"
                                     + (f"({', '.join(ENGINE_EVENT_PARAMS[trig.event])})`" if types else "`"))
        for i, prm in enumerate(trig.params):
            scope.define(prm, types[i] if types is not None else ANY)
        where = None
        if trig.where is not None:
            where, t = self.expr(trig.where, scope)
            self._expect(trig.where, t, BOOL, "a trigger's condition")
        bid = self._new_block(f"when {trig.event}")
        self._fill_block(bid, trig.body, scope)
        self.p.triggers.setdefault(trig.event, []).append(Trigger(trig.event, where, bid))

    def _flow(self) -> None:
        setups = self.of(A.SetupDef)
        rounds = self.of(A.RoundDef)
        if len(rounds) != 1:
            where = rounds[1].pos if rounds else self.items[0].pos
            raise error_at(where, "a game needs exactly one `round` definition")
        rnd: A.RoundDef = rounds[0]
        em = Emitter()
        if setups:
            setup_bid = self._new_block("setup")
            self._fill_block(setup_bid, setups[0].body, Scope(Layout()))
            em.emit(O.push_block(setup_bid))
        cond, t = self.expr(rnd.repeat_while, Scope(Layout(), note="the round's repeat condition"))
        self._expect(rnd.repeat_while, t, BOOL, "the round's repeat condition")
        top = em.here()
        end_cell = [0]
        em.emit(O.jump_unless(cond, end_cell))
        em.emit(O.round_begin(self._emit_fn("round_start", [])))
        seen: set[str] = set()
        for ph in rnd.phases:
            if ph.name in seen:
                raise error_at(ph.pos, f"phase '{ph.name}' is defined twice")
            seen.add(ph.name)
            bid = self._new_block(f"phase {ph.name}")
            self._fill_block(bid, ph.body, Scope(Layout()))
            em.emit(O.phase_begin(ph.name, bid))
            em.emit(O.expire(SCOPES["phase"]))
        em.emit(O.expire(SCOPES["round"]))
        em.emit(O.jump([top]))
        end_cell[0] = em.here()
        em.emit(O.ret)
        main = self._new_block("main")
        self.p.blocks[main].code = em.code
        self.p.blocks[main].nlocals = 0
        self.p.main_block = main
        for cls, attr in ((A.ScoreDef, "score"), (A.HeuristicDef, "heuristic")):
            defs = self.of(cls)
            if defs:
                scope = Scope(Layout())
                ident = scope.define_py(defs[0].var, PLAYER)
                src, t = self.code(defs[0].expr, scope)
                if not (attr == "score" and t.name == "list" and t.elem in (INT, ANY)):
                    self._expect(defs[0].expr, t, INT, f"the {attr} expression")
                setattr(self.p, attr, self.fn(src, f"st, {ident}"))
        if self.p.score is None:
            raise error_at(self.items[0].pos, "a game needs a `score(p) = …` definition")

    def _emit_fn(self, event: str, args: list[Fn]) -> Optional[Op]:
        if event not in self.events:
            return None
        return O.emit(event, args)

    # ================================================================== statements
    def stmts(self, body: list[Any], scope: Scope, em: Emitter) -> None:
        for s in body:
            self.stmt(s, scope, em)

    def stmt(self, s: Any, scope: Scope, em: Emitter) -> None:
        method = getattr(self, "s_" + type(s).__name__)
        method(s, scope, em)

    def s_Let(self, s: A.Let, scope: Scope, em: Emitter) -> None:
        fn, t = self.expr(s.value, scope)
        if t.name == "map":
            raise error_at(s.pos, "a map cannot be held in a local name", "index the constant directly")
        em.emit(O.set_local(scope.define(s.name, t), fn))

    def s_LetChoose(self, s: A.LetChoose, scope: Scope, em: Emitter) -> None:
        seat, st = self.expr(s.seat, scope)
        self._expect(s.seat, st, PLAYER, "the deciding player")
        opts, elem = self.seq(s.options, scope, False, "the choices")
        em.emit(O.decide(seat, opts, scope.define(s.name, elem), O.formatter(elem)))

    def s_LetRandom(self, s: A.LetRandom, scope: Scope, em: Emitter) -> None:
        opts, elem = self.seq(s.options, scope, False, "the outcomes")
        em.emit(O.chance(opts, scope.define(s.name, elem), O.formatter(elem)))

    def s_SetStmt(self, s: A.SetStmt, scope: Scope, em: Emitter) -> None:
        val, vt = self.expr(s.value, scope)
        tgt = s.target
        if isinstance(tgt, A.Name):
            local = scope.lookup(tgt.name)
            if local is not None and isinstance(local[0], int):
                self._expect(s.value, vt, local[1], f"'{tgt.name}'")
                scope.forget_index(tgt.name)
                em.emit(O.set_local(local[0], val))
                return
            if tgt.name in self.gvar_index:
                idx, t = self.gvar_index[tgt.name]
                self._expect(s.value, vt, t, f"'{tgt.name}'")
                em.emit(O.set_gvar(idx, val))
                return
            raise error_at(tgt.pos, f"cannot set '{tgt.name}': not a variable",
                           did_you_mean(tgt.name, list(self.gvar_index) + scope.all_names()))
        if isinstance(tgt, A.Attr):
            obj, ot = self.expr(tgt.obj, scope)
            if ot.name == "card" and not ot.arg:
                em.emit(O.set_card_field(obj, tgt.name, val))
                return
            if ot.name == "card":
                kind = self.p.kinds[ot.arg]
                if tgt.name not in kind.index or kind.types[kind.index[tgt.name]] == EFFECT:
                    raise error_at(tgt.pos, f"{ot.arg} cards have no field '{tgt.name}' that can be set",
                                   did_you_mean(tgt.name, kind.index))
                fidx = kind.index[tgt.name]
                self._expect(s.value, vt, kind.types[fidx], f"field '{tgt.name}'")
                em.emit(O.set_card_field(obj, fidx, val))
                return
            if ot.name == "player" and tgt.name in self.pvar_index:
                if tgt.name in self.p.currencies:
                    raise error_at(tgt.pos, f"'{tgt.name}' is a currency: it changes only by `pay`")
                idx, t = self.pvar_index[tgt.name]
                self._expect(s.value, vt, t, f"'{tgt.name}'")
                em.emit(O.set_pvar(obj, idx, val))
                return
        raise error_at(tgt.pos, "only variables, player variables and card fields can be set")

    def _zone_expr(self, node: Any, scope: Scope, what: str) -> Fn:
        fn, t = self.expr(node, scope)
        if t.name != "zone":
            raise error_at(node.pos, f"{what} must be a zone, got {t}")
        return fn

    def _cards_expr(self, node: Any, scope: Scope) -> Fn:
        """A closure giving a private list of the cards meant: one card, a list, or a zone's cards."""
        src, t = self.code(node, scope)
        if t.name in ("card", "any"):
            return self.fn(f"[{src}]")
        if t.name in ("zone", "family") or (t.name == "list" and t.elem is not None and t.elem.name in ("card", "any")):
            return self.seq(node, scope, True, "the cards")[0]
        raise error_at(node.pos, f"expected a card, a list of cards or a zone, got {t}")

    def s_Move(self, s: A.Move, scope: Scope, em: Emitter) -> None:
        what = self._cards_expr(s.what, scope)
        to = self._zone_expr(s.to, scope, "the destination")
        em.emit(O.move(what, to, s.bottom, "moved" in self.events))

    def s_Draw(self, s: A.Draw, scope: Scope, em: Emitter) -> None:
        count: Fn = self.fn("1")
        if s.count is not None:
            count, ct = self.expr(s.count, scope)
            self._expect(s.count, ct, INT, "the number of cards to draw")
        src = self._zone_expr(s.source, scope, "the zone drawn from")
        to = self._zone_expr(s.to, scope, "the destination")
        left, picked = scope.layout.alloc(), scope.layout.alloc()
        em.emit(O.set_local(left, count))
        top = em.here()
        end = [0]
        em.emit(O.draw_pick(src, left, picked, end))
        em.emit(O.draw_place(picked, left, to, "moved" in self.events))
        em.emit(O.jump([top]))
        end[0] = em.here()

    def s_Reveal(self, s: A.Reveal, scope: Scope, em: Emitter) -> None:
        em.emit(O.reveal(self._cards_expr(s.what, scope)))

    def s_Pay(self, s: A.Pay, scope: Scope, em: Emitter) -> None:
        if s.currency not in self.p.currencies:
            raise error_at(s.pos, f"unknown currency '{s.currency}'", did_you_mean(s.currency, self.p.currencies))
        amount, at = self.expr(s.amount, scope)
        self._expect(s.amount, at, INT, "an amount")
        parties: list[Optional[Fn]] = []
        for party in (s.payer, s.payee):
            if party is None:
                parties.append(None)
                continue
            fn, pt = self.expr(party, scope)
            self._expect(party, pt, PLAYER, "who pays or is paid")
            parties.append(fn)
        pidx, bank = self.p.currencies[s.currency]
        em.emit(O.pay(amount, parties[0], parties[1], pidx, bank, s.currency, s.at_most_available))

    def s_If(self, s: A.If, scope: Scope, em: Emitter) -> None:
        cond, t = self.expr(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a condition")
        else_cell = [0]
        em.emit(O.jump_unless(cond, else_cell))
        self.stmts(s.then, scope.child(), em)
        if s.other:
            end_cell = [0]
            em.emit(O.jump(end_cell))
            else_cell[0] = em.here()
            self.stmts(s.other, scope.child(), em)
            end_cell[0] = em.here()
        else:
            else_cell[0] = em.here()

    def _loop(self, em: Emitter, body: list[Any], scope: Scope, head: Op, top: int, end_cell: list[int],
              tail: Sequence[Op] = ()) -> None:
        em.loop_ends.append([end_cell])
        self.stmts(body, scope, em)
        for op in tail:
            em.emit(op)
        em.emit(O.jump([top]))
        end_cell[0] = em.here()
        em.loop_ends.pop()

    def s_For(self, s: A.For, scope: Scope, em: Emitter) -> None:
        src, elem = self.seq(s.source, scope, True, "a loop's source")
        inner = scope.child()
        items, idx = scope.layout.alloc(), scope.layout.alloc()
        var = inner.define(s.var, elem, self._positions_of(s.source))
        em.emit(O.for_init(src, items, idx))
        top = em.here()
        end = [0]
        head = O.for_next(items, idx, var, end)
        em.emit(head)
        self._loop(em, s.body, inner, head, top, end)

    def s_While(self, s: A.While, scope: Scope, em: Emitter) -> None:
        cond, t = self.expr(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a condition")
        top = em.here()
        end = [0]
        head = O.jump_unless(cond, end)
        em.emit(head)
        self._loop(em, s.body, scope.child(), head, top, end)

    def s_Repeat(self, s: A.Repeat, scope: Scope, em: Emitter) -> None:
        count, t = self.expr(s.count, scope)
        self._expect(s.count, t, INT, "a repeat count")
        left = scope.layout.alloc()
        em.emit(O.set_local(left, count))
        top = em.here()
        end = [0]
        head = O.countdown(left, end)
        em.emit(head)
        self._loop(em, s.body, scope.child(), head, top, end)

    def s_Break(self, s: A.Break, scope: Scope, em: Emitter) -> None:
        if not em.loop_ends:
            raise error_at(s.pos, "`break` outside a loop")
        em.emit(O.jump(em.loop_ends[-1][0]))

    def s_ChooseAction(self, s: A.ChooseAction, scope: Scope, em: Emitter) -> None:
        seat, t = self.expr(s.seat, scope)
        self._expect(s.seat, t, PLAYER, "the deciding player")
        aids = []
        for name in s.actions:
            if name not in self.action_ids:
                raise error_at(s.pos, f"unknown action '{name}'", did_you_mean(name, self.action_ids))
            aids.append(self.action_ids[name])
        em.emit(O.choose_action(seat, aids))

    def s_CallRule(self, s: A.CallRule, scope: Scope, em: Emitter) -> None:
        rule = self.rules.get(s.rule)
        if rule is None:
            raise error_at(s.pos, f"unknown rule '{s.rule}'", did_you_mean(s.rule, self.rules))
        if len(s.args) != len(rule.params):
            raise error_at(s.pos, f"rule '{s.rule}' takes {len(rule.params)} argument(s), got {len(s.args)}")
        args = []
        for arg, prm in zip(s.args, rule.params):
            fn, t = self.expr(arg, scope)
            self._expect(arg, t, self._type(prm.type), f"argument '{prm.name}' of rule '{s.rule}'")
            args.append(fn)
        em.emit(O.call_rule(self.rule_blocks[s.rule], args))

    def s_Run(self, s: A.Run, scope: Scope, em: Emitter) -> None:
        tgt = s.target
        if not isinstance(tgt, A.Attr):
            raise error_at(s.pos, "`run` needs a card's effect field, as in `run tile.effect`")
        obj, t = self.expr(tgt.obj, scope)
        kind = self.p.kinds.get(t.arg) if t.name == "card" else None
        if kind is None or tgt.name not in kind.index or kind.types[kind.index[tgt.name]] != EFFECT:
            raise error_at(tgt.pos, f"'{tgt.name}' is not an effect field of {t}")
        me = scope.lookup("me")
        acting = self.fn(f"L[{me[0]}]" if me is not None and isinstance(me[0], int) else "-1")
        em.emit(O.run_effect(obj, tgt.name, acting))

    def s_Modify(self, s: A.Modify, scope: Scope, em: Emitter) -> None:
        kind = self.p.kinds.get(s.kind)
        if kind is None:
            raise error_at(s.pos, f"unknown kind '{s.kind}'", did_you_mean(s.kind, self.p.kinds))
        if s.field not in kind.index:
            raise error_at(s.pos, f"kind '{s.kind}' has no field '{s.field}'", did_you_mean(s.field, kind.index))
        fidx = kind.index[s.field]
        ftype = kind.types[fidx]
        if ftype == EFFECT or (s.mode == "by" and ftype != INT):
            raise error_at(s.pos, f"`modify … by` needs a number field; '{s.field}' is {ftype}"
                           if ftype != EFFECT else f"'{s.field}' is an effect and cannot be modified",
                           "use `modify … to` to replace the value" if ftype != EFFECT else "")
        mscope = CaptureScope(scope, "a modifier")
        it = mscope.define_py("it", card(s.kind))
        value, vt = self.code(s.value, mscope)
        self._expect(s.value, vt, ftype, "a modifier's value")
        wsrc = "True"
        if s.where is not None:
            wsrc, wt = self.code(s.where, mscope)
            self._expect(s.where, wt, BOOL, "a modifier's condition")
        params = f"st, {it}{mscope.params()}"
        where = self.fn(wsrc, params) if s.where is not None else None
        self.p.moddefs.append(ModDef(s.kind, fidx, s.mode == "by", self.fn(value, params), where,
                                     SCOPES[s.until]))
        em.emit(O.add_modifier(len(self.p.moddefs) - 1, SCOPES[s.until], mscope.slots()))

    def s_Forbid(self, s: A.Forbid, scope: Scope, em: Emitter) -> None:
        wheres: dict[int, tuple[Optional[Fn], list[int], int]] = {}
        captured: dict[str, list[int]] = {}
        for name in s.actions:
            if name not in self.action_ids:
                raise error_at(s.pos, f"unknown action '{name}'", did_you_mean(name, self.action_ids))
            act = next(a for a in self.of(A.ActionDef) if a.name == name)
            fscope = CaptureScope(scope, f"a restriction of action '{name}'")
            fscope.define("me", PLAYER)
            slots = []
            for prm in act.params:
                _, dt = self.code(prm.domain, fscope.child())
                slots.append(fscope.define(prm.name, element_type(dt) or ANY))
            cond = None
            if s.where is not None:
                src, t = self.code(s.where, fscope)
                self._expect(s.where, t, BOOL, "a restriction's condition")
                cond = self.fn(src, f"st, L{fscope.params()}")
            captured[name] = fscope.slots()
            wheres[self.action_ids[name]] = (cond, slots, fscope.layout.size)
        if len({tuple(c) for c in captured.values()}) > 1:
            raise error_at(s.pos, "a restriction of several actions must use the same local names for each")
        self.p.forbids.append(ForbidDef(wheres, SCOPES[s.until]))
        em.emit(O.add_forbid(len(self.p.forbids) - 1, SCOPES[s.until], next(iter(captured.values()), [])))

    def s_Turns(self, s: A.Turns, scope: Scope, em: Emitter) -> None:
        start, t = self.expr(s.start, scope)
        self._expect(s.start, t, PLAYER, "the first player")
        inner = scope.child()
        var = inner.define(s.var, PLAYER)
        skips = scope.layout.alloc()
        until, ut = self.expr(s.until, inner)
        self._expect(s.until, ut, BOOL, "the end condition of the turns")
        skip = None
        if s.skip is not None:
            skip, kt = self.expr(s.skip, inner)
            self._expect(s.skip, kt, BOOL, "the skip condition")
        em.emit(O.turns_init(start, var, skips))
        top = em.here()
        end = [0]
        head = O.turns_head(until, skip, var, skips, end, [top])
        em.emit(head)
        self._loop(em, s.body, inner, head, top, end, tail=[O.expire(SCOPES["turn"]), O.next_player(var)])

    def s_Log(self, s: A.Log, scope: Scope, em: Emitter) -> None:
        em.emit(O.log_text(s.text.by_lang.get("en", next(iter(s.text.by_lang.values())))))

    def s_Require(self, s: A.Require, scope: Scope, em: Emitter) -> None:
        cond, t = self.expr(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a requirement")
        em.emit(O.require(cond, f"{s.pos.file}:{s.pos.line}: requirement failed"))

    def s_Give(self, s: A.Give, scope: Scope, em: Emitter) -> None:
        what = self._cards_expr(s.what, scope)
        to, t = self.expr(s.to, scope)
        self._expect(s.to, t, PLAYER, "the new owner")
        em.emit(O.give(what, to))

    def s_EndGame(self, s: A.EndGame, scope: Scope, em: Emitter) -> None:
        em.emit(O.end_game)

    def s_Emit(self, s: A.Emit, scope: Scope, em: Emitter) -> None:
        args = [self.expr(a, scope)[0] for a in s.args]
        for trig in self.of(A.TriggerDef):
            if trig.event == s.event and len(trig.params) != len(args):
                raise error_at(s.pos, f"event '{s.event}' carries {len(trig.params)} value(s) at line {trig.pos.line}, "
                               f"but is emitted with {len(args)}")
        op = self._emit_fn(s.event, args)
        if op is None:
            raise error_at(s.pos, f"no `when {s.event}` trigger listens to this event",
                           did_you_mean(s.event, self.events))
        em.emit(op)

    # ================================================================== expressions
    # Expressions compile to Python source, evaluated once into one closure per expression: a whole
    # condition costs one call instead of one per node. Frame locals are `L[slot]`; comprehension
    # variables, function parameters and a modifier's `it` are plain Python names.
    def _expect(self, node: Any, got: T, want: T, what: str) -> None:
        if not compatible(want, got):
            raise error_at(node.pos, f"{what} must be {want}, got {got}")

    def fn(self, src: str, params: str = "st, L") -> Fn:
        key = f"{params}|{src}"
        if key not in self.lambdas:
            try:
                self.lambdas[key] = eval(f"lambda {params}: {src}", self.env)  # noqa: S307 - our own generated code
            except (SyntaxError, RecursionError, MemoryError):  # Python's own limits on nesting
                raise error_at(self.at, "this expression is nested too deeply",
                               "split it up with `let` or a `function`") from None
        result: Fn = self.lambdas[key]
        return result

    def expr(self, e: Any, scope: Scope) -> tuple[Fn, T]:
        src, t = self.code(e, scope)
        return self.fn(src), t

    def code(self, e: Any, scope: Scope) -> tuple[str, T]:
        self.at = e.pos  # for errors found below: the innermost node while descending, this one after
        method = getattr(self, "e_" + type(e).__name__)
        result: tuple[str, T] = method(e, scope)
        self.at = e.pos
        return result

    def seq(self, e: Any, scope: Scope, copy: bool, what: str) -> tuple[Fn, T]:
        """A closure giving the items of a list, zone or family, and the item type."""
        src, t = self.code(e, scope)
        elem = element_type(t)
        if elem is None:
            raise error_at(e.pos, f"{what} must be a list, zone or zone family, got {t}")
        if t.name == "zone" and copy:
            return self.fn(f"list(st.zones[{src}])"), elem
        return self.fn(seq_code(src, t)), elem

    def _positions_of(self, source: Any) -> Optional[int]:
        """The family id when `source` is literally `positions(family)`."""
        if isinstance(source, A.Call) and source.func == "positions" and len(source.args) == 1 \
                and isinstance(source.args[0], A.Name) and source.args[0].name in self.p.zone_by_name:
            return self.p.zone_by_name[source.args[0].name].family_id
        return None

    def e_Num(self, e: A.Num, scope: Scope) -> tuple[str, T]:
        return repr(e.value), INT

    def e_Str(self, e: A.Str, scope: Scope) -> tuple[str, T]:
        return repr(e.value), TEXT

    def e_BoolLit(self, e: A.BoolLit, scope: Scope) -> tuple[str, T]:
        return repr(e.value), BOOL

    def e_Name(self, e: A.Name, scope: Scope) -> tuple[str, T]:
        name = e.name
        local = scope.lookup(name)
        if local is not None:
            slot, t = local
            return (slot if isinstance(slot, str) else f"L[{slot}]"), t
        if name in self.consts:
            idx, t = self.consts[name]
            return f"st.game.consts[{idx}]", t
        if name in self.gvar_index:
            idx, t = self.gvar_index[name]
            return f"st.gvars[{idx}]", t
        if name in self.p.zone_by_name:
            spec = self.p.zone_by_name[name]
            if spec.shape == "single":
                return f"st.game.fam_zones[{spec.family_id}][0]", T("zone", spec.kind)
            return repr(spec.family_id), T("family", spec.name, elem=card(spec.kind))
        if name in self.p.enums:
            return repr(list(self.p.enums[name])), list_of(enum(name))
        if name == "players":
            return "st.game.players", list_of(PLAYER)
        if name == "player_count":
            return "st.game.num_players", INT
        if name == "round":
            return "st.round", INT
        known = _visible_names(scope) + list(self.consts) + list(self.gvar_index) + list(self.p.zone_by_name) + \
            list(self.p.enums) + ["players", "player_count", "round"]
        hint = did_you_mean(name, known)
        if not hint.startswith("did you mean") and scope.note and not _captures(scope):
            hint = f"inside {scope.note} only its own names, constants, variables and zones are visible"
        raise error_at(e.pos, f"unknown name '{name}'", hint)

    def e_Attr(self, e: A.Attr, scope: Scope) -> tuple[str, T]:
        if isinstance(e.obj, A.Name) and e.obj.name in self.p.enums and scope.lookup(e.obj.name) is None:
            values = self.p.enums[e.obj.name]
            if e.name not in values:
                raise error_at(e.pos, f"'{e.name}' is not a value of enum '{e.obj.name}'", did_you_mean(e.name, values))
            return repr(e.name), enum(e.obj.name)
        obj, t = self.code(e.obj, scope)
        if t.name == "card":
            if not t.arg:
                return f"_dynfield(st, {obj}, {e.name!r})", ANY
            kind = self.p.kinds[t.arg]
            if e.name not in kind.index:
                raise error_at(e.pos, f"{t.arg} cards have no field '{e.name}'", did_you_mean(e.name, kind.index))
            fidx = kind.index[e.name]
            if (t.arg, e.name) in self.modifiable:
                return f"_modified(st, {obj}, {fidx}, {t.arg!r})", kind.types[fidx]
            return f"st.card_vals[{obj}][{fidx}]", kind.types[fidx]
        if t.name == "player":
            if e.name not in self.pvar_index:
                raise error_at(e.pos, f"players have no variable '{e.name}'", did_you_mean(e.name, self.pvar_index))
            idx, vt = self.pvar_index[e.name]
            return f"st.pvars[{obj}][{idx}]", vt
        raise error_at(e.pos, f"{t} has no field '{e.name}'")

    def e_Index(self, e: A.Index, scope: Scope) -> tuple[str, T]:
        obj, t = self.code(e.obj, scope)
        idx, it = self.code(e.index, scope)
        if t.name == "family":
            spec = self.p.zone_by_name[t.arg]
            if spec.shape == "per_player":
                self._expect(e.index, it, PLAYER, f"the index of zone family '{spec.name}'")
                return f"st.game.fam_zones[{obj}][{idx}]", T("zone", spec.kind)
            self._expect(e.index, it, INT, f"the index of zone family '{spec.name}'")
            if isinstance(e.index, A.Name) and scope.safe_index(e.index.name) == spec.family_id:
                return f"st.game.fam_zones[{obj}][{idx} - 1]", T("zone", spec.kind)  # in range by construction
            return f"_member(st, {obj}, {idx}, {spec.name!r})", T("zone", spec.kind)
        if t.name == "map":
            assert t.key is not None and t.elem is not None
            self._expect(e.index, it, t.key, "a key")
            return f"_mapget({obj}, {idx})", t.elem
        if t.name == "list":
            assert t.elem is not None
            self._expect(e.index, it, INT, "a list position")
            return f"_listget({obj}, {idx})", t.elem
        raise error_at(e.pos, f"cannot index {t}")

    def e_Call(self, e: A.Call, scope: Scope) -> tuple[str, T]:
        if e.func in self.p.zone_by_name:
            if len(e.args) != 1:
                raise error_at(e.pos, f"zone family '{e.func}' takes one index")
            return self.e_Index(A.Index(pos=e.pos, obj=A.Name(pos=e.pos, name=e.func), index=e.args[0]), scope)
        compiled = [self.code(a, scope) for a in e.args]
        srcs = [c[0] for c in compiled]
        types = [c[1] for c in compiled]
        if e.func in self.functions:
            fd = self.functions[e.func]
            if len(srcs) != len(fd.params):
                raise error_at(e.pos, f"function '{e.func}' takes {len(fd.params)} argument(s), got {len(srcs)}")
            for arg, prm, t in zip(e.args, fd.params, types):
                self._expect(arg, t, self._type(prm.type), f"argument '{prm.name}' of '{e.func}'")
            ident, rt = self._function(e.func, e.pos)
            return f"{ident}(st{''.join(', ' + a for a in srcs)})", rt
        if e.func == "card" and len(e.args) == 1 and isinstance(e.args[0], A.Str):
            ids = {c.id: c.kind for c in self.p.cards}
            if e.args[0].value not in ids:
                raise error_at(e.args[0].pos, f"there is no card '{e.args[0].value}'", did_you_mean(e.args[0].value, ids))
            return f"_card(st, {srcs[0]})", card(ids[e.args[0].value])
        prim = REGISTRY.get(e.func)
        if prim is None:
            known = list(self.functions) + list(REGISTRY) + list(self.p.zone_by_name)
            raise error_at(e.pos, f"unknown function '{e.func}'", did_you_mean(e.func, known))
        result = prim.check(types)
        if isinstance(result, str):
            raise error_at(e.pos, f"{e.func}{prim.params}: {result}")
        return prim.build(srcs, types), result

    def e_CallComp(self, e: A.CallComp, scope: Scope) -> tuple[str, T]:
        if e.func not in AGGREGATES:
            raise error_at(e.pos, f"'{e.func}' does not take a `… for … in …` argument",
                           f"aggregates that do: {', '.join(sorted(AGGREGATES))}")
        return self.e_Call(A.Call(pos=e.pos, func=e.func, args=[e.comp]), scope)

    def e_Comprehension(self, e: A.Comprehension, scope: Scope) -> tuple[str, T]:
        src, st = self.code(e.source, scope)
        elem = element_type(st)
        if elem is None:
            raise error_at(e.source.pos, f"cannot loop over {st}")
        inner = scope.child()
        var = inner.define_py(e.var, elem, self._positions_of(e.source))
        body, bt = self.code(e.expr, inner)
        cond = ""
        if e.cond is not None:
            ccode, ct = self.code(e.cond, inner)
            self._expect(e.cond, ct, BOOL, "a filter condition")
            cond = f" if {ccode}"
        source = seq_code(src, st)
        if e.key is not None:
            key, _ = self.code(e.key, inner)
            return f"_sorted_by([({key}, {body}) for {var} in {source}{cond}])", list_of(bt)
        return f"[{body} for {var} in {source}{cond}]", list_of(bt)

    def e_BinOp(self, e: A.BinOp, scope: Scope) -> tuple[str, T]:
        left, lt = self.code(e.left, scope)
        right, rt = self.code(e.right, scope)
        if e.op in ("and", "or"):
            self._expect(e.left, lt, BOOL, f"the left side of '{e.op}'")
            self._expect(e.right, rt, BOOL, f"the right side of '{e.op}'")
            return f"({left} {e.op} {right})", BOOL
        if e.op in ("==", "!="):
            if not (compatible(lt, rt) or compatible(rt, lt)):
                raise error_at(e.pos, f"cannot compare {lt} with {rt}")
            return f"({left} {e.op} {right})", BOOL
        self._expect(e.left, lt, INT, f"the left side of '{e.op}'")
        self._expect(e.right, rt, INT, f"the right side of '{e.op}'")
        if e.op in ("<", "<=", ">", ">="):
            return f"({left} {e.op} {right})", BOOL
        if e.op == "/":
            return f"_div({left}, {right})", INT
        if e.op == "%":
            return f"_mod({left}, {right})", INT
        return f"({left} {e.op} {right})", INT

    def e_Not(self, e: A.Not, scope: Scope) -> tuple[str, T]:
        src, t = self.code(e.operand, scope)
        self._expect(e.operand, t, BOOL, "the operand of 'not'")
        return f"(not {src})", BOOL

    def e_Neg(self, e: A.Neg, scope: Scope) -> tuple[str, T]:
        src, t = self.code(e.operand, scope)
        self._expect(e.operand, t, INT, "the operand of '-'")
        return f"(-{src})", INT

    def e_CondExpr(self, e: A.CondExpr, scope: Scope) -> tuple[str, T]:
        cond, ct = self.code(e.cond, scope)
        self._expect(e.cond, ct, BOOL, "the condition")
        a, at = self.code(e.then, scope)
        b, bt = self.code(e.other, scope)
        if not (compatible(at, bt) or compatible(bt, at)):
            raise error_at(e.pos, f"both branches must have the same type, got {at} and {bt}")
        return f"({a} if {cond} else {b})", at if at.name != "any" else bt

    def e_ListLit(self, e: A.ListLit, scope: Scope) -> tuple[str, T]:
        items = [self.code(i, scope) for i in e.items]
        elem = items[0][1] if items else ANY
        for node, (_, t) in zip(e.items, items):
            self._expect(node, t, elem, "a list item")
        return "[" + ", ".join(i[0] for i in items) + "]", list_of(elem)

    def e_MapLit(self, e: A.MapLit, scope: Scope) -> tuple[str, T]:
        pairs = [(self.code(k, scope), self.code(v, scope)) for k, v in e.items]
        kt, vt = pairs[0][0][1], pairs[0][1][1]
        for (k, v), ((_, kt2), (_, vt2)) in zip(e.items, pairs):
            self._expect(k, kt2, kt, "a map key")
            self._expect(v, vt2, vt, "a map value")
        return "{" + ", ".join(f"{k[0]}: {v[0]}" for k, v in pairs) + "}", T("map", elem=vt, key=kt)


def compile_program(items: list[A.Node], name: str, variants: list[str]) -> Program:
    """Type-check and compile; raises RulesError with the position of the first problem."""
    compiler = Compiler(items, name, variants)
    try:
        return compiler.compile()
    except RulesError:
        raise
    except RecursionError:
        raise error_at(compiler.at, "this expression is nested too deeply",
                       "split it up with `let` or a `function`") from None
    except GameRuleError as exc:  # a constant expression failed while compiling
        raise error_at(items[0].pos, str(exc)) from None
