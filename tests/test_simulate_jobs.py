"""`regelwerk simulate --jobs N` plays the same games as one process: same summary, digest, failures and
records; a rules file edited in place is compiled afresh, an unchanged one comes from the cache; and
playing a game reads no scenario file."""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.play.agents import make_agent
from interpreter.play.simulate import agent_seed, auto_jobs, play_bots, simulate

FIXTURES = Path(__file__).parent / "fixtures"
FAULTS = FIXTURES / "runtime_faults"


def summary(capsys: pytest.CaptureFixture[str], save: Path, *argv: str) -> tuple[int, dict[str, object], str]:
    """Exit code, the JSON summary without its timings (and with `save` written as SAVE), and stderr."""
    code = main(["simulate", *argv, "--json", "--save", str(save)])
    out, err = capsys.readouterr()
    data = json.loads(out.replace(str(save), "SAVE"))
    del data["seconds"], data["games_per_second"]
    return code, data, err.replace(str(save), "SAVE")


def records(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.json"))}


@pytest.mark.parametrize(("argv", "games"), [
    (["maechtige_monster", "--players", "4", "--variant", "waechterkette", "--agents", "random,greedy,random,greedy"], 30),
    ([str(FIXTURES / "games" / "marktplatz")], 30),
    ([str(FAULTS)], 40),
])
def test_two_jobs_give_the_summary_digest_failures_and_records_of_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], games: int) -> None:
    runs = [summary(capsys, tmp_path / f"jobs{jobs}", *argv, "--games", str(games), "--seed", "3", "--jobs", str(jobs))
            for jobs in (1, 2)]
    assert runs[0] == runs[1]
    code, data, _ = runs[0]
    assert data["games"] == games and code == (1 if data["failures"] else 0)
    if argv[0] == str(FAULTS):
        failures = data["failures"]
        assert isinstance(failures, list) and len(failures) == 2 and data["errors"] == sum(f["count"] for f in failures)
    assert records(tmp_path / "jobs1") == records(tmp_path / "jobs2") and len(records(tmp_path / "jobs1")) == games


def test_spawned_workers_load_the_game_themselves(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The start method off Linux: a fresh interpreter per worker, nothing inherited but the arguments."""
    one = summary(capsys, tmp_path / "one", str(FAULTS), "--games", "12", "--seed", "1", "--jobs", "1")
    monkeypatch.setattr(sys, "platform", "darwin")
    two = summary(capsys, tmp_path / "two", str(FAULTS), "--games", "12", "--seed", "1", "--jobs", "2")
    assert one == two and one[1]["errors"]


def test_jobs_default_to_all_cores_but_not_for_a_few_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert auto_jobs(0) == auto_jobs(19) == 1
    assert 1 <= auto_jobs(10_000) <= (os.cpu_count() or 1)
    assert main(["simulate", str(FAULTS), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_a_rules_file_edited_in_place_is_compiled_again(tmp_path: Path) -> None:
    rules = tmp_path / "game.rules"
    text = (FAULTS / "game.rules").read_text(encoding="utf-8")
    rules.write_text(text, encoding="utf-8")
    first = load_game(str(rules))
    assert load_game(str(rules)).program is first.program  # unchanged: from the cache
    rules.write_text(text.replace("players 2 to 3", "players 3 to 3"), encoding="utf-8")
    edited = load_game(str(rules))
    assert (first.num_players, edited.num_players) == (2, 3)
    rules.write_text(text, encoding="utf-8")
    assert load_game(str(rules)).program is first.program  # the same text again: the same program


def test_playing_reads_no_scenario_file_and_check_keeps_them_to_scenarios(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "game.rules").write_text((FAULTS / "game.rules").read_text(encoding="utf-8"), encoding="utf-8")
    scenario = tmp_path / "scenarios" / "broken.rules"
    scenario.write_text("scenario x { oops", encoding="utf-8")
    assert load_game(str(tmp_path)).num_players == 2  # a broken scenario does not stop a game from being played
    assert main(["check", str(tmp_path)]) == 1 and "broken.rules:1:14: error: unexpected 'oops'" in capsys.readouterr().err
    scenario.write_text("kind coin { field value: int }\n", encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 1
    assert "broken.rules:1:1: error: a file in scenarios/ holds `scenario` blocks only" in capsys.readouterr().err


def test_the_digest_is_the_hash_of_each_finished_games_seed_returns_and_labels() -> None:
    """As documented: SHA-256 over `[seed,[returns],[labels]]` (compact JSON) of each finished game, in seed
    order; the same games give the same digest, and another agent (other games) another one."""
    game = load_game("maechtige_monster", players=3)
    result = simulate(game, "maechtige_monster", 4, 7, ["random"] * 3)
    expected = hashlib.sha256()
    for seed in range(7, 11):
        state = game.new_initial_state(seed)
        play_bots(state, [make_agent("random", agent_seed(seed, seat)) for seat in range(3)])
        expected.update(json.dumps([seed, state.returns(), state.history], separators=(",", ":"),
                                   ensure_ascii=False).encode())
    assert result.digest == expected.hexdigest()
    assert simulate(game, "maechtige_monster", 4, 7, ["greedy"] * 3).digest != result.digest
