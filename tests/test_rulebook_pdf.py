"""The print version: each rulebook's HTML laid out as an A4 PDF by WeasyPrint, with page numbers and a
table of contents whose page numbers lead to the page where the chapter or entry stands. Checked on a
committed PDF (read with pypdf, nothing laid out) and on a small book laid out here."""
from __future__ import annotations

import html as html_lib
import io
import re
import shutil
from pathlib import Path

import pytest

from interpreter.cli import main
from rulebook.docs import DOCS_DIR, MANIFEST, PdfOf, expected_files
from rulebook.pdf import html_hash, render_pdf, source_of

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("weasyprint")

GAME = "maechtige_monster"
SPITZEL = Path(__file__).parent / "fixtures" / "games" / "spitzel"
A4 = (595.28, 841.89)  # points
# A title long enough to fill its line has no dots left before its page ("… (instead of “…”) 24").
LEADER = re.compile(r"^(?P<title>.+?)\s*(?:(?:\.\s*){3,}|(?<=[”)])\s)(?P<page>\d+)$")


def toc_of(page_html: str) -> list[str]:
    """The titles the page's table of contents links to, in order."""
    nav = page_html[page_html.index("<nav"):page_html.index("</nav>")]
    return [html_lib.unescape(t) for t in re.findall(r'<a href="#[^"]+">([^<]+)</a>', nav)]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def book() -> tuple[str, list[str]]:
    """The English Mächtige Monster book: its HTML and the text of each page of its committed PDF."""
    page_html = (DOCS_DIR / GAME / "rulebook.en.html").read_text(encoding="utf-8")
    reader = pypdf.PdfReader(DOCS_DIR / GAME / "rulebook.en.pdf")
    assert reader.metadata is not None and reader.metadata.title == "Mighty Monsters"
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == A4
    return page_html, [page.extract_text() for page in reader.pages]


def test_the_committed_pdf_was_laid_out_from_the_committed_html(book: tuple[str, list[str]]) -> None:
    page_html, _ = book
    assert source_of((DOCS_DIR / GAME / "rulebook.en.pdf").read_bytes()) == html_hash(page_html)


def test_every_page_but_the_cover_is_numbered(book: tuple[str, list[str]]) -> None:
    _, pages = book
    assert 15 <= len(pages) <= 60
    for number, text in enumerate(pages[1:], start=2):
        assert f"{number} / {len(pages)}" in text, f"page {number} has no page number"
    assert f"1 / {len(pages)}" not in pages[0]


def test_the_contents_give_the_page_of_every_chapter_and_entry(book: tuple[str, list[str]]) -> None:
    """Each entry of the contents has a page number, and the title stands on that page."""
    page_html, pages = book
    titles = toc_of(page_html)
    contents = [m for line in "\n".join(pages[:3]).splitlines() if (m := LEADER.match(line.strip()))]
    assert [flat(m["title"]) for m in contents] == [flat(t) for t in titles]
    numbers = [int(m["page"]) for m in contents]
    assert numbers == sorted(numbers) and numbers[0] >= 2
    for m in contents:
        assert flat(m["title"]) in flat(pages[int(m["page"]) - 1]), f"{m['title']!r} is not on page {m['page']}"


def test_the_rules_text_is_in_the_pdf(book: tuple[str, list[str]]) -> None:
    _, pages = book
    text = flat(" ".join(pages))
    assert "The attack place must hold at most 1 monster card." in text
    assert "Example 1: Ani may displace" in text
    assert "Appendix: For bots" in text


def test_a_pdf_is_the_same_bytes_each_time_and_names_its_html() -> None:
    page_html = str(expected_files([str(SPITZEL)])["spitzel/rulebook.en.html"])
    first, second = render_pdf(page_html, SPITZEL), render_pdf(page_html, SPITZEL)
    assert first == second  # no date, no random id: committed PDFs change only with their HTML
    assert first.startswith(b"%PDF-") and source_of(first) == html_hash(page_html)
    assert b"CreationDate" not in first and b"ModDate" not in first
    reader = pypdf.PdfReader(io.BytesIO(first))
    assert reader.metadata is not None and reader.metadata.get("/Keywords") == f"regelwerk-html-sha256:{html_hash(page_html)}"


def test_check_calls_a_pdf_of_other_html_stale_and_no_pdf_leaves_pdfs_alone(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "docs"
    shutil.copytree(DOCS_DIR, out)
    de, en = out / GAME / "rulebook.de.pdf", out / GAME / "rulebook.en.pdf"
    swapped = en.read_bytes()
    de.write_bytes(swapped)
    en.unlink()
    assert main(["docs", GAME, "--check", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"stale: {de}" in err and f"missing: {en}" in err
    assert main(["docs", GAME, "--check", "--out", str(out), "--no-pdf"]) == 0
    assert main(["docs", GAME, "--out", str(out), "--no-pdf"]) == 0
    assert de.read_bytes() == swapped and not en.exists()  # neither laid out nor removed
    assert f"{GAME}/rulebook.en.pdf" in (out / MANIFEST).read_text(encoding="utf-8")
    assert expected_files([GAME], pdf=False)[f"{GAME}/rulebook.de.pdf"] == PdfOf(f"{GAME}/rulebook.de.html", False)
