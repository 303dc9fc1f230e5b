"""The rulebook templates render a hand-built Rulebook to Markdown and self-contained HTML: escaped,
navigable, printable, with notes beside the generated text and every interface word from `ui`."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import jinja2
import pytest

from rulebook.model import (
    Assumption,
    Change,
    Entry,
    Line,
    Rulebook,
    Section,
    Table,
)
from rulebook.render import HTML_UI_KEYS, MD_UI_KEYS, TEMPLATES, UI_KEYS, render

# German interface words, none of which occurs in the book's content, so finding one proves it came
# from `ui` and not from a template.
UI = {
    "contents": "Inhaltsverzeichnis",
    "added": "hinzugefügt",
    "replaced": "ersetzt",
    "removed": "entfernt",
    "before": "vorher",
    "after": "nachher",
    "what": "Annahme",
    "why": "Begründung",
    "where": "Fundstelle",
    "note": "Anmerkung",
    "rules_name": "Name in den Regeln",
    "generated_by": "Erzeugt von Regelwerk aus den Regeldateien.",
    "colon": ":",
}

NASTY = "<b>&|"


def book(ui: dict[str, str] | None = None) -> Rulebook:
    """A small book with one section of each template, nested lines, notes and a nasty table cell."""
    return Rulebook(
        lang="de",
        title="Mächtige Monster",
        subtitle="Spielregel",
        ui=dict(UI if ui is None else ui),
        sections=[
            Section(
                anchor="material", title="Material", template="text",
                paragraphs=["36 Wächter und 12 Königsplättchen."],
                tables=[Table(headers=["Teil", "Anzahl"], rows=[["Wächter", "36"]], caption="Inhalt der Schachtel")],
            ),
            Section(
                anchor="aktionen", title="Aktionen", template="entries",
                entries=[
                    Entry(
                        anchor="aktion-passen", title="Passen", code="pass",
                        lines=[Line("Für jeden Spieler reihum:", children=[
                            Line("Er zieht eine Karte.", note="Auch wenn der Stapel leer ist."),
                            Line("Er legt eine Karte ab."),
                        ])],
                        note="Passen beendet die Runde nicht.",
                        table=Table(headers=["Symbol", "Wirkung"], rows=[[NASTY, "verdoppelt"]]),
                    ),
                    Entry(anchor="aktion-kaempfen", title="Kämpfen", code="fight",
                          lines=[Line("Würfle zwei Würfel.")]),
                ],
            ),
            Section(
                anchor="wertung", title="Wertung", template="tables",
                tables=[Table(headers=["Platz", "Punkte"], rows=[["1", "5"], ["2", "3"]])],
            ),
            Section(
                anchor="aenderungen", title="Änderungen gegenüber dem Grundspiel", template="changes",
                changes=[
                    Change(kind="replaced", what="Regel Wächter auslegen",
                           old=[Line("Lege 3 Wächter aus.")], new=[Line("Lege 4 Wächter aus.")]),
                    Change(kind="added", what="Regel Kette", new=[Line("Bilde eine Kette.")]),
                    Change(kind="removed", what="Regel Zoll", old=[Line("Zahle einen Zoll.")]),
                ],
            ),
            Section(
                anchor="annahmen", title="Annahmen", template="assumptions",
                assumptions=[Assumption(what="Gleichstand teilt", why="Die Regel schweigt.",
                                        file="rulesets/maechtige_monster/rules.rules", line=42)],
            ),
        ],
    )


class Ids(HTMLParser):
    """Collects every id, every in-page href inside <nav>, and every URL-bearing attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.nav_hrefs: list[str] = []
        self.resources: list[str] = []
        self.in_nav = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "nav":
            self.in_nav += 1
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "a" and self.in_nav and values.get("href"):
            self.nav_hrefs.append(str(values["href"]))
        for name in ("src", "srcset", "data", "poster"):
            if values.get(name):
                self.resources.append(str(values[name]))
        if tag == "link":
            self.resources.append(str(values.get("href")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self.in_nav -= 1


@pytest.fixture(scope="module")
def html() -> str:
    return render(book(), "html")


@pytest.fixture(scope="module")
def md() -> str:
    return render(book(), "md")


def parse(html: str) -> Ids:
    parser = Ids()
    parser.feed(html)
    parser.close()
    return parser


# --- HTML ---------------------------------------------------------------------------------------

def test_html_autoescapes_content(html: str) -> None:
    """A rules text with markup characters shows them; it never injects markup into the page."""
    assert "&lt;b&gt;&amp;|" in html
    assert "<b>" not in html


def test_html_declares_language_and_title(html: str) -> None:
    assert html.startswith("<!DOCTYPE html>\n")
    assert '<html lang="de">' in html
    assert "<title>Mächtige Monster</title>" in html


def test_every_toc_link_has_a_target(html: str) -> None:
    """Each TOC link lands on an element; every section and entry is in the TOC; ids are unique."""
    page = parse(html)
    assert page.nav_hrefs, "the page has no table of contents"
    assert all(h.startswith("#") for h in page.nav_hrefs)
    assert {h[1:] for h in page.nav_hrefs} <= set(page.ids)
    anchors = {s.anchor for s in book().sections} | {e.anchor for e in book().every_entry()}
    assert anchors == {h[1:] for h in page.nav_hrefs}
    assert len(page.ids) == len(set(page.ids))


def test_html_is_self_contained(html: str) -> None:
    """No URL of any kind: the page opens offline and asks no server for anything."""
    assert "http://" not in html and "https://" not in html
    assert parse(html).resources == []
    for dependency in ("<script", "<link", "<img", "@import", "url(", "@font-face"):
        assert dependency not in html


def test_html_has_screen_and_print_styles(html: str) -> None:
    style = html[html.index("<style>"):html.index("</style>")]
    assert "max-width" in style
    print_css = style[style.index("@media print"):]
    assert "size: A4" in print_css
    assert "break-before: page" in print_css
    assert "break-inside: avoid" in print_css


def test_html_notes_stand_beside_the_generated_text(html: str) -> None:
    assert re.search(r"<li>Er zieht eine Karte\. <span class=\"note\"[^>]*>Auch wenn der Stapel leer ist\.</span>",
                     html)
    entry = html[html.index('id="aktion-passen"'):html.index('id="aktion-kaempfen"')]
    assert "Für jeden Spieler reihum:" in entry
    assert '<aside class="note-box">' in entry and "Passen beendet die Runde nicht." in entry
    assert 'title="Name in den Regeln: pass"' in entry


def test_html_changes_show_kind_before_and_after(html: str) -> None:
    changes = html[html.index('id="aenderungen"'):html.index('id="annahmen"')]
    for word in ("ersetzt", "hinzugefügt", "entfernt", "vorher", "nachher"):
        assert word in changes
    assert changes.index("Lege 3 Wächter aus.") < changes.index("Lege 4 Wächter aus.")


def test_html_assumptions_table(html: str) -> None:
    assumptions = html[html.index('id="annahmen"'):]
    assert "<th scope=\"col\">Annahme</th><th scope=\"col\">Begründung</th><th scope=\"col\">Fundstelle</th>" \
        in assumptions
    assert "<code>rulesets/maechtige_monster/rules.rules:42</code>" in assumptions


# --- Markdown -----------------------------------------------------------------------------------

def test_markdown_pipe_table_escapes_the_pipe_and_the_markup(md: str) -> None:
    assert "| Symbol | Wirkung |\n| --- | --- |\n| &lt;b&gt;&amp;\\| | verdoppelt |\n" in md
    assert "<b>" not in md


def test_markdown_toc_links_every_heading_anchor(md: str) -> None:
    toc = md[md.index("## Inhaltsverzeichnis"):md.index('<a id="material">')]
    targets = re.findall(r"\]\(#([^)]+)\)", toc)
    assert targets == ["material", "aktionen", "aktion-passen", "aktion-kaempfen", "wertung", "aenderungen",
                       "annahmen"]
    for target in targets:
        assert f'<a id="{target}"></a>' in md


def test_markdown_nested_lines_with_notes_beside_them(md: str) -> None:
    assert ("- Für jeden Spieler reihum:\n"
            "  - Er zieht eine Karte. — *Auch wenn der Stapel leer ist.*\n"
            "  - Er legt eine Karte ab.\n") in md
    assert "> **Anmerkung:** Passen beendet die Runde nicht." in md


def test_markdown_changes_and_assumptions(md: str) -> None:
    assert "### ersetzt: Regel Wächter auslegen\n\n*vorher:*\n\n- Lege 3 Wächter aus.\n\n*nachher:*\n\n" \
           "- Lege 4 Wächter aus.\n" in md
    assert "| Annahme | Begründung | Fundstelle |" in md
    assert "| Gleichstand teilt | Die Regel schweigt. | `rulesets/maechtige_monster/rules.rules:42` |" in md


def test_markdown_has_no_stray_blank_lines(md: str) -> None:
    assert "\n\n\n" not in md
    assert not re.search(r"[ \t]+\n", md)


# --- both formats -------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_interface_words_come_from_ui(fmt: str) -> None:
    """Every interface word is looked up in `ui`: each key's value shows up in the output."""
    text = render(book(), fmt)  # type: ignore[arg-type]
    for key in UI_KEYS:
        assert UI[key] in text, key


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_output_is_deterministic_and_ends_with_one_newline(fmt: str) -> None:
    first = render(book(), fmt)  # type: ignore[arg-type]
    assert first == render(book(), fmt)  # type: ignore[arg-type]
    assert first.endswith("\n") and not first.endswith("\n\n")


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("key", UI_KEYS)
def test_a_missing_ui_key_raises(fmt: str, key: str) -> None:
    """A catalogue lacking a word fails loudly (StrictUndefined) instead of printing a blank; this also
    proves each documented key is really used by the templates."""
    ui = {k: v for k, v in UI.items() if k != key}
    with pytest.raises(jinja2.UndefinedError):
        render(book(ui), fmt)  # type: ignore[arg-type]


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        render(book(), "pdf")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("kind", ["text", "entries", "tables", "changes", "assumptions"])
def test_every_section_kind_has_a_template(fmt: str, kind: str) -> None:
    assert (TEMPLATES / f"section_{kind}.{fmt}.j2").is_file()


@pytest.mark.parametrize("key", MD_UI_KEYS)
def test_markdown_labels_take_the_catalogues_colon(key: str) -> None:
    """French sets a no-break space before the colon of "Remarque :"; a catalogue without it fails."""
    md = render(book({**UI, "colon": "\u00a0:"}), "md")
    assert "**Anmerkung\u00a0:**" in md
    with pytest.raises(jinja2.UndefinedError):
        render(book({k: v for k, v in UI.items() if k != key}), "md")


@pytest.mark.parametrize("key", HTML_UI_KEYS)
def test_an_entrys_rules_name_is_a_tooltip_in_html_and_not_in_markdown(key: str) -> None:
    """Players read no rules-file names; modders hover over a heading (or read their appendix)."""
    assert '<h3 title="Name in den Regeln: pass">Passen</h3>' in render(book(), "html")
    assert "Name in den Regeln" not in render(book(), "md") and "`pass`" not in render(book(), "md")
    with pytest.raises(jinja2.UndefinedError):
        render(book({k: v for k, v in UI.items() if k != key}), "html")
