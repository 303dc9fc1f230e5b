"""Every scenario of every ruleset passes; a wrong scenario fails and says where and why."""
from __future__ import annotations

import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from dsl.loader import REPO_ROOT
from interpreter.play.scenario import ScenarioResult, run_all, scenarios_of

RULESETS_DIR = REPO_ROOT / "rulesets"
RULESETS = sorted(p.name for p in RULESETS_DIR.iterdir() if (p / "game.rules").is_file())


def all_scenarios() -> list[tuple[str, str]]:
    """(ruleset, scenario name) for every scenario found under rulesets/."""
    out: list[tuple[str, str]] = []
    for ruleset in RULESETS:
        _, scenarios = scenarios_of(ruleset)
        out.extend((ruleset, s.name) for s in scenarios)
    return out


SCENARIOS = all_scenarios()


@lru_cache(maxsize=None)
def results_of(ruleset: str) -> dict[str, ScenarioResult]:
    """run_all once per ruleset, results by scenario name."""
    results = run_all(ruleset)
    by_name = {r.name: r for r in results}
    assert len(by_name) == len(results), "two scenarios share a name"
    return by_name


def test_rulesets_have_scenarios() -> None:
    """Mächtige Monster ships its rulebook examples as scenarios."""
    assert "maechtige_monster" in RULESETS
    names = {name for ruleset, name in SCENARIOS if ruleset == "maechtige_monster"}
    assert {"ani_may_displace", "ani_may_not_displace", "inga_and_frank_share_loot",
            "displacement_payments"} <= names


@pytest.mark.parametrize("ruleset,name", SCENARIOS, ids=[f"{r}/{n}" for r, n in SCENARIOS])
def test_scenario_passes(ruleset: str, name: str) -> None:
    """The scenario runs to its last step and every expectation holds."""
    result = results_of(ruleset)[name]
    assert result.passed, f"{result.file}: {result.message}"
    assert result.message == ""
    assert result.steps > 0


WRONG = """\
# Deliberately wrong scenarios for tests/test_scenarios.py.
scenario wrong_gold {
  title de "Falsches Gold" en "Wrong gold"
  players ani inga frank jenny
  seed 1
  choose ani "orks"
  chance "orks_4"
  chance "orks_5"
  chance "orks_1"
  choose inga "untote"
  choose frank "meereswesen"
  choose jenny "daemonen"
  chance "P2"
  expect ani.gold == 8
  expect ani.gold + 1 == 2 * inga.gold
}

scenario wrong_choice {
  title de "Unerlaubter Zug" en "Illegal move"
  players ani inga frank
  seed 1
  choose ani "orks"
  choose inga "untote"
  choose frank "drachen"
  chance "P1"
  choose ani "place orks_9 at 1"
}

scenario wrong_legal {
  title de "Falsche Erwartung" en "Wrong expectation"
  players ani inga frank
  seed 1
  choose ani "orks"
  choose inga "untote"
  choose frank "drachen"
  chance "P1"
  expect illegal ani "place orks_5 at 1"
}

scenario wrong_seat {
  title de "Falscher Spieler" en "Wrong seat"
  players ani inga frank
  seed 1
  choose inga "untote"
}

scenario right_one {
  title de "Richtig" en "Right"
  players ani inga frank
  seed 1
  choose ani "orks"
  expect ani.gold == 8
}
"""


def line_of(text: str, needle: str, after: str = "") -> int:
    """1-based line number of the first line containing `needle` after the line containing `after`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and needle in line) + 1


@pytest.fixture(scope="module")
def wrong_results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, ScenarioResult]]:
    """A copy of Mächtige Monster with one more scenario file, run by run_all restricted to that file."""
    folder = tmp_path_factory.mktemp("wrong") / "maechtige_monster"
    shutil.copytree(RULESETS_DIR / "maechtige_monster", folder)
    wrong = folder / "scenarios" / "wrong.rules"
    wrong.write_text(WRONG, encoding="utf-8")
    everything = run_all(str(folder))
    mine = {r.name: r for r in everything if r.file.endswith("wrong.rules")}
    assert set(mine) == {"wrong_gold", "wrong_choice", "wrong_legal", "wrong_seat", "right_one"}
    # the copied rulebook examples still pass next to the wrong ones
    assert all(r.passed for r in everything if not r.file.endswith("wrong.rules"))
    return wrong, mine


def test_failed_comparison_names_place_and_both_sides(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """A false `expect a == b` fails with file:line of the step and the value of each side."""
    wrong, results = wrong_results
    result = results["wrong_gold"]
    assert not result.passed
    line = line_of(WRONG, "expect ani.gold + 1 == 2 * inga.gold")
    assert re.search(rf"wrong\.rules:{line}:\d+", result.message), result.message
    assert "left side is 9" in result.message and "right side is 16" in result.message, result.message
    assert result.steps == line_of(WRONG, "expect ani.gold == 8", "wrong_gold") - line_of(WRONG, "choose ani", "wrong_gold") + 1


def test_illegal_choice_names_place(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """Choosing an option that is not offered fails at that step's line and names the label."""
    _, results = wrong_results
    result = results["wrong_choice"]
    assert not result.passed
    line = line_of(WRONG, 'choose ani "place orks_9 at 1"')
    assert f"wrong.rules:{line}:" in result.message, result.message
    assert "place orks_9 at 1" in result.message


def test_wrong_legality_expectation_lists_options(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """`expect illegal` on a legal option fails at its line and shows the options."""
    _, results = wrong_results
    result = results["wrong_legal"]
    assert not result.passed
    line = line_of(WRONG, 'expect illegal ani "place orks_5 at 1"')
    assert f"wrong.rules:{line}:" in result.message, result.message
    assert "place orks_5 at 1" in result.message and "is legal" in result.message


def test_wrong_seat_names_place(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """A choice by a seat that is not to decide fails at its line and says who decides."""
    _, results = wrong_results
    result = results["wrong_seat"]
    assert not result.passed
    line = line_of(WRONG, 'choose inga "untote"', "wrong_seat")
    assert f"wrong.rules:{line}:" in result.message, result.message
    assert "inga" in result.message and "P1" in result.message


def test_right_scenario_in_the_same_file_passes(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """One failing scenario does not spoil the others."""
    _, results = wrong_results
    assert results["right_one"].passed and results["right_one"].steps == 2


def test_run_all_only_one_file(wrong_results: tuple[Path, dict[str, ScenarioResult]]) -> None:
    """run_all(only=…) runs just the scenarios of that file."""
    wrong, _ = wrong_results
    results = run_all(str(wrong.parent.parent), only=Path(str(wrong)))
    names = {r.name for r in results}
    assert names <= {"wrong_gold", "wrong_choice", "wrong_legal", "wrong_seat", "right_one"}
