"""Rules errors at run time name the rules file, line and column that failed, the seed and the decision
number; `simulate` reports each kind of failure with a command that reproduces it, and exits 1."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.cli import main
from interpreter.play.simulate import reproduce_command
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game

FAULTS = Path(__file__).parent / "fixtures" / "runtime_faults"
FAULTS_RULES = (FAULTS / "game.rules").read_text(encoding="utf-8")

PRELUDE = """
game probe {
  players 2 to 3
}
kind tok {
  field v: int
  field w: int
  id "t{v}"
}
cards tok in box {
  columns v w
  row 1 10
  row 2 20
}
zone box of tok public
zone pile of tok public
zone out of tok public
zone spot [2] of tok public capacity 1
var acc: int = 0
"""
REST = """action rest(x in [me]) {
  label "rest {x}"
}
"""
NO_ROUNDS = """
round {
  repeat while round < 1
  phase idle { }
}
score(p) = 0
"""


def build(tmp_path: Path, body: str) -> Game:
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(PRELUDE + body, encoding="utf-8")
    return load_game(str(folder), players=2)


def place(text: str, line_text: str, at: str) -> tuple[int, int]:
    """Line and column (both from 1) of `at` inside the line `line_text` of `text`."""
    lines = text.splitlines()
    line = lines.index(line_text)
    return line + 1, lines[line].index(at) + 1


def setup(*lines: str) -> str:
    return "setup {\n" + "\n".join(lines) + "\n}\n" + NO_ROUNDS


BAD_EDGES = "count(neighbours([[1]], 1))"
EDGE_MESSAGE = "an edge needs exactly two nodes [a, b], got [1]"

# (body, the failing line, where in it the error must point, a fragment of the message)
CASES = {
    "empty first": (setup("  move first(pile) to out"), "  move first(pile) to out", "first",
                    "first of an empty list or zone"),
    "family index": (setup("  move card(\"t1\") to spot[acc + 5]"), "  move card(\"t1\") to spot[acc + 5]", "spot[",
                     "spot[5] does not exist (1 to 2)"),
    "division": (setup("  set acc = 7 + 10 / acc"), "  set acc = 7 + 10 / acc", "10 /", "division by zero"),
    "require": (setup("  require acc == 1"), "  require acc == 1", "require", "requirement failed"),
    "capacity": (setup("  move card(\"t1\") to spot[1]", "  move card(\"t2\") to spot[1]"),
                 "  move card(\"t2\") to spot[1]", "move", "spot[1] holds at most 1 card(s)"),
    "capacity of a zone held in a name": (setup("  let z = spot[1]", "  move card(\"t1\") to z", "  move card(\"t2\") to z"),
                                          "  move card(\"t2\") to z", "move", "spot[1] holds at most 1 card(s)"),
    "no options": (setup("  let x = choose first(players) from [c for c in pile]"),
                   "  let x = choose first(players) from [c for c in pile]", "let", "a decision with no options"),
    "choose for the bank": (setup("  let x = choose owner(card(\"t1\")) from [1, 2]"),
                            "  let x = choose owner(card(\"t1\")) from [1, 2]", "let",
                            "a decision for seat -1, which is no player (the players are seats 0 to 1, P1 to P2)"),
    "action for the bank": (REST + setup("  choose action for owner(card(\"t1\")): rest"),
                            "  choose action for owner(card(\"t1\")): rest", "choose", "a decision for seat -1"),
    # the turns' player is a seat throughout (a count by owner reads it unchecked), even where no turn is taken
    "turns from the bank": (setup("  turns p from owner(card(\"t1\")) until true {", "    set acc = 1", "  }"),
                            "  turns p from owner(card(\"t1\")) until true {", "turns",
                            "the turns start at seat -1, which is no player"),
    # a helper that does not know its place: the error names the definition that called it
    "trigger condition": (f"when moved(c, origin, dest) where {BAD_EDGES} > 0 {{\n  set acc = 1\n}}\n"
                          + setup("  move card(\"t1\") to out"),
                          f"when moved(c, origin, dest) where {BAD_EDGES} > 0 {{", "when", EDGE_MESSAGE),
    "modifier": (setup(f"  modify tok.w by {BAD_EDGES} until end of game", "  set acc = card(\"t1\").w"),
                 f"  modify tok.w by {BAD_EDGES} until end of game", "modify", EDGE_MESSAGE),
    "forbid condition": (REST + setup(f"  forbid rest where {BAD_EDGES} > 0 until end of game",
                                      "  choose action for first(players): rest"),
                         f"  forbid rest where {BAD_EDGES} > 0 until end of game", "forbid", EDGE_MESSAGE),
    "action prefix": (f"action peek(x in [1]) {{\n  label \"peek {{x}}\"\n  require {BAD_EDGES} > x\n}}\n"
                      + setup("  choose action for first(players): peek"),
                      "action peek(x in [1]) {", "action", EDGE_MESSAGE),
    # the lister's actions share one `try`: the line that raised names the action
    "action prefix, the first of two": (REST + f"action peek(x in [1]) {{\n  label \"peek {{x}}\"\n  require {BAD_EDGES} > x\n}}\n"
                                        + setup("  choose action for first(players): peek, rest"),
                                        "action peek(x in [1]) {", "action", EDGE_MESSAGE),
    "action prefix, the second of two": (REST + f"action peek(x in [1]) {{\n  label \"peek {{x}}\"\n  require {BAD_EDGES} > x\n}}\n"
                                         + setup("  choose action for first(players): rest, peek"),
                                         "action peek(x in [1]) {", "action", EDGE_MESSAGE),
    "modifier, located inside": (setup("  modify tok.w by first(pile).v until end of game",
                                       "  set acc = card(\"t1\").w"),
                                 "  modify tok.w by first(pile).v until end of game", "first",
                                 "first of an empty list or zone"),
    "card id": ("var wanted: text = \"t9\"\n" + setup("  move card(wanted) to out"), "  move card(wanted) to out",
                "card", "there is no card 't9'"),
    # a card of any kind: its kind is checked at the move, not at load
    "kind of the card": ("kind gem {\n  field v: int\n  id \"g{v}\"\n}\ncards gem in gems {\n  columns v\n  row 1\n}\n"
                         "zone gems of gem public\nrule tidy(c: card) {\n  move c to pile\n}\n"
                         + setup("  call tidy(card(\"g1\"))"), "  move c to pile", "move",
                         "cannot move the gem g1 into pile: it holds tok cards"),
    "start value": (f"var bad: int = {BAD_EDGES}\n" + setup(), f"var bad: int = {BAD_EDGES}", "count", EDGE_MESSAGE),
    "score": (f"round {{\n  repeat while round < 1\n  phase idle {{ }}\n}}\nscore(p) = {BAD_EDGES}\n",
              f"score(p) = {BAD_EDGES}", "score", EDGE_MESSAGE),
}


@pytest.mark.parametrize("case", CASES)
def test_a_rules_error_names_file_line_column_seed_and_decision(tmp_path: Path, case: str) -> None:
    body, line_text, at, fragment = CASES[case]
    game = build(tmp_path, body)
    with pytest.raises(GameRuleError) as info:
        game.new_initial_state(seed=7)
    exc = info.value
    line, col = place(PRELUDE + body, line_text, at)
    assert (Path(str(exc.file)).name, exc.line, exc.col) == ("game.rules", line, col)
    assert fragment in exc.message
    assert (exc.seed, exc.decision, exc.actions) == (7, 0, ())
    assert str(exc) == f"{exc.file}:{line}:{col}: runtime error: {exc.message} (seed 7, after decision 0)"


def faults_game() -> Game:
    return load_game(str(FAULTS), players=2)


def test_the_decision_number_counts_the_applied_decisions() -> None:
    """`pick 4` in round 3 takes the first card of an empty zone: the third decision of the game."""
    state = faults_game().new_initial_state(seed=5)
    state.apply_label("pick 1")
    state.apply_label("pick 2")
    with pytest.raises(GameRuleError) as info:
        state.apply_label("pick 4")
    line, col = place(FAULTS_RULES, "      move first(pile) to box", "first")
    assert (info.value.line, info.value.col, info.value.decision) == (line, col, 3)
    assert info.value.actions == ("pick 1", "pick 2", "pick 4")
    assert str(info.value).endswith(f"game.rules:{line}:{col}: runtime error: first of an empty list or zone "
                                    "(seed 5, after decision 3)")


def test_a_seat_set_in_a_loop_is_checked_when_the_loop_comes_round(tmp_path: Path) -> None:
    """A loop's player holds a seat, so a decision for it is not checked, except where a loop around the decision
    sets it: the next round reads what was set (here the bank's -1), after the decision is compiled."""
    game = build(tmp_path, setup("  for p in players {", "    repeat 2 {", "      let x = choose p from [1, 2]",
                                 "      set p = owner(card(\"t1\"))", "    }", "  }"))
    state = game.new_initial_state(seed=7)
    with pytest.raises(GameRuleError, match="a decision for seat -1, which is no player"):
        state.apply_action(0)


@pytest.mark.parametrize("loop", ["  for p in players {", "  turns p from first(players) until acc > 0 {"])
def test_a_seat_defined_again_by_a_let_is_checked(tmp_path: Path, loop: str) -> None:
    """`let p = …` in the body of a loop over seats defines p anew in the loop's own scope: it holds no seat (here
    the bank's -1), so a decision for it is checked, not opened as a node of seat -1 (a chance node's number)."""
    game = build(tmp_path, setup(loop, "    let p = owner(card(\"t1\"))", "    let x = choose p from [1, 2]",
                                 "    set acc = 1", "  }"))
    with pytest.raises(GameRuleError, match="a decision for seat -1, which is no player"):
        game.new_initial_state(seed=7)


def test_a_place_defined_again_by_a_let_is_checked(tmp_path: Path) -> None:
    """So is a loop's place number defined anew: read unchecked, spot[5] was an IndexError, not a located error."""
    game = build(tmp_path, setup("  for i in positions(spot) {", "    let i = 5", "    set acc = count(spot[i])", "  }"))
    with pytest.raises(GameRuleError, match=r"spot\[5\] does not exist \(1 to 2\)"):
        game.new_initial_state(seed=7)


def test_an_illegal_action_is_still_refused_with_the_state_unchanged() -> None:
    state = faults_game().new_initial_state(seed=5)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(4)
    with pytest.raises(IllegalActionError):
        state.apply_label("pick 5")
    assert state.to_json() == before


# ------------------------------------------------------------------ the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_exits_1_and_reports_each_kind_of_failure_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", str(FAULTS), "--games", "40", "--seed", "1", "--json")
    assert code == 1
    data = json.loads(out)
    failures = data["failures"]
    assert data["errors"] > 0 and sum(f["count"] for f in failures) == data["errors"]
    first_line, first_col = place(FAULTS_RULES, "      move first(pile) to box", "first")
    seat_line, seat_col = place(FAULTS_RULES, "      let x = choose owner(card(\"t1\")) from [1, 2]", "let")
    assert sorted((f["location"].rsplit("game.rules", 1)[1], f["message"]) for f in failures) == sorted([
        (f":{first_line}:{first_col}", "first of an empty list or zone"),
        (f":{seat_line}:{seat_col}",
         "a decision for seat -1, which is no player (the players are seats 0 to 1, P1 to P2)")])
    assert f"{data['errors']} of 40 games failed, 2 kind(s) of error:" in err
    for failure in failures:
        assert f"{failure['location']}: runtime error: {failure['message']} ({failure['count']} game" in err
        assert f"  reproduce: {failure['command']}" in err
        assert failure["decision"] == 3 and failure["record"] is None


def test_the_printed_command_reproduces_the_failure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", str(FAULTS), "--games", "40", "--seed", "1", "--json")
    for failure in json.loads(out)["failures"]:
        argv = shlex.split(failure["command"])
        assert argv[:2] == ["regelwerk", "simulate"]
        again_code, again_out, again_err = run(capsys, *argv[1:], "--json")
        again = json.loads(again_out)
        assert again_code == 1 and again["games"] == 1 and again["errors"] == 1
        assert [(f["message"], f["location"], f["seed"], f["decision"]) for f in again["failures"]] == \
            [(failure["message"], failure["location"], failure["seed"], failure["decision"])]
        assert failure["location"] in again_err


def test_simulate_without_failures_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", str(FAULTS), "--games", "1", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["failures"] == [] and err == ""


def test_saved_failing_games_replay_to_the_same_located_error(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    saved = tmp_path / "records"
    code, _, err = run(capsys, "simulate", str(FAULTS), "--games", "12", "--seed", "1", "--save", str(saved))
    assert code == 1 and "  replay: regelwerk replay " in err and f" --ruleset {shlex.quote(str(FAULTS.resolve()))}" in err
    records = {path: json.loads(path.read_text(encoding="utf-8")) for path in sorted(saved.glob("*.json"))}
    assert len(records) == 12
    failed = [path for path, record in records.items() if "error" in record]
    assert failed and len(failed) < 12
    for path in failed:
        record = records[path]
        assert record["scores"] is None and len(record["actions"]) == 3
        code, out, err = run(capsys, "replay", str(path), "--ruleset", str(FAULTS))
        assert code == 1 and out == "" and "Traceback" not in err
        located = record["error"].split(" runtime error: ")[0]
        assert re.fullmatch(r".*game\.rules:\d+:\d+:", located)
        assert err.startswith(f"{path}: error: step 3 of 3: ") and located in err
        assert f"(seed {record['seed']}, after decision 3)" in err
    for path in set(records) - set(failed):
        assert run(capsys, "replay", str(path), "--ruleset", str(FAULTS))[0] == 0
    shortened = dict(records[failed[0]], actions=records[failed[0]]["actions"][:2])
    path = tmp_path / "shortened.json"
    path.write_text(json.dumps(shortened), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path), "--ruleset", str(FAULTS))
    assert code == 1 and "the record says the game failed" in err


def test_the_command_names_variants_and_agents() -> None:
    assert reproduce_command("g", ["a", "b c"], 3, 9, ["random", "greedy", "random"]) == \
        "regelwerk simulate g --variant a --variant 'b c' --players 3 --seed 9 --games 1 --agents random,greedy,random"
    assert reproduce_command("g", [], 2, 0, ["random", "random"]) == "regelwerk simulate g --players 2 --seed 0 --games 1"


def test_a_failure_inside_a_greedy_look_ahead_is_recorded_so_it_replays(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    """The greedy bot tries every option on a clone; the option that breaks a rule ends the record."""
    saved = tmp_path / "records"
    code, out, _ = run(capsys, "simulate", str(FAULTS), "--games", "2", "--agents", "greedy", "--json",
                       "--save", str(saved))
    failures = json.loads(out)["failures"]
    assert code == 1 and failures and all("--agents greedy,greedy" in f["command"] for f in failures)
    for failure in failures:
        code, _, err = run(capsys, *shlex.split(failure["replay"])[1:])
        assert code == 1 and failure["location"] in err and "step 3 of 3" in err
