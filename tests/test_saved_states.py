"""Saved states and records are input, not trusted (issue 13): every forged field fails the load with
one SavedStateError naming it, edited records fail replay, and a step that breaks a rule changes nothing."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.saved import SavedStateError
from interpreter.runtime.state import State

GAME = "maechtige_monster"
FAULTS = Path(__file__).parent / "fixtures" / "runtime_faults"
Data = dict[str, Any]


def game() -> Game:
    return load_game(GAME, players=4)


def advance(state: State, decisions: int, seed: int = 1, stop_at_chance: bool = False) -> State:
    """Plays random decisions (chance from the seed) until `decisions` were made or the game ends."""
    rng = random.Random(seed)
    while not state.is_terminal() and decisions > 0:
        if state.is_chance_node():
            if stop_at_chance:
                return state
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.randrange(len(state.legal_actions())))
            decisions -= 1
    return state


def mid_game() -> Data:
    """A saved state at P3's choice of action, 30 decisions in."""
    data: Data = json.loads(advance(game().new_initial_state(3), 30).to_json())
    return data


def finished() -> Data:
    data: Data = json.loads(advance(game().new_initial_state(3), 10_000).to_json())
    assert data["pending"] is None
    return data


def zone_holding(data: Data, pred: Callable[[str], bool]) -> int:
    names = game().zone_names
    return next(z for z, cards in enumerate(data["zones"]) if cards and pred(names[z]))


def load(data: Data) -> State:
    return game().state_from_json(json.dumps(data))


def refused(data: Data, fragment: str) -> str:
    with pytest.raises(SavedStateError) as info:
        load(data)
    assert fragment in str(info.value)
    return str(info.value)


def test_a_saved_state_still_loads_exactly() -> None:
    for data in (mid_game(), finished()):
        assert json.loads(load(data).to_json()) == data


# ------------------------------------------------------------------ one forged field each


def test_a_card_in_two_zones() -> None:
    data = mid_game()
    z = zone_holding(data, lambda n: n == "monster_box")
    c = data["zones"][z][0]
    other = zone_holding(data, lambda n: n == "hand[P1]")
    data["zones"][other].append(c)
    refused(data, f"zones: card '{game().card_ids[c]}' lies in two zones ({z} and {other})")


def test_a_card_in_no_zone() -> None:
    data = mid_game()
    z = zone_holding(data, lambda n: n == "monster_box")
    c = data["zones"][z].pop()
    refused(data, f"zones: card '{game().card_ids[c]}' lies in no zone")


def test_a_card_number_out_of_range_and_a_wrong_zone_count() -> None:
    data = mid_game()
    data["zones"][0].append(10_000)
    refused(data, "zones: zone 0 holds card 10000")
    data = mid_game()
    data["zones"].append([])
    refused(data, "zones: ")


@pytest.mark.parametrize("gold, fragment", [
    (-5, "P1 holds -5 gold; no payment leaves a player below 0"),
    (7.5, "P1.gold = 7.5 is not a value of type int"),
    ("8", "P1.gold = '8' is not a value of type int"),
    (True, "P1.gold = True is not a value of type int"),
    (10 ** 4000, "= a number beyond 64 bits is not a value of type int"),
], ids=["negative", "float", "text", "bool", "10**4000"])
def test_gold_that_no_game_holds(gold: Any, fragment: str) -> None:
    data = mid_game()
    bank = data["gvars"][0] - (gold - data["pvars"][0][0] if isinstance(gold, int) else 0)
    data["pvars"][0][0], data["gvars"][0] = gold, bank  # the bank matches, so only the amount is wrong
    refused(data, fragment)


def test_money_is_conserved() -> None:
    data = mid_game()
    data["pvars"][1][0] += 3
    refused(data, "the two add up to 0")


def test_nan_and_numbers_beyond_json() -> None:
    text = json.dumps(mid_game()).replace('"round":', '"round":NaN,"x":', 1)
    with pytest.raises(SavedStateError, match="NaN is not a number JSON allows"):
        game().state_from_json(text)
    with pytest.raises(SavedStateError, match="not a saved state"):
        game().state_from_json('{"gvars": [1' + "0" * 5000 + "]}")


@pytest.mark.parametrize("seed, fragment", [("3", "seed: "), (1 << 64, "seed: "), (-(1 << 63) - 1, "seed: "),
                                            (None, "seed: "), (2.0, "seed: ")])
def test_a_seed_that_is_no_64_bit_integer(seed: Any, fragment: str) -> None:
    data = mid_game()
    data["seed"] = seed
    refused(data, fragment)


@pytest.mark.parametrize("frames, fragment", [
    ("garbage", "frames: "),
    ([[999, 1, []]], "frames: frame 0 runs block 999"),
    ([[0, 0, []]], "frames: frame 0 stands at step 0"),
    ([[0, 10_000, []]], "frames: frame 0 stands at step 10000"),
    ([["0", 1, []]], "frames.0.0: "),
    ([[0, 1]], "frames.0.2: Field required"),
])
def test_garbage_frames(frames: Any, fragment: str) -> None:
    data = mid_game()
    data["frames"] = frames
    refused(data, fragment)


def test_a_trigger_waiting_below_the_decision_loads(tmp_path: Path) -> None:
    """Two triggers of one event: while the first asks a decision, the second's frame waits at step 0
    below it; that state is saved and loads again (only the frame that opened the node must have run)."""
    folder = tmp_path / "waiting"
    folder.mkdir()
    (folder / "game.rules").write_text('''
game waiting { title de "W" en "W" players 2 to 2 }
var picked: int = 0 de "die Wahl" en "pick"
var later: int = 0 de "danach" en "later"
when rang as ask { let x = choose first(players) from [1, 2]  set picked = x }
when rang as after { set later = picked }
round { repeat while round < 1 phase p de "P" en "P" { emit rang } }
score(p) = picked + later
''', encoding="utf-8")
    waiting = load_game(str(folder), players=2)
    state = waiting.new_initial_state(seed=1)
    assert state.legal_labels() == ["1", "2"]
    assert any(fr[1] == 0 for fr in state.frames[:-1])
    again = waiting.state_from_json(state.to_json())
    again.apply_label("2")
    assert again.is_terminal() and again.scores() == [4, 4]


def test_frame_locals_of_the_wrong_size_or_kind() -> None:
    data = mid_game()
    data["frames"][-1][2].append(0)
    refused(data, "locals, its block has")
    data = mid_game()
    data["frames"][-1][2] = [1.5] * len(data["frames"][-1][2])
    refused(data, "holds a local that is no plain value")


def test_pending_null_mid_game_does_not_end_the_game() -> None:
    data = mid_game()
    data["pending"] = None
    refused(data, "pending: null, but 2 frames are still running")


def test_returns_are_recomputed_not_read() -> None:
    data = finished()
    data["returns"] = [1.0, 1.0, 1.0, 1.0]
    refused(data, "returns: the file says [1.0, 1.0, 1.0, 1.0], the scores give")
    data = mid_game()
    data["returns"] = [1.0, 0.0, 0.0, 0.0]
    refused(data, "returns: a game in progress has no returns")


def test_forged_options_place_no_other_players_card() -> None:
    data = mid_game()
    seat = data["pending"][1]
    theirs = zone_holding(data, lambda n: n.startswith("hand[") and n != f"hand[P{seat + 1}]")
    aid, i, _ = data["pending"][3][0]
    data["pending"][3][0] = [aid, i, data["zones"][theirs][0]]
    refused(data, "pending: the saved options differ from the decision the state opens")


def test_forged_seat_kind_and_chance_outcomes() -> None:
    data = mid_game()
    data["pending"][1] = (data["pending"][1] + 1) % 4
    refused(data, "pending: the saved options differ")
    data = mid_game()
    data["pending"][0] = 1
    refused(data, "pending: the saved options differ")
    chance: Data = json.loads(advance(game().new_initial_state(3), 5, stop_at_chance=True).to_json())
    assert chance["pending"][0] == 1
    load(chance)
    chance["pending"][3] = chance["pending"][3][:1]
    refused(chance, "pending: the saved options differ from the chance node the state opens")


def test_mods_forbids_owner_known_and_card_values_in_range() -> None:
    for key, value, fragment in [("mods", [[99, 0, []]], "mods: entry (99, 0, …) names no mod"),
                                 ("forbids", [[0, 7, []]], "forbids: entry (0, 7, …)"),
                                 ("owner", [9] * 66, "owner: card"),
                                 ("known", [-1] * 66, "known: card"),
                                 ("history", [1, 2], "history.0: "),
                                 ("log", [[99]], "log: entry 0 is not a log entry"),
                                 ("log", [[0, 10_000, 0, 0, 0]], "log: entry 0"),
                                 ("changed_cards", {"0": ["orks", "x", 1]}, "strength = 'x' is not a value of type int"),
                                 ("changed_cards", {"0": ["elfen", 1, 1]}, "type = 'elfen' is not a value of type"),
                                 ("changed_cards", {"-1": []}, "changed_cards: '-1' is not a card number"),
                                 ("extra", 1, "extra: Extra inputs are not permitted")]:
        data = mid_game()
        n = len(data["owner"])
        data[key] = value if key not in ("owner", "known") else value[:1] * n
        refused(data, fragment)
    data = mid_game()
    data["gvars"][0] = [[[]]]
    refused(data, "gvars: bank_gold = [[[]]] is not a value of type int")


def test_deeply_nested_json_is_one_clear_error() -> None:
    with pytest.raises(SavedStateError, match="nested too deeply"):
        game().state_from_json("[" * 100_000 + "]" * 100_000)
    data = mid_game()
    nested: Any = 0
    for _ in range(500):
        nested = [nested]
    data["frames"][-1][2][0] = nested
    refused(data, "no plain value")
    for text in ("", "[]", "null", '{"format": "regelwerk-state/1"}'):
        with pytest.raises(SavedStateError):
            game().state_from_json(text)


def test_random_damage_raises_only_saved_state_errors() -> None:
    """Any field replaced by any odd value: the load succeeds or fails with a SavedStateError, nothing else."""
    rng = random.Random(13)
    base = mid_game()
    odd: list[Any] = [None, -1, 0, 1, 10 ** 30, "x", [], {}, 1.5, True, [[]], [0, 0, []], {"0": []}]
    for _ in range(600):
        data = copy.deepcopy(base)
        node: Any = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = rng.choice(keys)
            if isinstance(node[key], (dict, list)) and node[key] and rng.random() < 0.7:
                node = node[key]
                continue
            node[key] = rng.choice(odd)
            break
        try:
            load(data)
        except SavedStateError:
            pass


# ------------------------------------------------------------------ a failing step changes nothing


def test_a_step_that_breaks_a_rule_leaves_the_state_as_it_was() -> None:
    state = load_game(str(FAULTS), players=2).new_initial_state(seed=5)
    state.apply_label("pick 1")
    state.apply_label("pick 2")
    before, clone = state.to_json(), state.clone()
    with pytest.raises(GameRuleError, match="first of an empty list or zone") as info:
        state.apply_label("pick 4")
    assert info.value.actions == ("pick 1", "pick 2", "pick 4")
    assert state.to_json() == before and not state.is_terminal()
    assert state.legal_labels() == clone.legal_labels()
    state.apply_label("pick 1")  # the game goes on as if the failed step had not been tried
    clone.apply_label("pick 1")
    assert state.to_json() == clone.to_json()


# ------------------------------------------------------------------ records


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def saved_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    code, _, _ = run(capsys, "simulate", GAME, "--players", "3", "--games", "1", "--seed", "11",
                     "--save", str(tmp_path / "records"))
    assert code == 0
    return next((tmp_path / "records").glob("*.json"))


def test_replay_checks_chance_outcomes_against_the_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = saved_record(capsys, tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["chance"] == "seed" and run(capsys, "replay", str(path))[0] == 0
    g = load_game(GAME, players=3)
    state = g.new_initial_state(record["seed"])
    for step, label in enumerate(record["actions"]):  # the first chance node with a choice: take another outcome
        if state.is_chance_node() and len(state.legal_labels()) > 1:
            other = next(x for x in state.legal_labels() if x != label)
            break
        state.apply_label(label)
    edited = dict(record, actions=record["actions"][:step] + [other])
    edited["scores"] = None  # the edited game stops there, and the record says so
    path.write_text(json.dumps(edited), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and f"step {step + 1} of {step + 1}: the chance outcome '{other}' is not the one the seed gives" in err
    path.write_text(json.dumps(dict(edited, chance="chosen")), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "chance outcomes chosen, not checked against the seed" in out
    del record["chance"]  # a record from before the field: its chance outcomes came from the seed
    path.write_text(json.dumps(record), encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 0
    path.write_text(json.dumps(dict(record, chance="dice")), encoding="utf-8")
    assert "'chance' must be" in run(capsys, "replay", str(path))[2]


def test_replay_never_reads_a_ruleset_path_from_the_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = saved_record(capsys, tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    for forged in ("/etc/passwd", "../../etc/passwd", str(Path(__file__).parent.parent / "rulesets" / GAME), ".."):
        path.write_text(json.dumps(dict(record, ruleset=forged)), encoding="utf-8")
        code, out, err = run(capsys, "replay", str(path))
        assert code == 1 and out == "" and "root:" not in err
        assert "replay reads rulesets by name from" in err and "--ruleset PATH" in err
    path.write_text(json.dumps(dict(record, ruleset="no_such_game")), encoding="utf-8")
    assert "no ruleset 'no_such_game'" in run(capsys, "replay", str(path))[2]
    path.write_text(json.dumps(dict(record, ruleset="/etc/passwd")), encoding="utf-8")
    rules = str(Path(__file__).parent.parent / "rulesets" / GAME)
    assert run(capsys, "replay", str(path), "--ruleset", rules)[0] == 0  # the user names the rules


def test_a_game_broken_at_the_terminal_saves_a_record_that_fails_the_same_way(capsys: pytest.CaptureFixture[str],
                                                                            tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", str(FAULTS), "--games", "12", "--seed", "1", "--json")
    failure = json.loads(out)["failures"][0]
    save = tmp_path / "broken.json"
    code, _, err = run(capsys, "play", str(FAULTS), "--seed", str(failure["seed"]), "--seats", "random,random",
                       "--save", str(save))
    assert code == 1 and "broke a rule" in err
    record = json.loads(save.read_text(encoding="utf-8"))
    assert len(record["actions"]) == 3 and record["error"]
    code, _, err = run(capsys, "replay", str(save), "--ruleset", str(FAULTS))
    assert code == 1 and "step 3 of 3" in err and failure["location"] in err


def test_a_card_in_a_zone_of_another_kind() -> None:
    data = mid_game()
    box = zone_holding(data, lambda n: n == "monster_box")
    deck = zone_holding(data, lambda n: n == "guard_deck")
    data["zones"][deck].append(data["zones"][box].pop())
    refused(data, "zones: guard_deck holds guard cards, not")



def test_new_states_start_from_one_copy_they_do_not_share() -> None:
    """A game runs its start to the first stop once (Game.start_state) and each new state is a copy: a played
    game changes neither the start nor the next state of the same seed, and a state of another seed differs
    only by its seed (no chance event is decided before the first stop)."""
    game = load_game("maechtige_monster", (), players=4)
    first = game.new_initial_state(3).to_json()
    played = game.new_initial_state(3)
    rng = random.Random(1)
    while not played.is_terminal():
        played.apply_action(rng.randrange(len(played.legal_actions())))
    assert game.new_initial_state(3).to_json() == first
    assert game.new_initial_state(4).seed == 4
    assert {**json.loads(game.new_initial_state(4).to_json()), "seed": 3} == json.loads(first)



def _tiny(folder: Path, later: str = "", shown: str = "pick") -> Game:
    """A game waiting at a decision in its round; `later` is a statement after the choice in the same block."""
    folder.mkdir(exist_ok=True)
    (folder / "game.rules").write_text(f'''
game tiny {{ title de "T" en "T" players 2 to 2 }}
var picked: int = 0 de "die Wahl" en "{shown}"
round {{ repeat while round < 1 phase p de "P" en "P" {{
  let x = choose first(players) from [1, 2]
  {later}
  set picked = picked + x
}} }}
score(p) = picked
''', encoding="utf-8")
    return load_game(str(folder), players=2)


def test_a_state_saved_from_other_rules_steps_is_refused_clearly(tmp_path: Path) -> None:
    """A save records its program's layout: a block that gained a step since would resume at another
    step, so the load refuses it and says why; an edit that keeps every step in place still loads."""
    saved = _tiny(tmp_path / "t").new_initial_state(seed=1).to_json()
    with pytest.raises(SavedStateError, match=r"^program: the state was saved from a program laid out as \w+, "
                                               r"this one is \w+: the rules or the engine changed"):
        _tiny(tmp_path / "t", later="set picked = 5").state_from_json(saved)
    again = _tiny(tmp_path / "t", shown="choice").state_from_json(saved)
    again.apply_label("2")
    assert again.is_terminal() and again.scores() == [2, 2]


def test_a_save_without_a_layout_still_loads() -> None:
    """Saves made before the layout was recorded carry none: they load as they always did."""
    data = mid_game()
    del data["program"]
    assert load(data).to_dict()["program"] == game().program.layout
