"""`arrange { … }` in a scenario: statements that put a worked example's position in place, after which
the open node offers what the arranged state allows; what it refuses, located."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl.errors import RulesError
from interpreter.play.scenario import check_scenario, run_all, scenarios_of

GAME = Path(__file__).parent / "fixtures" / "games" / "marktplatz"
HEAD = """scenario s {
  title de "S" en "S" fr "S"
  players ani bo
  seed 1
  expect legal ani "P1 takes from stall 1"
"""


def _game_with(tmp_path: Path, steps: str) -> Path:
    """The fixture game with one scenario of its own: HEAD, then `steps`."""
    folder = tmp_path / "marktplatz"
    shutil.copytree(GAME / "scenarios", folder / "scenarios")
    shutil.copy(GAME / "game.rules", folder / "game.rules")
    (folder / "scenarios" / "examples.rules").write_text(HEAD + steps + "}\n")
    return folder


def _result(folder: Path) -> str:
    (result,) = run_all(str(folder))
    return "PASS" if result.passed else result.message


def test_the_open_decision_is_offered_again_from_the_arranged_state(tmp_path: Path) -> None:
    folder = _game_with(tmp_path, """
  arrange {
    for i in positions(market) {
      move cards(market[i]) to deck
    }
  }
  expect all(count(market[i]) == 0 for i in positions(market))
""")
    assert "no legal action" in _result(folder)  # an empty market leaves nothing to take


def test_rules_run_inside_arrange_and_the_seat_names_are_players(tmp_path: Path) -> None:
    folder = _game_with(tmp_path, """
  arrange {
    move card("moon_4") to basket(bo)
    give card("moon_4") to bo
  }
  expect owner(card("moon_4")) == bo
  expect moon_points(bo) >= 4
""")
    assert _result(folder) == "PASS"


@pytest.mark.parametrize("stmt, word", [("let x = choose ani from [1, 2]", "choose"),
                                         ("let x = random [1, 2]", "random"),
                                         ("draw from deck to basket(ani)", "draw"),
                                         ("choose action for ani: take", "choose action"),
                                         ("end game", "end game")])
def test_statements_that_decide_or_draw_are_refused_when_checked(tmp_path: Path, stmt: str, word: str) -> None:
    folder = _game_with(tmp_path, f"  arrange {{\n    {stmt}\n  }}\n")
    _, (scen,) = scenarios_of(str(folder))
    with pytest.raises(RulesError) as err:
        check_scenario(str(folder), scen, [])
    message = err.value.render()
    assert f"`arrange` cannot hold `{word}`" in message
    assert "examples.rules:7:5" in message  # the refused statement's own line and column


def test_a_rule_that_opens_a_decision_fails_the_step(tmp_path: Path) -> None:
    folder = _game_with(tmp_path, """
  arrange {
    call offer_swap(ani, card("moon_4"))
  }
""")
    message = _result(folder)
    assert "examples.rules:7:3:" in message
    assert "led to a decision" in message


def test_a_runtime_error_inside_arrange_names_its_statement(tmp_path: Path) -> None:
    folder = _game_with(tmp_path, """
  arrange {
    move top(deck) to market[1]
    move top(deck) to market[1]
  }
""")
    message = _result(folder)
    assert "examples.rules:8:" in message and "holds at most 1" in message


def test_unknown_names_are_reported_by_check(tmp_path: Path) -> None:
    folder = _game_with(tmp_path, "  arrange {\n    set nobody.coins = 1\n  }\n")
    _, (scen,) = scenarios_of(str(folder))
    with pytest.raises(RulesError) as err:
        check_scenario(str(folder), scen, [])
    assert "examples.rules:7:" in err.value.render()
