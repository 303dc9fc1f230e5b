"""Balance reports: the statistics against known values, the data a game yields, the same data on any
number of workers, and `regelwerk analyze` writing one self-contained, reproducible report."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the analyze extra: pip install -e '.[test]'")

from interpreter.cli import main  # noqa: E402
from interpreter.compile.loading import load_game  # noqa: E402
from interpreter.play.analyze import (  # noqa: E402
    Analysis,
    GameData,
    Rate,
    compare,
    correlation,
    play_counted,
    play_many,
    two_proportion_p,
    welch_p,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "balance_report"


def test_wilson_interval_and_tests_match_textbook_values() -> None:
    lo, hi = Rate(5, 10).interval
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert Rate(0, 20).interval[0] == 0.0 and Rate(20, 20).interval[1] == 1.0
    assert Rate(31, 100).text() == "31 % ± 9"
    assert two_proportion_p(Rate(50, 100), Rate(30, 100)) == pytest.approx(0.00389, abs=2e-5)
    assert two_proportion_p(Rate(3, 10), Rate(3, 10)) == 1.0
    assert correlation([1, 2, 3, 4], [0, 0, 1, 1]) == pytest.approx(0.8944, abs=1e-4)
    assert correlation([1, 1, 1], [0, 1, 0]) == 0.0
    assert welch_p([1.0] * 50 + [2.0] * 50, [1.0] * 50 + [2.0] * 50) == 1.0
    assert welch_p([1.0, 2.0] * 50, [3.0, 4.0] * 50) < 1e-6


def test_a_game_yields_each_seats_actions_and_cards() -> None:
    game = load_game("maechtige_monster", [], 4)
    data = play_counted(game, 3, ["random"] * 4)
    assert not data.error and sorted(data.returns) [-1] == 1.0
    assert len(data.scores) == 4 and data.decisions > 20
    names = {a for _, a, _ in data.actions}
    assert "place" in names
    assert sum(n for _, _, n in data.actions) <= data.decisions
    assert all(c in game.card_ids for _, c, _ in data.cards)
    assert data == play_counted(game, 3, ["random"] * 4)  # seeded: the same game again


def test_workers_yield_the_same_games_in_the_same_order() -> None:
    game = load_game("maechtige_monster", [], 3)
    here = list(play_many(game, "maechtige_monster", 12, 5, ["random"] * 3, jobs=1))
    there = list(play_many(game, "maechtige_monster", 12, 5, ["random"] * 3, jobs=2))
    assert here == there and [g.seed for g in here] == list(range(5, 17))


def _run(title: str, wins_of_seat_1: int, n: int = 100) -> Analysis:
    run = Analysis(title, [], 2, ["random", "random"])
    run.games = [GameData(k, (1.0, 0.0) if k < wins_of_seat_1 else (0.0, 1.0), (3.0, 1.0), 10 + k % 3,
                          ((0, "take", 1 if k < wins_of_seat_1 else 0),)) for k in range(n)]
    return run


def test_comparison_says_what_changed_with_its_significance() -> None:
    diffs = compare(_run("base", 60), _run("base + rule", 40), "the house rule")
    first = diffs[0]
    assert first.sentence == ("the house rule lowers seat 1's win rate from 60 % ± 9 to 40 % ± 9 "
                              f"(p = {first.p:.3f}, significant at 5 %).")
    assert first.p == pytest.approx(two_proportion_p(Rate(60, 100), Rate(40, 100)))
    same = compare(_run("a", 50), _run("b", 50), "nothing")
    assert same[0].sentence.startswith("nothing leaves seat 1's win rate at 50 % ± 10 (p = 1.000")
    take = _run("base", 60).choices("actions")[0]
    assert take.name == "take" and take.win_correlation > 0.5


def test_analyze_writes_a_reproducible_self_contained_report(tmp_path: Path) -> None:
    args = ["analyze", "maechtige_monster", "--players", "3", "--games", "12", "--compare-with",
            "billiges_verdraengen", "--jobs", "1"]
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    assert main(args + ["--out", str(tmp_path / "b"), "--jobs", "2"]) == 0
    for name in ("report.html", "data.json", "games.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    html = (tmp_path / "a" / "report.html").read_text()
    assert "Cheap displacing (house rule)" in html and html.count("<svg") >= 6
    assert not any(ref in html for ref in ('href="http', "src=", "<script", "<link", "<metadata"))
    data = json.loads((tmp_path / "a" / "data.json").read_text())
    assert [r["games"] for r in data["runs"]] == [12, 12] and len(data["differences"]) == 3 + 2
    rows = list(csv.reader((tmp_path / "a" / "games.csv").open()))
    assert len(rows) == 1 + 2 * 12 * 3


def test_the_example_report_is_checked_in() -> None:
    data = json.loads((EXAMPLE / "data.json").read_text())
    assert [r["variants"] for r in data["runs"]] == [[], ["billiges_verdraengen"]]
    assert all(r["errors"] == 0 and r["games"] >= 1000 for r in data["runs"])
