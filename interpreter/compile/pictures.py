"""A `picture`'s values for one player count, computed like constants and checked, so that a picture
naming a node without a position, or lists that do not pair up, is a located load error."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from dsl import ast as A
from dsl.errors import RulesError, error_at
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game, _Probe

Point = tuple[float, float]


@dataclass
class Board:
    """What a picture draws: node positions in the order given, edges and node classes with the entry
    that styles them, labels by node."""

    positions: dict[Any, Point]
    edges: list[tuple[A.PictureEntry, list[tuple[Any, Any]]]] = field(default_factory=list)
    classes: list[tuple[A.PictureEntry, list[Any]]] = field(default_factory=list)
    labels: dict[Any, Any] = field(default_factory=dict)
    others: Optional[A.PictureEntry] = None

    def class_of(self, node: Any) -> Optional[A.PictureEntry]:
        """The last `nodes` entry listing the node (later entries draw over earlier ones), else `others`."""
        found = self.others
        for entry, nodes in self.classes:
            if node in nodes:
                found = entry
        return found


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _point(entry: A.PictureEntry, node: Any, value: Any) -> Point:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in value)):
        raise error_at(entry.pos, f"the position of node {_show(node)} is {_show(value)}, not [x, y]",
                       "each position is a list of two whole numbers")
    return float(value[0]), float(value[1])


def _paired(entry: A.PictureEntry, value: Any, nodes: list[Any], what: str) -> list[tuple[Any, Any]]:
    """The items of a list with the nodes they belong to; both lists must be equally long."""
    if not isinstance(value, list):
        raise error_at(entry.pos, f"`{entry.what}` needs a list of {what} here, not {_show(value)}")
    if len(value) != len(nodes):
        raise error_at(entry.pos, f"`{entry.what}` lists {len(value)} {what} for {len(nodes)} nodes",
                       f"give one per node, or a map {{node: {what[:-1]}}}")
    return list(zip(nodes, value))


def _positions(entry: A.PictureEntry, value: Any, of: Any) -> dict[Any, Point]:
    """A map node → [x, y]; a list of [x, y] for the nodes 1, 2, 3, … (as zone families count), or for
    the nodes listed after `of`."""
    if isinstance(value, dict) and of is None:
        return {node: _point(entry, node, xy) for node, xy in value.items()}
    if isinstance(value, list) and of is None:
        return {i + 1: _point(entry, i + 1, xy) for i, xy in enumerate(value)}
    if of is not None and isinstance(of, list):
        return {node: _point(entry, node, xy) for node, xy in _paired(entry, value, of, "positions")}
    raise error_at(entry.pos, f"`at` needs a map {{node: [x, y]}} or a list of [x, y], not {_show(value)}"
                   + (f" of {_show(of)}" if of is not None else ""))


def _known(entry: A.PictureEntry, board: Board, node: Any) -> Any:
    if isinstance(node, list) or node not in board.positions:
        raise error_at(entry.pos, f"node {_show(node)} has no position in the picture's `at`",
                       "give it a position, or leave it out here")
    return node


def _nodes(entry: A.PictureEntry, board: Board, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise error_at(entry.pos, f"`{entry.what}` needs a list of nodes, not {_show(value)}")
    return [_known(entry, board, node) for node in value]


def _edges(entry: A.PictureEntry, board: Board, value: Any) -> list[tuple[Any, Any]]:
    """A list of pairs [a, b], or a list of such lists (the ways of each path, say), read in order."""
    if not isinstance(value, list):
        raise error_at(entry.pos, f"`{entry.what}` needs a list of pairs [a, b], not {_show(value)}")
    grouped = [pair for group in value for pair in group] if value and all(
        isinstance(group, list) and group and all(isinstance(p, list) for p in group) for group in value) else value
    out = []
    for pair in grouped:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise error_at(entry.pos, f"each of `{entry.what}` is a pair of nodes [a, b], not {_show(pair)}",
                           "pick the two ends, as in [[e[0], e[2]] for e in corridors]")
        out.append((_known(entry, board, pair[0]), _known(entry, board, pair[1])))
    return out


def _labels(entry: A.PictureEntry, board: Board, value: Any, of: Any) -> dict[Any, Any]:
    """A map node → text; or a list of texts for the nodes listed after `of`, else for every node of `at`."""
    if isinstance(value, dict) and of is None:
        return {_known(entry, board, node): text for node, text in value.items()}
    nodes = _nodes(entry, board, of) if of is not None else list(board.positions)
    return dict(_paired(entry, value, nodes, "texts"))


def board_of(game: Game, pic: A.PictureDef) -> Board:
    """The picture's values for this game's player count; a RulesError at the entry that is wrong."""
    values: list[tuple[Any, Any]] = []
    probe: Any = _Probe(game)  # a picture's values read only the game, as constants do
    for entry, fns in zip(pic.entries, game.program.pictures[pic.name]):
        try:
            found = [fn(probe, []) for fn in fns]
        except GameRuleError as exc:
            raise error_at(entry.pos, f"cannot compute this for {game.num_players} players: {exc.message}") from None
        values.append((found[0] if found else None, found[1] if len(found) > 1 else None))
    at = next(i for i, e in enumerate(pic.entries) if e.what == "at")
    board = Board(_positions(pic.entries[at], *values[at]))
    for entry, (value, of) in zip(pic.entries, values):
        if entry.what in ("lines", "arrows"):
            board.edges.append((entry, _edges(entry, board, value)))
        elif entry.what == "nodes":
            board.classes.append((entry, _nodes(entry, board, value)))
        elif entry.what == "labels":
            board.labels.update(_labels(entry, board, value, of))
        elif entry.what == "numbered":
            board.labels = {node: node for node in board.positions} | board.labels
        elif entry.what == "others":
            board.others = entry
    return board


def check_pictures(game: Game, items: list[A.Node]) -> None:
    """Every picture computes and pairs up for this player count (load calls it for the largest)."""
    problems = []
    for pic in (i for i in items if isinstance(i, A.PictureDef)):
        try:
            board_of(game, pic)
        except RulesError as exc:
            problems += exc.diagnostics
    if problems:
        raise RulesError(problems)
