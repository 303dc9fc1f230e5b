"""What `regelwerk docs` writes and checks: every ruleset's rulebooks (base game and each variant,
German and English, Markdown and HTML) and the language reference, under generated_docs/."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from dsl.ast import Pos
from dsl.errors import error_at
from dsl.loader import (
    REPO_ROOT,
    RulesetSource,
    add_variant_files,
    find_ruleset,
    read_ruleset,
    rulesets_dir,
)
from rulebook.assemble import build_rulebook
from rulebook.language_reference import render_language_reference
from rulebook.model import Link, Rulebook
from rulebook.phrases import CATALOGUE_DIR, LANGUAGES, MissingRendering, catalogue, fill
from rulebook.render import Format, render

DOCS_DIR = REPO_ROOT / "generated_docs"
FORMATS: tuple[Format, ...] = ("md", "html")
GENERATED = ("rulebook.*.md", "rulebook.*.html")  # what a stale-check may find left over
SCREENSHOT = "first_page.png"


def rulebooks(src: RulesetSource, variants: Sequence[str] = ()) -> dict[str, Rulebook]:
    """The rulebooks of one ruleset with variants, by language; a missing rendering becomes a
    RulesError at the construct, with its source line and caret."""
    try:
        return {lang: build_rulebook(src, variants, lang) for lang in LANGUAGES}
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


def folder_of(src: RulesetSource, variants: Sequence[str]) -> str:
    """Each rulebook one folder below its game's, so its links to the base game are the same."""
    return "/".join([src.name, "+".join(variants)]) if variants else src.name


def expected_files(names: Sequence[str] = (), extra: Sequence[str] = ()) -> dict[str, str]:
    """Relative path → content of everything generated, for the named rulesets (default: all); `extra`
    variants (names or .rules files anywhere) are rendered too, each alone and all together."""
    root = rulesets_dir()
    folders = [find_ruleset(n) for n in names] if names else sorted(p for p in root.iterdir() if p.is_dir())
    files: dict[str, str] = {"language.md": render_language_reference()}
    for folder in folders:
        src = read_ruleset(folder)
        together = tuple(add_variant_files(src, extra))
        for variants in variant_sets(src) + ([together] if len(together) > 1 else []):
            for lang, book in rulebooks(src, variants).items():
                book.links = sibling_links(src, variants, lang)
                for fmt in FORMATS:
                    files[f"{folder_of(src, variants)}/rulebook.{lang}.{fmt}"] = render(book, fmt)
    return files


def sibling_links(src: RulesetSource, variants: Sequence[str], lang: str) -> list[Link]:
    """From a rulebook to the same one in the other languages, and between base game and variants."""
    ui = catalogue(lang).table("ui")
    links = [Link(catalogue(other).table("ui")["language_name"], f"rulebook.{other}")
             for other in LANGUAGES if other != lang]
    if variants:
        return links + [Link(ui["base_game"], f"../rulebook.{lang}")]
    for name, variant in src.variants.items():
        links.append(Link(fill(ui["variant_link"], "nom", {"variant": variant.title.by_lang[lang]}),
                          f"{name}/rulebook.{lang}"))
    return links


def stale_files(out: Path, expected: dict[str, str]) -> list[str]:
    """Files that differ from what the rules produce now, are missing, or are left over."""
    stale = [rel for rel, text in expected.items()
             if not (out / rel).is_file() or (out / rel).read_text(encoding="utf-8") != text]
    leftover = sorted(str(p.relative_to(out)) for pattern in GENERATED for p in out.rglob(pattern)
                      if str(p.relative_to(out)) not in expected)
    return sorted(stale) + leftover


def write_files(out: Path, expected: dict[str, str]) -> list[str]:
    """Writes what changed, removes left-over rulebooks; returns the paths touched."""
    touched = stale_files(out, expected)
    for rel in touched:
        path = out / rel
        if rel in expected:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(expected[rel], encoding="utf-8")
        else:
            path.unlink()
    return touched


def html_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("rulebook.*.html"))


def first_pages(out: Path) -> dict[Path, Path]:
    """The page whose first screen is kept for review, one per game: the base game's German rulebook."""
    return {game / "rulebook.de.html": game / SCREENSHOT for game in sorted(out.iterdir())
            if game.is_dir() and (game / "rulebook.de.html").is_file()}
