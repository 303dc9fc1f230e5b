"""Renders a Rulebook to Markdown or to one self-contained HTML page with the Jinja2 templates in
rulebook/templates, so the markup lives in templates and the same book reads alike in both formats.

The templates take every interface word from `Rulebook.ui`; the message catalogue must provide these
keys, or rendering raises jinja2.UndefinedError (StrictUndefined) instead of printing a blank:

- ``contents``: heading of the table of contents
- ``added``, ``replaced``, ``removed``: the kind word of a Change (`Change.kind` is the key)
- ``before``, ``after``: labels of a Change's old and new generated text
- ``what``, ``why``, ``where``: column headers of the assumptions table (``where`` shows file:line)
- ``note``: label of an author's note
- ``generated_by``: the footer line saying where the book comes from
- ``colon``: what follows a label in Markdown (":", French "\u00a0:")
- ``rules_name``: HTML only, the label of an entry's name in the rules file in its heading's tooltip (the
  Markdown book leaves the names to the modders' appendix)
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import jinja2
import markupsafe

from dsl.cache_folder import cache_dir
from rulebook.model import Rulebook

Format = Literal["md", "html"]

TEMPLATES = Path(__file__).resolve().parent / "templates"

# The keys the templates look up in Rulebook.ui (kept in step with the docstring above).
UI_KEYS: tuple[str, ...] = ("contents", "added", "replaced", "removed", "before", "after", "what",
                            "why", "where", "note", "generated_by")
MD_UI_KEYS: tuple[str, ...] = ("colon",)  # Markdown's labels only ("Note:"; French "Remarque :")
HTML_UI_KEYS: tuple[str, ...] = ("rules_name",)  # HTML's only: an entry's name in the rules file, as a tooltip


_MD_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "]": "\\]"})


def md_text(value: object) -> markupsafe.Markup:
    """Text from the rules as Markdown that stays text: no HTML tag or entity (`<`, `>`, `&` escaped) and
    no link or image (`[`, `]` escaped), so only the links the templates write can appear."""
    if hasattr(value, "__html__"):
        return markupsafe.Markup(value)  # already rendered by a macro or filter
    return markupsafe.Markup(str(value).translate(_MD_SPECIAL))


def md_cell(value: object) -> str:
    """Text safe inside a Markdown table cell: one line, backslashes and pipes escaped."""
    return " ".join(str(value).split()).replace("\\", "\\\\").replace("|", "\\|")


def md_code(value: str) -> markupsafe.Markup:
    """Inline code that survives backticks in the value; Markdown shows a code span's text as it is."""
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", value)), default=0))
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return markupsafe.Markup(f"{fence}{pad}{value}{pad}{fence}")


def md_quote(value: str) -> markupsafe.Markup:
    """Text as the lines of a Markdown block quote, escaped like all text."""
    return markupsafe.Markup(str(md_text(value)).replace("\n", "\n> "))


_OPTIONS: dict[str, Any] = {"undefined": jinja2.StrictUndefined, "trim_blocks": True, "lstrip_blocks": True,
                            "keep_trailing_newline": True}
_VARIABLE = re.compile(r"(?<!\\)\*(.+?)(?<!\\)\*")


def rule_html(text: str) -> markupsafe.Markup:
    """A generated sentence as HTML: escaped, its *variables* as <var>, `\\*` as a plain asterisk."""
    escaped = str(markupsafe.escape(text))
    return markupsafe.Markup(_VARIABLE.sub(r"<var>\1</var>", escaped).replace("\\*", "*"))


def bytecode_cache(env_name: str) -> jinja2.BytecodeCache | None:
    """Compiled templates kept on disk beside the parse cache, a folder per environment (its options shape
    the code; jinja2 checks each template's source), so a new process does not compile them again."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        (folder / env_name).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder / env_name))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """One environment for the HTML rulebooks and the language reference, loading and compiling
    templates once per process; `.html.j2` templates autoescape, `.md.j2` templates do not."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default=False,
                                            default_for_string=False),
        bytecode_cache=bytecode_cache("templates-html"),
        **_OPTIONS,
    )
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.filters["rule_html"] = rule_html
    return env


@lru_cache(maxsize=1)
def markdown_environment() -> jinja2.Environment:
    """The Markdown rulebooks' environment: autoescaping with md_text, as texts come from rules files
    that anyone may write; what macros and filters return is Markup and passes unchanged."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, finalize=md_text,
                             bytecode_cache=bytecode_cache("templates-html"), **_OPTIONS)
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.filters["quote"] = md_quote
    return env


def render(book: Rulebook, fmt: Format) -> str:
    """The whole rulebook as one Markdown or HTML document; the same book gives the same text, which
    ends with exactly one newline, so generated files diff cleanly."""
    if fmt not in ("md", "html"):
        raise ValueError(f"unknown rulebook format {fmt!r}; expected 'md' or 'html'")
    env = markdown_environment() if fmt == "md" else environment()
    text = env.get_template(f"base.{fmt}.j2").render(book=book, ui=book.ui)
    return text.rstrip() + "\n"
