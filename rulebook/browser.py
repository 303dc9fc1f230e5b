"""Opens generated HTML rulebooks in headless Chromium (Debian's, via Playwright) and reports what a
reader would hit: a blank page, dead table-of-contents links, script errors, or anything fetched
from outside the file."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, ViewportSize

# The network is closed and the pages must be self-contained: Chromium must not phone home either.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT: ViewportSize = {"width": 1000, "height": 1400}
# Schemes that stay inside the page itself; any other URL the page asks for is a dependency.
INLINE_SCHEMES = ("data:", "blob:", "about:", "javascript:")

# One DOM pass: the title, whether a reader sees something, the in-page links and the ones that go
# nowhere, and every resource URL the markup names (lazy images below the fold fire no request).
_INSPECT_JS = """
() => {
  const body = document.body;
  const h1 = document.querySelector('h1');
  const visible = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
      && el.innerText.trim() !== '';
  };
  const navLinks = document.querySelectorAll('nav a[href^="#"]');
  const allLinks = Array.from(document.querySelectorAll('a[href^="#"]'));
  const broken = [];
  for (const a of allLinks) {
    const href = a.getAttribute('href');
    let id = href.slice(1);
    try { id = decodeURIComponent(id); } catch (e) {}
    if (id === '' || document.getElementById(id) === null) broken.push(href);
  }
  const refs = [];
  const add = (v) => {
    if (!v || v.startsWith('#')) return;
    try { refs.push(new URL(v, document.baseURI).href); } catch (e) { refs.push(v); }
  };
  // <link rel=alternate href=rulebook.de.html> is a link for the reader, not a resource.
  const loads = /\\b(stylesheet|icon|preload|modulepreload|prefetch|preconnect|dns-prefetch|manifest)\\b/i;
  const sel = '[src], [srcset], link[href], [poster], object[data], image[href], use[href]';
  for (const el of document.querySelectorAll(sel)) {
    add(el.getAttribute('src'));
    add(el.getAttribute('poster'));
    add(el.getAttribute('data'));
    if (el.tagName === 'LINK' ? loads.test(el.getAttribute('rel') || '') : el.tagName !== 'A') {
      add(el.getAttribute('href'));
    }
    const set = el.getAttribute('srcset');
    if (set) for (const part of set.split(',')) add(part.trim().split(/\\s+/)[0]);
  }
  return {
    title: document.title,
    bodyText: body ? body.innerText.trim().length : 0,
    h1: visible(h1),
    tocLinks: navLinks.length > 0 ? navLinks.length : allLinks.length,
    broken: broken,
    refs: refs,
  };
}
"""


@dataclass
class BrowserReport:
    """What one page did in a real browser; `ok` is the gate the tests use."""

    path: Path
    title: str
    toc_links: int
    broken_links: list[str]
    console_errors: list[str]
    external_requests: list[str]
    # Page-level failures that fit none of the lists above: blank body, no visible h1, load failed.
    render_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """A page passes only if a reader would meet none of the problems recorded."""
        return not (self.broken_links or self.console_errors or self.external_requests
                    or self.render_problems)

    def summary(self) -> str:
        """One readable paragraph per page, for assertion messages."""
        lines = [f"{self.path}: {'ok' if self.ok else 'FAILED'} (title {self.title!r}, "
                 f"{self.toc_links} TOC links)"]
        for label, items in (("render", self.render_problems), ("broken link", self.broken_links),
                             ("console error", self.console_errors),
                             ("external request", self.external_requests)):
            lines += [f"  {label}: {item}" for item in items]
        return "\n".join(lines)


def chromium_path() -> str | None:
    """Where Debian's Chromium is, or None, so callers can skip instead of crash."""
    override = os.environ.get("REGELWERK_CHROMIUM")
    if override:
        return override if os.access(override, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _is_self(url: str, page_url: str) -> bool:
    """The page's own file, with or without a fragment, is not a dependency."""
    return url.split("#", 1)[0] == page_url.split("#", 1)[0]


def check_pages(paths: list[Path], screenshots: dict[Path, Path] | None = None
                ) -> list[BrowserReport]:
    """Check every page in one browser (launching is the slow part); `screenshots` maps a page to
    the PNG that gets the top of that page at 1000x1400."""
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    if exe is None:
        raise FileNotFoundError("Chromium not found (apt-get install chromium)")
    shots = {p.resolve(): s for p, s in (screenshots or {}).items()}
    reports: list[BrowserReport] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            for path in paths:
                path = path.resolve()
                context = browser.new_context(viewport=VIEWPORT)
                try:
                    reports.append(_check_one(context, path, shots.get(path)))
                finally:
                    context.close()
        finally:
            browser.close()
    return reports


def _check_one(context: BrowserContext, path: Path, screenshot: Path | None) -> BrowserReport:
    """Load one page with every outside request recorded and refused, then inspect its DOM."""
    from playwright.sync_api import ConsoleMessage, Error, Request, Route

    page_url = path.as_uri()
    console_errors: list[str] = []
    external: list[str] = []
    problems: list[str] = []

    def note_external(url: str) -> None:
        if not url.startswith(INLINE_SCHEMES) and not _is_self(url, page_url) \
                and url not in external:
            external.append(url)

    def on_route(route: Route) -> None:
        url = route.request.url
        note_external(url)
        if url.startswith(("file:", *INLINE_SCHEMES)):
            route.continue_()
        else:
            route.abort()  # refused here, never sent: a self-contained page doesn't notice

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            where = msg.location.get("url", "")
            line = msg.location.get("lineNumber")
            suffix = "" if not where or _is_self(where, page_url) else \
                f" ({where}:{line})" if line else f" ({where})"
            console_errors.append(msg.text + suffix)

    def on_request(request: Request) -> None:
        note_external(request.url)

    context.route("**/*", on_route)
    page = context.new_page()
    page.on("console", on_console)
    page.on("pageerror", lambda err: console_errors.append(f"uncaught: {err.message}"))
    page.on("request", on_request)
    page.on("websocket", lambda ws: note_external(ws.url))
    page.on("crash", lambda _: problems.append("page crashed"))

    title = ""
    toc_links = 0
    broken: list[str] = []
    try:
        page.goto(page_url, wait_until="load", timeout=30_000)
        # Let timers and frames queued during load run (and log) before looking; networkidle
        # would cost a fixed 500 ms a page for nothing, as outside requests are refused at once.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
        info = page.evaluate(_INSPECT_JS)
        title = str(info["title"])
        toc_links = int(info["tocLinks"])
        broken = [str(h) for h in info["broken"]]
        if info["bodyText"] == 0:
            problems.append("body has no visible text")
        if not info["h1"]:
            problems.append("no visible h1")
        for ref in info["refs"]:
            note_external(str(ref))
        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshot), full_page=False)
    except Error as err:
        problems.append(f"browser: {err.message.splitlines()[0]}")
    return BrowserReport(path=path, title=title, toc_links=toc_links, broken_links=broken,
                         console_errors=console_errors, external_requests=external,
                         render_problems=problems)
