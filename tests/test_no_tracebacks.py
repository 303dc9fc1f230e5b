"""No rules text, however mangled, makes loading or rendering its rulebooks fail with anything but
a RulesError.

A property test mutates the reference game (deletes a span, duplicates a line, swaps two tokens,
inserts a character or keyword) and loads it; a few hand-made nasty inputs pin fixed bugs down."""
from __future__ import annotations

import re
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.errors import RulesError
from dsl.loader import read_ruleset
from interpreter.compile.loading import load_program
from rulebook.docs import rulebooks

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rulesets" / "maechtige_monster"
SOURCE = (GAME / "game.rules").read_text(encoding="utf-8")
TOKEN = re.compile(r'[a-z_][a-z0-9_]*|\d+|"[^"\n]*"|\S')
WORDS = sorted({m.group() for m in TOKEN.finditer(SOURCE)})
INSERTS = ["{", "}", "(", ")", "[", "]", ",", ":", "=", "==", ".", '"', "#", "-", "\t", "\n", "\x0c", "\u2028",
           "\ufeff", "ä", "$", "\\", "0", "99999999999999999999", "game", "kind", "zone", "rule", "action",
           "round", "phase", "score", "variant", "add", "replace", "remove", "let", "set", "move", "pay", "if",
           "for", "break", "call", "modify", "forbid", "until end of round", "de", "en", 'de "x"', "label"]
VARIANT_SETS = [(), ("koenigs_neue_regeln",), ("waechterkette",), ("waechterkette", "koenigs_neue_regeln")]

Draw = st.DrawFn


def _delete_span(text: str, draw: Draw) -> str:
    """Delete up to 80 characters somewhere."""
    start = draw(st.integers(0, len(text) - 1))
    length = draw(st.integers(1, 80))
    return text[:start] + text[start + length:]


def _duplicate_line(text: str, draw: Draw) -> str:
    """Write one line twice."""
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    return "\n".join(lines[:i + 1] + lines[i:])


def _swap_tokens(text: str, draw: Draw) -> str:
    """Swap two tokens (names, numbers, texts or punctuation)."""
    tokens = list(TOKEN.finditer(text))
    i, j = sorted(draw(st.lists(st.integers(0, len(tokens) - 1), min_size=2, max_size=2, unique=True)))
    a, b = tokens[i], tokens[j]
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def _insert(text: str, draw: Draw) -> str:
    """Insert a keyword, a word of the game, punctuation or any character."""
    at = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(INSERTS) | st.sampled_from(WORDS) | st.characters(exclude_categories=("Cs",)))
    return text[:at] + piece + text[at:]


def _replace_token(text: str, draw: Draw) -> str:
    """Replace one token by another word or piece."""
    tokens = list(TOKEN.finditer(text))
    tok = tokens[draw(st.integers(0, len(tokens) - 1))]
    return text[:tok.start()] + draw(st.sampled_from(WORDS + INSERTS)) + text[tok.end():]


MUTATIONS = [_delete_span, _duplicate_line, _swap_tokens, _insert, _replace_token]


@st.composite
def mutated_game(draw: Draw) -> str:
    """The reference game.rules with one to three random mutations."""
    text = SOURCE
    for _ in range(draw(st.integers(1, 3))):
        mutation = draw(st.sampled_from(MUTATIONS))
        text = mutation(text, draw)
    return text


def load_text(text: Optional[str], variants: tuple[str, ...] = (), raw: Optional[bytes] = None,
              with_variants: bool = True) -> Optional[RulesError]:
    """Write the text as game.rules of a fresh ruleset folder and load it: None on success, the
    RulesError on a reported problem; any other exception fails the test."""
    folder = Path(tempfile.mkdtemp(prefix="regelwerk_fuzz_"))
    try:
        if with_variants:
            shutil.copytree(GAME / "variants", folder / "variants")
        if raw is not None:
            (folder / "game.rules").write_bytes(raw)
        else:
            (folder / "game.rules").write_text(text or "", encoding="utf-8")
        load_program.cache_clear()
        try:
            load_program(str(folder), variants)
            rulebooks(read_ruleset(folder), variants)
        except RulesError as error:
            check_positions(error)
            return error
        except Exception:  # noqa: BLE001 - the point: nothing but a RulesError may escape
            pytest.fail(f"a Python exception instead of a RulesError:\n{traceback.format_exc()}\n"
                        f"--- input ---\n{text if raw is None else raw!r}")
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        load_program.cache_clear()


def check_positions(error: RulesError) -> None:
    """Every diagnostic points at a real line and column of its file and draws a caret there."""
    text = error.render()
    assert "Traceback" not in text
    for diag in error.diagnostics:
        source = error.sources.get(diag.file)
        assert source is not None, f"no source for {diag.file}:\n{text}"
        assert 1 <= diag.line <= source.count("\n") + 1, text
        assert 1 <= diag.col <= len(source.split("\n")[diag.line - 1]) + 1, text
        assert diag.render(error.sources).split("\n")[2].strip() == "^", text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated_game(), variants=st.sampled_from(VARIANT_SETS))
def test_mutated_game_loads_or_reports(text: str, variants: tuple[str, ...]) -> None:
    """A mutated reference game either loads or fails with a RulesError that points into the file."""
    load_text(text, variants)


LOADS = {"bom"}  # inputs that are fine
NASTY = {
    "empty": "",
    "only_comment": "# nothing here\n",
    "only_variant": 'variant v { title de "V" en "V" add phase q de "Q" en "Q" before p { } }\n',
    "nested_variant": SOURCE + 'variant v { title de "V" en "V" add variant w { title de "W" en "W" } }\n',
    "nested_scenario": SOURCE + 'variant v { title de "V" en "V" replace scenario s { title de "S" en "S" } }\n',
    "deep_lists": SOURCE + "const deep = " + "[" * 3000 + "1" + "]" * 3000 + "\n",
    "deep_nots": SOURCE + "const deep = " + "not " * 3000 + "true\n",
    "long_sum": SOURCE + "const long = " + "+".join(["1"] * 3000) + "\n",
    "form_feed": SOURCE.replace("score(p)", "\x0c\nscore(p)").replace("= p.gold", "= p.glod"),
    "unclosed_text_at_end": SOURCE + 'const late = 1 de "spät',
    "bom": "\ufeff" + SOURCE,
    "id_template_format": SOURCE.replace('id "{type}_{strength}"', 'id "{type}_{strength:q}"'),
    "id_template_brace": SOURCE.replace('id "{type}_{strength}"', 'id "{type}_{strength"'),
    "label_positional": SOURCE.replace('label "place {card} at {i}"', 'label "place {} at {i} {card}"'),
    "label_format": SOURCE.replace('label "place {card} at {i}"', 'label "place {card:d} at {i}"'),
    "duplicate_score": SOURCE + "score(p) = 0\n",
    "players_backwards": SOURCE.replace("players 3 to 6", "players 6 to 3"),
    "huge_number": SOURCE.replace("players 3 to 6", "players 3 to " + "9" * 5000),
    "function_text_unknown_slot": SOURCE.replace('en "pair sum at attack place {i}"', 'en "pair sum at {j}"'),
    "function_text_bad_form": SOURCE.replace('en "pair sum at attack place {i}"', 'en "pair sum at {i:q}"'),
    "function_text_brace": SOURCE.replace('en "pair sum at attack place {i}"', 'en "pair sum at {i"'),
    "zone_text_braces": SOURCE.replace('en "guard deck"', 'en "guard {deck}"'),
}
LOADS |= {"zone_text_braces"}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_nasty_input_is_reported(name: str) -> None:
    """Inputs that once escaped as Python exceptions (or could) are reported as RulesErrors."""
    error = load_text(NASTY[name], ("koenigs_neue_regeln",))
    assert (error is None) == (name in LOADS), error.render() if error else "loaded"


def test_not_utf8_is_reported() -> None:
    """A file that is not UTF-8 is a RulesError at the first bad byte."""
    error = load_text(None, raw=SOURCE.encode("utf-8").replace("Mächtige".encode(), b"M\xe4chtige", 1))
    assert error is not None and "not UTF-8" in error.render()
