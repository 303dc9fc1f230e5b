"""Hidden information stays hidden: `regelwerk play` keeps an OS-drawn seed secret until the game is over
(the seed and the public moves tell every hidden card), and every misuse of the public State API is a
documented StateUsageError that leaves the state as it was, never an assert or a stray Python error."""
from __future__ import annotations

import builtins
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from interpreter import (
    IllegalActionError,
    NotASeatError,
    StateUsageError,
    WrongNodeError,
    load_game,
)
from interpreter.cli import main
from interpreter.runtime.state import State

GAME = "maechtige_monster"
SEED = 7_351_920_486_113_570_291  # what the patched OS source hands out: 19 digits no game text contains
REPO = Path(__file__).resolve().parent.parent


def fake_human(save: Path, answers: Callable[[int], str]) -> Callable[[str], str]:
    """input() for the human seat; at every prompt, mid-game, no record (with the seed) is on disk yet."""
    asked = [0]

    def answer(prompt: str = "") -> str:
        assert not save.exists(), "a record was written before the game was over"
        assert not any(str(SEED) in p.read_text(encoding="utf-8") for p in save.parent.rglob("*") if p.is_file())
        asked[0] += 1
        return answers(asked[0])
    return answer


def play_with_os_seed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, save: Path,
                      answers: Callable[[int], str]) -> tuple[int, str, str]:
    monkeypatch.setattr("interpreter.cli.secrets.randbits", lambda bits: SEED)
    monkeypatch.setattr(builtins, "input", fake_human(save, answers))
    code = main(["play", GAME, "--players", "4", "--seats", "human,random,greedy,random", "--save", str(save)])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_shows_the_os_seed_only_when_the_game_is_over(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, err = play_with_os_seed(capsys, monkeypatch, save, lambda n: "1")
    assert code == 0 and err == ""
    end = out.index("game over")
    assert "options:" in out[:end] and "seed" not in out[:end] and str(SEED) not in out[:end]
    assert f"seed {SEED}" in out[end:] and "practice" not in out
    assert json.loads(save.read_text(encoding="utf-8"))["seed"] == SEED  # the record at the end holds it


def test_quitting_ends_the_game_and_only_then_shows_the_seed(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    code, out, _ = play_with_os_seed(capsys, monkeypatch, save, lambda n: "q" if n == 4 else "1")
    assert code == 0
    assert str(SEED) not in out[:out.index("quit.")] and f"seed {SEED}" in out
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["seed"] == SEED and record["scores"] is None
    assert main(["replay", str(save)]) == 0


def test_an_explicit_seed_is_announced_as_a_practice_game(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(builtins, "input", lambda prompt="": "q")
    assert main(["play", GAME, "--players", "3", "--seed", "5", "--save", str(tmp_path / "p.json")]) == 0
    out = capsys.readouterr().out
    assert "practice game: seed 5 was given with --seed" in out.splitlines()[1]


def test_no_observation_or_log_line_holds_the_seed() -> None:
    state = load_game(GAME, players=4).new_initial_state(SEED)
    while not state.is_terminal():
        for seat in range(4):
            assert str(SEED) not in json.dumps(state.observation(seat))
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)


# --- the State API refuses misuse with a StateUsageError and leaves the state as it was -----------------

def decision() -> State:
    return load_game(GAME, players=3).new_initial_state(seed=2)  # the setup opens with a decision


def finished() -> State:
    state = decision()
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
    return state


def refused(state: State, error: type[StateUsageError], call: Callable[[State], Any], message: str) -> None:
    before = state.to_json()
    with pytest.raises(error, match=message) as info:
        call(state)
    assert isinstance(info.value, ValueError)
    assert state.to_json() == before


@pytest.mark.parametrize("seat, message", [(-1, "no seat -1: this game has seats 0 to 2"), (99, "no seat 99"),
                                           (None, "seat must be an int from 0 to 2, not None"),
                                           (True, "not True"), ("0", "not '0'"), (1.0, "not 1.0")])
def test_observation_of_a_seat_that_does_not_exist(seat: Any, message: str) -> None:
    refused(decision(), NotASeatError, lambda s: s.observation(seat), message)


def test_chance_calls_at_a_decision_or_the_end() -> None:
    at_decision = decision()
    assert not at_decision.is_chance_node()
    refused(at_decision, WrongNodeError, State.sample_chance, r"sample_chance\(\) at a decision of P1")
    refused(at_decision, WrongNodeError, State.chance_outcomes, "only a chance node has outcomes")
    over = finished()
    refused(over, WrongNodeError, State.sample_chance, "at the end of the game")
    refused(over, WrongNodeError, State.chance_outcomes, "at the end of the game")


@pytest.mark.parametrize("action", [-1, 10_000, True, None, "0", 0.0])
def test_actions_that_are_not_legal(action: Any) -> None:
    refused(decision(), IllegalActionError, lambda s: s.apply_action(action), "is not legal here")
    refused(decision(), IllegalActionError, lambda s: s.action_to_string(action), "is not legal here")


def test_the_end_of_the_game_has_no_actions_or_labels() -> None:
    over = finished()
    assert over.legal_actions() == [] and over.legal_labels() == []
    refused(over, IllegalActionError, lambda s: s.apply_action(0), "the game is over")
    refused(over, IllegalActionError, lambda s: s.action_to_string(0), "the game is over")
    refused(over, IllegalActionError, lambda s: s.apply_label("pass"), "'pass' is not legal here")


def test_labels_and_seeds_of_the_wrong_type() -> None:
    refused(decision(), IllegalActionError, lambda s: s.apply_label(0), "a label is a str, not 0")  # type: ignore[arg-type]
    game = load_game(GAME, players=3)
    for seed in ("7", 1.5, None, False):
        with pytest.raises(StateUsageError, match="seed must be an int"):
            game.new_initial_state(seed)  # type: ignore[arg-type]


def test_sample_chance_at_a_decision_is_refused_under_python_O_too() -> None:
    """An assert would vanish under -O and the call would advance the random stream."""
    code = (f"from interpreter import load_game, WrongNodeError\n"
            f"s = load_game({GAME!r}, players=3).new_initial_state(seed=2)\n"
            "before = s.to_json()\n"
            "try:\n    s.sample_chance()\nexcept WrongNodeError:\n    print('refused', s.to_json() == before)\n")
    run = subprocess.run([sys.executable, "-O", "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "refused True", run.stderr
