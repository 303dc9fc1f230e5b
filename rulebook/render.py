"""Renders a Rulebook to Markdown or to one self-contained HTML page with the Jinja2 templates in
rulebook/templates, so the markup lives in templates and the same book reads alike in both formats.

The templates take every interface word from `Rulebook.ui`; the message catalogue must provide these
keys, or rendering raises jinja2.UndefinedError (StrictUndefined) instead of printing a blank:

- ``contents``: heading of the table of contents
- ``added``, ``replaced``, ``removed``: the kind word of a Change (`Change.kind` is the key)
- ``before``, ``after``: labels of a Change's old and new generated text
- ``what``, ``why``, ``where``: column headers of the assumptions table (``where`` shows file:line)
- ``note``: label of an author's note
- ``rules_name``: label of an entry's name in the rules file
- ``generated_by``: the footer line saying where the book comes from
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import jinja2
import markupsafe

from rulebook.model import Rulebook

Format = Literal["md", "html"]

TEMPLATES = Path(__file__).resolve().parent / "templates"

# The keys the templates look up in Rulebook.ui (kept in step with the docstring above).
UI_KEYS: tuple[str, ...] = ("contents", "added", "replaced", "removed", "before", "after", "what",
                            "why", "where", "note", "rules_name", "generated_by")


def md_cell(value: object) -> str:
    """Text safe inside a Markdown table cell: one line, backslashes and pipes escaped."""
    return " ".join(str(value).split()).replace("\\", "\\\\").replace("|", "\\|")


def md_code(value: str) -> str:
    """Inline code that survives backticks in the value."""
    fence = "``" if "`" in value else "`"
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


_VARIABLE = re.compile(r"(?<!\\)\*(.+?)(?<!\\)\*")


def rule_html(text: str) -> markupsafe.Markup:
    """A generated sentence as HTML: escaped, its *variables* as <var>, `\\*` as a plain asterisk."""
    escaped = str(markupsafe.escape(text))
    return markupsafe.Markup(_VARIABLE.sub(r"<var>\1</var>", escaped).replace("\\*", "*"))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """One environment for both formats: loading and compiling templates once per process; `.html.j2`
    templates autoescape, `.md.j2` templates do not (Markdown has its own escaping in macros.md.j2)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default=False,
                                            default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.filters["rule_html"] = rule_html
    return env


def render(book: Rulebook, fmt: Format) -> str:
    """The whole rulebook as one Markdown or HTML document; the same book gives the same text, which
    ends with exactly one newline, so generated files diff cleanly."""
    if fmt not in ("md", "html"):
        raise ValueError(f"unknown rulebook format {fmt!r}; expected 'md' or 'html'")
    text = environment().get_template(f"base.{fmt}.j2").render(book=book, ui=book.ui)
    return text.rstrip() + "\n"
