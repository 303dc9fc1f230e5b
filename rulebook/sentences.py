"""The sentence generator: every expression and statement of the rules language as text in one
language, composed from the catalogue's patterns with names and numbers from the rules."""
from __future__ import annotations

import itertools
import operator
import os
import re
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

from dsl import ast as A
from rulebook import clauses, idioms
from rulebook.addressed import addressed_params
from rulebook.idioms import Idioms, yes_or_no
from rulebook.places import case, place_preposition, preposition
from rulebook.model import Line
from rulebook.order import names_used, nodes_of, round_from, same, substituted
from rulebook.referents import Nouns, Ref, Scope, conjoin, free_label, other_than, slot_zone, uses_as_place
from rulebook.phrases import (
    CASES,
    DEFAULT_FORMS,
    IT_PLACE,
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
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
_SPECIAL_NAMES = ("me", "players", "player_count", "round", "self")
_NUMBERS = ("player_count", "round")
_FEW_REACTIONS = 3  # an event with up to this many special rules reacting to it names them
_SHORT_LIST = 6  # a constant list of numbers up to this long is said by its items, a longer one by its name
_LIGHT_OBJECT = 3  # an object of up to this many words stands before a verb's complement, a longer one after it
_NUMBER_CALLS = ("count", "sum", "min", "max", "abs", "position", "graph_distance")
_GRAPH_CALLS = ("successors", "predecessors", "neighbours", "steps_ahead")
_PLACE_CALLS = _GRAPH_CALLS + ("contains", "graph_distance", "reached_stops")
_GATHERING_CALLS = ("cards", "position_in")  # a zone taken as all its places at once


def score_parts(e: A.Expr) -> list[A.Expr]:
    """The parts a list-valued score is told by: a list's items, or `concat([x], L)`'s x and L."""
    if isinstance(e, A.ListLit):
        return list(e.items)
    if isinstance(e, A.Call) and e.func == "concat" and len(e.args) == 2 and isinstance(e.args[0], A.ListLit):
        return list(e.args[0].items) + [e.args[1]]
    return []


def sum_terms(e: A.Expr) -> list[A.Expr]:
    """The terms of a sum (`a + b + c`), each said on its own where a rating is told in words."""
    if isinstance(e, A.BinOp) and e.op == "+":
        return sum_terms(e.left) + sum_terms(e.right)
    return [e]


def times_term(e: A.Expr) -> Optional[tuple[A.Num, A.Expr]]:
    """A number times a term (`2 * x`), said "2 times x" in a rating told in words."""
    return (e.left, e.right) if isinstance(e, A.BinOp) and e.op == "*" and isinstance(e.left, A.Num) else None


def unrepeated(text: str, param: str, arg: Arg) -> str:
    """A place after the words its argument starts with said once: „ohne die Felder, deren …“, not „ohne die
    Felder die Felder, deren …“."""
    found = re.search(r"(?:^|(?<=\s))(\S+ \S+) \{" + param + r"(?::(\w+))?\}", text)
    said = arg if isinstance(arg, str) else arg.form(found.group(2) or "nom") if found else ""
    if found is None or not said.startswith(found.group(1) + " ") and not said.startswith(found.group(1) + ","):
        return text
    return text[:found.start(1)] + text[found.end(1) + 1:]


def bracketed(said: Phrase) -> Phrase:
    """A phrase in brackets, in every form."""
    return Phrase(lambda f: f"({said.form(f)})", said.agree, said.genitive)


def _graph_place_only(name: str, body: object) -> bool:
    """Whether a number is used only as the place a graph leads on from (`successors(ways, at)`): a place
    its function's text names ("after square {at}") is then said as that place, never as a number."""
    places = {id(n.args[1]) for n in A.walk(body) if isinstance(n, A.Call) and n.func in _PLACE_CALLS
              and n.func not in ("contains", "graph_distance") and len(n.args) > 1}
    uses = [n for n in A.walk(body) if isinstance(n, A.Name) and n.name == name]
    return bool(uses) and all(id(n) in places for n in uses)


def _nested(v: A.Expr) -> bool:
    """Whether a constant is data, lists in a list or a table: said by its name, never item by item."""
    items = v.items if isinstance(v, A.ListLit) else [x for _, x in v.items] if isinstance(v, A.MapLit) else []
    return any(isinstance(i, (A.ListLit, A.MapLit)) for i in items)


def _is_it(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.name == "it"


def _left_out(e: A.Expr) -> Optional[A.Expr]:
    """The one item `[x for x in xs if x != a]` leaves out of its list (`a`, which does not read `x`)."""
    if not (isinstance(e, A.Comprehension) and isinstance(e.expr, A.Name) and e.expr.name == e.var
            and e.key is None and isinstance(e.cond, A.BinOp) and e.cond.op == "!="):
        return None
    for mine, other in ((e.cond.left, e.cond.right), (e.cond.right, e.cond.left)):
        if isinstance(mine, A.Name) and mine.name == e.var \
                and not any(isinstance(n, A.Name) and n.name == e.var for n in A.walk(other)):
            return other
    return None


def _literal(v: A.Expr) -> Optional[str]:
    """A value as a `told` kind names it: "0", "true", an enum value."""
    return str(v.value).lower() if isinstance(v, (A.Num, A.BoolLit)) else v.name if isinstance(v, A.Name) else None


def widened(name: list[str], said: list[str]) -> bool:
    """Whether `said` is the words of `name` with more inside or after them ("the rooms with a chip", « les
    pièces avec un pion nouvellement vues depuis … » for « les pièces nouvellement vues »): a local that only
    names it."""
    def within(part: list[str], words: list[str]) -> bool:
        return any(words[j:j + len(part)] == part for j in range(len(words) - len(part) + 1))
    return len(said) > len(name) and any(said[:k] == name[:k] and within(name[k:], said[k:])
                                         for k in range(1, len(name) + 1))


def _every(e: A.Expr) -> bool:
    """A list of the items of another that pass a test ("every card … for which …"): a local holding it is
    said as a list after a colon, not as "the cards are every card"."""
    return isinstance(e, A.Comprehension) and isinstance(e.expr, A.Name) and e.expr.name == e.var \
        and _left_out(e) is None


def _die(e: A.Expr) -> bool:
    """The faces of a common die written out (`[1, 2, 3, 4, 5, 6]`): a draw from them is a die roll."""
    return isinstance(e, A.ListLit) and [i.value if isinstance(i, A.Num) else None for i in e.items] == [1, 2, 3, 4, 5, 6]


def _conjuncts(e: Optional[A.Expr]) -> list[A.Expr]:
    """The parts of a condition joined by "and"."""
    if e is None:
        return []
    return _conjuncts(e.left) + _conjuncts(e.right) if isinstance(e, A.BinOp) and e.op == "and" else [e]


def _is_me(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.name == "me"


def _is_owner_of_self(e: A.Expr) -> bool:
    return isinstance(e, A.Call) and e.func == "owner" and len(e.args) == 1 \
        and isinstance(e.args[0], A.Name) and e.args[0].name == "self"


CHOICE = re.compile(r"\{(\w+)\?([^|{}]*)\|([^{}]*)\}")  # a told text's words for a truth value: {forward?forward|back}
COUNTED = re.compile(r"\{(\w+)#([^|{}]*)\|([^|{}]*)(?:\|([^{}]*))?\}")  # a told text's noun for a number: {n#square|squares}
COUNTED_FIRST = re.compile(r"\{(\w+)\}\{\1#")  # a function's text that starts with a number and its noun
PLURAL_MARKED = re.compile(r"⟨([^⟩]*)⟩")  # words a plural verb rule marks to agree with it: « comptent comme ⟨vide⟩ »
TWICE_ASIDE = re.compile(r"( \([^()]+\))(?:\1)+")  # a text's aside said again by the same text inside it: once


def _capitalises(lang: str) -> bool:
    """Whether a language writes its nouns capitalised, so a word before a place shows it is a noun („das Feld {i}“)."""
    grammar = catalogue(lang).data.get("grammar", {})
    return isinstance(grammar, dict) and grammar.get("nouns_capitalised") is True


def headed(text: str, form: str) -> str:
    """A function's text that starts with a place of no case of its own: that place is the phrase's head, so it
    takes the case the context asks for („zwischen 1 und {n}“: dative), not the nominative of the other places."""
    head = PLACEHOLDER.match(text)
    case = form.rpartition("_")[2]  # "a_dat": the case after the determiner
    if head is None or head.group(2) is not None or case not in (*CASES, "gen"):
        return text
    return f"{{{head.group(1)}:{case}}}{text[head.end():]}"


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
        self.card_titles: dict[str, A.Text] = {}  # `card("id")` is said by the card's title
        self.numbered: dict[tuple[str, str, int], list[Optional[A.Text]]] = {}  # (kind, field, number): titles
        self.events: dict[str, A.EventDef] = {}  # the events the rules declare, with their texts
        self.calls: dict[str, int] = {}  # how often each rule is called: a rule called once may be told in place
        self.triggers: dict[str, list[A.TriggerDef]] = {}  # the special rules that react to each event
        tables: dict[type, dict[str, Any]] = {
            A.ZoneDef: self.zones, A.ConstDef: self.consts, A.VarDef: self.vars, A.CurrencyDef: self.currencies,
            A.FunctionDef: self.functions, A.RuleDef: self.rules, A.ActionDef: self.actions,
            A.KindDef: self.kinds, A.EnumDef: self.enums, A.EventDef: self.events}
        self.owners: dict[int, tuple[str, list[tuple[str, Optional[A.TypeRef]]]]] = {}
        self.param_texts: dict[int, dict[str, A.Text]] = {}  # a part's parameters that have their own noun
        self.first_params: set[int] = set()  # the source of each action's first parameter
        items = list(items)
        game = next((i for i in items if isinstance(i, A.GameDef)), None)
        self.player_counts = range(game.min_players, game.max_players + 1) if game is not None else range(0)
        self.readers: dict[int, set[str]] = {}  # a rule body's player parameters that are the reader ("you")
        self.looped: set[str] = set()  # the vars that loops test
        raised: set[str] = set()  # the vars some `set` raises by a positive number, and those set otherwise
        reset: set[str] = set()
        addressed = addressed_params(items)
        for item in items:
            self._own(item)
            if isinstance(item, A.RuleDef):
                self.readers[id(item.body)] = addressed[item.name]
        self.keys: dict[str, A.Expr] = {}  # what each table constant is looked up by (`fee[guard.level]`)
        self.paid: dict[str, str] = {}  # the currency each table constant is paid in (`pay fee[i] coins …`)
        self.texts: list[A.Text] = nodes_of(items, A.Text)  # every display text: the nouns a list's items may be counted by
        for loop in [*nodes_of(items, A.While), *nodes_of(items, A.Turns), *nodes_of(items, A.RoundDef)]:
            tested = [getattr(loop, f) for f in ("cond", "until", "skip", "repeat_while") if hasattr(loop, f)]
            self.looped.update(n.name for n in A.walk(tested) if isinstance(n, (A.Name, A.Attr)))
        for call in nodes_of(items, A.CallRule):
            self.calls[call.rule] = self.calls.get(call.rule, 0) + 1
        for st in nodes_of(items, A.SetStmt):
            if isinstance(st.target, A.Name):
                v = st.value
                grows = isinstance(v, A.BinOp) and v.op == "+" and isinstance(v.left, A.Name) \
                    and v.left.name == st.target.name and isinstance(v.right, A.Num) and v.right.value > 0
                (raised if grows else reset).add(st.target.name)
        for pay in nodes_of(items, A.Pay):
            if isinstance(pay.amount, A.Index) and isinstance(pay.amount.obj, A.Name):
                self.paid.setdefault(pay.amount.obj.name, pay.currency)
        for index in nodes_of(items, A.Index):
            if isinstance(index.obj, A.Name):
                self.keys.setdefault(index.obj.name, index.index)
        self.counters = raised - reset  # vars that only ever grow: one noted earlier differs for good once it grew
        for item in items:
            table = tables.get(type(item))
            if table is not None:
                table[getattr(item, "name")] = item
            if isinstance(item, A.TriggerDef):
                self.triggers.setdefault(item.event, []).append(item)
            if isinstance(item, A.EnumDef):
                self.enum_values.update({v.name: v.text for v in item.values})
            if isinstance(item, A.KindDef):
                for f in item.fields:
                    self.fields.setdefault(f.name, f)
            if isinstance(item, A.CardsDef):
                self.card_titles.update({n.name: n.title for n in A.found(item, A.CardEntry) if n.title is not None})
                self._number_cards(item)
        self.silent: set[str] = set()  # rules that only keep unsaid bookkeeping: no entry, their calls unsaid
        while True:
            found = {r.name for r in self.rules.values() if r.name not in self.silent and r.body and all(
                self.bookkeeping(st) or isinstance(st, A.CallRule) and st.rule in self.silent for st in r.body)}
            if not found:
                break
            self.silent |= found


    def _number_cards(self, cards: A.CardsDef) -> None:
        """Which titled card alone has a number in a field, so that `c.F == N` is said by its title."""
        for row in cards.rows:
            for col, lit in zip(cards.columns, row.values):
                low, high = lit.range or ((lit.value, lit.value) if isinstance(lit.value, int) else (1, 0))
                for n in range(low, high + 1):
                    self.numbered.setdefault((cards.name, col, n), []).append(None)
        for card in cards.cards:
            for v in card.values:
                if isinstance(v.value.value, int) and not isinstance(v.value.value, bool):
                    self.numbered.setdefault((cards.name, v.name, v.value.value), []).extend([card.title] * card.copies)

    def numbered_card(self, kind: str, field: str, n: int) -> Optional[A.Text]:
        """The title of the one card of a kind whose field has this number, if one card alone has it."""
        found = self.numbered.get((kind, field, n), [])
        return found[0] if len(found) == 1 else None

    def var_set(self, s: A.SetStmt) -> Optional[A.VarDef]:
        """The game or player var a `set` changes, if it changes one."""
        t = s.target
        if isinstance(t, A.Name) or isinstance(t, A.Attr) and t.name in self.vars and self.vars[t.name].per_player:
            return self.vars.get(t.name)
        return None

    def bookkeeping(self, s: A.Node) -> bool:
        """Whether a statement only keeps bookkeeping the rulebook never says: a reset (below) or a change
        of a var marked `unsaid` (a count of battles that only a card's effect reads)."""
        var = self.var_set(s) if isinstance(s, A.SetStmt) else None
        return self.reset(s) or var is not None and var.unsaid

    def reset(self, s: A.Node) -> bool:
        """Whether a statement sets an `internal` count, flag or list back to its start value: a fresh
        count, an emptied list, which a rulebook leaves out. Not one a loop tests (there it ends the loop),
        nor a state such as a phase of the turn, which allows or forbids what follows."""
        var = self.var_set(s) if isinstance(s, A.SetStmt) else None
        return var is not None and isinstance(s, A.SetStmt) and var.internal and same(s.value, var.init) \
            and var.name not in self.looped and var.type.name in ("int", "bool", "list") \
            and not any(t.kind == _literal(s.value) and any(t.text.by_lang.values()) for t in var.told)

    def _own(self, item: A.Node) -> None:
        """Which body or expression belongs to which part, with that part's parameters: rendering it
        starts a fresh scope of locals (an action's parameters are bound by the assembler)."""
        params: list[tuple[str, Optional[A.TypeRef]]]
        if isinstance(item, (A.RuleDef, A.FunctionDef)):
            params = [(p.name, p.type) for p in item.params]
            self.owners[id(item.body)] = ("reset", params)
            self.param_texts[id(item.body)] = {p.name: p.text for p in item.params if p.text is not None}
        elif isinstance(item, (A.ScoreDef, A.HeuristicDef, A.WinnerDef)):
            player = [(item.var, A.TypeRef(pos=item.pos, name="player"))]
            terms = sum_terms(item.expr) if isinstance(item, A.HeuristicDef) else []
            for e in [item.expr] + score_parts(item.expr) + terms + [t[1] for t in map(times_term, terms) if t]:
                self.owners[id(e)] = ("reset", list(player))
        elif isinstance(item, A.ActionDef):
            self.owners[id(item.body)] = ("keep", [(p.name, None) for p in item.params])
            self.first_params.update(id(p.domain) for p in item.params[:1])
        elif isinstance(item, (A.PhaseDef, A.SetupDef)):
            self.owners[id(item.body)] = ("reset", [])
        elif isinstance(item, A.RoundDef):
            for phase in item.phases:
                self._own(phase)
        elif isinstance(item, A.CardsDef):
            for effect in A.found(item, A.EffectValue):
                self.owners[id(effect.body)] = ("reset", [])


    def enum_text(self, value: str, enum: str = "") -> A.Text:
        """An enum value's display text, from the enum it belongs to where that is known: two enums may
        both have a value `red`."""
        owner = self.enums.get(enum)
        found = next((v.text for v in owner.values if v.name == value), None) if owner is not None else None
        return found if found is not None else self.enum_values[value]

    def enum_of(self, value: str, enum: str = "") -> A.EnumDef:
        """The enum a value belongs to: the one named where it has the value, else the first that has it."""
        owner = self.enums.get(enum)
        if owner is not None and any(v.name == value for v in owner.values):
            return owner
        return next(e for e in self.enums.values() if any(v.name == value for v in e.values))


_CONDITION_CALLS = ("any", "all", "contains", "revealed")
ENGINE_EVENTS = {"moved": ("card", "zone", "zone")}  # the types of the events the engine itself fires


def is_condition(e: A.Expr) -> bool:
    """Whether an expression reads as a clause (a truth value) rather than a noun; a choice between two
    conditions ("A if B, otherwise C") is one too."""
    return (isinstance(e, A.BinOp) and e.op in ("==", "!=", "<", "<=", ">", ">=", "and", "or")) \
        or isinstance(e, (A.Not, A.BoolLit)) \
        or (isinstance(e, A.CondExpr) and is_condition(e.then) and is_condition(e.other)) \
        or (isinstance(e, (A.Call, A.CallComp)) and e.func in _CONDITION_CALLS)


def _musty(e: A.Expr) -> bool:
    """Whether a condition has a "must" form: a comparison, or several joined by "and"."""
    if isinstance(e, A.BinOp) and e.op == "and":
        return _musty(e.left) and _musty(e.right)
    return isinstance(e, A.BinOp) and e.op in _NEGATED


def _decides(body: Sequence[A.Stmt]) -> bool:
    """Whether a player decides something in a body: then the order of a loop around it matters."""
    return any(isinstance(n, (A.LetChoose, A.ChooseAction, A.Turns, A.TurnsIn)) for n in A.walk(list(body)))


def _stops(body: Sequence[A.Stmt]) -> bool:
    """Whether a loop's body may stop it early (outside loops of its own): then its order matters."""
    for st in body:
        if isinstance(st, A.Break):
            return True
        if isinstance(st, A.If) and (_stops(st.then) or _stops(st.other)):
            return True
    return False


def _foldable(s: A.For, zones: Mapping[str, A.ZoneDef], functions: Mapping[str, A.FunctionDef]) -> bool:
    """Whether a loop's body can be said of all its items at once: moves and gifts of the item itself,
    or one card drawn to each place of the zone it numbers (`draw 1 from deck to row[i]`), nothing else."""
    src = s.source
    numbered = src.args[0].name if isinstance(src, A.Call) and src.func == "positions" and len(src.args) == 1 \
        and isinstance(src.args[0], A.Name) and src.args[0].name in zones else None

    def place(e: A.Expr) -> bool:
        return isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name == numbered \
            and isinstance(e.index, A.Name) and e.index.name == s.var

    direct: set[int] = set()
    for st in s.body:
        if isinstance(st, (A.Move, A.Give)) and isinstance(st.what, A.Name) and st.what.name == s.var:
            direct.add(id(st.what))
            owner = st.to.args[0] if isinstance(st.to, A.Call) and len(st.to.args) == 1 else None
            if isinstance(owner, A.Call) and owner.func == "owner" and len(owner.args) == 1:
                direct.add(id(owner.args[0]))
        elif isinstance(st, A.Move) and numbered and isinstance(st.what, A.Call) and st.what.func in functions \
                and len(st.what.args) == 1 and isinstance(st.what.args[0], A.Name) and st.what.args[0].name == s.var:
            direct.add(id(st.what.args[0]))  # `move keeper(i) to discard`: "the keeper at every row"
        elif isinstance(st, A.Draw) and place(st.to) and (st.count is None or isinstance(st.count, A.Num)):
            direct.add(id(st.to.index) if isinstance(st.to, A.Index) else 0)
        else:
            return False
    return bool(s.body) and all(id(n) in direct for n in A.walk(list(s.body))
                                if isinstance(n, A.Name) and n.name == s.var)


def _group(found: Optional[re.Match[str]]) -> Optional[str]:
    """The first group of a match, if there is one."""
    return found.group(1) if found is not None else None


def _names_items(noun: Noun, source: Phrase) -> bool:
    """Whether a list is said by its items' own noun ("the small tokens on it" for a token): then "each of" it."""
    plural, said = noun.plural(), source.form("nom")
    return plural in said or plural.split(" ")[-1] in said.split(" ")


_SIGNS = ("+", "−", "-", "×", "÷")  # a field in arithmetic is no subject of its own: "whose value + 1" reads as code


def _names_currency(amount: Phrase, currency: Phrase) -> bool:
    """Whether an amount is said by the currency's own noun ("the chips to pay", « les jetons dus » for « jetons
    bonus », whose noun comes first): then no "in chips" after it."""
    words, said = currency.form("nom").split(" "), amount.form("nom").split(" ")
    return words[-1] in said or words[0] in said


_SIMPLE = (A.CallRule, A.Modify, A.SetStmt, A.Move, A.Give, A.Draw)


def _about_item(s: A.For) -> bool:
    """Whether a loop's one statement names its item, as a plain step that may be said of every item at once
    ("poison every other token on its space"): no branch, loop or choice around it."""
    if len(s.body) != 1 or not isinstance(s.body[0], _SIMPLE):
        return False
    return any(isinstance(n, A.Name) and n.name == s.var for n in A.walk(list(s.body)))


def _sifted(s: A.For) -> Optional[A.If]:
    """A loop's whole body as one `if` on its item (every part of the test names it), where no one decides and
    nothing stops the loop: the test can be said of the items ("every rider that is on the board")."""
    test = s.body[0] if len(s.body) == 1 else None
    if not (isinstance(test, A.If) and not test.other and test.then) or _decides(test.then) or _stops(test.then) \
            or isinstance(s.source, A.Comprehension) or isinstance(s.source, A.Name) and s.source.name == "players" \
            or round_from(s.source) is not None or isinstance(s.source, A.Call) and s.source.func == "shortest_path":
        return None
    if not all(any(isinstance(n, A.Name) and n.name == s.var for n in A.walk([c])) for c in _conjuncts(test.cond)):
        return None
    return test


def _moves_only(s: A.For) -> bool:
    """Whether a loop only moves (or gives and moves) its item: said of all its items at once, as the sentence of
    whoever moves them ("the player puts all their tokens …"), not as a loop header."""
    for i, st in enumerate(s.body):
        nxt = s.body[i + 1] if i + 1 < len(s.body) else None
        if not (isinstance(st, A.Move) and not st.bottom or isinstance(st, A.Give) and isinstance(nxt, A.Move)) \
                or not (isinstance(st.what, A.Name) and st.what.name == s.var):
            return False
    return True


def _taken(s: A.For) -> bool:
    """Whether a loop's whole body gives its item to a player and moves it to that player's zone: a take."""
    give, move = (s.body + [None, None])[:2] if len(s.body) == 2 else (None, None)
    return isinstance(give, A.Give) and isinstance(move, A.Move) and isinstance(give.what, A.Name) \
        and give.what.name == s.var and same(move.what, give.what)


def _said(a: Arg) -> Phrase:
    """An argument as a phrase, a plain text being the same in every form."""
    return a if isinstance(a, Phrase) else Phrase(a)


def _quantified(e: A.Expr) -> bool:
    """Whether an expression is `any`/`all` over a list (or its negation): said as a quantifier before its
    condition, whose reach words alone do not end."""
    inner = e.operand if isinstance(e, A.Not) else e
    return isinstance(inner, A.CallComp) and inner.func in ("any", "all")


def _bracketed(inner: Phrase) -> Phrase:
    """A phrase in brackets, in every form: where words alone leave its reach open."""
    return Phrase(lambda f: f"({inner.form(f)})", inner.agree, inner.genitive)


def _in_plural(single: Phrase, plural: Optional[Phrase]) -> Phrase:
    """A phrase whose form "pl", said of several items, is another one where there is one."""
    return single if plural is None else Phrase(lambda f: plural.form(f) if f == "pl" else single.form(f))


def _joined(head: Phrase, rel: Phrase) -> Phrase:
    """A noun phrase with a relative clause after it, in every form."""
    return Phrase(lambda f: head.form(f) + rel.form(f), head.agree, head.genitive)


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
        self.printed: dict[str, int] = {}  # the numbers printed on the card whose effect is said: `self.amount` is "3"
        self.self_kind: Optional[str] = None  # the kind of the card whose effect is said: `self` is "this token"
        self.sources: dict[str, A.Expr] = {}  # variable → the list, zone or family it is drawn from
        self.one_owner: set[str] = set()  # a pair's locals where a branch has said that one player owns both
        self.prelabels: dict[str, str] = {}
        self.scope = Scope(self.prelabels)
        self.nouns = Nouns(symbols, self.cat, lang, self.lookup, self.place_zone, self.self_word)
        self.idioms = Idioms(self)
        self._vocabulary: Optional[dict[str, Noun]] = None  # the nouns of the rules by their plural
        self.place_prep = ""  # the preposition a function's text sets before the argument being said
        self._zone_words: dict[str, dict[str, str]] = {}
        self.enum_hint = ""  # the enum a value compared with something of that enum belongs to
        self.runs_on = False  # what is being said is followed by more of its `and`/`or`: a quantifier in it ends in a bracket
        self.named_owners: frozenset[str] = frozenset()  # players said by name, not "their": another is nearer
        self.said_owners: frozenset[str] = frozenset()  # players an earlier argument of the call being said names
        self.opening: frozenset[str] = frozenset()  # players a part's first sentence names (`unnamed_players`)
        self.depth = 0  # how deep in blocks: the outermost one is said again if a local got a letter late
        self.domains: set[int] = set()  # the sources of actions' parameters, said as "from your hand"
        self.loops: list[Optional[Noun]] = []  # the items of the loops around a statement, for "the remaining rows"
        self.origin_role = "at"  # the cards a loop goes over lie "in the box"; those a move takes come "from" it
        self.actor: Optional[Phrase] = None  # inside "for each player": who moves and draws ("the player draws …")
        self.branches = 0  # how many `if`s the statement said is inside: a value set there is what the branch does
        self.symbolised: dict[int, dict[str, str]] = {}  # a function's body → its parameters named by letters (symbolise)

    # ------------------------------------------------------------ helpers
    def msg(self, key: str, node: Optional[A.Node], /, **args: Arg) -> Phrase:
        pattern = self.cat.pattern(key, node.pos if node else None)
        head = PLACEHOLDER.match(pick(pattern, "nom"))
        first = args.get(head.group(1)) if head and not head.group(2) else None
        genitive = (isinstance(pattern, dict) and "gen" in pattern) or (isinstance(first, Phrase) and first.genitive)
        return Phrase(lambda f: fill(pattern, f, args), agreement(self.cat, pattern, args), genitive)

    def sentence(self, key: str, node: Optional[A.Node], form: str = "default", **args: Arg) -> str:
        return self.text(key, node, form, args)

    def text(self, key: str, node: Optional[A.Node], form: str, args: Mapping[str, Arg]) -> str:
        return self.cat.polish(self.msg(key, node, **args).form(form))

    def lookup(self, name: str) -> Optional[Ref]:
        return self.scope.refs.get(name)

    def self_word(self) -> Optional[str]:
        """The noun `self` is said with, "token" for "this token"; None outside a card's effect."""
        kind = self.sym.kinds.get(self.self_kind or "")
        return self.noun(kind.title, f"kind '{kind.name}'", kind.pos).word if kind is not None else None

    def ref(self, name: str) -> Ref:
        """The local of that name in scope; one the generator never saw bound is "the value"."""
        found = self.lookup(name)
        return found if found is not None else self.scope.bind(name, Ref(self.nouns.word("value")))

    def var(self, name: str) -> Phrase:
        """A local of the rules (parameter, loop variable, `let`) by the noun of what it holds; looked
        up when the text is made, so an item's parameters may be bound after it is asked for."""
        found = self.lookup(name)  # bound already: its verb agrees with it ("the spaces in sight are …")

        def make(f: str) -> str:
            said = self.ref(name).phrase(self.cat)
            return said.form(f) if f != "gen" or said.genitive else "von " + said.form("dat")  # lettered since
        return Phrase(make, found.phrase(self.cat).agree if found else "",
                      found is not None and found.phrase(self.cat).genitive)  # "des Spielers", not "vom Spieler"

    def enter(self, node: object) -> None:
        """At the body or expression of a part: a fresh scope with that part's parameters."""
        owned = self.sym.owners.get(id(node))
        if owned is None:
            return
        how, params = owned
        if how == "keep":
            names = {n for n, _ in params}
            self.scope.refs = {n: r for n, r in self.scope.refs.items() if n in names}
            return
        self.scope = Scope(self.prelabels)
        texts = self.sym.param_texts.get(id(node), {})
        readers = self.sym.readers.get(id(node), set())
        for name, t in params:
            ref = Ref(self.nouns.word("player"), you=True) if name in readers \
                else self.named(self.param_ref(name, t, node), texts.get(name))
            if name in texts and t is not None and t.list_of is not None:  # one of "the messengers" is a token
                ref.item = self.nouns.of_type(t).item  # (of a kind or enum; one of "the rows" stays a row)
            text = texts.get(name)
            if text is not None and t is not None and t.name == "bool" and self.lang in text.by_lang:
                ref.clause = self.clause(text, self.literal(text.by_lang[self.lang]), {})  # a yes/no one by its clause
            self.scope.bind(name, ref)
        for name, letter in self.symbolised.get(id(node), {}).items():
            self.scope.refs[name].label, self.scope.refs[name].symbol = letter, True

    def param_ref(self, name: str, t: Optional[A.TypeRef], body: object) -> Ref:
        """A parameter by its type; a number that indexes a zone (`row[i]`, "row {i}") by
        that zone's place."""
        if t is not None and t.name == "int":
            own = next((f.text.by_lang[self.lang] for f in self.sym.functions.values() if f.body is body
                        and f.text is not None and self.lang in f.text.by_lang), "") if _graph_place_only(name, body) else ""
            zone = self.slot_in_calls(name, body) or uses_as_place(name, [body], self.sym.zones) \
                or slot_zone(own, name, self.zone_words())  # "the square straight on after square {at}": the squares
            if zone is not None:  # a graph leads to from it, not its nodes
                return self.nouns.zone_ref(zone)
        return self.nouns.of_type(t)

    def slot_in_calls(self, name: str, body: object) -> Optional[str]:
        """The zone a function's text names before the place a number is passed to."""
        for node in A.walk(body):
            if isinstance(node, A.Call) and node.func in self.sym.functions:
                fn = self.sym.functions[node.func]
                for param, arg in zip(fn.params, node.args):
                    if isinstance(arg, A.Name) and arg.name == name and fn.text and self.lang in fn.text.by_lang:
                        zone = slot_zone(fn.text.by_lang[self.lang], param.name, self.zone_words())
                        if zone is not None:
                            return zone
        return None

    def zone_words(self, lang: str = "") -> dict[str, str]:
        """Each numbered zone's noun in `lang` (the speaker's by default; read only: made once per speaker and language)."""
        lang = lang or self.lang
        words = self._zone_words.get(lang)
        if words is None:
            words = self._zone_words[lang] = {
                z.name: Noun(z.text.by_lang[lang], catalogue(lang)).word for z in self.sym.zones.values()
                if z.shape == "indexed" and z.text is not None and lang in z.text.by_lang}
        return words

    def zone_def_of(self, e: A.Expr) -> Optional[A.ZoneDef]:
        """The zone an expression names or lists the cards of (`hand(p)`, `row[i]`, `cards(row)`, a filter of one)."""
        if isinstance(e, A.Comprehension):
            return self.zone_def_of(e.source)
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1:
            e = e.args[0]
        name = e.name if isinstance(e, A.Name) and e.name not in self.scope.refs else e.func if isinstance(e, A.Call) \
            else e.obj.name if isinstance(e, A.Index) and isinstance(e.obj, A.Name) else ""
        return self.sym.zones.get(name)

    def prep(self, e: A.Expr, role: str) -> str:
        """The preposition of the zone an expression names, in a role: "to" (onto the pile), "at", "from"."""
        return preposition(self.zone_def_of(e), role, self.cat)

    def destination(self, e: A.Expr, said: Optional[Phrase] = None) -> Phrase:
        """Where a card goes (`said`: how, else the expression), in the case its preposition governs
        where that is not the pattern's own (German "zu seinen Handkarten")."""
        said, governed = said or self.expr(e), case(self.zone_def_of(e), "to", self.cat)
        return Phrase(lambda f: said.form(governed), said.agree, said.genitive) if governed else said

    def possessor(self, e: A.Expr) -> bool:
        """Whether a thing of this local is "their …": the one player in scope, no other beside it."""
        found = self.lookup(e.name) if isinstance(e, A.Name) and e.name not in self.named_owners else None
        if found is None or found.you or found.label:
            return False
        return found.noun.word == self.nouns.word("player").word

    def unnamed_players(self) -> frozenset[str]:
        """The players in scope that a part's first sentence names where it does not open with them (a `let`, a loop
        header): nothing has said them yet, so "seiner Hand" would have no antecedent; „auf der Hand des Spielers“."""
        return frozenset(n for n, r in self.scope.refs.items() if not r.you and not r.label
                         and r.noun.word == self.nouns.word("player").word)

    def is_you(self, e: A.Expr) -> bool:
        """Whether an expression is the reader: `me`, or the player whose turn it is."""
        if _is_me(e):
            return True
        found = self.lookup(e.name) if isinstance(e, A.Name) else None
        return found is not None and found.you

    @staticmethod
    def literal(text: str) -> str:
        """Text from the rules file inside a sentence, with its asterisks kept literal."""
        return text.replace("*", "\\*")

    def noun(self, text: Optional[A.Text], what: str, pos: A.Pos) -> Noun:
        return Noun(text_of(text, self.lang, what, pos), self.cat)

    def field_def(self, e: A.Attr) -> Optional[A.FieldDef]:
        """The field an attribute reads: in a card's effect, `it.F` is the card's own kind's."""
        own = [f for f in self.sym.kinds[self.it_kind].fields if f.name == e.name] if self.it_kind \
            and isinstance(e.obj, A.Name) and e.obj.name == "it" else []
        return own[0] if own else self.sym.fields.get(e.name)

    @staticmethod
    def same_attr(a: A.Expr, b: A.Expr) -> bool:
        """Whether two expressions read the same field of the same named card (`it.hidden`, `c.hidden`)."""
        return isinstance(a, A.Attr) and isinstance(b, A.Attr) and a.name == b.name \
            and isinstance(a.obj, A.Name) and isinstance(b.obj, A.Name) and a.obj.name == b.obj.name

    def field_clause(self, e: A.Expr, negated: bool = False) -> Optional[Phrase]:
        """A yes/no field whose text is a clause about its card ("{it} is hidden"), with the card in
        its place, or its `not` text ("{it} is not hidden"); None for a field named by a noun. A player's own
        yes/no var reads the same way ("{it} waits"): a clause, not "their waits"."""
        own = self.sym.vars.get(e.name) if isinstance(e, A.Attr) else None
        fdef: Optional[Union[A.FieldDef, A.VarDef]] = own if own is not None and own.per_player \
            else self.field_def(e) if isinstance(e, A.Attr) and e.name not in self.sym.currencies else None
        text = fdef.negated if fdef is not None and negated else fdef.text if fdef is not None else None
        if fdef is None or fdef.type.name != "bool" or text is None or self.lang not in text.by_lang \
                or IT_PLACE not in text.by_lang[self.lang] or not isinstance(e, A.Attr):
            return None
        part = "var" if isinstance(fdef, A.VarDef) else "field"
        self.check_places(text.by_lang[self.lang], ["it"], text.pos, f"{part} '{fdef.name}'")
        return self.clause(e, text.by_lang[self.lang], {"it": self.expr(e.obj)})

    def clause(self, at: A.Node, template: str, values: Mapping[str, Arg], agree: str = "") -> Phrase:
        """A clause of the rules file with its places filled, in the forms a sentence asks for: as written,
        negated ("neg"), in subordinate order ("vlast", German verb last), or both ("neg_vlast")."""
        grammar = self.cat.data.get("grammar", {})
        words = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
        assert isinstance(words, dict)

        def make(f: str) -> str:
            text: Optional[str] = template
            if f.startswith("neg"):
                text = clauses.negated(template, words)
                if text is None:  # no verb found: "it is not the case that …"
                    operand = Phrase(fill(template, "nom", values))
                    return fill(self.cat.pattern("expr.not", at.pos), "sub" if f.endswith("vlast") else "main",
                                {"operand": operand})
            if f.endswith("vlast") and text is not None and words.get("verb_last"):
                moved = clauses.verb_last(text, words)
                text = moved if moved is not None else str(words.get("unordered", "{clause}")).replace("{clause}", text)
            return fill(text or template, "nom", values)
        said = self.msg("expr.clause", at, clause=Phrase(make, agree))
        said.clause = True
        return said

    def word(self, key: str, form: str = "nom") -> str:
        """A word of the catalogue; a table of forms gives e.g. French lists their "et à" (form dat)."""
        return pick(self.cat.pattern(f"word.{key}"), form)

    def join(self, parts: Sequence[Arg], last: str = "list_last", sep: str = "list_sep") -> Phrase:
        """`a, b and c`, each part in the asked-for form; `sep` names the word between the earlier parts."""
        def make(f: str) -> str:
            texts = [p if isinstance(p, str) else p.form(f) for p in parts]
            if len(texts) < 2:
                return "".join(texts)
            return self.word(sep, f).join(texts[:-1]) + self.word(last, f) + texts[-1]
        one = parts[0] if len(parts) == 1 and isinstance(parts[0], Phrase) else None  # keeps its genitive
        return Phrase(make, "pl" if len(parts) > 1 else "", one is not None and one.genitive)  # "a and b" is plural

    def titled_value(self, name: str, word: str) -> Phrase:
        """An enum value whose text has no article, asked for in the dative (`{x:dat}`), is said after its enum's title
        where the title takes an article: „mit dem Pfad „Dunkle Höhle““, not „mit Dunkle Höhle“, whose case nothing
        shows; "with the path “Dark cave”"."""
        enum = self.sym.enum_of(name, self.enum_hint)
        if enum.title is None:
            return Phrase(word)
        title = self.noun(enum.title, f"enum '{enum.name}'", enum.pos)
        head, quoted = title.np("def"), self.quoted(word)
        if head.form("dat") == title.word:  # a title without article („Kartentyp“) would not help
            return Phrase(word)
        return Phrase(lambda f: f"{head.form(f)} {quoted}" if f == "dat" else word, head.agree)

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
        if id(e) in self.domains:  # an action's parameter: `item.action_param` asks for where it comes from
            return self.domain(e)
        return self._expr(e)

    def _expr(self, e: A.Expr) -> Phrase:
        self.enter(e)
        idiom = self.idioms.expr(e)
        return idiom if idiom is not None else self._written(e)

    def as_written(self, e: A.Expr) -> Phrase:
        """An expression said as written, without the idiom that would say its outermost operation (its parts keep
        theirs): for a definition whose idiom only restates its function's title and that has no level below it
        (Speaker.unfolded), "the number of their spent tokens is greater than 0", not "they have spent tokens"."""
        self.enter(e)
        return self._written(e)

    def _written(self, e: A.Expr) -> Phrase:
        """An expression said by the method for its kind of node."""
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
        if name in self.scope.refs:  # a local hides a part of the game with the same name
            ref = self.scope.refs[name]
            if ref.zone is not None:  # a place said as a number: "the number of the slot"
                return self.msg("expr.place_number", e, place=ref.phrase(self.cat))
            return ref.phrase(self.cat)
        if name == "self" and self.self_kind in sym.kinds:  # a card is called what its kind is: "this token"
            kind = sym.kinds[self.self_kind]
            return self.noun(kind.title, f"kind '{kind.name}'", kind.pos).np("this")
        if name in _SPECIAL_NAMES:
            return self.msg(f"name.{name}", e)
        if name in sym.zones:
            zone = sym.zones[name]
            return self.noun(zone.text, f"zone '{name}'", zone.pos).np("def" if zone.shape == "single" else "each")
        if name in sym.consts:
            return self.const(sym.consts[name])
        if name in sym.vars:
            var = sym.vars[name]
            noun = self.noun(var.text, f"var '{name}'", var.pos)
            if var.type.name == "bool" and not var.per_player:  # a flag: its text is a clause, or "X is set"
                said = var.negated is not None or noun.gender == "default"  # a flag with a `not` text is a clause
                if said and var.text is not None:
                    return self.clause(e, var.text.by_lang[self.lang], {})
                return self.msg("expr.flag", e, name=noun.np("def"), clause=Phrase(noun.word))
            return noun.np("def")
        if name in sym.enum_values:  # a value whose text has its article is declined: „auf dem Wahrsager“
            value = self.noun(sym.enum_text(name, self.enum_hint), f"value '{name}'", e.pos)
            return value.np("def") if value.gender != "default" else self.titled_value(name, value.word)
        if name in sym.enums:
            enum = sym.enums[name]
            return self.noun(enum.title, f"enum '{name}'", enum.pos).np("def")
        if name in sym.functions and not sym.functions[name].params:
            return self.function_phrase(sym.functions[name], [], e)
        return self.ref(name).phrase(self.cat)  # a local the generator saw no binding of

    def const(self, c: A.ConstDef) -> Phrase:
        """A constant shows its value ("3", "the list 2, 3 and 4"); a long list of numbers (a board's geometry),
        an `internal` list or table (data for the rules) or a computed value is said by the constant's name
        ("the start spaces")."""
        v = c.value
        if isinstance(v, A.BoolLit) and c.negated is not None and c.text is not None and self.lang in c.text.by_lang:
            return self.clause(c, c.text.by_lang[self.lang], {})  # a yes/no setting by its clause: "jokers add up", not "true"
        if not self.named_const(c):
            return self.expr(v)
        return self.noun(c.text, f"const '{c.name}'", c.pos).np("def")

    def named_const(self, c: A.ConstDef) -> bool:
        """Whether a constant is said by its name (`const`), not by its value."""
        v = c.value
        data = isinstance(v, A.ListLit) and len(v.items) > _SHORT_LIST and all(
            isinstance(n, (A.Num, A.ListLit)) for n in A.walk(v.items) if isinstance(n, A.Node))  # numbers: a board's geometry
        data = data or _nested(v) or (c.internal and isinstance(v, (A.ListLit, A.MapLit, A.Num)))  # a named number: "the start", not "1"
        return (data or isinstance(v, (A.Comprehension, A.Call))) and c.text is not None and self.lang in c.text.by_lang

    def function_phrase(self, fn: A.FunctionDef, args: Sequence[Arg], at: A.Node,
                        nodes: Sequence[A.Expr] = ()) -> Phrase:
        """A function's text names its value; `{param}` places in it take the arguments, otherwise
        they follow as "of …". A condition's text is a clause (main-clause order). Where it is
        defined, its parameters are introduced: "the cost for a player to take a token"."""
        noun = self.noun(fn.text, f"function '{fn.name}'", fn.pos)
        defined = at is fn
        if defined:
            self.enter(fn.body)
            modified = {p.name: self.modifier(noun.word, p) for p in fn.params}
            args = [modified[p.name] or self.intro(p.name) for p in fn.params]
            nodes = [A.Name(pos=fn.pos, name=p.name) for p in fn.params]
        counted = COUNTED_FIRST.match(noun.word) is not None  # "2 steps as …", "the steps of the card as …": no article
        det = "bare" if noun.gender == "default" and (is_condition(fn.body) or counted) else "def"
        if nodes and COUNTED.search(noun.word):  # "{n}{n# step| steps|}": the noun for the number passed
            noun.word = self.choices(noun.word, dict(zip((p.name for p in fn.params), nodes)), fn.pos)
        name = noun.np(det)
        if "{" in noun.word or "}" in noun.word:
            self.check_places(noun.word, [p.name for p in fn.params], fn.text.pos if fn.text else fn.pos,
                              f"function '{fn.name}'")
            text = noun.word
            values = dict(zip((p.name for p in fn.params), args))
            whole = False  # a place said with its own article where the text's article was the function's
            placed: set[str] = set()
            looped = {n.name for n in nodes if isinstance(n, A.Name) and (r := self.lookup(n.name)) is not None
                      and r.every is not None}  # said once only: asking for its words would count as saying them
            pasted = set() if defined else {p.name for p, a, n in zip(fn.params, args, nodes) if p.name in self.apposed(fn)
                                            and (p.type.name == "int" or p.type.name in self.sym.enums)
                                            and not (isinstance(n, A.Name) and n.name in looped)
                                            and " " in (a if isinstance(a, str) else a.form("nom"))}
            for param, node, arg in zip(fn.params, nodes, args):
                text, place, alone = self._slot_place(text, param.name, node, defined)
                if place is None and param.name in pasted:
                    text, opening, word = self.unapposed(text, param.name)
                    whole = whole or opening
                    ref = self.lookup(node.name) if isinstance(node, A.Name) else None
                    if word and ref is not None and ref.zone is not None:  # "the chamber of the space is free", not "the number of the space is"
                        values[param.name] = self.msg("expr.zone_of_place", node, zone=self.rules_noun(word).np("def"),
                                                      place=ref.phrase(self.cat))
                elif place is None and not defined and not isinstance(node, A.Name):
                    text = unrepeated(text, param.name, arg)
                whole = whole or alone
                if place is not None:
                    values[param.name] = place
                    placed.add(param.name)
                text = text if defined else self.owned_place(text, param.name, node)
                text, det = (text, det) if defined or place is not None or is_condition(fn.body) \
                    else self.owned_head(text, param.name, node, det)
            if defined:
                text = self.symbolise(fn, text, {n for n, m in modified.items() if m is not None} | placed)
            else:
                values = self.bracket_filtered(text, values, dict(zip((p.name for p in fn.params), nodes)))
            said = noun.np(det)
            several = noun.gender != "default" and not is_condition(fn.body) and any(
                isinstance(n, A.Name) and (r := self.lookup(n.name)) is not None and r.every is not None
                and r.every.agree == "pl" for n in nodes)  # "die Steine an allen Plätzen": one at each place
            if text != noun.word or several:
                changed = Noun(f"{noun.gender} {text}" if noun.gender != "default" and not whole else text, self.cat)
                said = Noun(f"{self.cat.pattern('grammar.plural_article')} {changed.plural()}", self.cat).np("def") \
                    if several else changed.np(det)
            if is_condition(fn.body):
                values = self.agreed_values(text, values, dict(zip((p.name for p in fn.params), nodes)))
                return self.clause(at, said.form("nom"), values, name.agree)
            return Phrase(lambda f: TWICE_ASIDE.sub(r"\1", fill(headed(said.form(f), f), "nom", values)),
                          said.agree if text != noun.word or several else name.agree, said.genitive)  # no case: nominative (bar a head)
        if not args:  # a condition's text is a clause: "wenn die Lava steigt"
            return self.clause(at, name.form("nom"), {}, name.agree) if is_condition(fn.body) else name
        return self.msg("expr.function", at, name=name, args=self.join(list(args)))

    def unfolded(self, e: A.Expr) -> Optional[A.Expr]:
        """A definition one level further down than it is written, for one that would only restate its function's
        title: a call as the called function's body with the arguments in its parameters' places, otherwise the
        named numbers it compares as their values ("A is 1", not "A is the home row"); None where there is neither."""
        fn = self.sym.functions.get(e.func) if isinstance(e, A.Call) else None
        if isinstance(e, A.Call) and fn is not None and len(fn.params) == len(e.args):
            return substituted(fn.body, {p.name: a for p, a in zip(fn.params, e.args)})
        named = {n.name: c.value for n in A.walk(e) if isinstance(n, A.Name) and n.name not in self.scope.refs
                 and (c := self.sym.consts.get(n.name)) is not None and isinstance(c.value, A.Num) and self.named_const(c)}
        return substituted(e, named) if named else None

    def continued(self, fn: A.FunctionDef, said: Phrase) -> Optional[Phrase]:
        """A definition that calls a function whose text is this one's with more after it, this one's parameters in
        the same places („die Kraft {p:vgen}“ defined as „die Kraft {p:vgen} mit {ts:dat}“): said from where the two
        part, after the catalogue's pronoun for the title's noun (`grammar.continued`): „diejenige mit seinem Stapel“,
        not the title again as the definition's start. A language without a pronoun that reads right there says the
        call whole: "the power of the player with their pile" (English "that with …" and French « celle avec … »
        read as broken or familiar: review s22)."""
        call = fn.body
        called = self.sym.functions.get(call.func) if isinstance(call, A.Call) else None
        grammar = self.cat.data.get("grammar", {})
        pronouns = grammar.get("continued") if isinstance(grammar, dict) else None
        if not isinstance(call, A.Call) or called is None or not isinstance(pronouns, dict) \
                or not self.continues(fn, called, call):
            return None
        start = self.expr(A.Call(pos=call.pos, func=fn.name, args=[A.Name(pos=call.pos, name=p.name) for p in fn.params]))
        head, whole = start.form("nom"), said.form("nom")
        if not whole.startswith(head + " "):  # (a parameter said otherwise in the longer text)
            return None
        gender = self.noun(fn.text, f"function '{fn.name}'", fn.pos).gender
        return Phrase(f"{pronouns.get(gender, pronouns.get('default', ''))}{whole[len(head):]}", said.agree)

    def continues(self, fn: A.FunctionDef, called: A.FunctionDef, call: A.Call) -> bool:
        """Whether the called function's text starts with the text of the function that calls it, followed by more,
        and the call passes that function's parameters in the places the two texts share."""
        own = text_of(fn.text, self.lang, f"function '{fn.name}'", fn.pos)
        text = text_of(called.text, self.lang, f"function '{called.name}'", called.pos)
        parts = PLACEHOLDER.split(own)  # text, name, case, text, …
        found = re.match("".join(re.escape(part) if i % 3 == 0 else PLACEHOLDER.pattern if i % 3 == 1 else ""
                                 for i, part in enumerate(parts)) + " ", text)
        args = dict(zip((p.name for p in called.params), call.args))
        return found is not None and len(args) == len(called.params) == len(call.args) and all(
            isinstance(arg := args.get(place), A.Name) and arg.name == own_place
            for place, own_place in zip(found.groups()[::2], parts[1::3]))

    def agreed_values(self, text: str, values: dict[str, Arg], nodes: Mapping[str, A.Expr]) -> dict[str, Arg]:
        """Enum values a clause says of its feminine subject as a predicate (a place after a word of the catalogue's
        `grammar.feminine.after`), in the feminine by its ending rules: « la gemme compte comme Bleue », not
        « … comme Bleu »; as written elsewhere (« la couleur : Bleu »). Review rv19 K7."""
        grammar = self.cat.data.get("grammar", {})
        rules = grammar.get("feminine") if isinstance(grammar, dict) else None
        subject = re.match(r"\{(\w+)(?::\w+)?\}", text)
        node = nodes.get(subject.group(1)) if subject is not None else None
        ref = self.lookup(node.name) if isinstance(node, A.Name) else None
        kind = self.sym.kinds.get(self.self_kind or "") if isinstance(node, A.Name) and node.name == "self" else None
        noun = ref.noun if ref is not None else self.noun(kind.title, f"kind '{kind.name}'", kind.pos) if kind else None
        if not isinstance(rules, dict) or noun is None or not noun.feminine():
            return values
        after = "|".join(re.escape(str(w)) for w in rules.get("after", []))
        endings = [(str(k), str(v)) for k, v in rules.items() if k != "after"]

        def agreed(said: Phrase) -> Phrase:
            def form(f: str) -> str:
                word = said.form(f)
                rule = next(((k, v) for k, v in endings if re.search(k, word)), None)
                return re.sub(rule[0], rule[1], word, count=1) if rule is not None else word
            return Phrase(form, said.agree)
        out = dict(values)
        for name, n in nodes.items():
            said = values.get(name)
            if isinstance(n, A.Name) and n.name in self.sym.enum_values and isinstance(said, Phrase) \
                    and re.search(r"(?:^|\s)(?:" + after + r") \{" + name + r"(?::\w+)?\}", text):
                out[name] = agreed(said)
        return out

    def bracket_filtered(self, text: str, values: dict[str, Arg], nodes: Mapping[str, A.Expr]) -> dict[str, Arg]:
        """An argument with a filter of its own, set right before a relative clause of the function's text, in
        brackets: the clause is the function's, not the end of the filter's (« … le numéro de la tour (dont la
        puissance du joueur couvre le coût) » read the cost as the tower's; review rv19 K5)."""
        grammar = self.cat.data.get("grammar", {})
        opens = grammar.get("relative_after") if isinstance(grammar, dict) else None
        if not isinstance(opens, str):
            return values
        out = dict(values)
        for name, node in nodes.items():
            said = values.get(name)
            after = re.search(r"\{" + name + r"(?::\w+)?\}(.*)", text)
            if isinstance(node, A.Comprehension) and node.cond is not None and isinstance(said, Phrase) \
                    and after is not None and re.match(opens, after.group(1)):
                out[name] = bracketed(said)
        return out

    def apposed(self, fn: A.FunctionDef) -> set[str]:
        """The parameters whose place a function's text sets right beside a noun, as a number names a thing („das Feld
        {i}“, „{n} Schritte“) or joins such a place („{lo} bis {hi}“), but not a board's place said as such („das
        Feld“ a place in scope is); read from a text in a language that writes its nouns capitalised (catalogue
        `grammar.nouns_capitalised`), so every language names the same ones by letters."""
        texts = fn.text.by_lang if fn.text is not None else {}
        lang = next((l for l in texts if _capitalises(l)), None)
        if lang is None or self.lang not in texts:
            return set()
        text, found = texts[lang], set[str]()
        for p in fn.params:
            at = text.find("{" + p.name + "}")
            ref = self.lookup(p.name)
            if at < 0 or slot_zone(text, p.name, self.zone_words(lang)) is not None and ref is not None and ref.zone:
                continue  # a board's place, said as such: „vom Feld aus“
            before = text[:at].rstrip(" „\"«").split(" ")[-1]
            joined = re.search(r"\{(\w+)\} [a-zäöüß]+ $", text[:at])
            if before[:1].isupper() or re.match(r" [A-ZÄÖÜ]", text[at + len(p.name) + 2:]) \
                    or joined is not None and joined.group(1) in found:
                found.add(p.name)
        return found

    def symbolise(self, fn: A.FunctionDef, text: str, said: set[str]) -> str:
        """Where a function is defined, a number, list or enum value its text sets right beside a noun („das Feld {i}“,
        „die Sitze {lo} bis {hi}“, „{n} Schritte“) is named by a letter, as a formula would („das Feld A“), not by
        its kind („das Feld eine Zahl“); `symbols_aside` says the kind. `said`: the places said otherwise."""
        apposed = self.apposed(fn) - said - self.after_article(text)
        names = [p.name for p in fn.params if p.name in apposed
                 and (p.type.name == "int" or p.type.list_of is not None or p.type.name in self.sym.enums)]
        used = {r.label for r in self.scope.refs.values()} - {""}
        letters: dict[str, str] = {}
        for name in names:
            letters[name] = self.ref(name).label or free_label(used)
            used.add(letters[name])
        self.symbolised[id(fn.body)] = letters
        self.enter(fn.body)  # bound again, by their letters
        for name in names:
            text = re.sub(r"[„“\"«]\s?(\{" + name + r"\})\s?[“”\"»]", r"\1", text)  # „A“: a letter needs no quotes
        return text

    def with_symbols(self, fn: A.FunctionDef, name: Phrase) -> Phrase:
        """A function's name with the kinds of its lettered parameters after it: „das Feld A (A: eine Zahl)“; in the
        aside the name ends with, if it ends with one: „die Sitze A bis B (frei oder nicht; A, B: Zahlen)“."""
        symbols = self.symbols_aside(fn)
        if symbols is None:
            return name
        gap = self.word("symbol_gap")
        aside = self.msg("item.function_symbols", fn, name=name, symbols=symbols)
        return Phrase(lambda f: name.form(f)[:-1] + gap + symbols.form("nom") + ")" if name.form(f).endswith(")")
                      else aside.form(f), name.agree, name.genitive)

    def after_article(self, text: str) -> set[str]:
        """The places a text sets right after an article ("the {k} is in play"): a letter there would read as a noun."""
        tables = self.cat.data.get("articles", {})
        forms = [t.get(k) for t in (tables.values() if isinstance(tables, dict) else []) if isinstance(t, dict)
                 for k in ("def", "indef")]
        dets = {w for f in forms for w in ([f] if isinstance(f, str) else f.values() if isinstance(f, dict) else [])}
        return {m.group(2) for m in re.finditer(r"(\S+) [„“\"«]?\s?\{(\w+)(?::\w+)?\}", text) if m.group(1) in dets}

    def symbols_aside(self, fn: A.FunctionDef) -> Optional[Phrase]:
        """The kinds of the parameters `symbolise` named by letters: „A, B: Zahlen“, „A: ein Wurf; B: …“."""
        kinds: dict[str, list[Ref]] = {}
        for p in fn.params:
            ref = self.lookup(p.name)
            if ref is not None and ref.symbol:
                kinds.setdefault(ref.noun.word, []).append(ref)
        if not kinds:
            return None
        said = [self.msg("item.symbol", fn, letters=self.join([r.label for r in refs], "list_sep"),
                         kind=refs[0].noun.plural() if len(refs) > 1 else refs[0].noun.np("indef").form("nom"))
                for refs in kinds.values()]
        return self.join(said, "symbol_gap", "symbol_gap")

    def owned_place(self, text: str, param: str, node: A.Expr) -> str:
        """`{p}'s coins` said "your coins" for the reader and "their coins" for the one player in scope,
        where the catalogue writes a possessive after a place ("'s")."""
        grammar = self.cat.data.get("grammar", {})
        mark = grammar.get("possessive") if isinstance(grammar, dict) else None
        place = f"{{{param}}}{mark} "
        if not isinstance(mark, str) or place not in text or not isinstance(node, A.Name):
            return text
        det = "your" if self.is_you(node) else "their" if self.possessor(node) else ""
        return text.replace(place, self.nouns.word("player").det(det).form("nom") + " ") if det else text

    def owned_head(self, text: str, param: str, node: A.Expr, det: str) -> tuple[str, str]:
        """`die Freunde {p:vgen} in …` said „seine Freunde in …“ for the one player in scope („deine“ for the
        reader), where the catalogue writes a possessive after the head noun (`possessive_slot`): the place
        follows the text's one noun, after adjectives alone (not „ein Freund“, „auf dem Feld“), and that noun
        is no place of a board (said as a place elsewhere: „auf deinem Feld“). A language whose phrase names a
        player by name, but says them again by their possessive (`possessive_again`), does so in an argument
        after one that names them: "the power of the player with their strong tokens in the pile", not "… with
        the strong tokens of the player in the pile"."""
        grammar = self.cat.data.get("grammar", {})
        again = isinstance(node, A.Name) and node.name in self.said_owners
        mark = grammar.get("possessive_again" if again and "possessive_again" in grammar else "possessive_slot") \
            if isinstance(grammar, dict) else None
        clause = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
        small = set(clause.get("skip", [])) if isinstance(clause, dict) else set()
        if not isinstance(mark, str) or not isinstance(node, A.Name):
            return text, det
        head, found, rest = text.partition(mark.replace("{slot", "{" + param))
        ref = self.lookup(node.name)
        folded = ref is not None and ref.every is not None  # said of every item at once: „die Figur jedes Spielers“
        owner = "your" if self.is_you(node) else "their" if self.possessor(node) and not folded else ""
        *before, noun = head.split(" ")
        if not found or not owner or "{" in head or _capitalises(self.lang) and not noun[:1].isupper() or noun in self.zone_words().values() \
                or any(not w[:1].islower() or w in small for w in before):
            return text, det
        return head + rest, owner

    def function_title(self, fn: A.FunctionDef, text: str) -> str:
        """A function's heading (its text without article): each parameter's place said as it is
        introduced ("Load of a row", "Cost for a player to take a card")."""
        self.enter(fn.body)
        text = self.choices(text, {p.name: A.Name(pos=fn.pos, name=p.name) for p in fn.params}, fn.pos)
        values: dict[str, Arg] = {p.name: self.intro(p.name) for p in fn.params}
        for p in fn.params:
            text, place, _ = self._slot_place(text, p.name, A.Name(pos=fn.pos, name=p.name), True)
            if place is not None:
                values[p.name] = place
        return self.cat.contract(fill(text, "nom", values))

    def modifier(self, text: str, p: A.Param) -> Optional[Phrase]:
        """An enum parameter that names a kind of card where its part is defined ("the used {t} cards", „{t}-Karten“,
        « les cartes {t} », "{t} tokens"): its title alone ("the used colour tokens"), not "the used a colour tokens"."""
        kinds = [self.nouns.word("card")] + [n for k in self.sym.kinds.values() if (n := self.nouns.text(k.title))]
        cards = "|".join(re.escape(w) for n in kinds for w in (n.word, n.plural()))
        place = r"\{" + p.name + r"(?::\w+)?\}"
        if p.type.name not in self.sym.enums or not re.search(
                rf"(?:\b(?:{cards}) {place}|(?:^|\S ){place}(?:-| (?:{cards})\b))", text, re.IGNORECASE):
            return None
        return Phrase(lambda f: self.ref(p.name).phrase(self.cat).form("bare"))

    def intro(self, name: str) -> Phrase:
        """A parameter where its part is defined: "a player" (a case asked for becomes `a_CASE`)."""
        return Phrase(lambda f: self.ref(name).phrase(self.cat).form(f if f.startswith("a_") else f"a_{f}"))

    def _slot_place(self, text: str, param: str, node: A.Expr, defined: bool) -> tuple[str, Optional[Phrase], bool]:
        """`ZONE {i}` in a function's text said as a place: "the slot" (the number is that of the
        place in scope), "the row with the same number", "the slot of token A"; and whether the place is said
        whole, its article too, where the text's own article is the function's (this_slot)."""
        words = self.zone_words()
        zone = slot_zone(text, param, words)
        if zone is None:
            return text, None, False
        slot = re.compile(re.escape(words[zone]) + r"\s*\{" + param + r"(?::(\w+))?\}")
        ref = self.lookup(node.name) if isinstance(node, A.Name) else None
        place: Optional[Phrase] = None
        word = Phrase(words[zone])
        if ref is not None and ref.zone == zone and ref.every is not None:  # a loop said at once: "at every row"
            place = self.msg("slot.every", node, word=word, each=ref.every)
        elif ref is not None and ref.zone == zone and ref.label and not defined:  # "square B"
            place = ref.phrase(self.cat)
        elif ref is not None and ref.zone == zone and not defined and not ref.you and not ref.introduced \
                and ref.noun.word != words[zone]:  # a place with a name of its own: "the current square", not "the square"
            return self.this_slot(text, param, zone, ref.phrase(self.cat))
        elif ref is not None and ref.zone == zone:
            place = self.msg("slot.intro" if defined else "slot.same", node, word=word)
        elif ref is not None and ref.zone is not None and ref.this:  # where a walk has just got to: "this space"
            return self.this_slot(text, param, zone)
        elif ref is not None and ref.zone is not None:
            place = self.msg("slot.matching", node, word=word)
        elif isinstance(node, A.Call) and node.func == "position" and len(node.args) == 1 \
                and self.family_of(node.args[0]) is not None:
            key = "slot.of_card" if self.family_of(node.args[0]) == zone else "slot.matching_card"
            place = self.msg(key, node, word=word, card=self.expr(node.args[0]))
        elif ref is None and (isinstance(node, A.Name) and node.name in self.sym.vars
                              or isinstance(node, A.Call) and node.func in self.sym.functions):
            said = self.expr(node).form("nom")  # a value that names its place: "from the space of the lost token"
            article = next((w.rpartition(" ")[0] for w in self.sibling_places(self.sym.zones[zone])
                            if said.startswith(w + " ")), None)
            place = self.msg("slot.named", node, place=Phrase(said), bare=Phrase(said[len(article):].lstrip())) \
                if article is not None else None
        elif ref is not None and not defined and not ref.you and not ref.label and not _group(slot.search(text)) \
                and ref.noun.word not in {self.nouns.word(w).word for w in ("number", "value")}:
            place = self.msg("slot.of_card", node, word=word, card=self.expr(node))  # "the slot of the chosen marker"
        if place is None:
            return text, None, False
        return slot.sub(lambda m: "{" + param + (f":{m.group(1)}" if m.group(1) else "") + "}", text, count=1), place, False

    def arguments(self, fn: A.FunctionDef, e: A.Call) -> list[Phrase]:
        """A call's arguments; a player whom an argument names where the function's text says it before another
        argument's place is known to that one (`said_owners`), which may say them again by their possessive
        (Speaker.owned_head)."""
        text = fn.text.by_lang.get(self.lang, "") if fn.text is not None else ""
        at = {p.name: text.find("{" + p.name) for p in fn.params}
        said: list[Phrase] = []
        outer = self.said_owners
        try:
            for p, a in zip(fn.params, e.args):
                self.said_owners = outer | {b.name for q, b in zip(fn.params, e.args)
                                            if isinstance(b, A.Name) and 0 <= at[q.name] < at[p.name]}
                said.append(self.argument(fn, p.name, a))
        finally:
            self.said_owners = outer
        return said

    def argument(self, fn: A.FunctionDef, param: str, e: A.Expr) -> Phrase:
        """An argument, knowing the preposition the function's text sets before its place, which a list joined
        of two says again where the language must (« sur la case …, puis sur les cases … »)."""
        text = fn.text.by_lang.get(self.lang, "") if fn.text is not None else ""
        before = re.search(r"(\S+) \{" + param + r"(?::\w+)?\}", text)
        places = self.cat.data.get("place", {})
        preps = {str(t.get("at")) for t in (places.values() if isinstance(places, dict) else []) if isinstance(t, dict)}
        saved, self.place_prep = self.place_prep, before.group(1) if before is not None and before.group(1) in preps else ""
        try:
            return self.expr(e)
        finally:
            self.place_prep = saved

    def unapposed(self, text: str, param: str) -> tuple[str, bool, str]:
        """A function's place set beside a noun („das Feld {i}“) that is called with a whole phrase: the phrase
        alone, in the case of the article it replaces („der Wert ist …“, not „das Feld der Wert ist …“); whether
        the noun opened the text (its article, the function's, goes too); and the noun taken out ("" if none)."""
        grammar = self.cat.data.get("grammar", {})
        words = r"(?:[a-z]+ )*" if isinstance(grammar, dict) and grammar.get("plural_head") == "last" else ""
        found = re.search(r"(?:^|(?<=\s))(" + words + r"\S+) \{" + param + r"(?::\w+)?\}", text)  # "power level {n}"
        small = self.small_words()
        if found is not None and " " in found.group(1):  # the noun's words after the last small one: "rank of power level {n}"
            kept = " ".join(itertools.takewhile(lambda w: w.lower() not in small, reversed(found.group(1).split(" "))))
            found = re.search(r"(?:^|(?<=\s))(" + re.escape(" ".join(reversed(kept.split(" ")))) + r") \{" + param
                              + r"(?::\w+)?\}", text) if kept else None
        if found is None or not found.group(1).replace(" ", "").isalpha() or found.group(1).lower() in small:
            return text, False, ""
        if found.start(1) == 0:
            return "{" + param + "}" + text[found.end():], True, found.group(1)
        word, upto = found.group(1), found.start(1) + len(found.group(1))  # the text up to the noun's end
        tables = self.cat.data.get("articles", {})
        known = next((n.gender for n in self.vocabulary().values() if n.word == word), None)  # „der Kraftstufe“: genitive
        arts = [t for t in (tables if isinstance(tables, dict) else {}) if t != "default" and known in (None, t)]
        for f in ("gen", "dat", "acc", "nom"):  # of a noun of unknown gender, „der Stufe {n}“ is rather a genitive
            for art in arts:
                said = Noun(f"{art} {word}", self.cat).np("def").form(f)
                start = upto - len(said)
                if said != word and text[:upto].lower().endswith(said.lower()) and (start == 0 or text[start - 1] in " („«\""):
                    return text[:start] + "{" + param + ":" + f + "}" + text[found.end():], False, word
        before = text[:found.start(1)].rstrip().rpartition(" ")[2]
        if before.lower() not in small:  # a word the catalogue does not know, as a contraction („vom“, « du »): as written
            return text, False, ""
        return text[:found.start(1)] + "{" + param + "}" + text[found.end():], False, word

    def rules_noun(self, word: str) -> Noun:
        """The noun of the rules said with `word`, with its gender („Raum“: „der Raum“); the bare word if none."""
        said = (Noun(t.by_lang[self.lang], self.cat) for t in self.sym.texts if self.lang in t.by_lang)
        return next((n for n in said if n.word == word and n.gender != "default"), None) or Noun(word, self.cat)

    def small_words(self) -> set[str]:
        """Articles, prepositions and the like, which no place of a text stands beside as its noun."""
        grammar = self.cat.data.get("grammar", {})
        clause = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
        words = set(clause.get("skip", [])) if isinstance(clause, dict) else set()
        places = self.cat.data.get("place", {})
        return words | {str(w) for t in (places.values() if isinstance(places, dict) else []) if isinstance(t, dict)
                        for w in t.values()}

    def this_slot(self, text: str, param: str, zone: str, said: Optional[Phrase] = None) -> tuple[str, Optional[Phrase], bool]:
        """`ZONE {i}` in a function's text where a walk has just got to place `i`: "this space", „auf diesem
        Feld“ (or the place `said` by a name of its own: „dem aktuellen Feld“), in the case of the article the
        text writes before it."""
        zdef = self.sym.zones[zone]
        noun = self.noun(zdef.text, f"zone '{zone}'", zdef.pos)
        said = said if said is not None else noun.np("this")
        place = r"\s*\{" + param + r"(?::\w+)?\}"
        for f in ("nom", "acc", "dat", "gen", ""):
            head = noun.np("def").form(f) if f else noun.word
            found = re.search(r"(?<!\w)" + re.escape(head) + place, text)
            if found is not None:  # (the bare word opening the text: its article is the function's)
                return text[:found.start()] + "{" + param + "}" + text[found.end():], Phrase(said.form(f or "nom")), \
                    not f and found.start() == 0
        return text, None, False

    def bind(self, name: str, source: A.Expr, text: Optional[A.Text] = None) -> Ref:
        """Binds a parameter or loop variable to what one item of its source is (or to its own noun `text`),
        and remembers the source; an action's parameter is introduced by its noun, its source said only
        where it adds something."""
        self.sources[name] = source
        self.domains.add(id(source))
        if id(source) in self.sym.first_params:  # a new action: the last one's parameters are gone
            self.scope = Scope(self.prelabels)
        return self._bind(name, source, text)

    def _bind(self, name: str, source: A.Expr, text: Optional[A.Text] = None) -> Ref:
        self.sources[name] = source
        return self.scope.bind(name, self.named(self.nouns.element(source), text))

    def domain(self, e: A.Expr) -> Phrase:
        """Where an action's parameter is chosen from: nothing for "a row" or "a player", "at
        a row" for the cards of a family, "from your hand" otherwise."""
        if isinstance(e, A.Name) and e.name == "players" or isinstance(e, A.Call) and e.func == "positions":
            return self.msg("expr.domain_none", e)
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1 and isinstance(e.args[0], A.Name) \
                and e.args[0].name in self.sym.zones and self.sym.zones[e.args[0].name].shape == "indexed":
            zone = self.sym.zones[e.args[0].name]
            return self.msg("expr.domain_family", e, zone=self.nouns.zone_ref(zone.name).phrase(self.cat),
                            prep_from=self.prep(e, "from"), prep_at=self.prep(e, "at"))
        return self.msg("expr.domain", e, source=self._expr(e), prep_from=self.prep(e, "from"))

    def family_of(self, e: A.Expr) -> Optional[str]:
        """The zone family a card lies in, where the rules make it certain: a variable drawn from the
        family's cards, a modifier's card or any card whose kind only one family holds."""
        if isinstance(e, A.Name) and (e.name == "it" and self.it_kind or e.name == "self" and self.self_kind):
            return self.only_family((self.it_kind if e.name == "it" else self.self_kind) or "")
        if isinstance(e, A.Name) and e.name in self.sources:
            return self.family_of(self.sources[e.name]) or self.only_family(self.nouns.value(e).kind)
        if isinstance(e, A.Comprehension):
            return self.family_of(e.source)
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1:
            e = e.args[0]
        if isinstance(e, A.Index):
            e = e.obj
        found = e.name if isinstance(e, A.Name) else None
        if found in self.sym.zones:
            return found if self.sym.zones[found].shape == "indexed" else None
        return self.only_family(self.nouns.value(e).kind)

    def only_family(self, kind: str) -> Optional[str]:
        """The one indexed zone that holds cards of a kind: a place number of such a card can only be its place."""
        held = [z.name for z in self.sym.zones.values() if z.shape == "indexed" and kind and z.kind == kind]
        return held[0] if len(held) == 1 else None

    def check_places(self, text: str, params: Sequence[str], pos: A.Pos, what: str) -> None:
        """A function's or event's text: its `{param}` and `{param:case}` places must name its parameters and cases."""
        for m in PLACEHOLDER.finditer(text):
            if m.group(1) not in params:
                raise MissingRendering(pos, f"the {self.lang} text of {what} has a place "
                                       f"{{{m.group(1)}}}, but it has no such parameter",
                                       f"its parameters: {', '.join(params) or 'none'}")
            if m.group(2) and m.group(2) not in CASES:
                raise MissingRendering(pos, f"the {self.lang} text of {what} asks for an unknown "
                                       f"case '{m.group(2)}'", f"write one of {', '.join(CASES)}")
        if "{" in PLACEHOLDER.sub("", text) or "}" in PLACEHOLDER.sub("", text):
            raise MissingRendering(pos, f"the {self.lang} text of {what} has an unmatched brace",
                                   "write a parameter's place as {name} or {name:dat}")

    def _e_Attr(self, e: A.Attr) -> Phrase:
        sym = self.sym
        if isinstance(e.obj, A.Name) and e.obj.name == "self" and e.name in self.printed:
            return self.expr(A.Num(pos=e.pos, value=self.printed[e.name]))  # one card's effect: its own number
        if isinstance(e.obj, A.Name) and e.obj.name in sym.enums:  # `role.countess`: the value itself
            value = next((v for v in sym.enums[e.obj.name].values if v.name == e.name), None)
            if value is not None:
                return Phrase(text_of(value.text, self.lang, f"value '{e.name}'", e.pos))
        owned = sym.currencies.get(e.name) or (sym.vars.get(e.name) if sym.vars.get(e.name, None) is not None
                                               and sym.vars[e.name].per_player else None)
        clause = self.field_clause(e) if isinstance(owned, A.VarDef) else None
        if clause is not None:
            return clause
        if owned is not None:
            part = "currency" if isinstance(owned, A.CurrencyDef) else "var"
            noun = self.noun(owned.text, f"{part} '{e.name}'", owned.pos)
        else:
            fdef = self.field_def(e)
            if fdef is None:
                return self.msg("expr.field_of_any", e, field=e.name, obj=self.expr(e.obj))
            clause = self.field_clause(e)
            if clause is not None:
                return clause
            noun = self.noun(fdef.text, f"field '{e.name}'", fdef.pos)
        if isinstance(e.obj, A.Name) and self.is_you(e.obj):
            return noun.np("your")
        if self.possessor(e.obj):
            return noun.np("their")
        if self.said_item(e.obj):
            return noun.np("its")
        return self.field_of(noun, e)

    def field_of(self, noun: Noun, e: A.Attr) -> Phrase:
        """A field of a thing named by a name, said with the thing right after the name's head where the name goes on
        with words about its head (catalogue `grammar.field_modifier`: a preposition, a relative clause): „der
        Vorsprung des Spielsteins für einen Stein vorn“, « l'avance du pion pour un pion devant », not „… für einen
        Stein vorn des Spielsteins“ (those words would take the thing as theirs). A longer owner (a call, a filter)
        keeps the end, as the words after it would seem to be about it."""
        grammar = self.cat.data.get("grammar", {})
        pattern = grammar.get("field_modifier") if isinstance(grammar, dict) else None
        found = re.match(pattern, noun.word) if isinstance(pattern, str) and isinstance(e.obj, A.Name) else None
        if found is None:
            return self.msg("expr.field_of", e, field=noun.np("def"), obj=self.expr(e.obj))
        head = noun.word[:found.start(1)]
        said = self.msg("expr.field_of", e, field=Noun(f"{noun.gender} {head}" if noun.gender != "default" else head,
                                                         self.cat).np("def"), obj=self.expr(e.obj))
        rest = found.group(1) + noun.closed()  # „der Hut des Spielers, den er trägt, ist …“
        return Phrase(lambda f: said.form(f) + rest, said.agree, said.genitive)

    def said_item(self, e: A.Expr) -> bool:
        """Whether a thing is the item of a loop said in one sentence ("every token"), so its own field is "its
        power" there, not "the power of every token"; only owners the catalogue's `its_owners` say so (German:
        „seine“ of a masculine or neuter owner)."""
        found = self.lookup(e.name) if isinstance(e, A.Name) else None
        grammar = self.cat.data.get("grammar", {})
        owners = grammar.get("its_owners", []) if isinstance(grammar, dict) else []
        return found is not None and found.every is not None and found.every.agree != "pl" and not found.saying \
            and found.noun.gender in owners

    def _e_Index(self, e: A.Index) -> Phrase:
        if isinstance(e.obj, A.Name) and e.obj.name in self.sym.zones:
            zone = self.sym.zones[e.obj.name]
            noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            where = e.index
            ref = self.lookup(where.name) if isinstance(where, A.Name) else None
            if ref is not None and ref.zone is not None and ref.this:  # where a walk has just got to: "this space"
                return self.reached(zone)
            if ref is not None and ref.zone == zone.name:  # the place in scope: "the slot"
                return ref.phrase(self.cat)
            if ref is not None and ref.zone is not None:
                return self.msg("expr.zone_matching", e, zone=noun.np("def"), bare=noun.np("bare"),
                                matching=noun.np("matching"))
            if isinstance(where, A.Call) and where.func == "position" and len(where.args) == 1:
                # the zone of a family that holds the card: "the slot of c"
                return self.msg("expr.zone_of_card", e, zone=noun.np("def"), card=self.expr(where.args[0]))
            if isinstance(where, (A.Attr, A.Call, A.Index)) or isinstance(where, A.Name) and not (ref and ref.label):
                # a place named by what holds its number: "the space of the start chamber", not "the space the …";
                # "the space of the player" where that already says the zone
                place = self.expr(where)
                if any(place.form("nom").startswith(w + " ") for w in self.sibling_places(zone)):
                    return place  # "the space of the player": the token space there is that space
                return self.msg("expr.zone_of_place", e, zone=noun.np("def"), place=place)
            return self.msg("expr.zone_index", e, zone=noun.np("def"), bare=noun.np("bare"),
                            index=self.expr(where).form("nom"))  # a numbered place by its name: "pile 1"
        if isinstance(e.obj, A.Name) and e.obj.name in self.sym.consts:
            const = self.sym.consts[e.obj.name]
            name = self.noun(const.text, f"const '{const.name}'", const.pos).np("def")
            if _nested(const.value) or const.internal:  # data, shown as such elsewhere: "the ways of the path"
                return self.msg("expr.map_of_data", e, name=name, index=self.expr(e.index))
            ref = self.lookup(e.index.name) if isinstance(e.index, A.Name) else None
            if ref is not None and ref.roll:  # "the way the die shows (1–2: 14, …)"
                return self.msg("expr.map_by_roll", e, name=name, table=self.table(const.value))
            return self.table_lookup(e, const.value, name) or self.msg(
                "expr.map_of", e, name=name, table=self.table(const.value), index=self.expr(e.index))
        key = "expr.item_of" if isinstance(e.index, A.Num) else "expr.item_of_named"  # „das Element A“, not „das A. Element“
        return self.msg(key, e, obj=self.expr(e.obj), index=self.expr(e.index))

    def reached(self, zone: A.ZoneDef) -> Phrase:
        """A zone at the place a walk has just got to, said by the plainest of the places numbered as it is:
        "this space", not "this token space", as the cards named with it say which of them."""
        nouns = [self.noun(z.text, f"zone '{z.name}'", z.pos) for z in self.sibling_zones(zone)]
        return min(nouns, key=lambda n: len(n.np("def").form("nom"))).np("this")

    def sibling_zones(self, zone: A.ZoneDef) -> list[A.ZoneDef]:
        """The indexed zones numbered as `zone` is, itself among them, that have a text in this language."""
        return [z for z in self.sym.zones.values() if z.shape == "indexed" and z.text is not None
                and self.lang in z.text.by_lang and (z is zone or zone.size is not None and z.size is not None
                                                     and z.size.model_dump(exclude={"pos"}) == zone.size.model_dump(exclude={"pos"}))]

    def sibling_places(self, zone: A.ZoneDef) -> list[str]:
        """The places of an indexed zone and of the indexed zones numbered as it is ("the token space",
        "the space"): a place said by any of them says where the zone's cards lie."""
        return [self.noun(z.text, f"zone '{z.name}'", z.pos).np("def").form("nom") for z in self.sibling_zones(zone)]

    def table_lookup(self, e: A.Index, value: A.Expr, name: Phrase) -> Optional[Phrase]:
        """A value looked up in a small table, said in words. By the player count: the value most counts
        have and the others ("6, 5 with 5 players"), or, with more than two others, a pointer to the values
        by player count; by anything else, up to four entries: "0 at level 1, 1 at level 2 and 2 at level 3";
        a fixed key, its value. A larger table stays a table."""
        if not isinstance(value, A.MapLit):
            return None
        key = self._number(e.index)
        hit = next((v for k, v in value.items if key is not None and self._number(k) == key), None)
        if hit is not None:  # a fixed entry: just its value
            return self.expr(hit)
        if isinstance(e.index, A.Name) and e.index.name == "player_count":
            found = self.by_players(value)
            if found is None:
                return self.msg("expr.map_see_players", e, name=name)
            common, others = found
            if not others:
                return self.expr(common)
            return self.msg("expr.map_players", e, name=name, value=self.expr(common),
                            others=self.players_others(e, others))
        if len(value.items) > 4:
            return None
        field = self.key_field(e.index)
        return self.msg("expr.map_words", e, name=name, index=self.expr(e.index), items=self.join(
            [self.msg("expr.map_word", e, value=self.expr(v), field=field, key=self.expr(k)) for k, v in value.items]))

    def by_players(self, value: A.MapLit) -> Optional[tuple[A.Expr, list[tuple[A.Expr, A.Expr]]]]:
        """The value most player counts have and the entries that differ, where at most two do."""
        said = [(k, v, self.expr(v).form("nom")) for k, v in value.items]
        texts = [t for _, _, t in said]
        common = max(texts, key=texts.count)
        others = [(k, v) for k, v, t in said if t != common]
        return (next(v for _, v, t in said if t == common), others) if len(others) <= 2 else None

    def players_others(self, node: A.Node, others: list[tuple[A.Expr, A.Expr]]) -> Phrase:
        """Entries of a table by the player count (those that differ from the common value): "5 with 5 players"."""
        return self.join([self.msg("expr.players_value", node, key=self.expr(k), value=self.expr(v)) for k, v in others])

    def key_field(self, index: A.Expr) -> str:
        """The field a table is looked up by, said before its keys ("level 2"), or nothing."""
        field = self.sym.fields.get(index.name) if isinstance(index, A.Attr) else None
        if field is None or field.text is None or self.lang not in field.text.by_lang:
            return ""
        return Noun(field.text.by_lang[self.lang], self.cat).word + " "

    def const_table(self, const: A.ConstDef) -> Phrase:
        """A constant as the table of values shows it: a table by the player count or by a field it is looked
        up by said in words ("6 (5 with 5 players)", "0 at level 1, …"), a list by its items."""
        value, key = const.value, self.sym.keys.get(const.name)
        if isinstance(value, A.ListLit) and value.items:
            return self.join([self.expr(i) for i in value.items])
        if not isinstance(value, A.MapLit) or key is None:
            return self.table(value)
        if isinstance(key, A.Name) and key.name == "player_count":
            found = self.by_players(value)
            if found is None:
                return self.players_others(value, list(value.items))
            common, others = found  # "6 (5 with 5 players)", as the rules say it
            if not others:
                return self.expr(common)
            return self.msg("expr.players_common", value, value=self.expr(common),
                            others=self.players_others(value, others))
        field = self.key_field(key)
        if not field:
            return self.table(value)
        cur = self.sym.currencies.get(self.sym.paid.get(const.name, ""))
        if cur is not None:  # "nothing at levels 1 and 2, 1 gold at level 3", as the payment says it
            paid = self.noun(cur.text, f"currency '{cur.name}'", cur.pos).np("bare")
            return self.paid_items(value, field, paid, const)
        return self.join([self.msg("expr.map_word", value, value=self.expr(v), field=field, key=self.expr(k))
                          for k, v in value.items])

    def paid_items(self, table: A.MapLit, field: str, currency: Phrase, at: A.Node) -> Phrase:
        """A table of amounts by a field, keys with the same amount side by side: "nothing at levels 1 and 2,
        1 gold at level 3" (a comma, not a second "and", after such a group)."""
        groups: list[tuple[list[A.Expr], A.Expr]] = []
        for k, v in table.items:
            if groups and same(groups[-1][1], v):
                groups[-1][0].append(k)
            else:
                groups.append(([k], v))
        fields = f"{Noun(field.strip(), self.cat).plural()} " if field else ""  # "at levels 1 and 2"
        return self.join([self.msg("stmt.pay_items" if len(keys) > 1 else "stmt.pay_item", at, field=field, fields=fields,
                                   key=self.join([self.expr(k) for k in keys]), amount=Phrase(
            self.word("nothing") if isinstance(v, A.Num) and v.value == 0 else f"{self.expr(v).form('nom')} "
            f"{currency.form('nom')}")) for keys, v in groups],
            "list_sep" if len(groups) < len(table.items) else "list_last")

    def table(self, value: A.Expr) -> Phrase:
        """A table as its entries; keys in a row with the same value as one range ("1–2: 14, 3–4: 16")."""
        if not isinstance(value, A.MapLit):
            return self.expr(value)
        runs: list[tuple[A.Expr, A.Expr, A.Expr]] = []
        for k, v in value.items:
            if runs and same(runs[-1][2], v) and self._number(k) is not None \
                    and self._number(k) == (self._number(runs[-1][1]) or 0) + 1:
                runs[-1] = (runs[-1][0], k, v)
            else:
                runs.append((k, k, v))
        return self.join([self.msg("expr.map_item", value, value=self.expr(v), key=self.expr(a) if a is b else
                                   self.msg("expr.map_range", value, low=self.expr(a), high=self.expr(b)))
                          for a, b, v in runs], "list_sep")

    def _e_Call(self, e: A.Call) -> Phrase:
        sym = self.sym
        if e.func in sym.zones:
            zone = sym.zones[e.func]
            noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            if e.args and isinstance(e.args[0], A.Name) and self.is_you(e.args[0]):
                return noun.np("your")
            if e.args and self.possessor(e.args[0]):
                return noun.np("their")
            if len(e.args) == 1 and isinstance(e.args[0], A.Name) and e.args[0].name in self.opening:
                return self.msg("expr.zone_of_named", e, zone=noun.np("def"), bare=noun.np("bare"),
                                player=self.expr(e.args[0]))  # where "their" would stand: "the player's hand whose …"
            return self.msg("expr.zone_of", e, zone=noun.np("def"),
                            player=self.join([self.expr(a) for a in e.args]))
        if e.func in sym.functions:
            fn = sym.functions[e.func]
            return self.function_phrase(fn, self.arguments(fn, e), e, e.args)
        owned = self.lookup(e.args[0].name) if e.func == "owner" and len(e.args) == 1 and isinstance(e.args[0], A.Name) \
            and e.args[0].name in self.one_owner else None
        if owned is not None and owned.pair is not None:  # "the owner of the two tokens", not "of the first token"
            return self.msg("idiom.owner_pair", e, things=owned.pair[2])
        if e.func == "card" and len(e.args) == 1 and isinstance(e.args[0], A.Str) and e.args[0].value in sym.card_titles:
            title = self.noun(sym.card_titles[e.args[0].value], f"card '{e.args[0].value}'", e.pos).np("label").form("nom")
            return self.msg("prim.card", e, **{"0": Phrase(self.quoted(title))})
        if e.func in ("first", "last", "top") and len(e.args) == 1 and self._is_zone(e.args[0]):
            item = self.nouns.element(e.args[0])  # "the top tile of the stack", not "the top card"
            held = self.zone_def_of(e.args[0])
            if item.kind and held is not None and held.capacity == 1:  # the one card there: "the token on the slot"
                return self.msg("prim.only_kind", e, item=item.noun.np("def"), at=self.prep(e.args[0], "at"),
                                **{"0": self.expr(e.args[0])})
            if item.kind and e.func in item.noun.dets:
                return self.msg(f"prim.{e.func}_kind", e, item=item.noun.np(e.func), at=self.prep(e.args[0], "at"),
                                **{"0": self.expr(e.args[0])})
        if e.func == "position" and len(e.args) == 1 and (family := self.family_of(e.args[0])) is not None:
            return self.place_of(e.args[0], family)  # "the square of the token", not its place number
        if e.func in _GRAPH_CALLS and len(e.args) >= 2 and (at := self.place_zone(e.args[1])) is not None:
            return self.graph_places(e, at)
        if len(e.args) == 1 and isinstance(e.args[0], A.Comprehension) and self.cat.has(f"comp.{e.func}"):
            if e.func == "first" and self.any_of(e.args[0]):  # any card that passes: "one of your cards whose …"
                args = self._comp_args(e.args[0])
                noun, source = self.nouns.element(e.args[0].source).noun, args["source"]
                one = isinstance(source, Phrase) and self.cat.has("comp.first_one") and self.headed_by_plural(noun, source)
                return self.msg("comp.first_one" if one else "comp.first_any", e, **args, one=noun.det("one"))
            return self.aggregate(f"comp.{e.func}", e, e.args[0])  # first([g for g in …])
        if e.func == "count" and len(e.args) == 1 and not self._is_zone(e.args[0]):  # a list: "the number of allowed cards"
            return self.msg("prim.count_list", e, **{"0": self.expr(e.args[0])})
        if e.func == "count" and len(e.args) == 1 and (said := self.expr(e.args[0])) \
                and self.headed_by_plural(self.nouns.element(e.args[0]).noun, said):  # "the number of their jokers"
            return self.msg("prim.count_named", e, **{"0": said})
        if e.func == "concat" and self.place_prep:
            return self.msg("prim.concat_at", e, prep=Phrase(self.place_prep), **self.call_args(e))
        key = e.func + ("2" if e.func in ("min", "max") and len(e.args) == 2 else
                        "_item" if e.func in ("first", "last") and e.args and not self._is_zone(e.args[0]) else "")
        at = self.prep(e.args[0], "at") if e.args else ""
        held = self.zone_def_of(e.args[0]) if e.args else None
        kind = self.sym.kinds.get(held.kind) if held is not None else None
        card = self.nouns.text(kind.title) if kind is not None else None  # "the top king tile", not "card"
        card = card or self.nouns.word("card")
        thing: Noun = self.nouns.element(e.args[0]).noun if key.endswith("_item") else card  # „das erste der Felder“
        if key.endswith("_item") and (head := self.head_noun(self.expr(e.args[0]))) is not None:
            thing = head  # the list said by a noun's plural: „der erste der Knoten“, « le premier des monstres »
        thing = Noun("", self.cat) if thing.agree == "pl" else thing  # an item said only in the plural: „der Erste“
        return self.msg(f"prim.{key}", e, at=at, card=card.np("bare"), card_top=card.np("top"), card_def=card.np("def"),
                        cards=Phrase(card.plural()), the=thing.det(e.func),
                        the_cards=Noun(f"{self.cat.pattern('grammar.plural_article')} {card.plural()}", self.cat).np("def"),
                        **self.call_args(e))

    def any_of(self, c: A.Comprehension) -> bool:
        """Whether the first card of a zone that passes a filter is any such card to a reader: an unordered zone
        (not a shuffled pile), no order given: "a joker in your jokers whose colour is …", not "the first"."""
        zone = self.zone_def_of(c.source) if self._is_zone(c.source) else None
        return zone is not None and not zone.shuffled and c.key is None and c.cond is not None \
            and isinstance(c.expr, A.Name) and c.expr.name == c.var

    def place_zone(self, e: A.Expr) -> Optional[str]:
        """The indexed zone whose place a number certainly is: a place in scope, a var that holds one, the place of a card."""
        ref = self.lookup(e.name) if isinstance(e, A.Name) else None
        if ref is not None:
            return ref.zone
        if isinstance(e, A.Name):
            return self.place_var(e)
        return self.family_of(e.args[0]) if isinstance(e, A.Call) and e.func == "position" and len(e.args) == 1 else None

    def graph_places(self, e: A.Call, zone: str) -> Phrase:
        """The places a graph leads to from a place, said with the places' noun ("the squares directly after
        the square of the token"); the graph is left unsaid where it is the game's own (a variable)."""
        held = self.sym.zones[zone]
        noun = self.noun(held.text, f"zone '{zone}'", held.pos)
        places = Noun(f"{self.cat.pattern('grammar.plural_article')} {noun.plural()}", self.cat).np("def")
        graph = e.args[0]
        own = isinstance(graph, A.Name) and graph.name in self.sym.vars and graph.name not in self.scope.refs
        where = Phrase("") if own else self.msg("prim.graph_in", e, **{"0": self.expr(graph)})
        return self.msg(f"prim.{e.func}_places", e, places=places, graph=where,
                        **{k: v for k, v in self.call_args(e).items() if k != "0"})

    def call_args(self, e: A.Call) -> dict[str, Arg]:
        """A primitive's arguments; a place in scope that a graph or a list of places takes is said as the
        place ("the squares after the square"), not as its number; a zone whose places are searched
        together, by all of them ("the tiles in the hands of all players")."""
        def said(a: A.Expr) -> Phrase:
            ref = self.lookup(a.name) if isinstance(a, A.Name) and e.func in _PLACE_CALLS else None
            every = self.places(a) if e.func in _GATHERING_CALLS else None
            return ref.phrase(self.cat) if ref is not None and ref.zone is not None else every or self.expr(a)
        return {str(i): said(a.items[0] if e.func == "concat" and i == 0 and isinstance(a, A.ListLit) and len(a.items) == 1
                            else a) for i, a in enumerate(e.args)}  # `concat([x], L)`: "x followed by L", not "the list x …"

    def places(self, e: A.Expr) -> Optional[Phrase]:
        """All the places of a zone that has several, said together for what lies in any of them: "the
        spell piles", "the loots of all players"; a zone's name alone says "every loot", which in a count
        or a test for cards reads as "in each loot" (review rv19 K2)."""
        zone = self.sym.zones.get(e.name) if isinstance(e, A.Name) and e.name not in self.scope.refs else None
        if zone is None or zone.shape == "single":
            return None
        noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
        said = Noun(f"{self.cat.pattern('grammar.plural_article')} {noun.plural()}", self.cat).np("def")
        return said if zone.shape == "indexed" else self.msg("expr.players_places", e, places=said)

    def place_var(self, e: A.Expr) -> Optional[str]:
        """The indexed zone whose place a number variable holds, where its noun is that of the zone's places
        ("the next square", "das Zielfeld", "the square of the last roll"): its 0 is no place."""
        var = self.sym.vars.get(e.name) if isinstance(e, A.Name) and e.name not in self.scope.refs else None
        if var is None or var.type.name != "int" or var.per_player or var.text is None or self.lang not in var.text.by_lang:
            return None
        word = Noun(var.text.by_lang[self.lang], self.cat).word.lower().replace(",", "")
        return next((z for z, w in self.zone_words().items()
                     if word.endswith(w.lower()) or word.split(" ")[0] == w.lower()), None)

    def place_of(self, card: A.Expr, family: str) -> Phrase:
        """The place of a family a card lies at: "the square of the token"."""
        zone = self.sym.zones[family]
        return self.msg("expr.zone_of_card", card, zone=self.noun(zone.text, f"zone '{family}'", zone.pos).np("def"),
                        card=self.expr(card))

    def _is_zone(self, e: A.Expr) -> bool:
        """Whether an expression names a zone (its items are cards), not a list of other things."""
        zones = self.sym.zones
        return (isinstance(e, A.Name) and e.name in zones) or (isinstance(e, A.Call) and e.func in zones) \
            or (isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in zones)

    def _comp_args(self, c: A.Comprehension, loop: bool = False) -> dict[str, Arg]:
        """A comprehension's parts; its variable is in scope for its expression, filter and order only (a
        `loop`'s variable beyond: its letter, where it needs one, is said at once)."""
        source = self.expr(c.source)
        self.scope.push()
        try:
            self.sources[c.var] = c.source
            item = self.nouns.element(c.source)
            parts = [x for x in (c.expr, c.source, c.cond, c.key) if x is not None]
            named = {n.name for n in A.walk(parts) if isinstance(n, A.Name) and n.name != c.var}
            apart = not loop and not self.it_kind and not any((r := self.lookup(n)) is not None and r.noun.word == item.noun.word
                                         for n in named)
            ref = self.scope.bind(c.var, self.nouns.other(c, item), apart=apart)
            cond = other_than(c)[1] if ref is not item else c.cond  # "every other token": `d != x` said
            var = ref.phrase(self.cat)
            origin = self.origin(c.source, source)
            typed = self.typed_place(c, cond)
            if typed is not None:  # "every token on a red square", not "… on a square whose square is …"
                origin, cond = typed
            said = self.filter(c.var, ref, cond, "expr.filter") if cond else ""
            if said and self.whose_before_place(c, cond):  # « une créature dont le numéro est 48 sur une case »
                origin, said = Phrase(""), _joined(_said(said), _said(origin))
            said_expr = self.expr(c.expr)
            if isinstance(c.expr, A.BinOp) and c.expr.op in ("and", "or"):  # "for at least one x: (A and B)": its reach
                said_expr = _bracketed(said_expr)
            return {"expr": said_expr, "var": var, "source": source, "from": origin, "filter": said,
                    "order": self.order(c.key) if c.key else "", "keys": self.order_keys(c.key) if c.key else ""}
        finally:
            self.scope.pop()

    def whose_before_place(self, c: A.Comprehension, cond: Optional[A.Expr]) -> bool:
        """Whether a "whose" filter goes before the place a family's cards lie on, where the place, said last,
        would take it (French « dont » after « une case » reads as the square's own number); before all players'
        own zones where they are said with the players last ("in the loots of all players whose …")."""
        if not (isinstance(cond, A.BinOp) and cond.op in _NEGATED and self.whose(c.var, cond.left) is not None):
            return False
        src = c.source.args[0] if isinstance(c.source, A.Call) and c.source.func == "cards" and len(c.source.args) == 1 \
            else None
        grammar = self.cat.data.get("grammar", {})
        if not isinstance(grammar, dict):
            return False
        if src is not None and self._is_zone(src) and self.places(src) is not None and not self._family_cards(c.source):
            return grammar.get("players_last") is True
        return grammar.get("whose_before_place") is True and self._family_cards(c.source)

    def typed_place(self, c: A.Comprehension, cond: Optional[A.Expr]) -> Optional[tuple[Phrase, Optional[A.Expr]]]:
        """The cards of a family filtered by the kind of their place (a function with an `is` text): where they
        come from said with that kind, "on a red square", and the rest of the filter."""
        src = c.source
        if not (isinstance(src, A.Call) and src.func == "cards" and len(src.args) == 1 and isinstance(src.args[0], A.Name)
                and src.args[0].name in self.sym.zones and self.sym.zones[src.args[0].name].shape == "indexed"):
            return None
        parts = _conjuncts(cond)
        for i, part in enumerate(parts):
            fn = self.sym.functions.get(part.left.func) if isinstance(part, A.BinOp) and part.op == "==" \
                and isinstance(part.left, A.Call) else None
            if fn is None or fn.kind_clause is None or not isinstance(part, A.BinOp) or not isinstance(part.left, A.Call) \
                    or not isinstance(part.right, A.Name) or part.right.name not in self.sym.enum_values \
                    or len(part.left.args) != 1 or not (isinstance(at := part.left.args[0], A.Call) and at.func == "position"
                                                        and len(at.args) == 1 and isinstance(at.args[0], A.Name)
                                                        and at.args[0].name == c.var):
                continue
            value = self.noun(self.sym.enum_text(part.right.name, self.enum_type(part.left)), f"value '{part.right.name}'",
                              part.right.pos)
            articles = self.cat.data.get("articles", {})
            if value.gender == "default" and isinstance(articles, dict) and len(articles) > 2:
                return None  # a language with genders needs the value's article: „auf einem roten Feld“
            return self.msg("expr.from_family", src, zone=Ref(value).phrase(self.cat), prep_at=self.prep(src, "at")), \
                conjoin(parts[:i] + parts[i + 1:])
        return None

    def order(self, key: A.Expr) -> Phrase:
        """How a list is sorted: "from the highest value to the lowest" for `by -x`, "by score, then by …"
        for a list of keys."""
        return self.msg("expr.order", key, keys=self.order_keys(key))

    def order_keys(self, key: A.Expr) -> Phrase:
        """The keys of an order alone: "by score, highest first, then by …"."""
        keys = key.items if isinstance(key, A.ListLit) and key.items else [key]
        said = [self.msg("expr.order_desc" if isinstance(k, A.Neg) else "expr.order_asc", k,
                         key=self.expr(k.operand if isinstance(k, A.Neg) else k)) for k in keys]
        return self.join(said, "order_then")

    def _family_cards(self, e: A.Expr) -> bool:
        """Whether an expression is all the cards of an indexed zone (`cards(row)`), said "at a row"."""
        return isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1 and isinstance(e.args[0], A.Name) \
            and e.args[0].name in self.sym.zones and self.sym.zones[e.args[0].name].shape == "indexed"

    def origin(self, e: A.Expr, said: Phrase) -> Phrase:
        """Where a loop's items come from, with its preposition; nothing where the noun says it all
        ("every row", "every colour"), "at a row" for a family's cards."""
        sym = self.sym
        if isinstance(e, A.Name) and (e.name == "players" or e.name in sym.enums) \
                or isinstance(e, A.Call) and e.func == "positions" and e.args and isinstance(e.args[0], A.Name) \
                and e.args[0].name in sym.zones:
            return Phrase("")
        if self._family_cards(e):
            assert isinstance(e, A.Call) and isinstance(e.args[0], A.Name)
            return self.msg("expr.from_family", e, zone=self.nouns.zone_ref(e.args[0].name).phrase(self.cat),
                            prep_at=self.prep(e, "at"))
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1 and self._is_zone(e.args[0]):
            return self.origin(e.args[0], self.places(e.args[0]) or self.expr(e.args[0]))  # "every token in the bag",
            # not "in the tokens in the bag"; "in the loots of all players", not "in every loot"
        role = self.origin_role if self.zone_def_of(e) else "among"
        return self.msg("expr.from", e, source=said, prep_at=self.prep(e, role))

    def whose(self, var: str, e: A.Expr) -> Optional[Noun]:
        """The field a condition reads of the item itself (`c.power`, `position(it)`): "whose power"."""
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name == var:
            field = self.sym.fields.get(e.name)
            if self.it_kind and var == "it":
                field = next((f for f in self.sym.kinds[self.it_kind].fields if f.name == e.name), field)
            own = self.sym.vars.get(e.name)  # a player's own value: "the player with the highest bid"
            text = field.text if field is not None else own.text if own is not None and own.per_player else None
            if text is not None and self.lang in text.by_lang:
                return Noun(text.by_lang[self.lang], self.cat)
        if isinstance(e, A.Call) and e.func == "position" and len(e.args) == 1 \
                and isinstance(e.args[0], A.Name) and e.args[0].name == var:
            return self.nouns.word("place_number")
        fn = self.sym.functions.get(e.func) if isinstance(e, A.Call) and len(e.args) == 1 \
            and isinstance(e.args[0], A.Name) and e.args[0].name == var else None
        if fn is not None and len(fn.params) == 1 and fn.text is not None and self.lang in fn.text.by_lang \
                and self.cat.has("grammar.of_slot") and not is_condition(fn.body):  # "space of {p}": "whose space"
            said, tail = fn.text.by_lang[self.lang], str(self.cat.pattern("grammar.of_slot")).replace("{slot", "{" + fn.params[0].name)
            if said.endswith(tail) and "{" not in said[:-len(tail)]:
                return Noun(said[:-len(tail)], self.cat)
        return None

    def filter(self, var: str, ref: Optional[Ref], cond: A.Expr, key: str, rel: Optional[Phrase] = None) -> Phrase:
        """A condition on the items of a list, said the way people do: "whose power is at least 3",
        "owned by the player", "of which the bag holds a token"; otherwise "for which …"."""
        noun = ref.noun if ref is not None else None
        relgen = noun.det("relgen") if noun is not None else Phrase("")
        var_said = ref.phrase(self.cat) if ref is not None else Phrase("")
        if isinstance(cond, A.BinOp) and cond.op in _NEGATED:
            field = self.whose(var, cond.left)
            chosen = self.lookup(cond.right.name) if isinstance(cond.right, A.Name) else None
            if field is not None and cond.op == "==" and chosen is not None and chosen.chosen \
                    and chosen.noun.word == field.word:  # "every card of the chosen colour"
                return self.msg("expr.filter_of", cond, value=chosen.phrase(self.cat), var=var_said)
            clause = self.whose_clause(var, cond)
            if clause is not None:
                return self.msg("expr.filter_whose", cond, cond=clause, relgen=relgen, var=var_said)
            if cond.op == "==" and isinstance(cond.left, A.Call) and cond.left.func == "owner" \
                    and len(cond.left.args) == 1 and isinstance(cond.left.args[0], A.Name) and cond.left.args[0].name == var:
                return self.msg("expr.filter_owned", cond, owner=self.expr(cond.right), var=var_said)
        if isinstance(cond, A.BinOp) and cond.op == "!=" and isinstance(cond.left, A.Name) and cond.left.name == var \
                and isinstance(cond.right, A.Name) and cond.right.name != var and self.lookup(cond.right.name) is not None:
            return self.msg("expr.filter_except", cond, value=self.expr(cond.right), var=var_said)  # "except the joker"
        if isinstance(cond, A.CallComp) and cond.func == "any" and isinstance(cond.comp.expr, A.BinOp) \
                and cond.comp.expr.op == "==" and not cond.comp.cond and isinstance(cond.comp.expr.right, A.Name) \
                and cond.comp.expr.right.name == var and self._is_zone(cond.comp.source):
            item = self.nouns.element(cond.comp.source).phrase(self.cat)
            return self.msg("expr.filter_in", cond, source=self.expr(cond.comp.source), item=item, var=var_said, relgen=relgen,
                            prep_at=self.prep(cond.comp.source, "at" if self.zone_def_of(cond.comp.source) else "among"))
        said = self.msg(key, cond, cond=self.expr(cond), var=var_said, rel=rel if rel is not None else Phrase(""))
        if noun is not None and noun.feminine():
            said = self.agreeing(said, key)
        person = noun is not None and noun.word == self.nouns.word("player").word
        relative = self.relative(cond, var_said, var, relgen, person, said) if key == "expr.filter" and ref is not None \
            else None
        if relative is None:
            return said
        return relative

    def agreeing(self, said: Phrase, key: str) -> Phrase:
        """A text about items of a feminine noun in its forms `FORM_fem` where the pattern has them (« telles que »)."""
        pattern = self.cat.pattern(key)
        if not isinstance(pattern, dict):
            return said
        def form(f: str) -> str:
            fem = f"{f if f in pattern else 'main'}_fem"
            return said.form(fem if fem in pattern else f)
        return Phrase(form, said.agree)

    def whose_clause(self, var: str, cond: A.Expr) -> Optional[Phrase]:
        """A comparison of a field of the item itself, said of the field: "power is at least 3" (after "whose")."""
        if not (isinstance(cond, A.BinOp) and cond.op in _NEGATED):
            return None
        field = self.whose(var, cond.left)
        if field is None:
            return None
        left = self.msg("expr.whose_field", cond, bare=field.np("bare"), the=field.np("def"))
        pattern = self.cat.pattern(f"expr.{_BINOPS[cond.op]}", cond.pos)
        right = self._operand(cond.right, cond.op, right=True)
        title = self.numbered_title(cond.left, cond.right) if cond.op in ("==", "!=") else None
        if title is not None:  # the one card with that number named too: "whose number is 7 (Red Star)"
            right = self.msg("expr.numbered_card", cond, number=right, title=title.word)
        return Phrase(lambda f: fill(pattern, f, {"left": left, "right": right}))

    def relative(self, cond: A.Expr, var: Phrase, name: str = "", relgen: Phrase = Phrase(""),
                 person: bool = False, plural_else: Optional[Phrase] = None) -> Optional[Phrase]:
        """A filter whose every part is a clause about the item itself, as a relative clause: "every token
        that is marked and does not move", „jeder Stein, der markiert ist und sich nicht bewegt“; a later part
        that compares a field of the item (`name`) says "whose": "… that is not marked and whose power is 3".
        Its form "pl" agrees with several items; where its verbs cannot, it is `plural_else` ("for which …")."""
        op = cond.op if isinstance(cond, A.BinOp) and cond.op in ("and", "or") else ""
        leaves: list[A.Expr] = []

        def flatten(e: A.Expr) -> None:
            if isinstance(e, A.BinOp) and e.op == op:
                flatten(e.left)
                flatten(e.right)
            else:
                leaves.append(e)
        flatten(cond)
        grammar = self.cat.data.get("grammar", {})
        form = str(grammar.get("clause", {}).get("relative_form", "main")) if isinstance(grammar, dict) else "main"
        subject = var.form("nom") + " "
        joins = tuple(self.word(w).strip() + " " for w in ("list_last", "choice_last"))  # "B and A belong to …"
        family = self.family_of(A.Name(pos=cond.pos, name=name)) if name else None
        place = self.place_of(A.Name(pos=cond.pos, name=name), family).form("nom") + " " if family else None
        rest: list[str] = []
        later: list[str] = []  # "whose …" parts, after the clauses about the item
        for leaf in leaves:
            text = self.expr(leaf).form(form)
            whose = self.whose_clause(name, leaf) if name else None
            if isinstance(leaf, A.BinOp) and leaf.op in ("and", "or"):
                return None
            if text.startswith(subject) and not text[len(subject):].startswith(joins):
                rest.append(text[len(subject):])
            elif whose is not None:
                later.append(self.msg("expr.rel_whose", leaf, cond=whose, relgen=relgen).form(form))
            elif (owned := self.owned_subject(name, leaf, text, family, place, var)) is not None:  # "whose square is …"
                later.append(self.msg("expr.rel_whose", leaf, cond=owned, relgen=relgen).form(form))
            else:
                return None
        sep = "rel_sep" if op != "or" and not later else "list_sep"  # English "who A and B and C": no garden path
        joined = self.join(rest + later, "choice_last" if op == "or" else "list_last", sep)
        verbs = self.plural_verbs()
        if not rest:  # only "whose …" parts: "whose space is … and whose wisdom is …"
            whose = self.msg("expr.filter_rel_whose", cond, conds=joined)
            if not later or not name:
                return None
            return whose if verbs and not self.strict_plural() else _in_plural(whose, plural_else)  # (no verb to agree:
            # French « dont » would take the nearest noun, where « tels que la case … » names the item)
        key = "expr.filter_rel_person" if person and self.cat.has("expr.filter_rel_person") else "expr.filter_rel"
        single = self.msg(key, cond, var=var, conds=joined)  # (a player: "who")
        parts = [self.agreed(part, verbs) for part in rest]
        if not verbs or any(p is None for p in parts):  # a part no rule may put in the plural: "for which …" there
            return _in_plural(single, plural_else)
        several = self.msg(key, cond, var=var, conds=self.join([p for p in parts if p is not None] + later,
                                                               "choice_last" if op == "or" else "list_last", sep))
        return _in_plural(single, several)  # "the number of tokens that are …"

    def plural_verbs(self) -> dict[str, str]:
        """How a language turns the verb a clause starts with into the plural (English "is" → "are", "counts" →
        "count"), so a relative clause after a plural noun agrees with it; none: the language says "for which …". A
        rule's PREDICATE is the catalogue's `predicate`, the words that may agree with the verb, written once."""
        grammar = self.cat.data.get("grammar", {})
        clause = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
        verbs = clause.get("plural_verb", {}) if isinstance(clause, dict) else {}
        predicate = str(clause.get("predicate", "")) if isinstance(clause, dict) else ""
        return {str(k).replace("PREDICATE", predicate): str(v) for k, v in verbs.items()} if isinstance(verbs, dict) else {}

    def agreed(self, part: str, verbs: dict[str, str]) -> Optional[str]:
        """A relative clause's part with its first word, the verb, in the plural: the first rule that matches; a
        predicate noun it ends with (catalogue `grammar.clause.plural_predicate`) too: "the number of tokens that are
        not jokers", not "that are not a joker". As it is where no rule matches, or None in a language whose rules
        list every part they may change (`plural_verb_only`: French, where a verb's adjective or participle would have
        to agree too: « qui sont empoisonnées »). A rule's replacement may mark words that agree with the verb,
        an adjective, a participle or a predicate noun (`⟨…⟩`, French « comptent comme ⟨vide⟩ »): each of them
        but the joining words goes into the plural by the catalogue's noun rules (« comptent comme vides »)."""
        for pattern, plural in verbs.items():
            said, n = re.subn(pattern, plural, part, count=1)
            if n:
                grammar = self.cat.data.get("grammar", {})
                clause = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
                joins = set(clause.get("joins", [])) if isinstance(clause, dict) else set()
                said = PLURAL_MARKED.sub(lambda m: " ".join(w if w in joins else Noun(w, self.cat).plural()
                                                                for w in m.group(1).split(" ")), said)
                predicate = clause.get("plural_predicate") if isinstance(clause, dict) else None
                found = re.search(predicate, said) if isinstance(predicate, str) else None
                if found is None:
                    return said
                return said[:found.start()] + found.group("verb") + Noun(found.group("noun"), self.cat).plural()
        return None if self.strict_plural() else part

    def strict_plural(self) -> bool:
        """Whether a relative clause is said after several items only where its verbs' rules put it in the plural
        (`plural_verb_only`), else "for which …"."""
        grammar = self.cat.data.get("grammar", {})
        clause = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
        return isinstance(clause, dict) and clause.get("plural_verb_only") is True

    def owned_subject(self, name: str, leaf: A.Expr, text: str, family: Optional[str],
                      place: Optional[str], var: Phrase) -> Optional[Phrase]:
        """A clause whose subject is the item's place or one of its fields ("the square of the token is …", "the
        token of the card is no longer …"), said after "whose": "square is …", "token is no longer …"."""
        def whose(bare: str, the: str, rest: str) -> Phrase:
            return Phrase(self.msg("expr.whose_field", leaf, bare=bare, the=the).form("nom") + " " + rest)
        if not name:
            return None
        text = self.cat.contract(text)  # a function's text that repeats the article: "the the value of …"
        if family is not None and place is not None and text.startswith(place):
            zone = self.sym.zones[family]
            noun = self.noun(zone.text, f"zone '{family}'", zone.pos)
            return whose(noun.word, noun.np("def").form("nom"), text[len(place):])
        owned = self.after_possessive(text) if self.possessor(A.Name(pos=leaf.pos, name=name)) else None
        if owned is not None:  # „seine Figur ist …“ of the item: „dessen Figur ist …“
            return whose(owned[0], owned[0], owned[1])
        ref = self.lookup(name)
        kind = self.sym.kinds.get(ref.kind) if ref is not None else None
        for fdef in kind.fields if kind is not None else []:  # a field read directly or by a function's text
            attr = A.Attr(pos=leaf.pos, obj=A.Name(pos=leaf.pos, name=name), name=fdef.name)
            field = self.whose(name, attr)
            said = self.expr(attr).form("nom") + " " if field is not None else ""
            if field is not None and text.startswith(said) and not text[len(said):].startswith(_SIGNS):
                return whose(field.np("bare").form("nom"), field.np("def").form("nom"), text[len(said):])
        of_item = self.msg("expr.zone_of_card", leaf, zone=Phrase(""), card=var).form("nom")  # " of the card"
        head, found, tail = text.partition(of_item + " ")
        words = head.split(" ")
        known = self.cat.data.get("articles", {})
        articles = {w.split(" ")[0] for w in (Noun(f"{a} Dinge", self.cat).np("def").form("nom")
                                              for a in (known if isinstance(known, dict) else {}) if a != "default")}
        if found and 2 <= len(words) <= 3 and words[0] in articles and not tail.startswith(_SIGNS):
            return whose(" ".join(words[1:]), head, tail)  # a function's own words: "the token of the card …"
        return None

    def after_possessive(self, text: str) -> Optional[tuple[str, str]]:
        """A clause that starts with the possessive the catalogue's `their` gives („seine Figur ist …“): the
        noun it owns, with any adjectives („Figur“), and the rest of the clause."""
        known = self.cat.data.get("articles", {})
        forms = {str(f) for a in (known.values() if isinstance(known, dict) else []) if isinstance(a, dict)
                 for f in ([a["their"]] if isinstance(a.get("their"), str) else
                           a["their"].values() if isinstance(a.get("their"), dict) else [])}
        first, _, rest = text.partition(" ")
        words = rest.split(" ")
        head = next((i for i, w in enumerate(words) if w[:1].isupper()), None)
        if first not in forms or head is None or any(w in forms for w in words[:head]):
            return None
        return " ".join(words[:head + 1]), " ".join(words[head + 1:])

    def _e_Comprehension(self, e: A.Comprehension) -> Phrase:
        left_out = _left_out(e)
        if left_out is not None:  # "the path elements without the second one"
            return self.msg("expr.without", e, source=self._comp_args(e)["source"], item=self.expr(left_out))
        plain = isinstance(e.expr, A.Name) and e.expr.name == e.var
        args = self._comp_args(e)
        if plain and self.said_by_its_plural(args["var"], args["source"]):  # « les joueurs sur la case tels que … »
            return self.msg("expr.comprehension_of", e, **args)
        return self.msg("expr.comprehension_self" if plain else "expr.comprehension", e, **args)

    def said_by_its_plural(self, var: Arg, source: Arg) -> bool:
        """Whether a list is said with its items' plural as its head („die Spieler auf dem Feld“), so its items
        need not be named again before it („die Spieler aus den Spielern auf dem Feld“)."""
        if not isinstance(var, Phrase) or not isinstance(source, Phrase):
            return False
        plural, text = f"{self.cat.pattern('grammar.plural_article')} {var.form('pl')}", source.form("nom")
        return text == plural or text.startswith(plural + " ")

    def _e_CallComp(self, e: A.CallComp) -> Phrase:
        found = self.exists(e.comp, "comp.any_rel") if e.func == "any" else None
        if found is not None:
            return found
        if self.cat.has(f"comp.{e.func}"):
            return self.aggregate(f"comp.{e.func}", e, e.comp)
        return self.msg(f"prim.{e.func}", e, **{"0": self._e_Comprehension(e.comp)})

    def aggregate(self, key: str, e: A.Node, c: A.Comprehension) -> Phrase:
        """An aggregate over a comprehension by its pattern; one that ends with its condition ("for every x: …")
        is marked open-ended, as nothing but a bracket ends that condition's reach."""
        said = self.msg(key, e, **self._comp_args(c))
        pattern = self.cat.pattern(key, e.pos)
        said.open_end = any(re.search(r"\{expr(:\w+)?\}$", form) for form in
                            ([pattern] if isinstance(pattern, str) else pattern.values()))
        return said

    def _e_BinOp(self, e: A.BinOp) -> Phrase:
        key = f"expr.{_BINOPS[e.op]}"
        valued = e.op not in ("==", "!=") or self.said_as_number(e.right)  # « A vaut 3 », but « A est la rangée de départ »
        if self._numeric(e.right) and valued and self.cat.has(f"{key}_num"):  # a language's own "equals 3"
            key += "_num"
        elif self._numeric(e.right) and self._number(e.right) is None and self.cat.has(f"{key}_ref"):
            key += "_ref"  # a value read in play: German „mindestens so groß wie die Stärke“, not „mindestens die Stärke“
        left, right = e.left, e.right
        hint, outer = self.enum_type(left) or self.enum_type(right), self.enum_hint
        self.enum_hint = hint or outer
        try:
            return self._binop(e, key, left, right)
        finally:
            self.enum_hint = outer

    def enum_type(self, e: A.Expr) -> str:
        """The enum an expression's values belong to, where its declaration says: a field, a value, a parameter."""
        t: Optional[A.TypeRef] = None
        if isinstance(e, A.Attr):
            ref = self.lookup(e.obj.name) if isinstance(e.obj, A.Name) else None
            kind = self.sym.kinds.get(ref.kind if ref is not None else (self.it_kind or "") if _is_it(e.obj) else "")
            field = next((f for f in kind.fields if f.name == e.name), None) if kind else self.sym.fields.get(e.name)
            t = field.type if field is not None else None
        elif isinstance(e, A.Name) and e.name in self.sym.vars:
            t = self.sym.vars[e.name].type
        elif isinstance(e, A.Name):
            found = self.lookup(e.name)
            return found.enum if found is not None else ""
        return t.name if t is not None and t.name in self.sym.enums else ""

    def _binop(self, e: A.BinOp, key: str, left: A.Expr, right: A.Expr) -> Phrase:
        pattern = self.cat.pattern(key, e.pos)
        if self.is_you(right) and not self.is_you(left) and isinstance(pattern, dict) and "main_you" in pattern:
            left, right = right, left  # "vous êtes le propriétaire", not "le propriétaire est vous"
        kind = self.kind_said(e, left, right) if e.op in ("==", "!=") else None
        if kind is not None:  # "the square is a switch", not "the type of the square is switch"
            return kind
        title = self.numbered_title(left, right) if e.op in ("==", "!=") else None
        if title is not None:  # "the token is the Red Star", not "the number of the token is 7": the title with the
            # definite article, as it names the one card: „… ist der Mondstein“, « … est l'Opale »; a German or French
            # title written bare is a name (their bare article is empty: « … est Némo »), an English title is written
            # bare and takes "the" unless marked a name (`en "name: Nemo"`)
            owner = left.obj if isinstance(left, A.Attr) else left
            return self.msg(f"expr.{_BINOPS[e.op]}", e, left=self._operand(owner, e.op), right=title.np("def"))
        if e.op in ("==", "!=") and isinstance(right, A.Num) and right.value == 0 \
                and (zone := self.place_var(left) or self.place_zone(left)) is not None:  # place 0 is none
            noun = self.noun(self.sym.vars[left.name].text, f"var '{left.name}'", left.pos) \
                if isinstance(left, A.Name) and left.name in self.sym.vars else self.noun(
                    self.sym.zones[zone].text, f"zone '{zone}'", left.pos)
            return self.msg("expr.no_place" if e.op == "==" else "expr.some_place", e, bare=noun.np("bare"),
                            indef=noun.np("indef"))
        places = self.remembered_place(left, right) if e.op in ("==", "!=") else None
        if places is not None:  # "the row is the row of the lost fight", not "the number of the row is …"
            return self.msg(key, e, left=places[0], right=places[1])
        said = self._operand(left, e.op)
        grammar = self.cat.data.get("grammar", {})
        open_end = grammar.get("open_clause") if isinstance(grammar, dict) and e.op in ("and", "or") else None
        if isinstance(open_end, str):  # „…, sobald die Figur weiterzieht, oder es gibt …“: the clause before is closed
            inner, pattern = said, open_end

            def closed(f: str) -> str:
                text = inner.form(f)
                return text + ("," if re.search(pattern, text) else "")
            said = Phrase(closed, said.agree)
        outer = self.named_owners
        self.named_owners = outer | self.owners_after(left, right) if e.op in _COMPARE else outer
        try:
            return self.msg(key, e, left=said, right=self._operand(right, e.op, right=True))
        finally:
            self.named_owners = outer

    def owners_after(self, left: A.Expr, right: A.Expr) -> frozenset[str]:
        """The players a comparison's right side would call "their" though its left side, said first, names
        none of them: the nearest owner there is another ("the third wizard's friends are at most the
        player's friends", not "… at most their friends", which reads as the wizard's own; review rv19 K4)."""
        before = {n.name for n in A.walk(left) if isinstance(n, A.Name)}
        return frozenset(n.name for n in A.walk(right) if isinstance(n, A.Name) and n.name not in before and self.possessor(n))

    def kind_said(self, e: A.BinOp, left: A.Expr, right: A.Expr) -> Optional[Phrase]:
        """`f(x) == V` of a function with an `is` text: that clause, the value said indefinite where its text
        has an article („das Feld ist ein Schalter“); `!=` negates it („kein Schalter“). A value its text marks
        plural names the one kind there is of it ("the dunes"): definite, and the indefinite article the
        `is` text writes before it (catalogue `grammar.value_article`) goes, as it cannot count a plural ("the
        row is the dunes", not "is a dunes"). Such a value of the place a card lies at says where the card stands
        (catalogue `grammar.stands_at`): a place is not its plural name, "the token is at the dunes", „der
        Spielstein steht bei den Dünen“, « le pion est aux dunes », not "the row of the token is the dunes"."""
        if isinstance(left, A.Name) and isinstance(right, A.Call):
            left, right = right, left
        if not isinstance(left, A.Call) or not isinstance(right, A.Name) or right.name not in self.sym.enum_values:
            return None
        fn = self.sym.functions.get(left.func)
        if fn is None or fn.kind_clause is None:
            return None
        value = self.noun(self.sym.enum_text(right.name, self.enum_hint), f"value '{right.name}'", right.pos)
        grammar = self.cat.data.get("grammar", {})
        stands = grammar.get("stands_at") if isinstance(grammar, dict) and value.agree == "pl" else None
        place = left.args[0] if len(left.args) == len(fn.params) == 1 else None
        if isinstance(stands, str) and isinstance(place, A.Call) and place.func == "position" \
                and self.place_zone(place) is not None:  # "the token is at the reeds"
            clause = self.clause(e, stands, {"it": self.expr(place.args[0]), "value": value.np("def")})
            return clause if e.op == "==" else self.msg("expr.not_clause", e, clause=clause)
        said = value.np("def" if value.agree == "pl" else "indef" if value.gender != "default" else "bare").form("nom")
        template = text_of(fn.kind_clause, self.lang, f"the is text of function '{fn.name}'", fn.pos)
        article = grammar.get("value_article") if isinstance(grammar, dict) and value.agree == "pl" else None
        if isinstance(article, str):
            template = re.sub(article, "", template)
        text = A.Text(pos=fn.kind_clause.pos, by_lang={**fn.kind_clause.by_lang,  # (all: `apposed` reads the German)
                                                       self.lang: template.replace("{value}", self.literal(said))})
        clause = self.function_phrase(fn.model_copy(update={"text": text, "body": e}), [self.expr(a) for a in left.args],
                                      e, left.args)
        return clause if e.op == "==" else self.msg("expr.not_clause", e, clause=clause)

    def numbered_title(self, left: A.Expr, right: A.Expr) -> Optional[Noun]:
        """The title of the card a field compared with a number names, where one card alone has it."""
        if not (isinstance(left, A.Attr) and isinstance(left.obj, A.Name) and isinstance(right, A.Num)):
            return None
        ref = self.lookup(left.obj.name)
        kind = ref.kind if ref is not None else self.self_kind if left.obj.name == "self" else None
        title = self.sym.numbered_card(kind, left.name, right.value) if kind else None
        return Noun(self.literal(text_of(title, self.lang, f"card with {left.name} {right.value}", right.pos)), self.cat) \
            if title is not None else None

    def remembered_place(self, left: A.Expr, right: A.Expr) -> Optional[tuple[Phrase, Phrase]]:
        """Two places compared, one of them certainly a place (a place in scope, the place of a card), the
        other a place in scope, a card's place, or a named number (an `internal` value or a constant that
        remembers a place): both said as places, "the square is the exit", not "the number of the square is …"."""
        def certain(e: A.Expr) -> bool:
            return self.place_zone(e) is not None or self.place_var(e) is not None

        def named(e: A.Expr) -> bool:
            if not isinstance(e, A.Name) or e.name in self.scope.refs:
                return False
            var, const = self.sym.vars.get(e.name), self.sym.consts.get(e.name)
            return var is not None and var.internal and var.type.name == "int" \
                or const is not None and const.text is not None and isinstance(const.value, A.Num)

        def said(e: A.Expr) -> Phrase:
            ref = self.lookup(e.name) if isinstance(e, A.Name) else None
            const = self.sym.consts.get(e.name) if isinstance(e, A.Name) and ref is None else None
            if const is not None:  # a named place by its name: "the exit", not "2"
                return self.noun(const.text, f"const '{const.name}'", const.pos).np("def")
            return ref.phrase(self.cat) if ref is not None and ref.zone is not None else self.expr(e)
        if not (certain(left) and (certain(right) or named(right)) or certain(right) and named(left)):
            return None
        return said(left), said(right)

    def said_as_number(self, e: A.Expr) -> bool:
        """Whether a number is said as an amount (a numeral, a sum, a letter, a count, the number of players, a thing's
        value: "3", "A + 1", "the number of players"), not by the name of what it numbers ("the home row", "the row
        of player B"): equal to an amount, French says the value (« vaut 3 »), equal to a named thing, that thing
        (« A est la rangée de départ », not « A vaut la rangée de départ »: review rv19)."""
        if isinstance(e, (A.Num, A.Neg)) or isinstance(e, A.BinOp) and e.op in _PRECEDENCE or isinstance(e, A.CallComp):
            return True
        if isinstance(e, A.Call):
            return e.func in _NUMBER_CALLS and e.func != "position"
        if isinstance(e, A.Attr):
            return self._numeric(e)
        ref = self.lookup(e.name) if isinstance(e, A.Name) else None
        const = self.sym.consts.get(e.name) if isinstance(e, A.Name) and ref is None else None
        return ref is not None and ref.symbol or isinstance(e, A.Name) and ref is None and e.name in _NUMBERS \
            or const is not None and isinstance(const.value, A.Num) and not self.named_const(const)

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
        operation, a sum inside a product, any arithmetic inside a division or remainder, an `or` inside an `and`
        and the other way round ("A and (B or C)"), a quantifier before another operand of `and`/`or`
        ("(for every x: A) and B": its condition would seem to run on). A card's place
        in arithmetic is its number: "the place number of the token + 1"."""
        counted = parent in _PRECEDENCE and isinstance(e, A.Call) and e.func == "position"
        op = e.op if isinstance(e, A.BinOp) else ""
        child, outer = _PRECEDENCE.get(op, 0), _PRECEDENCE.get(parent, 0)
        joined = parent in ("and", "or")
        bracket = isinstance(e, A.CondExpr) or (child > 0 and outer > 0 and (
            child < outer or parent in ("/", "%") or op in ("/", "%") or (right and parent == "-"))) \
            or {op, parent} == {"and", "or"}
        runs_on, self.runs_on = self.runs_on, not bracket and not _quantified(e) and (self.runs_on or (joined and not right))
        try:
            inner = self.msg("prim.position", e, **{"0": self.expr(e.args[0])}) if counted and isinstance(e, A.Call) \
                else self.expr(e)
        finally:
            self.runs_on = runs_on
        return _bracketed(inner) if bracket or (inner.open_end and joined and (runs_on or not right)) else inner

    def exists(self, c: A.Comprehension, key: str) -> Optional[Phrase]:
        """`any(…)` whose condition is a clause about the item: "there is a token on the square that is a
        marker", not "… for at least one token"."""
        if c.cond is not None:
            return None
        args = self._comp_args(c)
        self.scope.push()
        try:
            items = A.Comprehension(pos=c.pos, expr=A.Name(pos=c.pos, name=c.var), var=c.var, source=c.source, cond=c.expr)
            ref = self._bind(c.var, c.source)
            other = self.nouns.other(items, ref)
            rest = other_than(items)[1] if other is not ref else c.expr
            if other is not ref:  # "there is another token on the square", not "… a token … that is not this one"
                args["var"] = other.phrase(self.cat)
                self.scope.refs[c.var] = other
                if rest is None:
                    return self.held(c, key, args, Phrase(""), Phrase(""))
                c = c.model_copy(update={"expr": rest})
            said_ref = self.scope.refs[c.var]
            if key == "comp.any_rel" and self.cat.has("comp.any_one") and str(self.cat.pattern("comp.any_one")) \
                    and self.said_by_list(c.source, said_ref):  # a language whose relative pronoun agrees says ""
                said_ref.every = self.msg("comp.any_one", c, source=args["source"])  # "one of the rows … is free"
                return self.expr(c.expr)
            rel = self.relative(c.expr, said_ref.phrase(self.cat), c.var, said_ref.noun.det("relgen"))
            e, cond = c.expr, Phrase("")
            if rel is None and isinstance(e, A.BinOp) and e.op in _NEGATED and self.whose(c.var, e.left) is not None:
                rel, cond = self.filter(c.var, ref, e, "expr.filter"), self.expr(e)  # "there is a card whose value is 3"
                key += "_whose"  # a language may say it with the whole condition: "il existe … tel que …"
        finally:
            self.scope.pop()
        return self.held(c, key, args, rel, cond) if rel is not None else None

    def said_by_list(self, source: A.Expr, item: Ref) -> bool:
        """Whether the items of a list have no noun of their own ("a value") but the function that makes the
        list names them ("the rows a token reaches"): then one of them is said by the list."""
        return isinstance(source, A.Call) and source.func in self.sym.functions and not item.label \
            and item.noun.word == self.nouns.word("value").word

    def held(self, c: A.Comprehension, key: str, args: Mapping[str, Arg], rel: Phrase, cond: Phrase) -> Phrase:
        """An item that exists in a zone said by the zone that holds it: "you have a joker whose …", "the
        bag holds a token that …"; in a list, "there is a … in the list"."""
        held = self.idioms.held_by(c.source)
        whose = key.endswith("_whose")
        base = key.removesuffix("_whose")
        said = {"var": args["var"], "rel": rel, "cond": cond, "from": args["from"]}
        if held is not None:
            return self.msg(base.replace("any_rel", "any_has"), c, **said, owner=self.expr(held[0]))
        source = args["source"]
        if self._is_zone(c.source) and not (isinstance(c.source, A.Call) and c.source.func == "cards") \
                and isinstance(source, Phrase):
            plural = self.headed_by_plural(self.nouns.element(c.source).noun, source)  # "your jokers include …"
            return self.msg(base.replace("any_rel", "any_held") + ("_whose" if whose else ""), c, **said,
                            source=Phrase(source.form, "pl", source.genitive) if plural else source)
        return self.msg(key, c, **said)

    def _e_Not(self, e: A.Not) -> Phrase:
        inner = e.operand
        if isinstance(inner, A.BinOp) and inner.op in _NEGATED:
            return self.expr(inner.model_copy(update={"op": _NEGATED[inner.op]}))
        negated = self.field_clause(inner, negated=True) or self.flag_negated(inner)
        if negated is not None:
            return negated
        fn = self.sym.functions.get(inner.func) if isinstance(inner, A.Call) else None
        if isinstance(inner, A.Call) and fn is not None and fn.negated is not None and self.lang in fn.negated.by_lang:
            other = fn.model_copy(update={"text": fn.negated})  # its `not` text: "no token lies in row 3"
            return self.function_phrase(other, [self.expr(a) for a in inner.args], e, inner.args)
        if isinstance(inner, A.Call) and self.cat.has(f"not.{inner.func}"):
            return self.msg(f"not.{inner.func}", e, **self.call_args(inner))
        if isinstance(inner, A.CallComp) and inner.func == "any" and isinstance(inner.comp.expr, A.Not):
            every = inner.model_copy(update={"func": "all", "comp": inner.comp.model_copy(update={"expr": inner.comp.expr.operand})})
            return self.expr(every)  # "for every square …: it would be beaten", not "for no square …: it would not be"
        found = self.exists(inner.comp, "not.any_rel") if isinstance(inner, A.CallComp) and inner.func == "any" else None
        if found is not None:
            return found
        if isinstance(inner, A.CallComp) and self.cat.has(f"not.{inner.func}"):
            return self.aggregate(f"not.{inner.func}", e, inner.comp)
        operand = self.expr(inner)
        if operand.clause:  # "the token does not move", "der Stein liegt nicht auf dem Brett"
            return self.msg("expr.not_clause", e, clause=operand)
        if isinstance(inner, A.BinOp) and inner.op in ("and", "or"):  # "it is not the case that (A and B)": its reach
            operand = _bracketed(operand)
        return self.msg("expr.not", e, operand=operand)

    def flag_negated(self, e: A.Expr) -> Optional[Phrase]:
        """A game flag or a yes/no setting said the other way round by its `not` text ("the leader has time")."""
        var = (self.sym.vars.get(e.name) or self.sym.consts.get(e.name)) if isinstance(e, A.Name) \
            and e.name not in self.scope.refs else None
        if var is None or var.negated is None or self.lang not in var.negated.by_lang:
            return None
        return self.clause(e, var.negated.by_lang[self.lang], {})

    def _e_Neg(self, e: A.Neg) -> Phrase:
        if isinstance(e.operand, A.Num):
            return Phrase(f"−{e.operand.value}")
        return self.msg("expr.neg", e, operand=self.expr(e.operand))

    def _e_CondExpr(self, e: A.CondExpr) -> Phrase:
        cond, then = self.expr(e.cond), self.expr(e.then)
        if isinstance(e.then, A.CondExpr) or self.ends_filtered(e.then):  # "(1 if B, otherwise 0) if A, otherwise 2":
            then = _bracketed(then)  # unbracketed, it reads as a chain "1 if B, otherwise 0 if A"; a filter's clause
            # would take the "if" as its last part: "(the tokens … that are weak) if …" (review rv19 K5)
        if isinstance(e.other, A.ListLit) and not e.other.items:  # a list only when: "the nodes … if …", not "otherwise no cards"
            return self.msg("expr.cond_none", e, cond=cond, then=then)
        return self.msg("expr.cond", e, cond=cond, then=then, other=self.expr(e.other))

    def ends_filtered(self, e: A.Expr) -> bool:
        """Whether an expression is said ending in a filter's clause: a list with a condition, or a primitive
        (a count, a sum) of one."""
        if isinstance(e, A.Comprehension):
            return e.cond is not None and e.key is None
        if isinstance(e, A.CallComp):
            return e.comp.cond is not None and e.comp.key is None
        return isinstance(e, A.Call) and e.func not in self.sym.functions and bool(e.args) and self.ends_filtered(e.args[-1])

    def _e_ListLit(self, e: A.ListLit) -> Phrase:
        if not e.items:
            return self.msg("expr.empty_list", e)
        inner = [self.msg("expr.list_inner", i, items=self.join([self.expr(x) for x in i.items]))
                 if isinstance(i, A.ListLit) and i.items else self.expr(i) for i in e.items]  # "the list (2 and 2)"
        return self.msg("expr.list", e, items=self.join(inner))

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
        """A block's sentences; its `let`s and loop variables are in scope inside it only. The outermost
        block is said twice when a local got its letter ("token A") only after its first mention."""
        if self.depth > 0:
            return self._block(body)
        self.scope.late = {}
        out = self._block(body)
        if self.scope.late:
            self.prelabels.update(self.scope.late)
            self.scope.late = {}
            out = self._block(body)
        self.prelabels.clear()
        return out

    def _block(self, body: Sequence[A.Stmt]) -> list[Line]:
        self.enter(body)
        self.scope.push()
        self.depth += 1
        out: list[Line] = []
        around = self.named_owners
        self.named_owners -= self.opening  # a loop's body: its header has named the player, so "their" has an antecedent
        try:
            i = 0
            while i < len(body):
                opening = self.unnamed_players() if self.depth == 1 and not out and isinstance(body[i], (A.Let, A.For)) \
                    else frozenset()
                said = self.statement(body, i, opening)
                if opening and said[0] and self.said_first(said[0][0].text, opening):  # its subject names them already:
                    said = self.statement(body, i, frozenset())  # "the player puts their …"
                out.extend(said[0])
                i += said[1]
        finally:
            self.named_owners = around
            self.depth -= 1
            self.scope.pop()
        return out

    def statement(self, body: Sequence[A.Stmt], i: int, opening: frozenset[str]) -> tuple[list[Line], int]:
        """The lines of the statement at `i` (an idiom may take several) and how many it took; the `opening`
        players are named where they would be "their" (`unnamed_players`)."""
        outer, around = self.named_owners, self.opening
        self.opening, self.named_owners = opening or around, outer | opening
        try:
            said = self.idioms.stmts(body, i)
            if said is None:
                method: Callable[[A.Stmt], list[Line]] = getattr(self, f"_s_{type(body[i]).__name__}")
                said = method(body[i]), 1
            return said
        finally:
            self.named_owners, self.opening = outer, around

    def said_first(self, text: str, players: frozenset[str]) -> bool:
        """Whether a sentence opens with one of these players as its subject."""
        return any(text.lower().startswith(self.var(n).form("nom").lower() + " ") for n in players)

    def _line(self, key: str, s: A.Node, form: str = "default", children: Optional[list[Line]] = None,
              note: Optional[str] = None, **args: Arg) -> list[Line]:
        return [Line(self.text(key, s, form, args), children or [], note)]

    def _subject(self, seat: Optional[A.Expr]) -> str:
        return "you" if seat is not None and self.is_you(seat) else "default"

    def _s_Let(self, s: A.Let) -> list[Line]:
        value = self.expr(s.value)
        v = s.value
        if isinstance(v, A.Call) and v.func == "position" and len(v.args) == 1 and self.family_of(v.args[0]):
            zone = self.family_of(v.args[0]) or ""
            self.scope.bind(s.name, self.named(self.nouns.zone_ref(zone), s.text))  # only names a place: later "the row" says it
            return []
        ref = self.named(self.nouns.value(s.value), s.text, s.value)
        generic = {self.nouns.word(w).word for w in ("number", "value", "list", "condition")}
        self.scope.bind(s.name, ref, lettered=s.text is None and ref.noun.word in generic)
        ref.noted = v.name if isinstance(v, A.Name) and v.name in self.sym.counters else ""
        picked = isinstance(v, A.Call) and v.func in ("first", "last", "top") and self._is_zone(v.args[0])
        if picked and isinstance(v, A.Call) and isinstance(v.args[0], A.Index):
            ref.taken_from = v.args[0].index  # where it stands: a walk from there need not say so
        key = "stmt.let_cond" if is_condition(v) else "stmt.let_called" if picked and ref.label \
            else "stmt.let_all" if _every(v) else "stmt.let"
        shown = self._let_shown(s, ref)
        if shown is not None:
            return shown
        said, name = value.form("nom").lower(), self.var(s.name).form("nom").lower()
        if said == name:
            return []  # "the next square is the next square": the local only names the value
        if s.text is not None and (isinstance(v, A.Attr) or isinstance(v, A.Call) and (
                v.func in self.sym.functions or v.func == "owner")) and (widened(name.split(), said.split())
                                                                         or said.partition(" ")[2] == name.partition(" ")[2]):
            return []  # "the bonus is the bonus for the player", "the card is your card": the local only names its lookup
        if self._names_owner(v, s.text):
            return []  # "the keeper of this card is the owner of this card": its noun already names whose it is
        if picked and self._located_by_name(value, s.text):
            return []  # "the lead runner is the top token of the lead runner's square": its noun says it
        old = self.lookup(v.name) if isinstance(v, A.Name) else None
        if old is not None and s.text is not None and ref.noun.word.lower() in old.noun.word.lower():
            return []  # "the token is the stone token": a local that names another by a word of its noun
        if isinstance(v, A.Call) and v.func == "card" and s.text is not None:
            return []  # "the Joker is the card “Joker”": a local with its own noun for one card only names it
        if isinstance(v, A.ListLit) and not v.items and s.text is not None:
            return []  # "the chosen pieces are no cards": a new named list starts empty; what is added to it says the rest
        if isinstance(v, A.Name) and v.name in self.sym.vars and s.text is not None:
            return self._line("stmt.let_noted", s, value=value)  # a value kept for later: "note the number of …"
        return self._line(key, s, name=self.var(s.name), value=value)  # a card by its letter: "… is called card A"

    def _located_by_name(self, value: Phrase, text: Optional[A.Text]) -> bool:
        """Whether a card picked from a place has a noun of its own that the place is named by already (the
        top token of "the lead runner's square" called "the lead runner"): no definition needed."""
        noun = self.nouns.text(text)
        if noun is None:
            return False
        said, named = value.form("nom").split(" ", 1)[-1], noun.np("def")  # after its own article: where it lies
        words = {named.form(f).split(" ", 1)[-1] for f in ("nom", "gen", "dat")}  # without its article
        return any(" " in w and f" {w}" in said for w in words)

    def _names_owner(self, v: A.Expr, text: Optional[A.Text]) -> bool:
        """Whether a local's own noun names the owner of the thing its value is the owner of ("the keeper
        of this card" for `owner(self)`): the noun ends in the same owned thing as "the owner of …"."""
        if text is None or not (isinstance(v, A.Call) and v.func == "owner" and len(v.args) == 1):
            return False
        noun = self.nouns.text(text)
        owned = self.msg("expr.field_of", v, field=Phrase(""), obj=self.expr(v.args[0])).form("nom").strip()
        return noun is not None and bool(owned) and noun.np("def").form("nom").endswith(" " + owned)

    def named(self, ref: Ref, text: Optional[A.Text], value: Optional[A.Expr] = None) -> Ref:
        """A local with its own noun (`let capped de "die gedeckelte Summe" en "capped sum" = …`)
        is said by it, not by its value's noun or a letter; one item of it is still an item of `value`."""
        noun = self.nouns.text(text)
        if noun is None:
            return ref
        named = Ref(noun, zone=ref.zone, kind=ref.kind, enum=ref.enum)
        named.item = self.nouns.element(value, said=False) if value is not None else None
        return named

    def _let_shown(self, s: A.Let, ref: Ref) -> Optional[list[Line]]:
        """A value named after the card's field it takes (`let x = max(0, c.x)`) is what the card shows, not
        "the x is the x of the card"."""
        v = s.value
        clamp = v if isinstance(v, A.Call) and v.func in ("max", "min") and len(v.args) == 2 \
            and self._number(v.args[0]) is not None else None
        inner = clamp.args[1] if clamp is not None else v
        if not (isinstance(inner, A.Attr) and self.nouns.value(inner.obj).kind and ref.kind == ""):
            return None
        bound: Arg = "" if clamp is None else \
            self.msg(f"stmt.shown_{'least' if clamp.func == 'max' else 'most'}", clamp, bound=self.expr(clamp.args[0]))
        return self._line("stmt.let_shown", s, name=self.var(s.name), owner=self.expr(inner.obj), bound=bound)

    def _s_LetChoose(self, s: A.LetChoose) -> list[Line]:
        opts = s.options
        kind = isinstance(opts, A.Comprehension) and isinstance(opts.expr, A.Name) and opts.expr.name == opts.var \
            and isinstance(opts.source, A.Name) and opts.source.name in self.sym.enums
        if kind and isinstance(opts, A.Comprehension):  # "each player chooses a colour (one the box holds)"
            args = self._comp_args(opts)
            self.scope.bind(s.name, self.named(self.nouns.element(opts), s.text)).chosen = True
            return self._line("stmt.let_choose_kind", s, self._subject(s.seat), seat=self.expr(s.seat),
                              name=self.var(s.name), filter=args["filter"])
        if isinstance(opts, A.Comprehension) and isinstance(opts.expr, A.Name) and opts.expr.name == opts.var \
                and opts.key is None and opts.cond is not None and other_than(opts)[0] is None and self._is_zone(opts.source):
            args = self._comp_args(opts)  # "you choose a tile in your hand whose …", not "… from every tile in …"
            item = self.nouns.element(opts)
            ref = self.named(item, s.text)
            if ref.noun.word == item.noun.word:
                self.scope.bind(s.name, ref).chosen = True
                said: dict[str, Arg] = {"seat": self.expr(s.seat), "name": self.var(s.name), "filter": args["filter"],
                                        "from": args["from"]}
                return [Line(self.text("stmt.let_choose_from", s, self._subject(s.seat), said))]
        if yes_or_no(opts) and s.text is not None and self.lang in s.text.by_lang:  # "you decide whether …"
            clause = self.clause(s, self.literal(s.text.by_lang[self.lang]), {})
            self.scope.bind(s.name, self.named(self.nouns.element(opts), s.text)).clause = clause
            return self._line("stmt.let_choose_whether", s, self._subject(s.seat), seat=self.expr(s.seat), clause=clause)
        options, listed = self.options(opts)
        item = self.nouns.element(opts)
        ref = self.scope.bind(s.name, self.named(item, s.text))
        ref.chosen = True
        if isinstance(opts, A.Call) and opts.func == "range" and len(opts.args) == 2:  # "from 1 to 3", not "from the numbers …"
            return self._line("stmt.let_choose_range", s, self._subject(s.seat), seat=self.expr(s.seat),
                              name=self.var(s.name), low=self.expr(opts.args[0]), high=self.expr(opts.args[1]))
        plain = not listed and not ref.label and not isinstance(opts, A.CondExpr)
        one = self.one_of(ref.noun, options, ref.noun.word == item.noun.word) if plain else None
        if one is not None:  # "you choose one of the spaces", not "a space from the spaces"
            return self._line("stmt.let_choose_one", s, self._subject(s.seat), seat=self.expr(s.seat), one=one,
                              options=options)
        return self._line(f"stmt.let_choose{listed or self.part_of(opts, options)}", s, self._subject(s.seat),
                          seat=self.expr(s.seat), name=self.var(s.name), options=options)

    def part_of(self, opts: A.Expr, options: Phrase) -> str:
        """"_part" for a choice among the items of one local named in the singular (a tile's two sides):
        „eine Seite des Wegelements“, not „eine Seite aus dem Wegelement“; else ""."""
        one = isinstance(opts, A.Name) and opts.name in self.scope.refs and options.agree != "pl"
        return "_part" if one else ""

    def one_among(self, ref: Ref, e: A.Expr) -> Optional[Phrase]:
        """An action's parameter chosen from a list said by a plural noun: "one of the start spaces"."""
        if isinstance(e, A.Name) and e.name == "players" or isinstance(e, A.Call) and e.func in ("positions", "cards") \
                or isinstance(e, A.CondExpr) or ref.label:
            return None
        among = self._expr(e)
        one = self.one_of(ref.noun, among, ref.noun.word == self.nouns.element(e).noun.word)
        return self.msg("item.action_param_one", e, one=one, among=among) if one is not None else None

    def one_of(self, noun: Noun, among: Phrase, unnamed: bool) -> Optional[Phrase]:
        """"one" of a list said by a plural noun, where the language has the construct (its `one_of`): where
        the list names the chosen thing's noun ("einen der Räume": the pronoun takes its gender), or, in a
        language without gender, where the choice has no name of its own ("one of your friends")."""
        grammar = self.cat.data.get("grammar", {})
        how = grammar.get("one_of") if isinstance(grammar, dict) else None
        if how is None or among.agree != "pl":
            return None
        words = among.form("nom").split(" ")
        nouns = [w for w in words if w[:1].isupper()]  # a German list's head noun is its first capitalised word
        head = nouns[0] if how == "same_noun" and nouns else " ".join(words[:4])
        own = noun.word.partition(" (")[0].split(" ")  # a noun of several words ("token ahead") may head
        gender = "" if noun.gender == "default" else noun.gender + " "
        heads = {noun.plural()} | {Noun(gender + w, self.cat).plural() for w in {own[0], own[-1]}}  # first or last
        if not any(re.search(rf"(?<!\w){re.escape(h)}(?!\w)", head) for h in heads) and not (how == "any" and unnamed):
            return None
        return noun.det("one")

    def _s_LetRandom(self, s: A.LetRandom) -> list[Line]:
        if s.text is None and _die(s.options):  # `random [1, 2, 3, 4, 5, 6]`: "Roll a die." and "the roll"
            self.scope.bind(s.name, Ref(self.nouns.word("roll"))).roll = True
            return self._line("stmt.roll_die", s)
        ref = self.scope.bind(s.name, self.named(self.nouns.element(s.options), s.text))
        const = self.sym.consts.get(s.options.name) if isinstance(s.options, A.Name) else None
        if const is not None and const.told is not None and self.lang in const.told.by_lang:  # "roll the red die"
            told = const.told.by_lang[self.lang]
            return self._line("stmt.set_clause", s, clause=Phrase(lambda f: fill(told, "nom", {})))
        options, listed = self.options(s.options)
        lines = self._line(f"stmt.let_random{listed or self.part_of(s.options, options)}", s, name=self.var(s.name),
                           options=options)
        ref.this = True  # what was drawn, said again: "this side", not "the side" as if known before
        return lines

    def take_on(self, sets: Sequence[A.SetStmt]) -> Optional[list[Line]]:
        """Fields copied from one card to another in one sentence: "the token takes on the colour and the
        size of the chosen one, and whether it is hidden"; None where a field has no text to say it by."""
        target, source = sets[0].target, sets[0].value
        assert isinstance(target, A.Attr) and isinstance(source, A.Attr)
        nouns: list[Arg] = []
        whether: list[Arg] = []
        own = self.sym.kinds[self.self_kind].title if self.self_kind and isinstance(target.obj, A.Name) \
            and target.obj.name == "self" else None  # a card's effect on itself: "this token"
        it = self.pronoun((self.nouns.text(own) or self.nouns.value(target.obj).noun).gender)
        for s in sets:
            assert isinstance(s.target, A.Attr)
            fdef = self.field_def(s.target)
            if fdef is None or fdef.text is None or self.lang not in fdef.text.by_lang:
                return None
            text = fdef.text.by_lang[self.lang]
            if IT_PLACE in text:
                whether.append(self.msg("stmt.take_on_whether", s, clause=self.clause(s, text, {"it": it})))
            else:
                nouns.append(self.noun(fdef.text, f"field '{fdef.name}'", fdef.pos).np("def"))
        if not nouns:
            return None
        key = "stmt.take_on_and_whether" if whether else "stmt.take_on"
        return self._line(key, sets[0], target=self.expr(target.obj), source=self.expr(source.obj),
                          fields=self.join(nouns), whether=self.join(whether))

    def pronoun(self, gender: str) -> Phrase:
        """The card of that gender said again in a clause of its own: "whether it flies", „ob sie fliegt“."""
        grammar = self.cat.data.get("grammar", {})
        pronoun = grammar.get("it", {}) if isinstance(grammar, dict) else {}
        assert isinstance(pronoun, dict)
        return Phrase(str(pronoun.get(gender, pronoun.get("default", ""))))

    def options(self, e: A.Expr) -> tuple[Phrase, str]:
        """What a choice is made from; written-out options as alternatives ("1, 2, 3 or 4"), with the
        message suffix that says them after a colon."""
        if isinstance(e, A.ListLit) and len(e.items) > 1 and not any(isinstance(i, A.ListLit) for i in e.items):
            return self.join([self.expr(i) for i in e.items], "choice_last"), "_list"
        if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1:  # "a card from the row", not "from the cards in"
            return self.expr(e.args[0]), ""
        if isinstance(e, A.Call) and e.func == "concat" and len(e.args) == 2 and isinstance(e.args[0], A.ListLit) \
                and len(e.args[0].items) == 1:  # `concat([x], L)`: "x or one of L", not "the list x followed by L"
            one = self.msg("stmt.one_among", e, one=self.nouns.element(e.args[1]).noun.det("one"), among=self.expr(e.args[1]))
            return self.join([self.expr(e.args[0].items[0]), one], "choice_last"), "_list"
        return self.expr(e), ""

    def _s_SetStmt(self, s: A.SetStmt) -> list[Line]:
        t = s.target
        if isinstance(t, A.Attr) and isinstance(t.obj, A.Name) and t.obj.name == "self" and t.name in self.printed:
            kept = self.printed  # a card's own field it changes is no longer the number printed on it
            self.printed = {k: v for k, v in kept.items() if k != t.name}
            try:
                return self._s_SetStmt(s)
            finally:
                self.printed = kept
        if self.unsaid(s):
            return []
        told = self.told_change(s)
        if told is not None:
            return told
        var = self.sym.vars.get(s.target.name) if isinstance(s.target, A.Name) and s.target.name not in self.scope.refs \
            else None
        place = self.lookup(s.value.name) if isinstance(s.value, A.Name) else None
        if var is not None and isinstance(s.value, A.Num) and s.value.value == 0 and self.place_var(s.target):
            noun = self.noun(var.text, f"var '{var.name}'", var.pos)  # place 0 is none: "there is no next square"
            return self._line("stmt.no_place", s, bare=noun.np("bare"), indef=noun.np("indef"))
        if var is not None and var.internal and place is not None and place.zone is not None:  # "remember this row as …"
            return self._line("stmt.remember", s, target=self.expr(s.target), value=place.phrase(self.cat))
        if var is not None and var.type.name == "bool" and not var.per_player and isinstance(s.value, A.BoolLit):
            noun = self.noun(var.text, f"var '{var.name}'", var.pos)
            said = var.negated is not None or noun.gender == "default"  # a flag with a `not` text is a clause
            key = f"stmt.{'set' if s.value.value else 'clear'}_{'clause' if said else 'flag'}"
            if not s.value.value and var.negated is not None and self.lang in var.negated.by_lang:
                return self._line("stmt.set_clause", s, clause=var.negated.by_lang[self.lang])  # "from now on: no …"
            text = text_of(var.text, self.lang, f"var '{var.name}'", var.pos)
            if said and not s.value.value:  # "no battle is being decided": the clause negated
                return self._line("stmt.unset_clause", s, clause=self.clause(s, self.literal(text), {}))
            return self._line(key, s, name=noun.np("def"), clause=text if said else noun.word)
        if var is not None and var.type.name == "bool" and not var.per_player and var.negated is not None \
                and var.text is not None and self.lang in var.text.by_lang:  # "from now on, … exactly if …"
            return self._line("stmt.set_clause_if", s, clause=var.text.by_lang[self.lang], value=self.expr(s.value))
        clause = self.field_clause(s.target)
        if clause is not None and isinstance(s.value, A.BoolLit):  # "The card is hidden.", "… is not hidden."
            unset = None if s.value.value else self.field_clause(s.target, negated=True)
            return self._line("stmt.set_clause", s, clause=unset) if unset is not None else \
                self._line(f"stmt.{'set' if s.value.value else 'unset'}_clause", s, clause=clause)
        if clause is not None and isinstance(s.value, A.Not) and self.same_attr(s.value.operand, s.target):
            return self._line("stmt.toggle_clause", s, clause=clause)  # "… exactly if that was not so before"
        if clause is not None and isinstance(s.target, A.Attr):  # "The card is hidden if …, otherwise no longer."
            return self._line("stmt.set_clause_if", s, clause=clause, value=self.expr(s.value))
        changed = self.change(s)
        if changed is not None:
            return changed
        left_out = _left_out(s.value)
        if left_out is not None and isinstance(s.value, A.Comprehension) and same(s.value.source, s.target):
            return self._line("stmt.remove_from", s, target=self.expr(s.target), item=self.expr(left_out))
        key = "stmt.set_all" if _every(s.value) else "stmt.set"
        return self._line(key, s, target=self.expr(s.target), value=self.expr(s.value))

    def changed_def(self, s: A.SetStmt) -> Optional[Union[A.VarDef, A.FieldDef]]:
        """The var or field a `set` changes (not a local of the same name)."""
        t = s.target
        if isinstance(t, A.Name) and t.name in self.scope.refs:
            return None
        var = self.sym.var_set(s)
        return var if var is not None or not isinstance(t, A.Attr) else self.field_def(t)

    def told_change(self, s: A.SetStmt) -> Optional[list[Line]]:
        """A change its var or field has a `told` text for, said as that text: the value it is set to
        ("0", "true", an enum value), else "add"/"sub" for a change by itself, else "set"."""
        d = self.changed_def(s)
        if d is None or not d.told:
            return None
        v, values = s.value, dict[str, Arg]()
        literal = _literal(v)
        added = self.appended(s)
        if isinstance(v, A.BinOp) and v.op in ("+", "-") and same(v.left, s.target):
            kinds = [literal, "add" if v.op == "+" else "sub"]
            values["amount"] = self._operand(v.right, v.op, right=True)
        elif added is not None:  # items added to a list: "add"
            kinds, values["amount"] = [literal, "add"], added
        else:
            kinds = [literal, "set"]
            values["value"] = self.place_or_expr(v)  # a place in scope as that place ("the card place")
        told = next((t for k in kinds for t in d.told if t.kind == k and self.lang in t.text.by_lang), None)
        if told is None:
            return None
        if isinstance(s.target, A.Attr):
            values["it"] = self.expr(s.target.obj)
        text = told.text.by_lang[self.lang]
        if not text:
            return []  # this change is bookkeeping the book leaves out ("" for "the turn is not over")
        text = self.choices(text, {"amount": v.right} if "amount" in values and isinstance(v, A.BinOp)
                            else {"value": v}, told.pos)  # "{amount#chip|chips}"
        self.check_places(text, list(values), told.pos, f"the told {told.kind} of '{d.name}'")
        return self._line("stmt.set_clause", s, clause=Phrase(lambda f: fill(text, "nom", values)))

    def unsaid(self, s: A.SetStmt) -> bool:
        """Bookkeeping a rulebook leaves out: a var or field marked `unsaid`; `Symbols.reset`, where it is
        not what an `if` branch does; an `internal` var set to the reader, whom the rules call "you" anyway."""
        d = self.changed_def(s)
        if d is not None and d.unsaid:
            return True
        if self.branches or (isinstance(s.target, A.Name) and s.target.name in self.scope.refs):
            return False
        var = self.sym.var_set(s)
        return self.sym.reset(s) or var is not None and var.internal and self.is_you(s.value)

    def change(self, s: A.SetStmt) -> Optional[list[Line]]:
        """A value changed by itself, said as the change: "add 1 to the turns played", "subtract the
        number from the supply", "add the space to the spaces left", "clear the list"."""
        v, target = s.value, s.target
        if isinstance(v, A.BinOp) and v.op in ("+", "-") and same(v.left, target):
            return self._line("stmt.add_to" if v.op == "+" else "stmt.sub_from", s, target=self.expr(target),
                              amount=self._operand(v.right, v.op, right=True))
        items = self.appended(s)
        if items is not None:
            return self._line("stmt.append", s, target=self.expr(target), items=items)
        if isinstance(v, A.ListLit) and not v.items:
            return self._line("stmt.set_empty", s, target=self.expr(target))
        return None

    def appended(self, s: A.SetStmt) -> Optional[Phrase]:
        """The items `set x = concat(x, …)` adds to a list, or None for another change."""
        v = s.value
        if not (isinstance(v, A.Call) and v.func == "concat" and len(v.args) == 2 and same(v.args[0], s.target)):
            return None
        added = v.args[1]
        return self.join([self.expr(i) for i in added.items]) if isinstance(added, A.ListLit) and added.items \
            else self.expr(added)

    def _s_Move(self, s: A.Move) -> list[Line]:
        self.origin_role = "from"  # "move every card from your hand whose …"
        try:
            what = self.moved(s.what)
        finally:
            self.origin_role = "at"
        form, actor = self.doer()
        owner = s.to.args[0] if isinstance(s.to, A.Call) and s.to.func in self.sym.zones and s.to.args else None
        if not actor and owner is not None and self.possessor(owner):  # "the player moves … to their …", not "Move … to their …"
            form, actor = "actor", {"actor": self.expr(owner)}
        args: dict[str, Arg] = {"what": what, "to": self.destination(s.to), "into": self.prep(s.to, "to"), **actor}
        key = "stmt.move_bottom" if s.bottom else "stmt.move_shuffled" if self.shuffled_in(s) \
            else "stmt.move_in_turn" if self.picked_afresh(s) else "stmt.move"
        return [Line(self.text(key, s, self.move_form(key, form, s.what), args))]

    def move_form(self, key: str, form: str, what: A.Expr) -> str:
        """A move's form, or where it takes a filtered list and the language has one, its `FORM_filtered`: French
        names the place first (« Placez dans la rangée 1 chacun de ses pions qui … »), as the place said after
        the filter's relative clause would read as part of it (« … qui est dans le sac dans la rangée 1 »)."""
        pattern = self.cat.pattern(key)
        filtered = f"{form}_filtered"
        return filtered if isinstance(what, A.Comprehension) and what.cond is not None and isinstance(pattern, dict) \
            and filtered in pattern else form

    def shuffled_in(self, s: A.Move) -> bool:
        """Whether a move puts several cards into a shuffled pile: "shuffle them into the deck", as their
        order there is left to chance, which "put them on the deck" would not say."""
        zone = self.zone_def_of(s.to)
        several = isinstance(s.what, A.Comprehension) or isinstance(s.what, A.Call) and s.what.func == "cards"
        return zone is not None and zone.shuffled and several

    def picked_afresh(self, s: A.Move) -> bool:
        """Whether a move onto every place of a loop said at once takes a thing picked again for each place
        (`move top(Z) to row[i]`): then "in turn", lest it read as one thing onto every place."""
        place = self.every_place(s.to)
        return place is not None and not any(isinstance(n, A.Name) and n.name == place for n in A.walk([s.what]))

    def every_place(self, to: A.Expr) -> Optional[str]:
        """The loop variable of a destination `row[i]` said as every place of a loop at once, else None."""
        place = to.index if isinstance(to, A.Index) else None
        ref = self.lookup(place.name) if isinstance(place, A.Name) else None
        return place.name if isinstance(place, A.Name) and ref is not None and ref.every is not None else None

    def moved(self, e: A.Expr) -> Phrase:
        """What a move takes: a list of items written out is said of them all in the plural, where the
        catalogue says so ("alle Karten auf deiner Hand, deren …"), else as any expression."""
        plain = isinstance(e, A.Comprehension) and isinstance(e.expr, A.Name) and e.expr.name == e.var \
            and _left_out(e) is None
        if plain and isinstance(e, A.Comprehension) and self.cat.has("expr.comprehension_all") and self.said_of_all(e):
            return self.all_of(self._comp_args(e), e)
        if plain and isinstance(e, A.Comprehension) and e.cond is not None and e.key is None and other_than(e)[0] is None \
                and self._is_zone(e.source):  # "each of their used jokers that …", not "every joker in their used jokers"
            args = self._comp_args(e)
            item = self.nouns.element(e.source)
            if isinstance(args["source"], Phrase) and self.headed_by_plural(item.noun, args["source"]):
                each = Phrase(lambda f: item.phrase(self.cat).form(f"each_{f}").split(" ")[0])
                return self.msg("expr.each_of_named", e, **args, each=each)
        return self.expr(e)

    def doer(self) -> tuple[str, dict[str, Arg]]:
        """Who moves and draws: the reader (an imperative), or in a loop over the players that player, so a
        block about each player stays in the third person ("the player draws 3 cards into their hand")."""
        return ("actor", {"actor": self.actor}) if self.actor is not None else ("default", {})

    def _number(self, e: A.Expr) -> Optional[int]:
        """The value of a number written directly, through a constant or printed on the card whose effect is
        said (`self.amount`), for "3 cards" and "up to 3" but "1 card"."""
        if isinstance(e, A.Name) and e.name in self.sym.consts:
            return self._number(self.sym.consts[e.name].value)
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name == "self" and e.name in self.printed:
            return self.printed[e.name]
        return e.value if isinstance(e, A.Num) else None

    def _s_Draw(self, s: A.Draw) -> list[Line]:
        n = 1 if s.count is None else self._number(s.count)
        src = s.source.obj if isinstance(s.source, A.Index) else s.source
        item = self.nouns.kind_of_zone(src.name).noun if isinstance(src, A.Name) and src.name in self.sym.zones \
            else self.nouns.word("card")  # what is drawn by its name: "draw 6 tiles"
        args: dict[str, Arg] = {"source": self.expr(s.source), "to": self.destination(s.to),
                                "outof": self.prep(s.source, "from"), "into": self.prep(s.to, "to"), "except": "",
                                "at": self.prep(s.to, "at"),
                                "thing": item.np("bare"), "one": item.np("indef"), "things": Phrase(item.plural())}
        form, actor = self.doer()
        verb = self.draw_verb(s.to)
        if isinstance(s.count, A.Name) and s.count.name == "player_count":  # "one card per player"
            return [Line(self.text(f"stmt.{verb}_per_player", s, form, {**args, **actor}))]
        c = s.count
        table = self.sym.consts[c.obj.name].value if isinstance(c, A.Index) and isinstance(c.obj, A.Name) \
            and c.obj.name in self.sym.consts and isinstance(c.index, A.Name) and c.index.name == "player_count" else None
        found = self.by_players(table) if isinstance(table, A.MapLit) else None
        if found is not None:  # "draw 6 cards (5 with 5 players)"
            n, others = 0, self.join([self.msg("expr.players_value", c, key=self.expr(k), value=self.expr(v))
                                      for k, v in found[1]])
            args.update(count=self.expr(found[0]), **{"except": Phrase(lambda f: f" ({others.form(f)})") if found[1] else ""})
        if n != 1 and s.count is not None and "count" not in args:
            args["count"] = self.expr(s.count)
        form, actor = self.doer()
        source = self.sym.zones.get(src.name) if isinstance(src, A.Name) else None
        taken = verb == "lay" and source is not None and source.visibility == "public" and not source.shuffled
        # a card drawn afresh for each place: not "one card onto every place"; one from an open, unshuffled place is
        # not drawn blind: "take a token from row 1 and put it in the bag"
        one = f"stmt.{verb}_one_each" if self.every_place(s.to) is not None else "stmt.take_one" if taken \
            else f"stmt.{verb}_one"
        return [Line(self.text(one if n == 1 else f"stmt.{verb}" if n is not None else f"stmt.{verb}_expr",
                               s, form, {**args, **actor}))]

    def draw_verb(self, to: A.Expr) -> str:
        """"draw", or "lay" for cards drawn to a place that is no player's own: a language whose verb for
        drawing means "into the hand" (German „ziehen“) says those with another one („Lege … auf …“)."""
        zone = self.zone_def_of(to)
        return "lay" if zone is None or zone.shape != "per_player" else "draw"

    def _s_Reveal(self, s: A.Reveal) -> list[Line]:
        if s.to is None:
            what = self.expr(s.what)  # "turn the card face up", but "turn face up the tile of the square"
            heavy = len(what.form("default").split()) > _LIGHT_OBJECT
            return self._line("stmt.reveal", s, "heavy" if heavy else "default", what=what)
        to = s.to.items[0] if isinstance(s.to, A.ListLit) and len(s.to.items) == 1 else s.to
        seats = self.join([self.expr(i) for i in to.items]) if isinstance(to, A.ListLit) and to.items \
            else self.expr(to)  # "to p and q", not "to the list p and q"
        return self._line("stmt.reveal_to", s, self._subject(to), what=self.expr(s.what), to=seats)

    def _party(self, party: Optional[A.Expr], at: A.Node, bank: Optional[A.Text] = None) -> Phrase:
        """A payer or payee; the bank by the currency's own name for it where it has one ("the supply")."""
        if party is not None:
            return self.expr(party)
        if bank is not None and bank.by_lang.get(self.lang):
            return self.noun(bank, "bank", at.pos).np("def")
        return self.msg("name.bank", at)

    def _s_Pay(self, s: A.Pay) -> list[Line]:
        return self.pays([s])

    def pays(self, group: Sequence[A.Pay]) -> list[Line]:
        """A payment; one from the bank is taken by its payee ("the owner takes 1 coin from the bank"),
        the same one to several payees in one sentence ("the owners of A and B each take …")."""
        s = group[0]
        cur = self.sym.currencies.get(s.currency)
        if cur is None:
            raise MissingRendering(s.pos, f"no currency '{s.currency}' to name")
        currency = self.noun(cur.text, f"currency '{cur.name}'", cur.pos).np("bare")
        available: Arg = self.msg("stmt.available", s) if s.at_most_available else ""
        a = s.amount
        const = self.sym.consts.get(a.obj.name) if isinstance(a, A.Index) and isinstance(a.obj, A.Name) else None
        if isinstance(a, A.Index) and const is not None and isinstance(const.value, A.MapLit) \
                and len(const.value.items) <= 4 and self.key_field(a.index):  # "nothing at level 1, 1 gold at level 2"
            items = self.paid_items(const.value, self.key_field(a.index), currency, s)
            return self._line("stmt.pay_table", s, self._subject(s.payer), payer=self._party(s.payer, s, cur.bank),
                              payee=self._party(s.payee, s, cur.bank), available=available, items=items,
                              name=self.noun(const.text, f"const '{const.name}'", const.pos).np("def"),
                              index=self.expr(a.index))
        key = "stmt.pay" if self._number(s.amount) is not None else "stmt.pay_expr"
        amount = self.expr(s.amount)
        if key == "stmt.pay_expr" and len(group) == 1 and _names_currency(amount, currency):
            key = "stmt.pay_named"  # "you take the chips on the dark fields", not "… in chips"
        payee = self._party(s.payee, s, cur.bank)
        form = self._subject(s.payer)
        extra: dict[str, Arg] = {}
        if s.payer is None and s.payee is not None:  # "the owner takes 3 gold from the treasury"
            bank = cur.bank if cur.bank is not None and cur.bank.by_lang.get(self.lang) else A.Text(
                pos=s.pos, by_lang={self.lang: pick(self.cat.pattern("name.bank"), "nom")})
            key, form = key.replace("pay", "take_pay"), self._subject(s.payee)
            extra["outof"] = place_preposition(bank, None, "from", self.cat)
            available = self.msg("stmt.available_left", s) if s.at_most_available else ""  # the bank's, not theirs
        if cur.bank is not None and not cur.bank.by_lang.get(self.lang, "-") and len(group) == 1 \
                and None in (s.payer, s.payee):  # a bank named "": the next steps say where it goes ("You hand in 3 chips.")
            key += "_unsaid"
        if len(group) > 1:
            owned = [p.payee.args[0] for p in group if isinstance(p.payee, A.Call) and p.payee.func == "owner"
                     and len(p.payee.args) == 1]
            pair = self.idioms.pair(owned[0], owned[1]) if len(owned) == 2 else None
            payee = self.msg("idiom.owners_pair", s, things=pair[2]) if pair is not None and len(group) == 2 \
                and self.cat.has("idiom.owners_pair") else \
                self.msg("idiom.owners", s, things=self.join([self.expr(o) for o in owned])) \
                if len(owned) == len(group) else self.join([self.expr(p.payee) for p in group if p.payee is not None])
            key, form = key + "_each", "default"
        extra.update(payer=self._party(s.payer, s, cur.bank), payee=payee, amount=amount,
                     currency=currency, available=available)
        return [Line(self.text(key, s, form, extra))]

    def _s_If(self, s: A.If, key: str = "stmt.if") -> list[Line]:
        self.branches += 1
        owned = self.one_owner
        try:
            both = self.owned_pair(s.cond)
            self.one_owner = owned | set(both)
            then = self.lines(s.then)
            self.one_owner = owned
            nxt = s.other[0] if len(s.other) == 1 and isinstance(s.other[0], A.If) else None
            other = self.lines(s.other) if s.other and nxt is None else []
            unless = s.cond.operand if isinstance(s.cond, A.Not) else A.Not(pos=s.cond.pos, operand=s.cond)
            if not then and nxt is not None:  # a branch of bookkeeping only: "if not A and B" for the next one
                return self._s_If(nxt.model_copy(update={"cond": A.BinOp(pos=nxt.pos, op="and", left=unless,
                                                                           right=nxt.cond)}), key)
            if not then:  # the other branch, or nothing, is told
                return self._line(key, s, "sub", children=other, cond=self.expr(unless)) if other else []
            counts = self.player_counts(s.cond)
            out = self._line(f"{key}_players", s, children=then, counts=counts) if counts is not None \
                else self._line(key, s, "sub", children=then, cond=self.expr(s.cond))
            if nxt is not None:
                return out + self._s_If(nxt, "stmt.else_if")
            stop = s.other[0] if len(s.other) == 1 and isinstance(s.other[0], A.Break) else None
            if other and stop is not None and self.loops and self.loops[-1] is None \
                    and (stop.text is None or self.lang not in stop.text.by_lang):  # (a told break says what ends)
                out += self._line("stmt.else_stop", s)  # "Otherwise, stop.", one step, not a branch of its own
            elif other:
                out += self._line("stmt.else", s, children=other)
            return out
        finally:
            self.branches -= 1
            self.one_owner = owned

    def owned_pair(self, cond: A.Expr) -> tuple[str, ...]:
        """The two locals of a pair a test says one player owns (`owner(a) == owner(b)`), or none."""
        if not (isinstance(cond, A.BinOp) and cond.op == "==" and all(
                isinstance(x, A.Call) and x.func == "owner" and len(x.args) == 1 for x in (cond.left, cond.right))):
            return ()
        assert isinstance(cond.left, A.Call) and isinstance(cond.right, A.Call)
        a, b = cond.left.args[0], cond.right.args[0]
        return (a.name, b.name) if isinstance(a, A.Name) and isinstance(b, A.Name) and self.idioms.pair(a, b) else ()

    def player_counts(self, cond: A.Expr) -> Optional[Phrase]:
        """A test of the number of players said by the counts it holds for: "with 2 or 3 players"."""
        if not (isinstance(cond, A.BinOp) and cond.op in _NEGATED and isinstance(cond.left, A.Name)
                and cond.left.name == "player_count" and isinstance(cond.right, A.Num)):
            return None
        holds: Callable[[Any, Any], Any] = _COMPARE[cond.op]
        counts = [n for n in self.sym.player_counts if holds(n, cond.right.value)]
        if not counts or counts == [1] or len(counts) == len(self.sym.player_counts):
            return None
        if len(counts) > 2 and counts[-1] - counts[0] == len(counts) - 1:  # "3 to 5"
            return self.msg("expr.count_range", cond, low=Phrase(str(counts[0])), high=Phrase(str(counts[-1])))
        return self.join([Phrase(str(n)) for n in counts], "choice_last")

    def _s_For(self, s: A.For) -> list[Line]:
        src = s.source
        if isinstance(src, A.Comprehension) and src.key is None and src.var != s.var and s.var not in names_used([src]):
            # `for x in [y for y in L if …]` is the loop `for x in [x for x in L if …]`: said as one loop, not as
            # "every token in every token in the bag whose …" (a sorted list is said by its order: "in turn, by …")
            src = substituted(src.model_copy(update={"var": s.var}), {src.var: A.Name(pos=src.pos, name=s.var)})
            s = s.model_copy(update={"source": src})
        filtered = isinstance(src, A.Comprehension) and isinstance(src.expr, A.Name) and src.expr.name == src.var == s.var
        grammar = self.cat.data.get("grammar", {})
        taken = _taken(s) and filtered and isinstance(grammar, dict) and grammar.get("taken_from_last") is True
        self.origin_role = "from" if taken else "at"
        try:
            head = self._comp_args(src, loop=True) if isinstance(src, A.Comprehension) and filtered else {}
        finally:
            self.origin_role = "at"
        if taken:  # the cards a player takes: "every card of the chosen colour from the box", not "in the box of …"
            head = {**head, "from": "", "filter": _joined(_said(head["filter"]), _said(head["from"]))}
        source = self.expr(src)
        origin = self.origin(src, source)
        self.scope.push()
        outer = self.actor
        try:
            ref = self._bind(s.var, src, s.text)
            place = uses_as_place(s.var, list(s.body), self.sym.zones)
            if place is not None and s.text is None and ref.noun.word in {self.nouns.word(w).word for w in ("number", "value")}:
                ref = self.scope.bind(s.var, self.nouns.zone_ref(place))  # "for every slot in …"
            if isinstance(src, A.Name) and src.name == "players":
                self.actor = self.var(s.var)
            test = _sifted(s)
            person = self.nouns.element(src).noun.word == self.nouns.word("player").word
            rel = self.relative(test.cond, ref.phrase(self.cat), s.var, ref.noun.det("relgen"), person) if test else None
            sorted_by: Optional[Phrase] = None  # what picks the items out, said after "every x"
            sifted_only: Optional[Phrase] = None  # … where the list is no more than those items: "every token that …"
            if test is not None and rel is not None:  # `for x in L { if C(x) { … } }`: "for every x in L that …"
                s = s.model_copy(update={"body": test.then})
                plain = Noun(f"{self.cat.pattern('grammar.plural_article')} {ref.noun.plural()}", self.cat).np("def")
                sifted_only = rel if source.form("nom") == plain.form("nom") else None  # (L: "the tokens")
                sorted_by = sifted_only if sifted_only is not None else _joined(origin, rel)
                source, origin = _joined(source, rel), _joined(origin, rel)
            paid = self.owners_pay(s, src, head, origin)
            if paid is not None:
                return paid
            every = self.each_place(s, ref, source)
            folded = every is not None or _foldable(s, self.sym.zones, self.sym.functions)
            about = not folded and _about_item(s) and self.said_of_each(src, ref)
            if folded or about:
                # "move every token in the bag to the box", one sentence
                owned = any(isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.name == s.var
                            for n in A.walk(list(s.body)))  # "every token … of its power": one by one, not "all tokens"
                ref.every = every or (None if owned else self.all_items(s, src, head, origin)
                                      or (self.all_places(s, src) if not origin.form("nom") else None)) \
                    or self.every_item(src, head, origin, source, ref, owned, sifted_only)
                ref.said_every = 0
                sifted = rel is not None and ref.every.agree == "pl"  # (a relative clause said of one item only)
                body = self.lines(s.body)
                ref.every = None
                if len(body) == 1 and not body[0].children and (ref.said_every == 1 or not about) and not sifted:
                    return body  # (a step that leaves its item unsaid stays a loop: "for each path: lay it out")
            walked = self.walk_path(s, source)
            if walked is not None:
                return walked
            self.loops.append(ref.noun)
            try:
                body = self.lines(s.body)
            finally:
                self.loops.pop()
            return self._for(s, src, head, source, body, origin, sorted_by)
        finally:
            self.actor = outer
            self.scope.pop()

    def walk_path(self, s: A.For, source: Phrase) -> Optional[list[Line]]:
        """A loop along a `shortest_path` that moves a piece onto each of its places: "Move the figure step
        by step along …; on entering each space:" and the rest of the loop (what comes first is bookkeeping)."""
        if not (isinstance(s.source, A.Call) and s.source.func == "shortest_path") or self.actor is not None:
            return None
        at = next((k for k, st in enumerate(s.body) if isinstance(st, A.Move) and not st.bottom
                   and isinstance(st.to, A.Index) and isinstance(st.to.index, A.Name) and st.to.index.name == s.var), None)
        move = s.body[at] if at is not None else None
        if not isinstance(move, A.Move) or at is None or self.lines(s.body[:at]) \
                or any(isinstance(n, A.Name) and n.name == s.var for n in A.walk([move.what])):
            return None
        self.loops.append(None)
        ref = self.lookup(s.var)
        if ref is not None:
            ref.this = True  # after each step, the place reached: "look around from this space"
        try:
            rest = self.lines(s.body[at + 1:])
        finally:
            self.loops.pop()
        route = s.source
        moved = self.lookup(move.what.name) if isinstance(move.what, A.Name) else None
        if isinstance(route, A.Call) and moved is not None and moved.taken_from is not None \
                and same(moved.taken_from, route.args[1]):
            source = self.msg("prim.shortest_path_on", route, **{str(i): self.expr(a) for i, a in enumerate(route.args)
                                                                  if i != 1})  # from where it stands, unsaid
        return self._line("stmt.walk_path" if rest else "stmt.walk_path_one", s, children=rest,
                          what=self.moved(move.what), source=source)

    def owners_pay(self, s: A.For, src: A.Expr, head: dict[str, Arg], origin: Phrase) -> Optional[list[Line]]:
        """`for c in Z { pay c.F from owner(c) to … }` → "the owner of every card in Z pays its F …"."""
        pay = s.body[0] if len(s.body) == 1 else None
        if not (isinstance(pay, A.Pay) and isinstance(pay.payer, A.Call) and pay.payer.func == "owner"
                and len(pay.payer.args) == 1 and isinstance(pay.payer.args[0], A.Name) and pay.payer.args[0].name == s.var
                and isinstance(pay.amount, A.Attr) and isinstance(pay.amount.obj, A.Name)
                and pay.amount.obj.name == s.var and pay.amount.name in self.sym.fields
                and pay.currency in self.sym.currencies
                and not any(isinstance(n, A.Name) and n.name == s.var for n in A.walk(pay.payee))):
            return None
        field, cur = self.sym.fields[pay.amount.name], self.sym.currencies[pay.currency]
        fnoun = self.noun(field.text, f"field '{field.name}'", field.pos)
        ref = self.lookup(s.var)
        available: Arg = self.msg("stmt.available", pay) if pay.at_most_available else ""
        return self._line("stmt.owners_pay", pay, each=self.every_item(src, head, origin), field=fnoun.np("bare"),
                          relgen=ref.noun.det("relgen") if ref is not None else Phrase(""),
                          currency=self.noun(cur.text, f"currency '{cur.name}'", cur.pos).np("bare"),
                          payee=self._party(pay.payee, pay, cur.bank), available=available)

    def each_place(self, s: A.For, ref: Ref, source: Phrase) -> Optional[Phrase]:
        """A loop whose one move or draw names its item only as the place it goes to, said as one sentence:
        "to every slot of the end slots", "to every slot" (where the list is all there is of those places)."""
        st = s.body[0] if len(s.body) == 1 else None
        if not (isinstance(st, (A.Move, A.Draw)) and isinstance(st.to, A.Index) and isinstance(st.to.obj, A.Name)
                and st.to.obj.name == ref.zone and not ref.label and isinstance(st.to.index, A.Name)
                and st.to.index.name == s.var) or isinstance(s.source, A.Call) and s.source.func == "positions" \
                or isinstance(st, A.Move) and st.bottom or isinstance(st, A.Draw) and st.count is not None \
                and not isinstance(st.count, A.Num):
            return None
        if any(isinstance(n, A.Name) and n.name == s.var and n is not st.to.index for n in A.walk([st])):
            return None
        zone = self.sym.zones[st.to.obj.name]
        noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
        places = Noun(f"{self.cat.pattern('grammar.plural_article')} {noun.plural()}", self.cat).np("def")
        if source.form("nom") == places.form("nom"):  # the list is all there is of them: "every slot"
            return noun.np("each")
        return self.msg("expr.zone_of_place", st.to, zone=noun.np("each"), place=source)

    def all_items(self, s: A.For, src: A.Expr, head: dict[str, Arg], origin: Phrase) -> Optional[Phrase]:
        """A loop that only moves (or takes) its items, said of them all at once in the plural where the
        catalogue says so ("alle Karten in der Schachtel"); None where the loop does more with its item."""
        if not self.cat.has("expr.comprehension_all") or not s.body \
                or isinstance(src, A.Call) and src.func == "positions":
            return None
        if not _moves_only(s):
            return None
        if head:
            return self.all_of({**head, "order": ""}, src) if isinstance(src, A.Comprehension) and self.said_of_all(src) \
                else None
        item = self.nouns.element(src)
        return self.all_of({"var": Phrase(lambda f: item.phrase(self.cat).form(f)), "from": origin, "filter": "",
                            "order": ""}, src)

    def all_places(self, s: A.For, src: A.Expr) -> Optional[Phrase]:
        """A loop over a family's places that only moves what a function names at each ("the keeper at
        row {i}"), said of them all where the catalogue says moves in the plural: „an allen Reihen“."""
        if ":all_" not in str(self.cat.pattern("expr.comprehension_all")) or not (
                isinstance(src, A.Call) and src.func == "positions" and len(src.args) == 1
                and isinstance(src.args[0], A.Name) and src.args[0].name in self.sym.zones):
            return None
        for st in s.body:
            fn = self.sym.functions.get(st.what.func) if isinstance(st, A.Move) and isinstance(st.what, A.Call) else None
            noun = self.nouns.text(fn.text) if fn is not None else None
            if noun is None or noun.gender == "default" or isinstance(st, A.Move) and st.bottom:
                return None
        zone = self.sym.zones[src.args[0].name]
        places = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
        plural = Noun(f"{self.cat.pattern('grammar.plural_article')} {places.plural()}", self.cat)
        return Phrase(lambda f: plural.np("each").form(f), "pl")

    def said_of_all(self, c: A.Comprehension) -> bool:
        """Whether a list's condition reads the same of all its items: none, or one on a field of the item
        ("deren Kraft mindestens 3 ist") or on its owner; not a clause or an order that names the item again."""
        cond = c.cond
        if c.key is not None:  # an order names the item again: "nach der Kraft des Steins"
            return False
        if cond is None:
            return True
        if other_than(c)[0] is not None or not (isinstance(cond, A.BinOp) and cond.op in _NEGATED):
            return False
        if any(isinstance(n, A.Name) and n.name == c.var for n in A.walk([cond.right])):
            return False
        owned = isinstance(cond.left, A.Call) and cond.left.func == "owner" and cond.op == "==" \
            and len(cond.left.args) == 1 and isinstance(cond.left.args[0], A.Name) and cond.left.args[0].name == c.var
        return owned or self.whose(c.var, cond.left) is not None

    def headed_by_plural(self, noun: Noun, said: Phrase) -> bool:
        """Whether a zone is said with its cards' plural as its head noun ("Ben's jokers", „die
        abgelegten Joker“, « ses cartes prises »; not „die Schachtel der Joker“): English by its last
        word, French by the words after its determiner, a German one by its first capitalised word."""
        grammar = self.cat.data.get("grammar", {})
        text, plural = said.form("nom"), noun.plural()
        head = grammar.get("plural_head") if isinstance(grammar, dict) else None
        if head == "last":
            return text == plural or text.endswith(" " + plural)
        if head == "first":
            rest = text.partition(" ")[2]
            return rest == plural or rest.startswith(plural + " ")
        heads = [w for w in text.split(" ") if w[:1].isupper()]
        return bool(heads) and heads[0] == next((w for w in plural.split(" ") if w[:1].isupper()), None)

    def without_article(self, said: Phrase) -> Optional[Phrase]:
        """A plural phrase without its definite article ("tokens that can be moved"), in every case; None
        where it has none."""
        article = Noun(f"{self.cat.pattern('grammar.plural_article')} Dinge", self.cat).np("def")
        heads = {case: article.form(case).split(" ")[0] + " " for case in ("nom", "acc", "dat")}
        if not all(said.form(c).startswith(h) for c, h in heads.items()):
            return None
        return Phrase(lambda f: said.form(f)[len(heads.get(f.rpartition("_")[2], heads["nom"])):], "pl")

    def all_of(self, args: Mapping[str, Arg], at: A.Node) -> Phrase:
        """All the items of a list as one plural noun phrase: "alle Karten in deinem Vorrat, deren …"; of a zone
        named by its cards' plural, "all the used jokers whose …", „alle abgelegten Joker, deren …“."""
        source = args.get("source")
        if isinstance(at, A.Comprehension) and isinstance(source, Phrase) and other_than(at)[0] is None \
                and self._is_zone(at.source) and self.headed_by_plural(self.nouns.element(at.source).noun, source) \
                and self.cat.has("expr.all_named"):
            rest = self.without_article(source) or source
            return Phrase(self.msg("expr.all_named", at, source=source, rest=rest, filter=args["filter"]).form, "pl")
        said = self.msg("expr.comprehension_all", at, **args)
        plural = ":all_" in str(self.cat.pattern("expr.comprehension_all"))  # a language that keeps "every card" agrees so
        return Phrase(lambda f: said.form(f), "pl" if plural else said.agree)

    def said_of_each(self, src: A.Expr, ref: Ref) -> bool:
        """Whether a loop's items can be named all at once in its one step: not the players in an order
        the head says ("starting with …", "by score"), nor one item a filter picks out, nor "a value"."""
        players = isinstance(src, A.Name) and src.name == "players" or round_from(src) is not None \
            or isinstance(src, A.Comprehension) and (src.key is not None or isinstance(src.cond, A.BinOp)
                                                      and src.cond.op == "==")  # (one item picked out: "the X")
        head = self.nouns.element(src) if isinstance(src, A.Comprehension) else ref  # a filter names it by that noun
        return not players and ref.noun.word not in self.generic_nouns() and head.noun.word not in self.generic_nouns()

    def generic_nouns(self) -> set[str]:
        """The words for an item of no known kind: a loop over such items names them by its list."""
        return {self.nouns.word(w).word for w in ("number", "value", "list", "choice")}

    def every_item(self, src: A.Expr, head: dict[str, Arg], origin: Phrase, source: Optional[Phrase] = None,
                   ref: Optional[Ref] = None, owned: bool = False, sifted: Optional[Phrase] = None) -> Phrase:
        """Each item of a loop's source as one noun phrase: "every row", "every token in the bag", "each of
        the tokens on it" (where the list is said by the items' own noun). An `owned` item, whose own field
        the step names ("its power"), or a filtered one ("every player who …") is said one by one
        (`comprehension_each`; French: « chaque jeton … de sa couleur », not « les jetons … »). Items a relative
        clause `sifted` from a list of nothing else are said by their noun, so that the clause is about one:
        "every token that …", not "each of the tokens that …"."""
        each = owned or bool(head)
        key = "expr.comprehension_each" if each else "expr.comprehension_self"
        if isinstance(src, A.Call) and src.func == "positions" and len(src.args) == 1 \
                and isinstance(src.args[0], A.Name) and src.args[0].name in self.sym.zones:
            zone = self.sym.zones[src.args[0].name]
            return _joined(self.noun(zone.text, f"zone '{zone.name}'", zone.pos).np("each"), origin)  # (a filter)
        if head:
            return self.msg(key, src, **{**head, "order": ""})
        item = self.nouns.element(src)
        if ref is not None and (item.noun.word in self.generic_nouns() or source is not None and _names_items(
                ref.noun, source) and not _names_items(item.noun, source)):  # the loop's own noun says more: "each row"
            item = Ref(ref.noun, zone=ref.zone, kind=ref.kind, enum=ref.enum)
        named = source is not None and origin.form("nom") and not item.label and _names_items(item.noun, source)
        if named and sifted is not None:
            origin = sifted  # the list is only the items the clause sifts: "every token that …"
        elif named and source is not None and self.cat.has("expr.each_of"):
            one = Phrase(lambda f: item.phrase(self.cat).form(f"each_{f}").split(" ")[0])
            of = "expr.each_of_one" if each else "expr.each_of"
            return self.msg(of, src, each=one, source=source)  # "each of the tokens on it", « chacun des amis … »
        args: dict[str, Arg] = {"var": Phrase(lambda f: item.phrase(self.cat).form(f)), "from": origin, "filter": "",
                                "order": ""}
        return self.msg(key, src, **args)

    def _for(self, s: A.For, src: A.Expr, head: dict[str, Arg], source: Phrase, body: list[Line],
             origin: Phrase, sorted_by: Optional[Phrase] = None) -> list[Line]:
        if head:
            return [Line(self.text("stmt.for_filtered", s, "default", head), body)]
        ordered = _decides(s.body)
        moves = [m for m in s.body if isinstance(m, A.Move) and not m.bottom]
        if isinstance(src, A.Name) and src.name == "players" and moves and len(moves) == len(s.body):
            parts: list[Arg] = [Phrase(self.msg("stmt.move_part", m, what=self.moved(m.what), to=self.destination(m.to),
                                                into=self.prep(m.to, "to")).form(self.move_form("stmt.move_part", "default", m.what)))
                                for m in moves]
            return self._line("stmt.move_each_player", s, moves=self.join(parts))  # "each player moves X to Y"
        start = round_from(src)
        if start is not None:  # `concat([x], others(x))`: "starting with x, each player in turn clockwise"
            return self._line("stmt.for_players_from", s, children=body, start=self.expr(start))
        if isinstance(src, A.Call) and src.func == "others" and len(src.args) == 1:  # not "every player in the others"
            return self._line("stmt.for_others_from", s, children=body, start=self.expr(src.args[0]))
        if isinstance(src, A.Comprehension) and isinstance(src.source, A.Name) and src.source.name == "players" \
                and src.cond is None and src.key is not None and isinstance(src.expr, A.Name) and src.expr.name == src.var:
            keys = self._comp_args(src)["keys"]  # the players sorted: "each player in turn, by score, highest first"
            return self._line("stmt.for_players_by", s, children=body, keys=keys)
        if isinstance(src, A.Name) and src.name == "players":  # in seat order only where someone decides
            return self._line("stmt.for_players" if ordered else "stmt.for_players_all", s, children=body,
                              var=self.var(s.var))
        if isinstance(src, A.Call) and src.func == "positions" and len(src.args) == 1 \
                and isinstance(src.args[0], A.Name) and src.args[0].name in self.sym.zones:
            zone = self.sym.zones[src.args[0].name]
            noun = self.noun(zone.text, f"zone '{zone.name}'", zone.pos)
            key = "stmt.for_positions" if ordered or _stops(s.body) else "stmt.for_positions_all"
            return self._line(key, s, children=body, var=self.var(s.var), zone=_joined(noun.np("each"), origin),
                              zones=Phrase(noun.plural()), first=Phrase(noun.word), the_first=noun.np("def"))
        args: dict[str, Arg] = {"var": self.var(s.var), "source": source, "from": origin}
        ref = self.lookup(s.var)
        if sorted_by is not None and ref is not None and not ref.label:
            # a relative clause said of one item: "for every token that …", « Pour chaque jeton qui … » (not
            # « chacun des jetons qui a … »)
            return [Line(self.text("stmt.for", s, "default", {**args, "from": sorted_by}), body)]
        several = source.agree == "pl" and origin.form("nom") and ref is not None and not ref.label
        if several and ref is not None and _names_items(ref.noun, source):  # „für jeden der Räume“
            args["each"] = Phrase(lambda f: ref.phrase(self.cat).form(f"each_{f}").split(" ")[0])
            return [Line(self.text("stmt.for_each_of_noun", s, "default", args), body)]
        each = self.counted_by(source) if several else None
        if each is not None:  # „für jedes der Felder des Sturmangriffs“: its items by a noun of the rules
            return [Line(self.text("stmt.for_each_of_noun", s, "default", {**args, "each": each}), body)]
        return [Line(self.text("stmt.for_each_of" if several else "stmt.for", s, "default", args), body)]

    def counted_by(self, source: Phrase) -> Optional[Phrase]:
        """The quantifier of a noun of the rules whose plural a list is said with ("die Felder des Sturmangriffs":
        „jedes“ of „das Feld“), to count its items one by one: „Für jedes der Felder des Sturmangriffs:“."""
        if source.agree != "pl" or not self.cat.has("stmt.for_each_of_noun"):
            return None
        noun = self.head_noun(source)
        return Phrase(lambda f: noun.np("each").form(f).split(" ")[0]) if noun is not None else None

    def head_noun(self, source: Phrase) -> Optional[Noun]:
        """The noun of the rules whose plural a list is said with („die Felder des Sturmangriffs“: „das Feld“); or
        where the list is a plural text whose article names its singular's (« les:m sauts »), that
        noun in the singular, its head word right after the article (« les pas, qui ne sont pas … » ends there)."""
        words = [w.rstrip(",") for w in source.form("nom").split(" ")]  # „die Felder, um die …“
        found = next((self.vocabulary()[w] for w in words if w in self.vocabulary()), None)
        if found is None and len(words) > 1:
            return self.plural_texts().get(words[1])
        return found

    def plural_texts(self) -> dict[str, Noun]:
        """The plural-only texts of the rules whose article names the singular's (French « les:m », « les:f »),
        by their first word, as a singular noun: « le pas »."""
        said = [Noun(t.by_lang[self.lang], self.cat) for t in self.sym.texts if self.lang in t.by_lang]
        return {n.word.split(" ")[0]: Noun(f"{n.dets['singular']} {n.word.split(' ')[0]}", self.cat)
                for n in said if "singular" in n.dets}

    def vocabulary(self) -> dict[str, Noun]:
        """The nouns of the rules (and a graph's node) by their plural, where it differs from the singular."""
        if self._vocabulary is None:
            said = [Noun(t.by_lang[self.lang], self.cat) for t in self.sym.texts if self.lang in t.by_lang]
            self._vocabulary = {n.plural(): n for n in said if n.gender != "default" and " " not in n.word
                                and "{" not in n.word and n.plural() != n.word}
            node = self.nouns.word("node")  # the items of a graph's nodes: „die Knoten nach …“
            self._vocabulary.setdefault(node.plural(), node)
        return self._vocabulary

    def _loop_body(self, body: Sequence[A.Stmt]) -> list[Line]:
        self.loops.append(None)
        try:
            return self.lines(body)
        finally:
            self.loops.pop()

    def _s_While(self, s: A.While) -> list[Line]:
        pick = s.body[0] if len(s.body) == 1 else None
        stop = self.stopper(s.cond, pick) if isinstance(pick, A.ChooseAction) else None
        if isinstance(pick, A.ChooseAction) and stop is not None and isinstance(s.cond, A.BinOp):
            rest = [n for n in pick.actions if n != stop]  # "as long as …, you may play again and again, and stop …"
            return self._line("stmt.while_choose_stop", s, self._subject(pick.seat), cond=self.expr(s.cond.right),
                              seat=self.expr(pick.seat), actions=self.action_list(rest, pick),
                              stop=self.action_list([stop], pick))
        if isinstance(pick, A.ChooseAction) and len(pick.actions) > 1:  # "as long as …, you keep carrying out one of …"
            return self._line("stmt.while_choose", s, self._subject(pick.seat), cond=self.expr(s.cond),
                              seat=self.expr(pick.seat), actions=self.action_list(pick.actions, pick))
        return self._line("stmt.while", s, children=self._loop_body(s.body), cond=self.expr(s.cond))

    def stopper(self, cond: A.Expr, pick: A.ChooseAction) -> Optional[str]:
        """The action of a loop of choices whose only step clears the flag the loop's condition starts with
        (`while going and C { choose action for p: go, stop }`): the loop's condition need not quote it."""
        if not (isinstance(cond, A.BinOp) and cond.op == "and" and isinstance(cond.left, A.Name)) or len(pick.actions) < 2:
            return None
        flag = cond.left.name
        for name in pick.actions:
            action = self.sym.actions.get(name)
            step = action.body[0] if action is not None and len(action.body) == 1 and not action.params else None
            if isinstance(step, A.SetStmt) and isinstance(step.target, A.Name) and step.target.name == flag \
                    and isinstance(step.value, A.BoolLit) and not step.value.value:
                return name
        return None

    def _s_Repeat(self, s: A.Repeat) -> list[Line]:
        counted = s.count.args[0] if isinstance(s.count, A.Call) and s.count.func == "count" and len(s.count.args) == 1 \
            and not isinstance(s.count.args[0], A.Comprehension) else None
        said = self.expr(counted) if counted is not None else None
        ref = self.lookup(s.count.name) if isinstance(s.count, A.Name) else None
        if not (said is not None and said.agree == "pl") and ref is not None and ref.value is None \
                and ref.noun.agree == "pl" and not _stops(s.body):
            said = self.expr(s.count)  # a number named in the plural: "once for each of the spaces to skip"
        if said is not None and said.agree == "pl":  # `repeat count(L)`: "once for each of L"
            each = self.counted_by(said)
            return self._line("stmt.repeat_each_noun" if each is not None else "stmt.repeat_each", s,
                              children=self._loop_body(s.body), source=said, each=each or "")
        count = ref.value if ref is not None and ref.value is not None else s.count
        if isinstance(count, A.CondExpr) and self._number(count.then) is not None \
                and self._number(count.other) is not None and not _stops(s.body):  # "2 times, but only 1 time if …"
            return self._line("stmt.repeat_cond", s, children=self._loop_body(s.body), then=self.expr(count.then),
                              other=self.expr(count.other), cond=self.expr(count.cond))
        key = "stmt.repeat" if self._number(s.count) is not None else "stmt.repeat_expr"
        if _stops(s.body):  # a body that may end the repeating early: "up to 3 times"
            key = key.replace("repeat", "repeat_up_to")
        return self._line(key, s, children=self._loop_body(s.body), count=self.expr(s.count))

    def _s_Break(self, s: A.Break) -> list[Line]:
        if s.text is not None and self.lang in s.text.by_lang:  # what ends, in the rules' words: "The movement ends."
            return self._line("stmt.break_told", s, text=s.text.by_lang[self.lang])
        if self.loops and self.loops[-1] is None:  # a `while` or `repeat`: no items remain, the repeating ends
            return self._line("stmt.break_repeat", s)
        items = self.loops[-1] if self.loops else None
        generic = {self.nouns.word(w).word for w in ("number", "value", "list", "choice")}
        if items is not None and items.word not in generic:  # "the remaining rows are skipped"
            return self._line("stmt.break_items", s, items=Phrase(items.plural()))
        return self._line("stmt.break", s)

    def action_list(self, names: Sequence[str], at: A.Node) -> Phrase:
        return self.join([self.quoted(self.action_title(n, at.pos)) for n in names], "choice_last")

    def _s_ChooseAction(self, s: A.ChooseAction) -> list[Line]:
        if len(s.actions) == 1:  # no choice: the one action as a step ("Choose a start chamber (see …)")
            title = self.action_title(s.actions[0], s.pos)
            return self._line("stmt.choose_action_one", s, self._subject(s.seat), seat=self.expr(s.seat),
                              title=title, action=title[:1].lower() + title[1:])
        return self._line("stmt.choose_action", s, self._subject(s.seat), seat=self.expr(s.seat),
                          actions=self.action_list(s.actions, s))

    def _s_CallRule(self, s: A.CallRule) -> list[Line]:
        if s.rule in self.sym.silent or s.rule in self.sym.rules and self.sym.rules[s.rule].internal:
            return []  # bookkeeping: an `internal rule` is told in its own entry, not at each call
        told = self._told_call(s)
        if told is not None:
            return told
        title = self.rule_title(s.rule, s.pos)
        action = title[:1].lower() + title[1:]  # an imperative title said as the step it is: "lay out the …"
        rule = self.sym.rules.get(s.rule)
        params = rule.params if rule is not None else []
        args = [a for a in s.args if not self.is_you(a)]  # the reader's own part: "tidy up", not "tidy up for you"
        for param, arg in zip(params, s.args):
            if arg in args and param.type.list_of is None and param.type.name in self.sym.kinds:
                said = self.in_title(action, self.nouns.of_type(param.type).noun, self.place_or_expr(arg))
                if said is not None:  # "Flip a token" for the chosen token: "flip the chosen token"
                    action = said
                    args.remove(arg)
        if args:
            return self._line("stmt.call_args", s, rule=title, action=action,
                              args=self.join([self.place_or_expr(a) for a in args]))
        return self._line("stmt.call", s, rule=title, action=action)

    def in_title(self, title: str, noun: Noun, arg: Phrase) -> Optional[str]:
        """A title with the argument in place of the noun of its parameter's kind ("a token", "Stein");
        None where the title does not name it."""
        for said in (noun.np("indef").form("acc"), noun.word):
            found = re.search(rf"(?<!\w){re.escape(said)}(?!\w)", title, re.IGNORECASE)
            if found is not None:
                return title[:found.start()] + arg.form("acc") + title[found.end():]
        return None

    def _told_call(self, s: A.CallRule) -> Optional[list[Line]]:
        """A call of a rule with a `told` text, said as that order with the arguments in their places ("Move
        up to 6 spaces"); only where every parameter it leaves out is the reader, who is addressed. Where
        the rule's acting player (`told … by p …`) is another player, its `by` text says the step. An argument
        that calls a function with a `told` text says the step by that text, with the function's arguments, where
        the call's other arguments are the reader or among them."""
        rule: Optional[A.RuleDef | A.FunctionDef] = self.sym.rules.get(s.rule)
        for a in s.args:
            fn = self.sym.functions.get(a.func) if isinstance(a, A.Call) else None
            if isinstance(a, A.Call) and fn is not None and fn.told is not None and self.lang in fn.told.by_lang \
                    and all(o is a or self.is_you(o) or any(same(o, x) for x in a.args) for o in s.args):
                rule, s = fn, s.model_copy(update={"args": a.args})  # "raise your points by 2, to at most 9"
                break
        if rule is None or rule.told is None or self.lang not in rule.told.by_lang:
            return None
        names = [p.name for p in rule.params]
        args = dict(zip(names, s.args))
        by = rule.told_by
        if by is not None and by.param not in names:
            raise MissingRendering(by.pos, f"'{rule.name}' has no parameter '{by.param}' to be told by")
        actor = self.whose_place(rule, by.param, args[by.param]) if by is not None else None
        acted = by is not None and actor is not None and self.lang in by.text.by_lang and not self.is_you(actor)
        told = by.text if acted and by is not None else rule.told
        raw = told.by_lang[self.lang]
        text = self.choices(raw, args, told.pos)
        self.check_places(text, names, told.pos, f"'{rule.name}'")
        placed = {m.group(1) for m in PLACEHOLDER.finditer(text)}
        chosen = {m.group(1) for r in (CHOICE, COUNTED) for m in r.finditer(raw)}
        if any(n not in placed | chosen and not self.is_you(a) and not (acted and by is not None and n == by.param)
               for n, a in args.items()):
            return None
        values: dict[str, Arg] = {n: self.listed(a) for n, a in args.items() if n in placed}
        if acted and by is not None and actor is not None and actor is not args[by.param]:
            values[by.param] = self.listed(actor)  # a player's own place passed: the text says that player
        if acted and by is not None and by.param in placed and self.self_kind and _is_owner_of_self(args[by.param]):
            values[by.param] = self.expr(A.Name(pos=s.pos, name="self"))  # a card acts for its owner: "this token beats …"
        singly = self.cat.pattern("grammar.said_singly") if self.cat.has("grammar.said_singly") else None
        if isinstance(singly, str):  # the subject, a possessor: a list's items one by one, where the rules text's verb is
            text = re.sub(singly, lambda m: f"{m.group(0)[:-1]}:singly}}", text)  # singular (« chacune des créatures … brûle »)
        step = Phrase(lambda f: fill(text, "nom", values))
        return self._line("stmt.call_told", s, step=step, rule=self.rule_title(s.rule, s.pos))

    def whose_place(self, rule: A.RuleDef | A.FunctionDef, param: str, arg: A.Expr) -> Optional[A.Expr]:
        """The player a `told … by` parameter stands for: the argument itself for a player parameter, for
        another (a place) the player of a one-player function that names that player's own place (`here(q)`)."""
        declared = next((p for p in rule.params if p.name == param), None)
        if declared is None or declared.type.name == "player":
            return arg
        fn = self.sym.functions.get(arg.func) if isinstance(arg, A.Call) else None
        if isinstance(arg, A.Call) and fn is not None and len(fn.params) == 1 and fn.params[0].type.name == "player":
            return arg.args[0]
        return None

    def listed(self, a: A.Expr) -> Arg:
        """An argument in a told text's place; a list written out is said by its items, as the text already
        says what they are; values of an enum are the ones allowed ("medium or large"), other items all taken."""
        if isinstance(a, A.ListLit) and a.items and not any(isinstance(i, (A.ListLit, A.MapLit)) for i in a.items):
            allowed = all(isinstance(i, A.Name) and i.name in self.sym.enum_values for i in a.items)
            return self.join([self.expr(i) for i in a.items], "choice_last" if allowed else "list_last")
        return self.place_or_expr(a)

    def choices(self, text: str, args: Mapping[str, A.Expr], pos: A.Pos) -> str:
        """A told text's `{p?yes|no}` places, each said by the words for its truth value: a literal picks
        its words ("back"), a condition says both ("forward if …, else back"), a decided value names both
        ("forward or back": the step before says who decides); `{n#square|squares}` is the noun for the
        number `n`, singular for a literal 1; a third alternative is said after a value that is no number
        written out (`{n#coin|coins|in coins}`: "pay 1 coin", "pay the cost in coins"), nothing after a value
        said with that noun ("pay the coins owed")."""
        after: list[str] = []  # German: a condition follows the whole text („… vorwärts geschoben, falls …, sonst zurück“)

        def said(m: re.Match[str]) -> str:
            name, yes, no = m.group(1), m.group(2), m.group(3)
            if name not in args:
                raise MissingRendering(pos, f"the {self.lang} told text has a place {{{name}?…}}, but no such parameter")
            arg = args[name]
            if isinstance(arg, A.BoolLit):
                return yes if arg.value else no
            if isinstance(arg, A.Name) and arg.name in self.scope.refs:  # a local or parameter: decided before
                return self.msg("expr.either", arg, yes=self.shared_end(yes, no), no=no).form("nom")
            if self.cat.has("grammar.cond_after"):
                after.append(self.msg("grammar.cond_after", arg, other=no, cond=self.expr(arg)).form("nom"))
                return yes
            return self.msg("expr.cond", arg, then=yes, other=no, cond=self.expr(arg)).form("nom")
        def counted(m: re.Match[str]) -> str:
            arg = args.get(m.group(1))
            if arg is None:
                raise MissingRendering(pos, f"the {self.lang} told text has a place {{{m.group(1)}#…}}, but no such parameter")
            number = self._number(arg)  # written out, or a const's number
            if m.group(4) is not None and number is None:
                noun = m.group(3).split(" ")[-1]  # a value said by the noun itself: "pay the chips to pay", no "in chips"
                return "" if noun in self.expr(arg).form("nom").split(" ") else m.group(4)
            return m.group(2) if number == 1 else m.group(3)
        text = CHOICE.sub(said, text) + "".join(after)
        return re.sub(r"(?<=\S) {2,}(?=\S)", " ", COUNTED.sub(counted, text))

    def shared_end(self, yes: str, no: str) -> str:
        """The first of two words that end alike, shortened where the language writes the shared end once
        („vorwärts- oder zurückgeschoben“)."""
        grammar = self.cat.data.get("grammar", {})
        shortest = grammar.get("shared_end") if isinstance(grammar, dict) else None
        if not isinstance(shortest, int) or " " in yes or " " in no:
            return yes
        n = len(os.path.commonprefix([yes[::-1], no[::-1]]))
        return yes[:-n] + "-" if n >= shortest and n < min(len(yes), len(no)) else yes

    def place_or_expr(self, e: A.Expr) -> Phrase:
        """A rule's argument: a place in scope is passed as that place ("for the slot")."""
        found = self.lookup(e.name) if isinstance(e, A.Name) else None
        return found.phrase(self.cat) if found is not None and found.zone is not None else self.expr(e)

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
        return self.modify([s])

    def modify(self, group: Sequence[A.Modify]) -> list[Line]:
        """Modifiers of one kind, place and duration in one sentence ("+2 power and +3 value"); the
        cards of places said by rank where the condition is only their place ("the last two tokens")."""
        s = group[0]
        kind = self.sym.kinds.get(s.kind)
        if kind is None:
            raise MissingRendering(s.pos, f"no kind '{s.kind}' to name")
        knoun = self.noun(kind.title, f"kind '{kind.name}'", kind.pos)
        changes: list[Arg] = []
        field = knoun
        outer, self.it_kind = self.it_kind, s.kind
        try:
            one, rest = self.only_it(s.where)  # "where it == x": the one card x, not "every card for which …"
            ranked = self.idioms.ranked(s.kind, knoun, s.where) if s.where and one is None else None
            cards = self.expr(one) if one is not None else ranked if ranked is not None else knoun.np("each")
            until = self.msg(f"until.{s.until}", s)
            where: Arg = self.filter("it", Ref(knoun), s.where, "stmt.modify_where", knoun.det("rel")) \
                if s.where and ranked is None and one is None else ""
            end = self.latch(rest) if rest is not None else None
            if end is not None:  # a latch said as its end: "until the next round ends or this turn ends, …"
                fn = self.sym.functions[end.func]
                said = self.function_phrase(fn.model_copy(update={"text": fn.negated}), [], end)  # no noted value
                until = self.msg("stmt.modify_until_end", rest, end=said, most=self.msg(f"until_end.{s.until}", s))
            elif rest is not None:  # how long, said whole before the card: "this turn, but only as long as …, the …"
                until = self.msg("stmt.modify_until_while", rest, until=until, cond=self.expr(rest))
            for m in group:
                fdef = next((f for f in kind.fields if f.name == m.field), None)
                if fdef is None:
                    raise MissingRendering(m.pos, f"kind '{kind.name}' has no field '{m.field}'")
                fnoun = self.noun(fdef.text, f"field '{fdef.name}'", fdef.pos)
                value = self.signed(m.value) if m.mode == "by" else self.expr(m.value)
                signed = isinstance(m.value, A.Num) or (isinstance(m.value, A.Neg) and isinstance(m.value.operand, A.Num))
                how = "" if signed or (m.mode == "by" and self._number(m.value) is not None) else "_expr"
                change = self.msg(f"stmt.modify_{m.mode}_change{how}", m, value=value, field=fnoun.np("bare"),
                                  the_field=fnoun.np("def"), kind=cards)
                changes.append(self.feminine(change) if fnoun.feminine() else change)  # « a la force changée de … »
                field = fnoun
            told = self.change_told(s.value) if len(group) == 1 and s.mode == "by" and how else None
            if told is not None:  # a function's own words for the change: "… is raised or lowered by that amount"
                return self._line("stmt.modify_by_told", s, until=until, kind=cards, where=where, change=told,
                                  the_field=field.np("def"))
            if len(group) == 1 and s.mode == "by" and how:  # a computed change: "the strength of … changes by …"
                return self._line("stmt.modify_by_expr", s, "fem" if field.feminine() else "default", until=until,
                                  kind=cards, where=where, value=value, the_field=field.np("def"))  # « … est modifiée »
        finally:
            self.it_kind = outer
        flag = s.mode == "to" and isinstance(s.value, A.BoolLit) and len(group) == 1  # "is invisible"
        fdef = next((f for f in kind.fields if f.name == s.field), None)
        text = (fdef.text if isinstance(s.value, A.BoolLit) and s.value.value else fdef.negated) if fdef else None
        if flag and text is not None and IT_PLACE in text.by_lang.get(self.lang, ""):  # "this turn, every figure … is invisible"
            things = Phrase(lambda f: cards.form(f) + (where.form(f) if isinstance(where, Phrase) else where), cards.agree)
            grammar = self.cat.data.get("grammar", {})
            words = grammar.get("clause", {}) if isinstance(grammar, dict) else {}
            inverted = clauses.verb_first(text.by_lang[self.lang], words) if isinstance(words, dict) else None
            return self._line("stmt.modify_clause" if inverted is None else "stmt.modify_clause_inverted", s,
                              until=until,  # „In diesem Zug ist jeder rote Stein …“
                              clause=Phrase(lambda f: fill(inverted or text.by_lang[self.lang], "nom", {"it": things})))
        key = f"stmt.modify_{'set' if s.value.value else 'clear'}" if flag and isinstance(s.value, A.BoolLit) \
            else f"stmt.modify_{s.mode}"
        return self._line(key, s, until=until, kind=cards, where=where,
                          change=self.join(changes), field=field.np("bare"), the_field=field.np("def"))

    def change_told(self, value: A.Expr) -> Optional[Phrase]:
        """A modifier's amount that calls a function with a `told` text, said by that text with the call's arguments
        in its places: the words for how the field changes ("raised or lowered by {n}"), not "changes by …"."""
        fn = self.sym.functions.get(value.func) if isinstance(value, A.Call) else None
        if not isinstance(value, A.Call) or fn is None or fn.told is None or self.lang not in fn.told.by_lang:
            return None
        names = [p.name for p in fn.params]
        args = dict(zip(names, value.args))
        text = self.choices(fn.told.by_lang[self.lang], args, fn.told.pos)
        self.check_places(text, names, fn.told.pos, f"'{fn.name}'")
        values: dict[str, Arg] = {m.group(1): self.expr(args[m.group(1)]) for m in PLACEHOLDER.finditer(text)}
        return Phrase(lambda f: fill(text, "nom", values))

    @staticmethod
    def feminine(said: Phrase) -> Phrase:
        """A text about a feminine noun in its form "fem" where it has one (« modifiée »), for any default form."""
        return Phrase(lambda f: said.form("fem" if f in DEFAULT_FORMS else f), said.agree)

    def latch(self, cond: A.Expr) -> Optional[A.Call]:
        """`f(n)` whose body is `counter == n`, n a local that noted that counter, and f has a `not` text: true
        until the counter next grows, then false for good, so said by that text as an end ("until …")."""
        found = self.latch_of(cond, self.sym)
        ref = self.lookup(found[1]) if found is not None else None
        return cond if isinstance(cond, A.Call) and ref is not None and found is not None and ref.noted == found[0] \
            else None

    @staticmethod
    def latch_of(cond: A.Expr, sym: Symbols) -> Optional[tuple[str, str]]:
        """The counter and the local of a call `f(n)` whose body is `counter == n` (either way round), where f
        has a `not` text without places to say its end by ("the next round has ended": it needs no noted value)."""
        fn = sym.functions.get(cond.func) if isinstance(cond, A.Call) else None
        body = fn.body if fn is not None else None
        if not isinstance(cond, A.Call) or fn is None or fn.negated is None \
                or any("{" in t for t in fn.negated.by_lang.values()) or not isinstance(body, A.BinOp) or body.op != "==" \
                or not isinstance(body.left, A.Name) or not isinstance(body.right, A.Name):
            return None
        params = [p.name for p in fn.params]
        for counter, param in ((body.left.name, body.right.name), (body.right.name, body.left.name)):
            if counter in sym.counters and param in params:
                arg = cond.args[params.index(param)]
                return (counter, arg.name) if isinstance(arg, A.Name) else None
        return None

    @staticmethod
    def only_it(where: A.Expr | None) -> tuple[A.Expr | None, A.Expr | None]:
        """The x of a modifier's `where it == x` (x not reading `it`), said as that one card, and the
        condition after its `and` that reads no `it` either, said as how long ("as long as …")."""
        def free(e: A.Expr) -> bool:
            return not any(isinstance(n, A.Name) and n.name == "it" for n in A.walk(e))
        rest = None
        if isinstance(where, A.BinOp) and where.op == "and" and free(where.right):
            rest = where.right
            where = where.left
        if isinstance(where, A.BinOp) and where.op == "==" and isinstance(where.left, A.Name) and where.left.name == "it" \
                and free(where.right):
            return where.right, rest
        return None, None

    def _s_Forbid(self, s: A.Forbid) -> list[Line]:
        self.scope.push()
        try:  # the condition reads the forbidden action's parameters: "the token"
            action = self.sym.actions.get(s.actions[0]) if s.actions else None
            refs = {p.name: self._bind(p.name, p.domain, p.text) for p in (action.params if action is not None else [])}
            used = {n.name for n in A.walk(s.where) if isinstance(n, A.Name) and n.name in refs} if s.where else set()
            if s.where is not None and len(used) == 1:  # "… with a token whose power is 1"
                name = used.pop()
                item = self.scope.refs[name] = Ref(refs[name].noun, kind=refs[name].kind, enum=refs[name].enum)
                w = s.where
                field = self.whose(name, w.left) if isinstance(w, A.BinOp) and w.op == "==" and isinstance(w.right, A.Num) \
                    else None  # "a token with power 1", as a card is called by its printed value
                with_item = self.msg("stmt.forbid_with", s, item=item.phrase(self.cat),
                                     filter=self.msg("stmt.forbid_valued", w, field=field.np("bare"), value=self.expr(w.right))
                                     if field is not None and isinstance(w, A.BinOp) else self.filter(name, item, w, "expr.filter"))
                return self._line("stmt.forbid_item", s, until=self.msg(f"until.{s.until}", s),
                                  actions=self.action_list(s.actions, s), item=with_item)
            where: Arg = self.msg("stmt.forbid_where", s, cond=self.expr(s.where)) if s.where else ""
        finally:
            self.scope.pop()
        return self._line("stmt.forbid", s, until=self.msg(f"until.{s.until}", s),
                          actions=self.action_list(s.actions, s), where=where)

    def _turn_body(self, var: str, body: Sequence[A.Stmt]) -> list[Line]:
        """A turn is told to its player: the player whose turn it is is "you"."""
        self.scope.push()
        outer, self.actor = self.actor, None
        try:
            self.scope.bind(var, Ref(self.nouns.word("player"), you=True))
            return self.lines(body)
        finally:
            self.actor = outer
            self.scope.pop()

    def _s_Turns(self, s: A.Turns) -> list[Line]:
        body = self._turn_body(s.var, s.body)
        if s.skip is not None:
            self.scope.push()
            try:  # told to the reader like the turn: "you are skipped when …"
                self.scope.bind(s.var, Ref(self.nouns.word("player"), you=True))
                body = self._line("stmt.turns_skip", s, skip=self.expr(s.skip)) + body
            finally:
                self.scope.pop()
        self.scope.push()
        try:  # "until your points exceed 9": the player whose turn it is
            self.scope.bind(s.var, Ref(self.nouns.word("player"), you=True))
            until = self.expr(s.until)
        finally:
            self.scope.pop()
        return self._line("stmt.turns", s, children=body, start=self.expr(s.start), until=until)

    def _s_TurnsIn(self, s: A.TurnsIn) -> list[Line]:
        order = self.expr(s.order)
        return self._line("stmt.turns_in", s, children=self._turn_body(s.var, s.body), order=order)

    def _s_Log(self, s: A.Log) -> list[Line]:
        text = self.literal(text_of(s.text, self.lang, "log", s.pos))
        return self._line("stmt.log", s, text=PLACEHOLDER.sub(lambda m: self._logged(s, m.group(1)), text))

    def _logged(self, s: A.Log, name: str) -> str:
        """A log text's placeholder; the reader is said by their name, as the text's verb is third person."""
        said = self.expr(A.Name(pos=s.pos, name=name))
        return pick(self.cat.pattern("name.me_in_log"), "nom") if said.agree == "you" else said.form("nom")

    def _s_Require(self, s: A.Require) -> list[Line]:
        """A requirement as a full sentence ("the row must hold fewer than 3 tokens"); one with its own
        words is said by them alone, not twice."""
        note = text_of(s.text, self.lang, "require", s.pos) if s.text else None
        if note is not None and self.says(note, s.cond):
            return [Line(self.literal(note))]
        key = "stmt.require_must" if self.cat.has("stmt.require_must") and _musty(s.cond) else "stmt.require"
        return self._line(key, s, note=note, cond=self.expr(s.cond))

    def says(self, text: str, cond: A.Expr) -> bool:
        """Whether an author's text says a condition itself: it names each number and each field the
        condition compares ("a power-5 token …" for `power < 5`)."""
        nodes = list(A.walk(cond))
        numbers = [str(n.value) for n in nodes if isinstance(n, A.Num)]
        fields = [self.sym.fields[n.name].text for n in nodes if isinstance(n, A.Attr) and n.name in self.sym.fields]
        words = [Noun(f.by_lang[self.lang], self.cat).word.lower() for f in fields if f and self.lang in f.by_lang]
        if not numbers or len(words) != len(fields) or any(isinstance(n, A.Call) for n in nodes):
            return False
        return all(re.search(rf"(?<!\d){n}(?!\d)", text) for n in numbers) and all(w in text.lower() for w in words)

    def _s_NamedStep(self, s: A.NamedStep) -> list[Line]:
        return self.lines(s.body)  # the name is for modders, not for the prose

    def _s_Give(self, s: A.Give) -> list[Line]:
        return self._line("stmt.give", s, self._subject(s.to), what=self.expr(s.what), to=self.expr(s.to))

    def _s_EndGame(self, s: A.EndGame) -> list[Line]:
        return self._line("stmt.end", s)

    def _s_Emit(self, s: A.Emit) -> list[Line]:
        """An event said by the special rules that react to it: by their headings where there are few and
        each has one ("Then the special rule “Fairy: gift” applies"), else by the event; none: nothing."""
        event = self.declared_event(s.event, s.pos)
        reactions = [t for t in self.sym.triggers.get(s.event, []) if not all(isinstance(b, A.Log) for b in t.body)]
        if not reactions:
            return []
        section = pick(self.cat.pattern("ui.special_rules"), "nom")
        titles = [t.text.by_lang[self.lang] for t in reactions if t.text is not None and self.lang in t.text.by_lang]
        if len(titles) == len(reactions) <= _FEW_REACTIONS:
            key = "stmt.emit_one" if len(titles) == 1 else "stmt.emit_few"
            return self._line(key, s, names=self.join([self.quoted(t) for t in titles]), section=section)
        return self._line("stmt.emit", s, section=section, event=self.event_clause(
            event, {p.name: self.expr(a) for p, a in zip(event.params, s.args)}))

    def declared_event(self, name: str, pos: A.Pos) -> A.EventDef:
        """An event the rules emit; a rulebook says it by its declared text, so it must have one."""
        if name not in self.sym.events:
            raise MissingRendering(pos, f"event '{name}' has no display text",
                                   f'declare it, as in event {name}(p: player) de "{{p}} …" en "{{p}} …"')
        return self.sym.events[name]

    def event_clause(self, event: A.EventDef, values: Mapping[str, Arg]) -> Phrase:
        """An event's declared clause with its values in their places ("a player makes a bid")."""
        text = self.literal(text_of(event.text, self.lang, f"event '{event.name}'", event.pos))
        self.check_places(text, [p.name for p in event.params], event.text.pos, f"event '{event.name}'")
        return Phrase(lambda f: fill(text, "nom", values))

    # ------------------------------------------------------------ definitions
    def event(self, t: A.TriggerDef) -> Phrase:
        """What a trigger waits for: an engine event in the catalogue's words, else the event's declared
        clause with the trigger's values introduced ("whenever a player makes a bid"); a value the event
        declares with a noun is said by it in the trigger."""
        self.scope = Scope(self.prelabels)
        engine = self.cat.has(f"event.{t.event}")
        declared = None if engine else self.declared_event(t.event, t.pos)
        builtin = [A.TypeRef(pos=t.pos, name=n) for n in ENGINE_EVENTS.get(t.event, ())] if engine \
            else [p.type for p in declared.params] if declared is not None else []
        texts = [p.text for p in declared.params] if declared is not None else []
        for i, (name, t_) in enumerate(zip(t.params, t.types or [None] * len(t.params))):
            where = [t.where] if t.where is not None else []  # "where square_type(at) == …": a place too
            ref = self.param_ref(name, t_ or (builtin[i] if i < len(builtin) else None), [*where, *t.body])
            self.scope.bind(name, self.named(ref, texts[i] if i < len(texts) else None)).introduced = True
        named = {n: title for n, title in (self._named_card(c) for c in _conjuncts(t.where)) if n in t.params}
        for name, title in named.items():  # "where c.number == 10" with one card numbered 10: "the joker"
            self.scope.bind(name, Ref(self.card_noun(title, self.ref(name).noun, t.pos), kind=self.ref(name).kind))
        said = {n: self.var(n) if n in named else self.intro(n) for n in t.params}
        if declared is not None:
            return self.event_clause(declared, {p.name: said[n] for p, n in zip(declared.params, t.params)})
        return self.msg(f"event.{t.event}", t, **{str(i): self.var(p) for i, p in enumerate(t.params)})

    def card_noun(self, title: Optional[A.Text], kind: Noun, pos: A.Pos) -> Noun:
        """A card named by its title where a text about its kind says it. Where the catalogue says so
        (`grammar.bare_title_after_kind`), a title without an article (no gender a text could agree with) or
        with one of another gender than its kind's follows its kind's noun, which the event's text agrees with:
        « le pion Première pierre est retourné », not « Première pierre est retourné » or « la Première pierre est
        retourné »; one of the kind's gender is said alone: « le Caillou de lune est retourné »."""
        noun = self.noun(title, "card title", pos)
        if not self.cat.has("grammar.bare_title_after_kind") \
                or noun.gender != "default" and noun.feminine() == kind.feminine():
            return noun
        return Noun(f"{kind.gender} {kind.word} {noun.word}" if kind.gender != "default" else noun.word, self.cat)

    def trigger_where(self, t: A.TriggerDef) -> Optional[A.Expr]:
        """What a trigger's condition asks beyond the one card it names (said in its event already)."""
        rest = [c for c in _conjuncts(t.where) if self._named_card(c)[0] not in t.params]
        out: Optional[A.Expr] = None
        for c in rest:
            out = c if out is None else A.BinOp(pos=c.pos, op="and", left=out, right=c)
        return out

    def _named_card(self, e: A.Expr) -> tuple[str, Optional[A.Text]]:
        """`c.number == 10` where one card alone has number 10: the local it names and that card's title."""
        if not (isinstance(e, A.BinOp) and e.op == "==" and isinstance(e.left, A.Attr)
                and isinstance(e.left.obj, A.Name) and isinstance(e.right, A.Num)):
            return "", None
        ref = self.lookup(e.left.obj.name)
        title = self.sym.numbered_card(ref.kind, e.left.name, e.right.value) if ref is not None and ref.kind else None
        return (e.left.obj.name, title) if title is not None else ("", None)
