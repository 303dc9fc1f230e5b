"""Illegal actions and labels are refused with a helpful message and leave the state byte-identical."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.runtime.state import State

RULESET = "maechtige_monster"


def advance(state: State, until: Callable[[State], bool], seed: int = 0) -> State:
    """Plays random moves (chance from the state's seed) until `until` holds."""
    rng = random.Random(seed)
    while not until(state):
        assert not state.is_terminal(), "the wanted node never came"
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    return state


def node(kind: str) -> State:
    """A state at a setup decision, a chance node, a decision mid-turn in the play phase, or the end."""
    game = load_game(RULESET, variants=["waechterkette", "koenigs_neue_regeln"], players=4)
    state = game.new_initial_state(seed=21)
    if kind == "setup":
        return state
    if kind == "chance":
        return advance(state, lambda s: s.is_chance_node() and s.phase == "heal" and s.round == 1)
    if kind == "play":
        return advance(state, lambda s: s.phase == "play" and not s.is_chance_node() and s.round == 3)
    return advance(state, lambda s: s.is_terminal())


OPEN_NODES = ["setup", "chance", "play"]


def refuse(state: State, call: Callable[[], Any]) -> str:
    """Runs `call`, expects IllegalActionError, checks nothing changed; returns the message."""
    before = state.to_json()
    history = list(state.history)
    with pytest.raises(IllegalActionError) as info:
        call()
    assert state.to_json() == before, "a refused call changed the saved state"
    assert state.history == history
    message = str(info.value)
    assert message.strip(), "the error has no message"
    return message


@pytest.mark.parametrize("kind", OPEN_NODES)
@pytest.mark.parametrize("offset", [0, 1, 1000])
def test_out_of_range_action(kind: str, offset: int) -> None:
    """An index past the last option is refused, and the message shows it and the legal options."""
    state = node(kind)
    bad = len(state.legal_actions()) + offset
    message = refuse(state, lambda: state.apply_action(bad))
    assert str(bad) in message
    assert "legal" in message and state.legal_labels()[0] in message, message


@pytest.mark.parametrize("kind", OPEN_NODES)
@pytest.mark.parametrize("bad", [-1, -2])
def test_negative_action(kind: str, bad: int) -> None:
    """Negative indices are refused (no Python-style counting from the end)."""
    state = node(kind)
    message = refuse(state, lambda: state.apply_action(bad))
    assert str(bad) in message and "legal" in message


@pytest.mark.parametrize("kind", OPEN_NODES)
@pytest.mark.parametrize("bad", ["0", 0.0, 1.5, None, [0], b"\x00", True, False],
                         ids=["str", "float0", "float", "none", "list", "bytes", "true", "false"])
def test_non_int_action(kind: str, bad: Any) -> None:
    """Anything but an int index is refused, even if it looks like one."""
    state = node(kind)
    message = refuse(state, lambda: state.apply_action(bad))
    assert repr(bad) in message or str(bad) in message, message
    assert "legal" in message


def test_actions_after_the_end() -> None:
    """Once the game is over, every action and label is refused with a message that says so."""
    state = node("end")
    assert state.is_terminal() and state.legal_actions() == []
    for bad in (0, 1, -1, "0"):
        message = refuse(state, lambda: state.apply_action(bad))  # type: ignore[arg-type]  # noqa: B023
        assert "over" in message, message
    message = refuse(state, lambda: state.apply_label("place orks_1 at 1"))
    assert "place orks_1 at 1" in message
    refuse(state, lambda: state.action_to_string(0))


@pytest.mark.parametrize("kind", OPEN_NODES)
def test_unknown_label(kind: str) -> None:
    """An unknown label is refused, naming the label and listing legal ones."""
    state = node(kind)
    message = refuse(state, lambda: state.apply_label("fly to the moon"))
    assert "fly to the moon" in message and "not legal" in message
    assert state.legal_labels()[0] in message, message


@pytest.mark.parametrize("kind", OPEN_NODES)
def test_near_miss_label_suggests_the_right_one(kind: str) -> None:
    """A misspelt label gets a 'did you mean' hint with the closest legal label."""
    state = node(kind)
    good = state.legal_labels()[-1]
    typo = good[:-1] + ("X" if good[-1] != "X" else "Y")
    message = refuse(state, lambda: state.apply_label(typo))
    assert "did you mean" in message and f"'{good}'" in message, message


def test_label_of_another_node_is_refused() -> None:
    """A label that is legal elsewhere (a play option at a chance node, a chance outcome at a decision) is refused."""
    play = node("play")
    chance = node("chance")
    refuse(chance, lambda: chance.apply_label(play.legal_labels()[0]))
    refuse(play, lambda: play.apply_label(chance.legal_labels()[0]))
    refuse(play, lambda: play.apply_label(""))


@pytest.mark.parametrize("kind", OPEN_NODES)
def test_action_to_string_rejects_bad_indices(kind: str) -> None:
    """action_to_string names legal indices and refuses the others."""
    state = node(kind)
    n = len(state.legal_actions())
    assert [state.action_to_string(a) for a in range(n)] == state.legal_labels()
    for bad in (n, -1):
        message = refuse(state, lambda: state.action_to_string(bad))  # noqa: B023 - called at once
        assert str(bad) in message


@pytest.mark.parametrize("kind", OPEN_NODES)
def test_state_plays_on_after_a_refusal(kind: str) -> None:
    """After refused calls the state accepts a legal action exactly like an untouched copy."""
    state = node(kind)
    twin = state.clone()
    for bad in (-1, len(state.legal_actions()), "x"):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.apply_label("no such option")
    label = state.legal_labels()[0]
    state.apply_label(label)
    twin.apply_action(0)
    assert state.to_json() == twin.to_json()


@pytest.mark.parametrize("kind", ["setup", "chance", "play", "end"])
@pytest.mark.parametrize("bad", [-1, 10_000, True, "0"])
def test_advance_refuses_like_apply_action(kind: str, bad: Any) -> None:
    """State.advance (the playouts' step without undo) checks the action as apply_action does."""
    state = node(kind)
    assert refuse(state, lambda: state.advance(bad))


def test_advance_plays_the_game_apply_action_plays() -> None:
    """The same seeds and choices give the same game, byte for byte, with or without the undo."""
    game = load_game(RULESET, variants=["koenigs_neue_regeln"], players=5)
    guarded, fast = game.new_initial_state(seed=4), game.new_initial_state(seed=4)
    rng = random.Random(4)
    while not guarded.is_terminal():
        if guarded.is_chance_node():  # each state draws from its own stream
            guarded.apply_action(guarded.sample_chance())
            fast.advance(fast.sample_chance())
        else:
            action = rng.randrange(len(guarded.legal_actions()))
            guarded.apply_action(action)
            fast.advance(action)
    assert fast.is_terminal() and fast.to_json() == guarded.to_json()


@pytest.mark.parametrize("how", ["edited", "advance", "seed"])
def test_a_base_no_failing_step_can_go_back_to_is_let_go(how: str) -> None:
    """Where the steps since the base stop being replayed (edited, advance, a new seed), the base goes too: a copy of
    the whole state is not kept alive until the next apply_action."""
    state = node("play")
    state.edited()
    state.apply_action(0)  # the state as it stood is copied: the base a failing step goes back to
    assert isinstance(state._base, State)
    if how == "edited":
        state.edited()
    elif how == "advance":
        state.advance(state.sample_chance() if state.is_chance_node() else 0)
    else:
        state.seed = 5
    assert state._base is None and state._steps is None
    action = state.sample_chance() if state.is_chance_node() else 0
    twin = state.clone()
    state.apply_action(action)  # a new base, taken as before
    assert isinstance(state._base, State) and state._base.to_json() == twin.to_json()


def test_a_chance_event_decided_inside_a_run_draws_what_its_node_would() -> None:
    """sample_chance(n), the sampling run's draw (no node open): the number the node's sample_chance gives, the stream
    advanced alike, the step budget renewed as by a step; at a decision too, where sample_chance() is refused."""
    state = node("chance")
    n = len(state.legal_actions())
    twin = state.clone()
    twin.budget = 0
    assert twin.sample_chance(n) == state.sample_chance() and twin.draws == state.draws
    assert twin.budget == twin.game.max_steps
    decision = node("play")
    before = decision.draws
    assert 0 <= decision.sample_chance(3) < 3 and decision.draws == before + 1


def test_the_count_of_draws_is_kept_by_a_new_seed_a_clone_and_a_save() -> None:
    """A draw advances the count (State.draws); a new seed keeps it, on its own stream: its next draw is that of a
    state of the seed and count given apart, as the one of a clone or a loaded save is the state's own."""
    state = node("chance")
    n, before = len(state.legal_actions()), state.draws
    assert before > 0
    state.sample_chance()
    assert state.draws == before + 1
    for copy in (state.clone(), state.game.state_from_json(state.to_json())):
        assert copy.draws == before + 1 and copy.sample_chance() == state.clone().sample_chance()
    other = state.clone()
    other.seed = 99
    assert other.draws == before + 1 and other.seed == 99
    given = node("chance")
    given.seed, given.draws = 99, before + 1
    assert [other.sample_chance() for _ in range(20)] == [given.sample_chance() for _ in range(20)]
    assert given.draws == before + 21 and 0 <= state.sample_chance() < n

MANY = """game many {
  players 2 to 2
}
var picked: int = 0
round {
  repeat while round < 1
  phase pick {
    let x = choose first(players) from range(0, 399)
    set picked = x
  }
}
score(p) = picked
"""


def test_an_action_past_the_small_ints_is_checked_in_full(tmp_path: Path) -> None:
    """apply_action's quick test knows the ints up to 256 only: a larger one is taken where legal, the first time and
    again, and refused where not, as a bool or a negative one is (the state unchanged)."""
    folder = tmp_path / "many"
    folder.mkdir()
    (folder / "game.rules").write_text(MANY, encoding="utf-8")
    game = load_game(str(folder), players=2)
    for action in (300, 399, 257, 300, 256, 0):
        state = game.new_initial_state(seed=1)
        assert len(state.legal_actions()) == 400
        for bad in (400, 1000, -1, -300, -1000, True, 300.0):
            refuse(state, lambda: state.apply_action(bad))  # type: ignore[arg-type]  # noqa: B023
        state.apply_action(action)
        assert state.is_terminal() and state.gvars[0] == action and state.history[-1] == str(action)


TWINS = """game twins {
  players 2 to 2
}
var picked: int = 0
var kept: int = 0
action pick(x in [2, 2]) {
  label "pick {x}"
  set picked = picked + x
}
round {
  repeat while round < 1
  phase pick {
    choose action for first(players): pick
    let y = choose first(players) from [5, 6]
    set kept = y
  }
}
score(p) = picked
"""


def test_a_choose_action_step_notes_the_label_the_node_showed(tmp_path: Path) -> None:
    """A `choose action` step notes the option's own label unless the node's labels were read, and then the one they
    showed (equal labels numbered); it takes the same option either way. A `choose`'s step notes its label."""
    folder = tmp_path / "twins"
    folder.mkdir()
    (folder / "game.rules").write_text(TWINS, encoding="utf-8")
    game = load_game(str(folder), players=2)
    for read in (False, True):
        state = game.new_initial_state(seed=1)
        if read:
            assert state.legal_labels() == ["pick 2", "pick 2 #2"]
        state.apply_action(1)
        assert state.history == ["pick 2 #2" if read else "pick 2"] and state.gvars[0] == 2
        state.apply_action(1)
        assert state.is_terminal() and state.history[-1] == "6" and state.gvars[1] == 6
