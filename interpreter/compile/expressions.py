"""Compiles expressions to Python source: one generated function per expression, type-checked
on the way, so a whole condition costs one call at run time."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Optional, Union

from dsl import ast as A
from dsl.errors import did_you_mean, error_at
from interpreter.compile.compile_base import CompilerBase, owner_count
from interpreter.compile.hoist import CHECKED_PLACE, PICK_READ, STRING_LITERAL, end_items_inline, reads_game, sub_code
from interpreter.compile.primitives import FAMILY_CARDS, REGISTRY, seq_code
from interpreter.compile.scope import Layout, Scope, _captures, _visible_names
from interpreter.compile.types import (
    ANY,
    BOOL,
    INT,
    PLAYER,
    TEXT,
    T,
    card,
    compatible,
    element_type,
    enum,
    list_of,
)
from interpreter.runtime.program import Fn

LOCATED_HELPERS = ("_pick(", "_extreme(", "_card(")  # runtime helpers with a last `at` parameter
AGGREGATES = {"sum", "count", "min", "max", "any", "all", "first", "last"}
_PLAIN = re.compile(r"[A-Za-z_]\w*|L\[\d+\]")  # generated code for a local or a parameter: no work to read it
_ARG = re.compile(r"[A-Za-z_]\w*|L\[\d+\]|\d+")
_CHEAP = re.compile(r"(?:st(?:\.game)?\.\w+|[A-Za-z_]\w*|L)(?:\[(?:\d+|[A-Za-z_]\w*|L\[\d+\])\])*")  # a read, no call
_POSITION = re.compile(r"st\.game\.zone_number\[st\.where\[([A-Za-z_]\w*|L\[\d+\])\]\]")  # position(c) of a plain c
# position_in(c, f) of a plain c and a family f given by its number (primitives._position_in)
_POSITION_IN = re.compile(r"\(st\.game\.zone_number\[(st\.where\[(?:[A-Za-z_]\w*|L\[\d+\]|\d+)\])\] "
                          r"if st\.game\.zone_family\[\1\] == (\d+) else 0\)")
_READS_FIELD = re.compile(r"\b_(?:through|modified|dynfield)\(|\b_f_(\w+)\(")  # a modifiable field, or a function
_READ = re.compile(r"[\w.\[\]]+")  # names, attributes and subscripts only: no call, nothing that can fail
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NUMBER = re.compile(r"-?\d+")  # a whole number written out
INLINE_MAX = 400  # characters of a function body that may stand in for its call


NUMBERS = re.compile(r"list\((st\.game\.fam_numbers\[\d+\])\)")  # positions(f): a copy of the game's range


def iterable(src: str) -> str:
    """Code only looped over once: `list(range(…))` or `positions(f)` without its throw-away list."""
    numbers = NUMBERS.fullmatch(src)
    if numbers:
        return numbers[1]
    if not (src.startswith("list(range(") and src.endswith("))")) or "'" in src or '"' in src:
        return src
    depth = 0
    for ch in src[4:-1]:  # the list's own parentheses must enclose exactly the range call
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return src
    return src[5:-1]


def _end_item_inline(src: str) -> str:
    """`first`/`last` of a list read without a call (a plain read, or a place known to exist): the item read
    inline, the helper called only to fail."""
    return end_items_inline(src) if PICK_READ.fullmatch(src) else src


def _uses(name: str, code: str) -> int:
    return sum(m.group(0) == name for m in _IDENT.finditer(code))


@lru_cache(maxsize=4096)
def _cut(body: str, params: tuple[str, ...]) -> tuple[tuple[Union[str, int], ...], tuple[int, ...]]:
    """A function's body cut where it names a parameter outside its string literals (the parameter's number in its
    place), and how often it names each: what inlining a call fills in (the same bodies are inlined many times)."""
    number = {param: i for i, param in enumerate(params)}
    pieces: list[Union[str, int]] = []
    uses = [0] * len(params)
    text: list[str] = []
    for k, part in enumerate(STRING_LITERAL.split(body)):
        if k % 2:  # a string literal
            text.append(part)
            continue
        last = 0
        for m in _IDENT.finditer(part):
            i = number.get(m.group(0))
            if i is not None:
                pieces += ["".join(text) + part[last:m.start()], i]
                uses[i] += 1
                text, last = [], m.end()
        text.append(part[last:])
    pieces.append("".join(text))
    return tuple(pieces), tuple(uses)


@lru_cache(maxsize=256)
def _again(value: str, anywhere: bool = False) -> re.Pattern[str]:
    """Code that works `value` out again (not the end of a longer read); `anywhere`: at any error positions (`_atN`),
    which only the first working out can report. Kept: one value is looked for in many expressions after it."""
    pattern = re.escape(value)
    return re.compile(r"(?<![\w)\]])" + (re.sub(r"_at\d+", lambda _: r"_at\d+", pattern) if anywhere else pattern))


class ExpressionCompiler(CompilerBase):
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
        ident = f"_fg_{name}" if reads_game(body) else f"_f_{name}"  # code made for a game calls the game's own
        self.function_src[name] = (params, body)
        self.env[ident] = self.fn(body, "st" + "".join(", " + p for p in params))
        if ident.startswith("_fg_"):
            self.p.functions.append((name, self.fn_for_game(body, "st" + "".join(", " + p for p in params))))
        self.compiled_functions[name] = (ident, t)
        self.compiling.discard(name)
        return self.compiled_functions[name]

    def _known_place(self, positions: Optional[int], family: int) -> bool:
        """Whether a position of the family `positions` (that a name runs over) is a place of `family`: the same
        family, or one whose size is written alike (the same code gives the same size: it reads only the game)."""
        if positions is None:
            return False
        size = self.size_code.get(positions)
        return positions == family or size is not None and size == self.size_code.get(family)

    def _inlined(self, name: str, args: list[str], places: list[Optional[int]]) -> str:
        """A short function's body in place of its call, where every argument is a name, slot, number or string
        (so reading it again costs nothing): the same value, and errors at the same places, without the call.
        `places`: per argument, the family whose positions it runs over, if any: a place it names there exists."""
        params, body = self.function_src[name]
        if len(body) > INLINE_MAX:
            return ""
        for param, positions in zip(params, places):
            if positions is not None:
                body = CHECKED_PLACE.sub(lambda m: f"st.game.fam_at[{m[1]}][{m[2]}]" if m[2] == param
                                         and self._known_place(positions, int(m[1])) else m[0], body)
        pieces, uses = _cut(body, tuple(params))
        for arg, used in zip(args, uses):  # a chain of reads without calls may be read a few times
            if not (_ARG.fullmatch(arg) or STRING_LITERAL.fullmatch(arg) or (_READ.fullmatch(arg) and used <= 3)):
                return ""
        return f"({end_items_inline(''.join(p if isinstance(p, str) else args[p] for p in pieces))})"

    def reads_modifiable(self, src: str) -> bool:
        """Whether generated code may read a field some modifier changes, itself or in a function it calls."""
        for m in _READS_FIELD.finditer(src):
            function = self.function_src.get(m.group(1)) if m.group(1) else None
            if function is None or self.reads_modifiable(function[1]):
                return True
        return False

    def expr(self, e: Any, scope: Scope) -> tuple[Fn, T]:
        src, t = self.code(e, scope)
        return self.fn(src), t

    def code(self, e: Any, scope: Scope) -> tuple[str, T]:
        self.at = e.pos  # for errors found below: the innermost node while descending, this one after
        method = getattr(self, "e_" + type(e).__name__)
        src, t = method(e, scope)
        self.at = e.pos
        if self.reused is not None and "'" in self.reused[0]:  # string literals inside: matched whole, at any
            if self.reused[0].split("_at", 1)[0] in src:  # positions (its errors: where it was worked out); what
                src = _again(self.reused[0], True).sub(self.reused[1], src)  # comes before them first, as a string
        elif self.reused is not None and self.reused[0] in src:
            src = sub_code(src, _again(self.reused[0]), self.reused[1])
        return src, t

    def code_as(self, e: Any, scope: Scope, want: T) -> tuple[str, T]:
        """Like code, where the context expects type `want` (a bare enum value may need it)."""
        if isinstance(e, A.Name):
            self.at = e.pos
            return self.e_Name(e, scope, want)
        return self.code(e, scope)

    def seq(self, e: Any, scope: Scope, copy: bool, what: str) -> tuple[Fn, T]:
        """A closure giving the items of a list, zone or family, and the item type."""
        src, elem = self.seq_src(e, scope, copy, what)
        return self.fn(src), elem

    def seq_src(self, e: Any, scope: Scope, copy: bool, what: str) -> tuple[str, T]:
        """Code giving the items of a list, zone or family (a private list with `copy`), and the item type."""
        src, t = self.code(e, scope)
        elem = element_type(t)
        if elem is None:
            raise error_at(e.pos, f"{what} must be a list, zone or zone family, got {t}")
        if t.name == "zone" and copy:
            return f"list(st.zones[{src}])", elem
        return seq_code(src, t), elem

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

    def e_Name(self, e: A.Name, scope: Scope, want: Optional[T] = None) -> tuple[str, T]:
        """A name: local, constant, variable, zone, enum, built-in, or a bare enum value (`countess`),
        which `want`, the type the context expects, tells apart where two enums share it."""
        name = e.name
        local = scope.lookup(name)
        if local is not None:
            slot, t = local
            return (slot if isinstance(slot, str) else f"L[{slot}]"), t
        if name in self.consts:
            idx, t = self.consts[name]
            return self.const_code.get(name, f"st.game.consts[{idx}]"), t
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
        owners = [en for en, values in self.p.enums.items() if name in values]
        if owners:
            if want is not None and want.name == "enum" and want.arg in owners:
                return repr(name), want
            if len(owners) == 1:
                return repr(name), enum(owners[0])
            raise error_at(e.pos, f"'{name}' is a value of several enums ({', '.join(owners)})",
                           f"write it with its enum, as in {owners[0]}.{name}")
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
            modifiable = (t.arg, e.name) in self.modifiable
            if modifiable and ("_through(" in obj or "_modified(" in obj):
                return f"_modified(st, {obj}, {fidx}, {t.arg!r})", kind.types[fidx]  # one call, not a doubled text
            src = self.field_read(obj, t.arg, e.name)
            if modifiable:  # no active modifier: the base value, without a call (either branch evaluates obj once)
                return f"({src} if {fidx} not in st.modded else _through(st, {obj}, {fidx}, {t.arg!r}))", \
                    kind.types[fidx]
            if e.name not in self.set_fields:  # its printed value, whatever happens in play
                self.printed_read = (src, t.arg, e.name)
            return src, kind.types[fidx]
        if t.name == "player":
            if e.name not in self.pvar_index:
                raise error_at(e.pos, f"players have no variable '{e.name}'", did_you_mean(e.name, self.pvar_index))
            idx, vt = self.pvar_index[e.name]
            return f"st.pvars[{obj}][{idx}]", vt
        raise error_at(e.pos, f"{t} has no field '{e.name}'")

    def field_read(self, obj: str, kind: str, name: str) -> str:
        """The code reading field `name` of the card `obj` of `kind`, unmodified: in the rules, where no rule sets it
        and it holds no card, list or effect (a determinized state maps cards), from its column (Game.field_col: one
        index, not two), the field then keeping its printed values (Program.printed); else from the card's row."""
        info = self.p.kinds[kind]
        fidx = info.index[name]
        if not self.by_column or name in self.set_fields \
                or info.types[fidx].name not in ("int", "bool", "text", "player", "enum"):
            return f"st.card_vals[{obj}][{fidx}]"
        self.p.printed.add((kind, name))
        return f"st.game.field_col[{fidx}][{obj}]"

    def e_Index(self, e: A.Index, scope: Scope) -> tuple[str, T]:
        obj, t = self.code(e.obj, scope)
        self.printed_read = None  # only the index's own read counts (an earlier one's code may read alike)
        idx, it = self.code(e.index, scope)
        if t.name == "family":
            spec = self.p.zone_by_name[t.arg]
            if spec.shape == "per_player":
                self._expect(e.index, it, PLAYER, f"the index of zone family '{spec.name}'")
                return f"st.game.fam_zones[{obj}][{idx}]", T("zone", spec.kind)
            self._expect(e.index, it, INT, f"the index of zone family '{spec.name}'")
            if isinstance(e.index, A.Name) and self._known_place(scope.safe_index(e.index.name), spec.family_id):
                return f"st.game.fam_at[{obj}][{idx}]", T("zone", spec.kind)  # in range by construction
            checked = f"_member(st, {obj}, {idx}, {spec.name!r}, {self.where(e.pos)})"
            if _PLAIN.fullmatch(idx):  # cheap to read twice: the place looked up inline, the helper only to fail
                places = f"st.game.fam_place[{obj}]"
                checked = f"({places}[{idx}] if {idx} in {places} else {checked})"
            own = _POSITION.fullmatch(idx)
            if own:  # zone[position(c)] is c's own zone when c lies in the family: no lookup, no check
                where = f"st.where[{own[1]}]"
                return f"({where} if st.game.zone_family[{where}] == {obj} else {checked})", T("zone", spec.kind)
            return checked, T("zone", spec.kind)
        if t.name == "map":
            assert t.key is not None and t.elem is not None
            self._expect(e.index, it, t.key, "a key")
            if self._printed_key(e, idx, scope):
                return f"{obj}[{idx}]", t.elem
            checked = f"_mapget({obj}, {idx}, {self.where(e.pos)})"
            if _CHEAP.fullmatch(obj) and _CHEAP.fullmatch(idx):  # the key looked up inline, the helper only to fail
                return f"({obj}[{idx}] if {idx} in {obj} else {checked})", t.elem
            return checked, t.elem
        if t.name == "list":
            assert t.elem is not None
            self._expect(e.index, it, INT, "a list position")
            checked = f"_listget({obj}, {idx}, {self.where(e.pos)})"
            if _CHEAP.fullmatch(obj) and _ARG.fullmatch(idx):  # the bounds check inline, the helper only to fail
                return f"({obj}[{idx}] if 0 <= {idx} < len({obj}) else {checked})", t.elem
            return checked, t.elem
        raise error_at(e.pos, f"cannot index {t}")

    def _printed_key(self, e: A.Index, idx: str, scope: Scope) -> bool:
        """Whether a constant map written with literal keys is looked up by a card field that keeps its printed
        values (`idx`, read last) and every card of that kind prints one of the keys: the lookup cannot fail."""
        read = self.printed_read
        if not (isinstance(e.obj, A.Name) and e.obj.name in self.const_keys and scope.lookup(e.obj.name) is None
                and isinstance(e.index, A.Attr) and read is not None and read[0] == idx):
            return False
        fidx = self.p.kinds[read[1]].index[read[2]]
        printed = [vals[fidx] for vals, kind in zip(self.p.card_vals, self.p.card_kind) if kind == read[1]]
        if not printed or not set(printed) <= self.const_keys[e.obj.name]:  # no cards: not made yet (a constant's own)
            return False
        self.p.printed.add((read[1], read[2]))
        return True

    def e_Call(self, e: A.Call, scope: Scope) -> tuple[str, T]:
        if e.func in self.p.zone_by_name:
            if len(e.args) != 1:
                raise error_at(e.pos, f"zone family '{e.func}' takes one index")
            return self.e_Index(A.Index.model_construct(pos=e.pos, obj=A.Name.model_construct(pos=e.pos, name=e.func),
                                                        index=e.args[0]), scope)
        fd_types = [self._type(p.type) for p in self.functions[e.func].params] if e.func in self.functions else []
        compiled = [self.code_as(a, scope, fd_types[i]) if i < len(fd_types) else self.code(a, scope)
                    for i, a in enumerate(e.args)]
        srcs = [c[0] for c in compiled]
        types = [c[1] for c in compiled]
        if e.func in self.functions:
            fd = self.functions[e.func]
            if len(srcs) != len(fd.params):
                raise error_at(e.pos, f"function '{e.func}' takes {len(fd.params)} argument(s), got {len(srcs)}")
            for arg, prm, t in zip(e.args, fd.params, types):
                self._expect(arg, t, self._type(prm.type), f"argument '{prm.name}' of '{e.func}'")
            ident, rt = self._function(e.func, e.pos)
            places = [scope.safe_index(a.name) if isinstance(a, A.Name) else None for a in e.args]
            return self._inlined(e.func, srcs, places) or f"{ident}(st{''.join(', ' + a for a in srcs)})", rt
        if e.func == "card" and len(e.args) == 1 and isinstance(e.args[0], A.Str):
            ids = {c.id: (i, c.kind) for i, c in enumerate(self.p.cards)}
            if e.args[0].value not in ids:
                raise error_at(e.args[0].pos, f"there is no card '{e.args[0].value}'", did_you_mean(e.args[0].value, ids))
            number, kind = ids[e.args[0].value]
            return str(number), card(kind)  # the cards are known now: the number a game gives this id
        prim = REGISTRY.get(e.func)
        if prim is None:
            known = list(self.functions) + list(REGISTRY) + list(self.p.zone_by_name)
            raise error_at(e.pos, f"unknown function '{e.func}'", did_you_mean(e.func, known))
        result = prim.check(types)
        if isinstance(result, str):
            raise error_at(e.pos, f"{e.func}{prim.params}: {result}")
        src = prim.build(srcs, types)
        if src.startswith(LOCATED_HELPERS):  # one helper call: it learns where it is, for its errors
            src = f"{src[:-1]}, {self.where(e.pos)})"
        return _end_item_inline(src), result

    def e_CallComp(self, e: A.CallComp, scope: Scope) -> tuple[str, T]:
        if e.func not in AGGREGATES:
            raise error_at(e.pos, f"'{e.func}' does not take a `… for … in …` argument",
                           f"aggregates that do: {', '.join(sorted(AGGREGATES))}")
        return self._owned_count(e, scope) or self._every_place_full(e, scope) \
            or self.e_Call(A.Call.model_construct(pos=e.pos, func=e.func, args=[e.comp]), scope)  # valid parts: no validator

    def _every_place_full(self, e: A.CallComp, scope: Scope) -> Optional[tuple[str, T]]:
        """`all(count(Z[i]) == k for i in positions(Z))` of a family Z whose cards are counted by owner (State.owned)
        and whose zones hold at most k cards (its capacity): true exactly when Z holds k cards a zone (Game.fam_full),
        read from the counts, with no pass over its zones. A zone never holds more than its capacity: every move into
        it checks it, saved states are checked (saved._check_cards), and cards start in single zones only."""
        comp, test = e.comp, e.comp.expr
        family = self._positions_of(comp.source)
        if e.func != "all" or family is None or comp.cond is not None or comp.key is not None \
                or not isinstance(test, A.BinOp) or test.op != "==" or {"count", "positions"} & set(self.functions):
            return None
        spec = self.p.zones[family]
        if family not in self.p.counted or spec.shape != "indexed" or scope.lookup(spec.name) is not None:
            return None
        for counted, full in ((test.left, test.right), (test.right, test.left)):
            place = counted.args[0] if isinstance(counted, A.Call) and counted.func == "count" \
                and len(counted.args) == 1 else None
            if isinstance(full, A.Num) and spec.capacity == full.value and isinstance(place, A.Index) \
                    and isinstance(place.obj, A.Name) and place.obj.name == spec.name \
                    and isinstance(place.index, A.Name) and place.index.name == comp.var:
                return f"(sum(st.owned[{family}]) == st.game.fam_full[{family}])", BOOL
        return None

    def _owned_count(self, e: A.CallComp, scope: Scope) -> Optional[tuple[str, T]]:
        """A count of a family's cards by owner (compile_base.owner_count) read from the counts that the family's
        moves keep (State.owned, a slot per seat and the last for the bank's -1): a seat out of range owns none, a
        name that holds a seat (Scope.is_seat) is read unchecked."""
        found = owner_count(e)
        if found is None or "owner" in self.functions or "owner" in self.p.zone_by_name:
            return None
        family = FAMILY_CARDS.fullmatch(self.code(e.comp.source, scope)[0])
        if family is None or int(family[1]) not in self.p.counted:
            return None
        seat, t = self.code(found[1], scope)
        if t != PLAYER or not re.fullmatch(r"L\[\d+\]|[A-Za-z_]\w*", seat):  # a plain read, made twice below
            return None
        if scope.is_seat(found[1].name):
            return f"st.owned[{family[1]}][{seat}]", INT
        return f"(st.owned[{family[1]}][{seat}] if -1 <= {seat} < st.game.num_players else 0)", INT

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
        source = iterable(seq_code(src, st))
        family = self._positions_of(e.source)
        if family is not None and e.key is None:  # `… f[i] … for i in positions(f)`, i read only as f[i]: over f's zones
            at, zone = f"st.game.fam_at[{family}][{var}]", f"{var}_z"
            if not _uses(var, (body + cond).replace(at, zone)):
                body, cond, var, source = body.replace(at, zone), cond.replace(at, zone), zone, f"st.game.fam_zones[{family}]"
        if e.key is not None:
            key, _ = self.code(e.key, inner)
            return f"_sorted_by([({key}, {body}) for {var} in {source}{cond}])", list_of(bt)
        if _READ.fullmatch(source):  # a list read without a call: an empty one needs no comprehension run
            return f"([{body} for {var} in {source}{cond}] if {source} else [])", list_of(bt)
        return f"[{body} for {var} in {source}{cond}]", list_of(bt)

    def e_BinOp(self, e: A.BinOp, scope: Scope) -> tuple[str, T]:
        if e.op in ("==", "!=") and isinstance(e.left, A.Name):
            right, rt = self.code(e.right, scope)
            left, lt = self.code_as(e.left, scope, rt)
        else:
            left, lt = self.code(e.left, scope)
            right, rt = self.code_as(e.right, scope, lt)
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
            return self._in_family(left, e.op, right) or f"({left} {e.op} {right})", BOOL
        if e.op in ("/", "%") and right.isdigit() and int(right):  # a divisor that cannot be 0: no helper
            return f"({left} {'//' if e.op == '/' else '%'} {right})", INT
        if e.op == "/":
            return f"_div({left}, {right}, {self.where(e.pos)})", INT
        if e.op == "%":
            return f"_mod({left}, {right}, {self.where(e.pos)})", INT
        if e.op == "*":
            return f"_mul(st, {left}, {right}, {self.where(e.pos)})", INT
        return (e.op == "+" and self._sum_in_branches(e, left, right, scope)) or f"({left} {e.op} {right})", INT

    def _sum_in_branches(self, e: A.BinOp, left: str, right: str, scope: Scope) -> str:
        """`k + (if c then a else b)` (or the `if` first) where k and a branch are numbers written out, as
        `(k+a if c else k + b)`: that branch adds nothing at run time (Python folds no sum into an `if`); else ""."""
        first = bool(_NUMBER.fullmatch(left))
        number, node = (left, e.right) if first else (right, e.left)
        if not (_NUMBER.fullmatch(number) and isinstance(node, A.CondExpr)):
            return ""
        cond, then, other = (self.code(part, scope)[0] for part in (node.cond, node.then, node.other))
        if not (_NUMBER.fullmatch(then) or _NUMBER.fullmatch(other)):
            return ""

        def arm(code: str) -> str:
            if _NUMBER.fullmatch(code):
                return str(int(number) + int(code))
            return f"({number} + {code})" if first else f"({code} + {number})"

        return f"({arm(then)} if {cond} else {arm(other)})"

    def _in_family(self, left: str, op: str, right: str) -> str:
        """`position_in(c, f) > 0` as `c lies in a zone of f`: the zones of a family that is not a single zone
        count from 1, so the number is read only to be compared with 0."""
        m = _POSITION_IN.fullmatch(left)
        if m is None or (op, right) != (">", "0"):
            return ""
        if not any(z.family_id == int(m.group(2)) and z.shape != "single" for z in self.p.zones):
            return ""
        return f"(st.game.zone_family[{m.group(1)}] == {m.group(2)})"

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
