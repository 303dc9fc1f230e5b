"""Load-time checks of a `picture` that need no values: one `at`, styles that fit their entry, known
shapes, colours the SVG can take as they are."""
from __future__ import annotations

import re

from dsl import ast as A
from dsl.errors import Diagnostic, did_you_mean, error_at

SHAPES = ("circle", "square", "diamond", "triangle", "hexagon")
COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
_ONCE = ("at", "labels", "numbered", "others")


def _problems(entry: A.PictureEntry) -> list[str]:
    """What is wrong with one entry's style, as (message) texts."""
    out = []
    if entry.shape is not None and entry.what not in ("nodes", "others"):
        out.append(f"`shape` belongs to `nodes` and `others`, not to `{entry.what}`")
    elif entry.shape is not None and entry.shape not in SHAPES:
        out.append(f"unknown shape '{entry.shape}'; {did_you_mean(entry.shape, SHAPES) or 'shapes: ' + ', '.join(SHAPES)}")
    if entry.dashed and entry.what not in ("lines", "arrows"):
        out.append(f"`dashed` belongs to `lines` and `arrows`, not to `{entry.what}`")
    if entry.colour is not None and not COLOUR.fullmatch(entry.colour):
        out.append(f"colour '{entry.colour}' is not a colour like \"#c96\" or \"#cc9966\"")
    return out


def picture_problems(pic: A.PictureDef) -> list[Diagnostic]:
    """Every problem of a picture's form; its values are checked when they are computed."""
    found: list[Diagnostic] = []
    seen: dict[str, A.PictureEntry] = {}
    for entry in pic.entries:
        if entry.what in _ONCE and entry.what in seen:
            found += error_at(entry.pos, f"`{entry.what}` appears twice in picture '{pic.name}' "
                              f"(first at line {seen[entry.what].pos.line})").diagnostics
        seen.setdefault(entry.what, entry)
        for message in _problems(entry):
            found += error_at(entry.pos, message).diagnostics
    if "at" not in seen:
        found += error_at(pic.pos, f"picture '{pic.name}' has no `at`",
                          "name the positions of its nodes, as in `at space_xy` with "
                          "const space_xy = {1: [0, 0], 2: [1, 0]}").diagnostics
    return found

