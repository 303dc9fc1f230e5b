"""Helpers that generated expression code calls: the checks a Python expression cannot make inline
(bounds, empty zones, division by zero) and reads through active modifiers."""
from __future__ import annotations

from itertools import chain, combinations
from math import inf
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from interpreter.runtime.errors import GameRuleError

if TYPE_CHECKING:
    from dsl.ast import Pos
    from interpreter.runtime.state import State


def _error(message: str, at: Optional["Pos"]) -> GameRuleError:
    """A rules error placed at the expression that failed, where the compiler passed its position."""
    err = GameRuleError(message)
    return err.at(at) if at is not None else err


def family_cards(st: "State", fam: int) -> list[int]:
    """The cards of a zone family, zone by zone; kept in the state (when a card moves, blocks.card_move keeps it
    right; a family of few zones is dropped), as a board family has many zones and is read far more often than
    changed; only a family the rules read so (Program.cached: the moves of the others keep nothing, and a scenario's
    expression may read any). Read only, as every value."""
    cards = st.fam_cards.get(fam)
    if cards is None:
        lo, hi = st.game.fam_span[fam]
        cards = list(chain.from_iterable(st.zones[lo:hi]))
        if fam in st.game.program.cached:
            st.fam_cards[fam] = cards
    return cards


def option_row(rows: list[Optional[list[tuple[int, int, int]]]], aid: int, first: int, cards: int) -> list[tuple[int, int, int]]:
    """The options `(aid, first, c)` of every card c, kept in `rows` (Game.option_rows): tuples made once per game."""
    row = rows[first] = [(aid, first, c) for c in range(cards)]
    return row


def member(st: "State", fam: int, i: int, name: str, at: Optional["Pos"] = None) -> int:
    zones = st.game.fam_zones[fam]
    if 1 <= i <= len(zones):
        return zones[i - 1]
    raise _error(f"{name}[{i}] does not exist (1 to {len(zones)})", at)


def map_get(mapping: dict[Any, Any], key: Any, at: Optional["Pos"] = None) -> Any:
    try:
        return mapping[key]
    except KeyError:
        raise _error(f"the map has no entry for {key!r}", at) from None


def list_get(items: list[Any], i: int, at: Optional["Pos"] = None) -> Any:
    """Lists count from 0, as in LANGUAGE.md (zone families count from 1, like a board's places)."""
    if 0 <= i < len(items):
        return items[i]
    raise _error(f"index {i} is outside the list (0 to {len(items) - 1})", at)


def pick(items: list[Any], index: int, what: str, at: Optional["Pos"] = None) -> Any:
    if not items:
        raise _error(f"{what} of an empty list or zone", at)
    return items[index]


def extreme(fn: Callable[..., Any], items: list[Any], what: str, at: Optional["Pos"] = None) -> Any:
    if not items:
        raise _error(f"{what} of an empty list", at)
    return fn(items)


def divide(x: int, y: int, at: Optional["Pos"] = None) -> int:
    if y == 0:
        raise _error("division by zero", at)
    return x // y


def modulo(x: int, y: int, at: Optional["Pos"] = None) -> int:
    if y == 0:
        raise _error("division by zero", at)
    return x % y


_KEY = itemgetter(0)  # a (key, item) pair's key, read in C (a lambda would be a Python call per item)


def sorted_by(keyed: list[tuple[Any, Any]]) -> list[Any]:
    keyed.sort(key=_KEY)
    return [v for _, v in keyed]


def least_by(keyed: list[tuple[Any, Any]]) -> list[Any]:
    """`first` of sorted_by's list, without sorting it: min keeps the first of equal keys, as the stable sort does
    (a list of that item, or the empty one, for first's own check)."""
    return [min(keyed, key=_KEY)[1]] if keyed else []


_READING: set[tuple[int, int, int]] = set()  # (state, card, field) whose modifiers are being applied


def modified(st: "State", c: int, fidx: int, kind: str) -> Any:
    """A field some modifier may change: the base value, then every active modifier in order."""
    if fidx in st.modded:  # most reads meet no active modifier of their field
        return through_modifiers(st, c, fidx, kind)
    return st.card_vals[c][fidx]


def through_modifiers(st: "State", c: int, fidx: int, kind: str, guarded: bool = False) -> Any:
    """A field with an active modifier (in `modded`): the base value, changed by every active modifier of its kind
    and field in order. Where a modifier reads a modifiable field (Game.mods_nest), the read is `_guarded`."""
    if st.game.mods_nest and not guarded:
        return _guarded(st, c, fidx, kind)
    v = st.card_vals[c][fidx]
    try:  # only a modifier's function raises, once its number `mid` is set
        rows = st.game.mod_rows
        for mid, _, cap in st.mods:
            field, its_kind, apply = rows[mid]
            if field == fidx and its_kind == kind:
                v = apply(st, c, v, *cap)
    except GameRuleError as exc:  # the modifier's own line, not the line that read the field
        raise exc.at(st.game.program.moddefs[mid].pos) from None
    return v


def _guarded(st: "State", c: int, fidx: int, kind: str) -> Any:
    """through_modifiers where modifiers may nest: inside a modifier, reading the field it modifies gives the base
    value (no endless loop)."""
    key = (id(st), c, fidx)
    if key in _READING:
        return st.card_vals[c][fidx]
    _READING.add(key)
    try:
        return through_modifiers(st, c, fidx, kind, True)
    finally:
        _READING.discard(key)


def dynamic_field(st: "State", c: int, name: str) -> Any:
    prog = st.game.program
    kind = prog.kinds[prog.card_kind[c]]
    if name not in kind.index:
        raise GameRuleError(f"{st.game.card_ids[c]} has no field '{name}'")
    return modified(st, c, kind.index[name], kind.name)


def card_by_id(st: "State", cid: str, at: Optional["Pos"] = None) -> int:
    index = st.game.card_index
    if cid not in index:
        raise _error(f"there is no card '{cid}'", at)
    return index[cid]


# ------------------------------------------------------------------ graphs and lists (LANGUAGE.md section 4)
# A board is a list of edges [a, b] between integer nodes. Each call reads the edge list afresh (the rules
# build it from the state), so adjacency is built per call, and only where a search needs it.

Edges = Sequence[Sequence[int]]


def _bad_edge(edges: Edges) -> GameRuleError:
    for e in edges:
        if not isinstance(e, (list, tuple)) or len(e) != 2:
            return GameRuleError(f"an edge needs exactly two nodes [a, b], got {e!r}")
    return GameRuleError("the edge list is malformed")


# The boards of the last edge lists seen, by identity: a board kept in a variable or constant is the
# same list object on every read until it is set anew, so the graph primitives rebuild it only then.
# Values are never changed in place, and the cache holds each list, so an id is not reused while cached.
class _Board:
    """An edge list as the undirected searches read it: adj[i] holds the neighbours of node i in either
    direction (duplicates possible). Nodes that are small numbers from 0 up are their own index (names None);
    others are numbered in ascending order, index[node] = i and names[i] = node, so that ascending indices
    are ascending nodes either way."""
    __slots__ = ("edges", "adj", "index", "names", "cuts")

    def __init__(self, edges: Edges) -> None:
        self.edges = edges
        self.index: Optional[dict[int, int]] = None
        self.names: Optional[list[int]] = None
        low = top = 0
        try:
            for a, b in edges:  # the bounds, one pass (cheaper than min and max over the pairs)
                if a > top:
                    top = a
                elif a < low:
                    low = a
                if b > top:
                    top = b
                elif b < low:
                    low = b
        except (ValueError, TypeError):
            raise _bad_edge(edges) from None
        pairs = edges
        size = top + 1
        if low < 0 or size > 4 * len(edges) + 64:  # a list indexed by node would be mostly empty
            self.names = sorted({x for a, b in edges for x in (a, b)})
            self.index = {x: i for i, x in enumerate(self.names)}
            pairs = [(self.index[a], self.index[b]) for a, b in edges]
            size = len(self.names)
        self.adj: list[list[int]] = [[] for _ in range(size)]
        adj = self.adj
        for a, b in pairs:
            adj[a].append(b)
            adj[b].append(a)
        self.cuts: dict[int, tuple[Sequence[int], frozenset[int], list[list[int]]]] = {}

    def cut(self, stops: Sequence[int]) -> tuple[frozenset[int], list[list[int]]]:
        """The stops by index, and the adjacency a search leaves a node by: a stop's list is empty. Kept by
        the identity of the stop list, as the board is by its edge list's."""
        hit = self.cuts.get(id(stops))
        if hit is not None and hit[0] is stops:
            return hit[1], hit[2]
        index = self.index
        blocked = frozenset(stops) if index is None else frozenset(index[x] for x in stops if x in index)
        ways = self.adj
        if blocked:
            ways = ways[:]
            for x in blocked:
                if 0 <= x < len(ways):
                    ways[x] = []
        if len(self.cuts) >= _ADJACENCY_SIZE:
            self.cuts.clear()
        self.cuts[id(stops)] = (stops, blocked, ways)
        return blocked, ways

    def place(self, node: int) -> Optional[int]:
        """The index of node, None if no edge touches it."""
        if self.index is not None:
            return self.index.get(node)
        return node if 0 <= node < len(self.adj) else None

    def named(self, found: list[int]) -> list[int]:
        """The nodes of these indices."""
        names = self.names
        return found if names is None else [names[i] for i in found]


_BOARDS: dict[int, _Board] = {}
_ADJACENCY_SIZE = 8


def _board(edges: Edges) -> _Board:
    hit = _BOARDS.get(id(edges))
    if hit is not None and hit.edges is edges:
        return hit
    board = _Board(edges)
    if len(_BOARDS) >= _ADJACENCY_SIZE:
        _BOARDS.clear()
    _BOARDS[id(edges)] = board
    return board


def neighbours(edges: Edges, node: int) -> list[int]:
    hit = _DIRECTED.get(id(edges))  # directed(edges), its cache read inline: the common case
    maps = hit[1] if hit is not None and hit[0] is edges else directed(edges)
    if maps is not None:  # both directions: its successors and predecessors, kept once asked for
        near = maps[2].get(node)
        if near is None:
            near = maps[2][node] = sorted(set(maps[0].get(node, ())).union(maps[1].get(node, ())))
        return near[:]
    out: set[int] = set()
    try:
        for a, b in edges:
            if a == node:
                out.add(b)
            if b == node:
                out.add(a)
    except (ValueError, TypeError):
        raise _bad_edge(edges) from None
    return sorted(out)


_Maps = tuple[dict[int, list[int]], dict[int, list[int]], dict[int, list[int]]]
_DIRECTED: dict[int, tuple[Edges, _Maps]] = {}
_SEEN_ONCE: dict[int, Edges] = {}  # lists asked about once: a list made afresh for one question stays here


def directed(edges: Edges) -> Optional[_Maps]:
    """Node -> its successors, node -> its predecessors, each sorted without duplicates, read only, and node ->
    its neighbours, filled by `neighbours` as asked; cached by identity as `_board` is, and built only for a
    list asked about before (None the first time: a list made afresh for one question is answered more
    cheaply by one pass)."""
    key = id(edges)
    hit = _DIRECTED.get(key)
    if hit is not None and hit[0] is edges:
        return hit[1]
    if not _asked_before(edges):
        return None
    succ: dict[int, set[int]] = {}
    pred: dict[int, set[int]] = {}
    try:
        for a, b in edges:
            succ.setdefault(a, set()).add(b)
            pred.setdefault(b, set()).add(a)
    except (ValueError, TypeError):
        raise _bad_edge(edges) from None
    maps: _Maps = ({a: sorted(bs) for a, bs in succ.items()}, {b: sorted(as_) for b, as_ in pred.items()}, {})
    if len(_DIRECTED) >= _ADJACENCY_SIZE:
        _DIRECTED.clear()
    _DIRECTED[key] = (edges, maps)
    return maps


def _asked_before(edges: Edges) -> bool:
    """Whether a search was asked about this very list before (noted now if not): only such a list is worth
    a cached adjacency, a list made afresh for one question is answered more cheaply by one pass."""
    key = id(edges)
    if _SEEN_ONCE.get(key) is edges:
        return True
    if len(_SEEN_ONCE) >= _ADJACENCY_SIZE:
        _SEEN_ONCE.clear()
    _SEEN_ONCE[key] = edges
    return False


def successors(edges: Edges, node: int) -> list[int]:
    hit = _DIRECTED.get(id(edges))  # directed(edges), its cache read inline: the common case
    maps = hit[1] if hit is not None and hit[0] is edges else directed(edges)
    if maps is not None:
        return list(maps[0].get(node, ()))
    try:
        return sorted({b for a, b in edges if a == node})
    except (ValueError, TypeError):
        raise _bad_edge(edges) from None


def predecessors(edges: Edges, node: int) -> list[int]:
    maps = directed(edges)
    if maps is not None:
        return list(maps[1].get(node, ()))
    try:
        return sorted({a for a, b in edges if b == node})
    except (ValueError, TypeError):
        raise _bad_edge(edges) from None


def steps_ahead(edges: Edges, node: int, n: int) -> list[int]:
    """The ends of all directed walks of exactly n edges from node; none for n < 0."""
    if n < 0:
        return []
    maps = directed(edges)
    if maps is not None:
        succ = maps[0]
    else:
        succ = {}
        try:
            for a, b in edges:
                succ.setdefault(a, []).append(b)
        except (ValueError, TypeError):
            raise _bad_edge(edges) from None
    current: frozenset[int] = frozenset((node,))
    seen: dict[frozenset[int], int] = {}
    step = 0
    while step < n and current:
        if current in seen:  # the sets repeat from here on: skip whole periods
            step = n - (n - step) % (step - seen[current])
            seen.clear()
            continue
        seen[current] = step
        current = frozenset(m for x in current for m in succ.get(x, ()))
        step += 1
    return sorted(current)


def graph_distance(edges: Edges, a: int, b: int) -> int:
    if a == b:
        return 0
    return _reach(edges, a, _NO_STOPS, inf, b).distance(b)


# Searches that avoid stops: the distances from a node by walks through no stop (the node itself may be one;
# stops reached count), kept by the identity of the edge and stop lists (see _BOARDS) and the node. Rules
# ask again and again from the same space while the board stays as it is; `within` and then `shortest_path`
# from the same space (a move listed, then walked) share one search.
class _Search:
    """One search on a board, by index: dist[i] the distance of node i (0 for the start and for a node not
    found), `found` the nodes found but the start in the order found (nearest first), complete up to how many
    edges (every node at most that far is found), and the stop set (so its users look neither up again)."""
    __slots__ = ("edges", "stops", "board", "blocked", "dist", "found", "complete")

    def __init__(self, edges: Edges, stops: Sequence[int], board: _Board, blocked: frozenset[int]) -> None:
        self.edges, self.stops, self.board, self.blocked = edges, stops, board, blocked
        self.dist = [0] * len(board.adj)
        self.found: list[int] = []
        self.complete = inf

    def distance(self, node: int) -> int:
        """The distance of a node other than the start, -1 if it was not found."""
        i = self.board.place(node)
        return -1 if i is None else self.dist[i] or -1


_REACH: dict[tuple[int, int, int], _Search] = {}
_REACH_SIZE = 512
_NO_STOPS: list[int] = []


def _reach(edges: Edges, node: int, stops: Sequence[int], limit: float, goal: Optional[int] = None) -> _Search:
    """The search from `node` by undirected walks whose inner nodes avoid `stops`, complete up to `limit`
    edges; with `goal`, it may end at the goal's distance. Read only. Any empty stop list is the same one
    (rules build `[]` afresh at each call), so its searches are kept too."""
    if not stops:
        stops = _NO_STOPS
    key = (id(edges), id(stops), node)
    hit = _REACH.get(key)
    if hit is not None and hit.edges is edges and hit.stops is stops \
            and (hit.complete >= limit or (goal is not None and hit.distance(goal) >= 0)):
        return hit
    board = _BOARDS.get(key[0])  # _board and board.cut, their kept answers read inline: the common case
    if board is None or board.edges is not edges:
        board = _board(edges)
    cut = board.cuts.get(key[1])
    blocked, ways = (cut[1], cut[2]) if cut is not None and cut[0] is stops else board.cut(stops)
    search = _Search(edges, stops, board, blocked)
    start = node if board.index is None else board.index.get(node)
    if start is not None and 0 <= start < len(ways):
        end = None if goal is None else board.place(goal)
        dist, found = search.dist, search.found
        dist[start] = -1  # found, until the search ends
        layer = [start]
        adj = board.adj  # the start is left even if it is a stop
        d = 0
        while layer and d < limit:
            d += 1
            after: list[int] = []
            for x in layer:
                for y in adj[x]:
                    if not dist[y]:
                        dist[y] = d
                        after.append(y)
            adj = ways
            found += after
            layer = after
            if end is not None and dist[end] > 0:
                limit = d  # whole layers are searched: complete up to the goal's
                break
        dist[start] = 0
        if layer:
            search.complete = limit
    if len(_REACH) >= _REACH_SIZE:
        _REACH.clear()
    _REACH[key] = search
    return search


# The sorted answers of the last frontier and reached_stops searches, by the identity of the edge and stop lists
# and the node: a search the rules repeat from the same node is answered at once.
_FRONTIERS: dict[tuple[int, int, int, bool], tuple[Edges, Sequence[int], list[int]]] = {}
_FRONTIERS_SIZE = 256


def _kept_frontier(edges: Edges, node: int, stops: Sequence[int], only_stops: bool) -> list[int]:
    """The answer of frontier (reached_stops: only_stops) not kept yet, searched and kept."""
    search = _reach(edges, node, stops, inf)
    if only_stops:
        blocked = search.blocked
        found = sorted([y for y in search.found if y in blocked])
    else:
        found = sorted(search.found)
    found = search.board.named(found)
    if len(_FRONTIERS) >= _FRONTIERS_SIZE:
        _FRONTIERS.clear()
    _FRONTIERS[(id(edges), id(stops), node, only_stops)] = (edges, stops, found)
    return found[:]


def frontier(edges: Edges, node: int, stops: Sequence[int]) -> list[int]:
    """Everything reachable from node without passing through a stop; reached stops count, node does not."""
    hit = _FRONTIERS.get((id(edges), id(stops), node, False))  # the kept answer read inline: the common case
    if hit is not None and hit[0] is edges and hit[1] is stops:
        return hit[2][:]
    return _kept_frontier(edges, node, stops, False)


def reached_stops(edges: Edges, node: int, stops: Sequence[int]) -> list[int]:
    """The stops of frontier(edges, node, stops), without the others: where the ways from node first meet a stop
    (node itself not)."""
    hit = _FRONTIERS.get((id(edges), id(stops), node, True))  # as in frontier
    if hit is not None and hit[0] is edges and hit[1] is stops:
        return hit[2][:]
    return _kept_frontier(edges, node, stops, True)


def within(edges: Edges, node: int, n: int, stops: Sequence[int]) -> list[int]:
    """Every node at most n undirected edges from node by a walk that passes through no stop (stops reached
    count, node does not): where a piece with n steps may end."""
    if n < 1:
        return []
    search = _reach(edges, node, stops, n)
    found, dist = search.found, search.dist  # nearest first: the last one lies farthest
    near = sorted(found) if not found or dist[found[-1]] <= n else sorted([y for y in found if dist[y] <= n])
    return search.board.named(near)


def shortest_path(edges: Edges, a: int, b: int, stops: Sequence[int]) -> list[int]:
    """A shortest undirected path a → b without a, with b, inner nodes not in stops; the lexicographically
    smallest of equal ones; [] if there is none (or a == b)."""
    if a == b:
        return []
    search = _reach(edges, a, stops, inf, b)
    board, dist, blocked = search.board, search.dist, search.blocked
    end, here = board.place(b), board.place(a)
    if end is None or here is None or not dist[end]:  # b is not a: distance 0 means not found
        return []
    far, adj = dist[end], board.adj
    layers = [[end]]  # the nodes of some shortest path at each distance, found back from b
    for k in range(far - 1, 0, -1):
        before: list[int] = []
        for x in layers[-1]:
            for y in adj[x]:
                if dist[y] == k and y not in before and y not in blocked:
                    before.append(y)
        layers.append(before)
    path: list[int] = []
    for layer in reversed(layers):  # the smallest next node that lies on one (mostly the only one)
        if len(layer) == 1:
            here = layer[0]
        else:
            step = -1
            for y in adj[here]:  # a loop, not min over a comprehension (a call of its own)
                if y in layer and (step < 0 or y < step):
                    step = y
            here = step
        path.append(here)
    return board.named(path)


def _too_long(st: "State", n: int, what: str) -> None:
    """A list that would pass the game's max_list budget is an error before it is built."""
    if n > st.game.limits.max_list:
        raise GameRuleError(f"{what} would have {n} items, more than {st.game.limits.max_list} "
                            "(the budget is REGELWERK_MAX_LIST)")


def multiply(st: "State", x: int, y: int, at: Optional["Pos"] = None) -> int:
    """x * y; a product past the max_int_bits budget is an error (squaring in a loop would fill the memory)."""
    r = x * y
    if r.bit_length() > st.game.limits.max_int_bits:
        raise _error(f"a product of more than {st.game.limits.max_int_bits} bits "
                     "(the budget is REGELWERK_MAX_INT_BITS)", at)
    return r


def number_range(st: "State", lo: int, hi: int) -> list[int]:
    _too_long(st, hi - lo + 1, f"range({lo}, {hi})")
    return list(range(lo, hi + 1))


def concat(st: "State", xs: list[Any], ys: list[Any]) -> list[Any]:
    if len(xs) + len(ys) > st.game.limits.max_list:  # tested here: a join is made often and mostly short
        _too_long(st, len(xs) + len(ys), "the joined list")
    return xs + ys


def few_enough_for_subsets(st: "State", xs: Sequence[Any]) -> Sequence[Any]:
    """xs, if the list of its subsets stays within the max_list budget."""
    _too_long(st, 2 ** min(len(xs), 64), "the list of subsets")
    return xs


def subsets(xs: Sequence[Any]) -> list[list[Any]]:
    """Every sub-list keeping the order: by length, then in the order of the positions taken."""
    return [list(c) for k in range(len(xs) + 1) for c in combinations(xs, k)]


ENV: dict[str, Any] = {
    "_famcards": family_cards, "_optrow": option_row, "_member": member, "_mapget": map_get, "_listget": list_get, "_pick": pick,
    "_extreme": extreme, "_div": divide, "_mod": modulo, "_sorted_by": sorted_by, "_least_by": least_by, "_modified": modified,
    "_through": through_modifiers, "_dynfield": dynamic_field, "_card": card_by_id, "GameRuleError": GameRuleError,
    "_neighbours": neighbours, "_successors": successors, "_predecessors": predecessors,
    "_steps_ahead": steps_ahead, "_graph_distance": graph_distance, "_frontier": frontier, "_reached_stops": reached_stops, "_within": within,
    "_shortest_path": shortest_path, "_subsets": subsets, "_mul": multiply, "_range": number_range,
    "_concat": concat, "_few": few_enough_for_subsets,
}
