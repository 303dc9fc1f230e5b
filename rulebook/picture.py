"""Draws a picture's board as one SVG document: edges under nodes, nodes as shapes by class, labels, a
title and a legend. Same board and texts, same bytes: no randomness, fixed number formats, nodes and
entries in the order the rules give them. Every text is escaped."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable
from xml.sax.saxutils import escape

from dsl import ast as A
from interpreter.compile.pictures import Board, Point

SPACING = 56.0  # the closest two nodes stand this far apart, in SVG units
RADIUS = 15.0
MARGIN = 24.0
TITLE_HEIGHT = 34.0
LEGEND_ROW = 24.0
CHAR_WIDTH = 7.0  # a rough width of one character at the legend's size, to lay out its rows
LABEL_CHAR = 6.2  # the same under a node
PALETTE = ("#e8d5a9", "#a9c8e8", "#c5e1a5", "#f4b6b6", "#d1c4e9", "#ffe082", "#b2dfdb", "#f8bbd0")
OTHERS = "#f2f2f2"
EDGE = "#555555"
INK = "#222222"
INSIDE = 3  # a label this short stands inside its node, a longer one under it
HALO = ' stroke="#ffffff" stroke-width="3" paint-order="stroke"'  # a label stays legible across an edge


def num(value: float) -> str:
    """A coordinate as SVG gets it: one decimal at most, no "-0"."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Look:
    """How one class of nodes or edges is drawn, and its `class` attribute."""

    css: str
    shape: str
    colour: str
    dashed: bool = False
    marker: str = ""  # the id of an arrow's head


def label_width(text: str) -> float:
    """About how wide a label under a node is drawn, with a little room on each side."""
    return LABEL_CHAR * len(text) + 8


def _points(points: list[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def shape(look: Look, x: float, y: float, r: float, role: str = "node") -> str:
    """One node's outline (`role` "swatch" in the legend); every shape is about as large as the circle
    of radius r."""
    attrs = f'class="pic-{role} pic-{look.css}" fill="{look.colour}" stroke="{INK}" stroke-width="1.2"'
    if look.shape == "square":
        return f'<rect {attrs} x="{num(x - r * .9)}" y="{num(y - r * .9)}" width="{num(r * 1.8)}" height="{num(r * 1.8)}"/>'
    corners = {"diamond": [(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)],
               "triangle": [(0, -1.2), (1.1, .8), (-1.1, .8)],
               "hexagon": [(math.cos(k * math.pi / 3) * 1.1, math.sin(k * math.pi / 3) * 1.1) for k in range(6)]}
    if look.shape in corners:
        return f'<polygon {attrs} points="{_points([(x + dx * r, y + dy * r) for dx, dy in corners[look.shape]])}"/>'
    return f'<circle {attrs} cx="{num(x)}" cy="{num(y)}" r="{num(r)}"/>'


def line(look: Look, start: Point, end: Point, css: str) -> str:
    """An edge, or its sample in the legend: dashed and with an arrowhead as its look says."""
    dash = ' stroke-dasharray="6 4"' if look.dashed else ""
    head = f' marker-end="url(#{look.marker})"' if look.marker else ""
    return (f'<line class="{css}" x1="{num(start[0])}" y1="{num(start[1])}" x2="{num(end[0])}" y2="{num(end[1])}" '
            f'stroke="{look.colour}" stroke-width="2.5"{dash}{head}/>')


def _css(entry: A.PictureEntry, k: int) -> str:
    """A class name for an entry (after "pic-"): the constant it names, else its kind and number."""
    return entry.value.name if isinstance(entry.value, A.Name) else f"{entry.what}-{k}"


class Drawing:
    """One picture being drawn: its board scaled into SVG units, and the looks of its entries."""

    def __init__(self, name: str, board: Board, label: Callable[[Any], str]) -> None:
        self.name = name
        self.board = board
        self.labels = {node: text for node, value in board.labels.items() if (text := label(value))}
        below = {node: label_width(text) for node, text in self.labels.items() if len(text) > INSIDE}
        pts = list(board.positions.values())
        gaps = [math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:] if a != b]
        self.scale = max([SPACING / min(gaps)] + self.label_scales(below, min(gaps)) if gaps else [1.0])
        self.x0 = min((p[0] for p in pts), default=0.0)
        self.y0 = min((p[1] for p in pts), default=0.0)
        span = max(((p[0] - self.x0) * self.scale for p in pts), default=0.0)
        offsets = [((board.positions[node][0] - self.x0) * self.scale, w / 2 - RADIUS) for node, w in below.items()]
        self.pad = max([over - x for x, over in offsets] + [0.0])  # room for long labels at the left edge
        right = max([over - (span - x) for x, over in offsets] + [0.0])
        self.width = span + 2 * (MARGIN + RADIUS) + self.pad + right
        self.height = max(((p[1] - self.y0) * self.scale for p in pts), default=0.0) + 2 * (MARGIN + RADIUS) + \
            (14.0 if below else 0.0)
        self.looks: dict[int, Look] = {}
        for k, (entry, _) in enumerate(board.classes):
            self.looks[id(entry)] = Look(_css(entry, k + 1), entry.shape or "circle",
                                         entry.colour or PALETTE[k % len(PALETTE)])
        for k, (entry, _) in enumerate(board.edges):
            marker = f"picture-{name}-arrow-{k}" if entry.what == "arrows" else ""
            self.looks[id(entry)] = Look(_css(entry, k + 1), "", entry.colour or EDGE, entry.dashed, marker)
        if board.others is not None:
            self.looks[id(board.others)] = Look("others", board.others.shape or "circle", board.others.colour or OTHERS)

    def label_scales(self, below: dict[Any, float], gap: float) -> list[float]:
        """The scales at which long labels of neighbours in one row (closer in y than half the smallest
        gap) stand apart."""
        placed = [(self.board.positions[node], width) for node, width in below.items()]
        return [(wa + wb) / 2 / abs(a[0] - b[0]) for i, (a, wa) in enumerate(placed) for b, wb in placed[i + 1:]
                if abs(a[1] - b[1]) < gap / 2 and a[0] != b[0]]

    def at(self, node: Any) -> Point:
        x, y = self.board.positions[node]
        return (MARGIN + RADIUS + self.pad + (x - self.x0) * self.scale, TITLE_HEIGHT + MARGIN + RADIUS + (y - self.y0) * self.scale)

    def look(self, node: Any) -> Look:
        entry = self.board.class_of(node)
        return self.looks[id(entry)] if entry is not None else Look("plain", "circle", OTHERS)

    def edges(self) -> list[str]:
        out = []
        for entry, pairs in self.board.edges:
            look = self.looks[id(entry)]
            arrow = entry.what == "arrows"
            for a, b in pairs:
                (x1, y1), (x2, y2) = self.at(a), self.at(b)
                if arrow and (x1, y1) != (x2, y2):  # stop at the target's outline, so the head shows
                    d = math.dist((x1, y1), (x2, y2))
                    x2, y2 = x2 - (x2 - x1) * (RADIUS + 2) / d, y2 - (y2 - y1) * (RADIUS + 2) / d
                out.append(line(look, (x1, y1), (x2, y2), f"pic-edge pic-{entry.what} pic-{look.css}"))
        return out

    def markers(self) -> list[str]:
        return [f'<marker id="{look.marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
                f'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                f'fill="{look.colour}"/></marker>'
                for look in (self.looks[id(entry)] for entry, _ in self.board.edges) if look.marker]

    def nodes(self) -> list[str]:
        out = []
        for node in self.board.positions:
            x, y = self.at(node)
            out.append(shape(self.look(node), x, y, RADIUS))
            text = self.labels.get(node)
            if text is not None and len(text) <= INSIDE:
                out.append(f'<text class="pic-label" x="{num(x)}" y="{num(y + 4)}" text-anchor="middle" '
                           f'font-size="11">{escape(text)}</text>')
            elif text is not None:
                out.append(f'<text class="pic-label" x="{num(x)}" y="{num(y + RADIUS + 13)}" text-anchor="middle" '
                           f'font-size="10"{HALO}>{escape(text)}</text>')
        return out


def legend(drawing: Drawing, texts: list[tuple[A.PictureEntry, str]], top: float) -> tuple[list[str], float]:
    """The legend's entries in rows under the board, and the height they take."""
    out, x, y = [], MARGIN, top + LEGEND_ROW / 2
    for entry, text in texts:
        width = 30 + CHAR_WIDTH * len(text) + 18
        if x > MARGIN and x + width > drawing.width - MARGIN:
            x, y = MARGIN, y + LEGEND_ROW
        look = drawing.looks[id(entry)]
        if entry.what in ("lines", "arrows"):
            swatch = line(look, (x, y), (x + 24, y), f"pic-swatch pic-{look.css}")
        else:
            swatch = shape(look, x + 12, y, 8, "swatch")
        out.append(f'<g class="pic-key">{swatch}<text x="{num(x + 30)}" y="{num(y + 4)}" '
                   f'font-size="12">{escape(text)}</text></g>')
        x += width
    return out, (y + LEGEND_ROW / 2 - top) if texts else 0.0


def render_svg(name: str, title: str, board: Board, texts: list[tuple[A.PictureEntry, str]],
               label: Callable[[Any], str]) -> str:
    """The picture as an SVG document; `texts` are the legend entries (entry, text) in order, `label`
    turns a label's value into text."""
    drawing = Drawing(name, board, label)
    drawing.width = max(drawing.width, CHAR_WIDTH * 1.4 * len(title) + 2 * MARGIN,
                        max((30 + CHAR_WIDTH * len(t) + 2 * MARGIN for _, t in texts), default=0.0))
    board_bottom = drawing.height + TITLE_HEIGHT
    keys, legend_height = legend(drawing, texts, board_bottom)
    height = board_bottom + legend_height + (MARGIN if texts else 0.0)
    title_id = f"picture-{name}-title"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="pic" viewBox="0 0 {num(drawing.width)} '
             f'{num(height)}" width="{num(drawing.width)}" height="{num(height)}" role="img" '
             f'aria-labelledby="{title_id}" font-family="DejaVu Sans, Verdana, sans-serif" fill="{INK}">',
             f'<title id="{title_id}">{escape(title)}</title>']
    markers = drawing.markers()
    if markers:
        parts += ["<defs>", *markers, "</defs>"]
    parts.append(f'<text class="pic-title" x="{num(drawing.width / 2)}" y="{num(MARGIN)}" text-anchor="middle" '
                 f'font-size="16" font-weight="bold">{escape(title)}</text>')
    parts += ['<g class="pic-edges">', *drawing.edges(), "</g>", '<g class="pic-nodes">', *drawing.nodes(), "</g>"]
    if keys:
        parts += ['<g class="pic-legend">', *keys, "</g>"]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

