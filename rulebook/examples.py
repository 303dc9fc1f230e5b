"""Worked examples: a scenario with an `example` step is played by the engine and shown as a box in the
section of the action, rule or phase it names, with the moves after the step and the values and zones
they changed, before and after. Played, not written down, so an example cannot go stale."""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Optional

from dsl import ast as A
from dsl.errors import error_at
from dsl.loader import RulesetSource
from interpreter.compile.loading import load_game
from interpreter.compile.types import T
from interpreter.play.display import Display
from interpreter.play.scenario import example_part, example_shows, run_scenario
from interpreter.runtime.program import ActionInfo
from interpreter.runtime.state import State
from rulebook.model import Entry, Example, Table

Row = tuple[str, str]  # what, value
SIBILANTS = "sßxz"  # a name ending in one takes a bare apostrophe as its possessive in some languages


class Recorder:
    """Watches a scenario being played: the position at its `example` step and at the end, and each
    seat's step in between as a sentence."""

    def __init__(self, show: Display, marker: A.Step, say: Callable[..., str],
                 shows: list[tuple[A.Expr, Any, T, int]], players: list[str], internal: set[str]) -> None:
        self.show = show
        self.internal = internal  # the `internal` vars: bookkeeping an example's table leaves out
        self.players = players  # the seats by their names in the scenario
        self.marker = marker
        self.say = say
        self.shows = shows
        self.before: Optional[dict[str, Row]] = None
        self.after: dict[str, Row] = {}
        self.moves: list[str] = []
        self.reasons: set[str] = set()  # the requirements' texts said so far

    def __call__(self, step: Optional[A.Step], st: State) -> None:
        if step is None:
            self.after = self.position(st)
        elif step is self.marker:
            self.before = self.position(st)
        elif self.before is not None and step.seat is not None and step.label in st.legal_labels():
            self.moves.append(self.offered(st, step.kind, str(step.label)))
        elif self.before is not None and step.kind in ("legal", "illegal"):  # an illegal label is not offered
            self.moves.append(self.refused(st, str(step.label)))

    def offered(self, st: State, kind: str, label: str) -> str:
        """A move taken or open: told in prose where its action says how, else by its option's words."""
        assert st.pending is not None  # a step's label is offered, so a decision is open
        _, _, _, values, slot = st.pending
        if slot < 0:
            aid, chosen = values[st.legal_labels().index(label)]
            action = st.game.program.actions[aid]
            told = self.told(st, action, chosen)
            if told is not None:
                done, infinitive = told
                return self.say(f"example_told_{kind}", player=self.mover(st), done=done, infinitive=infinitive)
        return self.listed(st, kind, *self.show.chosen(st, label))

    def refused(self, st: State, label: str) -> str:
        """A move not allowed, with the text of the requirement that refuses it where it has one."""
        found = self.label_words(st, label)
        if found is None:
            return self.listed(st, "illegal", "", self.said(st, label, None))
        action, words = found
        chosen = tuple(self.unlabelled(st, w, t) for w, (_, _, t) in zip(words, action.params))
        told = self.told(st, action, chosen) if -1 not in chosen else None
        if told is None:
            return self.listed(st, "illegal", self.show.texts.get(f"ActionDef {action.name}", action.name),
                               ", ".join(self.said(st, w, t) for w, (_, _, t) in zip(words, action.params)))
        first = action.first_refusal(st, st.current_player(), chosen)
        reason = action.requires[first].text if first >= 0 else None
        why = reason.by_lang.get(self.show.lang) if reason is not None else None
        if why in self.reasons:  # a reason is given once per example, not after each refused move again
            why = None
        elif why is not None:
            self.reasons.add(why)
        rest, _, verb = told[1].rpartition(" ")
        return " ".join(self.say("example_told_illegal_why" if why else "example_told_illegal", player=self.mover(st),
                                 infinitive=told[1], rest=rest, verb=verb, reason=why or "").split())

    def told(self, st: State, action: ActionInfo, chosen: tuple[Any, ...]) -> Optional[tuple[str, str]]:
        """The action's `told` texts with the option's values, or None where it has none in this language."""
        told, lang = action.ast.told, self.show.lang
        if told is None or lang not in told.done.by_lang or lang not in told.infinitive.by_lang:
            return None
        fields = {name: self.told_value(st, v, t) for (name, _, t), v in zip(action.params, chosen)}
        return told.done.by_lang[lang].format_map(fields), told.infinitive.by_lang[lang].format_map(fields)

    def told_value(self, st: State, v: Any, t: T) -> str:
        """A value as a move tells it; a card of another player as theirs ("Frank's Sea creatures 2")."""
        owner = st.owner[v] if t.name == "card" else -1
        if owner < 0 or owner == st.current_player():
            return self.show.value(v, t)
        seat = self.show.seats[owner]
        key = "example_card_of_sibilant" if seat[-1:].lower() in SIBILANTS else "example_card_of"
        return self.say(key, player=seat, card=self.show.value(v, t))

    def mover(self, st: State) -> str:
        return self.show.seats[st.current_player()]

    def listed(self, st: State, kind: str, action: str, values: str) -> str:
        """A move as today's log line names it: the action's text and its values' names."""
        option = self.say("example_option", action=action, values=values) if action and values else action or values
        return self.say(f"example_{kind}", player=self.mover(st), option=option)

    def label_words(self, st: State, label: str) -> Optional[tuple[ActionInfo, list[str]]]:
        """An option that is not offered, read back through its action's label template ("displace {victim}
        with {card}"): the action and its parameters' words."""
        for action in st.game.program.actions:
            pattern = re.escape(action.label).replace(r"\{", "{").replace(r"\}", "}")
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>\\S+)", pattern)
            found = re.fullmatch(pattern, label)
            if found:
                return action, [found.group(name) for name, _, _ in action.params]
        return None

    @staticmethod
    def unlabelled(st: State, word: str, t: T) -> Any:
        """A value from its word in a label (the reverse of the label's formatter); -1 for no card."""
        if t.name == "card":
            return st.game.card_index.get(word, -1)
        if t.name == "player":
            return int(word[1:]) - 1
        if t.name == "bool":
            return word == "yes"
        return int(word) if t.name == "int" and word.lstrip("-").isdigit() else word

    def said(self, st: State, word: str, t: Optional[T]) -> str:
        """A value read back from a label: a card by its name, an enum value by its text."""
        if word in st.game.card_index:
            return self.show.cards[st.game.card_index[word]]
        return self.show.value(word, t) if t is not None and t.name == "enum" else word

    def position(self, st: State) -> dict[str, Row]:
        """What the example shows, by a stable key: what its `show` names, else every value and zone."""
        return self.named(st) if self.shows else self.everything(st)

    def named(self, st: State) -> dict[str, Row]:
        rows: dict[str, Row] = {}
        for i, (expr, fn, t, size) in enumerate(self.shows):
            value = fn(st, list(range(len(self.show.seats))) + [None] * size)
            if t.name == "zone":
                rows[f"s{i}"] = (self.zone_name(st, value), self.zone_text(st, value, named=True))
            else:
                assert isinstance(expr, A.Attr) and isinstance(expr.obj, A.Name)
                seat = self.show.seats[self.players.index(expr.obj.name)]
                rows[f"s{i}"] = (self.say("example_of", what=self.show.var(expr.name), player=seat),
                                 self.show.value(value, t))
        return rows

    def everything(self, st: State) -> dict[str, Row]:
        show, game = self.show, st.game
        prog = game.program
        banks = {g for _, g in prog.currencies.values()}  # the bank's running total is no player's concern
        rows: dict[str, Row] = {}
        for g, (name, t, _) in enumerate(prog.gvars):
            if g not in banks and name not in self.internal:
                rows[f"g{g}"] = (show.var(name), show.value(st.gvars[g], t))
        for p in game.players:
            for v, (name, t, _) in enumerate(prog.pvars):
                if name not in self.internal:
                    rows[f"p{p}.{v}"] = (self.say("example_of", what=show.var(name), player=show.seats[p]),
                                         show.value(st.pvars[p][v], t))
        for z in range(len(st.zones)):
            rows[f"z{z}"] = (self.zone_name(st, z), self.zone_text(st, z))
        return rows

    def zone_name(self, st: State, z: int) -> str:
        """A zone by its text and number, or as its player's ("Hand von Ani", "Ani's hand")."""
        player = st.game.zone_player[z]
        if player < 0:
            return self.show.zone(z)
        name = st.game.program.zones[st.game.zone_family[z]].name
        return self.say("example_of", what=self.show.texts.get(f"ZoneDef {name}", name), player=self.show.seats[player])

    def zone_text(self, st: State, z: int, named: bool = False) -> str:
        """Its cards, face down or not (the reader of an example sees them all); a deck or a hidden pile
        the example does not name by how many cards it holds."""
        game, cards = st.game, st.zones[z]
        pile = game.zone_number[z] == 0 and game.zone_player[z] < 0 and not game.zone_mask[z]
        if not named and (game.zone_shuffled[z] or pile):
            return self.say("example_count", count=str(len(cards)))
        return ", ".join(self.show.cards[c] for c in cards) or "—"


def changed(before: str, after: str) -> bool:
    """Whether a shown value differs; a zone whose cards only changed order has not changed."""
    return sorted(before.split(", ")) != sorted(after.split(", "))


def seat_names(scen: A.ScenarioDef) -> list[str]:
    return [name[:1].upper() + name[1:] for name in scen.players]


def play_example(src: RulesetSource, scen: A.ScenarioDef, lang: str, say: Callable[..., str],
                 title: Callable[[A.Text, A.Pos], str]) -> tuple[str, Example]:
    """The example of a scenario, played: the part it belongs to ("action:NAME", …) and its box. A
    scenario that no longer plays is an error at its `example` step, with the step that failed."""
    marker = next(s for s in scen.steps if s.kind == "example")
    assert marker.text is not None
    game = load_game(str(src.folder), src.refs(scen.variants), players=len(scen.players))
    part = example_part(game.program.items, marker, scen)
    show = Display(game, lang, seat_names(scen))
    internal = {i.name for i in game.program.items if isinstance(i, A.VarDef) and i.internal}
    recorder = Recorder(show, marker, say, example_shows(marker, scen, game.program.compile_expr), scen.players,
                        internal)
    result = run_scenario(str(src.folder), scen, src.refs(scen.variants), watch=recorder)
    if not result.passed or recorder.before is None:
        raise error_at(marker.pos, f"the example of scenario '{scen.name}' does not play any more: {result.message}",
                       "fix the scenario or the rules, so the rulebook shows what the engine does")
    before = recorder.before
    rows = [[what, before[key][1], value] for key, (what, value) in recorder.after.items()
            if marker.shows or changed(before[key][1], value)]
    table = Table([say("what"), say("example_before"), say("example_after")], rows) if rows else None
    return f"{part}:{marker.label}", Example(title=title(scen.title, scen.pos), text=title(marker.text, marker.pos),
                                            moves=recorder.moves, table=table)


def examples_of(src: RulesetSource, variants: list[str]) -> list[A.ScenarioDef]:
    """The scenarios with an example that belong to this book: those with exactly its variants."""
    return [s for s in src.scenarios if any(step.kind == "example" for step in s.steps) and s.variants == variants]


def attach(entries: Iterator[Entry], found: dict[str, list[Example]]) -> None:
    """Puts each example into the phase, action or rule entry of the part it names (an entry's anchor
    starts with its part's word)."""
    for entry in entries:
        part = entry.anchor.split("-", 1)[0]
        if part in EXAMPLE_PARTS:
            entry.examples = found.get(f"{part}:{entry.code}", [])


EXAMPLE_PARTS = ("phase", "action", "rule")
