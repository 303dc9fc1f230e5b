"""The fixed action catalogue of a game: every move it can ever offer has a stable integer id, so a learning
agent can use one output per move. Ids are mixed-radix numbers over per-type universes (LANGUAGE.md §3)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from dsl import ast as A
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.ops import Fmt, formatter

if TYPE_CHECKING:
    from interpreter.compile.types import T
    from interpreter.runtime.game import Game
    from interpreter.runtime.state import State

@dataclass
class Segment:
    """A block of consecutive ids: one action over its parameters, or one node kind over one value type."""

    name: str
    offset: int
    universes: list[list[Any]]  # per parameter: its catalogued values, in id order
    index: list[dict[Any, int]]
    formats: list[Fmt]
    size: int


class Catalogue:
    def __init__(self, game: "Game") -> None:
        self.game = game
        prog = game.program
        self.segments: list[Segment] = []
        for action in prog.actions:
            self._add(action.name, [self._universe(t, dom) for (_, _, t), dom in
                                    zip(action.params, [p.domain for p in action.ast.params])],
                      list(action.formats))
        self.node_segment: dict[tuple[str, T], int] = {}
        merged: dict[tuple[str, T], list[Any]] = {}
        for kind, t, dom in prog.node_types.values():
            values = self._universe(t, dom)
            merged[(kind, t)] = sorted(set(merged.get((kind, t), [])) | set(values)) if t.name == "int" else values
        for key in sorted(merged, key=lambda k: (k[0], str(k[1]))):
            self.node_segment[key] = len(self.segments)
            self._add(f"{key[0]} {key[1]}", [merged[key]], [formatter(key[1])])
        self.size = self._end()

    def _add(self, name: str, universes: list[list[Any]], formats: list[Fmt]) -> None:
        size = 1
        for u in universes:
            size *= len(u)
        self.segments.append(Segment(name, self._end(), universes, [{v: i for i, v in enumerate(u)} for u in universes],
                                     formats, size))

    def _end(self) -> int:
        """The first id after the segments so far."""
        return self.segments[-1].offset + self.segments[-1].size if self.segments else 0

    def _universe(self, t: T, domain: Optional[A.Expr]) -> list[Any]:
        """Every value of type t a move can carry; ints as far as the domain shows them, else the fallback
        0 … int_bound. Text, lists and maps have none: a move carrying one has no id (a GameRuleError)."""
        game = self.game
        prog = game.program
        if t.name == "card":
            return [c for c, kind in enumerate(prog.card_kind) if not t.arg or kind == t.arg]
        if t.name == "player":
            return list(game.players)
        if t.name == "bool":
            return [False, True]
        if t.name == "enum":
            return list(prog.enums[t.arg])
        if t.name == "zone":
            return list(range(len(game.zone_names)))
        if t.name == "int":
            ints = _literal_ints(domain, game)
            return ints if ints is not None else list(range(self.int_bound() + 1))
        return []

    def int_bound(self) -> int:
        """The fallback top of an int universe: the most cards, zones or players the game has, whichever is more."""
        return max(len(self.game.card_ids), len(self.game.zone_names), self.game.num_players)

    def encode(self, seg: int, values: tuple[Any, ...], what: str) -> int:
        """The id of one move; a GameRuleError names the move whose value the catalogue lacks."""
        segment = self.segments[seg]
        n = 0
        for u, index, fmt, v in zip(segment.universes, segment.index, segment.formats, values):
            i = index.get(v) if isinstance(v, (int, str)) else None
            if i is None or type(u[i]) is not type(v):
                raise GameRuleError(f"{what}: the value {v!r} has no id in the action catalogue "
                                    f"({len(u)} catalogued values; LANGUAGE.md §3)")
            n = n * len(u) + i
        return segment.offset + n

    def decode(self, action_id: int) -> tuple[int, tuple[Any, ...]]:
        """The segment and values of an id in 0 … size - 1."""
        seg = max(i for i, s in enumerate(self.segments) if s.offset <= action_id and s.size)
        segment = self.segments[seg]
        n = action_id - segment.offset
        values: list[Any] = []
        for u in reversed(segment.universes):
            n, i = divmod(n, len(u))
            values.append(u[i])
        return seg, tuple(reversed(values))

    def to_string(self, st: Any, action_id: int, me: str) -> str:
        """A readable string for an id: an action's label (`{me}` as given), or a node's value as a label."""
        seg, values = self.decode(action_id)
        prog = self.game.program
        if seg < len(prog.actions):
            action = prog.actions[seg]
            return str(action.label.format(me=me, **{p[0]: fmt(st, v) for p, fmt, v in
                                                     zip(action.params, action.formats, values)}))
        segment = self.segments[seg]
        return f"{segment.name.split()[0]} {segment.formats[0](st, values[0])}"

    def node_ids(self, st: "State") -> list[int]:
        """The id of each option of the open node, in option order."""
        pending = st.pending
        assert pending is not None
        kind, _, _, values, slot = pending
        if slot < 0:
            return [self.encode(v[0], v[1:], f"action '{self.game.program.actions[v[0]].name}'") for v in values]
        node, t, _ = st.open_node_type()
        seg = self.node_segment[(node, t)]
        return [self.encode(seg, (v,), f"a {node} of {t}") for v in values]


def _literal_ints(domain: Optional[A.Expr], game: "Game") -> Optional[list[int]]:
    """The ints a domain can yield when it says so plainly: positions(family), range of two numbers, a list
    of numbers; None otherwise."""
    if isinstance(domain, A.Call) and domain.func == "positions" and len(domain.args) == 1 \
            and isinstance(domain.args[0], A.Name) and domain.args[0].name in game.program.zone_by_name:
        return list(range(1, len(game.fam_zones[game.program.zone_by_name[domain.args[0].name].family_id]) + 1))
    if isinstance(domain, A.Call) and domain.func == "range" and len(domain.args) == 2 \
            and all(isinstance(a, A.Num) for a in domain.args):
        lo, hi = (a.value for a in domain.args if isinstance(a, A.Num))
        return list(range(lo, hi + 1))
    if isinstance(domain, A.ListLit) and all(isinstance(a, A.Num) for a in domain.items):
        return sorted({a.value for a in domain.items if isinstance(a, A.Num)})
    return None

