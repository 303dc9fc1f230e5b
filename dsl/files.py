"""Where rules files are and how they are named in messages: plain path work with no parser behind it,
so callers that only look at files (the docs cache) load none of the language."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def rulesets_dir() -> Path:
    return Path(os.environ.get("REGELWERK_RULESETS", REPO_ROOT / "rulesets"))


def find_ruleset(name: str) -> Path:
    path = Path(name)
    if path.exists():
        return path
    candidate = rulesets_dir() / name
    if candidate.is_dir():
        return candidate
    from dsl.errors import did_you_mean  # only for the message: it loads the AST

    known = sorted(p.name for p in rulesets_dir().iterdir() if p.is_dir()) if rulesets_dir().is_dir() else []
    hint = did_you_mean(name, known)
    raise FileNotFoundError(f"no ruleset '{name}'" + (f"; {hint}" if hint else f" (known: {', '.join(known)})"))


def display_name(path: Path) -> str:
    """A file as messages and rulebooks name it: relative to the working folder when it lies inside."""
    try:
        return str(path.parent.resolve().relative_to(Path.cwd().resolve()) / path.name)  # a symlink keeps its name
    except (ValueError, OSError, RuntimeError):  # outside the working folder, or a symlink loop
        return str(path)


def rules_files(folder: Path, scenarios: bool = True) -> list[Path]:
    """The files of a ruleset; those in scenarios/ only if `scenarios` (playing a game needs none of them)."""
    if not folder.is_dir():  # one file; a FIFO or device given by name is refused when it is read
        return [folder]
    files = sorted(folder.glob("*.rules"))
    for sub in ("variants", "scenarios") if scenarios else ("variants",):
        files += sorted((folder / sub).glob("*.rules"))
    return files


def is_variant_file(ref: str) -> bool:
    """A `--variant` value naming an existing .rules file, anywhere on disk; any other value is a variant's name."""
    return ref.endswith(".rules") and Path(ref).is_file()
