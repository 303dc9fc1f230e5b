"""Named steps and requirements: a variant replaces, removes or adds one step of an action (or rule or
phase) without copying the rest; the options, the conflicts between variants and the rulebook's
changes follow (fixture: tests/fixtures/steps)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl import ast as A
from dsl.errors import RulesError
from dsl.loader import REPO_ROOT, apply_variants, read_ruleset
from interpreter import load_game
from interpreter.play.scenario import run_all
from rulebook.assemble import build_rulebook
from rulebook.model import Line

FIXTURE = Path(__file__).parent / "fixtures" / "steps"


def _copy(tmp_path: Path, variants: str = "", game: tuple[str, str] = ("", "")) -> Path:
    """The fixture in a fresh folder, with extra variants and a changed text in game.rules."""
    folder = tmp_path / "steps"
    shutil.copytree(FIXTURE, folder)
    if variants:
        (folder / "variants" / "more.rules").write_text(variants, encoding="utf-8")
    if game[0]:
        rules = folder / "game.rules"
        text = rules.read_text(encoding="utf-8")
        assert game[0] in text
        rules.write_text(text.replace(game[0], game[1]), encoding="utf-8")
    return folder


def _error(folder: Path, variants: tuple[str, ...]) -> str:
    with pytest.raises(RulesError) as info:
        load_game(str(folder), variants)
    return info.value.render()


def _take(items: list[A.Node]) -> A.ActionDef:
    return next(i for i in items if isinstance(i, A.ActionDef) and i.name == "take")


def texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def test_the_variant_replaces_one_requirement_and_removes_one_step() -> None:
    """The rest of the action stays as the base game wrote it."""
    src = read_ruleset(FIXTURE)
    base, changed = _take(apply_variants(src, ())), _take(apply_variants(src, ("free_taking",)))
    assert [type(s).__name__ for s in base.body] == ["Require", "NamedStep", "Move"]
    assert [type(s).__name__ for s in changed.body] == ["Require", "Move"]
    assert changed.body[0].name == "small" and changed.body[0].pos.file.endswith("free_taking.rules")
    assert changed.body[1] is base.body[2]


def test_the_options_change_with_the_replaced_requirement_and_the_removed_step() -> None:
    """A step's leading requirements guard the options like the action's own: without the step, a
    player with 1 gold may take the 2- and 3-power tokens."""
    base = load_game(str(FIXTURE), players=2).new_initial_state(seed=1)
    assert base.legal_labels() == ["take token_1"]
    free = load_game(str(FIXTURE), ("free_taking",), players=2).new_initial_state(seed=1)
    assert free.legal_labels() == ["take token_1", "take token_2", "take token_3"]
    results = run_all(str(FIXTURE))
    assert [r.name for r in results] == ["base_options", "free_taking_options"]
    assert all(r.passed for r in results), [r.message for r in results]


def test_an_added_step_runs_where_it_is_placed(tmp_path: Path) -> None:
    folder = _copy(tmp_path, '''
variant refund {
  title de "Rückzahlung" en "Refund"
  add step give_back after take.costs { pay 1 gold from bank to me }
}
''')
    state = load_game(str(folder), ("refund",), players=2).new_initial_state(seed=1)
    assert state.legal_labels() == ["take token_1"]
    state.apply_label("take token_1")
    assert state.returns() is not None and state.scores()[0] == 1 + 1  # paid 1, got 1 back, holds power 1


def test_steps_of_rules_and_phases_can_be_replaced(tmp_path: Path) -> None:
    folder = _copy(tmp_path, '''
variant last_first {
  title de "Letzter zuerst" en "Last first"
  replace step play.turn { choose action for last(players): take }
}
''', ('    choose action for first(players): take\n', '    step turn { choose action for first(players): take }\n'))
    assert load_game(str(folder), players=2).new_initial_state(seed=1).current_player() == 0
    assert load_game(str(folder), ("last_first",), players=2).new_initial_state(seed=1).current_player() == 1


def test_variants_changing_different_steps_compose(tmp_path: Path) -> None:
    folder = _copy(tmp_path, '''
variant discount {
  title de "Rabatt" en "Discount"
  replace step take.costs { require me.gold + 1 >= t.power  pay t.power - 1 gold from me to bank }
}
variant big_only {
  title de "Nur große" en "Big only"
  replace require take.small t.power >= 2
}
''')
    state = load_game(str(folder), ("discount", "big_only"), players=2).new_initial_state(seed=1)
    assert state.legal_labels() == ["take token_2"]  # big enough, and 1 gold pays for it with the discount


def test_a_requirement_inside_a_step_is_addressed_by_its_own_name(tmp_path: Path) -> None:
    folder = _copy(tmp_path, '''
variant rich {
  title de "Reich" en "Rich"
  replace require take.enough_gold me.gold + 1 >= t.power
}
''')
    state = load_game(str(folder), ("rich",), players=2).new_initial_state(seed=1)
    assert state.legal_labels() == ["take token_1", "take token_2"]


@pytest.mark.parametrize("ops", [
    ("replace step take.costs { pay 1 gold from me to bank }", "remove step take.costs"),
    ("remove require take.small", "replace require take.small true"),
    ("remove step take.costs", 'replace action take(t in box) de "N" en "N" { label "take {t}" move t to pile(me) }'),
    ('remove action take', "remove require take.small"),
])
def test_two_variants_touching_the_same_step_conflict(tmp_path: Path, ops: tuple[str, str]) -> None:
    """The same step, or a step and the whole action that holds it: the loader names both variants."""
    folder = _copy(tmp_path, f'''
variant one {{
  title de "Eins" en "One"
  {ops[0]}
}}
variant two {{
  title de "Zwei" en "Two"
  {ops[1]}
}}
''')
    message = _error(folder, ("one", "two"))
    assert "variants 'one' and 'two' both change" in message
    assert "more.rules:8:3:" in message and "they cannot be combined" in message


@pytest.mark.parametrize("op,where,hint", [
    ("remove step tkae.costs", "there is no action, rule or phase 'tkae'", "did you mean 'take'?"),
    ("remove step take.cost", "action 'take' has no step 'cost'", "did you mean 'costs'?"),
    ("replace require take.smal true", "action 'take' has no requirement 'smal'", "did you mean 'small'?"),
    ("remove step take.small", "action 'take' has no step 'small'",
     "'small' is a requirement: write `remove require take.small`"),
    ("add step small before take.costs { }", "action 'take' has a step or requirement 'small' already",
     "use `replace step`"),
    ("add step extra after take.cots { }", "action 'take' has no step or requirement 'cots'",
     "did you mean 'costs'?"),
])
def test_unknown_names_are_load_errors_with_a_hint(tmp_path: Path, op: str, where: str, hint: str) -> None:
    folder = _copy(tmp_path, f'''
variant bad {{
  title de "Falsch" en "Wrong"
  {op}
}}
''')
    message = _error(folder, ("bad",))
    assert f"more.rules:4:3: error: {where}" in message
    assert f"hint: {hint}" in message


def test_a_step_name_given_twice_in_one_action_is_a_load_error(tmp_path: Path) -> None:
    folder = _copy(tmp_path, game=("  move t to pile(me)\n", "  step costs { move t to pile(me) }\n"))
    message = _error(folder, ())
    assert "game.rules:32:3: error: action 'take' names two steps or requirements 'costs' (first at line 28)" \
        in message


def test_the_changes_show_the_steps_text_before_and_after() -> None:
    src = read_ruleset(FIXTURE)
    en = build_rulebook(src, ("free_taking",), "en").sections[0].changes
    assert [(c.kind, c.what) for c in en] == [("replaced", "Action “Take”: one requirement"),
                                             ("removed", "Action “Take”: one step")]
    assert texts(en[0].old) == ["The power of the token must be at most 2."]
    assert texts(en[0].new) == ["The power of the token must be at most 3."]
    assert [en[0].old[0].note, en[0].new[0].note] == ["Small tokens only.", "Any token."]
    assert texts(en[1].old) == ["You must be able to pay the power of the token.",
                                "You pay the power of the token in gold to the bank."] and en[1].new == []
    de = build_rulebook(src, ("free_taking",), "de").sections[0].changes
    assert [c.what for c in de] == ["Aktion „Nehmen“: eine Bedingung", "Aktion „Nehmen“: ein Schritt"]


def test_a_named_step_renders_like_its_statements() -> None:
    """Names are for modders: the base rulebook reads as if the step were written out in place."""
    book = build_rulebook(read_ruleset(FIXTURE), (), "en")
    take = next(e for e in book.every_entry() if e.anchor == "action-take")
    assert texts(take.lines)[1:] == ["The power of the token must be at most 2.",
                                     "You must be able to pay the power of the token.",
                                     "You pay the power of the token in gold to the bank.",
                                     "Move the token onto your pile."]


def test_the_shipped_game_names_the_steps_a_house_rule_would_change(tmp_path: Path) -> None:
    """Mächtige Monster names the requirements and the fees of `displace`; a house rule drops one."""
    folder = tmp_path / "maechtige_monster"
    shutil.copytree(REPO_ROOT / "rulesets" / "maechtige_monster", folder)
    (folder / "variants" / "fives.rules").write_text('''
variant fives {
  title de "Fünfer verdrängen (Hausregel)" en "Displacing fives (house rule)"
  remove require displace.not_strongest
}
''', encoding="utf-8")
    load_game(str(folder), ("fives", "billiges_verdraengen"), players=3)
    [change] = build_rulebook(read_ruleset(folder), ("fives",), "en").sections[0].changes
    assert (change.kind, change.what) == ("removed", "Action “Displace a monster”: one requirement")
    assert texts(change.old) == ["A strength-5 monster cannot be displaced."]
