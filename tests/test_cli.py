"""The `regelwerk` command run in-process: exit codes, messages and records, as a user meets them."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Iterator

import pytest

from dsl.loader import find_ruleset
from interpreter.cli import main
from interpreter.compile.loading import load_program

GAME = "maechtige_monster"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def simulate_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    code, out, _ = run(capsys, "simulate", GAME, "--players", "4", "--games", "8", "--json", *extra)
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", GAME)
    assert code == 0
    assert out.startswith(f"ok: {GAME} (base, ") and "waechterkette" in out and "koenigs_neue_regeln" in out


def test_check_broken_copy_points_at_the_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    rules = folder / "game.rules"
    lines = rules.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines) if text.startswith("internal function guard("))
    lines[line] = lines[line].replace("top(guard_at[i])", "top(guard_att[i])")
    rules.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(folder))
    assert code == 1 and out == ""
    assert re.search(rf"game\.rules:{line + 1}:\d+: error: ", err)
    assert re.search(r"^\s+\^$", err, re.MULTILINE)
    assert "Traceback" not in err


def test_check_warns_about_definitions_still_told_as_formulas(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """A function neither `internal` nor worded by a `note` is named, so a modder sees what lacks a sentence."""
    from interpreter.cli import warn_formula_definitions
    warn_formula_definitions(GAME)
    assert capsys.readouterr().err == ""
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    rules = folder / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("internal function guard(", "function guard("),
                     encoding="utf-8")
    warn_formula_definitions(str(folder))
    err = capsys.readouterr().err
    assert "warning: definitions printed as a formula" in err and err.rstrip().endswith(": guard")


@pytest.mark.parametrize("path", ["no_such_game", "/", "pyproject.toml"])
def test_check_bad_paths_fail_in_one_line(capsys: pytest.CaptureFixture[str], path: str) -> None:
    code, _, err = run(capsys, "check", path)
    assert code == 1 and err and "Traceback" not in err


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--seed", "5")
    again = simulate_json(capsys, "--seed", "5")
    other = simulate_json(capsys, "--seed", "6")
    assert first["digest"] == again["digest"] != other["digest"]
    assert set(first) == {"games", "errors", "wins_by_seat", "ties", "no_winner", "mean_decisions", "seconds",
                          "games_per_second", "digest", "failures"}
    assert first["errors"] == 0 and first["failures"] == []
    wins = first["wins_by_seat"]
    assert isinstance(wins, list) and len(wins) == 4
    assert sum(wins) >= 8 - int(str(first["errors"]))


def test_simulate_table_names_the_agents(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", GAME, "--players", "3", "--games", "3", "--agents", "random,greedy,random")
    assert code == 0 and "greedy" in out and "games/s" in out


def test_simulate_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "simulate", GAME, "--agents", "wizard")[0] == 2
    assert run(capsys, "simulate", GAME, "--players", "4", "--agents", "random,greedy")[0] == 2
    code, _, err = run(capsys, "simulate", GAME, "--players", "9")
    assert code == 1 and "3 to 6" in err


def test_saved_records_replay_and_tampering_is_caught(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "records"
    code, _, _ = run(capsys, "simulate", GAME, "--players", "3", "--games", "3", "--seed", "11",
                     "--variant", "waechterkette", "--save", str(saved))
    assert code == 0
    files = sorted(saved.glob("*.json"))
    assert len(files) == 3
    for file in files:
        code, out, err = run(capsys, "replay", str(file))
        assert code == 0, err
        assert out.startswith("ok: ")
    record = json.loads(files[0].read_text(encoding="utf-8"))
    assert record["format"] == "regelwerk-record/1" and record["variants"] == ["waechterkette"]
    record["actions"][20] = "not a move"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(tampered))
    assert code == 1 and "step 21" in err and "legal:" in err
    record = json.loads(files[1].read_text(encoding="utf-8"))
    record["scores"][0] += 1
    tampered.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(tampered))
    assert code == 1 and "the record says" in err


def test_replay_rejects_what_is_not_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}', encoding="utf-8")
    assert run(capsys, "replay", str(bad))[0] == 1
    bad.write_text("{", encoding="utf-8")
    assert run(capsys, "replay", str(bad))[0] == 1
    assert run(capsys, "replay", str(tmp_path / "missing.json"))[0] == 1


def test_play_with_bots_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    code, out, _ = run(capsys, "play", GAME, "--players", "3", "--seed", "4", "--seats", "random,greedy,random",
                       "--save", str(save))
    assert code == 0 and "game over" in out and "winner" in out and "P2: " in out
    assert json.loads(save.read_text(encoding="utf-8"))["scores"] is not None
    assert run(capsys, "replay", str(save))[0] == 0


def test_play_with_a_human_on_piped_stdin(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nnonsense\n99\n1\n2\nq\n"))
    save = tmp_path / "human.json"
    code, out, _ = run(capsys, "play", GAME, "--players", "4", "--seed", "3", "--seats", "human,random,greedy,random",
                       "--save", str(save))
    assert code == 0
    assert "options:" in out and "is not a choice" in out and "quit." in out
    assert "(32 cards, face down)" in out and "since the last decision of P1" in out
    # the rules' own words: a face-down guard as its back shows it, cards and zones by their display names
    assert "[guard card: level 2, lowest strength" in out and "card place 1" in out and "hand of P1" in out
    assert "Place a monster: " in out and "[place " in out and "orks_" not in out.split("options:")[0]
    assert "start player P" in out and "place where the fight was lost" not in out  # `internal` values stay off screen
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["scores"] is None and record["agents"][0] == "human"
    assert run(capsys, "replay", str(save))[0] == 0


def test_play_speaks_german_with_lang_de(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nq\n"))
    code, out, _ = run(capsys, "play", GAME, "--players", "3", "--seed", "2", "--seats", "human,random,random",
                       "--lang", "de", "--save", str(tmp_path / "de.json"))
    assert code == 0
    assert "Möglichkeiten:" in out and "Runde 1" in out and "Kartenplatz 1" in out and "Hand von P1" in out
    assert "Orks 2" in out and "[Wächterkarte: Level 2, kleinste Stärke" in out and "Monster anlegen: " in out
    assert "[Monsterkarte: Monstertyp Insekten] ×3" in out  # another seat's hand: only the backs


def test_play_treats_end_of_input_as_quit(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    save = tmp_path / "eof.json"
    code, out, _ = run(capsys, "play", GAME, "--players", "3", "--seed", "1", "--seats", "human,random,random",
                       "--save", str(save))
    assert code == 0 and "quit." in out and save.exists()


def test_scenarios_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "test", GAME)
    assert code == 0
    assert re.search(r"^\d+ passed, 0 failed$", out, re.MULTILINE) and "PASS " in out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys)[0] == 2
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys, "simulate", GAME, "--games", "many")[0] == 2


OUTSIDE = '''\
# A modder's house rule, kept outside the repository.
variant reiche_spieler {
  title de "Reiche Spieler" en "Rich players"
  replace currency gold de "das Gold" en "gold" start 20
}

scenario rich_start {
  title de "Reicher Start" en "Rich start"
  players ani inga frank
  seed 1
  variant reiche_spieler
  expect ani.gold == 20 and frank.gold == 20
}
'''


@pytest.fixture
def outside_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A variant file outside the rulesets folder, named by a relative path as a modder would type it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    file = Path("mine/rich.rules")
    rewrite(file, OUTSIDE)
    yield file
    load_program.cache_clear()


def rewrite(file: Path, text: str) -> None:
    """A file changed in place: programs are cached by the files' content, so the next load reads it afresh."""
    file.write_text(text, encoding="utf-8")


def test_check_loads_a_variant_file_with_a_shipped_variant(capsys: pytest.CaptureFixture[str],
                                                           outside_variant: Path) -> None:
    code, out, err = run(capsys, "check", GAME, "--variant", str(outside_variant), "--variant", "waechterkette")
    assert code == 0, err
    assert f", {outside_variant}," in out and f"{outside_variant}+waechterkette)" in out


def test_simulate_and_play_with_a_variant_file(capsys: pytest.CaptureFixture[str], outside_variant: Path) -> None:
    plain = simulate_json(capsys, "--seed", "3")
    rich = simulate_json(capsys, "--seed", "3", "--variant", str(outside_variant), "--variant", "waechterkette")
    assert plain["digest"] != rich["digest"] and rich["errors"] == 0
    save = Path("rich.json")
    code, out, err = run(capsys, "play", GAME, "--players", "3", "--seed", "2", "--seats", "random,greedy,random",
                         "--variant", str(outside_variant), "--save", str(save))
    assert code == 0, err
    assert f"+{outside_variant}" in out and "game over" in out
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["variants"] == [str(outside_variant.resolve())]  # replays from any folder
    code, _, err = run(capsys, "replay", str(save.resolve()))  # a file a record names is never opened from it
    assert code == 1 and "give it with --variant PATH" in err
    assert run(capsys, "replay", str(save.resolve()), "--variant", str(outside_variant))[0] == 0


def test_test_runs_the_scenarios_of_the_variants_given(capsys: pytest.CaptureFixture[str],
                                                       outside_variant: Path) -> None:
    """A variant file's own scenarios test it; a shipped variant's name picks the scenarios that load it."""
    code, out, err = run(capsys, "test", GAME, "--variant", str(outside_variant))
    assert code == 0, out + err
    assert out == "PASS rich_start\n1 passed, 0 failed\n"
    code, out, _ = run(capsys, "test", GAME, "--variant", str(outside_variant), "--variant", "waechterkette")
    assert code == 0 and "PASS rich_start" in out and "PASS guard_chain_sorted_by_level" in out
    assert "ani_may_displace" not in out
    code, out, _ = run(capsys, "test", GAME)
    assert code == 0 and "rich_start" not in out and "PASS ani_may_displace" in out
    rewrite(outside_variant, OUTSIDE.replace("ani.gold == 20", "ani.gold == 8"))
    code, out, _ = run(capsys, "test", GAME, "--variant", str(outside_variant))
    assert code == 1 and f"FAIL rich_start: {outside_variant}:12:3: expectation does not hold" in out
    rewrite(outside_variant, OUTSIDE[:OUTSIDE.index("scenario")])
    code, _, err = run(capsys, "test", GAME, "--variant", str(outside_variant))
    assert code == 2 and f"no scenario loads {outside_variant}" in err


def test_docs_renders_a_variant_file_into_a_folder(capsys: pytest.CaptureFixture[str], outside_variant: Path) -> None:
    out = Path("docs")
    code, _, err = run(capsys, "docs", GAME, "--variant", str(outside_variant), "--variant", "waechterkette",
                       "--out", str(out), "--no-pdf")
    assert code == 0, err
    english = (out / GAME / "reiche_spieler" / "rulebook.en.md").read_text(encoding="utf-8")
    assert "Rich players" in english and "20" in english
    assert (out / GAME / "reiche_spieler+waechterkette" / "rulebook.de.html").is_file()
    assert "reiche_spieler/rulebook.en.md" in (out / GAME / "rulebook.en.md").read_text(encoding="utf-8")
    assert run(capsys, "docs", GAME, "--variant", str(outside_variant), "--variant", "waechterkette",
               "--check", "--out", str(out), "--no-pdf")[0] == 0
    assert not list(out.rglob("*.pdf"))
    code, _, err = run(capsys, "docs", GAME, "--variant", str(outside_variant), "--check", "--out", str(out), "--no-pdf")
    assert code == 1 and f"left over: {out / GAME / 'reiche_spieler+waechterkette' / 'rulebook.en.md'}" in err
    assert run(capsys, "docs", "--variant", str(outside_variant), "--out", str(out))[0] == 2


def test_errors_in_a_variant_file_point_into_it(capsys: pytest.CaptureFixture[str], outside_variant: Path) -> None:
    rewrite(outside_variant, OUTSIDE.replace("replace currency", "replace curency"))
    code, out, err = run(capsys, "check", GAME, "--variant", str(outside_variant))
    assert code == 1 and out == ""
    assert err.startswith(f"{outside_variant}:4:11: error: unknown keyword 'curency'; did you mean 'currency'?")
    assert re.search(r"^ {14}\^$", err, re.MULTILINE)
    rewrite(outside_variant, OUTSIDE.replace("gold de", "golt de"))
    code, _, err = run(capsys, "simulate", GAME, "--variant", str(outside_variant), "--games", "1")
    assert code == 1 and f"{outside_variant}:4:3: error: there is no currency 'golt' to replace" in err
    rewrite(outside_variant, OUTSIDE.replace("reiche_spieler", "waechterkette"))
    code, _, err = run(capsys, "check", GAME, "--variant", str(outside_variant))
    assert code == 1 and f"{outside_variant}:2:1: error: variant 'waechterkette' is defined twice" in err
    rewrite(outside_variant, "kind coin { field value: int }\n")
    code, _, err = run(capsys, "check", GAME, "--variant", str(outside_variant))
    assert code == 1
    assert f"{outside_variant}:1:1: error: a variant file holds `variant` and `scenario` blocks only" in err
    code, _, err = run(capsys, "test", GAME, "--variant", "mine/missing.rules")
    assert code == 1 and "no variant file 'mine/missing.rules'" in err


def test_check_compiles_every_scenario_expectation(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """What `test` would trip over only when it reaches the step, `check` finds without playing."""
    folder = tmp_path / GAME
    shutil.copytree(find_ruleset(GAME), folder)
    (folder / "scenarios" / "broken.rules").write_text('''\
scenario broken_expectations {
  title de "Kaputt" en "Broken"
  players ani inga frank
  seed 1
  choose ani "untote"
  expect ani.goldd == 8
  expect ani.gold
  choose jenny "orks"
}
scenario broken_variant {
  title de "Kaputt" en "Broken"
  players ani inga frank
  variant waechterkete
  expect treasury_fee == 1
}
''', encoding="utf-8")
    code, out, err = run(capsys, "check", str(folder))
    assert code == 1 and out == ""
    file = Path("scenarios") / "broken.rules"
    caret = r"\n.*\n {13}\^\n  hint: did you mean 'gold'\?"
    assert re.search(re.escape(f"{file}:6:10: error: players have no variable 'goldd'") + caret, err)
    assert f"{file}:7:3: error: an expectation must be a condition, got int" in err
    assert f"{file}:8:3: error: unknown player 'jenny'" in err
    assert f"{file}:10:1: error: scenario 'broken_variant': " in err and "did you mean 'waechterkette'?" in err
    code, out, _ = run(capsys, "check", GAME)  # the shipped scenarios all compile
    assert code == 0


@pytest.mark.parametrize(("can_win", "ties", "nobody"), [("true", 3, 0), ("false", 0, 3)])
def test_simulate_counts_ties_and_games_nobody_won(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   can_win: str, ties: int, nobody: int) -> None:
    """Equal scores are a tie (every tied seat wins); `can_win` false for all is a game nobody won."""
    folder = tmp_path / f"even_{can_win}"
    folder.mkdir()
    (folder / "game.rules").write_text(
        'game even { title de "G" en "G" players 2 to 2 }\n'
        'kind token { field n: int de "Zahl" en "number" }\n'
        'zone box de "die Schachtel" en "box" of token public\n'
        'cards token in box { card a { n = 1 } }\n'
        'action pass() de "Passen" en "Pass" { label "pass" }\n'
        'round { repeat while round < 1 phase main de "H" en "M" { choose action for first(players): pass } }\n'
        f'score(p) = 0\ncan_win(p) = {can_win}\n', encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(folder), "--games", "3", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert (summary["ties"], summary["no_winner"]) == (ties, nobody)
    assert summary["wins_by_seat"] == ([3, 3] if ties else [0, 0])
