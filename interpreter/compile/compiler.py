"""Compiles a validated AST into a Program: component tables, zones, values, actions with their
option enumerators, triggers, card effects and the round flow (statements and expressions are
compiled by the modules this class builds on)."""
from __future__ import annotations

import ast
import re
from itertools import product
from types import CodeType
from typing import Any, Callable, Optional

from dsl import ast as A
from dsl.errors import RulesError, did_you_mean, error_at
from dsl.limits import MAX_CARDS
from dsl.sections import check_sections
from interpreter.compile import blocks as B
from interpreter.compile.blocks import Emitter
from interpreter.compile.code_cache import compiled, kept
from interpreter.compile.compile_base import check_told, counted_first, guard_levels, names_in, template_fields
from interpreter.compile.expressions import iterable
from interpreter.compile.hoist import (
    card_loop,
    domains_read_once,
    game_tables_bound,
    hoist_call_reads,
    hoist_card_reads,
    hoist_zone_work,
    known_places,
    lister_code,
    made_for_game,
    repeated_reads_as_locals,
    shared_lists,
    slots_as_locals,
)
from interpreter.compile.astwalk import pure
from interpreter.compile.lowering import function_code, lowered_function
from interpreter.compile.primitives import seq_code
from interpreter.compile.scope import Layout, Scope, numbering
from interpreter.compile.statements import MOVING, StatementCompiler, check_progress, sets_name
from interpreter.compile.types import ANY, BOOL, EFFECT, INT, PLAYER, T, card, element_type
from interpreter.runtime import ops as O
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.program import (
    ActionInfo,
    Block,
    CardInfo,
    Fn,
    KindInfo,
    Program,
    Trigger,
    ZoneSpec,
)

# Events the engine itself raises, with the types of the values they carry.
ENGINE_EVENTS: dict[str, list[T]] = {"round_start": [], "moved": [card(""), T("zone", ""), T("zone", "")]}
ENGINE_EVENT_PARAMS = {"round_start": [], "moved": ["c", "source", "target"]}


OPTION_ROW_CARDS = 128  # rows of options (Game.option_rows) where a game has no more cards: their size grows with it
# statements an `arrange` block refuses: they open a node, or add modifiers, prohibitions or turn loops
ARRANGE_REFUSED: dict[type, str] = {
    A.LetChoose: "choose", A.LetRandom: "random", A.ChooseAction: "choose action", A.Draw: "draw", A.Modify: "modify",
    A.Forbid: "forbid", A.Turns: "turns", A.TurnsIn: "turns", A.Require: "require", A.EndGame: "end game"}


def option_made(aid: int, types: list[T], rows: bool) -> str:
    """The code of a listed option `(aid, *parameters)` (its loops' values `_p0`, `_p1` …): an item of the row made once
    per game where it has one (two parameters, a card last: `_row{aid}`, Compiler._action; one card: Game.card_rows),
    as a new tuple costs an allocation that the row's item does not."""
    if rows:
        return f"_row{aid}[_p1]"
    if len(types) == 1 and types[0].name == "card":
        return f"st.game.card_rows({aid})[_p0]"
    return f"({', '.join([str(aid), *(f'_p{k}' for k in range(len(types)))])}{',' * (not types)})"


_PARAM = re.compile(r"\b_p\d+\b")  # a lister's name of an action's parameter (slots_as_locals)
_LOOP_PARAM = re.compile(r"\bfor (_p\d+)\b")  # a loop that binds one (not a loop over places that reads no number)


class Compiler(StatementCompiler):
    # ================================================================== top level
    def compile(self) -> Program:
        check_sections(self.items)
        self._enums()
        self._kinds()
        if self.shown is not None:  # before any move is compiled
            self.p.unshown = frozenset(self.p.kinds) - self.shown
        self._zones()
        self._values()
        self._zone_sizes()
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
            self._fill_block(self.rule_blocks[rule.name], rule.body, scope, rule.pos)
        for act in self.of(A.ActionDef):
            self.p.actions[self.action_ids[act.name]] = self._action(act)
        for event in self.declared.values():
            if event.name in ENGINE_EVENTS:
                raise error_at(event.pos, f"'{event.name}' is an event of the engine; it needs no declaration",
                               "remove this `event` line, or give your own event another name")
        for trig in self.of(A.TriggerDef):
            self._trigger(trig)
        for name, triggers in self.p.triggers.items():
            self.env["_fires"][name] = B.dispatcher(triggers, [b.nlocals for b in self.p.blocks], self.env)
        self._card_effects()
        self._pictures()
        self._flow()
        # the `choose action`s' listing and picking functions, compiled once their actions are
        self.p.listers = [make for aids in self.option_listers for make in self._option_listers(aids)]
        # code compiled later (a scenario's) keeps its checks and reads fields from the state: an arrange may set them
        self.const_keys.clear()
        self.by_column = False
        self.p.compile_expr = self.detached
        self.p.compile_block = self.detached_block
        return self.p

    def detached(self, node: Any, names: dict[str, T]) -> tuple[Fn, T, int]:
        """Compiles an expression outside the rules (a scenario's `expect`), with extra local names."""
        scope = Scope(Layout(), note="a scenario expectation")
        for name, t in names.items():
            scope.define(name, t)
        with numbering(self.numbers):
            fn, t = self.expr(node, scope)
        return fn, t, scope.layout.size

    def detached_block(self, body: list[A.Stmt], names: dict[str, T], at: A.Pos) -> Block:
        """Compiles statements outside the rules (a scenario's `arrange`); only those that neither open a
        node nor add to the program (modifiers, prohibitions), so the loaded program stays as it was."""
        for node in A.walk(body):
            if type(node) in ARRANGE_REFUSED:
                assert isinstance(node, A.Node)
                raise error_at(node.pos, f"`arrange` cannot hold `{ARRANGE_REFUSED[type(node)]}`: it "
                                         "puts the state in place without decisions, chance or lasting rules",
                               "use `choose` and `chance` steps for decisions and chance")
        scope = Scope(Layout(), note="a scenario's arrange block")
        for name, t in names.items():
            scope.define(name, t)
        em = Emitter(at)
        with numbering(self.numbers):
            self.stmts(body, scope, em)
            em.emit_src(B.ret())
            code, runner, resumable, starts = em.finish(self.env, self.p.node_types)
        return Block("arrange", code, scope.layout.size, em.pos, runner, starts, resumable)

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
                info.defaults.append(None if f.default is None else
                                     self._literal(f.default, info.types[-1], f"the default of field '{f.name}'"))
            templates = [("id template", k.id_template)] if k.id_template else []
            templates += [(f"name ({lang})", text) for lang, text in (k.named.by_lang.items() if k.named else [])]
            for what, template in templates:
                for fname in template_fields(template, k.pos, f"the {what} of kind '{k.name}'"):
                    if fname not in info.index:
                        raise error_at(k.pos, f"{what} of kind '{k.name}' names unknown field '{fname}'",
                                       did_you_mean(fname, info.index))

    def _zones(self) -> None:
        for z in self.of(A.ZoneDef):
            if z.kind not in self.p.kinds:
                raise error_at(z.pos, f"zone '{z.name}' holds unknown kind '{z.kind}'", did_you_mean(z.kind, self.p.kinds))
            spec = ZoneSpec(z.name, len(self.p.zones), z.shape, None, z.kind, z.visibility, z.shuffled, z.capacity, z)
            self.p.zones.append(spec)
            self.p.zone_by_name[z.name] = spec
        self.p.counted = tuple(sorted(self.p.zone_by_name[name].family_id for name in self.owner_counted
                                      if name in self.p.zone_by_name and self.p.zone_by_name[name].shape != "single"))
        self.p.cached = frozenset(self.p.zone_by_name[name].family_id for name in self.read_whole)

    def _zone_sizes(self) -> None:
        """After the constants, so that a family's size may name one (`zone room [room_count] of …`)."""
        for spec in self.p.zones:
            if spec.ast.size is not None:
                src, t = self.code(spec.ast.size, Scope(Layout(), note="a zone's size"))
                self._expect(spec.ast.size, t, INT, "the size of a zone family")
                spec.size = self.fn(src)
                self.size_code[spec.family_id] = src

    def _pictures(self) -> None:
        """A picture's values are constants: computed for a player count, never from a state."""
        for pic in self.of(A.PictureDef):
            self.p.pictures[pic.name] = [[self.expr(x, Scope(Layout(), note="a picture"))[0]
                                          for x in (e.value, e.of) if x is not None] for e in pic.entries]

    def _values(self) -> None:
        for c in self.of(A.ConstDef):
            src, t = self.code(c.value, Scope(Layout(), note="a constant"))
            fn = self.fn(src)
            self.consts[c.name] = (len(self.p.consts), t)
            if _literal(src):  # the same for every player count: written in place of the game's table
                self.const_code[c.name] = src
            keys = [k for k, _ in c.value.items] if isinstance(c.value, A.MapLit) else []
            literal = [k.value for k in keys if isinstance(k, (A.Num, A.Str, A.BoolLit))]
            self.const_keys.pop(c.name, None)
            if keys and len(literal) == len(keys):  # every key written out: the same for every player count
                self.const_keys[c.name] = set(literal)
            self.p.consts.append((c.name, fn))
        for cur in self.of(A.CurrencyDef):
            fn, t = self.expr(cur.start, Scope(Layout()))
            self._expect(cur.start, t, INT, "a currency's start amount")
            self.pvar_index[cur.name] = (len(self.p.pvars), INT)
            self.p.pvars.append((cur.name, INT, fn))
            self.p.pvar_pos.append(cur.pos)
            self.p.currencies[cur.name] = (len(self.p.pvars) - 1, len(self.p.gvars))
            self.p.gvars.append((f"bank_{cur.name}", INT, self.fn("0")))
            self.p.gvar_pos.append(cur.pos)
            if cur.hidden:
                self.p.hidden.add(len(self.p.pvars) - 1)
        for v in self.of(A.VarDef):
            t = self._type(v.type)
            fn, it = self.expr(v.init, Scope(Layout(), note="a variable's start value"))
            self._expect(v.init, it, t, f"the start value of '{v.name}'")
            target = self.pvar_index if v.per_player else self.gvar_index
            store = self.p.pvars if v.per_player else self.p.gvars
            if v.hidden:
                if not v.per_player:
                    raise error_at(v.pos, f"'{v.name}' is a game var, seen by all: only a `player var` can be hidden")
                self.p.hidden.add(len(store))
            target[v.name] = (len(store), t)
            store.append((v.name, t, fn))
            (self.p.pvar_pos if v.per_player else self.p.gvar_pos).append(v.init.pos)

    def _literal(self, lit: A.Literal_, t: T, where: str) -> Any:
        if t.name == "list" and t.elem is not None:
            if lit.items is None:
                raise error_at(lit.pos, f"{where}: expected {t}, got {lit.value!r}", "write a list as [a, b, c]")
            return [self._literal(item, t.elem, where) for item in lit.items]
        if lit.items is not None:
            raise error_at(lit.pos, f"{where}: expected {t}, got a list")
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
                    self._check_effects(kind, row.effects)
                    for combo in product(*[self._row_values(kind, col, lit) for col, lit in zip(cd.columns, row.values)]):
                        vals: list[Any] = [None] * len(kind.fields)
                        if cd.each and ev is not None:
                            vals[kind.index[cd.each[0]]] = ev
                        for col, value in zip(cd.columns, combo):
                            vals[kind.index[col]] = value
                        self._add_card(kind, vals, None, cd.zone, row, seen, row.effects)
                for entry in cd.cards:
                    self._card_entry(kind, entry, cd.zone, seen)

    def _row_values(self, kind: KindInfo, col: str, lit: A.Literal_) -> list[Any]:
        """The values one cell of a row stands for: one, or each number of a range `3..35`."""
        t = kind.types[kind.index[col]]
        if lit.range is None:
            return [self._literal(lit, t, f"column '{col}'")]
        if t != INT:
            raise error_at(lit.pos, f"column '{col}': a range stands for numbers, but the field is {t}")
        return list(range(lit.range[0], lit.range[1] + 1))

    def _check_effects(self, kind: KindInfo, effects: list[A.EffectValue]) -> None:
        for ef in effects:
            idx = kind.index.get(ef.name)
            if idx is None or kind.types[idx] != EFFECT:
                raise error_at(ef.pos, f"kind '{kind.name}' has no effect field '{ef.name}'",
                               did_you_mean(ef.name, [f for f, t in zip(kind.fields, kind.types) if t == EFFECT]))

    def _card_entry(self, kind: KindInfo, entry: A.CardEntry, zone: str, seen: dict[str, A.Pos]) -> None:
        vals: list[Any] = [None] * len(kind.fields)
        for fv in entry.values:
            if fv.name not in kind.index:
                raise error_at(fv.pos, f"kind '{kind.name}' has no field '{fv.name}'", did_you_mean(fv.name, kind.index))
            vals[kind.index[fv.name]] = self._literal(fv.value, kind.types[kind.index[fv.name]], f"field '{fv.name}'")
        self._check_effects(kind, entry.effects)
        if entry.copies < 1:
            raise error_at(entry.pos, f"card '{entry.name}' has {entry.copies} copies", "write copies 1 or more")
        if len(self.p.cards) + entry.copies > MAX_CARDS:
            raise error_at(entry.pos, f"a game has at most {MAX_CARDS} cards in all")
        names = [entry.name] if entry.copies == 1 else [f"{entry.name}_{k + 1}" for k in range(entry.copies)]
        for name in names:
            self._add_card(kind, list(vals), name, zone, entry, seen, entry.effects)

    def _add_card(self, kind: KindInfo, vals: list[Any], name: Optional[str], zone: str, node: A.Node,
                  seen: dict[str, A.Pos], effects: list[A.EffectValue]) -> None:
        if len(self.p.cards) >= MAX_CARDS:
            raise error_at(node.pos, f"a game has at most {MAX_CARDS} cards in all")
        for i, (fname, t) in enumerate(zip(kind.fields, kind.types)):
            if vals[i] is None and kind.defaults[i] is not None:
                vals[i] = kind.defaults[i]
            if vals[i] is None and t != EFFECT:
                raise error_at(node.pos, f"{kind.name} card has no value for field '{fname}'",
                               f"give it in every card, or a default: `field {fname}: {t} = …`")
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
        self.p.cards.append(CardInfo(cid, kind.name, vals, zone, {}, node, effects))
        self.p.card_vals.append(vals)
        self.p.card_kind.append(kind.name)

    def _card_effects(self) -> None:
        """One block per effect written in the rules; the copies of a card and the cards of a row
        with a range share it."""
        compiled: dict[tuple[int, str], int] = {}
        for info in self.p.cards:
            for ef in info.effect_src:
                key = (id(ef), ef.name)
                if key not in compiled:
                    compiled[key] = self._new_block(f"effect {info.id}.{ef.name}")
                    scope = Scope(Layout())
                    scope.define("self", card(info.kind))
                    scope.define("me", PLAYER)
                    self._fill_block(compiled[key], ef.body, scope, ef.pos)
                info.effects[ef.name] = compiled[key]

    # ================================================================== functions, actions, triggers

    def _action(self, act: A.ActionDef) -> ActionInfo:
        """Compiles an action's body, and its option enumerator: one generated function of nested loops
        over the parameters, each `let`/`require` of the pure prefix placed in the outermost loop
        where its inputs are bound."""
        aid = self.action_ids[act.name]
        scope = Scope(Layout(), note=f"action '{act.name}'")
        scope.define("me", PLAYER, seat=True)  # the seat that decides (blocks._decider checks it)
        params: list[tuple[str, int, T]] = []
        domains: list[str] = []
        level_of: dict[str, int] = {}
        for i, prm in enumerate(act.params):
            src, dt = self.code(prm.domain, scope)
            elem = element_type(dt)
            if elem is None:
                raise error_at(prm.domain.pos, f"the choices for '{prm.name}' must be a list, zone or zone family, "
                                               f"got {dt}")
            domains.append(iterable(seq_code(src, dt)))
            params.append((prm.name, scope.define(prm.name, elem, self._positions_of(prm.domain)), elem))
            level_of[prm.name] = i + 1
        named = set(template_fields(act.label, act.pos, f"the label of action '{act.name}'"))
        for fname in sorted(named - set(level_of) - {"me"}):
            raise error_at(act.pos, f"label of action '{act.name}' names '{fname}', which is not a parameter",
                           did_you_mean(fname, level_of))
        for fname in [p[0] for p in params if p[0] not in named]:
            raise error_at(act.pos, f"label of action '{act.name}' does not name parameter '{fname}'",
                           "every option needs its own label: put {" + fname + "} into the label")
        try:  # labels are filled with texts at run time; a format spec that needs a number fails here
            act.label.format(me="P1", **{p[0]: "x" for p in params})
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise error_at(act.pos, f"the label of action '{act.name}' cannot be filled in: {exc}",
                           "write plain parameter names in braces, as in label \"place {card} at {i}\"") from None
        check_told(act.told, [p[0] for p in params], f"action '{act.name}'", "a parameter")
        prefix: list[list[str]] = [[] for _ in range(len(params) + 1)]
        refusal: list[list[str]] = [[] for _ in range(len(params) + 1)]  # the same prefix, naming the failing require
        requires: list[A.Require] = []
        body_scope = scope.child()
        for stmt, level in guard_levels(act):  # a named step's leading requirements guard the options too
            if isinstance(stmt, A.Let):
                src, t = self.code(stmt.value, body_scope)
                slot = body_scope.define(stmt.name, t)
                level_of[stmt.name] = level
                prefix[level].append(f"L[{slot}] = {src}")
                refusal[level].append(f"L[{slot}] = {src}")
            else:
                src, t = self.code(stmt.cond, body_scope)
                self._expect(stmt.cond, t, BOOL, "a requirement")
                prefix[level].append(f"if not {src}: continue" if level else f"if {src}:")  # level 0: the rest inside
                refusal[level].append(f"if not {src}: return {len(requires)}")
                requires.append(stmt)
        bid = self._new_block(f"action {act.name}")
        # The body re-runs the prefix's lets to fill their slots; its requires held when the option was listed
        # (an open node's options are those of the state as it stands: resumed and arranged states list them
        # again), so the body checks them no more.
        em = Emitter(act.pos)
        self.listed = {id(r) for r in requires}
        self.listed_moves, self.listed_places = self._as_listed(act, scope)
        self.stmts(act.body, scope.child(), em)
        self._finish_block(bid, em, scope.layout.size)
        straight = all(self._straight(s, False, 0) for s in act.body)
        run = self._function_of(act.body, scope.child()) if straight else None
        self.listed = set()
        self.listed_moves, self.listed_places = {}, {}
        lines: list[str] = []
        pad = "        "  # inside the listing function and its `try` (_option_listers)
        for line in prefix[0]:  # before the loops: a failing `require` skips the action's loops
            lines.append(pad + line)
            if line.startswith("if "):
                pad += "    "
        bound = {"L[0]"}
        start, start_pad, kept = len(lines), pad, []  # where the loops begin, and the domains read there
        # two parameters, a card last: each option is an item of its first value's row, made once per game (a row per
        # card listed, as long as there are cards: at most OPTION_ROW_CARDS; a place's with the places, where the loop
        # goes over them: hoist._places_enumerated)
        rows = len(params) == 2 and params[1][2].name == "card" and len(self.p.cards) <= OPTION_ROW_CARDS and (
            params[0][2].name == "card" or self._positions_of(act.params[0].domain) is not None)
        for k, (_, slot, ptype) in enumerate(params):
            plain = f"{pad}for _p{k} in {domains[k]}:"
            if rows and k == 1:
                table = f"st.game.option_rows({aid})"
                lines.append(f"{pad}_row{aid} = {table}[_p0] or _optrow({table}, {aid}, _p0, {len(self.p.cards)})")
            if ptype.name == "card":
                loop, prefix[k + 1:], inner = card_loop(domains[k], prefix[k + 1:], slot, k, pad)
            else:
                loop, inner = [plain], pad + "    "
            if k and loop == [plain] and not names_in(act.params[k].domain) & set(level_of):
                # the same domain in every round of the loops around it: read once (on first use, if reading can fail)
                if pure(ast.parse(domains[k], mode="eval").body):
                    kept.append(f"{start_pad}_d{k} = {domains[k]}")
                    loop = [f"{pad}for _p{k} in _d{k}:"]
                else:
                    kept.append(f"{start_pad}_d{k} = None")
                    loop = [f"{pad}for _p{k} in (_d{k} if _d{k} is not None else (_d{k} := {domains[k]})):"]
            lines += loop
            bound |= {f"L[{slot}]", f"_p{k}"}
            conds, prefix[k + 2:] = hoist_card_reads([f"{inner}{line}" for line in prefix[k + 1]], inner, str(k), bound,
                                                     prefix[k + 2:])
            lines += conds
            pad = inner
        call_reads, lines[start + 1:] = hoist_call_reads(lines[start + 1:], start_pad)  # the first source is read once
        lines[start:start] = kept + call_reads
        lines.append(f"{pad}out.append({option_made(aid, [p[2] for p in params], rows)})")
        self.option_code[aid] = known_places(slots_as_locals(lines, {0: "me"} | {slot: f"_p{k}" for k, (_, slot, _) in
                                                                              enumerate(params)}), self.size_code)
        refuse = ["def first_refusal(st, me, chosen):", f"    L = [None] * {scope.layout.size}", "    L[0] = me"]
        refuse += ["    " + line for line in refusal[0]]
        for k, (_, slot, _) in enumerate(params):
            refuse += [f"    if chosen[{k}] not in {domains[k]}: return -1", f"    L[{slot}] = chosen[{k}]"]
            refuse += ["    " + line for line in refusal[k + 1]]
        refuse.append("    return -1")
        namespace: dict[str, Any] = {}
        exec(function_code("\n".join(refuse)), self.env, namespace)  # noqa: S102 - our own generated code
        return ActionInfo(act.name, aid, params, bid, scope.layout.size, act.label, "me" in named,
                          [O.formatter(p[2]) for p in params], act, namespace["first_refusal"], requires, run)

    def _as_listed(self, act: A.ActionDef, scope: Scope) -> tuple[dict[int, ZoneSpec], dict[int, int]]:
        """What the body's first statements may rely on: an option's card lies in its domain as the body starts (as its
        requirements hold, StatementCompiler.listed). So a card parameter given by a zone or family (`c in hand(me)`)
        comes from that family where a statement moves it before anything else moved but the cards of other such
        parameters from other families (other cards: none of those moves, noted by no trigger, moved it), nothing
        setting its name before; and a `let` of its position before any move is a place of that family. The ids of
        those moves with the family, and of those lets with the family."""
        moves: dict[int, ZoneSpec] = {}
        places: dict[int, int] = {}
        before: list[Any] = []
        params = {p.name: p for p in act.params}
        for stmt in A.opened(act.body):
            nodes = list(A.walk(stmt))
            if not any(isinstance(n, MOVING) for n in nodes):
                value = stmt.value if isinstance(stmt, A.Let) and not moves else None
                if isinstance(value, A.Call) and value.func == "position" and "position" not in self.functions \
                        and len(value.args) == 1 and isinstance(value.args[0], A.Name):
                    source = self._listed_source(params.get(value.args[0].name), before, scope)
                    if source is not None and source.shape == "indexed":
                        places[id(stmt)] = source.family_id
                before += nodes
                continue
            if not (isinstance(stmt, A.Move) and isinstance(stmt.what, A.Name)) or (moves and "moved" in self.events):
                break
            source = self._listed_source(params.get(stmt.what.name), before, scope)
            if source is None or source.family_id in {spec.family_id for spec in moves.values()}:
                break
            moves[id(stmt)] = source
            before += nodes
        return moves, places

    def _listed_source(self, prm: Optional[A.ActionParam], before: list[Any], scope: Scope) -> Optional[ZoneSpec]:
        """The family a card parameter's domain gives (_card_source), if nothing in `before` sets its name."""
        if prm is None or any(sets_name(n, prm.name) for n in before):
            return None
        return self._card_source(prm.domain, scope)

    def _option_listers(self, aids: tuple[int, ...]) -> list[Optional[Callable[[Any], Callable[..., Any]]]]:
        """What makes, for a game, the generated function `(state, seat) → options` of a `choose action` among `aids`:
        each action's loops in turn (_action), inside a `try` that names the action where its prefix fails (made one
        `try` as the code is compiled: hoist.one_try); the options an active `forbid` rules out are dropped afterwards
        (none is active, mostly: then no option is tested; in a game without a `forbid`, the lister does not look).
        Beside it its picking function where the first action's options are counted (counted_first), else None."""
        parts = [["    try:", *code, "    except GameRuleError as exc:  # in the action's `require`/`let` prefix",
                  f"        raise exc.at({self.where(self.p.actions[aid].ast.pos)}) from None"]
                 for aid, code in zip(aids, domains_read_once([self.option_code[aid] for aid in aids]))]
        listed = [ln for part in parts for ln in part]
        fid = next((f for f, (folds, _) in self.folds.items() if set(folds) & set(aids) and all(
            set(_PARAM.findall(folds[aid])) <= set(_LOOP_PARAM.findall("\n".join(part)))  # each one it reads listed
            for aid, part in zip(aids, parts) if aid in folds)), None)
        if fid is None:
            lister = self._enumerator("options", ["    out = []", *listed, "    return _allowed(st, me, out) if st.forbids "
                                                  "else out" if self.p.forbids else "    return out"])
        else:  # while a restriction is active: listed by its own function (below), the call one test
            self.p.restricted.append(self._restricted(aids, parts, fid))
            lister = self._enumerator("options", ["    if st.forbids:",
                                                  f"        return st.game.restricted[{len(self.p.restricted) - 1}](st, me)",
                                                  "    out = []", *listed, "    return out"])
        return [lister, self._option_picker(aids, parts) if counted_first(self.p.actions[aids[0]].ast) else None]

    def _restricted(self, aids: tuple[int, ...], parts: list[list[str]], fid: int) -> Callable[[Any], Callable[..., Any]]:
        """What makes, for a game, the lister of a `choose action` among `aids` while a restriction is active: where
        the first active one is the restriction `fid`, which cannot fail (statements.s_Forbid), or one written alike
        (an effect's, compiled for each way it runs), its condition is tested as each option is listed, in the
        lister's loops, and only the others' restrictions are tested after; else all of them are, after the options
        are listed (options.allowed)."""
        folds, captured = self.folds[fid]
        alike = tuple(f for f, fold in self.folds.items() if fold == self.folds[fid])
        tested = []
        for aid, part in zip(aids, parts):
            if aid in folds:
                at = max(k for k, ln in enumerate(part) if ln.lstrip().startswith("out.append("))
                pad = part[at][:len(part[at]) - len(part[at].lstrip())]
                part = [*part[:at], f"{pad}if {folds[aid]}:", f"{pad}    continue", *part[at:]]
            tested += ["    " + ln for ln in part]
        return self._enumerator("restricted", [
            "    out = []", "    _b_f = st.forbids", f"    if _b_f[0][0] {f'in {alike}' if len(alike) > 1 else f'== {fid}'}:",
            *([f"        {captured}, = _b_f[0][2]"] if captured else []), *tested,
            "        return _allowed(st, me, out, 1) if len(_b_f) > 1 else out",
            *(ln for part in parts for ln in part), "    return _allowed(st, me, out)"])

    def _option_picker(self, aids: tuple[int, ...], parts: list[list[str]]) -> Callable[[Any], Callable[..., Any]]:
        """What makes the generated function `(state, seat) → option` of a `choose action` for a plain random agent
        (while no `forbid` is active: blocks.choose_action): the lister's code, but the first action's one loop over a
        list (counted_first) only counts its items; the agent draws its index from the number of all options
        (State.agent_pick: the numbers it would draw from the whole list), and only the option drawn is built."""
        first, aid = parts[0], aids[0]
        loop = re.fullmatch(r"( *)for _p0 in (.+):", first[-4])  # its loop and option, before its `except`
        option = option_made(aid, [p[2] for p in self.p.actions[aid].params], False)
        assert loop is not None and first[-3] == f"{loop[1]}    out.append({option})", first[-4:-2]
        names = ", ".join(self.p.actions[a].name for a in aids)
        return self._enumerator("pick", [
            "    out = []", "    _count = 0", *first[:-4], f"{loop[1]}_items = {loop[2]}", f"{loop[1]}_count = len(_items)",
            *first[-2:], *(ln for part in parts[1:] for ln in part), "    _total = _count + len(out)", "    if not _total:",
            "        " + B.no_action("me", names), "    _index = st.agent_pick(me, range(_total))",
            "    if _index < _count:", f"        return {option.replace('_p0', '_items[_index]')}", "    return out[_index - _count]"])

    def _enumerator(self, name: str, lines: list[str]) -> Callable[[Any], Callable[..., Any]]:
        """What makes, for a game, the generated function `name(st, me)` of `lines`: its reads of the state hoisted,
        its work per zone and shared lists done once (hoist), the game's tables its parameters' defaults
        (hoist.made_for_game); compiled (and kept between loads: code_cache)."""
        written = "\n".join([f"def {name}(st, me):"] + lines)

        def made() -> CodeType:
            read, bound = game_tables_bound(lines)
            return lister_code(made_for_game(lowered_function(shared_lists(hoist_zone_work(
                "\n".join([f"def {name}(st, me):"] + repeated_reads_as_locals(read, "    "))))), bound))

        namespace: dict[str, Any] = {}
        exec(compiled(f"{name}\0{written}", made), self.env, namespace)  # noqa: S102 - our own generated code
        return namespace["make"]  # type: ignore[no-any-return]

    def _trigger(self, trig: A.TriggerDef) -> None:
        scope = Scope(Layout())
        types = ENGINE_EVENTS.get(trig.event)
        if types is not None and len(types) != len(trig.params):
            raise error_at(trig.pos, f"event '{trig.event}' carries {len(types)} value(s), "
                                     f"not {len(trig.params)}", f"write `when {trig.event}"
                                     + (f"({', '.join(ENGINE_EVENT_PARAMS[trig.event])})`" if types else "`"))
        if types is not None and any(trig.types):
            raise error_at(trig.pos, f"the engine's event '{trig.event}' gives its values' types itself",
                           f"write `when {trig.event}({', '.join(ENGINE_EVENT_PARAMS[trig.event])})`")
        event = self.declared.get(trig.event)
        if event is not None:
            self._check_event_pattern(trig, event)
        given = trig.types or [None] * len(trig.params)
        declared = [self._type(t) if t is not None else self._type(event.params[i].type) if event is not None else ANY
                    for i, t in enumerate(given)]
        for i, prm in enumerate(trig.params):
            scope.define(prm, types[i] if types is not None else declared[i])
        where = None
        if trig.where is not None:
            where, t = self.code(trig.where, scope)
            self._expect(trig.where, t, BOOL, "a trigger's condition")
        bid = self._new_block(f"when {trig.event}")
        self._fill_block(bid, trig.body, scope, trig.pos)
        self.p.triggers.setdefault(trig.event, []).append(Trigger(trig.event, where, bid, trig.pos, len(trig.params)))

    def _check_event_pattern(self, trig: A.TriggerDef, event: A.EventDef) -> None:
        """A `when` of a declared event names all its values, each of the declared type where it gives one."""
        if len(trig.params) != len(event.params):
            raise error_at(trig.pos, f"event '{event.name}' carries {len(event.params)} value(s) (line {event.pos.line}), "
                                     f"not {len(trig.params)}",
                           f"write `when {event.name}({', '.join(p.name for p in event.params)})`")
        for name, ref, prm in zip(trig.params, trig.types, event.params):
            if ref is not None and self._type(ref) != self._type(prm.type):
                raise error_at(ref.pos, f"'{name}' of event '{event.name}' is declared {prm.type.name} "
                                        f"(line {event.pos.line}), not {ref.name}",
                               f"write `{name}: {prm.type.name}` or leave the type out")

    def _flow(self) -> None:
        setups = self.of(A.SetupDef)
        rounds = self.of(A.RoundDef)
        if len(rounds) != 1:
            where = rounds[1].pos if rounds else self.items[0].pos
            raise error_at(where, "a game needs exactly one `round` definition")
        rnd: A.RoundDef = rounds[0]
        if not rnd.phases:
            raise error_at(rnd.pos, "the round has no phase, so the game could never get anywhere",
                           "give the round a phase (a variant that removes the last one must add another)")
        check_progress(rnd.repeat_while, [st for ph in rnd.phases for st in ph.body], rnd.pos, "`repeat while true`")
        em = Emitter(rnd.pos, root=True)
        if setups:
            setup_bid = self._new_block("setup")
            self._fill_block(setup_bid, setups[0].body, Scope(Layout()), setups[0].pos)
            em.emit(O.push_block(setup_bid))
        cond, t = self.code(rnd.repeat_while, Scope(Layout(), note="the round's repeat condition"))
        self._expect(rnd.repeat_while, t, BOOL, "the round's repeat condition")
        top = em.here()
        end_cell = [0]
        em.at = rnd.repeat_while.pos
        em.emit_src(B.jump_unless(cond, end_cell))
        em.at = rnd.pos
        em.emit_src(B.round_begin(self._emit_src("round_start", [])))
        seen: set[str] = set()
        for ph in rnd.phases:
            if ph.name in seen:
                raise error_at(ph.pos, f"phase '{ph.name}' is defined twice")
            seen.add(ph.name)
            if all(self._straight(s, False, 0) for s in ph.body):  # no stop inside: a function, no block or frame
                scope = Scope(Layout())
                self.p.rules.append(self._function_of(ph.body, scope))
                em.emit_src(B.phase_through(ph.name, f"st.game.rules[{len(self.p.rules) - 1}]", scope.layout.size))
            else:
                bid = self._new_block(f"phase {ph.name}")
                self._fill_block(bid, ph.body, Scope(Layout()), ph.pos)
                em.emit_src(B.phase_begin(ph.name, bid, self.p.blocks[bid].nlocals))
            for snippet in self.expiry("phase"):
                em.emit_src(snippet)
        for snippet in self.expiry("round"):
            em.emit_src(snippet)
        em.emit_src(B.loop_back([top]))
        end_cell[0] = em.here()
        main = self._new_block("main")
        self._finish_block(main, em, 0)
        self.p.main_block = main
        for cls, attr in ((A.ScoreDef, "score"), (A.HeuristicDef, "heuristic"), (A.WinnerDef, "winner")):
            defs = self.of(cls)
            if defs:
                scope = Scope(Layout())
                ident = scope.define_py(defs[0].var, PLAYER)
                src, t = self.code(defs[0].expr, scope)
                if attr == "winner":
                    self._expect(defs[0].expr, t, BOOL, "who can win")
                elif not (attr == "score" and t.name == "list" and t.elem in (INT, ANY)):
                    self._expect(defs[0].expr, t, INT, f"the {attr} expression")
                setattr(self.p, attr, self.fn(src, f"st, {ident}"))
                self.p.def_pos[attr] = defs[0].pos
                if isinstance(defs[0], A.ScoreDef):
                    self.p.lowest_wins = defs[0].lowest
        if self.p.score is None:
            raise error_at(self.items[0].pos, "a game needs a `score(p) = …` definition")


def compile_program(items: list[A.Node], name: str, variants: list[str]) -> Program:
    """Type-check and compile; raises RulesError with the position of the first problem. The kinds the rules reveal
    are known from their types only once compiled: where there are `reveal`s, a first compile (or the code cache)
    tells them, so that the moves of the other kinds leave out State.known (Program.unshown)."""
    def revealed() -> tuple[str, ...]:  # the walk too only where the cache lacks the answer: it reads every node
        if not any(isinstance(node, A.Reveal) for node in A.walk(items)):
            return ()
        return tuple(sorted(_compiled(items, name, variants, None)[1]))
    shown = kept("revealed kinds", revealed, shared=False)
    return _compiled(items, name, variants, frozenset(shown))[0]


def _compiled(items: list[A.Node], name: str, variants: list[str],
              shown: Optional[frozenset[str]]) -> tuple[Program, set[str]]:
    """The program, with the kinds a rule may reveal given (`shown`; None: any), and the kinds its `reveal`s name."""
    compiler = Compiler(items, name, variants)
    compiler.shown = shown
    try:
        with numbering(compiler.numbers):
            return compiler.compile(), compiler.revealed
    except RulesError:
        raise
    except RecursionError:
        raise error_at(compiler.at, "this expression is nested too deeply",
                       "split it up with `let` or a `function`") from None
    except GameRuleError as exc:  # a constant expression failed while compiling
        where = A.Pos(file=exc.file, line=exc.line, col=exc.col) if exc.file is not None else items[0].pos
        raise error_at(where, exc.message) from None


def _literal(src: str) -> bool:
    """Whether generated code is a number, truth value or text written out (a constant a rule may name in its place:
    no list or map, which would be built again at each use)."""
    if src.startswith(("[", "{")):  # a list, set or map, or an item of one: never a number or text, and not parsed
        return False
    try:
        value = ast.literal_eval(src)
    except (ValueError, SyntaxError):
        return False
    return isinstance(value, (int, str))
