"""Common shapes of rules said the way a rulebook says them: "until every row holds 2 tokens", "the
deck is empty", "the points are odd", "half the points", "the next player clockwise becomes the start
player", "whichever of A and B has the greater power". Each recogniser looks at
the shape of an expression or statement only, never at a game's names."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from dsl import ast as A
from rulebook.model import Line
from rulebook.order import same, tells_in_place
from rulebook.phrases import Arg, Noun, Phrase, pick
from rulebook.referents import Ref, conjoin, other_than

if TYPE_CHECKING:
    from rulebook.sentences import Speaker

_COMPARE = ("<", "<=", ">", ">=")
_FIELD_COMPARE = {"==": "same_field", "!=": "differ_field", "<": "less_field", "<=": "at_most_field",
                  ">": "more_field", ">=": "at_least_field"}
_BINOP_WORDS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq"}


def yes_or_no(e: A.Expr) -> bool:
    """Whether a choice's options are the two truth values: a decision whether something happens."""
    return isinstance(e, A.ListLit) and len(e.items) == 2 and all(isinstance(i, A.BoolLit) for i in e.items) \
        and {i.value for i in e.items if isinstance(i, A.BoolLit)} == {True, False}


def _count_of(e: A.Expr) -> Optional[A.Expr]:
    """The zone `count(ZONE)` counts, for "is empty"."""
    return e.args[0] if isinstance(e, A.Call) and e.func == "count" and len(e.args) == 1 else None


def _is_it(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.name == "it"


def _num(e: A.Expr) -> Optional[int]:
    return e.value if isinstance(e, A.Num) else None


class Idioms:
    """The recognisers, for one speaker (its language, symbols and locals in scope)."""

    def __init__(self, sp: "Speaker") -> None:
        self.sp = sp

    def expr(self, e: A.Expr) -> Optional[Phrase]:
        if isinstance(e, A.BinOp):
            return self.empty(e) or self.placed(e) or self.odd(e) or self.half(e) or self.belongs(e) or self.same_field(e) \
                or self.can_pay(e) or self.owns(e)
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
        if isinstance(e, A.Call) and e.func in ("max", "min") and len(e.args) == 2:
            return self.bounded(e)
        return None

    def bounded(self, e: A.Call) -> Optional[Phrase]:
        """`max(0, x)` → "x (never less than 0)"; `min(cost, chips)` → "the cost (never more than the chips)",
        the fixed number or constant being the bound, else the second value."""
        fixed = [a for a in e.args if _num(a) is not None or isinstance(a, A.Name) and a.name in self.sp.sym.consts
                 and a.name not in self.sp.scope.refs]
        bound = fixed[0] if len(fixed) == 1 else e.args[1] if not fixed and e.func == "min" else None
        value = e.args[0] if bound is e.args[1] else e.args[1]
        if bound is None or isinstance(value, (A.BinOp, A.CondExpr, A.Neg)):
            return None
        return self.sp.msg(f"idiom.at_{'least' if e.func == 'max' else 'most'}", e, value=self.sp.expr(value),
                           bound=self.sp.expr(bound))

    def empty(self, e: A.BinOp) -> Optional[Phrase]:
        """`count(Z) > 0`, `>= 1` → "Z is not empty"; `count(Z) <= 0`, `== 0`, `< 1` → "Z is empty"; of a list
        with its own plural noun, "there are (no) allowed cards"."""
        zone = _count_of(e.left)
        n = self.sp._number(e.right)  # through a constant too: `count(Z) < size` with size 1 is "Z is empty"
        some = (n == 0 and e.op in (">", "!=")) or (n == 1 and e.op == ">=")
        none = (n == 0 and e.op in ("<=", "==")) or (n == 1 and e.op == "<")
        if zone is None:
            return self.counted(e.left, some) if some or none else self.counted_as(e)
        if some or none:
            noun = self.plural_noun(zone)
            if noun is not None:
                return self.sp.msg("idiom.some" if some else "idiom.none", e, zone=self.sp.expr(zone),
                                   bare=noun.np("bare"), some=noun.np("some"))
            if some and (there := self.some_in(zone)) is not None:
                return there
            if some and (item := self.one_of_list(zone)) is not None:
                return item
            listed = self.listed_plural(zone)
            if listed is not None:  # "there are face-down tiles visible from the row", not "… are not empty"
                return self.sp.msg("idiom.some_list" if some else "idiom.none_list", e, zone=self.sp.expr(zone),
                                   bare=listed)
            held = self.held_by(zone)
            if held is not None:  # "you have a joker", not "your jokers are not empty"
                return self.sp.msg("idiom.has_a" if some else "idiom.has_none", e, owner=self.sp.expr(held[0]),
                                   item=held[1].np("indef"), bare=Phrase(held[1].plural(), "pl"))
            owned = self.held_plural(zone)
            if owned is not None:  # "the player has spent tokens", not "their spent tokens are not empty"
                return self.sp.msg("idiom.has_some" if some else "idiom.has_none", e, owner=self.sp.expr(owned[0]),
                                   some=owned[1].np("some"), bare=owned[1].np("bare"))
            if isinstance(zone, A.Comprehension) and zone.cond is not None and zone.key is None \
                    and isinstance(zone.expr, A.Name) and zone.expr.name == zone.var:  # "the bag holds a token whose …"
                found: A.Expr = A.CallComp(pos=zone.pos, func="any", comp=A.Comprehension(
                    pos=zone.pos, expr=zone.cond, var=zone.var, source=zone.source))
                return self.sp.expr(found if some else A.Not(pos=e.pos, operand=found))
            return self.sp.msg("idiom.not_empty" if some else "idiom.empty", e, zone=self.sp.expr(zone))
        if not self.sp._is_zone(zone):  # a list local counted: "there are at least 2 carried players"
            return self.counted_as(e, zone)
        if e.op in _COMPARE + ("==",) and n is not None:  # "holds exactly 2 tokens"
            op, count = ("<=", Phrase(str(n - 1))) if e.op == "<" and isinstance(e.right, A.Num) \
                else (">=", Phrase(str(n + 1))) if e.op == ">" and n == 1 and isinstance(e.right, A.Num) \
                else (e.op, self.sp.expr(e.right))  # "< 2" is "at most 1", "> 1" "at least 2", as a rulebook says it
            shown = n - 1 if op == "<=" and e.op == "<" else n + 1 if op != e.op else n
            one = shown == 1  # "exactly 1 token", "fewer than 1 card" (a noun after the number 1 is singular)
            items = self.sp.nouns.element(zone).noun
            return self.sp.msg(f"idiom.holds_{_BINOP_WORDS[op]}", e, zone=self.sp.expr(zone), at=self.sp.prep(zone, "at"),
                               count=count, items=Phrase(items.word, "") if one else Phrase(items.plural(), "pl"))
        return None

    def some_in(self, zone: A.Expr) -> Optional[Phrase]:
        """The cards of a zone with several places are there: "there is a tile at a slot", "… in the personal
        area of a player", not "the tiles at every slot are not empty", which reads as each slot holding one."""
        held = self.sp.zone_def_of(zone.args[0]) if isinstance(zone, A.Call) and zone.func == "cards" \
            and len(zone.args) == 1 and isinstance(zone.args[0], A.Name) else None
        if held is None or held.shape == "single":
            return None
        item = self.sp.nouns.element(zone).noun
        where = self.sp.origin(zone, self.sp.expr(zone)) if held.shape == "indexed" else \
            self.sp.msg("expr.from_players_place", zone, zone=self.sp.noun(held.text, f"zone '{held.name}'", held.pos).np("def"),
                        prep_at=self.sp.prep(zone, "at"))
        return self.sp.msg("idiom.some_in", zone, item=item.np("indef"), **{"from": where})

    def placed(self, e: A.BinOp) -> Optional[Phrase]:
        """`position_in(x, Z) > 0` → "x lies on a square": a card is at one of a zone's places, not "the
        number of the place of every square holding x is greater than 0"."""
        at = e.left.args if isinstance(e.left, A.Call) and e.left.func == "position_in" and len(e.left.args) == 2 else None
        some = (_num(e.right) == 0 and e.op in (">", "!=")) or (_num(e.right) == 1 and e.op == ">=")
        if at is None or not some or self.sp.places(at[1]) is None:
            return None
        cards = A.Call(pos=e.pos, func="cards", args=[at[1]])
        return self.sp.msg("idiom.lies_in", e, card=self.sp.expr(at[0]), **{"from": self.sp.origin(cards, self.sp.expr(cards))})

    def one_of_list(self, e: A.Expr) -> Optional[Phrase]:
        """A list that is no zone, said by a plural noun, has an item, where the language says so with one of
        them (German „es gibt mindestens eines seiner abgelegten Artefakte“, not „… sind nicht leer“: things
        are not empty; review rv19 K16); the pronoun takes the gender of the noun whose plural heads the list."""
        if self.sp._is_zone(e) or not isinstance(e, (A.Call, A.Comprehension)) or not self.sp.cat.pattern("idiom.some_one"):
            return None  # a language whose "there are …" reads right has the message empty
        said = self.sp.expr(e)
        if said.agree != "pl":
            return None
        words = [w.rstrip(",") for w in said.form("nom").split(" ")]
        same = {n.word: n for n in (Noun(t.by_lang[self.sp.lang], self.sp.cat) for t in self.sp.sym.texts
                                    if self.sp.lang in t.by_lang) if n.gender != "default" and n.plural() == n.word}
        noun = self.sp.head_noun(said) or next((same[w] for w in words if w in same), None)  # „eines der Felder“
        return self.sp.msg("idiom.some_one", e, one=noun.det("one"), zone=said) if noun is not None else None

    def listed_plural(self, e: A.Expr) -> Optional[Phrase]:
        """A list that is no zone, said as a plural noun phrase with the definite article ("the tokens that
        can be moved"): the phrase without its article, to say that there are (no) such things."""
        if self.sp._is_zone(e) or not isinstance(e, (A.Call, A.Comprehension)):
            return None
        said = self.sp.expr(e)
        return self.sp.without_article(said) if said.agree == "pl" else None

    def held_by(self, zone: A.Expr) -> Optional[tuple[A.Expr, Noun]]:
        """A player's zone named by its cards' own plural ("jokers" of jokers): the player and the
        cards' noun, so that the zone is said as what the player has."""
        found = self.players_zone(zone)
        return (found[0], found[1]) if found is not None and found[2].word == found[1].plural() else None

    def held_plural(self, zone: A.Expr) -> Optional[tuple[A.Expr, Noun]]:
        """A player's zone named by a plural phrase of its own that is more than its cards' plural ("spent
        tokens" of tokens): the player and that phrase, so that the zone is said as what the player has
        ("the player has spent tokens", not "their spent tokens are not empty": things are not empty)."""
        found = self.players_zone(zone)
        return (found[0], found[2]) if found is not None and found[2].agree == "pl" \
            and found[2].word != found[1].plural() else None

    def players_zone(self, zone: A.Expr) -> Optional[tuple[A.Expr, Noun, Noun]]:
        """A zone of one player: the player, its cards' noun and the zone's own noun."""
        held = self.sp.zone_def_of(zone)
        if not (isinstance(zone, A.Call) and len(zone.args) == 1 and held is not None and held.shape == "per_player"):
            return None
        return zone.args[0], self.sp.nouns.element(zone).noun, self.sp.noun(held.text, f"zone '{held.name}'", held.pos)

    def owns(self, e: A.BinOp) -> Optional[Phrase]:
        """`count(c for c in cards(Z) if owner(c) == p) == 2` → "p has 2 cards at the Zs" (a player's own
        cards counted, said as what they have, not as "the number of cards … that belong to p is 2")."""
        left, n = e.left, self.sp._number(e.right)
        comp = left.comp if isinstance(left, A.CallComp) and left.func == "count" else None
        cond = comp.cond if comp is not None else None
        if comp is None or n is None or e.op not in ("==", ">=", "<=") or not isinstance(cond, A.BinOp) \
                or cond.op != "==" or not (isinstance(comp.expr, A.Name) and comp.expr.name == comp.var) \
                or not (isinstance(cond.left, A.Call) and cond.left.func == "owner" and len(cond.left.args) == 1
                        and isinstance(cond.left.args[0], A.Name) and cond.left.args[0].name == comp.var):
            return None
        src = comp.source.args[0] if isinstance(comp.source, A.Call) and comp.source.func == "cards" \
            and len(comp.source.args) == 1 else comp.source
        zone = self.sp.zone_def_of(src)
        if zone is None:
            return None
        items = self.sp.nouns.element(comp.source).noun
        where: Phrase = self.sp.expr(src)
        if zone.shape == "indexed" and isinstance(src, A.Name):  # every place of a family: "on the market stalls"
            places = self.sp.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            where = Noun(f"{self.sp.cat.pattern('grammar.plural_article')} {places.plural()}", self.sp.cat).np("def")
        return self.sp.msg(f"idiom.owns_{_BINOP_WORDS[e.op]}", e, player=self.sp.expr(cond.right), count=self.sp.expr(e.right),
                           items=Phrase(items.word, "") if n == 1 else Phrase(items.plural(), "pl"), zone=where,
                           at=self.sp.prep(src, "at"))

    def plural_noun(self, e: A.Expr) -> Optional[Noun]:
        """A list or number local, a game value or a list function named by its own plural noun
        ("allowed cards", "steps left"), to be said without its article."""
        ref = self.sp.lookup(e.name) if isinstance(e, A.Name) else None
        named = e.name if isinstance(e, A.Name) and ref is None else \
            e.func if isinstance(e, A.Call) and not e.args else None  # a function without parameters: `excess()`
        fn = self.sp.sym.functions.get(named) if named is not None else None
        var = self.sp.sym.vars.get(e.name) if isinstance(e, A.Name) and ref is None else None
        noun = ref.noun if ref is not None and not ref.label and ref.zone is None and not ref.you else \
            self.sp.nouns.text(fn.text) if fn is not None and not fn.params else \
            self.sp.nouns.text(var.text) if var is not None and var.text is not None else None
        return noun if noun is not None and noun.agree == "pl" else None

    def counted(self, e: A.Expr, some: bool) -> Optional[Phrase]:
        """A number named by a plural noun compared with 0: "there are steps left", "the token has no
        moves this turn", not "the steps left are greater than 0"."""
        sp = self.sp
        field = sp.field_def(e) if isinstance(e, A.Attr) and e.name not in sp.sym.currencies else None
        noun = self.plural_noun(e) if field is None else sp.nouns.text(field.text) if field.text is not None else None
        key = ("idiom.some_counted" if some else "idiom.none_counted") if field is None else \
            "idiom.has_some" if some else "idiom.has_none"
        if noun is None or noun.agree != "pl" or not sp.cat.has(key):  # compared with 0, so a number
            return None
        owner: Arg = sp.expr(e.obj) if isinstance(e, A.Attr) else ""
        return sp.msg(key, e, owner=owner, bare=noun.np("bare"), some=noun.np("some"))

    def counted_as(self, e: A.BinOp, counted: Optional[A.Expr] = None) -> Optional[Phrase]:
        """A number (or the length of a list) named by a plural noun compared with another number: "there are
        at least 2 steps left"."""
        n, sp = self.sp._number(e.right), self.sp
        key = f"idiom.counted_{_BINOP_WORDS.get(e.op, '')}"
        noun = self.plural_noun(e.left if counted is None else counted) if n is not None and n > 1 and sp.cat.has(key) \
            else None
        if noun is None:
            return None
        return sp.msg(key, e, count=sp.expr(e.right), bare=noun.np("bare"), some=noun.np("some"))

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
            pair = self.pair(owned, right.args[0])
            if pair is not None and self.sp.cat.has(key + "_pair"):  # "both tokens belong to the same player"
                return self.sp.msg(key + "_pair", e, both=pair[1] if e.op == "==" else pair[2])
            return self.sp.msg(key, e, a=self.sp.expr(owned), b=self.sp.expr(right.args[0]))
        return None

    def same_field(self, e: A.BinOp) -> Optional[Phrase]:
        """`a.F == b.F` → "a and b have the same F"; `!=` → "a and b differ in F"; `a.F < b.F` → "the F
        of a is less than that of b"."""
        if e.op not in _FIELD_COMPARE or not (isinstance(e.left, A.Attr) and isinstance(e.right, A.Attr)
                                              and e.left.name == e.right.name):
            return None
        field = self.sp.sym.fields.get(e.left.name)
        if field is None or field.text is None or self.sp.lang not in field.text.by_lang:
            return None
        key = f"idiom.{_FIELD_COMPARE[e.op]}"
        if not self.sp.cat.has(key) or e.op not in ("==", "!=") and (self.sp.is_you(e.left.obj) or self.sp.is_you(e.right.obj)):
            return None
        noun = Noun(field.text.by_lang[self.sp.lang], self.sp.cat)
        pair = self.pair(e.left.obj, e.right.obj) if e.op in ("==", "!=") else None
        if pair is not None and self.sp.cat.has(key + "_pair"):  # "the two tokens differ in value"
            return self.sp.msg(key + "_pair", e, both=pair[2], field=noun.np("bare"), same=noun.det("same"),
                               the_field=noun.np("def"))
        if self.sp.said_as_number(e.left) and self.sp.cat.has(f"{key}_num"):  # « la force de A vaut celle de B »,
            key += "_num"  # but « la couleur de A est la couleur de B »: French « vaut » says an amount (expr.eq_num)
        return self.sp.msg(key, e, a=self.sp.expr(e.left.obj), b=self.sp.expr(e.right.obj), field=noun.np("bare"),
                           same=noun.det("same"), the_field=noun.np("def"), det=noun.det("def"))

    def can_pay(self, e: A.BinOp) -> Optional[Phrase]:
        """`p.coins >= cost(…)` → "p can pay the cost"; a number stays "has at least 3 coins"."""
        left = e.left
        if e.op != ">=" or not (isinstance(left, A.Attr) and left.name in self.sp.sym.currencies) \
                or self.sp._number(e.right) is not None:
            return None
        return self.sp.msg("idiom.can_pay", e, player=self.sp.expr(left.obj), amount=self.sp.expr(e.right))

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
        return sp.msg("idiom.all_hold", c, zone=Phrase(lambda f: zone.noun.np("each").form(f)), at=sp.prep(src.args[0], "at"),
                      count=sp.expr(body.right), items=Phrase(items.word if sp._number(body.right) == 1 else items.plural()))

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
        owned = self.owned_items(c)
        if owned is not None:  # "the sum of the strengths of their cards at the slots", not "… owned by the player"
            return sp.msg("idiom.sum_of_field_owned", c, field=Phrase(plural), owned=owned, **args)
        return sp.msg("idiom.sum_of_field", c, field=Phrase(plural), **args)

    def owned_items(self, c: A.Comprehension) -> Optional[Phrase]:
        """The items of a comprehension filtered by `owner(x) == p` alone, said with p's possessive ("your
        cards", "their cards") where p is the reader or the one player in scope."""
        sp, cond = self.sp, c.cond
        if not (isinstance(cond, A.BinOp) and cond.op == "==" and isinstance(cond.left, A.Call) and cond.left.func == "owner"
                and len(cond.left.args) == 1 and isinstance(cond.left.args[0], A.Name) and cond.left.args[0].name == c.var):
            return None
        det = "your" if isinstance(cond.right, A.Name) and sp.is_you(cond.right) else "their" if sp.possessor(cond.right) else ""
        if not det:
            return None
        noun = sp.nouns.element(c.source).noun
        return Noun(f"{sp.cat.pattern('grammar.plural_article')} {noun.plural()}", sp.cat).np(det)

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
        """`if a.F > b.F then a else b` → "the card with the greater F (a or b)"; "(card A or card B)" goes
        where those are the two lettered cards in scope."""
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
        refs = [self.sp.lookup(x.name) if isinstance(x, A.Name) else None for x in (a, b)]
        kinds = {r.kind for r in refs if r is not None}
        named = all(r is not None for r in refs) and len(kinds) == 1 and "" not in kinds
        # two locals of one kind ("the first token", "the second token"): "the card with the greater
        # power" is one of the two just named, by the kind's own noun
        kind = self.sp.nouns.of_type(A.TypeRef(pos=e.pos, name=kinds.pop())).noun if named else self.sp.nouns.value(a).noun
        lettered = named or all(r is not None and r.label for r in refs)
        which: Arg = "" if lettered else self.sp.msg("idiom.which_of", e, a=self.sp.expr(a), b=self.sp.expr(b))
        return self.sp.msg(key, e, a=self.sp.expr(a), b=self.sp.expr(b), field=noun.np("bare"),
                           the_field=noun.np("def"), field_det=noun.det("def"), kind=kind.np("def"),
                           kind_word=kind.np("bare"), which=which)

    def ranked(self, kind: str, noun: Noun, where: A.Expr) -> Optional[Phrase]:
        """`position(it) == 1`, `<= 2`, `== SIZE`, `>= SIZE - 1` of the one family holding a kind → "the first",
        "the first two", "the last", "the last two" of its cards."""
        families = [z for z in self.sp.sym.zones.values() if z.shape == "indexed" and z.kind == kind]
        if not (len(families) == 1 and isinstance(where, A.BinOp) and isinstance(where.left, A.Call)
                and where.left.func == "position" and len(where.left.args) == 1 and _is_it(where.left.args[0])):
            return None
        size, right, op = families[0].size, where.right, where.op
        back = _num(right.right) if isinstance(right, A.BinOp) and right.op == "-" and same(right.left, size) else \
            0 if same(right, size) else None
        rank: Optional[tuple[str, int]] = None  # (the first place's number or "last", how many)
        if back is not None:
            rank = ("last", 1) if op in ("==", ">=") and back == 0 else ("last", back + 1) if op == ">=" \
                else ("last", back) if op == ">" else None
        elif _num(right) is not None:
            n = _num(right) or 0
            rank = (str(n), 1) if op == "==" else ("1", n) if op == "<=" else ("1", n - 1) if op == "<" else None
        cat = self.sp.cat
        if rank is None or rank[1] < 1 or (rank[1] == 1 and rank[0] != "last" and not cat.has(f"ordinal.{rank[0]}")) \
                or (rank[1] > 1 and not cat.has(f"count_word.{rank[1]}")):
            return None
        args: dict[str, Phrase] = {"art": noun.det("def"), "noun": Phrase(noun.word), "the_noun": noun.np("def"),
                                   "nouns": Phrase(noun.plural())}
        if rank[1] > 1:
            key = "idiom.rank_last_many" if rank[0] == "last" else "idiom.rank_first_many"
            many = self.sp.msg(key, where, count=Phrase(pick(cat.pattern(f"count_word.{rank[1]}"), "nom")), **args)
            return Phrase(many.form, "pl")
        if rank[0] == "last":
            return self.sp.msg("idiom.rank_last_one", where, **args)
        return self.sp.msg("idiom.rank_one", where, ord=Phrase(pick(cat.pattern(f"ordinal.{rank[0]}"), "nom")), **args)

    def first_last(self, s: A.Let, nxt: A.Stmt) -> Optional[list[Line]]:
        """`let a = first(Z); let b = last(Z)` → "card A is the first card at Z, card B the last one"."""
        sp, v = self.sp, s.value
        w = nxt.value if isinstance(nxt, A.Let) else None
        if not (isinstance(nxt, A.Let) and isinstance(v, A.Call) and isinstance(w, A.Call) and v.func == "first"
                and w.func == "last" and len(v.args) == len(w.args) == 1 and same(v.args[0], w.args[0])
                and sp._is_zone(v.args[0])):
            return None
        zone = v.args[0]
        said = sp._s_Let(s) + sp._s_Let(nxt)
        a, b = sp.lookup(s.name), sp.lookup(nxt.name)
        item = sp.nouns.element(zone)
        if a is not None and b is not None and s.text is not None and nxt.text is not None \
                and not (a.label or b.label) and self.make_pair(s.name, a, nxt.name, b, item):
            assert a.pair is not None
            holds = sp.sym.zones.get(zone.obj.name if isinstance(zone, A.Index) and isinstance(zone.obj, A.Name)
                                     else zone.name if isinstance(zone, A.Name) else "")
            if holds is not None and holds.capacity == 2:  # the place holds just these two: one sentence names them
                return sp._line("stmt.let_pair", s, both=a.pair[2], zone=sp.expr(zone),
                                at=sp.prep(zone, "at"))
            return said
        if a is None or b is None or not (a.label and b.label and item.kind):
            return said
        return sp._line("stmt.let_first_last", s, a=sp.var(s.name), b=sp.var(nxt.name), zone=sp.expr(zone),
                        at=sp.prep(zone, "at"), first=item.noun.np("first"), last=item.noun.det("last"))

    def make_pair(self, x: str, a: Ref, y: str, b: Ref, item: Ref) -> bool:
        """Marks two locals, the first and the last item of one place, as a pair: said together by the noun
        their own nouns end in ("first token", "second token" → "both tokens", "the two tokens"),
        else by the place's items' noun."""
        sp, cat = self.sp, self.sp.cat
        if not (cat.has("idiom.both") and cat.has("idiom.two")):
            return False
        wa, wb = a.noun.word.split(" "), b.noun.word.split(" ")
        common: list[str] = []
        while len(common) < min(len(wa), len(wb)) - 1 and wa[-1 - len(common)] == wb[-1 - len(common)]:
            common.insert(0, wa[-1 - len(common)])
        noun = Noun(" ".join(([a.noun.gender] if a.noun.gender != "default" else []) + common), cat) if common \
            and a.noun.gender == b.noun.gender else item.noun
        nouns = noun.plural()
        two = str(pick(cat.pattern("idiom.two"), "nom"))
        the_two = Noun(f"{cat.pattern('grammar.plural_article')} {two} {nouns}", cat).np("def")
        both = sp.msg("idiom.both", None, nouns=Phrase(nouns))
        a.pair, b.pair = (y, Phrase(both.form, "pl"), Phrase(the_two.form, "pl", the_two.genitive)), \
            (x, Phrase(both.form, "pl"), Phrase(the_two.form, "pl", the_two.genitive))
        return True

    def pair(self, x: A.Expr, y: A.Expr) -> Optional[tuple[str, Phrase, Phrase]]:
        """The pair two expressions name together, where they are the two locals of one (see `make_pair`)."""
        if not (isinstance(x, A.Name) and isinstance(y, A.Name)):
            return None
        ref = self.sp.lookup(x.name)
        return ref.pair if ref is not None and ref.pair is not None and ref.pair[0] == y.name \
            and self.sp.lookup(y.name) is not None else None

    def choose_if_any(self, s: A.Let, branch: A.Stmt, after: Sequence[A.Stmt]) -> Optional[list[Line]]:
        """`let L = [x for x in Z if C]; if count(L) > 0 { let d = choose p from L; … }` → "If possible, you choose
        a token in Z that C:" (the list is only what one may choose from: it goes unsaid)."""
        sp, comp = self.sp, s.value
        if not isinstance(branch, A.If) or branch.other:
            return None
        at = next((k for k, b in enumerate(branch.then) if not (isinstance(b, A.SetStmt) and sp.unsaid(b))), 0)
        pick = branch.then[at] if branch.then else None  # after bookkeeping the book leaves out anyway
        if not (isinstance(pick, A.LetChoose) and isinstance(pick.options, A.Name) and pick.options.name == s.name):
            return None
        leaves = [branch.cond]
        while isinstance(leaves[0], A.BinOp) and leaves[0].op == "and":
            top = leaves.pop(0)
            assert isinstance(top, A.BinOp)
            leaves[:0] = [top.left, top.right]
        tests = [leaf for leaf in leaves if isinstance(leaf, A.BinOp) and leaf.op == ">" and _num(leaf.right) == 0
                 and isinstance(_count_of(leaf.left), A.Name) and getattr(_count_of(leaf.left), "name", "") == s.name]
        rest = [leaf for leaf in leaves if not any(leaf is t for t in tests)]
        if len(tests) != 1 or any(isinstance(n, A.Name) and n.name == s.name
                                  for n in A.walk([*rest, *branch.then[at + 1:], *after])):
            return None
        if rest:  # the other conditions stay a branch of their own around the choice
            cond: A.Expr = rest[0]
            for leaf in rest[1:]:
                cond = A.BinOp(pos=branch.pos, op="and", left=cond, right=leaf)
            inner = branch.model_copy(update={"cond": A.BinOp(pos=branch.pos, op=">", left=tests[0].left,
                                                              right=tests[0].right)})
            sp.scope.push()
            try:
                found = self.choose_if_any(s, inner, after)
            finally:
                sp.scope.pop()
            return sp._line("stmt.if", branch, "sub", children=found, cond=sp.expr(cond)) if found is not None else None
        plain = isinstance(comp, A.Comprehension) and isinstance(comp.expr, A.Name) and comp.expr.name == comp.var \
            and comp.key is None
        options = sp.expr(comp)
        item_of = sp.nouns.element(comp)
        if isinstance(comp, A.Comprehension) and plain:  # "another token" than the card itself
            item_of = sp.nouns.other(comp, sp.nouns.element(comp.source))
        ref = sp.scope.bind(pick.name, sp.named(item_of, pick.text))
        var = ref.phrase(sp.cat)  # said by the chosen item's own name: "a token (B)" where later "token B"
        args: dict[str, Arg] = {"from": "", "filter": ""}
        one: Optional[Phrase] = None
        base = sp.nouns.element(comp.source).noun if isinstance(comp, A.Comprehension) and plain else None
        if isinstance(comp, A.Comprehension) and base is not None:
            other = ref.noun.word == item_of.noun.word != base.word  # "another token": `d != x` said
            kept = other_than(comp)[1] if other else comp.cond
            item = Ref(ref.noun, zone=ref.zone, kind=ref.kind, enum=ref.enum)
            item.label = ref.label
            sp.scope.push()
            try:  # the list's item is the one to choose: its filter names it by the same noun and letter
                sp.scope.refs[comp.var] = item
                args = {"from": sp.origin(comp.source, sp.expr(comp.source)),
                        "filter": sp.filter(comp.var, ref, kept, "expr.filter") if kept is not None else ""}
            finally:
                sp.scope.pop()
            among = sp.expr(comp.source)
            said_from = args["from"]
            named = not (isinstance(said_from, Phrase) and said_from.form("nom")) or other or bool(ref.label)
            one = None if named else sp.one_of(ref.noun, among, pick.text is None or ref.noun.word == base.word)
            if one is not None:  # "one of your friends", not "a token in your friends"
                args["from"] = sp.msg("stmt.one_among", comp, one=one, among=among)
            if other:  # once chosen it is "the chosen token", not "the chosen other token"
                ref.noun = base
        elif not plain and not ref.label:  # a list said by its own name: "one of the possible targets"
            one = sp.one_of(ref.noun, options, pick.text is None)
            if one is not None:
                args["from"] = sp.msg("stmt.one_among", comp, one=one, among=options)
        ref.chosen = True
        children = sp.lines(branch.then[at + 1:])
        said: dict[str, Arg] = {"seat": sp.expr(pick.seat), "var": var, "filter": args["filter"], "from": args["from"],
                                "options": options}
        key = "stmt.choose_if_any" if plain or one is not None else "stmt.choose_if_any_from"  # said by its value
        key += "_one" if one is not None else ""
        return [Line(sp.text(key, pick, sp._subject(pick.seat), said), children)]

    def if_so(self, s: A.LetChoose, branch: A.Stmt, after: Sequence[A.Stmt]) -> Optional[list[Line]]:
        """`let g = choose p from [true, false]; if g { … }` → "You decide whether X." and "If so:" (`if not g`:
        "If not:"; the decision is not said twice where it is only what the branch follows)."""
        sp = self.sp
        test = branch.cond if isinstance(branch, A.If) else None
        denied = isinstance(test, A.Not)
        if isinstance(test, A.Not):
            test = test.operand
        if not (yes_or_no(s.options) and s.text is not None and sp.lang in s.text.by_lang
                and isinstance(branch, A.If) and not branch.other
                and isinstance(test, A.Name) and test.name == s.name
                and not any(isinstance(n, A.Name) and n.name == s.name for n in A.walk([*branch.then, *after]))):
            return None
        decided = sp.lines([s])
        if len(decided) != 1:
            return None
        return [*decided, Line(sp.text("stmt.if_not" if denied else "stmt.if_so", branch, "default", {}),
                               sp.lines(branch.then))]

    def counter_loop(self, s: A.Let, w: A.Stmt, after: Sequence[A.Stmt]) -> Optional[list[Line]]:
        """`let n = K; while n > 0 and C { …; set n = n - 1; … }` → "Up to K times, as long as C:", or for
        K named by a plural noun "Once for each of the steps, as long as C:" (the counter is bookkeeping no
        player keeps: it is said as the number of times, and goes unsaid)."""
        if not isinstance(w, A.While):
            return None
        each = self.sp._number(s.value) is None  # "up to 4 times", not "up to the value times"
        if each and self.sp.expr(s.value).agree != "pl":
            return None
        leaves: list[A.Expr] = []
        stack: list[A.Expr] = [w.cond]
        while stack:
            e = stack.pop()
            if isinstance(e, A.BinOp) and e.op == "and":
                stack += [e.right, e.left]
            else:
                leaves.append(e)

        def counts(e: A.Expr) -> bool:
            return isinstance(e, A.BinOp) and isinstance(e.left, A.Name) and e.left.name == s.name \
                and ((e.op == ">" and _num(e.right) == 0) or (e.op == ">=" and _num(e.right) == 1))
        steps = [b for b in w.body if isinstance(b, A.SetStmt) and isinstance(b.target, A.Name) and b.target.name == s.name
                 and isinstance(b.value, A.BinOp) and b.value.op == "-" and isinstance(b.value.left, A.Name)
                 and b.value.left.name == s.name and _num(b.value.right) == 1]
        tests = [leaf for leaf in leaves if counts(leaf)]
        rest = [leaf for leaf in leaves if not counts(leaf)]
        kept = [b for b in w.body if not any(b is x for x in steps)]
        if len(steps) != 1 or len(tests) != 1 or any(isinstance(n, A.Name) and n.name == s.name
                                                     for n in A.walk([*rest, *kept, *after])):
            return None
        sp = self.sp
        count = sp.expr(s.value)
        children = sp._loop_body(kept)
        stops = any(isinstance(n, A.Break) for n in A.walk(kept))
        counted = sp.counted_by(count) if each else None  # „für jeden der Schritte der Bewegung“
        noun = "_noun" if counted is not None else ""
        if not rest:
            key = f"stmt.repeat_each{noun}" if each else "stmt.repeat_up_to" if stops else "stmt.repeat"
            return sp._line(key, w, children=children, count=count, source=count, each=counted or "")
        cond = conjoin(rest)
        assert cond is not None
        return sp._line(f"stmt.repeat_each_while{noun}" if each else "stmt.repeat_up_to_while", w, children=children,
                        count=count, source=count, cond=sp.expr(cond), each=counted or "")

    def noted_for_ends(self, s: A.Let, after: Sequence[A.Stmt]) -> bool:
        """Whether a counter noted by `s` is read only by modifiers' latches on it (`where it == x and f(n)`):
        those are said as ends ("until the next round has ended"), so the noting is no step of its own."""
        if not isinstance(s.value, A.Name) or s.value.name not in self.sp.sym.counters:
            return False
        latches = [rest for m in A.walk(list(after)) if isinstance(m, A.Modify)
                   for rest in [self.sp.only_it(m.where)[1]] if rest is not None
                   and self.sp.latch_of(rest, self.sp.sym) == (s.value.name, s.name)]
        def reads(nodes: Sequence[A.Node]) -> int:
            return sum(1 for n in A.walk(list(nodes)) if isinstance(n, A.Name) and n.name == s.name)
        return bool(latches) and reads(latches) == reads(after)

    def said_in_place(self, s: A.Let, after: Sequence[A.Stmt]) -> Optional[tuple[list[Line], int]]:
        """A local without a noun of its own that names a thing (`let t = top(Z)`), used only by the step after it,
        said in that step ("take the top tile of the change into your loot"), not defined first ("the tile is the
        top tile …"); two steps only where they are said as one."""
        def uses(st: A.Stmt) -> bool:
            return any(isinstance(n, A.Name) and n.name == s.name for n in A.walk([st]))
        n = next((k for k, st in enumerate(after) if not uses(st)), len(after))
        if s.text is not None or not isinstance(s.value, (A.Call, A.Index, A.Attr)) or not 0 < n <= 2 \
                or any(uses(st) for st in after[n:]) \
                or any(isinstance(st, (A.If, A.For, A.While, A.Repeat, A.Turns, A.TurnsIn, A.Let))  # (a `let` binds
                       for st in after[:n]):  # a name that later steps read)
            return None
        sp = self.sp
        sp._s_Let(s)  # binds the local (its sentence is not said)
        ref = sp.lookup(s.name)
        if ref is None or ref.label or ref.clause is not None:
            return None
        ref.every, ref.said_every = sp.expr(s.value), 0
        try:
            said = sp.lines(list(after[:n]))
        finally:
            ref.every = None
        if ref.said_every != 1 or len(said) != 1 or said[0].children:
            return None
        return said, n + 1

    def _reset(self, s: A.Stmt) -> bool:
        """Whether a statement sets an `internal` value back to its start value."""
        var = self.sp.sym.vars.get(s.target.name) if isinstance(s, A.SetStmt) and isinstance(s.target, A.Name) \
            and s.target.name not in self.sp.scope.refs else None
        return var is not None and var.internal and isinstance(s, A.SetStmt) and same(s.value, var.init)

    # ------------------------------------------------------------ statements
    @staticmethod
    def _copied(body: Sequence[A.Stmt], i: int) -> int:
        """How many statements from `i` on copy a field of one card to the same field of another."""
        def pair(s: A.Stmt) -> Optional[list[A.Expr]]:
            t, v = (s.target, s.value) if isinstance(s, A.SetStmt) else (None, None)
            if isinstance(t, A.Attr) and isinstance(v, A.Attr) and t.name == v.name and not same(t.obj, v.obj):
                return [t.obj, v.obj]
            return None
        first = pair(body[i])
        n = 0
        while first is not None and i + n < len(body) and same(pair(body[i + n]), first):
            n += 1
        return n

    def stmts(self, body: Sequence[A.Stmt], i: int) -> Optional[tuple[list[Line], int]]:
        """Sentences for the statement at `i` (and how many statements they say), where one fits."""
        s = body[i]
        if self._reset(s) and all(self._reset(b) for b in body[:i]) and not all(self._reset(b) for b in body) \
                and self.sp.depth == 1:
            return [], 1  # bookkeeping made ready at the start of a part: nothing a player does
        if isinstance(s, A.Pay) and s.payer is None and s.payee is not None:
            n = 1  # the same payment from the bank to several payees
            while i + n < len(body) and isinstance(body[i + n], A.Pay) and same(
                    [getattr(body[i + n], f) for f in ("amount", "currency", "payer", "at_most_available")],
                    [s.amount, s.currency, s.payer, s.at_most_available]) and getattr(body[i + n], "payee") is not None:
                n += 1
            if n > 1:
                return self.sp.pays([p for p in body[i:i + n] if isinstance(p, A.Pay)]), n
        copied = self._copied(body, i)
        if copied > 1:  # `set a.x = b.x; set a.y = b.y` → "a takes on the x and the y of b"
            said = self.sp.take_on([c for c in body[i:i + copied] if isinstance(c, A.SetStmt)])
            if said is not None:
                return said, copied
        if isinstance(s, A.Modify):
            n = 1
            while i + n < len(body) and isinstance(body[i + n], A.Modify) and s.mode == "by" \
                    and same([getattr(body[i + n], f) for f in ("kind", "mode", "where", "until")],
                             [s.kind, s.mode, s.where, s.until]):
                n += 1
            return self.sp.modify([m for m in body[i:i + n] if isinstance(m, A.Modify)]), n
        if isinstance(s, A.Give) and i + 1 < len(body):
            nxt = body[i + 1]
            if isinstance(nxt, A.Move) and not nxt.bottom and same(nxt.what, s.what) and isinstance(nxt.to, A.Call) \
                    and nxt.to.func in self.sp.sym.zones and len(nxt.to.args) == 1 and same(nxt.to.args[0], s.to):
                return self.sp._line("stmt.take", s, self.sp._subject(s.to), to=self.sp.expr(s.to),
                                     what=self.sp.expr(s.what), zone=self.sp.destination(nxt.to),
                                     into=self.sp.prep(nxt.to, "to")), 2  # they take it: it is theirs
        if isinstance(s, A.Let) and i + 1 < len(body) and isinstance(body[i + 1], A.Move):
            nxt = body[i + 1]  # `let t = top(stack); move t to shown` → "move the top card of the stack to …"
            v = s.value
            if isinstance(nxt, A.Move) and not nxt.bottom and isinstance(nxt.what, A.Name) and nxt.what.name == s.name \
                    and isinstance(v, A.Call) and v.func in ("first", "last", "top") and len(v.args) == 1 \
                    and self.sp._is_zone(v.args[0]):
                what = self.sp.expr(v)
                self.sp._s_Let(s)
                found = self.sp.lookup(s.name)
                if found is not None and not found.label:
                    form, actor = self.sp.doer()
                    moved: dict[str, Arg] = {"what": what, "to": self.sp.expr(nxt.to),
                                             "into": self.sp.prep(nxt.to, "to"), **actor}
                    return [Line(self.sp.text("stmt.move", nxt, form, moved))], 2
        if isinstance(s, A.Let) and self.noted_for_ends(s, body[i + 1:]):
            self.sp._s_Let(s)  # binds the local; the modifiers that end with its counter say when, not the noting
            return [], 1
        if isinstance(s, A.Let):
            inlined = self.said_in_place(s, body[i + 1:])
            if inlined is not None:
                return inlined
        if isinstance(s, A.Let) and i + 1 < len(body) and isinstance(body[i + 1], A.If):
            chosen = self.choose_if_any(s, body[i + 1], body[i + 2:])
            if chosen is not None:
                return chosen, 2
        if isinstance(s, A.LetChoose) and i + 1 < len(body):
            decided = self.if_so(s, body[i + 1], body[i + 2:])
            if decided is not None:
                return decided, 2
        if isinstance(s, A.Let) and i + 1 < len(body) and isinstance(body[i + 1], A.While):
            counted = self.counter_loop(s, body[i + 1], body[i + 2:])
            if counted is not None:
                return counted, 2
        if isinstance(s, A.Let) and i + 1 < len(body):
            pair = self.first_last(s, body[i + 1])
            if pair is not None:
                return pair, 2
        if isinstance(s, A.LetRandom) and i + 1 < len(body):
            nxt = body[i + 1]
            uses = sum(1 for n in A.walk(list(body[i + 1:])) if isinstance(n, A.Name) and n.name == s.name)
            if isinstance(nxt, A.SetStmt) and isinstance(nxt.value, A.Name) and nxt.value.name == s.name and uses == 1:
                options, listed = self.sp.options(s.options)
                key = "stmt.set_random_player" if isinstance(s.options, A.Name) and s.options.name == "players" \
                    else f"stmt.set_random{listed}"  # "choose the start player at random"
                return self.sp._line(key, s, target=self.sp.expr(nxt.target), options=options), 2
        if isinstance(s, A.CallRule) and tells_in_place(list(body), self.sp.sym.rules, self.sp.sym.calls):
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
            args: dict[str, Arg] = {"what": self.sp.expr(s.what), "zone": self.sp.destination(s.to, noun.np("def")),
                                    "bare": noun.np("bare"),
                                    "into": self.sp.prep(s.to, "to"), **actor}
            return [Line(self.sp.text("stmt.move_to_owner", s, form, args))], 1
        return None
