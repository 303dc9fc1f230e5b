"""The sentence generator: every expression and statement of the rules language as text in one
language, composed from the catalogue's patterns with names and numbers from the rules."""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from dsl import ast as A
from rulebook.model import Line
from rulebook.phrases import (
    CASES,
    PLACEHOLDER,
    Arg,
    Catalogue,
    MissingRendering,
    Noun,
    Phrase,
    agreement,
    catalogue,
    fill,
    pick,
)

_BINOPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "==": "eq", "!=": "ne", "<": "lt",
           "<=": "le", ">": "gt", ">=": "ge", "and": "and", "or": "or"}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", "<=": ">", ">": "<="}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
_SPECIAL_NAMES = ("me", "players", "player_count", "round", "self")
_NUMBERS = ("player_count", "round")
_NUMBER_CALLS = ("count", "sum", "min", "max", "abs", "position", "graph_distance")


def _is_me(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.name == "me"


class Symbols:
    """The named parts of a ruleset, looked up by the generator for their display texts."""

    def __init__(self, items: Iterable[A.Node]) -> None:
        self.zones: dict[str, A.ZoneDef] = {}
        self.consts: dict[str, A.ConstDef] = {}
        self.vars: dict[str, A.VarDef] = {}
        self.currencies: dict[str, A.CurrencyDef] = {}
        self.functions: dict[str, A.FunctionDef] = {}
        self.rules: dict[str, A.RuleDef] = {}
        self.actions: dict[str, A.ActionDef] = {}
        self.kinds: dict[str, A.KindDef] = {}
        self.enums: dict[str, A.EnumDef] = {}
        self.enum_values: dict[str, A.Text] = {}
        self.fields: dict[str, A.FieldDef] = {}
        tables: dict[type, dict[str, Any]] = {
            A.ZoneDef: self.zones, A.ConstDef: self.consts, A.VarDef: self.vars, A.CurrencyDef: self.currencies,
            A.FunctionDef: self.functions, A.RuleDef: self.rules, A.ActionDef: self.actions,
            A.KindDef: self.kinds, A.EnumDef: self.enums}
        for item in items:
            table = tables.get(type(item))
            if table is not None:
                table[getattr(item, "name")] = item
            if isinstance(item, A.EnumDef):
                self.enum_values.update({v.name: v.text for v in item.values})
            if isinstance(item, A.KindDef):
                for f in item.fields:
                    self.fields.setdefault(f.name, f)


_CONDITION_CALLS = ("any", "all", "contains", "revealed")


def is_condition(e: A.Expr) -> bool:
    """Whether an expression reads as a clause (a truth value) rather than a noun."""
    return (isinstance(e, A.BinOp) and e.op in ("==", "!=", "<", "<=", ">", ">=", "and", "or")) \
        or isinstance(e, (A.Not, A.BoolLit)) \
        or (isinstance(e, (A.Call, A.CallComp)) and e.func in _CONDITION_CALLS)


def text_of(text: Optional[A.Text], lang: str, what: str, pos: A.Pos) -> str:
    """A display text in a language; a name without one cannot appear in a rulebook."""
    if text is None or lang not in text.by_lang:
        raise MissingRendering(pos, f"{what} has no display text",
                               f'give it one, as in {what.split()[0]} NAME … de "…" en "…"')
    return text.by_lang[lang]


class Speaker:
    """Renders AST nodes in one language; `it_kind` is the kind a modifier's `it` stands for."""

    def __init__(self, lang: str, symbols: Symbols) -> None:
        self.lang = lang
        self.cat: Catalogue = catalogue(lang)
        self.sym = symbols
        self.it_kind: Optional[str] = None
        self.sources: dict[str, A.Expr] = {}  # variable → the list, zone or family it is drawn from

    # ------------------------------------------------------------ helpers
    def msg(self, key: str, node: Optional[A.Node], /, **args: Arg) -> Phrase:
        pattern = self.cat.pattern(key, node.pos if node else None)
        return Phrase(lambda f: fill(pattern, f, args), agreement(self.cat, pattern, args))

    def sentence(self, key: str, node: Optional[A.Node], form: str = "default", **args: Arg) -> str:
        return self.text(key, node, form, args)

    def text(self, key: str, node: Optional[A.Node], form: str, args: Mapping[str, Arg]) -> str:
        return self.cat.polish(self.msg(key, node, **args).form(form))

    @staticmethod
    def var(name: str) -> str:
        """A variable of the rules (parameter, loop variable, `let`), marked *like this* in the text:
        Markdown shows it in italics, the HTML template as <var>."""
        return f"*{name}*"

    @staticmethod
    def literal(text: str) -> str:
        """Text from the rules file inside a sentence, with its asterisks kept literal."""
        return text.replace("*", "\\*")

    def noun(self, text: Optional[A.Text], what: str, pos: A.Pos) -> Noun:
        return Noun(text_of(text, self.lang, what, pos), self.cat)

    def word(self, key: str, form: str = "nom") -> str:
        """A word of the catalogue; a table of forms gives e.g. French lists their "et à" (form dat)."""
        return pick(self.cat.pattern(f"word.{key}"), form)

    def join(self, parts: Sequence[Arg], last: str = "list_last") -> Phrase:
        """`a, b and c`, each part in the asked-for form."""
        def make(f: str) -> str:
            texts = [p if isinstance(p, str) else p.form(f) for p in parts]
            if len(texts) < 2:
                return "".join(texts)
            return self.word("list_sep", f).join(texts[:-1]) + self.word(last, f) + texts[-1]
        return Phrase(make, "pl" if len(parts) > 1 else "")  # "a and b" is plural

    def quoted(self, text: str) -> str:
        return fill(self.cat.pattern("expr.string"), "nom", {"value": self.literal(text)})

    def rule_title(self, name: str, pos: A.Pos) -> str:
        rule = self.sym.rules.get(name)
        if rule is None:
            raise MissingRendering(pos, f"no rule '{name}' to name")
        return text_of(rule.text, self.lang, f"rule '{name}'", rule.pos)

    def action_title(self, name: str, pos: A.Pos) -> str:
        action = self.sym.actions.get(name)
        if action is None:
            raise MissingRendering(pos, f"no action '{name}' to name")
        return text_of(action.text, self.lang, f"action '{name}'", action.pos)

    # ------------------------------------------------------------ expressions
    def expr(self, e: A.Expr) -> Phrase:
        method: Callable[[A.Expr], Phrase] = getattr(self, f"_e_{type(e).__name__}")
        return method(e)

    def _e_Num(self, e: A.Num) -> Phrase:
        return Phrase(str(e.value).replace("-", "−"))

    def _e_Str(self, e: A.Str) -> Phrase:
        return Phrase(self.quoted(e.value))

    def _e_BoolLit(self, e: A.BoolLit) -> Phrase:
        return Phrase(self.word("true" if e.value else "false"))

    def _e_Name(self, e: A.Name) -> Phrase:
        name, sym = e.name, self.sym
        if name == "it" and self.it_kind in sym.kinds:
            kind = sym.kinds[self.it_kind]
            return self.noun(kind.title, f"kind '{kind.name}'", kind.pos).np("def")
        if name == "me":  # the reader: a verb takes its `FORM_you`, where a pattern has one
            return Phrase(self.msg("name.me", e).form, "you")
        if name in _SPECIAL_NAMES:
            return self.msg(f"name.{name}", e)
        if name in sym.zones:
            zone = sym.zones[name]
            return self.noun(zone.text, f"zone '{name}'", zone.pos).np("def" if zone.shape == "single" else "each")
        if name in sym.consts:
            return self.expr(sym.consts[name].value)  # a constant shows its value
        if name in sym.vars:
            var = sym.vars[name]
            return self.noun(var.text, f"var '{name}'", var.pos).np("def")
        if name in sym.enum_values:
            return Phrase(text_of(sym.enum_values[name], self.lang, f"value '{name}'", e.pos))
        if name in sym.enums:
            enum = sym.enums[name]
            return self.noun(enum.title, f"enum '{name}'", enum.pos).np("def")
        if name in sym.functions and not sym.functions[name].params:
            return self.function_phrase(sym.functions[name], [], e)
        return Phrase(self.var(name))  # a local: a parameter, loop variable or `let`

    def function_phrase(self, fn: A.FunctionDef, args: Sequence[Arg], at: A.Node,
                        nodes: Sequence[A.Expr] = ()) -> Phrase:
        """A function's text names its value; `{param}` places in it take the arguments, otherwise
        they follow as "of …". A condition's text is a clause (main-clause order)."""
        noun = self.noun(fn.text, f"function '{fn.name}'", fn.pos)
        name = noun.np("def" if noun.gender != "default" or not is_condition(fn.body) else "bare")
        if "{" in noun.word or "}" in noun.word:
            self._check_slots(noun.word, fn)
            values = dict(zip((p.name for p in fn.params), args))
            for param, node in zip(fn.params, nodes):
                card = self._place_of(node, noun.word, param.name)
                if card is not None:
                    values[param.name] = self.msg("expr.place_of_card", node, card=card)
            clause = Phrase(lambda f: fill(name.form(f), "nom", values), name.agree)  # no case: nominative
            return self.msg("expr.clause", at, clause=clause) if is_condition(fn.body) else clause
        if not args:
            return name
        return self.msg("expr.function", at, name=name, args=self.join(list(args)))

    def _place_of(self, node: A.Expr, text: str, param: str) -> Optional[Phrase]:
        """`ZONE {i}` in a function's text, given `position(c)`: the zone is the one `c` lies in, so
        the text says "ZONE of c" rather than "ZONE the place number of c"."""
        if not (isinstance(node, A.Call) and node.func == "position" and len(node.args) == 1):
            return None
        zone = self.sym.zones.get(self.family_of(node.args[0]) or "")
        if zone is None or zone.text is None:
            return None
        before = re.split(r"\{" + param + r"(?::\w+)?\}", text)[0].rstrip()
        word = Noun(text_of(zone.text, self.lang, f"zone '{zone.name}'", zone.pos), self.cat).word
        return self.expr(node.args[0]) if before.endswith(word) else None

    def bind(self, name: str, source: A.Expr) -> None:
        """Remembers where a parameter or loop variable takes its values from."""
        self.sources[name] = source

    def family_of(self, e: A.Expr) -> Optional[str]:
        """The zone family a card lies in, where the rules make it certain: a variable drawn from the
        family's cards, or a modifier's card whose kind only one family holds."""
        if isinstance(e, A.Name) and e.name == "it" and self.it_kind:
            held = [z.name for z in self.sym.zones.values() if z.shape == "indexed" and z.kind == self.it_kind]
            return held[0] if len(held) == 1 else None
        if isinstance(e, A.Name) and e.name in self.sources:
            return self.family_of(self.sources[e.name])
        if isinstance(e, A.Comprehension):
            return self.family_of(e.source)
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1:
            e = e.args[0]
        if isinstance(e, A.Index):
            e = e.obj
        found = e.name if isinstance(e, A.Name) else None
        return found if found in self.sym.zones and self.sym.zones[found].shape == "indexed" else None

    def _check_slots(self, text: str, fn: A.FunctionDef) -> None:
        """A function text's `{param}` and `{param:case}` places must name its parameters and cases."""
        params = [p.name for p in fn.params]
        pos = fn.text.pos if fn.text else fn.pos
        for m in PLACEHOLDER.finditer(text):
            if m.group(1) not in params:
                raise MissingRendering(pos, f"the {self.lang} text of function '{fn.name}' has a place "
                                       f"{{{m.group(1)}}}, but the function has no such parameter",
                                       f"its parameters: {', '.join(params) or 'none'}")
            if m.group(2) and m.group(2) not in CASES:
                raise MissingRendering(pos, f"the {self.lang} text of function '{fn.name}' asks for an unknown "
                                       f"case '{m.group(2)}'", f"write one of {', '.join(CASES)}")
        if "{" in PLACEHOLDER.sub("", text) or "}" in PLACEHOLDER.sub("", text):
            raise MissingRendering(pos, f"the {self.lang} text of function '{fn.name}' has an unmatched brace",
                                   "write a parameter's place as {name} or {name:dat}")

    def _e_Attr(self, e: A.Attr) -> Phrase:
        sym = self.sym
        if isinstance(e.obj, A.Name) and e.obj.name in sym.enums:  # `role.countess`: the value itself
            value = next((v for v in sym.enums[e.obj.name].values if v.name == e.name), None)
            if value is not None:
                return Phrase(text_of(value.text, self.lang, f"value '{e.name}'", e.pos))
        owned = sym.currencies.get(e.name) or (sym.vars.get(e.name) if sym.vars.get(e.name, None) is not None
                                               and sym.vars[e.name].per_player else None)
        if owned is not None:
            part = "currency" if isinstance(owned, A.CurrencyDef) else "var"
            noun = self.noun(owned.text, f"{part} '{e.name}'", owned.pos)
        elif self.it_kind and isinstance(e.obj, A.Name) and e.obj.name == "it" \
                and any(f.name == e.name for f in sym.kinds[self.it_kind].fields):
            fdef = next(f for f in sym.kinds[self.it_kind].fields if f.name == e.name)
            noun = self.noun(fdef.text, f"field '{e.name}'", fdef.pos)
        elif e.name in sym.fields:
            noun = self.noun(sym.fields[e.name].text, f"field '{e.name}'", sym.fields[e.name].pos)
        else:
            return self.msg("expr.field_of_any", e, field=e.name, obj=self.expr(e.obj))
        if isinstance(e.obj, A.Name) and e.obj.name == "me":
            return noun.np("your")
        return self.msg("expr.field_of", e, field=noun.np("def"), obj=self.expr(e.obj))

    def _e_Index(self, e: A.Index) -> Phrase:
        if isinstance(e.obj, A.Name) and e.obj.name in self.sym.zones:
            zone = self.sym.zones[e.obj.name]
            noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            where = e.index
            if isinstance(where, A.Call) and where.func == "position" and len(where.args) == 1:
                # the zone of a family that holds the card: "the slot of c"
                return self.msg("expr.zone_of_card", e, zone=noun.np("def"), card=self.expr(where.args[0]))
            return self.msg("expr.zone_index", e, zone=noun.np("def"), index=self.expr(where).form("nom"))
        if isinstance(e.obj, A.Name) and e.obj.name in self.sym.consts:
            const = self.sym.consts[e.obj.name]
            noun = self.noun(const.text, f"const '{const.name}'", const.pos)
            return self.msg("expr.map_of", e, name=noun.np("def"), table=self.table(const.value),
                            index=self.expr(e.index))
        return self.msg("expr.item_of", e, obj=self.expr(e.obj), index=self.expr(e.index))

    def table(self, value: A.Expr) -> Phrase:
        if isinstance(value, A.MapLit):
            return self.join([self.msg("expr.map_item", value, key=self.expr(k), value=self.expr(v))
                              for k, v in value.items], "list_sep")
        return self.expr(value)

    def _e_Call(self, e: A.Call) -> Phrase:
        sym = self.sym
        if e.func in sym.zones:
            zone = sym.zones[e.func]
            noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            if e.args and isinstance(e.args[0], A.Name) and e.args[0].name == "me":
                return noun.np("your")
            return self.msg("expr.zone_of", e, zone=noun.np("def"),
                            player=self.join([self.expr(a) for a in e.args]))
        if e.func in sym.functions:
            return self.function_phrase(sym.functions[e.func], [self.expr(a) for a in e.args], e, e.args)
        if len(e.args) == 1 and isinstance(e.args[0], A.Comprehension) and self.cat.has(f"comp.{e.func}"):
            return self.msg(f"comp.{e.func}", e, **self._comp_args(e.args[0]))  # first([g for g in …])
        key = e.func + ("2" if e.func in ("min", "max") and len(e.args) == 2 else
                        "_item" if e.func in ("first", "last") and e.args and not self._is_zone(e.args[0]) else "")
        return self.msg(f"prim.{key}", e, **{str(i): self.expr(a) for i, a in enumerate(e.args)})

    def _is_zone(self, e: A.Expr) -> bool:
        """Whether an expression names a zone (its items are cards), not a list of other things."""
        zones = self.sym.zones
        return (isinstance(e, A.Name) and e.name in zones) or (isinstance(e, A.Call) and e.func in zones) \
            or (isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in zones)

    def _comp_args(self, c: A.Comprehension) -> dict[str, Arg]:
        return {"expr": self.expr(c.expr), "var": self.var(c.var), "source": self.expr(c.source),
                "filter": self.msg("expr.filter", c, cond=self.expr(c.cond)) if c.cond else "",
                "order": self.msg("expr.order", c, key=self.expr(c.key)) if c.key else ""}

    def _e_Comprehension(self, e: A.Comprehension) -> Phrase:
        plain = isinstance(e.expr, A.Name) and e.expr.name == e.var
        return self.msg("expr.comprehension_self" if plain else "expr.comprehension", e, **self._comp_args(e))

    def _e_CallComp(self, e: A.CallComp) -> Phrase:
        if self.cat.has(f"comp.{e.func}"):
            return self.msg(f"comp.{e.func}", e, **self._comp_args(e.comp))
        return self.msg(f"prim.{e.func}", e, **{"0": self._e_Comprehension(e.comp)})

    def _e_BinOp(self, e: A.BinOp) -> Phrase:
        key = f"expr.{_BINOPS[e.op]}"
        if self._numeric(e.right) and self.cat.has(f"{key}_num"):  # a language's own "equals 3"
            key += "_num"
        left, right = e.left, e.right
        pattern = self.cat.pattern(key, e.pos)
        if _is_me(right) and not _is_me(left) and isinstance(pattern, dict) and "main_you" in pattern:
            left, right = right, left  # "vous êtes le propriétaire", not "le propriétaire est vous"
        return self.msg(key, e, left=self._operand(left, e.op), right=self._operand(right, e.op, right=True))

    def _numeric(self, e: A.Expr) -> bool:
        """Whether an expression is a number, as far as the rules' declarations tell."""
        sym = self.sym
        if isinstance(e, (A.Num, A.Neg)) or (isinstance(e, A.BinOp) and e.op in _PRECEDENCE):
            return True
        if isinstance(e, A.Name):
            if e.name in sym.consts:
                return self._numeric(sym.consts[e.name].value)
            fn = sym.functions.get(e.name)
            return e.name in _NUMBERS or (e.name in sym.vars and sym.vars[e.name].type.name == "int") \
                or (fn is not None and not fn.params and self._numeric(fn.body))
        if isinstance(e, A.Attr):
            field = sym.fields.get(e.name) or sym.vars.get(e.name)
            return e.name in sym.currencies or (field is not None and field.type.name == "int")
        if isinstance(e, (A.Call, A.CallComp)):
            fn = sym.functions.get(e.func)
            return e.func in _NUMBER_CALLS or (fn is not None and self._numeric(fn.body))
        return isinstance(e, A.CondExpr) and self._numeric(e.then)

    def _operand(self, e: A.Expr, parent: str = "", right: bool = False) -> Phrase:
        """Brackets where words alone would leave the grouping open: an if-then-else inside an
        operation, a sum inside a product, any arithmetic inside a division or remainder."""
        inner = self.expr(e)
        op = e.op if isinstance(e, A.BinOp) else ""
        child, outer = _PRECEDENCE.get(op, 0), _PRECEDENCE.get(parent, 0)
        bracket = isinstance(e, A.CondExpr) or (child > 0 and outer > 0 and (
            child < outer or parent in ("/", "%") or op in ("/", "%") or (right and parent == "-")))
        return Phrase(lambda f: f"({inner.form(f)})") if bracket else inner

    def _e_Not(self, e: A.Not) -> Phrase:
        inner = e.operand
        if isinstance(inner, A.BinOp) and inner.op in _NEGATED:
            return self.expr(inner.model_copy(update={"op": _NEGATED[inner.op]}))
        if isinstance(inner, A.Call) and self.cat.has(f"not.{inner.func}"):
            return self.msg(f"not.{inner.func}", e, **{str(i): self.expr(a) for i, a in enumerate(inner.args)})
        if isinstance(inner, A.CallComp) and self.cat.has(f"not.{inner.func}"):
            return self.msg(f"not.{inner.func}", e, **self._comp_args(inner.comp))
        return self.msg("expr.not", e, operand=self.expr(inner))

    def _e_Neg(self, e: A.Neg) -> Phrase:
        if isinstance(e.operand, A.Num):
            return Phrase(f"−{e.operand.value}")
        return self.msg("expr.neg", e, operand=self.expr(e.operand))

    def _e_CondExpr(self, e: A.CondExpr) -> Phrase:
        return self.msg("expr.cond", e, cond=self.expr(e.cond), then=self.expr(e.then), other=self.expr(e.other))

    def _e_ListLit(self, e: A.ListLit) -> Phrase:
        if not e.items:
            return self.msg("expr.empty_list", e)
        return self.msg("expr.list", e, items=self.join([self.expr(i) for i in e.items]))

    def _e_MapLit(self, e: A.MapLit) -> Phrase:
        return self.msg("expr.map", e, items=self.table(e))

    def signed(self, e: A.Expr) -> Phrase:
        """A modifier's amount: +3, −2, or the expression."""
        if isinstance(e, A.Num):
            return Phrase(f"+{e.value}" if e.value >= 0 else f"−{-e.value}")
        if isinstance(e, A.Neg) and isinstance(e.operand, A.Num):
            return Phrase(f"−{e.operand.value}")
        return self.expr(e)

    # ------------------------------------------------------------ statements
    def lines(self, body: Sequence[A.Stmt]) -> list[Line]:
        out: list[Line] = []
        for s in body:
            method: Callable[[A.Stmt], list[Line]] = getattr(self, f"_s_{type(s).__name__}")
            out.extend(method(s))
        return out

    def _line(self, key: str, s: A.Node, form: str = "default", children: Optional[list[Line]] = None,
              note: Optional[str] = None, **args: Arg) -> list[Line]:
        return [Line(self.text(key, s, form, args), children or [], note)]

    @staticmethod
    def _subject(seat: Optional[A.Expr]) -> str:
        return "you" if isinstance(seat, A.Name) and seat.name == "me" else "default"

    def _s_Let(self, s: A.Let) -> list[Line]:
        return self._line("stmt.let_cond" if is_condition(s.value) else "stmt.let", s, name=self.var(s.name),
                          value=self.expr(s.value))

    def _s_LetChoose(self, s: A.LetChoose) -> list[Line]:
        return self._line("stmt.let_choose", s, self._subject(s.seat), seat=self.expr(s.seat), name=self.var(s.name),
                          options=self.expr(s.options))

    def _s_LetRandom(self, s: A.LetRandom) -> list[Line]:
        return self._line("stmt.let_random", s, name=self.var(s.name), options=self.expr(s.options))

    def _s_SetStmt(self, s: A.SetStmt) -> list[Line]:
        return self._line("stmt.set", s, target=self.expr(s.target), value=self.expr(s.value))

    def _s_Move(self, s: A.Move) -> list[Line]:
        return self._line("stmt.move_bottom" if s.bottom else "stmt.move", s, what=self.expr(s.what),
                          to=self.expr(s.to))

    def _number(self, e: A.Expr) -> Optional[int]:
        """The value of a number written directly or through a constant, for "3 cards"."""
        if isinstance(e, A.Name) and e.name in self.sym.consts:
            return self._number(self.sym.consts[e.name].value)
        return e.value if isinstance(e, A.Num) else None

    def _s_Draw(self, s: A.Draw) -> list[Line]:
        n = 1 if s.count is None else self._number(s.count)
        args: dict[str, Arg] = {"source": self.expr(s.source), "to": self.expr(s.to)}
        if n != 1 and s.count is not None:
            args["count"] = self.expr(s.count)
        return [Line(self.text("stmt.draw_one" if n == 1 else "stmt.draw" if n is not None else "stmt.draw_expr", s,
                               "default", args))]

    def _s_Reveal(self, s: A.Reveal) -> list[Line]:
        if s.to is None:
            return self._line("stmt.reveal", s, what=self.expr(s.what))
        to = s.to.items[0] if isinstance(s.to, A.ListLit) and len(s.to.items) == 1 else s.to
        seats = self.join([self.expr(i) for i in to.items]) if isinstance(to, A.ListLit) and to.items \
            else self.expr(to)  # "to p and q", not "to the list p and q"
        return self._line("stmt.reveal_to", s, self._subject(to), what=self.expr(s.what), to=seats)

    def _party(self, party: Optional[A.Expr], at: A.Node) -> Phrase:
        return self.msg("name.bank", at) if party is None else self.expr(party)

    def _s_Pay(self, s: A.Pay) -> list[Line]:
        cur = self.sym.currencies.get(s.currency)
        if cur is None:
            raise MissingRendering(s.pos, f"no currency '{s.currency}' to name")
        currency = self.noun(cur.text, f"currency '{cur.name}'", cur.pos).np("bare")
        available: Arg = self.msg("stmt.available", s) if s.at_most_available else ""
        key = "stmt.pay" if self._number(s.amount) is not None else "stmt.pay_expr"
        return self._line(key, s, self._subject(s.payer), payer=self._party(s.payer, s),
                          payee=self._party(s.payee, s), amount=self.expr(s.amount), currency=currency,
                          available=available)

    def _s_If(self, s: A.If, key: str = "stmt.if") -> list[Line]:
        out = self._line(key, s, "sub", children=self.lines(s.then), cond=self.expr(s.cond))
        if len(s.other) == 1 and isinstance(s.other[0], A.If):
            return out + self._s_If(s.other[0], "stmt.else_if")
        if s.other:
            out += self._line("stmt.else", s, children=self.lines(s.other))
        return out

    def _s_For(self, s: A.For) -> list[Line]:
        self.bind(s.var, s.source)
        body = self.lines(s.body)
        src = s.source
        if isinstance(src, A.Comprehension) and isinstance(src.expr, A.Name) and src.expr.name == src.var == s.var:
            return [Line(self.text("stmt.for_filtered", s, "default", self._comp_args(src)), body)]
        if isinstance(src, A.Name) and src.name == "players":
            return self._line("stmt.for_players", s, children=body, var=self.var(s.var))
        if isinstance(src, A.Call) and src.func == "positions" and len(src.args) == 1 \
                and isinstance(src.args[0], A.Name) and src.args[0].name in self.sym.zones:
            zone = self.sym.zones[src.args[0].name]
            each = self.noun(zone.text, f"zone '{zone.name}'", zone.pos).np("each")
            return self._line("stmt.for_positions", s, children=body, var=self.var(s.var), zone=each)
        return self._line("stmt.for", s, children=body, var=self.var(s.var), source=self.expr(src))

    def _s_While(self, s: A.While) -> list[Line]:
        return self._line("stmt.while", s, children=self.lines(s.body), cond=self.expr(s.cond))

    def _s_Repeat(self, s: A.Repeat) -> list[Line]:
        key = "stmt.repeat" if self._number(s.count) is not None else "stmt.repeat_expr"
        return self._line(key, s, children=self.lines(s.body), count=self.expr(s.count))

    def _s_Break(self, s: A.Break) -> list[Line]:
        return self._line("stmt.break", s)

    def _actions(self, names: Sequence[str], at: A.Node) -> Phrase:
        return self.join([self.quoted(self.action_title(n, at.pos)) for n in names], "choice_last")

    def _s_ChooseAction(self, s: A.ChooseAction) -> list[Line]:
        return self._line("stmt.choose_action", s, self._subject(s.seat), seat=self.expr(s.seat),
                          actions=self._actions(s.actions, s))

    def _s_CallRule(self, s: A.CallRule) -> list[Line]:
        title = self.rule_title(s.rule, s.pos)
        if s.args:
            return self._line("stmt.call_args", s, rule=title, args=self.join([self.expr(a) for a in s.args]))
        return self._line("stmt.call", s, rule=title)

    def _s_Run(self, s: A.Run) -> list[Line]:
        if s.as_self is not None:
            if s.by is not None:
                return self._line("stmt.run_by_as", s, self._subject(s.by), by=self.expr(s.by),
                                  target=self.expr(s.target), card=self.expr(s.as_self))
            return self._line("stmt.run_as", s, target=self.expr(s.target), card=self.expr(s.as_self))
        if s.by is not None:
            return self._line("stmt.run_by", s, self._subject(s.by), by=self.expr(s.by), target=self.expr(s.target))
        return self._line("stmt.run", s, target=self.expr(s.target))

    def _s_Modify(self, s: A.Modify) -> list[Line]:
        kind = self.sym.kinds.get(s.kind)
        if kind is None:
            raise MissingRendering(s.pos, f"no kind '{s.kind}' to name")
        knoun = self.noun(kind.title, f"kind '{kind.name}'", kind.pos)
        fdef = next((f for f in kind.fields if f.name == s.field), None)
        if fdef is None:
            raise MissingRendering(s.pos, f"kind '{kind.name}' has no field '{s.field}'")
        fnoun = self.noun(fdef.text, f"field '{fdef.name}'", fdef.pos)
        outer, self.it_kind = self.it_kind, s.kind
        try:
            where: Arg = self.msg("stmt.modify_where", s, cond=self.expr(s.where), rel=knoun.det("rel")) \
                if s.where else ""
            value = self.signed(s.value) if s.mode == "by" else self.expr(s.value)
        finally:
            self.it_kind = outer
        return self._line(f"stmt.modify_{s.mode}", s, until=self.msg(f"until.{s.until}", s), kind=knoun.np("each"),
                          where=where, value=value, field=fnoun.np("bare"), the_field=fnoun.np("def"))

    def _s_Forbid(self, s: A.Forbid) -> list[Line]:
        where: Arg = self.msg("stmt.forbid_where", s, cond=self.expr(s.where)) if s.where else ""
        return self._line("stmt.forbid", s, until=self.msg(f"until.{s.until}", s),
                          actions=self._actions(s.actions, s), where=where)

    def _s_Turns(self, s: A.Turns) -> list[Line]:
        body = self.lines(s.body)
        if s.skip is not None:
            body = self._line("stmt.turns_skip", s, var=self.var(s.var), skip=self.expr(s.skip)) + body
        return self._line("stmt.turns", s, children=body, var=self.var(s.var), start=self.expr(s.start),
                          until=self.expr(s.until))

    def _s_TurnsIn(self, s: A.TurnsIn) -> list[Line]:
        return self._line("stmt.turns_in", s, children=self.lines(s.body), var=self.var(s.var), order=self.expr(s.order))

    def _s_Log(self, s: A.Log) -> list[Line]:
        text = self.literal(text_of(s.text, self.lang, "log", s.pos))
        return self._line("stmt.log", s, text=PLACEHOLDER.sub(lambda m: self.var(m.group(1)), text))

    def _s_Require(self, s: A.Require) -> list[Line]:
        note = text_of(s.text, self.lang, "require", s.pos) if s.text else None
        return self._line("stmt.require", s, note=note, cond=self.expr(s.cond))

    def _s_NamedStep(self, s: A.NamedStep) -> list[Line]:
        return self.lines(s.body)  # the name is for modders, not for the prose

    def _s_Give(self, s: A.Give) -> list[Line]:
        return self._line("stmt.give", s, self._subject(s.to), what=self.expr(s.what), to=self.expr(s.to))

    def _s_EndGame(self, s: A.EndGame) -> list[Line]:
        return self._line("stmt.end", s)

    def _s_Emit(self, s: A.Emit) -> list[Line]:
        if s.args:
            return self._line("stmt.emit_args", s, event=s.event, args=self.join([self.expr(a) for a in s.args]))
        return self._line("stmt.emit", s, event=s.event)

    # ------------------------------------------------------------ definitions
    def event(self, t: A.TriggerDef) -> Phrase:
        args = {str(i): Phrase(self.var(p)) for i, p in enumerate(t.params)}
        if self.cat.has(f"event.{t.event}"):
            return self.msg(f"event.{t.event}", t, **args)
        if t.params:
            return self.msg("event.other", t, event=t.event, args=self.join([self.var(p) for p in t.params]))
        return self.msg("event.other_plain", t, event=t.event)
