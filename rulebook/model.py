"""The rulebook as plain data, in one language: what the assembler builds from the rules and the
templates render to Markdown and HTML. Nothing here knows a game or a language."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional


@dataclass
class Line:
    """One generated rule sentence; `children` are the sentences it governs (a loop's body, an if's
    branches), `note` an author's clarification shown beside it, never instead of it. Variables of the
    rules are marked *like this* (Markdown's emphasis); a literal asterisk is written \\*."""

    text: str
    children: list["Line"] = field(default_factory=list)
    note: Optional[str] = None


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""
    after: list[str] = field(default_factory=list)  # sentences under it: a yes/no value said as its clause


@dataclass
class Example:
    """A worked example, played from a scenario: its text, the moves made, and what they changed."""

    title: str
    text: str
    moves: list[str] = field(default_factory=list)
    table: Optional[Table] = None


@dataclass
class Entry:
    """A titled unit of rules: an action, a phase, a rule, a card's effect, a definition; `entries` are
    the rules and actions told inside it (a phase's actions, the rule a phase carries out)."""

    anchor: str
    title: str
    code: str  # the name in the rules file, shown small for modders
    lines: list[Line] = field(default_factory=list)
    note: Optional[str] = None  # the author's flavour or clarification text
    table: Optional[Table] = None
    examples: list[Example] = field(default_factory=list)
    entries: list["Entry"] = field(default_factory=list)


@dataclass
class Change:
    """One change of a variant against the base game, with the generated text before and after."""

    kind: str  # "added", "replaced" or "removed" (the template looks up its display word)
    what: str  # the changed part, in words ("rule Lay out the guards")
    old: list[Line] = field(default_factory=list)
    new: list[Line] = field(default_factory=list)
    renamed: str = ""  # a replaced part's old title, where the new one is called differently


@dataclass
class Assumption:
    what: str
    why: str
    file: str
    line: int


@dataclass
class Picture:
    """A drawing of the board: the SVG shown inline in HTML, and `file` (beside the Markdown rulebook)
    that holds the same SVG for Markdown to show."""

    anchor: str
    title: str
    svg: str
    file: str


@dataclass
class Section:
    """A chapter of the rulebook; `template` names the section template that renders it."""

    anchor: str
    title: str
    template: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    assumptions: list[Assumption] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)


@dataclass
class Link:
    """A link to a sibling rulebook (the other language, a variant, the base game); `stem` is its
    path without the format's extension, which the template adds."""

    text: str
    stem: str


@dataclass
class Rulebook:
    lang: str
    title: str  # the game's title, with the variants' titles for a variant rulebook
    subtitle: str
    sections: list[Section] = field(default_factory=list)
    ui: dict[str, str] = field(default_factory=dict)  # the language's interface words (table of contents, …)
    links: list[Link] = field(default_factory=list)

    def every_entry(self) -> Iterator[Entry]:
        """Every entry of the book, those told inside another too, in book order."""
        return inner_first([e for s in self.sections for e in s.entries])


def inner_first(entries: list[Entry]) -> Iterator[Entry]:
    """These entries in book order, each followed by the entries told inside it."""
    for entry in entries:
        yield entry
        yield from inner_first(entry.entries)
