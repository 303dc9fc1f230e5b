"""The generic graph and list primitives of LANGUAGE.md section 4: neighbours, successors, predecessors,
steps_ahead, graph_distance, frontier, within, shortest_path, concat, range, subsets.

Each is tested on small hand-made graphs through its runtime helper, through the rules language (as a
`const` of a tiny game), with a load error for wrong arguments, and with hypothesis properties."""
from __future__ import annotations

import itertools
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.errors import RulesError
from interpreter.compile.loading import load_game
from interpreter.compile.primitives import REGISTRY
from interpreter.runtime import helpers as R
from interpreter.runtime.errors import GameRuleError

NEW = ["neighbours", "successors", "predecessors", "steps_ahead", "graph_distance", "frontier", "reached_stops", "within",
       "shortest_path",
       "concat", "range", "subsets"]

# A directed cycle 1 → 2 → 3 → 1 with a branch 3 → 4 and a dead end 4 → 5.
CYCLE = [[1, 2], [2, 3], [3, 1], [3, 4], [4, 5]]
# An undirected line 1 - 2 - 3 - 4 - 5 (edges listed in a scrambled order and direction).
LINE = [[4, 5], [2, 1], [3, 4], [2, 3]]
# A square 1 - 2 - 4 and 1 - 3 - 4: two shortest paths from 1 to 4.
SQUARE = [[3, 4], [1, 3], [2, 4], [1, 2]]
ISOLATED = 9  # a node on no edge


# ------------------------------------------------------------------ the language harness

GAME = """game g {{ title de "G" en "G" players 2 to 2 }}
kind token {{ title de "Stein" en "token" field value: int de "Wert" en "value" }}
zone box de "Schachtel" en "box" of token public
zone row de "Reihe" en "row" [3] of token public
{body}
round {{ repeat while round < 1 phase p de "P" en "P" {{ }} }}
score(p) = 0
"""


def write_game(tmp_path: Path, body: str, name: str = "g") -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.rules").write_text(GAME.format(body=body), encoding="utf-8")
    return str(folder)


def consts(tmp_path: Path, **exprs: str) -> dict[str, Any]:
    """Evaluate each expression as a `const` of a tiny game; returns name -> value."""
    body = "\n".join(f"const {name} = {expr}" for name, expr in exprs.items())
    game = load_game(write_game(tmp_path, body), players=2)
    return dict(zip(exprs, game.consts))


def load_error(tmp_path: Path, expr: str) -> str:
    tmp_path.mkdir(parents=True, exist_ok=True)
    with pytest.raises(RulesError) as info:
        load_game(write_game(tmp_path, f"const r = {expr}"), players=2)
    return str(info.value)


# ------------------------------------------------------------------ registry entries


@pytest.mark.parametrize("name", NEW)
def test_registered_with_texts(name: str) -> None:
    prim = REGISTRY[name]
    assert prim.params.startswith("(") and prim.params.endswith(")")
    assert len(prim.describe_de.split()) >= 3 and len(prim.describe_en.split()) >= 3
    assert prim.describe_de != prim.describe_en
    assert prim.example.startswith(name + "(")


def test_new_helpers_in_env() -> None:
    for helper in ("_neighbours", "_successors", "_predecessors", "_steps_ahead", "_graph_distance", "_frontier", "_within",
                   "_shortest_path", "_subsets"):
        assert callable(R.ENV[helper])


# ------------------------------------------------------------------ neighbours


def test_neighbours_either_direction() -> None:
    assert R.neighbours(CYCLE, 1) == [2, 3]
    assert R.neighbours(CYCLE, 3) == [1, 2, 4]
    assert R.neighbours(LINE, 2) == [1, 3]


def test_neighbours_isolated_duplicates_self_loop() -> None:
    assert R.neighbours(CYCLE, ISOLATED) == []
    assert R.neighbours([], 1) == []
    assert R.neighbours([[1, 2], [2, 1], [1, 2]], 1) == [2]
    assert R.neighbours([[5, 5], [5, 6]], 5) == [5, 6]


def test_neighbours_of_a_list_asked_again_come_from_its_kept_adjacency() -> None:
    """The second question about the same list reads the kept adjacency: the same answers as one pass."""
    edges = [[1, 2], [2, 1], [1, 2], [5, 5], [5, 6]]
    first = [R.neighbours(edges, n) for n in (1, 2, 5, 6, ISOLATED)]
    assert first == [[2], [1], [5, 6], [5], []]
    assert [R.neighbours(edges, n) for n in (1, 2, 5, 6, ISOLATED)] == first
    bad = [[1, 2], [3]]
    for _ in range(2):
        with pytest.raises(GameRuleError, match="exactly two nodes"):
            R.neighbours(bad, 1)


def test_neighbours_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="neighbours([[3, 1], [1, 2], [4, 5]], 1)", b="neighbours([[3, 1]], 9)",
                 c="[n * 10 for n in neighbours([[2, 1], [1, 3]], 1)]")
    assert got == {"a": [2, 3], "b": [], "c": [20, 30]}


# ------------------------------------------------------------------ successors / predecessors


def test_successors_directed() -> None:
    assert R.successors(CYCLE, 3) == [1, 4]
    assert R.successors(CYCLE, 5) == []
    assert R.successors(CYCLE, ISOLATED) == []
    assert R.successors([[1, 7], [1, 2], [1, 7]], 1) == [2, 7]


def test_predecessors_directed() -> None:
    assert R.predecessors(CYCLE, 1) == [3]
    assert R.predecessors(CYCLE, 4) == [3]
    assert R.predecessors(CYCLE, ISOLATED) == []
    assert R.predecessors([[8, 2], [3, 2], [8, 2]], 2) == [3, 8]


def test_successors_predecessors_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, s="successors([[1, 2], [2, 3], [3, 1], [3, 4]], 3)",
                 p="predecessors([[1, 2], [2, 3], [3, 1], [3, 4]], 3)",
                 both="concat(successors([[1, 2], [3, 1]], 1), predecessors([[1, 2], [3, 1]], 1))")
    assert got == {"s": [1, 4], "p": [2], "both": [2, 3]}


# ------------------------------------------------------------------ steps_ahead


def test_steps_ahead_exactly_n_all_branches() -> None:
    assert R.steps_ahead(CYCLE, 1, 0) == [1]
    assert R.steps_ahead(CYCLE, 1, 1) == [2]
    assert R.steps_ahead(CYCLE, 1, 2) == [3]
    assert R.steps_ahead(CYCLE, 1, 3) == [1, 4]
    assert R.steps_ahead(CYCLE, 1, 4) == [2, 5]
    assert R.steps_ahead(CYCLE, 1, 5) == [3]  # the walk into 5 ends there


def test_steps_ahead_dead_end_isolated_negative() -> None:
    assert R.steps_ahead(CYCLE, 5, 1) == []
    assert R.steps_ahead(CYCLE, ISOLATED, 0) == [ISOLATED]
    assert R.steps_ahead(CYCLE, ISOLATED, 2) == []
    assert R.steps_ahead(CYCLE, 1, -1) == []


def test_steps_ahead_long_walks_on_cycles() -> None:
    assert R.steps_ahead([[1, 2], [2, 3], [3, 1]], 1, 10**9) == [2]  # 10**9 % 3 == 1
    two_cycles = [[0, 1], [1, 0], [0, 2], [2, 3], [3, 0]]  # periods 2 and 3 through node 0
    assert R.steps_ahead(two_cycles, 0, 10**6 + 1) == naive_steps(two_cycles, 0, 60 + (10**6 + 1) % 6)


def test_steps_ahead_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="steps_ahead([[1, 2], [2, 3], [3, 1], [3, 4]], 1, 3)",
                 z="steps_ahead([[1, 2]], 7, 0)")
    assert got == {"a": [1, 4], "z": [7]}


# ------------------------------------------------------------------ graph_distance


def test_graph_distance_undirected() -> None:
    assert R.graph_distance(CYCLE, 1, 3) == 1  # against the edge 3 → 1
    assert R.graph_distance(CYCLE, 1, 5) == 3
    assert R.graph_distance(LINE, 5, 1) == 4
    assert R.graph_distance(SQUARE, 2, 3) == 2


def test_graph_distance_same_and_disconnected() -> None:
    assert R.graph_distance(CYCLE, 2, 2) == 0
    assert R.graph_distance(CYCLE, ISOLATED, ISOLATED) == 0
    assert R.graph_distance(CYCLE, 1, ISOLATED) == -1
    assert R.graph_distance([[1, 2], [3, 4]], 1, 4) == -1
    assert R.graph_distance([], 1, 2) == -1


def test_graph_distance_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, r="graph_distance([[1, 2], [2, 3]], 1, 3)", none="graph_distance([[1, 2]], 1, 3)",
                 far="graph_distance([[1, 2], [2, 3]], 3, 1) <= 2")
    assert got == {"r": 2, "none": -1, "far": True}


def test_graph_primitives_take_typed_parameters(tmp_path: Path) -> None:
    body = ("function far(links: list of list of int, a: int, walls: list of int) =\n"
            "  [graph_distance(links, a, 4), count(frontier(links, a, walls)),\n"
            "   count(shortest_path(links, a, 4, walls))]\n"
            "const links = [[1, 2], [2, 3], [3, 4]]\n"
            "const r = far(links, 1, [3])")
    game = load_game(write_game(tmp_path, body), players=2)
    assert game.consts[-1] == [3, 2, 0]


# ------------------------------------------------------------------ frontier


def test_frontier_without_stops_is_the_component() -> None:
    assert R.frontier(CYCLE, 1, []) == [2, 3, 4, 5]
    assert R.frontier(LINE + [[7, 8]], 3, []) == [1, 2, 4, 5]
    assert R.frontier(CYCLE, ISOLATED, []) == []


def test_frontier_stops_block_but_are_included() -> None:
    assert R.frontier(LINE, 1, [3]) == [2, 3]
    assert R.frontier(LINE, 3, [2, 4]) == [2, 4]
    assert R.frontier(LINE, 1, [2, 3]) == [2]  # the stop behind the first one is not reached
    assert R.frontier(SQUARE, 1, [2]) == [2, 3, 4]  # 4 is still reached around the stop


def test_frontier_start_may_be_a_stop_and_is_excluded() -> None:
    assert R.frontier(LINE, 3, [3]) == [1, 2, 4, 5]
    assert R.frontier([[1, 2], [2, 3], [3, 1]], 1, []) == [2, 3]  # the cycle back to 1 does not add it
    assert R.frontier(LINE, 1, [ISOLATED]) == [2, 3, 4, 5]


def test_frontier_answers_are_kept_for_the_same_lists_only() -> None:
    """A repeated question gets the kept answer as a list of its own; other edge or stop lists, even
    with the same ids once the old ones are gone, are searched afresh."""
    edges, stops = [[1, 2], [2, 3], [3, 4]], [3]
    first = R.frontier(edges, 1, stops)
    first.append(99)  # the caller's list: the kept answer stays as it was
    assert R.frontier(edges, 1, stops) == [2, 3]
    assert R.frontier(edges, 1, [2]) == [2] and R.frontier([[1, 2], [2, 3]], 1, stops) == [2, 3]
    for n in range(2 * R._FRONTIERS_SIZE):  # fresh lists, each freed at once: ids are reused
        assert R.frontier([[1, n + 2]], 1, []) == [n + 2]


def test_frontier_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="frontier([[1, 2], [2, 3], [3, 4]], 1, [3])", b="frontier([[1, 2]], 1, [])",
                 e="frontier([], 1, [])")
    assert got == {"a": [2, 3], "b": [2], "e": []}


# ------------------------------------------------------------------ within


def test_reached_stops_are_the_first_stops_met() -> None:
    assert R.reached_stops(LINE, 1, [3, 4]) == [3]  # 4 lies behind the stop 3
    assert R.reached_stops(SQUARE, 1, [2, 3]) == [2, 3]
    assert R.reached_stops(LINE, 3, [3, 1, 5]) == [1, 5]  # the start is a stop, but not reached
    assert R.reached_stops(LINE, 1, []) == [] and R.reached_stops(LINE, 1, [ISOLATED]) == []


def test_reached_stops_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="reached_stops([[1, 2], [2, 3], [3, 4], [1, 5]], 1, [3, 4, 5])", e="reached_stops([], 1, [1])")
    assert got == {"a": [3, 5], "e": []}


def test_within_counts_the_steps() -> None:
    assert R.within(LINE, 1, 2, []) == [2, 3]
    assert R.within(LINE, 3, 1, []) == [2, 4]
    assert R.within(LINE, 3, 0, []) == []
    assert R.within(SQUARE, 1, 2, []) == [2, 3, 4]


def test_within_stops_end_a_walk_but_are_included() -> None:
    assert R.within(LINE, 1, 4, [3]) == [2, 3]
    assert R.within(SQUARE, 1, 2, [2]) == [2, 3, 4]  # 4 is reached around the stop
    assert R.within(SQUARE, 1, 2, [2, 3]) == [2, 3]
    assert R.within(LINE, 3, 2, [3]) == [1, 2, 4, 5]  # the start may be a stop


def test_within_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="within([[1, 2], [2, 3], [3, 4]], 1, 2, [])", b="within([[1, 2], [2, 3]], 1, 5, [2])")
    assert got == {"a": [2, 3], "b": [2]}


# ------------------------------------------------------------------ shortest_path


def test_shortest_path_without_a_with_b() -> None:
    assert R.shortest_path(LINE, 1, 4, []) == [2, 3, 4]
    assert R.shortest_path(LINE, 4, 1, []) == [3, 2, 1]
    assert R.shortest_path(CYCLE, 1, 3, []) == [3]  # undirected: against the edge 3 → 1


def test_shortest_path_ties_go_to_the_lexicographically_smallest() -> None:
    assert R.shortest_path(SQUARE, 1, 4, []) == [2, 4]
    assert R.shortest_path(list(reversed(SQUARE)), 1, 4, []) == [2, 4]
    assert R.shortest_path(SQUARE, 4, 1, []) == [2, 1]
    # element by element, not by sum: 1-2-9-7 beats 1-3-4-7
    assert R.shortest_path([[1, 3], [3, 4], [4, 7], [1, 2], [2, 9], [9, 7]], 1, 7, []) == [2, 9, 7]
    # the tie is decided at the second node
    assert R.shortest_path([[1, 2], [2, 8], [2, 5], [8, 6], [5, 6]], 1, 6, []) == [2, 5, 6]


def test_shortest_path_stops_block_inner_nodes_only() -> None:
    assert R.shortest_path(SQUARE, 1, 4, [2]) == [3, 4]
    assert R.shortest_path(SQUARE, 1, 4, [2, 3]) == []
    assert R.shortest_path(SQUARE, 1, 4, [4]) == [2, 4]  # b may be a stop
    assert R.shortest_path(SQUARE, 1, 4, [1]) == [2, 4]  # so may a
    detour = [[1, 2], [2, 3], [1, 4], [4, 5], [5, 3]]
    assert R.shortest_path(detour, 1, 3, [2]) == [4, 5, 3]


def test_shortest_path_none_and_same_node() -> None:
    assert R.shortest_path(CYCLE, 1, ISOLATED, []) == []
    assert R.shortest_path([[1, 2], [3, 4]], 1, 4, []) == []
    assert R.shortest_path(CYCLE, 2, 2, []) == []


def test_shortest_path_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="shortest_path([[3, 4], [1, 3], [2, 4], [1, 2]], 1, 4, [])",
                 b="shortest_path([[3, 4], [1, 3], [2, 4], [1, 2]], 1, 4, [2])",
                 n="shortest_path([[1, 2]], 1, 3, [])")
    assert got == {"a": [2, 4], "b": [3, 4], "n": []}


def test_malformed_edges_are_a_rule_error() -> None:
    for call in (lambda: R.neighbours([[1, 2, 3]], 1), lambda: R.successors([[1]], 1),
                 lambda: R.predecessors([[1, 2], [3]], 1), lambda: R.steps_ahead([[1, 2, 3]], 1, 1),
                 lambda: R.graph_distance([[1, 2], [2]], 1, 3), lambda: R.frontier([[1]], 1, []),
                 lambda: R.shortest_path([[1, 2, 3]], 1, 2, [])):
        with pytest.raises(GameRuleError, match="two nodes"):
            call()


# ------------------------------------------------------------------ concat, range, subsets


def test_concat_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="concat([1, 2], [3])", e="concat([], [5])", n="concat([[1, 2]], [[2, 3]])",
                 z="concat([], [])", keep="concat([3, 1], [2, 1])", players="concat(players, [first(players)])")
    assert got == {"a": [1, 2, 3], "e": [5], "n": [[1, 2], [2, 3]], "z": [], "keep": [3, 1, 2, 1],
                   "players": [0, 1, 0]}


def test_concat_does_not_change_its_arguments(tmp_path: Path) -> None:
    got = consts(tmp_path, xs="[1, 2]", both="concat(xs, xs)", again="xs")
    assert got == {"xs": [1, 2], "both": [1, 2, 1, 2], "again": [1, 2]}


def test_range_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, a="range(1, 3)", one="range(4, 4)", none="range(5, 4)", neg="range(-2, 1)",
                 total="sum(range(1, 10))")
    assert got == {"a": [1, 2, 3], "one": [4], "none": [], "neg": [-2, -1, 0, 1], "total": 55}


def test_subsets_order() -> None:
    assert R.subsets([]) == [[]]
    assert R.subsets([7]) == [[], [7]]
    assert R.subsets([3, 1, 2]) == [[], [3], [1], [2], [3, 1], [3, 2], [1, 2], [3, 1, 2]]
    assert R.subsets([1, 1]) == [[], [1], [1], [1, 1]]  # sub-lists by position


def test_subsets_in_rules(tmp_path: Path) -> None:
    got = consts(tmp_path, s="subsets([1, 2, 3])", n="count(subsets(range(1, 4)))",
                 sizes="[count(x) for x in subsets([4, 5])]")
    assert got == {"s": [[], [1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]], "n": 16, "sizes": [0, 1, 1, 2]}


# ------------------------------------------------------------------ load errors for wrong arguments


BAD_CALLS = [
    ("neighbours", "neighbours([[1, 2]])", "takes 2 arguments, got 1"),
    ("neighbours", "neighbours([1, 2], 1)", "'edges' needs an edge list"),
    ("successors", "successors([[1, 2]], true)", "'node' needs a node number, got bool"),
    ("successors", "successors([[1, 2]], 1, 2)", "takes 2 arguments, got 3"),
    ("predecessors", "predecessors([[true, false]], 1)", "'edges' needs an edge list"),
    ("predecessors", "predecessors(1, 1)", "'edges' needs an edge list"),
    ("steps_ahead", "steps_ahead([[1, 2]], 1)", "takes 3 arguments, got 2"),
    ("steps_ahead", "steps_ahead([[1, 2]], 1, [2])", "'n' needs a number, got list of int"),
    ("graph_distance", "graph_distance([[1, 2]], 1, \"x\")", "'b' needs a node number, got text"),
    ("graph_distance", "graph_distance([[1, 2]], 1)", "takes 3 arguments, got 2"),
    ("frontier", "frontier([[1, 2]], 1, 2)", "'stops' needs a list of node numbers, got int"),
    ("frontier", "frontier([[1, 2]], 1)", "takes 3 arguments, got 2"),
    ("reached_stops", "reached_stops([[1, 2]], 1, [true])", "'stops' needs a list of node numbers, got list of bool"),
    ("within", "within([[1, 2]], 1, [2], [])", "'n' needs a number, got list of int"),
    ("within", "within([[1, 2]], 1, 2)", "takes 4 arguments, got 3"),
    ("shortest_path", "shortest_path([[1, 2]], 1, 2)", "takes 4 arguments, got 3"),
    ("shortest_path", "shortest_path([[1, 2]], true, 2, [])", "'a' needs a node number, got bool"),
    ("shortest_path", "shortest_path([[1, 2]], 1, 2, [true])", "'stops' needs a list of node numbers"),
    ("concat", "concat([1], [true])", "needs two lists of the same kind of item"),
    ("concat", "concat([1], 2)", "'ys' needs a list, got int"),
    ("concat", "concat(box, [1])", "use cards(…)"),
    ("concat", "concat([1])", "takes 2 arguments, got 1"),
    ("range", "range(1)", "takes 2 arguments, got 1"),
    ("range", "range(1, true)", "'hi' needs a number, got bool"),
    ("subsets", "subsets(1)", "'xs' needs a list, got int"),
    ("subsets", "subsets(row)", "use cards(…)"),
    ("subsets", "subsets([1], [2])", "takes 1 argument, got 2"),
]


@pytest.mark.parametrize(("name", "expr", "message"), BAD_CALLS, ids=[c[1] for c in BAD_CALLS])
def test_wrong_arguments_are_a_load_error(tmp_path: Path, name: str, expr: str, message: str) -> None:
    text = load_error(tmp_path, expr)
    assert f"{name}{REGISTRY[name].params}:" in text
    assert message in text


def test_every_new_primitive_has_a_load_error_test() -> None:
    assert {c[0] for c in BAD_CALLS} == set(NEW)


def test_result_types_are_checked_downstream(tmp_path: Path) -> None:
    """The declared result types reach the checker: an int is no condition, a list no number."""
    not_bool = load_error(tmp_path / "a", "graph_distance([[1, 2]], 1, 2) and true")
    assert "the left side of 'and' must be bool, got int" in not_bool
    assert "must be int, got list of int" in load_error(tmp_path / "b", "neighbours([[1, 2]], 1) + 1")
    assert "must be int, got list of list of int" in load_error(tmp_path / "c", "subsets([1]) + 1")


# ------------------------------------------------------------------ properties

NODES = st.integers(min_value=0, max_value=7)
UNDIRECTED = st.lists(st.lists(NODES, min_size=2, max_size=2), max_size=14)


def component(edges: list[list[int]], node: int) -> set[int]:
    """The nodes joined to `node` by undirected paths (node included), by fixed point."""
    seen = {node}
    grew = True
    while grew:
        grew = False
        for a, b in edges:
            if (a in seen) != (b in seen):
                seen |= {a, b}
                grew = True
    return seen


def naive_steps(edges: list[list[int]], node: int, n: int) -> list[int]:
    current = {node}
    for _ in range(n):
        current = {b for a, b in edges if a in current}
    return sorted(current)


def all_shortest_paths(edges: list[list[int]], a: int, b: int, stops: list[int]) -> list[list[int]]:
    """Every shortest simple path a → b (without a) whose inner nodes avoid stops, by brute force."""
    adj: dict[int, set[int]] = {}
    for x, y in edges:
        adj.setdefault(x, set()).add(y)
        adj.setdefault(y, set()).add(x)
    found: list[list[int]] = []
    queue: deque[list[int]] = deque([[a]])
    while queue:
        path = queue.popleft()
        if found and len(path) > len(found[0]) + 1:
            break
        last = path[-1]
        if last == b:
            found.append(path[1:])
            continue
        if len(path) > 1 and last in stops:
            continue
        for y in adj.get(last, ()):
            if y not in path:
                queue.append(path + [y])
    return found


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, NODES)
def test_distance_is_symmetric(edges: list[list[int]], a: int, b: int) -> None:
    assert R.graph_distance(edges, a, b) == R.graph_distance(edges, b, a)


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, NODES, NODES)
def test_distance_triangle_inequality(edges: list[list[int]], a: int, b: int, c: int) -> None:
    ab, bc, ac = R.graph_distance(edges, a, b), R.graph_distance(edges, b, c), R.graph_distance(edges, a, c)
    if ab >= 0 and bc >= 0:
        assert 0 <= ac <= ab + bc
    assert (ac >= 0) == (c in component(edges, a))


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES)
def test_frontier_without_stops_is_component_minus_node(edges: list[list[int]], node: int) -> None:
    assert R.frontier(edges, node, []) == sorted(component(edges, node) - {node})


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES)
def test_within_is_frontier_cut_at_n(edges: list[list[int]], node: int) -> None:
    assert R.within(edges, node, len(edges) + 1, []) == R.frontier(edges, node, [])
    for n in range(4):
        assert R.within(edges, node, n, []) == sorted(m for m in R.frontier(edges, node, [])
                                                      if R.graph_distance(edges, node, m) <= n)


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, st.lists(NODES, max_size=4))
def test_frontier_stops_are_not_passed(edges: list[list[int]], node: int, stops: list[int]) -> None:
    reached = set(R.frontier(edges, node, stops))
    # every reached node has a neighbour that is the start or a reached non-stop
    for x in reached:
        assert any(y == node or (y in reached and y not in stops) for y in R.neighbours(edges, x))
    # and the frontier is closed: nothing else hangs off the start or a reached non-stop
    for x in {node} | {x for x in reached if x not in stops}:
        assert set(R.neighbours(edges, x)) - {node} <= reached


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, st.lists(NODES, max_size=4))
def test_reached_stops_are_the_stops_of_the_frontier(edges: list[list[int]], node: int, stops: list[int]) -> None:
    assert R.reached_stops(edges, node, stops) == [x for x in R.frontier(edges, node, stops) if x in stops]


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, NODES)
def test_shortest_path_length_is_distance(edges: list[list[int]], a: int, b: int) -> None:
    path = R.shortest_path(edges, a, b, [])
    d = R.graph_distance(edges, a, b)
    assert len(path) == max(d, 0)
    if path:
        assert path[-1] == b
        for x, y in zip([a] + path, path):
            assert y in R.neighbours(edges, x)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=2, max_size=2), max_size=10), st.integers(0, 5),
       st.integers(0, 5), st.lists(st.integers(0, 5), max_size=3))
def test_shortest_path_is_the_smallest_shortest_path(edges: list[list[int]], a: int, b: int,
                                                     stops: list[int]) -> None:
    expected = min(all_shortest_paths(edges, a, b, stops), default=[]) if a != b else []
    assert R.shortest_path(edges, a, b, stops) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=2), max_size=12), st.lists(st.integers(0, 6), max_size=3),
       st.lists(st.tuples(st.sampled_from(["within", "frontier", "met", "path"]), st.integers(0, 6), st.integers(0, 6)),
                max_size=8))
def test_searches_on_kept_lists_answer_as_on_fresh_ones(edges: list[list[int]], stops: list[int],
                                                        asks: list[tuple[str, int, int]]) -> None:
    """within, frontier, reached_stops and shortest_path share the searches made on the same edge and stop
    lists (a short search to one goal, a longer one for a larger n): in any order they answer as on fresh lists."""
    for what, a, n in asks:
        new_edges, new_stops = [list(e) for e in edges], list(stops)
        if what == "within":
            assert R.within(edges, a, n, stops) == R.within(new_edges, a, n, new_stops)
        elif what == "frontier":
            assert R.frontier(edges, a, stops) == R.frontier(new_edges, a, new_stops)
        elif what == "met":
            R.reached_stops(edges, a, stops).append(99)  # the caller's list: the kept answer stays as it was
            assert R.reached_stops(edges, a, stops) == R.reached_stops(new_edges, a, new_stops)
        else:
            assert R.shortest_path(edges, a, n, stops) == R.shortest_path(new_edges, a, n, new_stops)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=2), max_size=12), st.lists(st.integers(0, 6), max_size=3),
       st.integers(0, 6), st.integers(0, 6), st.integers(0, 4))
def test_negative_and_far_apart_nodes_answer_as_small_ones(edges: list[list[int]], stops: list[int], a: int, b: int,
                                                           n: int) -> None:
    """Nodes that are no small numbers from 0 up are numbered apart inside; an order-keeping renaming of the
    nodes renames the answers and nothing else."""
    def far(x: int) -> int:
        return 1000 * x - 3000

    far_edges, far_stops = [[far(x), far(y)] for x, y in edges], [far(x) for x in stops]
    assert R.within(far_edges, far(a), n, far_stops) == [far(x) for x in R.within(edges, a, n, stops)]
    assert R.frontier(far_edges, far(a), far_stops) == [far(x) for x in R.frontier(edges, a, stops)]
    assert R.reached_stops(far_edges, far(a), far_stops) == [far(x) for x in R.reached_stops(edges, a, stops)]
    assert R.shortest_path(far_edges, far(a), far(b), far_stops) == [far(x) for x in R.shortest_path(edges, a, b, stops)]
    assert R.graph_distance(far_edges, far(a), far(b)) == R.graph_distance(edges, a, b)
    assert R.neighbours(far_edges, far(a)) == R.neighbours(far_edges, far(a)) == [far(x) for x in R.neighbours(edges, a)]


@settings(max_examples=200, deadline=None)
@given(UNDIRECTED, NODES, st.integers(0, 40))
def test_steps_ahead_matches_walking(edges: list[list[int]], node: int, n: int) -> None:
    assert R.steps_ahead(edges, node, n) == naive_steps(edges, node, n)


@settings(max_examples=100, deadline=None)
@given(UNDIRECTED, NODES)
def test_neighbours_are_successors_and_predecessors(edges: list[list[int]], node: int) -> None:
    both = sorted(set(R.successors(edges, node)) | set(R.predecessors(edges, node)))
    assert R.neighbours(edges, node) == both
    assert R.steps_ahead(edges, node, 1) == R.successors(edges, node)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=7))
def test_subsets_are_every_order_keeping_sub_list(xs: list[int]) -> None:
    subs = R.subsets(xs)
    assert len(subs) == 2 ** len(xs)
    assert [len(s) for s in subs] == sorted(len(s) for s in subs)
    picks = [tuple(xs[i] for i in idx) for k in range(len(xs) + 1) for idx in itertools.combinations(range(len(xs)), k)]
    assert [tuple(s) for s in subs] == picks
