"""Common shapes of rules said the way a rulebook says them: "until every row holds 2 tokens", "the
deck is empty", "the points are odd", "half the points", "the next player clockwise becomes the start
player", "whichever of A and B has the greater power". Each recogniser looks at
the shape of an expression or statement only, never at a game's names."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from dsl import ast as A
from rulebook.model import Line
from rulebook.phrases import Arg, Noun, Phrase

if TYPE_CHECKING:
    from rulebook.sentences import Speaker

_COMPARE = ("<", "<=", ">", ">=")
_BINOP_WORDS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq"}


def _count_of(e: A.Expr) -> Optional[A.Expr]:
    """The zone `count(ZONE)` counts, for "is empty"."""
    return e.args[0] if isinstance(e, A.Call) and e.func == "count" and len(e.args) == 1 else None


def same(a: object, b: object) -> bool:
    """Whether two expressions are the same, wherever they are written."""
    if isinstance(a, A.Node) and isinstance(b, A.Node):
        return type(a) is type(b) and all(same(getattr(a, f), getattr(b, f)) for f in type(a).model_fields if f != "pos")
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def _num(e: A.Expr) -> Optional[int]:
    return e.value if isinstance(e, A.Num) else None


class Idioms:
    """The recognisers, for one speaker (its language, symbols and locals in scope)."""

    def __init__(self, sp: "Speaker") -> None:
        self.sp = sp

    def expr(self, e: A.Expr) -> Optional[Phrase]:
        if isinstance(e, A.BinOp):
            return self.empty(e) or self.odd(e) or self.half(e) or self.belongs(e) or self.same_field(e)
        if isinstance(e, A.CallComp) and e.func == "all":
            return self.all_hold(e.comp)
        if isinstance(e, A.CallComp) and e.func == "sum":
            return self.sum_of_field(e.comp)
        if isinstance(e, A.CallComp) and e.func in ("first", "last"):
            return self.first_by(e.func, e.comp)
        if isinstance(e, A.Call) and e.func in ("first", "last") and len(e.args) == 1 \
                and isinstance(e.args[0], A.Comprehension):
            return self.first_by(e.func, e.args[0])
        if isinstance(e, A.CondExpr):
            return self.greater_of(e)
        return None

    def empty(self, e: A.BinOp) -> Optional[Phrase]:
        """`count(Z) > 0` → "Z is not empty"; `count(Z) <= 0`, `== 0` → "Z is empty"."""
        zone = _count_of(e.left)
        if zone is None or not self.sp._is_zone(zone):
            return None
        if _num(e.right) == 0 and e.op in (">", "!="):
            return self.sp.msg("idiom.not_empty", e, zone=self.sp.expr(zone))
        if _num(e.right) == 0 and e.op in ("<=", "=="):
            return self.sp.msg("idiom.empty", e, zone=self.sp.expr(zone))
        if e.op in _COMPARE + ("==",) and self.sp._number(e.right) is not None:  # "holds fewer than 2 tokens"
            items = self.sp.nouns.element(zone).noun
            return self.sp.msg(f"idiom.holds_{_BINOP_WORDS[e.op]}", e, zone=self.sp.expr(zone),
                               count=self.sp.expr(e.right), items=Phrase(items.plural()))
        return None

    def belongs(self, e: A.BinOp) -> Optional[Phrase]:
        """`owner(x) != me` → "x belongs to another player"; `owner(a) == owner(b)` → "a and b belong to the
        same player"."""
        if e.op not in ("==", "!="):
            return None
        owned = e.left.args[0] if isinstance(e.left, A.Call) and e.left.func == "owner" and len(e.left.args) == 1 else None
        if owned is None:
            return None
        right = e.right
        if self.sp.is_you(right):
            return self.sp.msg("idiom.yours" if e.op == "==" else "idiom.not_yours", e, thing=self.sp.expr(owned))
        if isinstance(right, A.Call) and right.func == "owner" and len(right.args) == 1:
            key = "idiom.same_owner" if e.op == "==" else "idiom.other_owner"
            return self.sp.msg(key, e, a=self.sp.expr(owned), b=self.sp.expr(right.args[0]))
        return None

    def same_field(self, e: A.BinOp) -> Optional[Phrase]:
        """`a.F == b.F` → "a and b have the same F"; `!=` → "a and b differ in F"."""
        if e.op not in ("==", "!=") or not (isinstance(e.left, A.Attr) and isinstance(e.right, A.Attr)
                                            and e.left.name == e.right.name):
            return None
        field = self.sp.sym.fields.get(e.left.name)
        if field is None or field.text is None or self.sp.lang not in field.text.by_lang:
            return None
        noun = Noun(field.text.by_lang[self.sp.lang], self.sp.cat)
        return self.sp.msg("idiom.same_field" if e.op == "==" else "idiom.differ_field", e, a=self.sp.expr(e.left.obj),
                           b=self.sp.expr(e.right.obj), field=noun.np("bare"), same=noun.det("same"),
                           the_field=noun.np("def"))

    def odd(self, e: A.BinOp) -> Optional[Phrase]:
        """`x % 2 == 1` → "x is odd", `== 0` → "x is even"."""
        left = e.left
        if e.op != "==" or not (isinstance(left, A.BinOp) and left.op == "%" and _num(left.right) == 2) \
                or _num(e.right) not in (0, 1):
            return None
        return self.sp.msg("idiom.odd" if _num(e.right) == 1 else "idiom.even", e, value=self.sp.expr(left.left))

    def half(self, e: A.BinOp) -> Optional[Phrase]:
        """`x / 2` → "half of x, rounded down"."""
        if e.op != "/" or _num(e.right) != 2:
            return None
        return self.sp.msg("idiom.half", e, value=self.sp._operand(e.left, "/"))

    def all_hold(self, c: A.Comprehension) -> Optional[Phrase]:
        """`all(count(Z[i]) == N for i in positions(Z))` → "every Z holds N cards"."""
        sp, body, src = self.sp, c.expr, c.source
        if not (isinstance(body, A.BinOp) and body.op == "==" and isinstance(src, A.Call) and src.func == "positions"
                and src.args and isinstance(src.args[0], A.Name)):
            return None
        counted = _count_of(body.left)
        if not (isinstance(counted, A.Index) and isinstance(counted.obj, A.Name) and counted.obj.name == src.args[0].name
                and isinstance(counted.index, A.Name) and counted.index.name == c.var):
            return None
        zone = sp.nouns.zone_ref(src.args[0].name)
        items = sp.nouns.kind_of_zone(src.args[0].name).noun
        return sp.msg("idiom.all_hold", c, zone=Phrase(lambda f: zone.noun.np("each").form(f)),
                      count=sp.expr(body.right), items=Phrase(items.plural()))

    def sum_of_field(self, c: A.Comprehension) -> Optional[Phrase]:
        """`sum(c.F for c in Z)` → "the sum of the Fs of the cards in Z"."""
        sp = self.sp
        if not (isinstance(c.expr, A.Attr) and isinstance(c.expr.obj, A.Name) and c.expr.obj.name == c.var):
            return None
        args = sp._comp_args(c)
        field = sp.whose(c.var, c.expr) if c.var != "it" else None
        if field is None:
            return None
        plural = Noun(field.plural(), sp.cat).word
        return sp.msg("idiom.sum_of_field", c, field=Phrase(plural), **args)

    def first_by(self, func: str, c: A.Comprehension) -> Optional[Phrase]:
        """`first(g for g in Z by g.F)` → "the card in Z with the lowest F"."""
        sp = self.sp
        key, low = c.key, func == "first"
        if isinstance(key, A.Neg):
            key, low = key.operand, not low
        if key is None or not (isinstance(c.expr, A.Name) and c.expr.name == c.var):
            return None
        field = sp.whose(c.var, key)
        if field is None:
            return None
        args = {k: v for k, v in sp._comp_args(c).items() if k != "order"}
        return sp.msg("idiom.lowest" if low else "idiom.highest", c, field=field.np("bare"),
                      det=field.det("lowest" if low else "highest"), **args)

    def greater_of(self, e: A.CondExpr) -> Optional[Phrase]:
        """`if a.F > b.F then a else b` → "whichever of a and b has the greater F"."""
        cond = e.cond
        if not (isinstance(cond, A.BinOp) and cond.op in _COMPARE and isinstance(cond.left, A.Attr)
                and isinstance(cond.right, A.Attr) and cond.left.name == cond.right.name):
            return None
        a, b = cond.left.obj, cond.right.obj
        if not (same(e.then, a) and same(e.other, b)):
            return None
        field = self.sp.sym.fields.get(cond.left.name)
        if field is None or field.text is None or self.sp.lang not in field.text.by_lang:
            return None
        noun = Noun(field.text.by_lang[self.sp.lang], self.sp.cat)
        key = "idiom.greater_of" if cond.op in (">", ">=") else "idiom.smaller_of"
        return self.sp.msg(key, e, a=self.sp.expr(a), b=self.sp.expr(b), field=noun.np("bare"),
                           the_field=noun.np("def"))

    # ------------------------------------------------------------ statements
    def stmts(self, body: Sequence[A.Stmt], i: int) -> Optional[tuple[list[Line], int]]:
        """Sentences for the statement at `i` (and how many statements they say), where one fits."""
        s = body[i]
        if isinstance(s, A.LetRandom) and i + 1 < len(body):
            nxt = body[i + 1]
            uses = sum(1 for n in A.walk(list(body[i + 1:])) if isinstance(n, A.Name) and n.name == s.name)
            if isinstance(nxt, A.SetStmt) and isinstance(nxt.value, A.Name) and nxt.value.name == s.name and uses == 1:
                return self.sp._line("stmt.set_random", s, target=self.sp.expr(nxt.target),
                                     options=self.sp.expr(s.options)), 2
        if len(body) == 1 and isinstance(s, A.CallRule) and not s.args and s.rule in self.sp.sym.rules \
                and self.sp.sym.calls.get(s.rule) == 1:
            scope = self.sp.scope  # a phase that is a rule used nowhere else: that rule's steps (in its own scope)
            try:
                return self.sp.lines(self.sp.sym.rules[s.rule].body), 1
            finally:
                self.sp.scope = scope
        if isinstance(s, A.SetStmt) and isinstance(s.value, A.Call) and s.value.func in ("next", "previous") \
                and len(s.value.args) == 1 and same(s.value.args[0], s.target):
            return self.sp._line(f"stmt.pass_{s.value.func}", s, target=self.sp.expr(s.target)), 1
        if isinstance(s, A.Move) and not s.bottom and isinstance(s.to, A.Call) and s.to.func in self.sp.sym.zones \
                and len(s.to.args) == 1 and isinstance(s.to.args[0], A.Call) and s.to.args[0].func == "owner" \
                and len(s.to.args[0].args) == 1 and same(s.to.args[0].args[0], s.what):
            zone = self.sp.sym.zones[s.to.func]
            noun = self.sp.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            form, actor = self.sp.doer()
            args: dict[str, Arg] = {"what": self.sp.expr(s.what), "zone": noun.np("def"), "bare": noun.np("bare"),
                                    "into": self.sp.prep(s.to, "to"), **actor}
            return [Line(self.sp.text("stmt.move_to_owner", s, form, args))], 1
        return None
