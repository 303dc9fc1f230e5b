"""The closed registry of built-in functions: each declares its parameters, checks its argument
types at load, describes itself (de/en) for the language reference, and writes its Python code."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

from interpreter.compile.types import BOOL, CARD, INT, PLAYER, T, element_type, list_of

Result = Union[T, str]  # a type, or an error message about the arguments
Build = Callable[[Sequence[str], Sequence[T]], str]


@dataclass(frozen=True)
class Primitive:
    name: str
    params: str  # human-readable parameter list for the reference
    describe_de: str
    describe_en: str
    example: str
    check: Callable[[Sequence[T]], Result]
    build: Build


REGISTRY: dict[str, Primitive] = {}


def primitive(name: str, params: str, de: str, en: str, example: str,
              check: Callable[[Sequence[T]], Result]) -> Callable[[Build], Build]:
    """Registers a primitive; `build` turns the arguments' code and types into the call's code."""
    def wrap(build: Build) -> Build:
        REGISTRY[name] = Primitive(name, params, de, en, example, check, build)
        return build
    return wrap


# seq_code's read of a known family's cards, as generated (parentheses) or unparsed (none), and with the state's
# cache hoisted into a local (`_s_fam_cards`): group 1 is the family's id
FAMILY_CARDS = re.compile(r"\(?(?:st\.|_s_)fam_cards\.get\((\d+)\) or _famcards\(st, \1\)\)?")


def seq_code(code: str, t: T) -> str:
    """Code for the items of a list, zone or zone family (no copy: for pure reads)."""
    if t.name == "zone":
        return f"st.zones[{code}]"
    if t.name == "family":  # a known family's cards read from the state's cache inline, the helper only to fill it
        return f"(st.fam_cards.get({code}) or _famcards(st, {code}))" if code.isdigit() else f"_famcards(st, {code})"
    return code


# ------------------------------------------------------------------ argument checks


def _arity(n: int, types: Sequence[T]) -> Optional[str]:
    return None if len(types) == n else f"takes {n} argument{'s' if n != 1 else ''}, got {len(types)}"


def _collection(types: Sequence[T], result: Callable[[T], Result]) -> Result:
    if len(types) != 1:
        return f"takes 1 argument, got {len(types)}"
    elem = element_type(types[0])
    if elem is None:
        return f"needs a list, zone or zone family, got {types[0]}"
    return result(elem)


def _one_of(kind: str, result: Union[T, Callable[[T], T]], what: str = "") -> Callable[[Sequence[T]], Result]:
    """A check for one argument of a kind of type; the result may depend on the argument's type."""
    def check(types: Sequence[T]) -> Result:
        err = _arity(1, types)
        if err:
            return err
        if types[0].name not in (kind, "any"):
            return f"needs a {what or kind}, got {types[0]}"
        return result(types[0]) if callable(result) else result
    return check


def _numbers(types: Sequence[T]) -> Result:
    if len(types) == 1:
        elem = element_type(types[0])
        if elem is None or elem.name not in ("int", "any"):
            return f"needs a list of numbers or several numbers, got {types[0]}"
        return INT
    if not types:
        return "needs at least one argument"
    for t in types:
        if t.name not in ("int", "any"):
            return f"needs numbers, got {t}"
    return INT


def _ordered(types: Sequence[T]) -> Result:
    """min/max: numbers, or lists of numbers compared item by item (a score with tie-breaks)."""
    def lexical(t: T) -> bool:
        return t.name == "list" and t.elem is not None and t.elem.name in ("int", "any")
    if len(types) == 1:
        elem = element_type(types[0])
        if elem is not None and lexical(elem):
            return elem
    elif types and all(lexical(t) for t in types):
        return types[0]
    return _numbers(types)


def _bools(types: Sequence[T]) -> Result:
    return _collection(types, lambda e: BOOL if e.name in ("bool", "any") else f"needs conditions, got a list of {e}")


# ------------------------------------------------------------------ the primitives


@primitive("count", "(collection)", "Anzahl der Elemente einer Liste oder Karten einer Zone",
           "number of items in a list or cards in a zone", "count(hand(me))",
           lambda ts: _collection(ts, lambda e: INT))
def _count(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"len({seq_code(args[0], ts[0])})"


@primitive("sum", "(numbers)", "Summe einer Liste von Zahlen", "sum of a list of numbers",
           "sum(c.value for c in slot[i])", _numbers)
def _sum(args: Sequence[str], ts: Sequence[T]) -> str:
    if len(args) == 1:
        return f"sum({seq_code(args[0], ts[0])})"
    return "(" + " + ".join(args) + ")"


def _extreme(fn: str) -> Build:
    def build(args: Sequence[str], ts: Sequence[T]) -> str:
        if len(args) == 1:
            return f"_extreme({fn}, {seq_code(args[0], ts[0])}, '{fn}')"
        return f"{fn}({', '.join(args)})"
    return build


primitive("min", "(numbers) or (a, b, …)", "kleinster Wert; Listen von Zahlen vergleicht es Stelle für Stelle",
          "smallest value; lists of numbers compare item by item",
          "min(count(slot[i]) for i in positions(slot))", _ordered)(_extreme("min"))
primitive("max", "(numbers) or (a, b, …)", "größter Wert; Listen von Zahlen vergleicht es Stelle für Stelle",
          "largest value; lists of numbers compare item by item", "max(0, c.value - 2)",
          _ordered)(_extreme("max"))


@primitive("any", "(conditions)", "ob mindestens eine Bedingung zutrifft", "whether at least one condition holds",
           "any(c.value == 5 for c in hand(me))", _bools)
def _any(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"any({seq_code(args[0], ts[0])})"


@primitive("all", "(conditions)", "ob alle Bedingungen zutreffen", "whether every condition holds",
           "all(count(slot[i]) == 2 for i in positions(slot))", _bools)
def _all(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"all({seq_code(args[0], ts[0])})"


def _end_item(index: int, what: str) -> Build:
    def build(args: Sequence[str], ts: Sequence[T]) -> str:
        code = seq_code(args[0], ts[0])
        if index == 0 and _sorted_whole(code):  # the first of a sorted list is its least: no sort (helpers.least_by)
            code = "_least_by" + code[len("_sorted_by"):]
        return f"_pick({code}, {index}, '{what}')"
    return build


def _sorted_whole(code: str) -> bool:
    """Whether `code` is one call of _sorted_by as a whole (a `[… by …]` comprehension), not a part of a longer
    expression that begins with one."""
    if not code.startswith("_sorted_by("):
        return False
    tree = ast.parse(code, mode="eval").body
    return isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "_sorted_by"


primitive("first", "(collection)", "das erste Element (die unterste Karte einer Zone)",
          "the first item (the bottom card of a zone)", "first(slot[i])",
          lambda ts: _collection(ts, lambda e: e))(_end_item(0, "first"))
primitive("last", "(collection)", "das letzte Element (die oberste Karte einer Zone)",
          "the last item (the top card of a zone)", "last(slot[i])",
          lambda ts: _collection(ts, lambda e: e))(_end_item(-1, "last"))


primitive("top", "(zone)", "die oberste Karte einer Zone", "the top card of a zone", "top(deck)",
          _one_of("zone", lambda t: T("card", t.arg)))(_end_item(-1, "top"))


@primitive("cards", "(zone or zone family)", "alle Karten einer Zone oder aller Zonen einer Familie",
           "all cards of a zone, or of every zone of a family", "cards(slot)",
           lambda ts: _arity(1, ts) or (list_of(element_type(ts[0]) or INT) if ts[0].name in ("zone", "family")
                                         else f"needs a zone or zone family, got {ts[0]}"))
def _cards(args: Sequence[str], ts: Sequence[T]) -> str:
    if ts[0].name == "zone":
        return f"list(st.zones[{args[0]}])"
    return seq_code(args[0], ts[0])


@primitive("positions", "(zone family)", "die Nummern 1 … n der Zonen einer Familie",
           "the numbers 1 … n of the zones of a family", "positions(slot)",
           _one_of("family", list_of(INT), "zone family"))
def _positions(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"list(st.game.fam_numbers[{args[0]}])"


@primitive("position", "(card)", "die Nummer der Zone, in der die Karte liegt (0 außerhalb einer Familie)",
           "the number of the zone the card lies in (0 outside a family)", "position(c)",
           _one_of("card", INT))
def _position(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"st.game.zone_number[st.where[{args[0]}]]"


def _card_and_family(ts: Sequence[T]) -> Result:
    err = _arity(2, ts)
    if err:
        return err
    if ts[0].name not in ("card", "any") or ts[1].name != "family":
        return f"needs a card and a zone family, got {ts[0]} and {ts[1]}"
    return INT


@primitive("position_in", "(card, zone family)",
           "die Nummer der Zone der Familie, in der die Karte liegt (0, wenn sie in keiner Zone der Familie liegt)",
           "the number of the family's zone the card lies in (0 when it lies in none of them)", "position_in(c, slot)",
           _card_and_family)
def _position_in(args: Sequence[str], ts: Sequence[T]) -> str:
    """position(c) counts the zones of every family, players' zones too; this asks one family only."""
    where = f"st.where[{args[0]}]"
    return f"(st.game.zone_number[{where}] if st.game.zone_family[{where}] == {args[1]} else 0)"


@primitive("owner", "(card)", "der Besitzer der Karte", "the owner of the card", "owner(c)",
           _one_of("card", PLAYER))
def _owner(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"st.owner[{args[0]}]"


@primitive("revealed", "(card)", "ob die Karte aufgedeckt ist", "whether the card is face up", "revealed(top(deck))",
           _one_of("card", BOOL))
def _revealed(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"(st.known[{args[0]}] < 0)"  # State.known


@primitive("next", "(player)", "der nächste Spieler im Uhrzeigersinn", "the next player clockwise",
           "next(start_player)", _one_of("player", PLAYER))
def _next(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"(({args[0]}) + 1) % st.game.num_players"


@primitive("previous", "(player)", "der vorige Spieler im Uhrzeigersinn", "the previous player clockwise",
           "previous(start_player)", _one_of("player", PLAYER))
def _previous(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"(({args[0]}) - 1) % st.game.num_players"


@primitive("others", "(player)", "die anderen Spieler, im Uhrzeigersinn nach diesem",
           "the other players, clockwise from the one after this one", "others(me)",
           _one_of("player", list_of(PLAYER)))
def _others(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"[(({args[0]}) + _k) % st.game.num_players for _k in range(1, st.game.num_players)]"


@primitive("contains", "(collection, item)", "ob die Liste oder Zone das Element enthält",
           "whether the list or zone holds the item", "contains(hand(me), card)",
           lambda ts: _arity(2, ts) or (BOOL if element_type(ts[0]) is not None else f"needs a list or zone, got {ts[0]}"))
def _contains(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"(({args[1]}) in {seq_code(args[0], ts[0])})"


@primitive("abs", "(number)", "Betrag einer Zahl", "absolute value of a number", "abs(a - b)", _one_of("int", INT))
def _abs(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"abs({args[0]})"


@primitive("card", "(id)", "die Karte mit dieser Kennung", "the card with this id", 'card("token_1")',
           lambda ts: _arity(1, ts) or (CARD if ts[0].name in ("text", "any") else f"needs a card id text, got {ts[0]}"))
def _card(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"_card(st, {args[0]})"


# ------------------------------------------------------------------ graphs and lists (LANGUAGE.md section 4)
#
# A board is a list of edges [a, b] between numbered nodes; the engine knows nothing else about it.


def _is_number(t: T) -> bool:
    return t.name in ("int", "any")


def _is_number_list(t: T) -> bool:
    return t.name == "any" or (t.name == "list" and t.elem is not None and _is_number(t.elem))


def _is_edge_list(t: T) -> bool:
    if t.name == "any":
        return True
    if t.name != "list" or t.elem is None:
        return False
    return t.elem.name == "any" or _is_number_list(t.elem)


_GRAPH_ARGS: dict[str, tuple[Callable[[T], bool], str]] = {
    "edges": (_is_edge_list, "an edge list (a list of [a, b] pairs of numbers)"),
    "node": (_is_number, "a node number"),
    "number": (_is_number, "a number"),
    "stops": (_is_number_list, "a list of node numbers"),
}


def _graph_check(*params: tuple[str, str], result: T) -> Callable[[Sequence[T]], Result]:
    """A check for positional arguments given as (name, kind) with kind a key of _GRAPH_ARGS."""
    def check(types: Sequence[T]) -> Result:
        err = _arity(len(params), types)
        if err:
            return err
        for (name, kind), t in zip(params, types):
            ok, wanted = _GRAPH_ARGS[kind]
            if not ok(t):
                return f"'{name}' needs {wanted}, got {t}"
        return result
    return check


def _helper_call(helper: str) -> Build:
    def build(args: Sequence[str], ts: Sequence[T]) -> str:
        return f"{helper}({', '.join(args)})"
    return build


_EDGES = ("edges", "edges")
_NODE = ("node", "node")

primitive("neighbours", "(edges, node)",
          "die Knoten, die eine Kante in beliebiger Richtung mit dem Knoten verbindet, aufsteigend",
          "the nodes joined to the node by an edge in either direction, in ascending order",
          "neighbours(edges, here)",
          _graph_check(_EDGES, _NODE, result=list_of(INT)))(_helper_call("_neighbours"))
primitive("successors", "(edges, node)",
          "die Knoten b, zu denen eine gerichtete Kante [node, b] führt (vorwärts), aufsteigend",
          "the nodes b a directed edge [node, b] leads to (forward), in ascending order",
          "successors(paths, here)",
          _graph_check(_EDGES, _NODE, result=list_of(INT)))(_helper_call("_successors"))
primitive("predecessors", "(edges, node)",
          "die Knoten a, von denen eine gerichtete Kante [a, node] kommt (dahinter), aufsteigend",
          "the nodes a a directed edge [a, node] comes from (behind), in ascending order",
          "predecessors(paths, here)",
          _graph_check(_EDGES, _NODE, result=list_of(INT)))(_helper_call("_predecessors"))
primitive("steps_ahead", "(edges, node, n)",
          "die Knoten, die man über genau n gerichtete Kanten erreicht (alle Abzweigungen), aufsteigend",
          "the nodes reached by following exactly n directed edges (every branch), in ascending order",
          "steps_ahead(paths, here, 3)",
          _graph_check(_EDGES, _NODE, ("n", "number"), result=list_of(INT)))(_helper_call("_steps_ahead"))
primitive("graph_distance", "(edges, a, b)",
          "die kleinste Zahl von Kanten auf einem ungerichteten Weg von a nach b, -1 wenn es keinen gibt",
          "the fewest edges on an undirected path from a to b, or -1 if there is none",
          "graph_distance(edges, here, goal)",
          _graph_check(_EDGES, ("a", "node"), ("b", "node"), result=INT))(_helper_call("_graph_distance"))
primitive("frontier", "(edges, node, stops)",
          "alle Knoten, die man vom Knoten aus über ungerichtete Kanten erreicht, ohne durch einen Haltepunkt "
          "hindurchzugehen (erreichte Haltepunkte zählen mit, der Knoten selbst nicht), aufsteigend",
          "every node reachable from the node along undirected edges without passing through a stop "
          "(stops reached count, the node itself does not), in ascending order",
          "frontier(edges, here, walls)",
          _graph_check(_EDGES, _NODE, ("stops", "stops"), result=list_of(INT)))(_helper_call("_frontier"))
primitive("reached_stops", "(edges, node, stops)",
          "die Haltepunkte, die frontier(edges, node, stops) erreicht: wo die Wege vom Knoten aus zuerst auf einen "
          "Haltepunkt treffen (der Knoten selbst nicht), aufsteigend",
          "the stops frontier(edges, node, stops) reaches: where the ways from the node first meet a stop "
          "(the node itself not), in ascending order",
          "reached_stops(edges, here, walls)",
          _graph_check(_EDGES, _NODE, ("stops", "stops"), result=list_of(INT)))(_helper_call("_reached_stops"))
primitive("within", "(edges, node, n, stops)",
          "alle Knoten, die man vom Knoten aus über höchstens n ungerichtete Kanten erreicht, ohne durch einen "
          "Haltepunkt hindurchzugehen (erreichte Haltepunkte zählen mit, der Knoten selbst nicht), aufsteigend",
          "every node at most n undirected edges from the node without passing through a stop "
          "(stops reached count, the node itself does not), in ascending order",
          "within(edges, here, 6, walls)",
          _graph_check(_EDGES, _NODE, ("n", "number"), ("stops", "stops"), result=list_of(INT)))(_helper_call("_within"))
primitive("shortest_path", "(edges, a, b, stops)",
          "die Knoten eines kürzesten ungerichteten Weges von a nach b, ohne a und mit b, dessen innere Knoten "
          "keine Haltepunkte sind; bei Gleichstand der lexikografisch kleinste, [] wenn es keinen gibt",
          "the nodes of a shortest undirected path from a to b, without a and with b, whose inner nodes avoid "
          "the stops; on a tie the lexicographically smallest, [] if there is none",
          "shortest_path(edges, here, goal, walls)",
          _graph_check(_EDGES, ("a", "node"), ("b", "node"), ("stops", "stops"), result=list_of(INT)))(
              _helper_call("_shortest_path"))


def _union(a: T, b: T) -> Optional[T]:
    """The item type of a list holding items of types a and b, or None if they do not mix."""
    if a.name == "any":
        return b
    if b.name == "any" or a == b:
        return a
    if a.name == "list" and b.name == "list" and a.elem is not None and b.elem is not None:
        inner = _union(a.elem, b.elem)
        return list_of(inner) if inner is not None else None
    if a.name == "card" and b.name == "card":
        return a if not a.arg else b if not b.arg else None  # a card of any kind, or two different kinds
    if a.name == "map" and b.name == "map":
        return a
    return None


def _check_concat(ts: Sequence[T]) -> Result:
    err = _arity(2, ts)
    if err:
        return err
    for name, t in zip(("xs", "ys"), ts):
        if t.name not in ("list", "any"):
            hint = " (use cards(…) for the cards of a zone)" if t.name in ("zone", "family") else ""
            return f"'{name}' needs a list, got {t}{hint}"
    elems = [t.elem if t.name == "list" and t.elem is not None else T("any") for t in ts]
    joined = _union(elems[0], elems[1])
    if joined is None:
        return f"needs two lists of the same kind of item, got {ts[0]} and {ts[1]}"
    return list_of(joined)


@primitive("concat", "(xs, ys)", "die erste Liste, gefolgt von der zweiten", "the first list followed by the second",
           "concat(xs, [me])", _check_concat)
def _concat(args: Sequence[str], ts: Sequence[T]) -> str:
    """A read joined with one item (`concat(xs, [x])`, the common case) is joined inline while under the budget:
    a call less; past it `_concat` raises the budget's error as it would."""
    xs, ys = args
    if _PLAIN_READ.fullmatch(xs) and _one_item(ys):
        return f"({xs} + {ys} if len({xs}) < st.game.limits.max_list else _concat(st, {xs}, {ys}))"
    return f"_concat(st, {xs}, {ys})"


_PLAIN_READ = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*(?:\[\w+\])*")  # a name, attribute or constant index: read twice, same value


def _one_item(code: str) -> bool:
    """Whether `code` is a list display of one item (no comma or `for` at its top level; none with a string)."""
    if not (code.startswith("[") and code.endswith("]")) or code == "[]" or "'" in code or '"' in code:
        return False
    depth = 0
    for i, ch in enumerate(code[1:-1], 1):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0 or (depth == 0 and (ch == "," or code.startswith(" for ", i))):
            return False
    return True


@primitive("range", "(lo, hi)", "die ganzen Zahlen von lo bis einschließlich hi, [] wenn hi kleiner als lo ist",
           "the whole numbers from lo up to and including hi, [] if hi is less than lo", "range(1, 6)",
           _graph_check(("lo", "number"), ("hi", "number"), result=list_of(INT)))
def _range(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"_range(st, {args[0]}, {args[1]})"


def _check_subsets(ts: Sequence[T]) -> Result:
    err = _arity(1, ts)
    if err:
        return err
    if ts[0].name == "any":
        return list_of(list_of(T("any")))
    if ts[0].name != "list":
        hint = " (use cards(…) for the cards of a zone)" if ts[0].name in ("zone", "family") else ""
        return f"'xs' needs a list, got {ts[0]}{hint}"
    return list_of(ts[0])


@primitive("subsets", "(xs)",
           "alle Teillisten einer Liste in ihrer Reihenfolge, die leere zuerst, dann nach Länge; "
           "um mehrere Dinge auf einmal zu wählen",
           "every sub-list of a list keeping its order, the empty one first, then by length; "
           "for choosing several things at once", "subsets(xs)", _check_subsets)
def _subsets(args: Sequence[str], ts: Sequence[T]) -> str:
    return f"_subsets(_few(st, {args[0]}))"
