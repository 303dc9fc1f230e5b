"""`regelwerk docs` writes only inside --out, removes only files it wrote itself (the manifest lists them),
and its Markdown, like its HTML, shows the texts of a rules file as text: no HTML, no links of their own."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from dsl.loader import find_ruleset
from interpreter.cli import main
from rulebook.docs import DOCS_DIR, MANIFEST, expected_files, plain_name

GAME = "maechtige_monster"
SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(1)>"
LINK = "[click](javascript:alert(1))"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def copied_docs(tmp_path: Path) -> Path:
    out = tmp_path / "docs"
    shutil.copytree(DOCS_DIR, out)
    return out


def test_display_texts_render_escaped_in_markdown(tmp_path: Path) -> None:
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    rules = folder / "game.rules"
    text = rules.read_text(encoding="utf-8")
    text = text.replace('en "Mighty Monsters"', f'en "Mighty {SCRIPT} Monsters & Co"', 1)
    text = text.replace('en "No weaklings"', f'en "No {LINK} weaklings"', 1)
    text = text.replace('en "No strength-1 monsters may be played."', f'en "No {IMAGE} <a href=\'javascript:x\'>x</a>"', 1)
    rules.write_text(text, encoding="utf-8")
    files = expected_files([str(folder)])
    md, html = files[f"{GAME}/rulebook.en.md"], files[f"{GAME}/rulebook.en.html"]
    assert "# Mighty &lt;script&gt;alert(1)&lt;/script&gt; Monsters &amp; Co" in md
    assert "No \\[click\\](javascript:alert(1)) weaklings" in md
    assert "No &lt;img src=x onerror=alert(1)&gt; &lt;a href='javascript:x'&gt;x&lt;/a&gt;" in md
    # the only tags are the generator's anchors, the only links its own relative ones
    assert set(re.findall(r"<[^>]*>", md)) <= {"</a>"} | {f'<a id="{a}">' for a in re.findall(r'<a id="([a-z0-9-]+)">', md)}
    assert all(":" not in target for target in re.findall(r"(?<!\\)\]\(([^)]*)\)", md))
    assert SCRIPT not in html and "&lt;script&gt;" in html and "<img" not in html  # as the HTML always did


def test_docs_keeps_files_it_did_not_write(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = copied_docs(tmp_path)
    draft = out / "rulebook.draft.md"
    mine = out / GAME / "rulebook.draft.md"
    other = out / "other_game" / "rulebook.de.md"
    for path in (draft, mine, other):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("my own words", encoding="utf-8")
    assert run(capsys, "docs", "--check", "--out", str(out))[0] == 0  # not generated, so not stale either
    assert run(capsys, "docs", GAME, "--out", str(out))[0] == 0
    assert run(capsys, "docs", "--out", str(out))[0] == 0
    assert all(p.read_text(encoding="utf-8") == "my own words" for p in (draft, mine, other))
    assert "draft" not in (out / MANIFEST).read_text(encoding="utf-8")


def test_a_run_for_one_game_keeps_what_earlier_runs_wrote_for_others(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    """Rulebooks of a game not rendered now stay; a run for all games removes those of a game now gone."""
    out = copied_docs(tmp_path)
    gone = out / "old_game" / "rulebook.de.md"
    gone.parent.mkdir()
    gone.write_text("written by an earlier run", encoding="utf-8")
    with (out / MANIFEST).open("a", encoding="utf-8") as manifest:
        manifest.write("old_game/rulebook.de.md\n")
    assert run(capsys, "docs", GAME, "--out", str(out))[0] == 0
    assert gone.exists() and "old_game/rulebook.de.md" in (out / MANIFEST).read_text(encoding="utf-8")
    code, _, err = run(capsys, "docs", "--check", "--out", str(out))
    assert code == 1 and f"left over: {gone}" in err
    assert run(capsys, "docs", "--out", str(out))[0] == 0
    assert not gone.exists() and "old_game" not in (out / MANIFEST).read_text(encoding="utf-8")


def test_a_tampered_manifest_removes_nothing_outside_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = copied_docs(tmp_path)
    victim = tmp_path / "victim" / "rulebook.de.md"
    victim.parent.mkdir()
    victim.write_text("not yours", encoding="utf-8")
    notes = out / GAME / "notes.txt"
    notes.write_text("not yours either", encoding="utf-8")
    with (out / MANIFEST).open("a", encoding="utf-8") as manifest:
        manifest.write(f"../victim/rulebook.de.md\n{victim}\n{GAME}/notes.txt\n")
    assert run(capsys, "docs", "--out", str(out))[0] == 0
    assert victim.exists() and notes.exists()


def test_a_ruleset_path_ending_in_dotdot_writes_inside_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "src" / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    out = tmp_path / "out"
    code, _, err = run(capsys, "docs", str(folder / "variants" / ".."), "--out", str(out), "--no-pdf")
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "src"]
    assert sorted(p.name for p in (tmp_path / "src").iterdir()) == [GAME]
    assert {p.relative_to(out).parts[0] for p in out.rglob("*") if p.is_file()} == {GAME, "language.md", MANIFEST}


def test_names_that_are_not_plain_folder_names_are_sanitised() -> None:
    assert plain_name("..") == "__" and plain_name("a/../b") == "a____b" and plain_name("") == "_"
    assert plain_name("koenigs_neue_regeln") == "koenigs_neue_regeln"


def test_a_symlink_out_of_out_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / GAME).symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run(capsys, "docs", GAME, "--out", str(out))
    assert code == 1 and "outside" in err
    assert list(elsewhere.iterdir()) == []
