"""The HTML rulebooks work for a reader in a real browser (headless Chromium): they render, their
table of contents leads somewhere, no script fails, and nothing is fetched from outside the file."""
from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from rulebook.browser import BrowserReport, check_pages, chromium_path

pytestmark = pytest.mark.browser


def require_browser() -> None:
    """Skip without Chromium/Playwright, except where CI says the browser is part of the suite."""
    reason = None
    if chromium_path() is None:
        reason = "Chromium is not installed (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "Playwright is not installed (pip install playwright)"
    if reason is None:
        return
    if os.environ.get("REGELWERK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and REGELWERK_REQUIRE_BROWSER=1 requires it", pytrace=False)
    pytest.skip(reason)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, to check the screenshot without an image library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# --- the generated rulebooks ------------------------------------------------------------------

def test_generated_rulebooks_work_in_a_browser(tmp_path: Path) -> None:
    """Every generated rulebook, every language and variant, passes in one browser session."""
    pages = sorted(ROOT.glob("generated_docs/**/rulebook.*.html"))
    assert pages, "no generated_docs/**/rulebook.*.html found: the rulebooks were not generated"
    require_browser()
    shots = {p: tmp_path / ("_".join(p.relative_to(ROOT / "generated_docs").parts) + ".png")
             for p in pages}
    reports = check_pages(pages, screenshots=shots)
    bad = [r.summary() for r in reports if not r.ok]
    assert not bad, "\n".join(bad)
    for shot in shots.values():
        assert png_size(shot) == (1000, 1400)


def test_examples_anatomy_and_variant_chapters_show_in_a_browser() -> None:
    """The worked-example boxes stand inside their entries with their moves and tables, framed and
    visible; the card anatomy table and the variant chapters render and the contents lead to them.
    The actions and rules stand inside the phase that uses them (and the contents say so), the bots'
    rating in an appendix, the king tiles' chapter says it is for its variant only."""
    page = ROOT / "generated_docs" / "maechtige_monster" / "rulebook.de.html"
    require_browser()
    from playwright.sync_api import sync_playwright

    from rulebook.browser import CHROMIUM_ARGS, VIEWPORT
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport=VIEWPORT)
            tab.goto(page.as_uri())
            boxes = tab.locator("article.entry section.example")
            assert boxes.count() == 6
            ani = tab.locator("#phase-play > #action-displace section.example").first
            ani.scroll_into_view_if_needed()
            assert ani.is_visible()
            assert ani.locator("h5").inner_text() == "Beispiel 1: Ani darf verdrängen"
            assert ani.locator("ol.moves li").count() == 7
            assert "Gold von Ani" in ani.locator("table").inner_text()
            assert ani.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
            assert tab.locator("#card-anatomy table tbody tr").count() == 3
            for anchor in ("card-anatomy", "variant-waechterkette", "bots"):
                assert tab.locator(f'a[href="#{anchor}"]').count() >= 1
                assert tab.locator(f"#{anchor}").is_visible()
            inner = {"phase-play": ["action-place", "action-displace"], "phase-fight": ["rule-share-loot"],
                     "phase-heal": ["rule-return-king-tile"]}
            for phase, parts in inner.items():
                assert tab.locator(f"#round > #{phase} > article.entry").evaluate_all(
                    "es => es.map(e => e.id)") == parts
                toc = tab.locator(f'nav li:has(> a[href="#{phase}"]) > ol a')
                assert toc.evaluate_all("as => as.map(a => a.getAttribute('href'))") == [f"#{p}" for p in parts]
                nested = tab.locator(f"#{parts[0]} h4")
                assert nested.first.is_visible()
            assert not tab.locator("#actions, #special-rules").count()  # nothing is left outside the phases
            values = tab.locator("#components table").filter(has_text="Fasst höchstens").inner_text()
            assert "Königsauslage (nur in der Variante „Des Königs neue Regeln“)" in values
            assert "nur in der Variante „Des Königs neue Regeln“" in tab.locator("#reference-king-tile > p").inner_text()
            order = tab.locator("main > section").evaluate_all("ss => ss.map(s => s.id)")
            assert order.index("game-end") < order.index("bots") < order.index("assumptions")
            tab.emulate_media(media="print")
            assert not tab.locator("header.cover .links").is_visible()  # links to other files: not on paper
        finally:
            browser.close()


def test_the_example_balance_report_works_in_a_browser() -> None:
    """The checked-in `regelwerk analyze` report: it renders, its links lead somewhere, nothing is fetched."""
    page = ROOT / "docs" / "examples" / "balance_report" / "report.html"
    assert page.is_file(), "docs/examples/balance_report/report.html is missing"
    require_browser()
    (report,) = check_pages([page])
    assert report.ok, report.summary()


# --- the checker itself, on pages made to fail one way each ------------------------------------

GOOD_BODY = """
<h1>Mächtige Monster</h1>
<nav><ol>
  <li><a href="#material">Material</a></li>
  <li><a href="#zug-ablauf">Ablauf eines Zuges</a></li>
  <li><a href="#sieg%C3%BCberblick">Siegüberblick</a></li>
</ol></nav>
<section id="material"><h2>Material</h2><p>36 Wächter, 12 Königsplättchen.</p>
  <img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="></section>
<section id="zug-ablauf"><h2>Ablauf eines Zuges</h2><p>Siehe <a href="#material">Material</a>.
  Mehr auf <a href="https://example.org/regeln">der Website</a>.</p></section>
<section id="siegüberblick"><h2>Siegüberblick</h2></section>
<script>console.log("fine"); console.warn("only a warning");</script>
"""


def html(body: str, head: str = "") -> str:
    """A minimal standalone page around `body`, as the generator's pages are."""
    return (f'<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Regeln</title>'
            f'<link rel="alternate" hreflang="en" href="rulebook.en.html">'
            f'<style>body {{ font-family: sans-serif; }}</style>{head}</head>'
            f"<body>{body}</body></html>")


PAGES = {
    "good": html(GOOD_BODY),
    "broken_toc": html(GOOD_BODY.replace('href="#zug-ablauf"', 'href="#zugablauf"')
                       + '<p><a href="#">nowhere</a></p>'),
    "console_error": html(GOOD_BODY + '<script>console.error("boom");</script>'),
    "page_error": html(GOOD_BODY + "<script>undefinedFunction();</script>"),
    "external_image": html(GOOD_BODY + '<img alt="" src="https://example.invalid/board.png">'),
    "external_font": html(GOOD_BODY, head='<style>@import url("http://example.invalid/f.css");'
                                          "</style>"),
    "lazy_external": html(GOOD_BODY + '<div style="height:6000px"></div>'
                          '<img alt="" loading="lazy" src="https://example.invalid/late.png">'),
    "sibling_file": html(GOOD_BODY + '<img alt="" src="board.gif">'),
    "blank": html(""),
    "hidden_h1": html(GOOD_BODY.replace("<h1>", '<h1 style="display:none">')),
}


@pytest.fixture(scope="module")
def made_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BrowserReport]:
    """All made pages checked in one browser launch, as the real run does."""
    require_browser()
    folder = tmp_path_factory.mktemp("pages")
    (folder / "board.gif").write_bytes(b"GIF89a")  # exists, so only self-containment is at fault
    paths = {}
    for name, text in PAGES.items():
        paths[name] = folder / f"{name}.html"
        paths[name].write_text(text, encoding="utf-8")
    paths["missing"] = folder / "missing.html"
    shots = {paths["good"]: folder / "shots" / "good.png"}
    reports = check_pages(list(paths.values()), screenshots=shots)
    by_name = {name: report for name, report in zip(paths, reports)}
    assert all(r.path == paths[n].resolve() for n, r in by_name.items())
    return by_name


def test_good_page_passes(made_pages: dict[str, BrowserReport]) -> None:
    """A self-contained page with a working TOC, percent-encoded ids and outside hyperlinks is ok."""
    good = made_pages["good"]
    assert good.ok, good.summary()
    assert good.title == "Regeln"
    assert good.toc_links == 3  # the nav's links, not the in-text cross-reference


def test_screenshot_is_the_top_of_the_page(made_pages: dict[str, BrowserReport]) -> None:
    """The screenshot is one 1000x1400 viewport, not the whole scroll height."""
    shot = made_pages["good"].path.parent / "shots" / "good.png"
    assert png_size(shot) == (1000, 1400)


def test_broken_toc_link_is_caught(made_pages: dict[str, BrowserReport]) -> None:
    """A TOC entry whose target id is missing, and an empty `#`, are both reported."""
    report = made_pages["broken_toc"]
    assert not report.ok
    assert report.broken_links == ["#zugablauf", "#"]
    assert not report.console_errors and not report.external_requests


def test_console_error_is_caught(made_pages: dict[str, BrowserReport]) -> None:
    """console.error fails the page; console.log and console.warn do not."""
    report = made_pages["console_error"]
    assert report.console_errors == ["boom"], report.summary()
    assert not report.ok


def test_uncaught_exception_is_caught(made_pages: dict[str, BrowserReport]) -> None:
    """A script that throws is a page error even when nothing logs it."""
    report = made_pages["page_error"]
    assert any("undefinedFunction" in e for e in report.console_errors), report.summary()
    assert not report.ok


@pytest.mark.parametrize("name, url", [
    ("external_image", "https://example.invalid/board.png"),
    ("external_font", "http://example.invalid/f.css"),
    ("lazy_external", "https://example.invalid/late.png"),  # never requested: found in the markup
])
def test_external_resource_is_caught(made_pages: dict[str, BrowserReport], name: str,
                                     url: str) -> None:
    """Anything the page would fetch over the network breaks self-containment."""
    report = made_pages[name]
    assert url in report.external_requests, report.summary()
    assert not report.ok


def test_sibling_file_is_not_self_contained(made_pages: dict[str, BrowserReport]) -> None:
    """A local file beside the page loads here but not once the page is mailed or moved."""
    report = made_pages["sibling_file"]
    assert any(u.endswith("/board.gif") for u in report.external_requests), report.summary()
    assert not report.ok


def test_blank_page_is_caught(made_pages: dict[str, BrowserReport]) -> None:
    """An empty body or an invisible h1 is a page that did not render."""
    assert made_pages["blank"].render_problems == ["body has no visible text", "no visible h1"]
    assert made_pages["hidden_h1"].render_problems == ["no visible h1"]


def test_missing_file_is_reported_not_raised(made_pages: dict[str, BrowserReport]) -> None:
    """One unreadable page fails its own report and does not stop the others being checked."""
    report = made_pages["missing"]
    assert not report.ok
    assert report.render_problems and report.render_problems[0].startswith("browser:")
