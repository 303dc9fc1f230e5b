"""Compiles statements into flat op lists over frames `[block, pc, locals]`, with jumps for
control flow, so the engine can stop at any decision and resume from plain data."""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import Any, Callable, Optional, Sequence, cast

from dsl import ast as A
from dsl.errors import RulesError, did_you_mean, error_at
from interpreter.compile import blocks as B
from interpreter.compile.blocks import Emitter
from interpreter.compile.compile_base import check_told, counted_first, nesting_limit, template_fields
from interpreter.compile.expressions import NUMBERS, ExpressionCompiler, iterable
from interpreter.compile.hoist import GAME_TABLES, STRING_LITERAL, inline_function_code, state_reads_as_locals, sub_code
from interpreter.compile.astwalk import pure
from interpreter.compile.lowering import function_code
from interpreter.compile.scope import CaptureScope, Layout, Scope
from interpreter.compile.types import (
    ANY,
    BOOL,
    EFFECT,
    INT,
    PLAYER,
    T,
    card,
    compatible,
    element_type,
    list_of,
)
from interpreter.runtime import ops as O
from interpreter.runtime.game import FEW_ZONES
from interpreter.runtime.program import SCOPES, Block, ForbidDef, ModDef, ZoneSpec

# a loop's source read again for its count at no cost: a name, or a game's table the function binds (hoist.GAME_TABLES)
_PLACES = re.compile(r"st\.game\.fam_numbers\[(\d+)\]")  # the places of a family (positions(F), expressions.iterable)
_KEPT_NUMBER = re.compile(r"\d+|st\.game\.(?:num_players|consts\[\d+\])")  # a number, or one the game keeps
_BOUND_SOURCE = re.compile(rf"st\.game\.(?:{'|'.join(GAME_TABLES)})(?:\[\d+\])*|[A-Za-z_]\w*")


class StatementCompiler(ExpressionCompiler):
    def _new_block(self, name: str) -> int:
        self.p.blocks.append(Block(name, [], 0))
        return len(self.p.blocks) - 1

    def _fill_block(self, bid: int, body: list[Any], scope: Scope, at: A.Pos) -> None:
        """`at`: where the block is defined, the position of ops outside its statements."""
        em = Emitter(at)
        self.stmts(body, scope, em)
        self._finish_block(bid, em, scope.layout.size)

    def _finish_block(self, bid: int, em: Emitter, nlocals: int) -> None:
        """Ends the block with `ret` and gives it its ops, runner and positions."""
        em.emit_src(B.ret())
        block = self.p.blocks[bid]
        block.code, block.runner, block.resumable, block.starts = em.finish(self.env, self.p.node_types)
        block.pos = em.pos
        block.nlocals = nlocals

    def _emit_src(self, event: str, args: list[str]) -> Optional[str]:
        """The line that sets off `event` (blocks.emit), None when no trigger listens to it."""
        if event not in self.events:
            return None
        return B.emit(event, args)

    # ================================================================== statements
    def stmts(self, body: list[Any], scope: Scope, em: Emitter) -> None:
        self.after_let = self.let_source = None  # a body runs later than the statement around it starts, and may not
        for i, s in enumerate(body):  # run at all
            self._note_room(body, i, scope)
            self.stmt(s, scope, em)
        self.after_let = self.let_source = None

    def _note_room(self, body: list[Any], i: int, scope: Scope) -> None:
        """Notes a move (`roomy`) right after requirements one of which is `count(Z) < k` of its destination Z, with k
        at most Z's capacity: nothing ran between them, so Z has room for the card (card_move tests none)."""
        s = body[i]
        self.roomy = None
        if not isinstance(s, A.Move) or not i or not isinstance(body[i - 1], A.Require) or "count" in self.functions:
            return
        dest = self._zone_named(s.to, scope)
        if dest is None or dest.capacity is None:
            return
        try:
            to = self._unplaced(s.to, scope)
            for r in reversed(body[:i]):
                if not isinstance(r, A.Require):
                    return
                c = r.cond
                if (isinstance(c, A.BinOp) and c.op == "<" and isinstance(c.right, A.Num) and c.right.value <= dest.capacity
                        and isinstance(c.left, A.Call) and c.left.func == "count" and len(c.left.args) == 1
                        and to[1].name == "zone" and self._unplaced(c.left.args[0], scope) == to):
                    self.roomy = s
                    return
        except RulesError:  # the move's own error is reported as it is compiled
            return

    def _emptying(self, s: A.For, inner: Scope) -> Optional[tuple[ZoneSpec, ZoneSpec]]:
        """The families of a loop over all the cards of one, its body one move of the loop's card to another family,
        no trigger noting the moves: it empties that family. (It, the destination's.)"""
        body, source = s.body, inner.card_source(s.var)
        whole = s.source.args[0] if isinstance(s.source, A.Call) and s.source.func == "cards" and len(s.source.args) == 1 \
            else s.source  # the family named alone (a name), not one of its zones
        if len(body) != 1 or not isinstance(body[0], A.Move) or source is None or "moved" in self.events \
                or not isinstance(whole, A.Name) or self._zone_named(whole, inner) is None:
            return None
        dest = self._zone_named(body[0].to, inner)
        return (source, dest) if dest is not None and dest.family_id != source.family_id else None

    def _emptied(self, s: A.For, inner: Scope) -> Optional[int]:
        """The family counted by owner (Program.counted) that a loop empties (_emptying): its counts are all 0 once the
        loop ends (blocks.no_owned), not brought down card by card (_destination)."""
        families = self._emptying(s, inner)
        return families[0].family_id if families is not None and families[0].family_id in self.p.counted else None

    def _sweep(self, s: A.For, inner: Scope) -> Optional[tuple[int, int]]:
        """The families (its, the destination's) of a loop that empties one (_emptying) whose destination reads no
        card's place but the loop's card's owner: moved zone by zone (blocks.sweep), as every destination is the same
        with the zones' lists emptied at the end of each zone, not card by card."""
        families = self._emptying(s, inner)
        if families is None or not all(isinstance(n, _PLACE_FREE) and (not isinstance(n, A.Call) or n.func == "owner"
                                                                        or n.func in self.p.zone_by_name)
                                       for n in A.walk(cast(A.Move, s.body[0]).to)):
            return None
        return families[0].family_id, families[1].family_id

    def _unplaced(self, e: Any, scope: Scope) -> tuple[str, T]:
        """The code of `e` but the names of the positions its errors name (CompilerBase.where), and its type."""
        src, t = self.code(e, scope)
        return _POS_NAME.sub("_at", src), t

    def stmt(self, s: Any, scope: Scope, em: Emitter) -> None:
        method = getattr(self, "s_" + type(s).__name__)
        outer = em.at
        em.at = s.pos
        if isinstance(s, (*_COMPOUND, A.CallRule)) and self._straight(s, False, 0):
            em.emit_src(B.Snippet(self._structured(s, scope)))
        else:
            self._begin(s)
            method(s, scope, em)
        self.reused = None
        em.at = outer

    def _begin(self, s: Any) -> None:
        """A statement starts: right after a `let`, one that reads its values as it starts (_AT_START) reads the let's
        value from its slot where its code would work it out again alike (CompilerBase.reused): nothing ran since; so
        too after a reveal of one card in code that runs through (_structured), from its `_b_c`."""
        let, self.after_let = self.after_let, None
        self.reused = let if isinstance(s, _AT_START) and not (let and let[1] == "_b_c" and isinstance(s, A.SetStmt)) \
            else None  # (a card's field set names its card _b_c before its value is worked out: blocks.set_card_field)
        if not isinstance(s, A.Move):  # (s_Move reads it)
            self.let_source = None

    # ================================================================== statements as plain Python
    def _straight(self, s: Any, in_loop: bool, depth: int) -> bool:
        """Whether a statement runs through without a stop: nothing in it decides, draws by chance, runs an
        effect, starts triggers, calls a rule that may stop or leaves it (a `break` only of a loop inside it).
        Such a statement becomes plain Python `for`/`while`/`if` (one step: a state never stands inside it),
        not ops stepped by the runner."""
        if isinstance(s, A.Move):
            return "moved" not in self.events
        if isinstance(s, A.Break):
            return in_loop
        if isinstance(s, A.CallRule):
            return self._straight_rule(s.rule)
        if isinstance(s, A.Run):
            return isinstance(s.target, A.Attr) and self._straight_effects(s.target.name)
        if not isinstance(s, _STRAIGHT) or depth > _NEST_MAX:
            return False
        in_loop = in_loop or isinstance(s, _LOOPS)
        inner = (s.then + s.other) if isinstance(s, A.If) else getattr(s, "body", [])
        return all(self._straight(c, in_loop, depth + isinstance(s, _COMPOUND)) for c in inner)

    def _straight_rule(self, name: str) -> bool:
        """Whether a rule runs through (_straight), the rules it calls included; one that calls itself,
        directly or not, does not (it runs in frames, and the depth check stops an endless recursion)."""
        if name not in self.straight_rules:
            rule = self.rules.get(name)
            if rule is None:
                return False  # s_CallRule says why
            self.straight_rules[name] = False  # a call back to it while its body is looked at: no way through
            self.straight_rules[name] = all(self._straight(s, False, 0) for s in rule.body)
        return self.straight_rules[name]

    def _straight_effects(self, field: str) -> bool:
        """Whether every card's effect `field` (of any kind) runs through (_straight); one that runs such an effect
        itself, directly or not, does not (it runs in frames, as _straight_rule's rules)."""
        if field not in self.straight_effects:
            self.straight_effects[field] = False  # a run of it inside one of them: no way through
            self.straight_effects[field] = all(self._straight(s, False, 0) for info in self.p.cards
                                               for ef in info.effect_src if ef.name == field for s in ef.body)
        return self.straight_effects[field]

    def _rule_function(self, name: str, places: tuple[Optional[int], ...]) -> tuple[str, int]:
        """The code reading the game's Python function `(st, L)` running a rule that runs through (Game.rules, made by
        Program.rules), and its number of locals;
        `places`: per parameter, the family whose positions the call's argument runs over, if any: a function of
        its own reads the places the parameter names there without their check."""
        if (name, places) not in self.rule_functions:
            rule = self.rules[name]
            scope = Scope(Layout())
            for prm, place in zip(rule.params, places):
                scope.define(prm.name, self._type(prm.type), place)
            self.p.rules.append(self._function_of(rule.body, scope))  # after the rules it calls (a game makes them so)
            self.rule_functions[name, places] = (f"st.game.rules[{len(self.p.rules) - 1}]", scope.layout.size)
        return self.rule_functions[name, places]

    def _function_of(self, body: list[Any], scope: Scope) -> Callable[[Any], Callable[..., None]]:
        """Statements that run through (_straight) as what makes, for a game, a Python function `(st, L)` over a
        frame's locals, the game's tables its parameters' defaults (hoist.made_for_game)."""
        lines = self._straight_lines(body, scope)
        head = ["fr = [None, 0, L]"] if any("(st, fr)" in ln for ln in lines) else []  # for ops called inline
        ns = dict(self.env, _over_budget=O.over_budget)
        exec(inline_function_code(_indent(head + lines)), ns)  # noqa: S102 - our own generated code
        make: Callable[[Any], Callable[..., None]] = ns["make"]
        return make

    def _structured(self, s: Any, scope: Scope) -> list[str]:
        """A statement `_straight` as Python lines over `st`, `fr` and `L`; a loop spends the budget each round
        (as blocks.loop_back), a loop over a list that cannot break off all its rounds as it starts (nothing
        inside can stop and renew the budget, so it fails as it would have by its last round at the latest)."""
        if isinstance(s, (*_COMPOUND, A.CallRule, A.Break, A.NamedStep)):  # any other through stmt, below
            self._begin(s)
        if isinstance(s, A.If):
            cond, t = self.code(s.cond, scope)
            self._expect(s.cond, t, BOOL, "a condition")
            then = [f"if {cond}:", *_indent(self._straight_lines(s.then, scope.child()))]
            return then + (["else:", *_indent(self._straight_lines(s.other, scope.child()))] if s.other else [])
        if isinstance(s, A.For):  # a zone is copied only if the body may move cards; a range needs no list
            inside = {type(n) for n in A.walk(s.body)}
            src, elem = self.seq_src(s.source, scope, bool(inside & {A.Move, A.CallRule}), "a loop's source")
            inner = scope.child()
            var = inner.define(s.var, elem, self._positions_of(s.source), seat=src == "st.game.players")
            src = iterable(src)
            source = self._card_source(s.source, scope)
            if source is not None and _moves_itself_only(s.var, s.body):
                inner.sources[s.var] = source
            self.emptied = self._emptied(s, inner)
            sweep = self._sweep(s, inner)
            self.swept = cast(A.Move, s.body[0]) if sweep is not None else None
            body = self._straight_lines(s.body, inner)
            emptied, self.emptied, self.swept = self.emptied, None, None
            item, body = _loop_variable(var, body)
            over, body = _over_places(item, src, body)
            if A.Break in inside:  # it may end early: it spends round by round
                return [f"for {over}:", *_indent(body + B.SPEND)]
            if sweep is not None:
                return B.sweep(*sweep, item, body, self.p.cached) + ([] if emptied is None else B.no_owned(emptied))
            items = src if _BOUND_SOURCE.fullmatch(src) else "_b_q"
            over = over if items == src else f"{item} in {items}"
            return [*([] if items == src else [f"_b_q = {src}"]), *B.spent(self._count(items)), f"for {over}:",
                    *_indent(body), *([] if emptied is None else B.no_owned(emptied))]
        if isinstance(s, A.While):
            cond, t = self.code(s.cond, scope)
            self._expect(s.cond, t, BOOL, "a condition")
            check_progress(s.cond, s.body, s.pos, "`while true`")
            return [f"while {cond}:", *_indent(self._straight_lines(s.body, scope.child()) + B.SPEND)]
        if isinstance(s, A.Repeat):
            count, t = self.code(s.count, scope)
            self._expect(s.count, t, INT, "a repeat count")
            left = scope.layout.alloc()
            return [f"L[{left}] = {count}", f"while L[{left}] > 0:", f"    L[{left}] -= 1",
                    *_indent(self._straight_lines(s.body, scope.child()) + B.SPEND)]
        if isinstance(s, A.Break):
            return ["break"]
        if isinstance(s, A.NamedStep):
            return self._straight_lines(s.body, scope)
        if isinstance(s, A.CallRule):  # as blocks.call_rule, with no frame: the rule's function runs at once
            args = self._rule_args(s, scope)
            places = tuple(scope.safe_index(a.name) if isinstance(a, A.Name) else None for a in s.args)
            fname, nlocals = self._rule_function(s.rule, places)
            return [f"_b_a = {B.frame_locals(args, nlocals, 0)}", *B.SPEND,
                    f"{fname}(st, _b_a)"]
        em = Emitter(s.pos)  # a simple statement: its snippets' lines, and a call of each op it compiles to
        self.stmt(s, scope, em)
        lines: list[str] = []
        for op, snippet in zip(em.code, em.snippets):
            if snippet is None:
                name = f"_op{id(op):x}"  # an op that neither stops nor jumps (a modifier, a log entry, …)
                self.env[name] = op
                lines.append(f"{name}(st, fr)")
            else:
                assert not snippet.cells and not snippet.pushes
                lines += snippet.lines
        if isinstance(s, A.Reveal) and lines[0].startswith("_b_c = ") and "(" in lines[0] \
                and not any(ln.lstrip().startswith("_b_c =") for ln in lines[1:]):
            self.after_let = (lines[0][7:], "_b_c")  # the one card revealed, work to spare: as a let's (_begin)
        return lines

    def _count(self, items: str) -> str:
        """The code of the number of `items` (a loop's source): the players' count, or a family's size where its code
        reads a number the game keeps (no list to take the length of), else len(items)."""
        places = _PLACES.fullmatch(items)
        size = "st.game.num_players" if items == "st.game.players" else self.size_code.get(int(places[1])) if places else None
        return size if size is not None and _KEPT_NUMBER.fullmatch(size) else f"len({items})"

    def _straight_lines(self, body: list[Any], scope: Scope) -> list[str]:
        """Statements as plain Python, each one's errors placed at it."""
        self.after_let = self.reused = self.let_source = None  # a body runs later than the statement around it starts,
        out: list[str] = []  # and may not run
        for i, s in enumerate(body):
            self._note_room(body, i, scope)
            lines = self._structured(s, scope)
            out += B.located(lines, self.where(s.pos)) if lines else []  # (a requirement the options checked)
        self.after_let = self.reused = self.let_source = None
        return out or ["pass"]

    def s_Let(self, s: A.Let, scope: Scope, em: Emitter) -> None:
        src, t = self.code(s.value, scope)
        if t.name == "map":
            raise error_at(s.pos, "a map cannot be held in a local name", "index the constant directly")
        source = self._card_source(s.value, scope)
        slot = scope.define(s.name, t, self.listed_places.get(id(s)))
        em.emit_src(B.set_local(slot, src))
        self.let_source = None if source is None else (s.name, source)
        if src.startswith(("(", "[")) and "(" in src[1:]:  # work to spare: a call or a comprehension
            self.after_let = (src, f"L[{slot}]")

    def s_LetChoose(self, s: A.LetChoose, scope: Scope, em: Emitter) -> None:
        seat, st = self.code(s.seat, scope)
        self._expect(s.seat, st, PLAYER, "the deciding player")
        opts, elem = self.seq_src(s.options, scope, False, "the choices")
        check_told(s.told, [s.name], f"the choice '{s.name}'", "the chosen value")
        labels = f"_labels{len(self.env)}"  # a name of its own in the namespace
        self.env[labels] = O.labels_of(elem)
        em.emit_src(B.decide(seat, opts, scope.define(s.name, elem), labels, ("choose", elem, s.options),
                               _seat_read(s.seat, scope)))

    def s_LetRandom(self, s: A.LetRandom, scope: Scope, em: Emitter) -> None:
        opts, elem = self.seq_src(s.options, scope, False, "the outcomes")
        self.p.random_bounds.append(self._random_bound(s.options, elem, scope))
        labels = f"_labels{len(self.env)}"  # a name of its own in the namespace
        self.env[labels] = O.labels_of(elem)
        em.emit_src(B.random_pick(opts, scope.define(s.name, elem), labels, ("random", elem, s.options)))

    def _random_bound(self, options: A.Expr, elem: T, scope: Scope) -> tuple[str, int]:
        """What bounds a `random`'s outcomes, for game.max_chance_outcomes (checked again at run time)."""
        if isinstance(options, A.ListLit):
            return "literal", len(options.items)
        if isinstance(options, A.Name) and options.name in self.consts and scope.lookup(options.name) is None:
            return "const", self.consts[options.name][0]
        if elem.name == "enum":
            return "enum", len(self.p.enums[elem.arg])
        return elem.name, 0

    def s_SetStmt(self, s: A.SetStmt, scope: Scope, em: Emitter) -> None:
        tgt = s.target
        val, vt = self._value_for(s.value, self._target_type(tgt, scope), scope)
        if isinstance(tgt, A.Name):
            local = scope.lookup(tgt.name)
            if local is not None and isinstance(local[0], int):
                self._expect(s.value, vt, local[1], f"'{tgt.name}'")
                scope.forget_index(tgt.name)
                em.emit_src(B.set_local(local[0], val))
                return
            if tgt.name in self.gvar_index:
                idx, t = self.gvar_index[tgt.name]
                self._expect(s.value, vt, t, f"'{tgt.name}'")
                em.emit_src(B.set_gvar(idx, val))
                return
            raise error_at(tgt.pos, f"cannot set '{tgt.name}': not a variable",
                           did_you_mean(tgt.name, list(self.gvar_index) + scope.all_names()))
        if isinstance(tgt, A.Attr):
            obj, ot = self.code(tgt.obj, scope)
            if ot.name == "card" and not ot.arg:
                em.emit(O.set_card_field(self.fn(obj), tgt.name, self.fn(val)))
                return
            if ot.name == "card":
                kind = self.p.kinds[ot.arg]
                if tgt.name not in kind.index or kind.types[kind.index[tgt.name]] == EFFECT:
                    raise error_at(tgt.pos, f"{ot.arg} cards have no field '{tgt.name}' that can be set",
                                   did_you_mean(tgt.name, kind.index))
                if (ot.arg, tgt.name) in self.p.printed:  # only a scenario's arrange, compiled after the rules, gets here
                    raise error_at(tgt.pos, f"cannot set '{tgt.name}' of {ot.arg} cards: no rule sets it, and the "
                                            "rules rely on its printed values")
                fidx = kind.index[tgt.name]
                self._expect(s.value, vt, kind.types[fidx], f"field '{tgt.name}'")
                em.emit_src(B.set_card_field(obj, fidx, val))
                return
            if ot.name == "player" and tgt.name in self.pvar_index:
                if tgt.name in self.p.currencies:
                    raise error_at(tgt.pos, f"'{tgt.name}' is a currency: it changes only by `pay`")
                idx, t = self.pvar_index[tgt.name]
                self._expect(s.value, vt, t, f"'{tgt.name}'")
                em.emit_src(B.set_pvar(obj, idx, val))
                return
        raise error_at(tgt.pos, "only variables, player variables and card fields can be set")

    def _target_type(self, tgt: Any, scope: Scope) -> Optional[T]:
        """The type a `set` target holds, where it is known before the value is compiled."""
        try:
            return self.code(tgt, scope)[1]
        except RulesError:
            return None  # the target's own error is reported below, with its message

    def _value_for(self, node: Any, want: Optional[T], scope: Scope) -> tuple[str, T]:
        return self.code(node, scope) if want is None else self.code_as(node, scope, want)

    def _zone_expr(self, node: Any, scope: Scope, what: str) -> tuple[str, T]:
        src, t = self.code(node, scope)
        if t.name != "zone":
            raise error_at(node.pos, f"{what} must be a zone, got {t}")
        return src, t

    def _cards_expr(self, node: Any, scope: Scope) -> tuple[str, Optional[str], str]:
        """Code giving a private list of the cards meant (one card, a list, or a zone's cards), the code of
        the card itself where it is one (no loop needed), and their kind where the type tells it (else "")."""
        src, t = self.code(node, scope)
        if t.name in ("card", "any"):
            return f"[{src}]", src, t.arg
        if t.name in ("zone", "family") or (t.name == "list" and t.elem is not None and t.elem.name in ("card", "any")):
            item = element_type(t)
            return self.seq_src(node, scope, True, "the cards")[0], None, "" if item is None else item.arg
        raise error_at(node.pos, f"expected a card, a list of cards or a zone, got {t}")

    def _destination(self, to: Any, kind: str, verb: str, bottom: bool, scope: Scope, src: Optional[ZoneSpec],
                     whole: bool = False, roomy: bool = False, swept: bool = False) -> tuple[str, list[str]]:
        """The code of the zone `to` and the lines moving a card of `kind` there (from the family `src`, where the
        compiler knows it): a card of another kind than the zone holds is an error at load where both kinds are
        known, else checked at the move (a generated lister would read the card's fields by the zone's kind).
        `whole`: the lines for a card that goes with all its zone's cards to a zone of no capacity, where the kinds
        are known (card_move), else none; `roomy`: the zone has room for the one card (_note_room); `swept`: the card
        is one of a sweep's (blocks.sweep)."""
        code, t = self._zone_expr(to, scope, "the destination")
        if kind and t.arg and kind != t.arg:
            raise error_at(to.pos, f"cannot {verb} a {kind} into {written(to) or 'this zone'}: it holds {t.arg} cards")
        dest = self._zone_named(to, scope)
        if whole and not (kind and t.arg and not bottom and dest is not None and dest.capacity is None):
            return code, []
        owners = any(z.visibility == "owner" and z.shape != "per_player" for z in self.p.zones)
        few = (self._few(src), self._few(dest))
        if roomy and dest is not None:  # no capacity to test
            dest = replace(dest, capacity=None)
        held = kind or t.arg or (dest.kind if dest is not None else "")  # the card's kind: a move checks it against the zone's where only one is known
        shown = held not in self.p.unshown if held else len(self.p.unshown) < len(self.p.kinds)
        return code, B.card_move(bottom, dest, owners, not (kind and t.arg), src, few, self.p.cached, whole, swept,
                                 shown) + B.recount_move(
            [k for k in self.p.counted if k != self.emptied], None if dest is None else dest.family_id,
            None if src is None else src.family_id)

    def _zone_named(self, node: Any, scope: Scope) -> Optional[ZoneSpec]:
        """The zone family an expression names: a zone's own name, or a family's name, indexed or not (`zone[i]`,
        `zone(p)`); None for any other."""
        named = node.obj if isinstance(node, A.Index) else node
        if isinstance(named, A.Name) and scope.lookup(named.name) is None and named.name not in self.consts \
                and named.name not in self.gvar_index:  # as e_Name resolves it
            return self.p.zone_by_name.get(named.name)
        if isinstance(node, A.Call) and len(node.args) == 1:  # as e_Call resolves it
            return self.p.zone_by_name.get(node.func)
        return None

    def _few(self, spec: Optional[ZoneSpec]) -> Optional[bool]:
        """Whether a family has few zones at every player count (Game.fam_few), where its shape tells."""
        if spec is None or spec.shape not in ("single", "per_player"):
            return None
        return spec.shape == "single" or self.p.max_players <= FEW_ZONES

    def _card_source(self, what: Any, scope: Scope, depth: int = 0) -> Optional[ZoneSpec]:
        """The zone family the cards `what` names lie in as a move of them starts, where its form tells: a zone's (or
        a family's) cards, a zone's end card, a function that gives one of these, a loop's card (Scope.card_source),
        the cards of one of these a comprehension sifts (`[c for c in hand(p) if …]`)."""
        if isinstance(what, A.Name) and scope.lookup(what.name) is not None:
            return scope.card_source(what.name)
        if isinstance(what, A.Comprehension) and isinstance(what.expr, A.Name) and what.expr.name == what.var:
            return self._card_source(what.source, scope, depth + 1) if depth < _NEST_MAX else None
        if isinstance(what, A.Call) and what.func in ("cards", "top", "first", "last") and len(what.args) == 1:
            what = what.args[0]
        elif isinstance(what, A.Call) and what.func in self.functions and depth < _NEST_MAX:
            fd = self.functions[what.func]
            inner = Scope(Layout())
            for prm in fd.params:  # its parameters are its own names, none of them a zone
                inner.define(prm.name, ANY)
            return self._card_source(fd.body, inner, depth + 1)
        return self._zone_named(what, scope)

    def s_Move(self, s: A.Move, scope: Scope, em: Emitter) -> None:
        what, one, kind = self._cards_expr(s.what, scope)
        source = self.listed_moves.get(id(s)) or self._card_source(s.what, scope)
        let, self.let_source = self.let_source, None
        if source is None and let is not None and isinstance(s.what, A.Name) and s.what.name == let[0]:
            source = let[1]
        zone = self._whole_zone(s.what, scope)
        if zone is not None and "moved" not in self.events:  # no one notes the moves one by one
            to, moving = self._destination(s.to, kind, "move", s.bottom, scope, source, whole=True)
            if moving:
                dest = self._zone_named(s.to, scope)
                apart = source is not None and dest is not None and source.family_id != dest.family_id
                em.emit_src(B.move_all(zone, to, moving, apart))
                return
        to, moving = self._destination(s.to, kind, "move", s.bottom, scope, source, roomy=self.roomy is s and one is not None,
                                       swept=self.swept is s)
        em.emit_src(B.move(what, to, moving, "moved" in self.events, one))
        if isinstance(s.what, A.Name):
            scope.forget_source(s.what.name)

    def _whole_zone(self, what: Any, scope: Scope) -> Optional[str]:
        """The code of the zone whose cards `what` names all (the zone, or `cards(zone)`), else None."""
        if isinstance(what, A.Call) and what.func == "cards" and len(what.args) == 1:
            what = what.args[0]
        if self._zone_named(what, scope) is None:
            return None
        code, t = self.code(what, scope)
        return code if t.name == "zone" else None

    def s_Draw(self, s: A.Draw, scope: Scope, em: Emitter) -> None:
        count = "1"
        if s.count is not None:
            count, ct = self.code(s.count, scope)
            self._expect(s.count, ct, INT, "the number of cards to draw")
        src, held = self._zone_expr(s.source, scope, "the zone drawn from")
        source = self._zone_named(s.source, scope)
        to, moving = self._destination(s.to, held.arg, "draw", False, scope, source)
        left = None if count == "1" else scope.layout.alloc()  # one card: no count to keep, no loop
        picked = scope.layout.alloc()
        if left is not None:
            em.emit_src(B.set_local(left, count))
        top = em.here()
        end = [0]
        em.emit_src(B.draw_pick(src, left, picked, end, None if source is None else source.shuffled))
        em.emit_src(B.draw_place(picked, left, to, moving, "moved" in self.events))
        if left is not None:
            em.emit_src(B.loop_back([top]))
        end[0] = em.here()

    def s_Reveal(self, s: A.Reveal, scope: Scope, em: Emitter) -> None:
        what, one, kind = self._cards_expr(s.what, scope)
        if kind in self.p.unshown or (not kind and self.p.unshown):  # only a scenario's arrange, compiled after the rules
            raise error_at(s.pos, f"cannot reveal {'a ' + kind + ' card' if kind else 'these cards'}: no rule reveals "
                                  "one, and the rules rely on that", "show the card in a rule, or leave it hidden")
        self.revealed.update([kind] if kind else self.p.kinds)
        if s.to is None:
            em.emit_src(B.reveal(what, one))
            return
        seats, t = self.expr(s.to, scope)
        if t != PLAYER and not (t.name == "list" and compatible(list_of(PLAYER), t)):
            raise error_at(s.to.pos, f"a card is shown to a player or a list of players, not to {t}")
        em.emit(O.reveal_to(self.fn(what), seats, t == PLAYER))

    def s_Pay(self, s: A.Pay, scope: Scope, em: Emitter) -> None:
        if s.currency not in self.p.currencies:
            raise error_at(s.pos, f"unknown currency '{s.currency}'", did_you_mean(s.currency, self.p.currencies))
        amount, at = self.code(s.amount, scope)
        self._expect(s.amount, at, INT, "an amount")
        parties: list[Optional[str]] = []
        for party in (s.payer, s.payee):
            if party is None:
                parties.append(None)
                continue
            src, pt = self.code(party, scope)
            self._expect(party, pt, PLAYER, "who pays or is paid")
            parties.append(src)
        pidx, bank = self.p.currencies[s.currency]
        em.emit_src(B.pay(amount, parties[0], parties[1], pidx, bank, s.currency, s.at_most_available,
                          self._unsigned(s.amount, scope),
                          (_seat_read(s.payer, scope), _seat_read(s.payee, scope))))

    def _unsigned(self, e: Any, scope: Scope) -> Optional[tuple[Optional[str], str]]:
        """A card's field that no rule sets, printed at least 0 on every card of its kind (Program.printed keeps saved
        states and arranges from changing it): the test that no modifier may change it (None: none can) and its plain
        read, never below 0 where that test holds (blocks.pay checks no sign there)."""
        if not isinstance(e, A.Attr) or e.name in self.set_fields:
            return None
        obj, t = self.code(e.obj, scope)
        fidx = self.p.kinds[t.arg].index.get(e.name) if t.name == "card" and t.arg else None
        if fidx is None or "_through(" in obj or "_modified(" in obj:
            return None
        printed = [vals[fidx] for vals, kind in zip(self.p.card_vals, self.p.card_kind) if kind == t.arg]
        if not printed or not all(type(v) is int and v >= 0 for v in printed):  # no cards: not made yet
            return None
        self.p.printed.add((t.arg, e.name))
        test = f"{fidx} not in st.modded" if (t.arg, e.name) in self.modifiable else None
        return test, self.field_read(obj, t.arg, e.name)

    def s_If(self, s: A.If, scope: Scope, em: Emitter) -> None:
        cond, t = self.code(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a condition")
        else_cell = [0]
        em.emit_src(B.jump_unless(cond, else_cell))
        self.stmts(s.then, scope.child(), em)
        if s.other:
            end_cell = [0]
            em.emit_src(B.jump(end_cell))
            else_cell[0] = em.here()
            self.stmts(s.other, scope.child(), em)
            end_cell[0] = em.here()
        else:
            else_cell[0] = em.here()

    def _loop(self, em: Emitter, body: list[Any], scope: Scope, make_head: Callable[[list[int]], B.Snippet],
              tail: Sequence[B.Snippet] = (), make_back: Optional[Callable[[int, list[int]], B.Snippet]] = None) -> None:
        """A loop: its head op (given the cell of the loop's end, for leaving), the body, the tail, and
        the jump back to the head (or `make_back`'s op, given the head's index, doing the head's work too);
        `break` jumps to the end."""
        for node in A.walk(body):  # a name set in the body holds what was set when the body comes round again
            if isinstance(node, A.SetStmt) and isinstance(node.target, A.Name):
                scope.forget_index(node.target.name)
        top = em.here()
        end: list[int] = [0]
        em.emit_src(make_head(end))
        em.loop_ends.append([end])
        self.stmts(body, scope, em)
        for snippet in tail:
            em.emit_src(snippet)
        em.emit_src(make_back(top, end) if make_back is not None else B.loop_back([top]))
        end[0] = em.here()
        em.loop_ends.pop()

    def s_For(self, s: A.For, scope: Scope, em: Emitter) -> None:
        self._for_each(s.var, s.source, s.body, scope, em, tail=())

    def s_TurnsIn(self, s: A.TurnsIn, scope: Scope, em: Emitter) -> None:
        src, t = self.code(s.order, scope)
        self._expect(s.order, t, list_of(PLAYER), "the order of the turns")
        self._for_each(s.var, s.order, s.body, scope, em, tail=self.expiry("turn"))

    def expiry(self, scope: str) -> list[B.Snippet]:
        """The end of a turn, phase or round ends the modifiers and restrictions that last until then: no code
        where the rules have none that can end there."""
        ends = [B.NONE_END if min(self.lasting[cls], default=len(SCOPES)) > SCOPES[scope] else
                B.ALL_END if max(self.lasting[cls]) <= SCOPES[scope] else B.SOME_END for cls in (A.Modify, A.Forbid)]
        return [B.expire(SCOPES[scope], *ends)] if ends != [B.NONE_END, B.NONE_END] else []

    def _for_each(self, name: str, source: Any, body: list[Any], scope: Scope, em: Emitter,
                  tail: Sequence[B.Snippet]) -> None:
        src, elem = self.seq_src(source, scope, True, "a loop's source")
        inner = scope.child()
        items, idx = scope.layout.alloc(), scope.layout.alloc()
        var = inner.define(name, elem, self._positions_of(source), seat=src == "st.game.players")
        em.emit_src(B.for_init(src, items, idx))
        counted = self._counted(src)
        self._loop(em, body, inner, lambda end: B.for_first(items, idx, var, end), tail,
                   lambda top, end: B.for_back(items, idx, var, [top + 1], end, counted))

    def _counted(self, src: str) -> Optional[tuple[str, int]]:
        """For a loop's source that is the seats (0, 1, …) or a family's places (1, 2, …, a copy of them): the code
        of how many there are, where it reads a number the game keeps (_count), and the first; else None."""
        places = NUMBERS.fullmatch(src)
        first = 0 if src == "st.game.players" else 1 if places else None
        count = self._count(places[1] if places else src) if first is not None else ""
        return (count, first) if first is not None and not count.startswith("len(") else None

    def s_While(self, s: A.While, scope: Scope, em: Emitter) -> None:
        cond, t = self.code(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a condition")
        check_progress(s.cond, s.body, s.pos, "`while true`")
        self._loop(em, s.body, scope.child(), lambda end: B.jump_unless(cond, end))

    def s_Repeat(self, s: A.Repeat, scope: Scope, em: Emitter) -> None:
        count, t = self.code(s.count, scope)
        self._expect(s.count, t, INT, "a repeat count")
        left = scope.layout.alloc()
        em.emit_src(B.set_local(left, count))
        self._loop(em, s.body, scope.child(), lambda end: B.countdown(left, end))

    def s_Break(self, s: A.Break, scope: Scope, em: Emitter) -> None:
        if not em.loop_ends:
            raise error_at(s.pos, "`break` outside a loop")
        em.emit_src(B.jump(em.loop_ends[-1][0]))

    def s_ChooseAction(self, s: A.ChooseAction, scope: Scope, em: Emitter) -> None:
        seat, t = self.code(s.seat, scope)
        self._expect(s.seat, t, PLAYER, "the deciding player")
        aids = []
        for name in s.actions:
            if name not in self.action_ids:
                raise error_at(s.pos, f"unknown action '{name}'", did_you_mean(name, self.action_ids))
            aids.append(self.action_ids[name])
        k = self.option_listers.setdefault(tuple(aids), len(self.option_listers))  # compiled once the actions are
        first = next(a for a in self.of(A.ActionDef) if a.name == s.actions[0])
        through = all(self.p.actions[a] is not None and self.p.actions[a].run is not None for a in aids)  # no stop in any
        em.emit_src(B.choose_action(seat, 2 * k, ", ".join(s.actions), counted_first(first), _seat_read(s.seat, scope),
                                    through))

    def s_CallRule(self, s: A.CallRule, scope: Scope, em: Emitter) -> None:
        args = self._rule_args(s, scope)  # first: it names an unknown rule
        block = self.p.blocks[self.rule_blocks[s.rule]]
        em.emit_src(B.call_rule(self.rule_blocks[s.rule], args, block.nlocals if block.runner is not None else None))

    def _rule_args(self, s: A.CallRule, scope: Scope) -> list[str]:
        """The code of a call's arguments, checked against the rule's parameters."""
        rule = self.rules.get(s.rule)
        if rule is None:
            raise error_at(s.pos, f"unknown rule '{s.rule}'", did_you_mean(s.rule, self.rules))
        if len(s.args) != len(rule.params):
            raise error_at(s.pos, f"rule '{s.rule}' takes {len(rule.params)} argument(s), got {len(s.args)}")
        args = []
        for arg, prm in zip(s.args, rule.params):
            src, t = self._value_for(arg, self._type(prm.type), scope)
            self._expect(arg, t, self._type(prm.type), f"argument '{prm.name}' of rule '{s.rule}'")
            args.append(src)
        return args

    def s_Run(self, s: A.Run, scope: Scope, em: Emitter) -> None:
        tgt = s.target
        if not isinstance(tgt, A.Attr):
            raise error_at(s.pos, "`run` needs a card's effect field, as in `run tile.effect`")
        obj, t = self.code(tgt.obj, scope)
        kind = self.p.kinds.get(t.arg) if t.name == "card" else None
        if kind is None or tgt.name not in kind.index or kind.types[kind.index[tgt.name]] != EFFECT:
            raise error_at(tgt.pos, f"'{tgt.name}' is not an effect field of {t}")
        if s.by is not None:
            acting, bt = self.code(s.by, scope)
            self._expect(s.by, bt, PLAYER, "who carries out the effect")
        else:
            me = scope.lookup("me")
            if me is None or not isinstance(me[0], int):
                self._no_player_needed(s, kind.name, tgt.name)
                acting = "-1"
            else:
                acting = f"L[{me[0]}]"
        as_self = None
        if s.as_self is not None:
            as_self, as_t = self.code(s.as_self, scope)
            self._expect(s.as_self, as_t, t, "the card the effect runs as (`self`)")
        table = self._effect_table(kind.name, tgt.name)
        em.emit_src(B.run_effect(obj, tgt.name, acting, as_self) if table is None else
                    B.run_effect_through(obj, *table, acting, as_self))

    def _effect_table(self, kind: str, field: str) -> Optional[tuple[int, int]]:
        """Where every effect `field` runs through (_straight_effects): the number of the game's table
        (Program.effect_runs) giving each of the kind's cards its effect's function (st, L), and the most locals past
        `self` and `me` one has, so a `run` calls it with no frame and a list that long (extra slots go unread);
        None where one may stop (it runs in a frame, as before)."""
        if (kind, field) not in self.effect_tables:
            efs = [(c, ef) for c, info in enumerate(self.p.cards) if info.kind == kind
                   for ef in info.effect_src if ef.name == field]
            self.effect_tables[kind, field] = None
            if self._straight_effects(field):
                table: list[Optional[int]] = [None] * len(self.p.cards)
                made: dict[int, int] = {}  # the cards of a row with a range share one effect
                slots = 0
                for c, ef in efs:
                    if id(ef) not in made:
                        scope = Scope(Layout())
                        scope.define("self", card(kind))
                        scope.define("me", PLAYER)
                        self.p.rules.append(self._function_of(ef.body, scope))
                        made[id(ef)] = len(self.p.rules) - 1
                        slots = max(slots, scope.layout.size - 2)
                    table[c] = made[id(ef)]
                self.p.effect_runs.append((len(self.p.rules), table))
                self.effect_tables[kind, field] = (len(self.p.effect_runs) - 1, slots)
        return self.effect_tables[kind, field]

    def _no_player_needed(self, s: A.Run, kind: str, field: str) -> None:
        """`run` without `by` where no `me` is known: no effect it may run can speak of `me`."""
        for info in self.p.cards:
            for ef in info.effect_src:
                if info.kind == kind and ef.name == field and _mentions_me(ef.body):
                    raise error_at(s.pos, f"who carries out this effect? The effect '{field}' of {info.id} "
                                          f"(line {ef.pos.line}) speaks of `me`, and no `me` is known here",
                                   f"name the player: `run … by PLAYER`")

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
        # one function for condition and value (the condition first, as it reads), given the value so far `_m_v`
        applied = f"_m_v + ({value})" if s.mode == "by" else f"({value})"
        if s.where is not None:
            applied = f"{applied} if ({wsrc}) else _m_v"
        self.p.moddefs.append(ModDef(s.kind, fidx, self.fn(applied, f"st, {it}, _m_v{mscope.params()}"),
                                     SCOPES[s.until], s.pos, self.reads_modifiable(value + " " + wsrc)))
        em.emit_src(B.add_modifier(len(self.p.moddefs) - 1, fidx, SCOPES[s.until], mscope.slots()))

    def s_Forbid(self, s: A.Forbid, scope: Scope, em: Emitter) -> None:
        """A restriction is one generated function `keep(st, me, options, *captured)`: the listed options without
        those of the actions it names that its condition rules out (all of them without one), in their order."""
        bodies: dict[tuple[str, ...], list[int]] = {}  # each arm's lines, and the actions whose options it tests
        folds: dict[int, str] = {}  # per action, the condition in its lister's names (compiler._option_listers)
        mes: list[str] = []  # the condition's names for `me`, set once before the options
        captured: dict[str, list[int]] = {}
        params = ""
        for name in s.actions:
            if name not in self.action_ids:
                raise error_at(s.pos, f"unknown action '{name}'", did_you_mean(name, self.action_ids))
            act = next(a for a in self.of(A.ActionDef) if a.name == name)
            fscope = CaptureScope(scope, f"a restriction of action '{name}'")
            names = [fscope.define_py("me", PLAYER)]
            for prm in act.params:
                _, dt = self.code(prm.domain, fscope.child())
                names.append(fscope.define_py(prm.name, element_type(dt) or ANY))
            test = "True"
            if s.where is not None:
                test, t = self.code(s.where, fscope)
                self._expect(s.where, t, BOOL, "a restriction's condition")
            captured[name] = fscope.slots()
            params = fscope.params()
            # a parameter the condition reads once is read there (an item costs less than a name unpacked and read);
            # one read more often is set from its item, several are unpacked
            folds[self.action_ids[name]] = sub_code(test, re.compile("|".join(rf"\b{n}\b" for n in names)),
                                                    lambda m: "me" if m[0] == names[0] else f"_p{names.index(m[0]) - 1}")
            read = {k: n for k, n in enumerate(names[1:], 1) if _word(n).search(test)}
            once = {k for k, n in read.items() if len(_word(n).findall(test)) == 1 and " for " not in test}
            for k in once:
                test = sub_code(test, _word(read[k]), f"_b_o[{k}]")
            bind = [f"    {n} = _b_o[{k}]" for k, n in read.items() if k not in once]
            mes += [f"{names[0]} = me"] if _word(names[0]).search(test) else []
            body = (*(bind if len(bind) < 2 else [f"    _, {''.join(n + ', ' for n in names[1:])}= _b_o"]),
                    f"    if {test}:", "        continue")
            bodies.setdefault(body, []).append(self.action_ids[name])
        if len({tuple(c) for c in captured.values()}) > 1:
            raise error_at(s.pos, "a restriction of several actions must use the same local names for each")
        arms = _arms_by_action(bodies, len(self.action_ids))
        lines, hoisted = state_reads_as_locals([*dict.fromkeys(mes), "_b_k = []", "_b_a = _b_k.append",
                                                "for _b_o in options:", *_indent(arms), "    _b_a(_b_o)",
                                                "return _b_k"])  # it changes nothing
        ns: dict[str, Any] = {}
        with nesting_limit(s.where.pos if s.where is not None else s.pos):
            exec(function_code("\n".join([f"def keep(st, me, options{params}):",  # noqa: S102 - our own generated code
                                             *_indent([f"{n} = {read}" for n, read in hoisted.items()] + lines)])),
                 self.env, ns)
        self.p.forbids.append(ForbidDef(ns["keep"], SCOPES[s.until], s.pos))
        if all(pure(ast.parse(test, mode="eval").body) for test in folds.values()):  # it cannot fail: no position
            self.folds[len(self.p.forbids) - 1] = folds, params[2:]
        em.emit_src(B.add_forbid(len(self.p.forbids) - 1, SCOPES[s.until], next(iter(captured.values()), [])))

    def s_Turns(self, s: A.Turns, scope: Scope, em: Emitter) -> None:
        start, t = self.code(s.start, scope)
        self._expect(s.start, t, PLAYER, "the first player")
        inner = scope.child()
        var = inner.define(s.var, PLAYER, seat=True)  # turns_init checks its start, next_player keeps it a seat
        skips = scope.layout.alloc()
        until, ut = self.code(s.until, inner)
        self._expect(s.until, ut, BOOL, "the end condition of the turns")
        skip = None
        if s.skip is not None:
            skip, kt = self.code(s.skip, inner)
            self._expect(s.skip, kt, BOOL, "the skip condition")
        em.emit_src(B.turns_init(start, var, skips))
        self._loop(em, s.body, inner, lambda end: B.turns_head(until, skip, var, skips, end, [em.here()]),
                   tail=[*self.expiry("turn"), B.next_player(var)])

    def s_Log(self, s: A.Log, scope: Scope, em: Emitter) -> None:
        """Each `{name}` of the text (in every language) is a name visible here, filled in when the
        entry is written; an unknown one is a load error."""
        names: list[str] = []
        for lang, text in s.text.by_lang.items():
            for fname in template_fields(text, s.text.pos, f"the {lang} log text"):
                if fname not in names:
                    names.append(fname)
        values = []
        for fname in names:
            try:
                # built as the parser's nodes are, unvalidated: validating one builds the AST's validators at load
                fn, t = self.expr(A.Name.model_construct(pos=s.text.pos, name=fname), scope)
            except RulesError as exc:
                raise error_at(s.text.pos, f"the log text names '{{{fname}}}', which is not known here",
                               did_you_mean(fname, scope.all_names())) from exc
            shape = "card" if t.name == "card" else \
                "cards" if t.name == "list" and t.elem is not None and t.elem.name == "card" else "value"
            values.append((fname, fn, shape, O.formatter(t)))
        em.emit(O.log_text(s.text.by_lang.get("en", next(iter(s.text.by_lang.values()))), values))

    def s_Require(self, s: A.Require, scope: Scope, em: Emitter) -> None:
        cond, t = self.code(s.cond, scope)
        self._expect(s.cond, t, BOOL, "a requirement")
        if id(s) not in self.listed:  # an action's leading requirement held when its option was listed
            em.emit_src(B.require(cond, "requirement failed"))

    def s_NamedStep(self, s: A.NamedStep, scope: Scope, em: Emitter) -> None:
        self.stmts(s.body, scope, em)  # no scope of its own: a step runs as if written in place

    def s_Give(self, s: A.Give, scope: Scope, em: Emitter) -> None:
        what, one, _ = self._cards_expr(s.what, scope)
        to, t = self.code(s.to, scope)
        self._expect(s.to, t, PLAYER, "the new owner")
        source = self._card_source(s.what, scope)
        em.emit_src(B.give(what, to, one, self.p.counted, None if source is None else source.family_id,
                           _seat_read(s.to, scope)))

    def s_EndGame(self, s: A.EndGame, scope: Scope, em: Emitter) -> None:
        em.emit(O.end_game)

    def s_Emit(self, s: A.Emit, scope: Scope, em: Emitter) -> None:
        compiled = [self.code(a, scope) for a in s.args]
        args = [src for src, _ in compiled]
        event = self.declared.get(s.event)
        if event is not None:
            if len(event.params) != len(args):
                raise error_at(s.pos, f"event '{s.event}' carries {len(event.params)} value(s) (line {event.pos.line}), "
                                      f"but is emitted with {len(args)}")
            for arg, (_, t), prm in zip(s.args, compiled, event.params):
                self._expect(arg, t, self._type(prm.type), f"'{prm.name}' of event '{s.event}' (line {event.pos.line})")
        for trig in self.of(A.TriggerDef):
            if trig.event == s.event and len(trig.params) != len(args):
                raise error_at(s.pos, f"event '{s.event}' carries {len(trig.params)} value(s) at line {trig.pos.line}, "
                               f"but is emitted with {len(args)}")
            if trig.event == s.event:
                for arg, (_, t), prm, ref in zip(s.args, compiled, trig.params, trig.types):
                    if ref is not None:
                        self._expect(arg, t, self._type(ref), f"'{prm}' of event '{s.event}' (line {trig.pos.line})")
        line = self._emit_src(s.event, args)
        if line is None:
            raise error_at(s.pos, f"no `when {s.event}` trigger listens to this event",
                           did_you_mean(s.event, self.events))
        em.emit_src(B.Snippet([line], pushes=True))


def written(e: Any) -> str:
    """An expression as the rules write it, for a message, where it is made of names, numbers, indexes and calls
    (else "")."""
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Num):
        return str(e.value)
    if isinstance(e, A.Index):
        obj, idx = written(e.obj), written(e.index)
        return f"{obj}[{idx}]" if obj and idx else ""
    if isinstance(e, A.Call):
        args = [written(a) for a in e.args]
        return f"{e.func}({', '.join(args)})" if all(args) else ""
    return ""


# statements whose values are all worked out as they start, before they change anything (StatementCompiler._begin)
_AT_START = (A.If, A.Let, A.SetStmt, A.Require, A.Pay, A.CallRule, A.Repeat, A.For)
# statements that run through as plain Python when all inside them does (Move and Break: see _straight)
_STRAIGHT = (A.Let, A.SetStmt, A.Reveal, A.Pay, A.If, A.For, A.While, A.Repeat, A.Require, A.NamedStep, A.Give,
             A.Log, A.Modify, A.Forbid)
_POS_NAME = re.compile(r"\b_at\d+\b")  # the name of a position an error names (CompilerBase.where)
_LOOPS = (A.For, A.While, A.Repeat)
_PLACE_FREE = (A.Name, A.Num, A.Index, A.Call, A.Pos)  # the nodes of a sweep's destination (_sweep; its calls: below)
_COMPOUND = (A.If, *_LOOPS)
_NEST_MAX = 4  # loops and ifs inside each other, each in a `try`: Python allows 20 nested blocks in all


MOVING = (A.Move, A.Draw, A.CallRule, A.Run, A.Emit)  # statements that may move cards, themselves or through others


def _moves_itself_only(var: str, body: list[Any]) -> bool:
    """Whether a loop's body (one that runs through) moves no card but its own card `var`, once and outside any inner
    loop, and sets no name `var`: each card the loop reaches still lies where the loop's source found it (a card
    moved by an earlier round is that round's own)."""
    nodes = list(A.walk(body))
    moving = [n for n in nodes if isinstance(n, MOVING)]
    return (len(moving) == 1 and isinstance(moving[0], A.Move) and isinstance(moving[0].what, A.Name)
            and moving[0].what.name == var and not any(isinstance(n, _LOOPS) or sets_name(n, var) for n in nodes))


def _seat_read(e: Any, scope: Scope) -> bool:
    """Whether `e` reads a name that holds a player's seat (Scope.is_seat): a seat's range check is not needed."""
    return isinstance(e, A.Name) and scope.is_seat(e.name)


def sets_name(node: object, var: str) -> bool:
    """Whether a statement defines or sets the name `var`."""
    if isinstance(node, A.SetStmt):
        return isinstance(node.target, A.Name) and node.target.name == var
    return isinstance(node, A.Let) and node.name == var


def _arms_by_action(bodies: dict[tuple[str, ...], list[int]], actions: int) -> list[str]:
    """A restriction's tests of an option `_b_o`, one arm per distinct test with the ids of the actions it tests (one
    id test for them all); no id test where one test serves every action of the game."""
    if len(bodies) == 1 and len(ids := next(iter(bodies.values()))) == actions:
        return [ln[4:] for ln in next(iter(bodies))]
    arms: list[str] = []
    for body, ids in bodies.items():
        test = f"_b_o[0] == {ids[0]}" if len(ids) == 1 else f"_b_o[0] in {tuple(ids)}"
        arms += [f"{'elif' if arms else 'if'} {test}:", *body]
    return arms


def _word(name: str) -> re.Pattern[str]:
    """A generated name as a word of code."""
    return re.compile(rf"\b{name}\b")


_PASSES_FRAME = re.compile(r"\bfr\b|\bL\b(?!\[\d+\])")  # code that hands the frame (or its locals) on: an op, a function


def _loop_variable(var: int, body: list[str]) -> tuple[str, list[str]]:
    """What a loop that runs through sets its variable (slot `var`) in, and its body: a local `_l<var>` where the body
    reads the frame slot by slot only (no op or function is given `fr` or `L`; no message's f-string reads the slot),
    as no code after the loop reads the variable (its scope ends there); the frame slot keeps its value then."""
    slot = re.compile(rf"\bL\[{var}\]")
    if any(_PASSES_FRAME.search(ln) or any(slot.search(s) for s in STRING_LITERAL.split(ln)[1::2]) for ln in body):
        return f"L[{var}]", body
    return f"_l{var}", [sub_code(ln, slot, f"_l{var}") for ln in body]


def _over_places(item: str, src: str, body: list[str]) -> tuple[str, list[str]]:
    """What a loop runs over (`item in src`), and its body: over positions(F) (a local `item`), where the body reads
    zones of families at the position (`fam_at[G][item]`, in range: expressions.e_Index), F's places with
    those zones (Game.places); over the players, where it reads zones of per-player families at the seat
    (`fam_zones[G][item]`), the seats with those zones (Game.seat_zones). Each zone is read as a local `_y…`, no
    table read and no number counted down each time."""
    places = _PLACES.fullmatch(src)
    if (places is None and src != "st.game.players") or not item.startswith("_l"):
        return f"{item} in {src}", body
    read = re.compile(rf"\bst\.game\.{'fam_zones' if places is None else 'fam_at'}\[(\d+)\]\[{item}\]")
    families = list(dict.fromkeys(m[1] for ln in body for part in STRING_LITERAL.split(ln)[::2] for m in read.finditer(part)))
    if not families:
        return f"{item} in {src}", body
    zones = [f"_y{item[2:]}_{f}" for f in families]
    body = [sub_code(ln, read, lambda m: f"_y{item[2:]}_{m[1]}") for ln in body]
    if places is None:
        return f"{item}, {', '.join(zones)} in st.game.seat_zones({', '.join(families)})", body
    read_too = "" if families == [places[1]] else ", " + ", ".join(families)  # F's own zones: its places as they are
    return f"{item}, {', '.join(zones)} in st.game.places({places[1]}{read_too})", body


def _indent(lines: list[str]) -> list[str]:
    return ["    " + ln for ln in lines]


# Statements that may stop the run or leave a loop, themselves or through what they set off.
_PROGRESS = (A.Break, A.EndGame, A.ChooseAction, A.LetChoose, A.LetRandom, A.Draw, A.CallRule, A.Run, A.Emit, A.Move)


def check_progress(cond: Any, body: list[Any], pos: A.Pos, what: str) -> None:
    """A loop whose condition is `true` and whose body can neither stop nor leave it never ends: a load
    error. Sound, not complete: any call, move or event counts as a way out; the rest is left to the
    engine's run-time budget."""
    if isinstance(cond, A.BoolLit) and cond.value and not any(isinstance(n, _PROGRESS) for n in A.walk(body)):
        raise error_at(pos, f"this {what} loop never ends: nothing in it decides, draws by chance, calls, "
                       "moves, breaks or ends the game", "add a `break` or `end game`, or a condition that can "
                       "become false")


def _mentions_me(body: list[Any]) -> bool:
    """Whether statements read `me`, also through a nested `run` that passes it on."""
    return any((isinstance(n, A.Name) and n.name == "me") or (isinstance(n, A.Run) and n.by is None)
               for n in A.walk(body))
