"""What `regelwerk docs` writes and checks: every ruleset's rulebooks (base game and each variant,
in each language the game declares, Markdown, HTML and the PDF laid out from the HTML, and the SVG of
each picture) and the language reference, under generated_docs/ or --out, never outside it; of the
files there it removes only stale ones that its manifest says it wrote. A PDF is fresh when the hash
of the HTML it carries is that of the HTML the rules produce now: checking it lays nothing out."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Optional, Sequence, Union

from dsl.files import REPO_ROOT, display_name, find_ruleset, is_variant_file, rules_files, rulesets_dir
from rulebook.docs_cache import cached_texts, key_of
from rulebook.pdf import html_hash, render_pdf, require_weasyprint, source_of

if TYPE_CHECKING:  # the parser and the rulebook builder load only when something is rendered
    from dsl.loader import RulesetSource
    from rulebook.model import Link, Rulebook
    from rulebook.render import Format

DOCS_DIR = REPO_ROOT / "generated_docs"
FORMATS: tuple[Format, ...] = ("md", "html")
SCREENSHOT = "first_page.png"
# Lists what `docs` wrote into --out: only those files are ever removed (when stale), never a user's own.
MANIFEST = "written_by_regelwerk.txt"
OWNED_NAME = re.compile(r"rulebook\.[A-Za-z0-9_-]+\.(md|html|pdf)|language\.md|[a-z0-9_]+\.[A-Za-z0-9_-]+\.svg")


@dataclass(frozen=True)
class PdfOf:
    """The print version of the HTML page `html` (a path among the expected files). Not `laid_out`
    (--no-pdf): this run neither lays it out nor checks it, nor removes an earlier one."""

    html: str
    laid_out: bool = True


Content = Union[str, PdfOf]


class OutsideOutError(ValueError):
    """A generated file whose path would lead out of --out (a `..` or a symlink on the way)."""


def rulebooks(src: RulesetSource, variants: Sequence[str] = ()) -> dict[str, Rulebook]:
    """The rulebooks of one ruleset with variants, one per language the game declares; a missing
    rendering becomes a RulesError at the construct, with its source line and caret."""
    from dsl.ast import Pos
    from dsl.errors import error_at
    from dsl.validate import languages_of
    from rulebook.assemble import build_rulebook
    from rulebook.phrases import CATALOGUE_DIR, MissingRendering

    try:
        return {lang: build_rulebook(src, variants, lang) for lang in languages_of(src.items)}
    except MissingRendering as exc:
        pos = exc.pos or Pos(file=str(CATALOGUE_DIR.relative_to(REPO_ROOT)), line=1, col=1)
        err = error_at(pos, exc.message, exc.hint)
        err.sources.update(src.sources)
        raise err from None


def check_renderings(src: RulesetSource) -> None:
    """Validation: every construct of the base game and of each variant renders in every language."""
    for variants in variant_sets(src):
        rulebooks(src, variants)


def variant_sets(src: RulesetSource) -> list[tuple[str, ...]]:
    return [()] + [(name,) for name in src.variants]


def plain_name(name: str) -> str:
    """A ruleset or variant name as one folder name: no `..`, slash or other character to leave --out with."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name) or "_"


def folder_of(src: RulesetSource, variants: Sequence[str]) -> str:
    """Each rulebook one folder below its game's, so its links to the base game are the same."""
    game = plain_name(src.name)
    return "/".join([game, "+".join(plain_name(v) for v in variants)]) if variants else game


def expected_files(names: Sequence[str] = (), extra: Sequence[str] = (), pdf: bool = True) -> dict[str, Content]:
    """Relative path → content of everything generated, for the named rulesets (default: all); `extra`
    variants (names or .rules files anywhere) are rendered too, each alone and all together. A PDF's
    content is the page it is laid out from; without `pdf` the PDFs are left as they are."""
    root = rulesets_dir()
    folders = [find_ruleset(n).resolve() for n in names] if names else sorted(p for p in root.iterdir() if p.is_dir())
    texts = cached_texts(key_of("language", {}, ()), language_texts)
    for folder in folders:
        render = partial(ruleset_texts, folder, tuple(extra))
        sources = source_bytes(rules_files(folder) + [Path(ref) for ref in extra if is_variant_file(ref)])
        texts.update(render() if sources is None else cached_texts(key_of("ruleset", sources, tuple(extra)), render))
    files: dict[str, Content] = dict(texts)
    for rel in texts:
        if rel.endswith(".html"):
            files[rel.removesuffix(".html") + ".pdf"] = PdfOf(rel, pdf)
    return files


def source_bytes(paths: Sequence[Path]) -> Optional[dict[str, bytes]]:
    """The rules files a rendering reads, by the names it reports them under; None (render without the
    cache) when one is not a plain readable file, which the parser then reports."""
    if not all(path.is_file() for path in paths):
        return None
    try:
        return {display_name(path): path.read_bytes() for path in paths}
    except OSError:
        return None


def language_texts() -> dict[str, str]:
    from rulebook.language_reference import render_language_reference

    return {"language.md": render_language_reference()}


def ruleset_texts(folder: Path, extra: tuple[str, ...]) -> dict[str, str]:
    """The rulebooks (Markdown and HTML, each of which also has a PDF) and pictures of one ruleset: the
    base game, each variant, and the `extra` variants all at once."""
    from dsl.loader import add_variant_files, read_ruleset
    from rulebook.render import render

    src = read_ruleset(folder)
    together = tuple(add_variant_files(src, extra))
    texts: dict[str, str] = {}
    for variants in variant_sets(src) + ([together] if len(together) > 1 else []):
        for lang, book in rulebooks(src, variants).items():
            book.links = sibling_links(src, variants, lang)
            stem = f"{folder_of(src, variants)}/rulebook.{lang}"
            for fmt in FORMATS:
                texts[f"{stem}.{fmt}"] = render(book, fmt)
            for picture in (p for section in book.sections for p in section.pictures):
                texts[f"{folder_of(src, variants)}/{picture.file}"] = picture.svg
    return texts


def sibling_links(src: RulesetSource, variants: Sequence[str], lang: str) -> list[Link]:
    """From a rulebook to the same one in the other languages, and between base game and variants."""
    from dsl.validate import languages_of
    from rulebook.model import Link
    from rulebook.phrases import catalogue, fill

    ui = catalogue(lang).table("ui")
    links = [Link(catalogue(other).table("ui")["language_name"], f"rulebook.{other}")
             for other in languages_of(src.items) if other != lang]
    if variants:
        return links + [Link(ui["base_game"], f"../rulebook.{lang}")]
    for name, variant in src.variants.items():
        links.append(Link(fill(ui["variant_link"], "nom", {"variant": variant.title.by_lang[lang]}),
                          f"{plain_name(name)}/rulebook.{lang}"))
    return links


def inside(out: Path, rel: str) -> Path:
    """The path of a generated file, checked to stay inside `out` once `..` and symlinks are resolved."""
    path = out / rel
    if not path.resolve().is_relative_to(out.resolve()):
        raise OutsideOutError(f"refusing to write {path}: it lies outside {out}")
    return path


def owned(out: Path) -> list[str]:
    """The files the manifest says an earlier run wrote; an entry `docs` could not have written is ignored."""
    try:
        text = (out / MANIFEST).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        return []
    entries = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [rel for rel in entries if OWNED_NAME.fullmatch(PurePosixPath(rel).name)
            and not PurePosixPath(rel).is_absolute() and ".." not in PurePosixPath(rel).parts]


def planned(out: Path, expected: dict[str, Content], everything: bool) -> tuple[dict[str, Content], list[str]]:
    """What this run writes, its manifest included, and what it removes: files an earlier run wrote for
    the rulesets rendered now (for any ruleset if `everything`) that are no longer generated."""
    earlier = owned(out)
    rendered = {rel.split("/")[0] for rel in expected}
    gone = [rel for rel in earlier if rel not in expected and (everything or rel.split("/")[0] in rendered)]
    made = {rel for rel, content in expected.items() if not isinstance(content, PdfOf) or content.laid_out}
    kept = sorted((set(earlier) - set(gone)) | made)
    files = dict(expected)
    files[MANIFEST] = "# written by `regelwerk docs`; it removes only these files when they are stale\n" + \
        "".join(f"{rel}\n" for rel in kept)
    removed = [rel for rel in gone if ((out / rel).is_file() or (out / rel).is_symlink())
               and (out / rel).parent.resolve().is_relative_to(out.resolve())]
    return files, removed


def is_stale(path: Path, content: Content, files: dict[str, Content]) -> bool:
    """A text that differs or is missing; a PDF missing or laid out from another HTML than the one now."""
    if isinstance(content, PdfOf):
        page = files[content.html]
        return content.laid_out and (not path.is_file() or source_of(path.read_bytes()) != html_hash(str(page)))
    return not path.is_file() or path.read_text(encoding="utf-8") != content


def stale_files(out: Path, expected: dict[str, Content], everything: bool = False) -> list[str]:
    """Files that differ from what the rules produce now, are missing, or were generated and are left over."""
    files, removed = planned(out, expected, everything)
    stale = [rel for rel, content in files.items() if is_stale(out / rel, content, files)]
    return sorted(stale) + sorted(removed)


def write_files(out: Path, expected: dict[str, Content], everything: bool = False) -> list[str]:
    """Writes what changed, all inside `out`, and removes left-over files it wrote before; returns the
    paths touched. A PDF is laid out again only when its HTML changed."""
    files, _ = planned(out, expected, everything)
    touched = stale_files(out, expected, everything)
    targets = {rel: inside(out, rel) for rel in touched if rel in files}  # all checked before anything is written
    if any(isinstance(files[rel], PdfOf) for rel in targets):
        require_weasyprint()
    for rel in touched:
        content = files.get(rel)
        if content is None:
            (out / rel).unlink()  # planned() checked that its folder lies inside `out`
            continue
        targets[rel].parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, PdfOf):
            targets[rel].write_bytes(render_pdf(str(files[content.html]), targets[rel].parent))
        else:
            targets[rel].write_text(content, encoding="utf-8")
    return touched


def html_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("rulebook.*.html"))


def first_pages(out: Path) -> dict[Path, Path]:
    """The page whose first screen is kept for review, one per game: the base game's German rulebook."""
    return {game / "rulebook.de.html": game / SCREENSHOT for game in sorted(out.iterdir())
            if game.is_dir() and (game / "rulebook.de.html").is_file()}
