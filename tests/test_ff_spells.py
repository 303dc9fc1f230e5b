"""Fürchterliche Feinde's 42 spells as data: tiers I–V as reconstructed, timings as printed on the back
page of the rules, a reference entry per spell in both rulebooks, and the French variant's one change."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dsl import ast as A
from dsl.loader import read_ruleset
from interpreter import load_game
from rulebook.docs import rulebooks
from rulebook.render import render

GAME = Path(__file__).resolve().parents[1] / "rulesets" / "fuerchterliche_feinde"
PRINTED_TIMING = {"transference": "before_move", "invisibility": "before_move", "power_chips": "after_dice"}
PRINTED_VALUES = {"movement": {2, 3, 4, 5, 6, 7, 8, 9}, "power_chips": {1, 2, 3, 4}, "wisdom_up": {1, 2, 3},
                  "transform": {1, 2, 3}, "rotate": {1, 2}, "move_monster": {2}, "move_monsters": {3}}


def _spells() -> list[dict[str, Any]]:
    program = load_game(str(GAME), [], players=4).program
    fields = program.kinds["spell"].fields
    return [dict(zip(fields, c.values), id=c.id) for c in program.cards if c.kind == "spell"]


def test_there_are_42_spells_tier_one_the_largest() -> None:
    spells = _spells()
    assert len(spells) == 42
    assert Counter(s["tier"] for s in spells) == {1: 10, 2: 9, 3: 8, 4: 8, 5: 7}


def test_every_printed_kind_and_value_exists_with_its_printed_timing() -> None:
    spells = _spells()
    kinds = {s["type"] for s in spells}
    assert kinds == {"movement", "power_chips", "wisdom_up", "transference", "invisibility", "transform",
                     "move_monster", "move_monsters", "exchange", "rotate"}
    for kind, values in PRINTED_VALUES.items():
        assert {s["amount"] for s in spells if s["type"] == kind} == values, kind
    for s in spells:
        assert s["timing"] == PRINTED_TIMING.get(s["type"], "on_turn"), s["id"]


def test_one_card_value_lies_in_one_tier() -> None:
    """Copies of a card share a tier, so the rulebook has one reference entry per printed card."""
    tiers: dict[tuple[str, int], set[int]] = {}
    for s in _spells():
        tiers.setdefault((s["type"], s["amount"]), set()).add(s["tier"])
    assert all(len(t) == 1 for t in tiers.values()), tiers


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_spell_is_a_reference_entry_with_its_title_and_effect(lang: str) -> None:
    src = read_ruleset(GAME)
    (table,) = [i for i in src.items if isinstance(i, A.CardsDef) and i.name == "spell"]
    assert sum(c.copies for c in table.cards) == 42
    text = render(rulebooks(src)[lang], "md")
    for card in table.cards:
        assert card.title is not None and card.effects, card.name
        head = f'<a id="card-{card.name.replace("_", "-")}"></a>{card.title.by_lang[lang]}\n'
        assert head in text, card.name
        entry = text.split(head, 1)[1].split("### ", 1)[0]
        assert ("Wirkung" if lang == "de" else "Effect") in entry, card.name


def test_the_french_variant_only_stops_transform_spells_stacking() -> None:
    src = read_ruleset(GAME)
    assert "franzoesische_regel" in src.variants
    text = render(rulebooks(src, ["franzoesische_regel"])["en"], "md")
    changes = text.split('<a id="changes"></a>', 1)[1].split("\n## ", 1)[0]
    assert changes.count("### ") == 1
    assert "several transform spells on one monster do not add up." in changes.lower()


def _spell_zones(game: Any) -> list[int]:
    by_name = game.program.zone_by_name
    return [z for name in ("spell_box", "spell_tier", "spells", "spent")
            for z in game.fam_zones[by_name[name].family_id]]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_keeps_spells_whole_hidden_and_drawn_tier_by_tier(seed: int) -> None:
    """Play biased towards casting: 42 spells always, nobody sees another's hand, tiers come in order,
    a cast is offered only inside a spell window, and every option has an action id."""
    game = load_game(str(GAME), [], players=4)
    zones = _spell_zones(game)
    hands = [game.fam_zones[game.program.zone_by_name["spells"].family_id][p] for p in range(4)]
    spent = game.fam_zones[game.program.zone_by_name["spent"].family_id][0]
    tier = {c: game.card_vals[c][0] for c in range(len(game.card_ids)) if game.program.cards[c].kind == "spell"}
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    drawn: list[int] = []
    casts = 0
    for _ in range(1500):
        if st.is_terminal():
            break
        assert sum(len(st.zones[z]) for z in zones) == 42
        for c in [c for z in hands + [spent] for c in st.zones[z] if c not in drawn]:
            drawn.append(c)
        assert [tier[c] for c in drawn] == sorted(tier[c] for c in drawn)
        for seat, z in enumerate(hands):
            secret = {game.card_ids[c] for c in st.zones[z]}
            for other in range(4):
                if other != seat and secret:
                    assert not secret & set(str(st.observation(other)["zones"]).split("'")), (seat, other)
        if st.is_chance_node():
            st.apply_action(st.sample_chance())
            continue
        labels = st.legal_labels()
        assert len(st.legal_action_ids()) == len(labels)  # every spell choice has an id in the catalogue
        cast = [lab for lab in labels if lab.startswith("cast ") and lab != "cast no more"]
        if cast:
            assert st.observation(0)["vars"]["window_now"] != "no_spells"
        label = rng.choice(cast) if cast and rng.random() < 0.5 else rng.choice(labels)
        casts += label in cast
        st.apply_label(label)
    assert casts > 0 and len(drawn) > 0
