"""Unit tests of every built-in primitive and every statement kind, on tiny games written for the purpose."""
from __future__ import annotations

import dis
from pathlib import Path
from typing import Any, Optional

import pytest

from dsl import ast as A
from dsl.errors import RulesError
from dsl.parser import parse_text
from interpreter import CHANCE_PLAYER, IllegalActionError, load_game
from interpreter.compile.primitives import REGISTRY, _sorted_whole
from interpreter.compile.types import INT, PLAYER, T, card, list_of
from interpreter.play.agents import RandomAgent
from interpreter.play.simulate import play_bots
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.ops import L_MOVE
from interpreter.runtime.state import State

FIXTURES = Path(__file__).parent / "fixtures"


# ================================================================== helpers


def expr_node(src: str) -> Any:
    """The AST of one expression, parsed through the real grammar."""
    item = parse_text(f"function probe() = {src}", "<probe>").items[0]
    assert isinstance(item, A.FunctionDef)
    return item.body


def ev(state: State, src: str, names: Optional[dict[str, tuple[T, Any]]] = None) -> Any:
    """Compiles `src` against the state's game (as a scenario `expect` is) and evaluates it in the state."""
    names = names or {}
    compile_expr = state.game.program.compile_expr
    assert compile_expr is not None
    fn, _, size = compile_expr(expr_node(src), {n: t for n, (t, _) in names.items()})
    frame = [v for _, v in names.values()]
    return fn(state, frame + [None] * max(size, 1))


def compile_only(game: Game, src: str, names: Optional[dict[str, T]] = None) -> T:
    """Compiles `src` against the game; returns its type (a RulesError if it does not compile)."""
    compile_expr = game.program.compile_expr
    assert compile_expr is not None
    _, t, _ = compile_expr(expr_node(src), names or {})
    return t


def cid(state: State, name: str) -> int:
    """The card index of an id."""
    return state.game.card_index[name]


def ids(state: State, zone: str) -> list[str]:
    """The ids in a zone, bottom to top."""
    game = state.game
    return [game.card_ids[c] for c in state.zones[game.zone_names.index(zone)]]


def gv(state: State, name: str) -> Any:
    """A game variable's value."""
    names = [g[0] for g in state.game.program.gvars]
    return state.gvars[names.index(name)]


def gold(state: State, seat: int) -> int:
    """A seat's gold."""
    pidx, _ = state.game.program.currencies["gold"]
    return int(state.pvars[seat][pidx])


def bank(state: State) -> int:
    """The bank's gold balance (the negative of what it paid out net)."""
    _, bidx = state.game.program.currencies["gold"]
    return int(state.gvars[bidx])


# ================================================================== primitives

PRIMS = FIXTURES / "primitives"


@pytest.fixture(scope="module")
def pstate() -> State:
    """The primitives fixture for three players, at its first decision (setup done)."""
    game = load_game(str(PRIMS), players=3)
    state = game.new_initial_state(seed=0)
    assert state.current_player() == 0 and state.legal_labels() == ["1", "2"]
    return state


def test_fixture_layout(pstate: State) -> None:
    """The setup laid the tokens out as the cases below assume."""
    assert ids(pstate, "box") == ["red_3", "red_4", "blue_4"]
    assert ids(pstate, "row[1]") == ["red_1", "red_2"]
    assert ids(pstate, "row[2]") == ["blue_3"] and ids(pstate, "row[3]") == []
    assert ids(pstate, "hand[P1]") == ["blue_1"] and ids(pstate, "deck") == ["blue_2"]
    assert gv(pstate, "summary") == 332, "primitives used inside the rules disagree"


C = "card"  # marks an expected value that is a card id
# (primitive, expression, expected); ("card", id) means that card, [("card", …), …] a list of cards
CASES: list[tuple[str, str, Any]] = [
    ("count", "count(box)", 3),
    ("count", "count(row[1])", 2),
    ("count", "count(cards(row))", 3),
    ("count", "count(row[3])", 0),
    ("count", "count(deck)", 1),
    ("count", "count(c for c in box if c.v > 3)", 2),
    ("count", "count([4, 4, 4])", 3),
    ("sum", "sum(c.v for c in row[1])", 3),
    ("sum", "sum(1, 2, 3)", 6),
    ("sum", "sum(positions(row))", 6),
    ("sum", "sum(c.v for c in row[3])", 0),
    ("sum", "sum([-2, 5])", 3),
    ("min", "min(3, 1, 2)", 1),
    ("min", "min(c.v for c in box)", 3),
    ("min", "min([7])", 7),
    ("min", "min(-1, 0)", -1),
    ("max", "max(c.v for c in cards(row))", 3),
    ("max", "max(0, -5)", 0),
    ("max", "max([2, 9, 4])", 9),
    ("any", "any(c.v == 3 for c in cards(row))", True),
    ("any", "any(c.v == 4 for c in cards(row))", False),
    ("any", "any(x > 0 for x in [])", False),
    ("all", "all(c.hue == hue.red for c in row[1])", True),
    ("all", "all(c.v > 1 for c in row[1])", False),
    ("all", "all(x > 0 for x in [])", True),
    ("first", "first(row[1])", (C, "red_1")),
    ("first", "first([7, 8, 9])", 7),
    ("first", "first(box)", (C, "red_3")),
    ("last", "last(row[1])", (C, "red_2")),
    ("last", "last([7, 8, 9])", 9),
    ("last", "last(box)", (C, "blue_4")),
    ("top", "top(row[1])", (C, "red_2")),
    ("top", "top(row[2])", (C, "blue_3")),
    ("top", "top(box)", (C, "blue_4")),
    ("cards", "cards(row)", [(C, "red_1"), (C, "red_2"), (C, "blue_3")]),
    ("cards", "cards(row[1])", [(C, "red_1"), (C, "red_2")]),
    ("cards", "cards(row[3])", []),
    ("cards", "cards(box)", [(C, "red_3"), (C, "red_4"), (C, "blue_4")]),
    ("positions", "positions(row)", [1, 2, 3]),
    ("position", 'position(card("red_2"))', 1),
    ("position", 'position(card("blue_3"))', 2),
    ("position", 'position(card("red_3"))', 0),
    ("position", 'position(card("blue_1"))', 1),
    ("position_in", 'position_in(card("red_2"), row)', 1),
    ("position_in", 'position_in(card("blue_3"), row)', 2),
    ("position_in", 'position_in(card("blue_1"), row)', 0),
    ("position_in", 'position_in(card("blue_1"), hand)', 1),
    ("position_in", 'position_in(card("red_3"), row)', 0),
    ("owner", 'owner(card("red_1")) == first(players)', True),
    ("owner", 'owner(card("blue_3")) == last(players)', True),
    ("owner", 'owner(card("blue_3")) == first(players)', False),
    ("revealed", 'revealed(card("blue_3"))', True),
    ("revealed", 'revealed(card("red_1"))', False),
    ("revealed", "revealed(first(deck))", False),
    ("next", "next(first(players))", 1),
    ("next", "next(last(players))", 0),
    ("next", "next(next(next(first(players)))) == first(players)", True),
    ("previous", "previous(first(players))", 2),
    ("previous", "previous(last(players))", 1),
    ("previous", "previous(next(last(players))) == last(players)", True),
    ("others", "others(first(players))", [1, 2]),
    ("others", "others(next(first(players)))", [2, 0]),
    ("others", "count(others(last(players)))", 2),
    ("contains", 'contains(row[1], card("red_1"))', True),
    ("contains", 'contains(row[1], card("blue_3"))', False),
    ("contains", 'contains(cards(row), card("blue_3"))', True),
    ("contains", "contains([1, 2], 2)", True),
    ("contains", "contains([1, 2], 3)", False),
    ("abs", "abs(-3)", 3),
    ("abs", "abs(3 - 5)", 2),
    ("abs", "abs(4)", 4),
    ("card", 'card("red_4")', (C, "red_4")),
    ("card", 'card("blue_1").v', 1),
    ("card", 'card("blue_1").hue == hue.blue', True),
    # the generic graph and list primitives of LANGUAGE.md section 4 (tested in depth in test_graph_primitives.py)
    ("neighbours", "neighbours([[3, 1], [1, 2], [4, 5]], 1)", [2, 3]),
    ("successors", "successors([[1, 2], [2, 3], [3, 1], [3, 4]], 3)", [1, 4]),
    ("predecessors", "predecessors([[1, 2], [2, 3], [3, 1], [3, 4]], 3)", [2]),
    ("steps_ahead", "steps_ahead([[1, 2], [2, 3], [3, 1], [3, 4]], 1, 3)", [1, 4]),
    ("graph_distance", "graph_distance([[1, 2], [2, 3], [3, 4]], 4, 1)", 3),
    ("graph_distance", "graph_distance([[1, 2]], 1, 9)", -1),
    ("frontier", "frontier([[1, 2], [2, 3], [3, 4]], 1, [3])", [2, 3]),
    ("reached_stops", "reached_stops([[1, 2], [2, 3], [3, 4]], 1, [3, 4])", [3]),
    ("within", "within([[1, 2], [2, 3], [3, 4]], 1, 2, [])", [2, 3]),
    ("shortest_path", "shortest_path([[3, 4], [1, 3], [2, 4], [1, 2]], 1, 4, [])", [2, 4]),
    ("concat", "concat([1, 2], [3])", [1, 2, 3]),
    ("range", "range(2, 5)", [2, 3, 4, 5]),
    ("range", "range(5, 2)", []),
    ("subsets", "subsets([1, 2])", [[], [1], [2], [1, 2]]),
]


def expected_value(state: State, want: Any) -> Any:
    """Turns ("card", id) markers into card indices."""
    if isinstance(want, tuple) and len(want) == 2 and want[0] == C:
        return cid(state, want[1])
    if isinstance(want, list):
        return [expected_value(state, w) for w in want]
    return want


@pytest.mark.parametrize("name,src,want", CASES, ids=[f"{n}:{s}" for n, s, _ in CASES])
def test_primitive_value(pstate: State, name: str, src: str, want: Any) -> None:
    """Each primitive computes the documented value on the fixture's layout."""
    assert f"{name}(" in src
    got = ev(pstate, src)
    assert got == expected_value(pstate, want), f"{src} = {got!r}"
    assert type(got) is type(expected_value(pstate, want))


RUNTIME_ERRORS: list[tuple[str, str, str]] = [
    ("min", "min(c.v for c in row[3])", "min"),
    ("max", "max(c.v for c in row[3])", "max"),
    ("first", "first(row[3])", "first"),
    ("last", "last(row[3])", "last"),
    ("top", "top(row[3])", "top"),
]


@pytest.mark.parametrize("name,src,fragment", RUNTIME_ERRORS, ids=[s for _, s, _ in RUNTIME_ERRORS])
def test_primitive_runtime_error(pstate: State, name: str, src: str, fragment: str) -> None:
    """Reading from nothing is a rules error that says what went wrong, never a Python crash."""
    with pytest.raises(GameRuleError) as info:
        ev(pstate, src)
    assert fragment in str(info.value)


def test_card_with_an_unknown_id_is_refused(pstate: State) -> None:
    """`card("…")` with an id no card has is an error that names the id (at load, or when evaluated)."""
    with pytest.raises((RulesError, GameRuleError)) as info:
        ev(pstate, 'card("no_such_card")')
    assert "no_such_card" in str(info.value)


LOAD_ERRORS: list[tuple[str, str]] = [
    ("count", "count(5)"),
    ("count", "count(box, box)"),
    ("sum", 'sum(card("red_1"))'),
    ("sum", "sum(1, true)"),
    ("min", "min()"),
    ("max", "max([true])"),
    ("any", "any(5)"),
    ("any", "any(c.v for c in box)"),
    ("all", "all([1, 2])"),
    ("first", "first(5)"),
    ("last", "last(true)"),
    ("top", "top([1, 2])"),
    ("top", "top(row)"),
    ("cards", "cards(5)"),
    ("cards", "cards([1])"),
    ("positions", "positions(box)"),
    ("positions", "positions(5)"),
    ("position", "position(5)"),
    ("position_in", "position_in(5, row)"),
    ("position_in", 'position_in(card("red_1"), box)'),
    ("position_in", 'position_in(card("red_1"))'),
    ("owner", "owner(first(players))"),
    ("revealed", "revealed(1)"),
    ("next", "next(5)"),
    ("others", "others(5)"),
    ("previous", 'previous(card("red_1"))'),
    ("contains", "contains(5, 1)"),
    ("contains", "contains(box)"),
    ("abs", "abs(true)"),
    ("abs", "abs(1, 2)"),
    ("card", "card(5)"),
]


@pytest.mark.parametrize("name,src", LOAD_ERRORS, ids=[s for _, s in LOAD_ERRORS])
def test_primitive_wrong_arguments_fail_at_load(pstate: State, name: str, src: str) -> None:
    """Wrong argument types or counts are load errors that name the primitive."""
    with pytest.raises(RulesError) as info:
        compile_only(pstate.game, src)
    assert name in str(info.value)


def test_primitive_wrong_arguments_in_a_rules_file(tmp_path: Path) -> None:
    """The same check in a real rules file: file, line and the primitive are named."""
    source = (PRIMS / "game.rules").read_text(encoding="utf-8").replace(
        "function row_sum(i: int) = sum(c.v for c in row[i])",
        "function row_sum(i: int) = sum(c.v for c in row[i])\nfunction broken() = positions(box)")
    folder = tmp_path / "broken_primitive"
    folder.mkdir()
    (folder / "game.rules").write_text(source, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_game(str(folder), players=2)
    line = source.splitlines().index("function broken() = positions(box)") + 1
    assert f"game.rules:{line}:" in str(info.value) and "positions" in str(info.value)


def test_unknown_function_is_a_load_error(pstate: State) -> None:
    """A name that is no primitive, function or zone fails at load with a hint."""
    with pytest.raises(RulesError) as info:
        compile_only(pstate.game, "cuont(box)")
    assert "cuont" in str(info.value) and "count" in str(info.value)


def test_a_number_added_to_an_if_is_summed_into_its_branches(pstate: State) -> None:
    """`k + (if c then a else b)`, the `if` first too: the branch of numbers is summed as the code is compiled
    (expressions._sum_in_branches), the other adds k as it runs."""
    assert [ev(pstate, f"1 + (if count(box) == {n} then 0 else count(box))") for n in (3, 2)] == [1, 4]
    assert [ev(pstate, f"(if count(box) == {n} then count(deck) else 6) + 2") for n in (3, 2)] == [3, 8]
    compile_expr = pstate.game.program.compile_expr
    assert compile_expr is not None
    fn, _, _ = compile_expr(expr_node("(if count(box) == 3 then count(deck) else 6) + 2"), {})
    assert 8 in fn.__code__.co_consts and 6 not in fn.__code__.co_consts


def test_primitives_read_the_live_state() -> None:
    """Primitives see the state they are evaluated in: a later state gives later answers."""
    game = load_game(str(PRIMS), players=2)
    state = game.new_initial_state(seed=0)
    state.apply_label("2")
    assert state.is_terminal()
    assert ev(state, "count(box)") == 3 and ev(state, "next(first(players))") == 1
    assert ev(state, "previous(first(players))") == 1, "two players: previous of P1 is P2"


EXAMPLE_NAMES: dict[str, T] = {
    "me": PLAYER, "i": INT, "a": INT, "b": INT, "c": card("token"), "card": card("token"),
    "here": INT, "goal": INT, "edges": list_of(list_of(INT)), "paths": list_of(list_of(INT)),
    "walls": list_of(INT), "xs": list_of(PLAYER),
}


def test_every_registered_primitive_is_tested_and_documented() -> None:
    """Every REGISTRY entry has texts, an example that compiles, and value tests in this file."""
    tested = {name for name, _, _ in CASES}
    missing = sorted(set(REGISTRY) - tested)
    assert not missing, f"primitives without a test here: {missing}"
    game = load_game(str(FIXTURES / "primitive_examples"), players=3)
    for name, prim in REGISTRY.items():
        assert prim.name == name
        assert prim.describe_de.strip() and prim.describe_en.strip(), name
        assert prim.params.strip().startswith("("), name
        assert f"{name}(" in prim.example, f"the example of {name} does not call it: {prim.example}"
        t = compile_only(game, prim.example, EXAMPLE_NAMES)
        assert t.name != "error", f"{prim.example} has type {t}"


# ================================================================== statements

PRELUDE = """
game probe {
  players 2 to 4
}
kind tok {
  field v: int
  field w: int
  id "t{v}"
}
# t1 … t5, t5 on top
cards tok in box {
  columns v w
  row 1 10
  row 2 20
  row 3 30
  row 4 40
  row 5 50
}
zone box of tok public
zone pile of tok hidden
zone deck of tok hidden shuffled
zone out of tok public
zone spot [2] of tok public capacity 1
zone hand per player of tok owner
zone mine of tok owner
currency gold start 5
var acc: int = 0
var got: int = 0
var n1: int = 0
var n2: int = 0
"""
NO_ROUNDS = """
round {
  repeat while round < 1
  phase idle { }
}
score(p) = 0
"""


def build(tmp_path: Path, body: str, players: int = 2, name: str = "probe") -> Game:
    """Writes PRELUDE + body as a game folder and loads it for `players`."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.rules").write_text(PRELUDE + body, encoding="utf-8")
    return load_game(str(folder), players=players)


def line_in(body: str, needle: str) -> int:
    """The line number of `needle` in the file PRELUDE + body."""
    return (PRELUDE + body).splitlines().index(needle) + 1


# ------------------------------------------------------------------ move


def test_move_top_bottom_lists_and_zones(tmp_path: Path) -> None:
    """`move` puts on top, `bottom` underneath, and moves lists and whole zones card by card."""
    game = build(tmp_path, """
setup {
  move card("t1") to out
  move card("t2") to out
  move card("t3") to out bottom
  move [c for c in box if c.v >= 4] to pile
  set acc = count(pile) * 10 + count(box)
  move pile to hand(last(players))
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert state.is_terminal()
    assert ids(state, "box") == []
    assert ids(state, "out") == ["t3", "t1", "t2"]
    assert ev(state, "top(out)") == cid(state, "t2") and ev(state, "first(out)") == cid(state, "t3")
    assert gv(state, "acc") == 20
    assert ids(state, "pile") == [] and ids(state, "hand[P2]") == ["t4", "t5"]
    for z, zone in enumerate(state.zones):
        for c in zone:
            assert state.where[c] == z


def test_a_family_read_sees_every_move_and_every_undo(tmp_path: Path) -> None:
    """The cards of a zone family, kept between reads, follow each move into or out of the family, the
    order of its zones, and a failed step's undo."""
    body = """
action oops() {
  label "oops"
  move card("t3") to spot[1]
  require count(cards(spot)) == 0
}
setup {
  set n1 = count(cards(spot))
  move card("t2") to spot[2]
  move card("t1") to spot[1]
  set acc = first(cards(spot)).v * 10 + last(cards(spot)).v
  move card("t1") to out
  set n2 = count([c for c in spot])
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): oops
  }
}
score(p) = 0
"""
    state = build(tmp_path, body).new_initial_state()
    assert (gv(state, "n1"), gv(state, "acc"), gv(state, "n2")) == (0, 12, 1)
    assert ev(state, "[c.v for c in cards(spot)]") == [2]
    with pytest.raises(GameRuleError):
        state.apply_label("oops")
    assert ids(state, "spot[1]") == [] and ev(state, "[c.v for c in cards(spot)]") == [2]
    assert ev(state, "[c.v for c in box]") == [3, 4, 5]


def test_a_family_at_a_cards_position(tmp_path: Path) -> None:
    """slot[position(c)] is c's own zone when c lies in the family; elsewhere position(c) counts as
    always (a player's zone by its seat, 0 outside every family), and a number out of range fails."""
    game = build(tmp_path, """
setup {
  move card("t1") to spot[2]
  move card("t2") to hand(last(players))
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    t1, t2, t3 = ({"c": (card("tok"), cid(state, name))} for name in ("t1", "t2", "t3"))
    assert ev(state, "[d.v for d in spot[position(c)]]", t1) == [1]
    assert ev(state, "count(spot[position(c)]) + count(spot[1])", t1) == 1
    assert ev(state, "[d.v for d in spot[position(c)]]", t2) == [1], "t2 lies in hand[P2]: position 2"
    with pytest.raises(GameRuleError, match=r"spot\[0\] does not exist"):
        ev(state, "spot[position(c)]", t3)
    assert ev(state, 'count(spot[position(card("t1"))])') == 1 and ev(state, 'card("t3").v') == 3


def test_a_loop_over_positions_that_reads_only_the_zones(pstate: State) -> None:
    """`… row[i] … for i in positions(row)` runs over row's zones themselves when i is read only as
    row[i]; with i read otherwise (or a key) it runs over the numbers: the same values either way."""
    compile_expr = pstate.game.program.compile_expr
    assert compile_expr is not None
    assert ev(pstate, "[count(row[i]) for i in positions(row)]") == [2, 1, 0]
    assert ev(pstate, "all(count(row[i]) < 3 for i in positions(row) if count(row[i]) > 0)") is True
    assert ev(pstate, "[count(row[i]) + i for i in positions(row)]") == [3, 3, 3]
    assert ev(pstate, "[count(row[i]) for i in positions(row) by -i]") == [0, 1, 2]
    fn, _, _ = compile_expr(expr_node("[count(row[i]) for i in positions(row)]"), {})
    assert "range" not in fn.__code__.co_names  # over the zones: no numbers made


def test_the_first_of_a_sorted_list_is_its_least_without_a_sort(pstate: State) -> None:
    """`first([… by k])` takes the least key's item, the first of equal keys as the stable sort has it, with no sort
    (helpers.least_by); the empty list's error stays first's, and `last` or a longer expression still sorts."""
    compile_expr = pstate.game.program.compile_expr
    assert compile_expr is not None
    assert ev(pstate, "first([i for i in [3, 1, 2, 1] by i])") == 1
    assert ev(pstate, "first([i for i in [21, 12, 11, 22] by i / 10])") == 12  # equal keys: the first one
    assert ev(pstate, "first([i for i in [5, 4, 6] by 0])") == 5
    assert ev(pstate, "first([i for i in [5, 4, 6] by -i])") == 6
    assert ev(pstate, "last([i for i in [3, 1, 2] by i])") == 3
    for src, helper in (("first([i for i in [3, 1] by i])", "_least_by"), ("last([i for i in [3, 1] by i])", "_sorted_by")):
        fn, _, _ = compile_expr(expr_node(src), {})
        assert helper in fn.__code__.co_names, src
    assert not _sorted_whole("_sorted_by([(1, 1)]) + _sorted_by([(2, 2)])")  # only a whole call is rewritten
    with pytest.raises(GameRuleError, match="first"):
        ev(pstate, "first([i for i in [3] if i > 5 by i])")


def test_move_into_a_full_zone_is_a_rules_error(tmp_path: Path) -> None:
    """`capacity 1` refuses a second card."""
    game = build(tmp_path, """
setup {
  move card("t1") to spot[1]
  move card("t2") to spot[2]
  move card("t3") to spot[1]
}
""" + NO_ROUNDS)
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state()
    assert "spot[1]" in str(info.value) and "1" in str(info.value)


# ------------------------------------------------------------------ draw


def test_draw_from_a_shuffled_zone_is_a_chance_node_per_card(tmp_path: Path) -> None:
    """Each drawn card is a chance node over the cards left, one equally likely outcome per card."""
    game = build(tmp_path, """
setup {
  move cards(box) to deck
  draw 2 from deck to out
  set acc = count(out) * 10 + count(deck)
}
""" + NO_ROUNDS)
    state = game.new_initial_state(seed=3)
    assert state.current_player() == CHANCE_PLAYER and state.is_chance_node()
    assert sorted(state.legal_labels()) == ["t1", "t2", "t3", "t4", "t5"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([0.2] * 5)
    state.apply_label("t3")
    assert sorted(state.legal_labels()) == ["t1", "t2", "t4", "t5"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([0.25] * 4)
    state.apply_label("t5")
    assert state.is_terminal()
    assert ids(state, "out") == ["t3", "t5"]
    assert sorted(ids(state, "deck")) == ["t1", "t2", "t4"]
    assert gv(state, "acc") == 23
    assert state.history == ["t3", "t5"]


def test_draw_everything_from_a_shuffled_zone(tmp_path: Path) -> None:
    """Drawing all cards: chance nodes over 5, 4, 3, 2 cards; the last card needs no chance."""
    game = build(tmp_path, """
setup {
  move cards(box) to deck
  draw count(deck) from deck to out
}
""" + NO_ROUNDS)
    state = game.new_initial_state(seed=9)
    sizes = []
    while state.is_chance_node():
        sizes.append(len(state.legal_actions()))
        state.apply_action(state.sample_chance())
    assert sizes == [5, 4, 3, 2]
    assert state.is_terminal() and sorted(ids(state, "out")) == ["t1", "t2", "t3", "t4", "t5"]
    assert ids(state, "out")[:4] == state.history


def test_draw_from_an_ordered_zone_takes_the_top_without_chance(tmp_path: Path) -> None:
    """From an ordered zone `draw n` takes the top n cards, top first, and opens no chance node."""
    game = build(tmp_path, """
setup {
  move card("t1") to pile
  move card("t2") to pile
  move card("t3") to pile
  draw 2 from pile to out
  draw from box to out
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert state.is_terminal() and state.history == []
    assert ids(state, "pile") == ["t1"]
    assert ids(state, "out") == ["t3", "t2", "t5"], "the last listed card lies on top of its starting zone"
    assert ids(state, "box") == ["t4"]


def test_draw_from_an_empty_zone_is_a_rules_error(tmp_path: Path) -> None:
    """There is nothing to draw from an empty zone."""
    game = build(tmp_path, """
setup {
  draw 1 from pile to out
}
""" + NO_ROUNDS)
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state()
    assert "pile" in str(info.value)


# ------------------------------------------------------------------ reveal


def test_reveal_shows_a_card_to_everyone_until_it_moves(tmp_path: Path) -> None:
    """A revealed card in a hidden zone or a hand is seen by all; moving it turns it face down again."""
    game = build(tmp_path, """
setup {
  move card("t1") to pile
  move card("t2") to pile
  move card("t3") to hand(first(players))
  move card("t4") to hand(first(players))
  reveal card("t1")
  reveal [card("t3")]
}
round {
  repeat while round < 1
  phase a {
    let x = choose first(players) from [1]
    move card("t1") to out
    move card("t1") to pile
    let y = choose first(players) from [2]
  }
}
score(p) = 0
""")
    state = game.new_initial_state()
    assert ev(state, 'revealed(card("t1"))') is True and ev(state, 'revealed(card("t2"))') is False
    back = {"kind": "tok"}
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["zones"]["pile"] == ["t1", back]
        assert "revealed t1" in obs["log"] and "revealed t3" in obs["log"]
    assert state.observation(1)["zones"]["hand[P1]"] == ["t3", back]
    assert state.observation(0)["zones"]["hand[P1]"] == ["t3", "t4"]
    state.apply_label("1")
    assert ev(state, 'revealed(card("t1"))') is False
    assert ids(state, "pile") == ["t2", "t1"]
    for seat in (0, 1):
        assert state.observation(seat)["zones"]["pile"] == [back, back]


# ------------------------------------------------------------------ pay


def test_pay_between_players_and_the_bank(tmp_path: Path) -> None:
    """Payments move gold between seats and the bank; `at most available` pays what there is."""
    game = build(tmp_path, """
setup {
  pay 2 gold from first(players) to bank
  pay 3 gold from bank to last(players)
  pay 1 gold from first(players) to last(players)
  pay 9 gold from first(players) to bank at most available
  pay 0 gold from first(players) to bank
  set acc = first(players).gold * 100 + last(players).gold
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert gold(state, 0) == 0 and gold(state, 1) == 9
    assert gv(state, "acc") == 9
    assert gold(state, 0) + gold(state, 1) + bank(state) == 0
    log = state.observation(0)["log"]
    assert "P1 pays 2 gold to the bank" in log and "P1 pays 1 gold to P2" in log
    assert "P1 pays 2 gold to the bank" == log[[i for i, line in enumerate(log) if "pays" in line][-1]]


def test_pay_more_than_available_is_refused(tmp_path: Path) -> None:
    """Without `at most available` an unaffordable payment is a rules error; a `require` keeps it off the options."""
    body = """
action spend(n in [3, 6]) {
  label "spend {n}"
  pay n gold from me to bank
}
action safe(n in [3, 6]) {
  label "safe {n}"
  require me.gold >= n
  pay n gold from me to bank
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): spend, safe
  }
}
score(p) = p.gold
"""
    game = build(tmp_path, body)
    state = game.new_initial_state()
    assert state.legal_labels() == ["spend 3", "spend 6", "safe 3"]
    ok = state.clone()
    ok.apply_label("safe 3")
    assert ok.is_terminal() and ok.scores() == [2, 5]
    with pytest.raises(GameRuleError) as info:
        state.apply_label("spend 6")
    message = str(info.value)
    assert "P1" in message and "6" in message and "5" in message and "gold" in message, message


def test_a_payment_from_or_to_a_seat_tests_no_bank_side(tmp_path: Path) -> None:
    """A side that reads a name holding a seat (`me`, a turn's player) is never the bank: its row is read at once
    (blocks.pay `seats`); another player value (`next(me)`) may be the bank (-1), so it is tested."""
    from interpreter.compile.blocks import pay
    lines = pay("2", "L[0]", "L[1]", 0, 0, "gold", False, seats=(True, False)).lines
    assert "if _b_s >= 0:" not in lines and "if _b_d >= 0:" in lines and "_b_r = st.pvars[_b_s]" in lines
    game = build(tmp_path, """
action give_on(n in [1, 2]) {
  label "give on {n}"
  pay n gold from me to next(me)
  pay 1 gold from next(me) to me
}
round {
  repeat while round < 2
  phase a {
    turns p from first(players) until round > 9 skip when round > 1 {
      choose action for p: give_on
    }
  }
}
score(p) = p.gold
""")
    code = game.actions[0][2].__code__
    assert [i.argval for i in dis.get_instructions(code) if i.opname == "COMPARE_OP"].count(">=") == 2
    state = game.new_initial_state()
    state.apply_label("give on 2")
    assert [gold(state, 0), gold(state, 1)] == [4, 6]


def test_a_payment_between_the_bank_and_a_side_that_may_be_the_bank_tests_that_side_once(tmp_path: Path) -> None:
    """A payment from a player value to the bank, or from the bank to one, tests once whether that side is a seat
    (blocks.pay): only then does gold move, the bank paying itself changes nothing."""
    from interpreter.compile.blocks import pay
    for payer, payee, side in (("L[0]", None, "_b_s"), (None, "L[1]", "_b_d")):
        lines = pay("2", payer, payee, 0, 0, "gold", False).lines
        assert lines.count(f"if {side} >= 0:") == 1 and "else:" not in lines
    game = build(tmp_path, """
setup {
  give first(cards(box)) to last(players)
  pay 2 gold from owner(first(cards(box))) to bank
  pay 1 gold from owner(last(cards(box))) to bank at most available
  pay 3 gold from bank to owner(first(cards(box)))
  pay 4 gold from bank to owner(last(cards(box)))
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert [gold(state, 0), gold(state, 1), bank(state)] == [5, 6, -11]  # the bank gave out 5 a seat at the start
    log = state.observation(0)["log"]
    assert "P2 pays 2 gold to the bank" in log and "the bank pays 3 gold to P2" in log, log


def test_negative_payment_is_a_rules_error(tmp_path: Path) -> None:
    """A payment of a negative amount is refused (pay the other way instead)."""
    game = build(tmp_path, """
setup {
  pay 0 - 2 gold from first(players) to bank
}
""" + NO_ROUNDS)
    with pytest.raises(GameRuleError):
        game.new_initial_state()


# ------------------------------------------------------------------ give


def test_give_sets_the_owner_and_owner_zones_follow_it(tmp_path: Path) -> None:
    """`give` makes a seat the owner; in a shared `owner` zone each card is seen by its owner only."""
    game = build(tmp_path, """
setup {
  give card("t1") to last(players)
  give [card("t2"), card("t3")] to first(players)
  move card("t1") to mine
  move card("t2") to mine
}
round {
  repeat while round < 1
  phase a {
    let x = choose first(players) from [1]
    give card("t2") to last(players)
    let y = choose first(players) from [2]
  }
}
score(p) = count(c for c in mine if owner(c) == p)
""", players=3)
    state = game.new_initial_state()
    assert ev(state, 'owner(card("t1")) == last(players)') is True
    assert ev(state, 'owner(card("t3")) == first(players)') is True
    assert state.owner[cid(state, "t4")] == -1
    back = {"kind": "tok"}
    assert state.observation(0)["zones"]["mine"] == [back, "t2"]
    assert state.observation(2)["zones"]["mine"] == ["t1", back]
    assert state.observation(1)["zones"]["mine"] == [back, back]
    state.apply_label("1")
    assert ev(state, 'owner(card("t2")) == last(players)') is True
    assert state.observation(2)["zones"]["mine"] == ["t1", "t2"]
    state.apply_label("2")
    assert state.scores() == [0, 0, 2]


def test_a_move_logs_the_seats_that_see_it_go(tmp_path: Path) -> None:
    """Each move's log entry names the seats that see the card in its old or new zone (an `owner` zone: the
    card's owner, if any), all seats for a face-up card and the seats it was shown to (blocks.card_move)."""
    game = build(tmp_path, """
setup {
  give card("t1") to last(players)
  move card("t1") to pile
  move card("t1") to mine
  move card("t2") to mine
  move card("t2") to pile
  reveal card("t1") to first(players)
  move card("t1") to pile
  move card("t3") to pile
  reveal card("t3")
  move card("t3") to deck
  move card("t4") to hand(last(players))
  move card("t4") to pile
}
""" + NO_ROUNDS, players=3)
    state = game.new_initial_state()
    assert [e[4] for e in state.log if e[0] == L_MOVE] == [0b111, 0b100, 0b111, 0, 0b101, 0b111, 0b111, 0b111, 0b100]
    assert not any(state.face_up) and not any(state.known)


# ------------------------------------------------------------------ control flow


def test_if_else_if_else(tmp_path: Path) -> None:
    """Exactly one branch runs, in order of the conditions."""
    game = build(tmp_path, """
setup {
  for k in [1, 2, 3, 2] {
    if k == 1 {
      set acc = acc * 10 + 7
    } else if k == 2 {
      set acc = acc * 10 + 8
    } else {
      set acc = acc * 10 + 9
    }
  }
  if false { set got = 1 }
  if true { set n1 = 1 } else { set n1 = 2 }
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert (gv(state, "acc"), gv(state, "got"), gv(state, "n1")) == (7898, 0, 1)


def test_for_while_repeat(tmp_path: Path) -> None:
    """`for` walks a copy of its list or zone (safe to move cards out), `while` and `repeat` count."""
    game = build(tmp_path, """
setup {
  move card("t1") to pile
  move card("t2") to pile
  move card("t3") to pile
  for c in pile {
    move c to out
    set acc = acc * 10 + c.v
  }
  while got < 5 {
    set got = got + 2
  }
  repeat 3 {
    set n1 = n1 + 1
  }
  repeat count(pile) {
    set n2 = 99
  }
  for p in players {
    pay 1 gold from p to bank
  }
}
""" + NO_ROUNDS, players=3)
    state = game.new_initial_state()
    assert ids(state, "out") == ["t1", "t2", "t3"] and ids(state, "pile") == []
    assert gv(state, "acc") == 123
    assert gv(state, "got") == 6
    assert gv(state, "n1") == 3 and gv(state, "n2") == 0
    assert [gold(state, p) for p in range(3)] == [4, 4, 4]


def test_break_leaves_the_innermost_loop(tmp_path: Path) -> None:
    """`break` ends only the loop it is in, for `for`, `while` and `repeat`."""
    game = build(tmp_path, """
setup {
  for i in [1, 2, 3] {
    for j in [1, 2, 3] {
      if j == 2 {
        break
      }
      set acc = acc * 10 + j
    }
    set got = got * 10 + i
  }
  while true {
    set n1 = n1 + 1
    if n1 == 4 {
      break
    }
  }
  repeat 10 {
    if n2 == 2 {
      break
    }
    set n2 = n2 + 1
  }
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert (gv(state, "acc"), gv(state, "got"), gv(state, "n1"), gv(state, "n2")) == (111, 123, 4, 2)


def test_decisions_inside_loops_survive_save_and_load(tmp_path: Path) -> None:
    """A loop stopped at a decision resumes at the right iteration, also from a saved copy."""
    game = build(tmp_path, """
setup {
  for k in [1, 2, 3] {
    let x = choose first(players) from [k, k * 10]
    set acc = acc + x
  }
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        seen.append(state.legal_labels())
        state = game.state_from_json(state.to_json())
        state.apply_action(len(seen) % 2)
    assert seen == [["1", "10"], ["2", "20"], ["3", "30"]]
    assert gv(state, "acc") == 10 + 2 + 30


# ------------------------------------------------------------------ turns


TURNS = """
action pass(x in [me]) {
  label "pass {x}"
  set got = got + 1
}
round {
  repeat while round < 1
  phase a {
    turns p from next(first(players)) until got >= 5 skip when p == last(players) {
      choose action for p: pass
    }
  }
}
score(p) = 0
"""


def test_turns_go_round_the_table_and_skip(tmp_path: Path) -> None:
    """Turns start at the given seat, go clockwise, wrap around, pass over skipped seats, stop when done."""
    game = build(tmp_path, TURNS, players=4)
    state = game.new_initial_state()
    order = []
    while not state.is_terminal():
        order.append(state.current_player())
        assert state.legal_labels() == [f"pass P{state.current_player() + 1}"]
        state.apply_action(0)
    assert order == [1, 2, 0, 1, 2]
    assert gv(state, "got") == 5


def test_turns_that_are_already_done_give_no_turn(tmp_path: Path) -> None:
    """`until` is checked before the first turn."""
    game = build(tmp_path, TURNS.replace("until got >= 5", "until got >= 0"), players=3)
    state = game.new_initial_state()
    assert state.is_terminal() and gv(state, "got") == 0


def test_turns_where_everyone_is_skipped_are_a_rules_error(tmp_path: Path) -> None:
    """A full circle of skipped seats while the turns are not done is a rules error."""
    game = build(tmp_path, TURNS.replace("skip when p == last(players)", "skip when true"), players=3)
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state()
    assert "skip" in str(info.value)


# ------------------------------------------------------------------ choose action, require, forbid


CHOOSE = """
action take(c in box, n in [1, 2]) {
  label "take {c} x{n}"
  require c.v >= 3
  require n == 1 or c.v == 5
  move c to hand(me)
  set got = got + n
}
action rest(x in [me]) {
  label "rest {x}"
}
"""


def test_choose_action_offers_every_binding_that_passes_its_requires(tmp_path: Path) -> None:
    """Options: every parameter combination in domain order, filtered by `require`; any seat may be asked."""
    game = build(tmp_path, CHOOSE + """
round {
  repeat while round < 1
  phase a {
    choose action for last(players): take, rest
    choose action for first(players): take, rest
  }
}
score(p) = count(hand(p))
""", players=3)
    state = game.new_initial_state()
    assert state.current_player() == 2
    assert state.legal_labels() == ["take t3 x1", "take t4 x1", "take t5 x1", "take t5 x2", "rest P3"]
    state.apply_label("take t5 x2")
    assert ids(state, "hand[P3]") == ["t5"] and gv(state, "got") == 2
    assert state.current_player() == 0
    assert state.legal_labels() == ["take t3 x1", "take t4 x1", "rest P1"]
    state.apply_label("take t3 x1")
    assert state.is_terminal() and state.scores() == [1, 0, 1]
    assert state.history == ["take t5 x2", "take t3 x1"]


def test_random_agents_counting_the_first_actions_options_pick_as_from_the_list(tmp_path: Path) -> None:
    """A choose action whose first action has one parameter and no guard that reads it (counted_first): a plain
    random agent inside the run counts that action's options and builds only the one it draws (compiler.
    _option_picker), the pick it would make from the listed options; with no option at all it fails alike."""
    game = build(tmp_path, CHOOSE + """
action keep(c in hand(me)) {
  label "keep {c}"
  move c to box
}
round {
  repeat while round < 4
  phase a {
    choose action for last(players): keep, take, rest
    choose action for last(players): keep
  }
}
score(p) = count(hand(p))
""")
    failures: list[str] = []
    for seed in range(8):
        inside, outside = game.new_initial_state(seed), game.new_initial_state(seed)
        failed = stepped = None
        try:
            play_bots(inside, [RandomAgent(seed * 10 + seat) for seat in range(2)])
        except GameRuleError as exc:
            failed = str(exc)
        agents = [RandomAgent(seed * 10 + seat) for seat in range(2)]
        try:
            while not outside.is_terminal():
                outside.advance(outside.sample_chance() if outside.is_chance_node()
                                else agents[outside.current_player()].act(outside))
        except GameRuleError as exc:
            stepped = str(exc)
        assert outside.history == inside.history and stepped == failed
        failures += [failed] if failed is not None else []
    assert 0 < len(failures) < 8 and all("P2 has no legal action (keep)" in f for f in failures)


def test_random_agents_counting_options_list_them_while_a_forbid_is_active(tmp_path: Path) -> None:
    """While a `forbid` is active, a plain random agent inside the run picks from the listed options, which the forbid
    has filtered (blocks.choose_action), not from the counted ones (compiler._option_picker counts every binding of
    the first action): the same game as stepping from outside, where a forbidden option is not legal."""
    game = build(tmp_path, """
action grab(t in box) {
  label "grab {t}"
  move t to out
}
action add(n in [1, 2, 3]) {
  label "add {n}"
  set acc = acc + n
}
round {
  repeat while round < 6
  phase a {
    if round % 2 == 0 {
      forbid grab where t.v >= 3 until end of round
      forbid add where n >= 2 until end of round
    }
    choose action for first(players): grab, add
    choose action for last(players): add, grab
    choose action for first(players): add
  }
}
score(p) = acc
""")
    forbidden = {"grab t3", "grab t4", "grab t5", "add 2", "add 3"}
    for seed in range(8):
        inside, outside = game.new_initial_state(seed), game.new_initial_state(seed)
        play_bots(inside, [RandomAgent(seed * 10 + seat) for seat in range(2)])
        agents = [RandomAgent(seed * 10 + seat) for seat in range(2)]
        while not outside.is_terminal():
            if outside.round % 2 == 0:
                assert not forbidden & set(outside.legal_labels())
            outside.advance(agents[outside.current_player()].act(outside))
        assert inside.history == outside.history


def test_decision_inside_an_action_survives_save_and_load(tmp_path: Path) -> None:
    """An action that asks a further question stops mid-action; a saved copy finishes it identically."""
    game = build(tmp_path, """
action trade(c in box) {
  label "trade {c}"
  require c.v >= 4
  move c to hand(me)
  let n = choose next(me) from [1, 2]
  pay n gold from me to next(me)
  set got = c.v * 10 + n
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): trade
    set acc = 1
  }
}
score(p) = p.gold
""")
    state = game.new_initial_state()
    assert state.legal_labels() == ["trade t4", "trade t5"]
    state.apply_label("trade t5")
    assert state.current_player() == 1 and state.legal_labels() == ["1", "2"]
    assert ids(state, "hand[P1]") == ["t5"] and gv(state, "acc") == 0
    restored = game.state_from_json(state.to_json())
    clone = state.clone()
    for copy in (state, restored, clone):
        copy.apply_label("2")
        assert copy.is_terminal() and copy.scores() == [3, 7]
        assert (gv(copy, "got"), gv(copy, "acc")) == (52, 1)
    assert restored.to_json() == state.to_json() == clone.to_json()


def test_forbid_removes_options_until_its_end(tmp_path: Path) -> None:
    """`forbid … where` hides matching options until the end of the phase or round it names."""
    game = build(tmp_path, CHOOSE + """
round {
  repeat while round < 2
  phase a {
    if round == 1 {
      forbid take where c.v == 4 until end of round
      forbid take where c.v == 3 until end of phase
      forbid rest where me == last(players) until end of round
    }
    choose action for first(players): take, rest
  }
  phase b {
    choose action for first(players): take, rest
    choose action for last(players): take, rest
  }
}
score(p) = 0
""")
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        seen.append((state.round, state.phase, state.current_player(), state.legal_labels()))
        state.apply_label(state.legal_labels()[-1] if state.legal_labels()[-1].startswith("rest") else "take t5 x1")
    assert seen == [
        (1, "a", 0, ["take t5 x1", "take t5 x2", "rest P1"]),
        (1, "b", 0, ["take t3 x1", "take t5 x1", "take t5 x2", "rest P1"]),
        (1, "b", 1, ["take t3 x1", "take t5 x1", "take t5 x2"]),
        (2, "a", 0, ["take t3 x1", "take t4 x1", "rest P1"]),
        (2, "b", 0, ["take t3 x1", "take t4 x1", "rest P1"]),
        (2, "b", 1, ["take t3 x1", "take t4 x1", "rest P2"]),
    ]


def test_a_decision_without_options_is_a_rules_error(tmp_path: Path) -> None:
    """If no option passes the requires, the engine says so (naming seat and actions) instead of hanging."""
    game = build(tmp_path, CHOOSE.split("action rest")[0] + """
setup {
  move cards(box) to out
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): take
  }
}
score(p) = 0
""")
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state()
    assert "take" in str(info.value) and "P1" in str(info.value)


def test_require_after_an_effect_is_an_assertion(tmp_path: Path) -> None:
    """A `require` after the first effect statement is checked when it runs and fails with its place."""
    body = """
action oops() {
  label "oops"
  set got = 1
  require got == 2
}
round {
  repeat while round < 1
  phase a {
    choose action for first(players): oops
  }
}
score(p) = 0
"""
    game = build(tmp_path, body)
    state = game.new_initial_state()
    assert state.legal_labels() == ["oops"]
    with pytest.raises(GameRuleError) as info:
        state.apply_label("oops")
    assert f":{line_in(body, '  require got == 2')}" in str(info.value)


# ------------------------------------------------------------------ let choose, let random


def test_let_choose_and_let_random(tmp_path: Path) -> None:
    """`choose P from` asks seat P with value labels; `random` is a uniform chance node; one value is no node."""
    game = build(tmp_path, """
round {
  repeat while round < 1
  phase a {
    let x = choose last(players) from [3, 1, 2]
    let y = random [4, 5, 6]
    let z = random [7]
    let c = choose first(players) from box
    let who = random players
    let ok = choose who from [true, false]
    set acc = x * 100 + y * 10 + z
    set got = c.v
    if ok {
      set n1 = 1
    }
  }
}
score(p) = 0
""", players=3)
    state = game.new_initial_state(seed=1)
    assert state.current_player() == 2 and state.legal_labels() == ["3", "1", "2"]
    state.apply_label("1")
    assert state.is_chance_node() and state.legal_labels() == ["4", "5", "6"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_label("6")
    assert state.current_player() == 0 and state.legal_labels() == ["t1", "t2", "t3", "t4", "t5"]
    state.apply_label("t4")
    assert state.is_chance_node() and state.legal_labels() == ["P1", "P2", "P3"]
    state.apply_label("P2")
    assert state.current_player() == 1 and state.legal_labels() == ["yes", "no"]
    state.apply_label("yes")
    assert state.is_terminal()
    assert (gv(state, "acc"), gv(state, "got"), gv(state, "n1")) == (167, 4, 1)
    assert state.history == ["1", "6", "t4", "P2", "yes"]


def test_let_random_repeated_values_are_separate_outcomes(tmp_path: Path) -> None:
    """A die `random [2, 3, 3]`: three equally likely outcomes, the repeated one labelled `3 #2`."""
    game = build(tmp_path, """
round {
  repeat while round < 1
  phase a {
    let y = random [2, 3, 3]
    set acc = y
  }
}
score(p) = 0
""")
    state = game.new_initial_state()
    assert state.legal_labels() == ["2", "3", "3 #2"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_label("3 #2")
    assert gv(state, "acc") == 3


def test_let_choose_offers_distinct_values(tmp_path: Path) -> None:
    """LANGUAGE.md 1.13: `let x = choose P from LIST` offers the distinct values of the list."""
    game = build(tmp_path, """
round {
  repeat while round < 1
  phase a {
    let x = choose first(players) from [1, 1, 2]
    set acc = x
  }
}
score(p) = 0
""")
    state = game.new_initial_state()
    assert state.legal_labels() == ["1", "2"]
    state.apply_label("2")
    assert gv(state, "acc") == 2


# ------------------------------------------------------------------ modify


def test_modify_by_and_to_with_where_until_phase_round_game(tmp_path: Path) -> None:
    """Modifiers apply in creation order when a value is read, and end with their phase, round or never."""
    game = build(tmp_path, """
round {
  repeat while round < 2
  phase a {
    if round == 1 {
      modify tok.w by 5 where it.v >= 4 until end of round
      modify tok.w to 1 where it.v == 5 until end of phase
      modify tok.w by 1000 until end of game
    }
    let s = choose first(players) from [1]
  }
  phase b {
    let s = choose first(players) from [2]
  }
}
score(p) = 0
""")
    state = game.new_initial_state()

    def w() -> list[int]:
        return [ev(state, f'card("t{v}").w') for v in range(1, 6)]

    assert w() == [1010, 1020, 1030, 1045, 1001]
    restored = game.state_from_json(state.to_json())
    assert [ev(restored, f'card("t{v}").w') for v in range(1, 6)] == [1010, 1020, 1030, 1045, 1001]
    state.apply_action(0)
    assert (state.round, state.phase) == (1, "b")
    assert w() == [1010, 1020, 1030, 1045, 1055]
    state.apply_action(0)
    assert (state.round, state.phase) == (2, "a")
    assert w() == [1010, 1020, 1030, 1040, 1050]
    assert ev(state, 'card("t5").v') == 5
    assert state.game.card_vals[cid(state, "t5")][1] == 50, "a modifier must not change the printed value"


def test_modify_until_end_of_turn(tmp_path: Path) -> None:
    """A turn-long modifier holds for the rest of that turn only."""
    game = build(tmp_path, """
action boost() {
  label "boost"
  modify tok.w by 100 where it.v == 1 until end of turn
}
round {
  repeat while round < 1
  phase a {
    turns p from first(players) until got >= 2 {
      choose action for p: boost
      let k = choose p from [1]
      set got = got + 1
    }
  }
}
score(p) = 0
""")
    state = game.new_initial_state()
    assert ev(state, 'card("t1").w') == 10
    state.apply_label("boost")
    assert state.current_player() == 0 and ev(state, 'card("t1").w') == 110
    state.apply_label("1")
    assert state.current_player() == 1 and ev(state, 'card("t1").w') == 10
    state.apply_label("boost")
    assert ev(state, 'card("t1").w') == 110
    state.apply_label("1")
    assert state.is_terminal() and ev(state, 'card("t1").w') == 10


# ------------------------------------------------------------------ call, run, emit, end


def test_call_rule_with_arguments_and_recursion(tmp_path: Path) -> None:
    """`call` passes arguments by position; rules may call themselves and may stop at decisions."""
    game = build(tmp_path, """
rule add(n: int, p: player) {
  set acc = acc * 10 + n
  pay n gold from bank to p
}
rule countdown(n: int) {
  if n > 0 {
    set got = got * 10 + n
    call countdown(n - 1)
  }
}
rule ask(p: player, base: int) {
  let x = choose p from [base, base + 1]
  set n1 = n1 * 10 + x
}
setup {
  call add(3, last(players))
  call add(4, first(players))
  call countdown(3)
  call ask(last(players), 1)
  call ask(first(players), 5)
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert gv(state, "acc") == 34 and gold(state, 0) == 9 and gold(state, 1) == 8
    assert gv(state, "got") == 321
    assert state.current_player() == 1 and state.legal_labels() == ["1", "2"]
    state.apply_label("2")
    assert state.current_player() == 0 and state.legal_labels() == ["5", "6"]
    state.apply_label("5")
    assert state.is_terminal() and gv(state, "n1") == 25


EFFECTS = """
kind spell {
  field power: int
  field effect: effect
}
zone spells of spell public
zone used of spell public
cards spell in spells {
  card zap {
    power = 3
    effect {
      set acc = acc * 10 + 3
      move card("zap") to used
    }
  }
  card ask {
    power = 2
    effect {
      let x = choose first(players) from [7, 8]
      set got = x
    }
  }
  card dud {
    power = 1
  }
}
"""


def test_run_card_effect(tmp_path: Path) -> None:
    """`run c.effect` runs the card's block; a card without one does nothing; effects may ask decisions."""
    game = build(tmp_path, EFFECTS + """
setup {
  run card("zap").effect
  run card("dud").effect
  run card("zap").effect
  run card("ask").effect
  set n1 = 1
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert gv(state, "acc") == 33 and ids(state, "used") == ["zap"]
    assert state.legal_labels() == ["7", "8"] and gv(state, "n1") == 0
    restored = game.state_from_json(state.to_json())
    restored.apply_label("8")
    assert restored.is_terminal() and gv(restored, "got") == 8 and gv(restored, "n1") == 1


def test_effect_sees_self(tmp_path: Path) -> None:
    """LANGUAGE.md 1.15: `run c.effect` runs the effect with `self` = c."""
    game = build(tmp_path, """
kind spell {
  field power: int
  field effect: effect
}
zone spells of spell public
cards spell in spells {
  card zap {
    power = 3
    effect {
      set acc = acc + self.power
    }
  }
}
setup {
  run card("zap").effect
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert gv(state, "acc") == 3


def test_emit_runs_matching_triggers_at_once_in_order(tmp_path: Path) -> None:
    """Triggers whose `where` holds run immediately, in definition order; triggers may emit in turn."""
    game = build(tmp_path, """
when scored(n) where n > 1 {
  set acc = acc * 10 + n
}
when scored(n) {
  set got = got + n
}
when ping(k) {
  set n1 = n1 * 10 + 1
}
when ping(k) {
  set n1 = n1 * 10 + k
}
when chain(k) where k > 0 {
  set n2 = n2 + 1
  emit chain(k - 1)
}
setup {
  emit scored(1)
  emit scored(2)
  emit scored(3)
  emit ping(2)
  set n1 = n1 * 10 + 3
  emit chain(20)
}
""" + NO_ROUNDS)
    state = game.new_initial_state()
    assert gv(state, "acc") == 23 and gv(state, "got") == 6
    assert gv(state, "n1") == 123
    assert gv(state, "n2") == 20


def test_engine_events_round_start_and_moved(tmp_path: Path) -> None:
    """The engine fires `round_start` before each round and `moved(c, from, to)` after each move."""
    game = build(tmp_path, """
when round_start {
  set acc = acc + 1
}
when moved(c, origin, dest) where dest == out {
  set got = got + 1
}
when moved(c, origin, dest) where c == card("t3") and origin != dest {
  set n1 = n1 + 1
}
setup {
  move card("t2") to out
  move card("t3") to pile
  draw from pile to out
}
round {
  repeat while round < 3
  phase a { }
}
score(p) = 0
""")
    state = game.new_initial_state()
    assert state.is_terminal()
    assert gv(state, "acc") == 3
    assert gv(state, "got") == 2, "two moves ended in out"
    assert gv(state, "n1") == 2, "t3 moved twice"


def test_end_game_ends_at_once(tmp_path: Path) -> None:
    """`end game` stops everything, mid-phase or mid-action, and scores the game."""
    game = build(tmp_path, """
round {
  repeat while true
  phase a {
    set acc = acc + 1
    if acc == 3 {
      end game
    }
    set got = got + 1
  }
}
score(p) = got
""")
    state = game.new_initial_state()
    assert state.is_terminal() and state.round == 3
    assert (gv(state, "acc"), gv(state, "got")) == (3, 2)
    assert state.returns() == [1.0, 1.0] and state.scores() == [2, 2]


def test_end_game_from_inside_an_action(tmp_path: Path) -> None:
    """Ending inside an action skips the rest of the action and of the turn."""
    game = build(tmp_path, """
action go() {
  label "go"
  set got = got + 1
}
action stop() {
  label "stop"
  end game
  set got = 99
}
round {
  repeat while true
  phase a {
    turns p from first(players) until false {
      choose action for p: go, stop
      set acc = acc + 1
    }
  }
}
score(p) = if p == first(players) then got else 0
""")
    state = game.new_initial_state()
    for label in ("go", "go", "stop"):
        state.apply_label(label)
    assert state.is_terminal() and state.legal_actions() == []
    assert (gv(state, "got"), gv(state, "acc")) == (2, 2)
    assert state.scores() == [2, 0] and state.returns() == [1.0, 0.0]
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


def test_end_game_from_a_rule_inside_an_action_played_by_bots(tmp_path: Path) -> None:
    """A game ended two frames up (a rule an action calls) ends the runners below it too, whether bots play inside
    the run (the runners nested) or each decision is applied from outside (fails if a runner goes on after it)."""
    game = build(tmp_path, """
rule finish() {
  end game
  set got = 99
}
action go() {
  label "go"
  set got = got + 1
  if got == 3 {
    call finish()
  }
  set acc = acc + 1
}
round {
  repeat while true
  phase a {
    turns p from first(players) until false {
      choose action for p: go
    }
  }
}
score(p) = got
""")
    inside, outside = game.new_initial_state(1), game.new_initial_state(1)
    play_bots(inside, [RandomAgent(seat) for seat in range(2)])
    while not outside.is_terminal():
        outside.apply_action(0)
    for state in (inside, outside):
        assert state.is_terminal() and (gv(state, "got"), gv(state, "acc")) == (3, 2)


# ------------------------------------------------------------------ expressions


def test_arithmetic_and_list_indexing(pstate: State) -> None:
    """LANGUAGE.md 1.22: `/` rounds down, `%` is its remainder, lists index from 0, zone families from 1."""
    assert ev(pstate, "7 / 2") == 3 and ev(pstate, "-7 / 2") == -4
    assert ev(pstate, "7 % 2") == 1 and ev(pstate, "-7 % 2") == 1
    assert ev(pstate, "if 1 < 2 then 5 else 6") == 5
    assert ev(pstate, "{3: 6, 4: 8}[4]") == 8
    assert ev(pstate, "count(row[1])") == 2
    assert ev(pstate, "[10, 20, 30][0]") == 10
    assert ev(pstate, "[10, 20, 30][2]") == 30
    with pytest.raises(GameRuleError):
        ev(pstate, "1 / 0")
