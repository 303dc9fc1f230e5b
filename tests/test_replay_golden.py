"""A recorded 4-player game with both variants replays label by label to the same end."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import CHANCE_PLAYER, load_game
from interpreter.play.agents import RandomAgent
from interpreter.runtime.state import State

GOLDEN = Path(__file__).parent / "golden" / "mm_4p_both_seed7.json"
RULESET = "maechtige_monster"
VARIANTS = ["waechterkette", "koenigs_neue_regeln"]
PLAYERS = 4
SEED = 7


def record() -> dict[str, Any]:
    """Plays the seeded game: chance from the state's stream, decisions by one RandomAgent per seat."""
    game = load_game(RULESET, variants=VARIANTS, players=PLAYERS)
    state = game.new_initial_state(seed=SEED)
    agents = [RandomAgent(SEED * 100 + seat) for seat in game.players]
    steps: list[dict[str, Any]] = []
    while not state.is_terminal():
        who = state.current_player()
        action = state.sample_chance() if who == CHANCE_PLAYER else agents[who].act(state)
        steps.append({"player": who, "legal": len(state.legal_actions()), "label": state.action_to_string(action)})
        state.apply_action(action)
    assert [s["label"] for s in steps] == state.history
    return {"ruleset": RULESET, "variants": VARIANTS, "players": PLAYERS, "seed": SEED,
            "agents": "RandomAgent(seed * 100 + seat)", "rounds": state.round, "steps": steps,
            "history": state.history, "scores": state.scores(), "returns": state.returns()}


def dump(data: dict[str, Any]) -> str:
    """JSON with one step per line, so that a changed game shows as a readable diff."""
    head = {k: v for k, v in data.items() if k not in ("steps", "history")}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "history": ' + json.dumps(data["history"], ensure_ascii=False)
             + ', "steps": [']
    lines += [" " + json.dumps(step, ensure_ascii=False) + ("," if i < len(data["steps"]) - 1 else "")
              for i, step in enumerate(data["steps"])]
    lines.append("]}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    """The stored playthrough; written once from a fresh recording if the file is missing."""
    if not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(dump(record()), encoding="utf-8")
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def replay(data: dict[str, Any]) -> State:
    """Re-plays the stored labels one by one, checking each step against the record."""
    game = load_game(data["ruleset"], variants=data["variants"], players=data["players"])
    state = game.new_initial_state(seed=data["seed"])
    for i, step in enumerate(data["steps"]):
        assert not state.is_terminal(), f"the game ended early, at step {i}"
        labels = state.legal_labels()
        assert step["label"] in labels, f"step {i}: {step['label']!r} is not legal; legal: {labels[:10]}"
        assert len(labels) == step["legal"], f"step {i}: {len(labels)} options, the record has {step['legal']}"
        assert state.current_player() == step["player"], f"step {i}: the wrong seat is to move"
        state.apply_label(step["label"])
    assert state.is_terminal(), "the recorded moves do not finish the game"
    return state


def test_golden_file_is_well_formed(golden: dict[str, Any]) -> None:
    """The record is for 4 players with both variants and holds a whole game."""
    assert golden["ruleset"] == RULESET and golden["variants"] == VARIANTS
    assert golden["players"] == PLAYERS and golden["seed"] == SEED
    assert golden["history"] == [s["label"] for s in golden["steps"]]
    assert golden["rounds"] == 6
    assert len(golden["scores"]) == PLAYERS and len(golden["returns"]) == PLAYERS
    assert any(s["player"] == CHANCE_PLAYER for s in golden["steps"])
    assert any(s["label"].startswith("displace ") for s in golden["steps"]) or \
        any(s["label"].startswith("place ") for s in golden["steps"])


def test_golden_replays_label_by_label(golden: dict[str, Any]) -> None:
    """Every stored label is legal at its step, the option counts match, the end and scores match."""
    state = replay(golden)
    assert state.history == golden["history"]
    assert state.scores() == golden["scores"]
    assert state.returns() == golden["returns"]
    assert state.round == golden["rounds"]


def test_replay_is_deterministic(golden: dict[str, Any]) -> None:
    """Two replays of the record end in byte-identical saved states."""
    first = replay(golden)
    second = replay(golden)
    assert first.to_json() == second.to_json()
