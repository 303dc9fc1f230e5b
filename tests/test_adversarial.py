"""The adversarial suite (issue: nothing from outside can hang, crash or forge a game): mutated rules
files and variants that still load are PLAYED within small budgets, and mutated game records are
REPLAYED. Each must end in a clean error (RulesError, GameRuleError, RecordError) or a correct run,
never a traceback, a hang or a forged game. Saved states get the same treatment in
tests/test_saved_states.py; loading mutants alone in tests/test_no_tracebacks.py."""
from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.errors import RulesError
from dsl.loader import UnknownVariantError
from interpreter.compile.loading import load_program
from interpreter.play.agents import make_agent
from interpreter.play.records import Record, RecordError, record_of, replay
from interpreter.play.simulate import play_bots
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.limits import Limits
from test_no_tracebacks import GAME, MUTATIONS, SOURCE, Draw

SMALL = Limits(max_steps=20_000, max_log=20_000, max_actions=2_000, max_int_bits=256, max_list=10_000)
SECONDS = 10.0  # per mutant: loading and two games; a hang would blow far past it
VARIANT_FILE = GAME / "variants" / "waechterkette.rules"
VARIANT_SOURCE = VARIANT_FILE.read_text(encoding="utf-8")


@st.composite
def mutated(draw: Draw, text: str) -> str:
    """The text with one to three of the loading fuzzer's mutations."""
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from(MUTATIONS))(text, draw)
    return text


def play_mutant(game_text: str, variant_text: Optional[str], variants: tuple[str, ...]) -> str:
    """Writes the ruleset, loads it and plays two seeded games with small budgets; returns how it ended.
    Anything but a clean error or a finished game fails the test, and so does overrunning the time."""
    folder = Path(tempfile.mkdtemp(prefix="regelwerk_adversary_"))
    start = time.process_time()  # CPU time: a loaded machine must not fail the test
    try:
        shutil.copytree(GAME / "variants", folder / "variants")
        (folder / "game.rules").write_text(game_text, encoding="utf-8")
        if variant_text is not None:
            (folder / "variants" / VARIANT_FILE.name).write_text(variant_text, encoding="utf-8")
        load_program.cache_clear()
        try:
            program = load_program(str(folder), variants)
        except RulesError:
            return "rules error"
        except UnknownVariantError:  # the mutation renamed the variant asked for: the caller's clean error
            return "unknown variant"
        outcome = "played"
        for seed in (1, 2):
            game = Game(program, program.min_players, program.name, list(variants), limits=SMALL)
            try:
                state = game.new_initial_state(seed)
                play_bots(state, [make_agent("random", seed * 10 + s) for s in game.players])
                assert state.is_terminal() and len(state.returns()) == game.num_players
            except GameRuleError as exc:
                assert exc.file and exc.line >= 0, f"a rules error without a location: {exc}"
                outcome = "game rule error"
        return outcome
    except (AssertionError, pytest.fail.Exception):
        raise
    except Exception:  # noqa: BLE001 - the point: nothing else may escape
        pytest.fail(f"a Python exception from a mutated ruleset:\n{traceback.format_exc()}\n--- game ---\n"
                    f"{game_text[:400]}")
    finally:
        elapsed = time.process_time() - start
        shutil.rmtree(folder, ignore_errors=True)
        load_program.cache_clear()
        assert elapsed < SECONDS, f"a mutant took {elapsed:.1f} s: a hang the budgets did not stop"


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(SOURCE), variants=st.sampled_from([(), ("waechterkette",), ("koenigs_neue_regeln",)]))
def test_mutated_games_that_load_play_to_an_end_or_a_located_error(text: str, variants: tuple[str, ...]) -> None:
    play_mutant(text, None, variants)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(VARIANT_SOURCE))
def test_mutated_variants_play_to_an_end_or_a_located_error(text: str) -> None:
    play_mutant(SOURCE, text, ("waechterkette",))


# ------------------------------------------------------------------ records

def _record() -> dict[str, Any]:
    """A real record of a finished four-player game with the shipped variants."""
    load_program.cache_clear()
    program = load_program("maechtige_monster", ("waechterkette",))
    game = Game(program, 4, program.name, ["waechterkette"])
    state = game.new_initial_state(7)
    play_bots(state, [make_agent("random", s) for s in range(4)])
    return record_of(state, "maechtige_monster", ["random"] * 4).to_dict()


RECORD = _record()


def _forge(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One edit of the kind a forger or a broken disk makes."""
    out = json.loads(json.dumps(record))
    actions = out["actions"]
    kind = rng.randrange(8)
    i = rng.randrange(len(actions))
    if kind == 0:
        actions[i] = actions[rng.randrange(len(actions))]  # another label from the same game
    elif kind == 1:
        del actions[i]
    elif kind == 2:
        actions.insert(i, actions[i])
    elif kind == 3:
        out["seed"] = rng.choice([out["seed"] + 1, -1, 2 ** 70, "7", None, 1.5])
    elif kind == 4:
        out["players"] = rng.choice([3, 5, 0, 99, "4", True])
    elif kind == 5:
        out["scores"] = rng.choice([[0, 0, 0, 0], [99] * 4, None, "x", [1]])
    elif kind == 6:
        out["ruleset"] = rng.choice(["/etc/passwd", "../rulesets/maechtige_monster", "", "nope", 5])
    else:
        out["variants"] = rng.choice([["koenigs_neue_regeln"], ["/etc/passwd.rules"], ["nope"], "waechterkette", [1]])
    return out


def test_an_untouched_record_replays() -> None:
    state = replay(Record.from_dict(RECORD))
    assert state.is_terminal() and tuple(state.scores()) == tuple(RECORD["scores"])


@pytest.mark.parametrize("seed", range(6))
def test_forged_records_are_refused_or_replay_to_their_own_scores(seed: int) -> None:
    """A forged record either fails with a RecordError, or replays to a game whose true scores the
    caller compares with the record's (as `regelwerk replay` does): a forgery never passes as genuine."""
    rng = random.Random(seed)
    accepted = 0
    for _ in range(50):
        forged = _forge(RECORD, rng)
        try:
            state = replay(Record.from_dict(forged))
        except RecordError:
            continue
        except Exception:  # noqa: BLE001 - nothing else may escape
            pytest.fail(f"a Python exception from a forged record:\n{traceback.format_exc()}\n{forged}")
        accepted += 1
        genuine = forged["actions"] == RECORD["actions"] and forged["seed"] == RECORD["seed"]
        if not genuine:  # a changed game may replay, but then its scores are its own, not the record's
            assert not (state.is_terminal() and forged["scores"] == RECORD["scores"]
                        and tuple(state.scores()) == tuple(RECORD["scores"]) and forged != RECORD), forged
    assert accepted < 50
