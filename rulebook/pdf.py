"""The print version of a rulebook: its HTML page laid out on A4 by WeasyPrint (the page's print style:
page numbers, a table of contents with page numbers). Each PDF carries the hash of the HTML it was laid
out from, so `docs --check` knows it fresh in milliseconds without laying it out again."""
from __future__ import annotations

import hashlib
import re
import zlib
from pathlib import Path
from typing import Optional

SOURCE_KEY = "regelwerk-html-sha256:"
_SOURCE = re.compile(re.escape(SOURCE_KEY).encode() + rb"([0-9a-f]{64})")
_STREAM = re.compile(rb"stream\r?\n")


class NoWeasyPrint(RuntimeError):
    """WeasyPrint (the optional extra `pdf`) is not installed, and a PDF must be laid out."""


def html_hash(html: str) -> str:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()


def require_weasyprint() -> None:
    try:
        import weasyprint  # noqa: F401
    except ImportError:
        raise NoWeasyPrint("the PDF rulebooks need WeasyPrint: pip install -e '.[pdf]' "
                           "(or leave them alone with --no-pdf)") from None


def render_pdf(html: str, folder: Path) -> bytes:
    """The page laid out as a PDF; the same HTML gives the same bytes (no dates, no random id), with
    the page's title and language and the hash of its HTML as the PDF's metadata."""
    require_weasyprint()
    from weasyprint import HTML

    doc = HTML(string=html, base_url=str(folder.resolve()) + "/").render()
    meta = doc.metadata
    meta.keywords = [SOURCE_KEY + html_hash(html)]
    meta.generator = "Regelwerk"
    meta.created = meta.modified = None
    meta.custom = {}
    return bytes(doc.write_pdf())


def source_of(pdf: bytes) -> Optional[str]:
    """The hash of the HTML a PDF was laid out from, read from its metadata (which WeasyPrint may
    compress into an object stream, so streams are inflated from the last, where it writes it, until
    the key turns up)."""
    found = _SOURCE.search(pdf)
    if found:
        return found.group(1).decode()
    view = memoryview(pdf)
    for start in reversed(list(_STREAM.finditer(pdf))):
        try:
            text = zlib.decompressobj().decompress(view[start.end():])
        except zlib.error:
            continue
        found = _SOURCE.search(text)
        if found:
            return found.group(1).decode()
    return None
