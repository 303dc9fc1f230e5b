"""Each block runs in one generated function (compile/blocks.py) from a resume point on; it must do exactly
what its ops do one at a time, and a step that fails midway must leave the state exactly as it was."""
from __future__ import annotations

import dis
import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest

from interpreter import load_game
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.helpers import family_cards
from interpreter.runtime.ops import L_MOVE
from interpreter.runtime.state import State, step_op

FIXTURES = Path(__file__).parent / "fixtures" / "games"


def stepwise(game: Game) -> Game:
    """The same game with no runner entered: every op runs by itself, as State._run does between starts."""
    game.enter_at = [[step_op] * len(steps) for steps in game.enter_at]
    return game


def play(game: Game, seed: int, steps: int) -> list[str]:
    """The saved state after each of the first `steps` decisions and chance outcomes of a random game."""
    state, rng, seen = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal() and len(seen) < steps:
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
        seen.append(state.to_json())
    return seen


@pytest.mark.parametrize("ruleset, variants, steps", [
    ("maechtige_monster", (), 10_000), ("maechtige_monster", ("waechterkette",), 10_000),
    ("magical_friends", (), 400), ("fuerchterliche_feinde", (), 300),
    (str(FIXTURES / "marktplatz"), (), 10_000), (str(FIXTURES / "spitzel"), (), 10_000)])
def test_runners_do_what_the_ops_do_one_by_one(ruleset: str, variants: tuple[str, ...], steps: int) -> None:
    for seed in (1, 2):
        by_runner = play(load_game(ruleset, variants, players=3), seed, steps)
        assert by_runner == play(stepwise(load_game(ruleset, variants, players=3)), seed, steps)
        assert len(by_runner) >= 10


def shelf_rules() -> str:
    """The probe game's tokens (RULES) on a shelf of three rows, moved on and off it at random."""
    return RULES[:RULES.index("zone box")].replace("game probe", "game shelf") + SHELF


SHELF = """zone box of tok public
zone row [3] of tok public
action place(t in cards(box), i in [1, 2, 3], under in [true, false]) {
  label "place {t} {i} {under}"
  if under {
    move t to row[i] bottom
  } else {
    move t to row[i]
  }
}
action shift(t in cards(row), i in [1, 2, 3]) {
  label "shift {t} {i}"
  move t to row[i] bottom
}
action back(t in cards(row)) {
  label "back {t}"
  move t to box
}
round {
  repeat while round < 12
  phase play {
    choose action for first(players): place, shift, back
  }
}
score(p) = 0
"""


@pytest.mark.parametrize("ruleset", ["magical_friends", "maechtige_monster", "shelf"])
def test_the_family_cache_stays_what_the_zones_give(ruleset: str, tmp_path: Path) -> None:
    """Moves (to the top or the bottom, within a family or out of it) keep each cached family's cards
    (helpers.family_cards, blocks.card_move) equal to its zones read afresh; only a family the rules read whole is
    kept (Program.cached)."""
    if ruleset == "shelf":
        (tmp_path / "shelf").mkdir()
        (tmp_path / "shelf" / "game.rules").write_text(shelf_rules(), encoding="utf-8")
        ruleset = str(tmp_path / "shelf")
    game = load_game(ruleset, players=2 if ruleset.endswith("shelf") else 4)
    checked = 0
    for seed in range(1, 4):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
            for fam, cards in state.fam_cards.items():
                lo, hi = game.fam_span[fam]
                assert cards == [c for zone in state.zones[lo:hi] for c in zone]
                checked += 1
            for fam in range(len(game.fam_span)):  # every family the rules read whole cached, for the next move to keep
                family_cards(state, fam)
            assert set(state.fam_cards) == game.program.cached  # and only those: the moves of the others keep none
    assert checked > 20


RULES = """
game probe {
  players 2 to 2
}
kind tok {
  field v: int
  id "t{v}"
}
cards tok in box {
  columns v
  row 1
  row 2
  row 3
}
zone box of tok hidden
zone shown of tok public
zone mine per player of tok owner
var acc: int = 0
currency coins start 3
action grab(x in [1, 2]) {
  label "grab {x}"
  pay 2 coins from me to bank
  pay 1 coins from bank to last(players)
  give card("t1") to me
  move card("t1") to mine(me)
  reveal card("t2") to me
  move card("t2") to shown
  reveal card("t3")
  set card("t3").v = 7
  set acc = acc + 1
  require x == 1
}
round {
  repeat while round < 3
  phase play {
    choose action for first(players): grab
  }
}
score(p) = 0
"""


def test_a_failing_step_leaves_cards_faces_owners_values_and_variables_as_they_were(tmp_path: Path) -> None:
    """Cards, faces, knowledge, owners, card values, variables and payments: a failing step leaves none changed."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(RULES, encoding="utf-8")
    state: State = load_game(str(folder), players=2).new_initial_state(1)
    assert state.game.program.actions[0].run is not None  # its body runs through: no frame, run by State.take_action
    before = state.to_json()
    with pytest.raises(GameRuleError, match="requirement failed"):
        state.apply_action(state.legal_labels().index("grab 2"))
    assert state.to_json() == before
    state.apply_action(state.legal_labels().index("grab 1"))
    t1, t2, t3 = (state.game.card_index[c] for c in ("t1", "t2", "t3"))
    assert (state.owner[t1], state.known[t2], state.face_up[t3], state.card_vals[t3]) == (0, 0, True, [7])
    gvars = {name: value for (name, _, _), value in zip(state.game.program.gvars, state.gvars)}
    assert gvars == {"acc": 1, "bank_coins": -5} and [row[0] for row in state.pvars] == [1, 4]


def test_a_failing_step_gives_back_the_face_and_knowledge_of_cards_it_moved(tmp_path: Path) -> None:
    """A face-up card and a card shown to one seat, moved into a hidden zone by a step that then fails, are face up
    and known again."""
    rules = RULES.replace("zone shown of tok public", "zone shown of tok public\nzone pile of tok hidden").replace(
        "choose action for first(players): grab", "choose action for first(players): show, hide, grab")
    rules = rules.replace("action grab(", """action show(x in [1]) {
  label "show {x}"
  reveal card("t3")
  reveal card("t2") to me
}
action hide(x in [1, 2]) {
  label "hide {x}"
  move card("t3") to pile
  move card("t2") to pile
  require x == 1
}
action grab(""")
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(rules, encoding="utf-8")
    state: State = load_game(str(folder), players=2).new_initial_state(1)
    state.apply_action(state.legal_labels().index("show 1"))
    t2, t3 = (state.game.card_index[c] for c in ("t2", "t3"))
    assert (state.known[t2], state.face_up[t3]) == (1, True)
    before = state.to_json()
    with pytest.raises(GameRuleError, match="requirement failed"):
        state.apply_action(state.legal_labels().index("hide 2"))
    assert state.to_json() == before
    state.apply_action(state.legal_labels().index("hide 1"))
    assert (state.known[t2], state.face_up[t3]) == (0, False)


STRAIGHT = """
game straight {
  players 2 to 2
}
kind tok {
  field v: int
  id "t{v}"
}
cards tok in box {
  columns v
  row 1
  row 2
  row 3
}
zone box of tok public
zone shown of tok public
var acc: int = 0
rule bump(k: int) {
  set acc = acc + k
  require k < 50
}
rule down(k: int) {
  if k > 0 {
    call down(k - 1)
  }
}
action go(x in [1, 2, 3]) {
  label "go {x}"
  if x == 3 {
    call bump(99)
  }
  call down(3)
  for c in cards(box) {
    repeat c.v {
      call bump(c.v)
    }
    log de "gesehen: {c}" en "seen {c}"
  }
  let n = 0
  while true {
    set n = n + 1
    if n >= 4 {
      break
    }
  }
  set acc = acc + 100 * n
  for c in cards(box) {
    if x == 2 {
      require c.v < 3
    }
    move c to shown
  }
}
round {
  repeat while round < 2
  phase play {
    choose action for first(players): go
  }
}
score(p) = acc
"""


def test_statements_without_a_stop_run_as_one_step_and_fail_at_their_inner_statement(tmp_path: Path) -> None:
    """A loop, `if` or rule call with nothing inside that stops or leaves it is plain Python (one op of its
    block, statements.StatementCompiler._structured): it computes what the ops did, and an inner statement's
    error (in a called rule too) still names that statement's line. A rule calling itself keeps its frames."""
    (tmp_path / "straight").mkdir()
    (tmp_path / "straight" / "game.rules").write_text(STRAIGHT, encoding="utf-8")
    game = load_game(str(tmp_path / "straight"), players=2)
    action = game.program.actions[0]
    assert len(game.code[action.block]) == 8  # seven statements and the block's end
    assert action.run is None  # `call down` keeps frames: the action does too
    assert [len(game.code[b]) for b, block in enumerate(game.program.blocks) if block.name == "rule down"] == [3]
    state = game.new_initial_state(1)
    with pytest.raises(GameRuleError, match="requirement failed") as failed:
        state.apply_action(state.legal_labels().index("go 3"))
    assert failed.value.line == STRAIGHT.splitlines().index("  require k < 50") + 1
    with pytest.raises(GameRuleError, match="requirement failed") as failed:
        state.apply_action(state.legal_labels().index("go 2"))
    assert failed.value.line == STRAIGHT.splitlines().index("      require c.v < 3") + 1
    state.apply_action(state.legal_labels().index("go 1"))
    assert state.gvars[0] == 1 + 4 + 9 + 400
    assert [e[1] for e in state.log if e[0] == 6] == ["seen {c}"] * 3
    assert len(state.zones[game.zone_names.index("shown")]) == 3


CALLER_RULES = """
game probe {
  players 2 to 2
}
zone box of tok public
zone pile of tok public
zone out of tok public
var acc: int = 0
player var pts: int = 0
kind tok {
  field n: int
  id "c{n}"
}
cards tok in box {
  columns n
  row 1
  row 2
}
rule ask(p: player) {
  let x = choose p from [1, 2]
  set acc = acc + x
}
round {
  repeat while round < 3
  phase a {
    let y = 5
    call ask(first(players))
    set y = acc
    set first(players).pts = y
    move first(box) to pile
    if acc == 2 {
      move first(out) to box
    }
  }
}
score(p) = p.pts
"""


def test_a_failing_step_that_resumed_a_calling_frame_leaves_it_as_it_was(tmp_path: Path) -> None:
    """A step that resumes the caller of the rule and then fails: that frame, its locals and the variables are back,
    and play goes on."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(CALLER_RULES, encoding="utf-8")
    state: State = load_game(str(folder), players=2).new_initial_state(1)
    assert len(state.frames) > 2  # the rule's frame stands on its caller's
    before, clone = state.to_json(), state.clone()
    with pytest.raises(GameRuleError, match="empty"):
        state.apply_label("2")
    assert state.to_json() == before
    state.apply_label("1")
    clone.apply_label("1")
    assert state.to_json() == clone.to_json() and state.pvars[0][0] == 1 and state.round == 2


class FailingLog(list[tuple[Any, ...]]):
    """A state's log that raises a rules error once the n-th move since `left` was set is in (a move's log entry
    is the last thing it does, blocks.card_move); set to 0, it never fails."""

    left = 0

    def append(self, entry: tuple[Any, ...]) -> None:
        super().append(entry)
        if entry[0] == L_MOVE:
            self.left -= 1
            if self.left == 0:
                raise GameRuleError("injected")


@pytest.mark.parametrize("ruleset, variants, players, reload_every", [
    ("maechtige_monster", ("koenigs_neue_regeln",), 4, 0), ("maechtige_monster", (), 3, 5), ("magical_friends", (), 2, 7)])
def test_a_step_of_a_real_game_that_fails_after_any_of_its_moves_is_undone_whole(
        ruleset: str, variants: tuple[str, ...], players: int, reload_every: int) -> None:
    """A rules error after the n-th move of a step (injected into every step of a game, in the run the state goes on
    in, and every `reload_every` steps in a state loaded from its saved form, whose run starts from the frames): it
    names its place in the rules file, the state is as it was (frames, locals, cards, round, phase, modifiers), and
    the step then plays as on a clone that never failed."""
    game = load_game(ruleset, list(variants), players=players)
    rng = random.Random(7)
    undone = 0
    state = game.new_initial_state(seed=1)
    state.log = log = FailingLog(state.log)
    for k in range(400):
        if state.is_terminal():
            break
        if reload_every and k % reload_every == 0:  # the failing log set before the state has a run (State._gen)
            state = game.state_from_json(state.to_json())
            state.log = log = FailingLog(state.log)
        action = state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions()))
        before, twin = state.to_json(), state.clone()
        log.left = rng.randrange(1, 6)
        try:
            state.apply_action(action)
        except GameRuleError as exc:
            undone += 1
            assert exc.file is not None and exc.line > 0 and "injected" in str(exc)
            assert state.to_json() == before
            log.left = 0
            state.apply_action(action)
            twin.apply_action(action)
            assert state.to_json() == twin.to_json()
        log.left = 0
    assert undone > 10


def test_a_failing_step_goes_back_to_the_state_whatever_its_base(tmp_path: Path) -> None:
    """Nothing is noted during a step: a failing one replays the steps since the state's base (State._go_back), be it
    its seed, a clone's, a loaded or advanced state as it stood, a state written to directly (State.edited) or the
    state after an earlier failure; each goes back to where it stood and then plays as a twin that never failed."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "game.rules").write_text(RULES.replace("start 3", "start 9"), encoding="utf-8")  # coins for three grabs
    game = load_game(str(folder), players=2)

    def grab(state: State, x: int) -> int:
        return state.legal_labels().index(f"grab {x}")

    fresh = game.new_initial_state(1)
    stepped, advanced, written = fresh.clone(), fresh.clone(), fresh.clone()
    stepped.apply_action(grab(stepped, 1))
    advanced.advance(grab(advanced, 1))
    written.apply_action(grab(written, 1))
    acc = [name for name, _, _ in game.program.gvars].index("acc")
    written.gvars[acc] = 40
    written.edited()
    for state in (fresh, stepped, stepped.clone(), advanced, game.state_from_json(stepped.to_json()), written):
        before, twin = state.to_json(), state.clone()
        for _ in range(2):
            with pytest.raises(GameRuleError, match="requirement failed"):
                state.apply_action(grab(state, 2))
            assert state.to_json() == before
        state.apply_action(grab(state, 1))
        twin.apply_action(grab(twin, 1))
        assert state.to_json() == twin.to_json()
    assert written.gvars[acc] == 41


def nested_ifs(depth: int, inner: str) -> str:
    """`depth` ifs inside each other around `inner`, each adding its level to `acc`, the k-th taken while round > k."""
    text = inner
    for k in reversed(range(depth)):
        text = f"if round > {k} {{\n  set acc = acc + {k + 1}\n{text}\n}}"
    return text


DEEP = """
game deep {
  players 2 to 2
}
var acc: int = 0
round {
  repeat while round < 24
  phase outside {
    %s
    set acc = acc + 1000
  }
  phase inside {
    for i in [1, 2] {
      %s
      set acc = acc + 100
    }
  }
}
score(p) = acc
"""


def test_jumps_forward_out_of_ifs_deeper_than_an_arm_nests_them_play_as_the_ops_do(tmp_path: Path) -> None:
    """An `if` that may stop inside becomes arms of the runner; one that is left skips the rest of its arm by an
    `else:` (blocks._skip_rest), and past _ELSE_MAX of them in one arm by going round the loop it is in, or the
    runner's own: either way the game goes as its ops one by one do, in a loop and in none."""
    decide = "let x = choose first(players) from [1, 2]\nset acc = acc + x"
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "game.rules").write_text(DEEP % (nested_ifs(20, decide), nested_ifs(20, decide)), encoding="utf-8")
    game = load_game(str(tmp_path / "deep"), players=2)
    by_runner = play(game, 1, 1000)
    assert by_runner == play(stepwise(load_game(str(tmp_path / "deep"), players=2)), 1, 1000)
    state = game.new_initial_state(1)
    while not state.is_terminal():
        state.apply_action(0)
    # rounds 1 to 24: each takes the ifs up to its number, and from round 20 on the choice (1) at the innermost
    assert state.gvars[0] == sum(1000 + 200 + 3 * sum(range(1, min(r, 20) + 1)) + 3 * (r >= 20) for r in range(1, 25))


def owned_rules() -> str:
    """The probe game's tokens (RULES), seven of them, for three players who count theirs in a row (OWNED)."""
    head = RULES[:RULES.index("zone box")].replace("game probe", "game owned").replace("players 2 to 2", "players 3 to 3")
    return head.replace("  row 3\n", "".join(f"  row {v}\n" for v in range(3, 8))) + OWNED


OWNED = """zone box of tok public
zone row [3] of tok public
var mine: int = 0
var steps: int = 0
action place(t in cards(box), i in [1, 2, 3]) {
  label "place {t} {i}"
  give t to me
  move t to row[i]
  set mine = count(c for c in cards(row) if owner(c) == me)
}
action shift(t in cards(row), i in [1, 2, 3]) {
  label "shift {t} {i}"
  move t to row[i] bottom
  set mine = count(c for c in cards(row) if me == owner(c))
}
action pass_on(t in cards(row)) {
  label "pass {t}"
  give t to next(me)
  set mine = count(c for c in cards(row) if owner(c) == me)
}
action lift(i in [1, 2, 3]) {
  label "lift {i}"
  require count(row[i]) > 0
  let t = top(row[i])
  move t to box
}
action lift_back(i in [1, 2, 3], j in [1, 2, 3]) {
  label "lift {i} back {j}"
  require count(row[i]) > 0
  let t = top(row[i])
  move t to box
  move t to row[j]
}
action back(t in cards(row), keep in [true, false]) {
  label "back {t} {keep}"
  move t to box
  give t to me
  require keep
}
round {
  repeat while round < 15
  phase play {
    set steps = 0
    turns p from first(players) until steps >= 5 skip when count(c for c in cards(row) if owner(c) == p) == 2 {
      choose action for p: place, shift, pass_on, back, lift, lift_back
      set steps = steps + 1
    }
  }
  phase clear {
    if round % 5 == 0 { for c in cards(row) { move c to box } }
    if round % 5 == 4 { for c in cards(row[1]) { move c to box } }
    if round % 5 == 3 { move cards(row[2]) to box }
    if round % 5 == 1 {
      for t in [t for t in cards(box) if t != top(box)] {
        give t to first(players)
        move t to row[2]
        give t to next(first(players))
      }
    }
    if round % 5 == 2 { for c in [c for c in cards(row) if owner(c) != first(players)] { give c to first(players)  move c to row[3] } }
  }
}
score(p) = count(c for c in cards(row) if owner(c) == p)
"""


def test_counts_by_owner_stay_what_the_zones_give(tmp_path: Path) -> None:
    """A family counted by owner (`count(c for c in cards(F) if owner(c) == p)`) keeps its counts (State.owned) through
    moves into, out of and within it (an option's card, a loop's card, a zone's cards: each from the family its form
    tells, a `let`'s card moved right after it; a loop that empties the family, set to 0 as it ends, and one that
    empties one of its zones), gifts (a filtered loop's card given before its move, from the family its source tells, and after it), a
    step that fails after both, clones and saves; the rules read them."""
    folder = tmp_path / "owned"
    folder.mkdir()
    (folder / "game.rules").write_text(owned_rules(), encoding="utf-8")
    game = load_game(str(folder), players=3)
    row = game.program.zone_by_name["row"].family_id
    assert game.program.counted == (row,)
    lift = [a.name for a in game.program.actions].index("lift")  # a let's card moved right after: from its family
    assert "_g_zone_family" not in game.actions[lift][2].__code__.co_varnames  # unread; moved again: read
    assert "_g_zone_family" in game.actions[lift + 1][2].__code__.co_varnames

    def fresh(state: State) -> list[int]:
        lo, hi = game.fam_span[row]
        cards = [c for zone in state.zones[lo:hi] for c in zone]
        return [sum(state.owner[c] == p for c in cards) for p in (0, 1, 2, -1)]

    failed = 0
    for seed in range(1, 6):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            before, seat, n, rounds = state.to_json(), state.current_player(), len(state.history), state.round
            try:
                state.apply_action(rng.randrange(len(state.legal_actions())))
            except GameRuleError:
                assert state.to_json() == before
                failed += 1
            assert state.owned[row] == fresh(state)
            assert state.clone().owned == state.owned == game.state_from_json(state.to_json()).owned
            if len(state.history) > n and not state.history[n].startswith(("back", "lift")) and state.round == rounds \
                    and not state.is_terminal():  # it set `mine` for its seat, and no phase `clear` ran after it
                assert state.gvars[0] == fresh(state)[seat]
        assert state.returns() == [float(n == max(fresh(state)[:3])) for n in fresh(state)[:3]]
    assert failed > 5


WHOLE = """zone pile of tok hidden
zone table of tok public
zone mine per player of tok owner
action show(t in cards(box)) {
  label "show {t}"
  reveal t to me
}
action flip(t in cards(box)) {
  label "flip {t}"
  reveal t
}
action sweep(x in [1, 2, 3, 4]) {
  label "sweep {x}"
  if x == 1 { move cards(box) to pile }
  if x == 2 { move cards(pile) to table }
  if x == 3 { move cards(table) to table }
  if x == 4 { move cards(table) to mine(me) }
  move cards(mine(me)) to box
}
round {
  repeat while round < 12
  phase play {
    choose action for first(players): show, flip, sweep
  }
}
score(p) = 0
"""


def test_a_zone_moved_whole_leaves_what_its_cards_moved_one_by_one_leave(tmp_path: Path) -> None:
    """`move cards(z) to d` changes the two zones' lists once (blocks.move_all): zones, faces, knowledge and log
    entries are those of its cards moved one at a time, a zone moved onto itself too."""
    rules = RULES[:RULES.index("zone box")].replace("game probe", "game whole") + "zone box of tok hidden\n" + WHOLE
    one_by_one = re.sub(r"move cards\(([^)]*\)?)\) to ([^ }]*)", r"for c in cards(\1) { move c to \2 }", rules)
    assert one_by_one.count("for c in") == 5
    played = []
    for name, text in (("whole", rules), ("single", one_by_one)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.rules").write_text(text, encoding="utf-8")
        game = load_game(str(tmp_path / name), players=2)
        seen = []
        for seed in range(1, 4):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.randrange(len(state.legal_actions())))
                saved = json.loads(state.to_json())
                seen.append([saved[k] for k in ("zones", "face_up", "known", "owner", "log", "history")])
        played.append(seen)
    assert played[0] == played[1]
    assert any(e[0] == L_MOVE for step in played[0] for e in step[4])
    # only `table` moved onto a table (one family) tests whether the zones are one; two families never are
    sweep = [i for i in dis.get_instructions(load_game(str(tmp_path / "whole"), players=2).actions[2][2])]
    assert sum(i.argval == "extend" for i in sweep) == 5 and sum(i.argrepr == "!=" for i in sweep) == 1


SWEPT = """zone box of tok hidden
zone row [3] of tok hidden
zone mine per player of tok owner CAPACITY
var steps: int = 0
action place(t in cards(box), i in [1, 2, 3]) {
  label "place {t} {i}"
  give t to me
  move t to row[i]
}
""" + WHOLE[WHOLE.index("action show"):WHOLE.index("action sweep")].replace("cards(box)", "cards(row)") + """round {
  repeat while round < 12
  phase play {
    turns p from first(players) until steps >= 5 {
      choose action for p: place, show, flip
      set steps = steps + 1
    }
  }
  phase clear {
    set steps = 0
    for c in cards(row) { move c to mine(owner(c)) }
    for p in players { move cards(mine(p)) to box }
  }
}
score(p) = 0
"""


def swept_rules(capacity: str = "", one_by_one: bool = False, owner: str = "c") -> str:
    """The probe game's seven tokens (RULES) placed in a row by three players and swept back (SWEPT) to the owner of
    `owner`: the loop over the row's cards moves them zone by zone (blocks.sweep), or, `one_by_one`, card by card (a
    body of two statements)."""
    head = RULES[:RULES.index("zone box")].replace("game probe", "game swept").replace("players 2 to 2", "players 3 to 3")
    rules = head.replace("  row 3\n", "".join(f"  row {v}\n" for v in range(3, 8))) + SWEPT.replace("CAPACITY", capacity)
    body = f"{{ let o = owner({owner})  move c to mine(o) }}" if one_by_one else f"{{ move c to mine(owner({owner})) }}"
    return rules.replace("{ move c to mine(owner(c)) }", body)


@pytest.mark.parametrize("owner", ["c", "first(cards(row))"])
def test_a_loop_that_moves_every_card_of_a_family_elsewhere_moves_it_zone_by_zone(tmp_path: Path, owner: str) -> None:
    """`for c in cards(F) { move c to G(owner(c)) }` leaves what its cards moved one at a time leave (zones, places,
    faces, knowledge, log entries kept or only counted, the family cache), with no card's zone looked up or taken
    out of its list (not where the destination reads where cards lie); a destination that fills up fails at the move,
    the step undone; a budget runs out where it would card by card."""
    games = []
    for name, one_by_one in (("swept", False), ("single", True)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.rules").write_text(swept_rules(one_by_one=one_by_one, owner=owner), encoding="utf-8")
        games.append(load_game(str(tmp_path / name), players=3))
    removes = [any(i.argval == "remove" for i in dis.get_instructions(_last_phase(game))) for game in games]
    assert removes == [owner != "c", True]
    played: list[list[Any]] = [[], []]
    for seen, game in zip(played, games):
        for seed, keep_log in ((1, True), (2, True), (3, False)):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            state.keep_log = keep_log
            while not state.is_terminal():
                state.apply_action(rng.randrange(len(state.legal_actions())))
                row = game.program.zone_by_name["row"].family_id
                assert family_cards(state, row) == [c for z in game.fam_zones[row] for c in state.zones[z]]
                seen.append([state.zones, state.where, state.known, state.owner, state.log, state.history])
    assert played[0] == played[1]
    assert any(e[0] == L_MOVE and e[2] in games[0].fam_zones[2] for step in played[0] for e in step[4] if e)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "game.rules").write_text(swept_rules("capacity 1"), encoding="utf-8")
    state = load_game(str(tmp_path / "full"), players=3).new_initial_state(1)
    for label in ("place t1 1", "place t2 2", "place t3 3", "place t4 1"):
        state.apply_label(label)
    before = state.to_json()
    with pytest.raises(GameRuleError, match="holds at most 1") as info:
        state.apply_label("place t5 2")
    assert info.value.line == swept_rules("capacity 1").split("\n").index("    for c in cards(row) { move c to mine(owner(c)) }") + 1
    assert state.to_json() == before
    for steps in range(3, 11):  # a budget that runs out in the loop, or after it: where it does, as card by card
        failed: list[Any] = []
        for game in games:
            state = Game(game.program, 3, game.program.name, [], replace(game.limits, max_steps=steps)).new_initial_state(1)
            try:
                for label in ("place t1 1", "place t2 2", "place t3 3", "place t4 1", "place t5 2"):
                    state.apply_label(label)
            except GameRuleError as exc:
                failed.append((exc.line, exc.message))
        assert failed[:1] == failed[1:] and len(failed) == 2 * (steps < 10)


def _last_phase(game: Game) -> Any:
    """The function of the game's last phase, one that runs through (compiler._flow makes it last of Game.rules)."""
    return game.rules[-1]


def _reads_where(code: Any) -> bool:
    """Whether code (or a function inside it) looks up where a card lies: `where[c]` read, not set."""
    ops = list(dis.get_instructions(code))
    return any(i.argval in ("where", "_s_where") and ops[k + 2].opname == "BINARY_SUBSCR" for k, i in enumerate(ops[:-2])) \
        or any(_reads_where(k) for k in code.co_consts if hasattr(k, "co_code"))


def test_a_card_from_a_family_of_one_zone_leaves_that_zone_unlooked_up(tmp_path: Path) -> None:
    """A move of a card whose family the compiler knows (an option's, a loop's), a family of one zone, takes that zone
    as the one the card leaves (card_move): no look-up of where it lies; from a family of several zones it looks."""
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "game.rules").write_text(swept_rules(one_by_one=True), encoding="utf-8")
    game = load_game(str(tmp_path / "one"), players=3)
    place = [a.name for a in game.program.actions].index("place")  # from the box, the game's one zone of its family
    assert not _reads_where(game.actions[place][2].__code__)
    assert _reads_where(_last_phase(game).__code__)  # from a row
    state = game.new_initial_state(1)
    state.apply_label("place t3 2")
    assert state.zones[game.fam_zones[game.program.zone_by_name["row"].family_id][1]] == [2]
    assert state.where[2] == game.fam_zones[game.program.zone_by_name["row"].family_id][1] and 2 not in state.zones[0]


ROOM = """zone slot [2] of tok public capacity 1
action put(t in cards(box), i in [1, 2]) {
  label "put {t} {i}"
  require count(slot[i]) < LIMIT
  move t to slot[i]
}
round {
  repeat while round < 4
  phase play {
    choose action for first(players): put
  }
}
score(p) = 0
"""


def _texts(code: Any) -> Iterator[str]:
    """The strings among a code object's constants, its inner functions' too."""
    for k in code.co_consts:
        if isinstance(k, str):
            yield k
        elif hasattr(k, "co_consts"):
            yield from _texts(k)


@pytest.mark.parametrize("limit", [1, 2])
def test_a_move_right_after_its_zone_was_required_to_have_room_tests_no_capacity(tmp_path: Path, limit: int) -> None:
    """`require count(z) < k` right before `move c to z`, k at most z's capacity: z has room, so the move tests none
    (statements._note_room); with a k above it the move still fails on a full zone."""
    folder = tmp_path / "room"
    folder.mkdir()
    rules = RULES[:RULES.index("zone box")].replace("game probe", "game room") + "zone box of tok public\n"
    (folder / "game.rules").write_text(rules + ROOM.replace("LIMIT", str(limit)), encoding="utf-8")
    game = load_game(str(folder), players=2)
    tested = any("holds at most" in text for code in _codes(game) for text in _texts(code))
    assert tested == (limit == 2)
    state = game.new_initial_state(1)
    state.apply_label("put t1 1")
    if limit == 1:
        assert "put t2 1" not in state.legal_labels()
    else:
        with pytest.raises(GameRuleError, match="holds at most 1"):
            state.apply_label("put t2 1")


def _codes(game: Game) -> Iterator[Any]:
    """The code of each block runner of a game, and of each action body that runs through."""
    for run in [*game.runners, *(a.run for a in game.program.actions if a.run is not None)]:
        yield run.__code__


SKIPPING = """game probe {
  players 3 to 3
}
var n: int = 0
var seen: int = 0
round {
  repeat while round < 1
  phase p {
    turns p from first(players) until n >= UNTIL
        skip when SKIP {
      set n = n + 1
      set seen = seen * 4 + (if p == first(players) then 1 else 2)
    }
  }
}
score(p) = seen
"""


@pytest.mark.parametrize("until, skip, played", [
    ("5", "p == last(players)", [1, 2, 1, 2, 1]),  # the until does not read p: a skipped seat goes to the next skip test
    ("5 + (if p == last(players) then 9 else 0)", "p == last(players)", [1, 2, 1, 2, 1]),  # it does: tested again
    ("5 + (if last_seat(p) then 9 else 0)", "last_seat(p)", [1, 2, 1, 2, 1]),  # through a function too
])
def test_turns_pass_over_the_skipped_seats_as_written(tmp_path: Path, until: str, skip: str, played: list[int]) -> None:
    function = "function last_seat(q: player) = q == last(players)\n" if "last_seat" in until else ""
    (tmp_path / "game.rules").write_text(function + SKIPPING.replace("UNTIL", until).replace("SKIP", skip), encoding="utf-8")
    game = load_game(str(tmp_path), players=3)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(0)
    assert state.scores()[0] == sum(k * 4 ** i for i, k in enumerate(reversed(played)))
    turns = game.runners[[b.name for b in game.program.blocks].index("phase p")]  # the next seat: Game.next_seat's
    assert game.next_seat == [1, 2, 0] and not any(i.argrepr == "%" for i in dis.get_instructions(turns))
    (tmp_path / "game.rules").write_text(SKIPPING.replace("UNTIL", "5").replace("SKIP", "n >= 0"), encoding="utf-8")
    with pytest.raises(GameRuleError, match="every player would be skipped"):
        load_game(str(tmp_path), players=3).new_initial_state(seed=1)


@pytest.mark.parametrize("ruleset, steps", [("maechtige_monster", 10_000), ("magical_friends", 300)])
def test_a_clone_or_a_reload_at_any_stop_plays_on_as_the_live_state(ruleset: str, steps: int) -> None:
    """The live state's run goes on in a generator (State._resumed) that neither a clone nor a saved state holds:
    they go on from the frames, and must play exactly the same step."""
    game = load_game(ruleset, players=3)
    state, rng = game.new_initial_state(3), random.Random(3)
    while not state.is_terminal() and steps:
        steps -= 1
        action = state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions()))
        twins = [state.clone(), game.state_from_json(state.to_json())]
        state.apply_action(action)
        for twin in twins:
            twin.apply_action(action)
            assert twin.to_json() == state.to_json()


def test_steps_taken_by_advance_and_by_apply_action_in_turn_play_as_apply_action_alone() -> None:
    """A step not undoable (advance) goes on from the frames and drops the run apply_action goes on in (State._gen),
    so the next apply_action does not resume it where it stood before."""
    game = load_game("maechtige_monster", players=4)
    state, rng, actions = game.new_initial_state(5), random.Random(5), []
    while not state.is_terminal():
        actions.append(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
        state.apply_action(actions[-1])
    mixed = game.new_initial_state(5)
    for k, action in enumerate(actions):
        (mixed.advance if k % 3 == 1 else mixed.apply_action)(action)
    assert mixed.is_terminal() and mixed.history == state.history and mixed.returns() == state.returns()


def test_a_snippet_whose_lines_go_on_after_a_stop_is_refused() -> None:
    """A resumable runner goes on past a STOP, so a line after it outside an `else` would run after the outcome too."""
    from interpreter.compile.blocks import Snippet
    Snippet(["if x:", "    STOP", "else:", "    y = 1"])
    for lines in (["if x:", "    STOP", "y = 1"], ["if x:", "    if z:", "        STOP", "    else:", "        y = 1", "    w = 2"]):
        with pytest.raises(AssertionError, match="after a STOP"):
            Snippet(lines)


@pytest.mark.parametrize("ruleset, variants, players, steps", [
    ("maechtige_monster", ("koenigs_neue_regeln",), 4, 3000), ("magical_friends", (), 2, 200)])
def test_every_way_to_take_a_step_plays_as_a_state_loaded_from_its_saved_form(
        ruleset: str, variants: tuple[str, ...], players: int, steps: int) -> None:
    """The live state's run (State._gen) goes on whichever way a step is taken: by position, label, catalogue id or
    advance, on a determinized sample of a seat's view or on the state itself; a state loaded from the saved form
    of each, taking the same step, ends byte-identical."""
    from interpreter.play.determinize import determinize
    game = load_game(ruleset, list(variants), players=players)
    state, rng = game.new_initial_state(11), random.Random(11)
    sample = None
    for k in range(steps):
        if state.is_terminal():
            break
        if sample is not None and not sample.is_terminal():  # a sample goes on in its own run as the state does
            pick = sample.sample_chance() if sample.is_chance_node() else rng.randrange(len(sample.legal_actions()))
            twin = game.state_from_json(sample.to_json())
            sample.apply_action(pick)
            twin.apply_action(pick)
            assert twin.to_json() == sample.to_json()
        chance = state.is_chance_node()
        pos = state.sample_chance() if chance else rng.randrange(len(state.legal_actions()))
        twin = game.state_from_json(state.to_json())
        if k % 4 == 1 and not chance:
            state.apply_label(state.legal_labels()[pos])
        elif k % 4 == 2:
            ids = game.catalogue.node_ids(state)  # per option its id; equal moves share one, which takes the first
            pos = ids.index(ids[pos])
            state.apply_action_id(ids[pos])
        elif k % 4 == 3:
            state.advance(pos)
        else:
            state.apply_action(pos)
        twin.apply_action(pos)
        assert twin.to_json() == state.to_json()
        if k % 50 == 0 and not state.is_terminal() and not state.is_chance_node():
            sample = determinize(state, state.current_player(), rng)


def test_states_left_mid_game_are_freed() -> None:
    """A live state and its run's generator hold each other (State._gen): a cycle, which the collector frees, so states
    dropped mid-game in the API loop do not pile up."""
    import gc
    game = load_game("maechtige_monster", players=3)
    rng = random.Random(4)
    game.new_initial_state(0)  # the game's start state (Game.start_state) is made
    gc.collect()
    alive = sum(type(o) is State for o in gc.get_objects())
    for seed in range(300):
        state = game.new_initial_state(seed)
        for _ in range(25):
            state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    del state
    gc.collect()
    assert sum(type(o) is State for o in gc.get_objects()) <= alive


def test_a_state_whose_lists_a_tool_replaced_plays_on_from_them_once_told() -> None:
    """A live run holds the lists it read (State._gen): a tool that replaces a state's lists between steps calls
    edited(), and the state then plays as one loaded from its saved form."""
    game = load_game("maechtige_monster", players=4)
    state, rng = game.new_initial_state(8), random.Random(8)
    for k in range(400):
        if state.is_terminal():
            break
        action = state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions()))
        if k % 3 == 0:
            state.zones, state.gvars, state.log = [*map(list.copy, state.zones)], state.gvars.copy(), state.log.copy()
            state.pvars, state.owned = [*map(list.copy, state.pvars)], {f: c.copy() for f, c in state.owned.items()}
            state.edited()
        twin = game.state_from_json(state.to_json())
        state.apply_action(action)
        twin.apply_action(action)
        assert twin.to_json() == state.to_json()


def _run_loop(peeled: list[tuple[str, int]], entry: int, rounds: int) -> list[str]:
    """The arms a loop made by blocks._loop runs, entered at step `entry`, until `rounds` rounds have started."""
    src = "\n".join(["def run(pc):", "    seen = []", *("    " + ln for ln, _ in peeled), "    return seen"])
    ns: dict[str, Any] = {"ROUNDS": rounds}
    exec(src, ns)  # noqa: S102 - the test's own code
    return ns["run"](entry)  # type: ignore[no-any-return]


def test_a_loop_going_round_from_its_first_arm_runs_later_rounds_without_the_arms_tests() -> None:
    """A loop whose jumps all go round from its first arm or leave it is peeled: entered past its first arm, it
    runs the rest of that round with the arms' tests and every later round without them; a jump back to a later
    arm keeps the tests in every round. Both run the arms in the same order."""
    from interpreter.compile.blocks import _loop

    def arm(name: str, k: int) -> list[tuple[str, int]]:
        return [(f"seen.append({name!r})", k)]
    last = [("seen.append('c')", 5), ("if len(seen) >= ROUNDS:", 5), ("    pc = 9", 5), ("    break", 5),
            ("pc = 1", 5), ("continue", 5)]
    peeled = _loop([arm("a", 1), arm("b", 3), last], [1, 3, 5])
    assert peeled[0][0] == "while pc > 1:" and not any("pc <=" in ln for ln, _ in peeled[peeled.index(("else:", 1)):])
    assert _run_loop(peeled, 3, 7) == ["b", "c", "a", "b", "c", "a", "b", "c"]
    assert _run_loop(peeled, 0, 3) == ["a", "b", "c"]
    back = [*last[:4], ("pc = 3", 5), ("continue", 5)]
    kept = _loop([arm("a", 1), arm("b", 3), back], [1, 3, 5])
    assert kept[0][0] == "while True:"
    assert _run_loop(kept, 0, 6) == ["a", "b", "c", "b", "c", "b", "c"]


def test_a_loop_inside_a_loop_left_only_for_the_arm_after_it_runs_its_rounds_as_a_loop_of_its_own() -> None:
    """A loop in another's arms that no jump leaves for an arm but the next is nested (blocks._nested): its rounds
    pass none of the outer loop's tests, and once both are peeled, no round entered at the first arm tests `pc`;
    entered at any arm, the arms run as the jumps say. A jump back past its first arm or over the arm after it keeps it
    one loop with the outer."""
    from interpreter.compile.blocks import _loop_of, _nested

    arms = [[("seen.append('a')", 1), ("n = 0", 1)],
            [("if n == 2:", 3), ("    pc = 7", 3), ("    break", 3), ("n += 1", 3), ("seen.append('b')", 3)],
            [("seen.append('c')", 5), ("pc = 3", 5), ("continue", 5)],
            [("seen.append('d')", 7), ("if len(seen) >= ROUNDS:", 7), ("    pc = 9", 7), ("    break", 7), ("pc = 1", 7),
             ("continue", 7)]]
    spans = [(1, 2), (0, 3)]
    inner = _nested([(0, 3)], spans, [(1, 3)])
    assert inner == {(0, 3): [(1, 2)], (1, 2): []}
    assert _nested([(0, 3)], spans, [(1, 4)]) == {(0, 3): []}  # leaves for an arm past the next
    assert _nested([(0, 3)], [*spans, (0, 2)], [(1, 3)]) == {(0, 3): []}  # goes back past its first arm
    nested = _loop_of((0, 3), inner, arms, [1, 3, 5, 7])
    free = nested[nested.index(("else:", 1)):]
    assert nested[0][0] == "while pc > 1:" and not any("pc <=" in ln or "pc >" in ln for ln, _ in free)
    assert [ln for ln, _ in free].count("        while True:") == 1  # the inner loop's rounds, inside the outer's
    head = ["n = 0"]
    assert _run_loop([(ln, 0) for ln in head] + nested, 0, 12) == ["a", "b", "c", "b", "c", "d"] * 2
    assert _run_loop([(ln, 0) for ln in head] + nested, 5, 12) == ["c", "b", "c", "b", "c", "d", "a", "b", "c", "b", "c", "d"]
    assert _run_loop([(ln, 0) for ln in head] + nested, 7, 7) == ["d", "a", "b", "c", "b", "c", "d"]


@pytest.mark.parametrize("lines, read", [
    (["if pc <= 3:", "    L[0] = 1"], ["_, pc, L = fr"]),
    (["L[0] = st.gvars[1]"], ["L = fr[2]"]),
    (["while pc > 1:", "    pc = 1"], ["pc = fr[1]"]),
    (["st.gvars[2] = 0", "fr[1] = 3"], []),
])
def test_a_runner_reads_from_its_frame_only_what_its_lines_use(lines: list[str], read: list[str]) -> None:
    from interpreter.compile.blocks import _frame_read
    assert _frame_read(lines) == read


def test_only_the_main_blocks_calls_run_without_a_depth_test() -> None:
    """The main block's frame is the first: a frame it pushes is the second, so neither depth limit can be reached."""
    from interpreter.compile.blocks import call_rule, _called
    lines = call_rule(3, [], 2).lines
    assert any("len(frames) > " in ln for ln in _called(lines, 1, 3, True, False))
    root = _called(lines, 1, 3, True, True)
    assert not any("len(frames) > " in ln or "len(st.frames) > " in ln for ln in root)
    assert root[-3:-1] == ["if frames[-1] is not fr:", "    while (_b_t := frames[-1]) is not fr:"]


FULL = """zone box of tok public
zone row [3] of tok public capacity CAP
var agree: int = 0
var filled: int = 0
rule note {
  if all(count(row[i]) == 2 for i in positions(row)) == all(count(row[i]) + 0 == 2 for i in positions(row)) {
    set agree = agree + 1
  }
  if all(2 == count(row[i]) for i in positions(row)) { set filled = filled + 1 }
}
action put(t in cards(box), i in positions(row)) {
  label "put {t} {i}"
  require count(row[i]) < 2
  move t to row[i]
  call note
}
action take(t in cards(row)) {
  label "take {t}"
  move t to box
  call note
}
round {
  repeat while round < 5
  phase play {
    turns p from first(players) until all(count(row[i]) == 2 for i in positions(row))
        skip when count(c for c in cards(row) if owner(c) == p) == 9 {
      choose action for p: put, take
    }
  }
  phase clear {
    for c in cards(row) { move c to box }
  }
}
score(p) = 0
"""


@pytest.mark.parametrize("change, counts", [
    ({}, True),
    ({"capacity CAP": "capacity 3"}, False),  # a zone may hold a third card: the counts could mislead
    ({"owner(c) == p)": "owner(c) == p and p == p)"}, False),  # the row's cards not counted by owner
])
def test_every_place_full_is_read_from_the_counts_by_owner_where_no_place_holds_more(
        tmp_path: Path, change: dict[str, str], counts: bool) -> None:
    """`all(count(Z[i]) == k for i in positions(Z))`, Z counted by owner and of capacity k, is whether Z's counts add
    up to k a zone (expressions._every_place_full, Game.fam_full), with the value of a pass over its zones."""
    rules = owned_rules()
    rules = rules[:rules.index("zone box")].replace("game owned", "game full") + FULL
    for old, new in change.items():
        rules = rules.replace(old, new)
    rules = rules.replace("CAP", "2")
    (tmp_path / "game.rules").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path), players=3)
    assert any("sum" in code.co_names for code in _codes(game)) == counts
    assert game.fam_full[game.program.zone_by_name["row"].family_id] == (6 if "capacity 2" in rules else 9)
    names = [g[0] for g in game.program.gvars]
    for seed in range(1, 4):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.randrange(len(state.legal_actions())))
        assert state.gvars[names.index("agree")] == len(state.history) > 60
        assert state.gvars[names.index("filled")] >= 5


CLEARED = """  phase clear {
    let q = first(players)
    set before = count(c for c in cards(row) if owner(c) == q)
    for c in cards(row) { move c to box }
    set after = count(c for c in cards(row) if owner(c) == q) + count(c for c in cards(row) if owner(c) == next(q))
  }
"""


def test_a_familys_counts_by_owner_are_held_as_a_local_and_set_to_none_in_place(tmp_path: Path) -> None:
    """Code that reads a family's counts by owner (State.owned) holds their list as a local (hoist._STATE_READ): the
    turns loop, and a phase that reads them before and after a loop that empties the family, which sets them to none
    in place (blocks.no_owned), so that the state's counts stay those of the cards after every step."""
    rules = owned_rules()
    rules = rules[:rules.index("zone box")].replace("game owned", "game full") + FULL.replace("CAP", "2")
    rules = rules.replace("var filled: int = 0", "var filled: int = 0\nvar before: int = 0\nvar after: int = 0")
    rules = rules.replace("  phase clear {\n    for c in cards(row) { move c to box }\n  }\n", CLEARED)
    rules = rules.replace("  move t to row[i]\n  call note", "  give t to me\n  move t to row[i]\n  call note")
    (tmp_path / "game.rules").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path), players=3)
    row = game.program.zone_by_name["row"].family_id
    turns = game.runners[[b.name for b in game.program.blocks].index("phase play")]
    assert all(f"_s_owned_{row}" in code.co_varnames for code in (turns.__code__, _last_phase(game).__code__))
    names = [g[0] for g in game.program.gvars]
    befores = set()
    for seed in range(1, 4):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.randrange(len(state.legal_actions())))
            counted = state.clone()
            counted.recount()
            assert state.owned == counted.owned
            assert state.gvars[names.index("after")] == 0
            befores.add(state.gvars[names.index("before")])
    assert len(befores) > 1


THROUGH = """game probe {
  players 2 to 2
}
var n: int = 0
action add(x in [1, 2]) {
  label "add {x}"
  set n = n + x
}
action ask(x in [1, 2]) {
  label "ask {x}"
  let y = choose me from [x, 3]
  set n = n + y
}
round {
  repeat while round < 3
  phase play {
    turns p from first(players) until n >= 10 {
      choose action for p: ACTIONS
    }
  }
  phase more {
    choose action for first(players): ask
  }
}
score(p) = n
"""


@pytest.mark.parametrize("actions", ["add", "add, ask"])
def test_a_choice_of_actions_that_all_run_through_looks_at_no_frames_after_it(tmp_path: Path, actions: str) -> None:
    """An option of actions whose bodies all run through (ActionInfo.run) starts no frame, so the runner goes on
    after the choice with no test of the frames on top (blocks.choose_action's `through`); an action that stops
    inside starts one, which runs before the turns go on."""
    (tmp_path / "game.rules").write_text(THROUGH.replace("ACTIONS", actions), encoding="utf-8")
    game = load_game(str(tmp_path), players=2)
    for seed in range(1, 4):
        state, rng, sim = game.new_initial_state(seed), random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            action = rng.randrange(len(state.legal_actions()))
            state.apply_action(action)
            sim.advance(action)
            assert state.to_json() == sim.to_json() == game.state_from_json(state.to_json()).to_json()
        assert state.round == 3 and len(state.history) >= 10 and sum(h.startswith("ask") for h in state.history) >= 3
    play = [b.name for b in game.program.blocks].index("phase play")
    for run in (game.runners[play], game.gens[play]):  # (the resumable one made by the API steps)
        assert any(i.opname == "IS_OP" for i in dis.get_instructions(run)) == ("ask" in actions)


LISTED = """zone box of tok public
zone row [3] of tok public capacity 2
zone slot [3] of tok public
zone mine per player of tok owner
var n: int = 0
rule nothing {
  set n = n + 0
}
action take(t in cards(box)) {
  label "take {t}"
  give t to me
  move t to mine(me)
}
action put(t in mine(me), i in positions(row)) {
  label "put {t} {i}"
  require count(row[i]) < 2
  move t to row[i]
}
action swap(v in cards(row), c in mine(me)) {
  label "swap {v} {c}"
  FIRST
  let i = position(v)
  move v to slot[i]
  move c to row[i]
  set n = n + i
}
action pair(a in cards(row), b in cards(row)) {
  label "pair {a} {b}"
  move a to box
  move b to slot[1]
}
action back(s in cards(slot)) {
  label "back {s}"
  move s to box
  call nothing
}
action wait(x in [1]) {
  label "wait {x}"
  set n = n + x
}
round {
  repeat while round < 6
  phase play {
    set n = 0
    turns p from first(players) until n >= 12
        skip when count(c for c in cards(row) if owner(c) == p) == 9 {
      choose action for p: take, put, swap, pair, back, wait
    }
  }
}
score(p) = n
"""


def test_an_options_cards_are_known_to_lie_in_their_domains_until_something_else_may_have_moved_them(
        tmp_path: Path) -> None:
    """An action's body relies on its option's cards lying in their domains (compiler._as_listed): a card moved
    after only other parameters' cards from other families moved comes from its domain's family (no look at the
    family it leaves: the counts by owner need none), and a `let` of a card's position before any move is a place
    of that family, and of a family of the same size (read unchecked); a card of the same family as one moved before
    (maybe that one) is looked up, and so is everything after a statement that may move any card. Both play alike."""
    played, names = [], {}
    for name, first in (("listed", ""), ("after", "call nothing")):
        (tmp_path / name).mkdir()
        head = owned_rules()[:owned_rules().index("zone box")]
        (tmp_path / name / "game.rules").write_text(head + LISTED.replace("FIRST", first), encoding="utf-8")
        game = load_game(str(tmp_path / name), players=3)
        aids = [a.name for a in game.program.actions]
        swap, pair = (game.actions[aids.index(a)][2].__code__ for a in ("swap", "pair"))
        names[name] = ("_g_zone_family" in swap.co_varnames, "_member" in swap.co_names,
                       "_g_zone_family" in pair.co_varnames)
        seen = []
        for seed in range(1, 5):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.randrange(len(state.legal_actions())))
                seen.append({k: v for k, v in json.loads(state.to_json()).items() if k != "program"})
        played.append(seen)
    assert sum(h.startswith("swap") for h in played[0][-1]["history"]) > 2
    assert names == {"listed": (False, False, True), "after": (True, True, True)}
    assert played[0] == played[1]


@pytest.mark.parametrize("cards, src, ok", [([], 1, True), ([7], 1, False), ([7], 2, True), ([7, 8], 2, False)])
def test_a_move_into_a_zone_of_room_for_one_tests_its_list_not_its_length(cards: list[int], src: int, ok: bool) -> None:
    """A destination of capacity 1 is full where its list is not empty (no `len` call); a card that is the one
    there already (its zone `_b_f` is the destination, 2) still moves."""
    from interpreter.compile.blocks import card_move
    from interpreter.runtime.program import ZoneSpec
    spec = ZoneSpec("z", 0, "single", None, "tok", "public", False, 1, None)  # type: ignore[arg-type]
    lines = card_move(False, spec, False, False, None, (None, None), frozenset())
    test = next(ln for ln in lines if ln.startswith("if ") and "_b_f != _b_z" in ln)
    assert test.startswith("if _b_k and (")
    assert eval(test[3:-1], {"_b_k": cards, "_b_f": src, "_b_z": 2, "len": len}) != ok  # noqa: S307 - the test's own code


LOOPS = """game loops {
  players 2 to 2
}
round {
  repeat while round < 1
  phase p {
    for x in ITEMS {
      let k = choose first(players) from [1, 2]
      set total = total * 10 + x * k
      repeat 2 {
        let j = choose first(players) from [0, 1]
        set picks = picks + j
      }
    }
  }
}
var total: int = 0
var picks: int = 0
score(p) = total * 100 + picks
"""


@pytest.mark.parametrize("items, score", [("[]", 0), ("[3]", 602), ("[1, 2, 3]", 24606)])
def test_a_loop_that_stops_takes_its_items_in_turn_and_its_inner_loops_rounds_as_written(
        tmp_path: Path, items: str, score: int) -> None:
    """A `for` loop's head takes only the first item (blocks.for_first: its jump back takes the others); a loop with a
    stop inside it runs its rounds in each of the outer one's (blocks._nested), also in a clone taken at any stop."""
    from interpreter.compile.blocks import for_first
    assert not any("L[1]" in ln for ln in for_first(0, 1, 2, [9]).lines[:-1])  # the index is not read, only set
    (tmp_path / "game.rules").write_text(LOOPS.replace("ITEMS", items), encoding="utf-8")
    game = load_game(str(tmp_path), players=2)
    for cloned in (False, True):  # in the run that stopped (the untested rounds), or entered at the stop
        state = game.new_initial_state(seed=1)
        while not state.is_terminal():
            state = state.clone() if cloned else state
            state.apply_action(1)
        assert state.scores()[0] == score


@pytest.mark.parametrize("depth", [3, 20])
def test_loops_that_stop_nested_deeper_than_python_nests_blocks_run_as_one_loop(tmp_path: Path, depth: int) -> None:
    """Loops inside loops are loops of their own (blocks._nested) only as far as Python compiles the nesting (20
    blocks): deeper, they are merged into one, as before; either way the runner plays as the ops one by one."""
    body = "set total = total + k1"
    for i in range(depth, 0, -1):
        body = f"for x{i} in [1, 2] {{\n  let k{i} = choose first(players) from [1, 2]\n  {body}\n}}"
    (tmp_path / "game.rules").write_text(LOOPS.replace("for x in ITEMS {", "if true {").replace(
        LOOPS[LOOPS.index("      let k"):LOOPS.index("    }\n  }\n}")], body + "\n"), encoding="utf-8")
    assert play(load_game(str(tmp_path), players=2), 1, 60) == play(stepwise(load_game(str(tmp_path), players=2)), 1, 60)


@pytest.mark.parametrize("items, score", [("positions(slot)", 24606), ("players", 204)])
def test_a_loop_over_the_seats_or_a_familys_places_works_its_next_item_out_from_the_index(
        tmp_path: Path, items: str, score: int) -> None:
    """A loop over the seats (0, 1, …) or a family's places (1, 2, …) takes its next item from its index and the count
    the game keeps (blocks._next_item), not from its list: the items are as in the list, in the runner, in a clone
    taken at any stop and op by op."""
    from interpreter.compile.blocks import for_back
    counted = for_back(0, 1, 2, [5], [9], ("st.game.num_players", 1)).lines
    assert not any("L[0]" in ln or "len(" in ln for ln in counted) and "L[2] = L[1] = _b_i + 1" in counted
    assert "L[2] = _b_s[_b_i]" in for_back(0, 1, 2, [5], [9]).lines
    rules = LOOPS.replace("ITEMS", items).replace("x * k", "(if x == first(players) then 0 else 1) * k" if items == "players"
                                                   else "x * k") + 'kind token { title de "S" en "S" }\nzone slot de "P" en "slot" [3] of token public\n'
    (tmp_path / "game.rules").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path), players=2)
    for cloned in (False, True):
        state = game.new_initial_state(seed=1)
        while not state.is_terminal():
            state = state.clone() if cloned else state
            state.apply_action(1)
        assert state.scores()[0] == score
    made = [gen for gen in game.gens if hasattr(gen, "__code__")]  # the runners the game played made
    assert made and not any(a.argval == "len" and b.argval == "_b_s" for gen in made
                            for a, b in zip(list(dis.get_instructions(gen)), list(dis.get_instructions(gen))[1:]))
    assert play(load_game(str(tmp_path), players=2), 1, 60) == play(stepwise(load_game(str(tmp_path), players=2)), 1, 60)
