"""How a rulebook names the locals of the rules (parameters, loop variables, `let`s): by the noun of
what they hold ("the player", "the token", "token B"), never by their name in the file."""
from __future__ import annotations

import copy
import itertools
import string

from typing import TYPE_CHECKING, Callable, Optional, Sequence

from dsl import ast as A
from rulebook.phrases import Catalogue, Noun, Phrase, pick

if TYPE_CHECKING:
    from rulebook.sentences import Symbols

def free_label(used: set[str]) -> str:
    """The first letter no local in `used` has: A to Z, then A2, B2, … . The letters never run out, because a
    local left without one would be said by its bare noun ("the number") and read as another local's."""
    labels = itertools.chain(string.ascii_uppercase,
                             (f"{x}{n}" for n in itertools.count(2) for x in string.ascii_uppercase))
    return next(x for x in labels if x not in used)


class Ref:
    """A local said as a noun. `zone`: an indexed zone whose place numbers it holds ("the slot");
    `you`: the player whose turn it is, addressed as the reader; `label`: "A", "B" where two locals of
    one scope share a noun."""

    def __init__(self, noun: Noun, zone: Optional[str] = None, you: bool = False, kind: str = "",
                 enum: str = "") -> None:
        self.noun = noun
        self.zone = zone
        self.you = you
        self.kind = kind  # the kind of card it is, for its fields
        self.enum = enum  # the enum whose value it is
        self.label = ""
        self.symbol = False  # said by its letter alone, as a formula names a number: "square A"
        self.bare_label = False  # once introduced ("every number (C)"), said by its letter alone: "C steps"
        self.chosen = False  # a player's choice: "the chosen colour"
        self.this = False  # the place a walk has just reached: "this space"
        self.introduced = False  # a value a trigger's event has just introduced ("on a square"): then "the square"
        self.value: Optional[A.Expr] = None  # the one value an action's parameter can take
        self.taken_from: Optional[A.Expr] = None  # the place a local is the top card of: `top(Z[x])` → x
        self.every: Optional[Phrase] = None  # a loop said in one sentence: "every token in the bag"
        self.saying = False
        self.said_every = 0  # how often a loop said in one sentence named its items
        self.item: Optional["Ref"] = None  # one item of a list local that has its own noun ("a space")
        self.clause: Optional[Phrase] = None  # a yes-or-no choice said by its clause ("the token goes forward")
        self.roll = False  # a die roll: a table looked up by it is "the … the die shows"
        self.noted = ""  # the game value it noted (`let n = battles`): a condition that it still equals it is a latch
        # the other of a pair (the first and the last item of one place) and the pair said together:
        # ("both tokens", "the two tokens")
        self.pair: Optional[tuple[str, Phrase, Phrase]] = None

    def phrase(self, cat: Catalogue) -> Phrase:
        """The local's forms: a case ("nom", "acc", "dat", "gen") says it definite, `a_CASE` introduces
        it ("a token"), `each_CASE` quantifies, `bare` is the noun alone."""
        if self.clause is not None:
            return self.clause
        if self.symbol:
            return Phrase(self.label)
        if self.you:
            me = cat.pattern("name.me")
            return Phrase(lambda f: pick(me, f.rpartition("_")[2]), "you")
        noun, label, chosen, every, this, bare = self.noun, self.label, self.chosen, self.every, self.this, self.bare_label

        def make(f: str) -> str:
            det, _, case = f.rpartition("_")
            if every is not None and not det.startswith("rel") and f not in ("pl", "bare") and not self.saying:
                self.saying = True  # inside "every …", its filter names the item plainly
                self.said_every += 1
                try:
                    return every.form(case)
                finally:
                    self.saying = False
            if f == "pl":
                return noun.plural() + (f" {label}" if label else "")
            if det.startswith("rel"):
                return noun.det(det).form(case)
            if det == "all" and not label:  # "alle Karten": the plural noun after the plural's quantifier
                plural = Noun(f"{cat.pattern('grammar.plural_article')} {noun.plural()}", cat)
                return plural.np("each").form(case)
            det = "each" if det == "all" else det
            if label:
                if det in ("a", "each"):
                    return f"{noun.np('indef' if det == 'a' else 'each').form(case)} ({label})"
                if bare:
                    return label
                grammar = cat.data.get("grammar", {})  # « la créature B », where a language says the noun with its article
                lettered = isinstance(grammar, dict) and grammar.get("lettered_article") is True
                return f"{noun.np('def').form(case) if lettered else noun.word} {label}"
            if f == "bare":
                return noun.word
            det = {"a": "indef", "": "this" if this else "chosen" if chosen else "def"}.get(det, det)
            return noun.np(det if det in noun.dets else "def").form(case)
        return Phrase(make, every.agree if every is not None else noun.agree,
                      genitive=not label and noun.has_genitive("chosen" if chosen else "def"))


Lookup = Callable[[str], Optional[Ref]]


class Scope:
    """The locals in scope, innermost last; `push`/`pop` bracket a loop's body or a comprehension.
    `prelabels`: letters known from a first rendering, so a local has its letter from its first mention."""

    def __init__(self, prelabels: Optional[dict[str, str]] = None) -> None:
        self.refs: dict[str, Ref] = {}
        self.saved: list[dict[str, Ref]] = []
        self.prelabels = prelabels if prelabels is not None else {}
        self.late: dict[str, str] = {}  # locals that got their letter after they were first said

    def push(self) -> None:
        self.saved.append(dict(self.refs))

    def pop(self) -> None:
        self.refs = self.saved.pop()

    def bind(self, name: str, ref: Ref, lettered: bool = False, apart: bool = False) -> Ref:
        """Binds a local; one that shares its noun with another in scope gets a letter, and so does the
        other; a `lettered` one (a bare "number", "value") has one anyway: "number A". An `apart` one
        (a list's item whose condition names no other local of its noun) needs none."""
        same = {n: r for n, r in self.refs.items() if n != name and not r.you and not ref.you and not apart
                and r.noun.word == ref.noun.word}
        used = {r.label for r in same.values()} | {self.prelabels[n] for n in same if n in self.prelabels}
        if name in self.prelabels and self.prelabels[name] not in used:
            ref.label = self.prelabels[name]
        elif same:
            for n, r in same.items():
                if not r.label:
                    r.label = free_label(used)
                    used.add(r.label)
                    self.late[n] = r.label
            ref.label = free_label(used)
        elif lettered:
            ref.label = "A"
        if any(r.symbol for r in self.refs.values()):  # beside parameters named by letters alone, a local's letter
            for r in [ref, *same.values()]:  # is said alone too: "B steps", not "number B steps"
                r.bare_label = not r.symbol and bool(r.label)
        self.refs[name] = ref
        return ref


def slot_zone(text: str, param: str, zone_words: dict[str, str]) -> Optional[str]:
    """The zone a function text names right before a parameter's place: "row {i}" → the zone `row`."""
    marker = "{" + param
    at = text.find(marker)
    if at < 0:
        return None
    before = text[:at].rstrip()
    found = [z for z, w in zone_words.items() if before.endswith(w)]
    return max(found, key=lambda z: len(zone_words[z])) if found else None


def uses_as_place(name: str, nodes: Sequence[object], zones: dict[str, A.ZoneDef]) -> Optional[str]:
    """The indexed zone a number is used to index (`row[i]`), found in a body."""
    for node in A.walk(list(nodes)):
        if isinstance(node, A.Index) and isinstance(node.index, A.Name) and node.index.name == name \
                and isinstance(node.obj, A.Name) and node.obj.name in zones and zones[node.obj.name].shape == "indexed":
            return node.obj.name
    return None


def other_than(c: A.Comprehension) -> tuple[Optional[str], Optional[A.Expr]]:
    """`[d for d in L if d != x and …]`: the local `x` the items differ from, and the rest of the
    condition (None where nothing is left): said "every other …", not with letters for both."""
    conds: list[A.Expr] = []

    def flatten(e: A.Expr) -> None:
        if isinstance(e, A.BinOp) and e.op == "and":
            flatten(e.left)
            flatten(e.right)
        else:
            conds.append(e)
    if c.cond is None or not (isinstance(c.expr, A.Name) and c.expr.name == c.var):
        return None, c.cond
    flatten(c.cond)
    for i, e in enumerate(conds):
        if isinstance(e, A.BinOp) and e.op == "!=" and isinstance(e.left, A.Name) and isinstance(e.right, A.Name) \
                and c.var in (e.left.name, e.right.name) and e.left.name != e.right.name:
            return (e.right.name if e.left.name == c.var else e.left.name), conjoin(conds[:i] + conds[i + 1:])
    return None, c.cond


def conjoin(parts: Sequence[A.Expr]) -> Optional[A.Expr]:
    """The parts of a condition that are left, joined by "and" again (None where none is left)."""
    cond: Optional[A.Expr] = parts[0] if parts else None
    for r in parts[1:]:
        cond = A.BinOp(pos=r.pos, op="and", left=cond, right=r) if cond is not None else r
    return cond


_PLAYER_CALLS = ("owner", "next", "previous")
_NUMBER_CALLS = ("count", "sum", "abs", "graph_distance", "min2", "max2")


class Nouns:
    """Finds the noun of what an expression holds or yields, from the declarations of the rules."""

    def __init__(self, sym: "Symbols", cat: Catalogue, lang: str, lookup: "Lookup",
                 place: Optional[Callable[[A.Expr], Optional[str]]] = None,
                 this: Optional[Callable[[], Optional[str]]] = None) -> None:
        self.sym = sym
        self.cat = cat
        self.lang = lang
        self.lookup = lookup
        self.place = place  # the indexed zone whose place a number certainly is
        self.this = this  # the noun of `self`, the card whose effect is said, where there is one

    def word(self, key: str) -> Noun:
        return Noun(str(pick(self.cat.pattern(f"noun.{key}"), "nom")), self.cat)

    def text(self, text: Optional[A.Text]) -> Optional[Noun]:
        return Noun(text.by_lang[self.lang], self.cat) if text is not None and self.lang in text.by_lang else None

    def other(self, c: A.Comprehension, item: Ref, this: bool = True) -> Ref:
        """An item of `[d for d in L if d != x]` where `x` has the items' noun: "the other token"; with `this`
        also where `x` is the card whose effect is said (a list kept under a name of its own is not)."""
        name, _ = other_than(c)
        known = self.lookup(name) if name is not None else None
        word = known.noun.word if known is not None and not known.you else None  # "every player but you" says "you"
        if known is None and name == "self" and this and self.this is not None:  # "every other token" than this one
            word = self.this()
        if word != item.noun.word:
            return item
        noun = copy.copy(item.noun)
        pattern = self.cat.pattern("noun.other")
        noun.word = str(pick(pattern, "nom")).format(noun=item.noun.word)
        noun.own_plural = str(pick(pattern, "pl")).format(nouns=item.noun.plural())
        return Ref(noun, zone=item.zone, kind=item.kind, enum=item.enum)

    def zone_ref(self, zone: str) -> Ref:
        """A place number of an indexed zone, said as the place: "the slot"."""
        noun = self.text(self.sym.zones[zone].text)
        return Ref(noun or self.word("number"), zone=zone)

    def of_type(self, t: Optional[A.TypeRef]) -> Ref:
        sym = self.sym
        if t is None:
            return Ref(self.word("value"))
        if t.list_of is not None:  # a list of a kind: its items are said by their noun ("every token in the list")
            found = Ref(self.word("list"))
            item = self.of_type(t.list_of)
            found.item = item if item.kind or item.enum else None
            return found
        if t.name in sym.kinds:
            return Ref(self.text(sym.kinds[t.name].title) or self.word("card"), kind=t.name)
        if t.name in sym.enums:
            return Ref(self.text(sym.enums[t.name].title) or self.word("value"), enum=t.name)
        key = {"player": "player", "int": "number", "card": "card", "bool": "condition", "zone": "place"}.get(t.name, "value")
        return Ref(self.word(key))

    def kind_of_zone(self, zone: str) -> Ref:
        kind = self.sym.kinds.get(self.sym.zones[zone].kind)
        return Ref((self.text(kind.title) if kind else None) or self.word("card"), kind=kind.name if kind else "")

    def element(self, e: A.Expr, depth: int = 0, said: bool = True) -> Ref:
        """What one item of a list, zone or family is; `said`: as the list is said where it is used ("another
        token"), not as an item of a list named by its own text."""
        sym = self.sym
        if depth > 8:  # a guard against functions that name each other, not a limit on nesting
            return Ref(self.word("value"))
        if isinstance(e, A.Name):
            if e.name == "players":
                return Ref(self.word("player"))
            if e.name in sym.zones:
                return self.kind_of_zone(e.name)
            if e.name in sym.enums:
                return Ref(self.text(sym.enums[e.name].title) or self.word("value"), enum=e.name)
            if e.name in sym.functions:
                return self.element(sym.functions[e.name].body, depth + 1)
            if e.name in sym.vars and sym.vars[e.name].type.list_of is not None:
                return self.of_type(sym.vars[e.name].type.list_of)
            known = self.lookup(e.name)
            if known is not None and known.item is not None:
                return known.item
            if known is not None and known.zone is None and known.noun.word != self.word("list").word \
                    and known.noun.agree != "pl":  # a list's own plural noun ("the squares") names no item of it
                return Ref(known.noun, zone=known.zone, kind=known.kind, enum=known.enum)
            return Ref(self.word("value"))
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in sym.zones:
            return self.kind_of_zone(e.obj.name)
        if isinstance(e, A.Comprehension):
            if isinstance(e.expr, A.Name) and e.expr.name == e.var:
                return self.other(e, self.element(e.source, depth + 1), this=said)
            return self.value(e.expr, depth + 1)
        if isinstance(e, A.ListLit):
            return self.value(e.items[0], depth + 1) if e.items else Ref(self.word("value"))
        if isinstance(e, A.Call):
            if e.func in sym.zones:
                return self.kind_of_zone(e.func)
            if e.func == "positions" and e.args and isinstance(e.args[0], A.Name) and e.args[0].name in sym.zones:
                return self.zone_ref(e.args[0].name)
            if e.func in ("neighbours", "successors", "predecessors", "steps_ahead") and len(e.args) > 1 \
                    and self.place is not None and (zone := self.place(e.args[1])) is not None:
                return self.zone_ref(zone)  # a graph of places leads to places: "every square after the square"
            if e.func in ("cards", "concat", "neighbours", "successors", "predecessors") and e.args:
                return self.element(e.args[0] if e.func in ("cards", "concat") else e.args[1], depth + 1)
            if e.func == "others":
                return Ref(self.word("player"))
            if e.func == "range":
                return Ref(self.word("number"))
            if e.func == "subsets":
                return Ref(self.word("choice"))
            if e.func in sym.functions:
                return self.element(sym.functions[e.func].body, depth + 1)
        if isinstance(e, A.CondExpr):
            return self.element(e.then, depth + 1)
        return Ref(self.word("value"))

    def value(self, e: A.Expr, depth: int = 0) -> Ref:
        """What a value is: "the player", "the points", "the token"."""
        sym = self.sym
        if depth > 8:  # a guard against functions that name each other, not a limit on nesting
            return Ref(self.word("value"))
        if isinstance(e, A.Name):
            known = self.lookup(e.name)
            if known is not None:
                return Ref(known.noun, zone=known.zone, kind=known.kind, enum=known.enum)
            if e.name == "me":
                return Ref(self.word("player"))
            if e.name in sym.vars:
                var = sym.vars[e.name]
                return Ref(self.text(var.text) or self.word("value")) if var.type.name != "player" \
                    else Ref(self.word("player"))
            if e.name in sym.functions:
                return self.value(sym.functions[e.name].body, depth + 1)
            if e.name in sym.enum_values:
                enum = next((x for x in sym.enums.values() if any(v.name == e.name for v in x.values)), None)
                return Ref((self.text(enum.title) if enum else None) or self.word("value"))
            if e.name in sym.zones:
                return Ref(self.text(sym.zones[e.name].text) or self.word("value"))
        if isinstance(e, A.Attr):
            field = sym.fields.get(e.name)
            if field is not None and field.type.name in sym.kinds:
                return self.of_type(field.type)
            owned = sym.currencies.get(e.name) or sym.vars.get(e.name)
            text = field.text if field is not None else owned.text if owned is not None else None
            return Ref(self.text(text) or self.word("value"))
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in sym.zones:
            return Ref(self.text(sym.zones[e.obj.name].text) or self.word("value"))
        if isinstance(e, (A.Num, A.Neg)) or (isinstance(e, A.BinOp) and e.op in ("+", "-", "*", "/", "%")):
            return Ref(self.word("number"))
        if isinstance(e, (A.BinOp, A.Not, A.BoolLit)):
            return Ref(self.word("condition"))
        if isinstance(e, A.CondExpr):
            return self.value(e.then, depth + 1)
        if isinstance(e, A.CallComp):
            if e.func in ("first", "last"):
                return self.element(e.comp, depth + 1)
            if e.func in ("min", "max"):
                return self.value(e.comp.expr, depth + 1)
            return Ref(self.word("number" if e.func in ("count", "sum") else "condition"))
        if isinstance(e, A.Call):
            if e.func in _PLAYER_CALLS:
                return Ref(self.word("player"))
            if e.func in ("first", "last", "top") and e.args:
                return self.element(e.args[0], depth + 1)
            if e.func in ("min", "max") and e.args:
                if len(e.args) == 1:
                    return self.element(e.args[0], depth + 1)
                other = [a for a in e.args if not isinstance(a, (A.Num, A.Neg))]
                return self.value(other[0] if other else e.args[0], depth + 1)
            if e.func == "position" and e.args:
                return Ref(self.word("number"))
            if e.func in sym.functions:
                fn = sym.functions[e.func]
                return self.value(fn.body, depth + 1)
            if e.func in _NUMBER_CALLS:
                return Ref(self.word("number"))
            if e.func in sym.zones:
                return Ref(self.text(sym.zones[e.func].text) or self.word("value"))
            return Ref(self.word("list" if e.func in ("cards", "positions", "concat", "range", "others") else "value"))
        if isinstance(e, (A.ListLit, A.Comprehension)):
            return Ref(self.word("list"))
        return Ref(self.word("value"))
