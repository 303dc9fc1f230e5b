"""Worked examples: a scenario with an `example` step is played by the engine and shown as a box in the
section of the action, rule or phase it names, with the moves after the step and the values and zones
they changed, before and after. Played, not written down, so an example cannot go stale."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Iterator, Optional

from dsl import ast as A
from dsl.errors import error_at
from dsl.loader import RulesetSource
from interpreter.compile.loading import load_game
from interpreter.compile.types import T
from interpreter.play.display import Display
from interpreter.play.scenario import ScenarioResult, example_part, example_shows, run_scenario
from interpreter.runtime.game import Game
from interpreter.runtime.state import State
from rulebook.model import Entry, Example, Table
from rulebook.telling import Teller

Row = tuple[str, str]  # what, value


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
        self.steps: list[tuple[Optional[str], str, str, str]] = []  # seat, step kind, sentence, label
        self.teller = Teller(show, say, show.game.program.items)

    def __call__(self, step: Optional[A.Step], st: State) -> None:
        if step is None:
            self.after = self.position(st)
        elif step is self.marker:
            self.before = self.position(st)
        elif self.before is not None and step.seat is not None and step.label in st.legal_labels():
            self.steps.append((step.seat, step.kind, sentence_case(self.teller.offered(st, step.kind, str(step.label))),
                               str(step.label)))
        elif self.before is not None and step.kind in ("legal", "illegal"):  # an illegal label is not offered
            refused = self.teller.refused(st, str(step.label))
            if refused is not None:
                self.steps.append((step.seat, step.kind, sentence_case(refused), str(step.label)))

    @property
    def moves(self) -> list[str]:
        """The steps told: the moves made or refused, and what a seat that makes or is refused one could do;
        what another seat could do is the scenario's check, not the story the example tells, and what the
        seat then does at once needs no "could" before it."""
        actors = {seat for seat, kind, _, _ in self.steps if kind != "legal"}
        done = {i for i, (seat, kind, _, label) in enumerate(self.steps) if kind == "legal" and i + 1 < len(self.steps)
                and self.steps[i + 1][0] == seat and self.steps[i + 1][3] == label
                and self.steps[i + 1][1] not in ("legal", "illegal")}
        return [said for i, (seat, kind, said, _) in enumerate(self.steps)
                if (kind != "legal" or seat in actors) and i not in done]

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


def sentence_case(move: str) -> str:
    """A move as a sentence: a seat named with its article ("le joueur 1 déplace …") starts it capitalised."""
    return move[:1].upper() + move[1:]


def changed(before: str, after: str) -> bool:
    """Whether a shown value differs; a zone whose cards only changed order has not changed."""
    return sorted(before.split(", ")) != sorted(after.split(", "))


def seat_names(scen: A.ScenarioDef, say: Callable[..., str], title: Callable[[A.Text, A.Pos], str]) -> list[str]:
    """The scenario's players by their names: a seat's own text ("Gelb", "Yellow"), else its name; a player
    called by a single letter is "Player 2" (its seat)."""
    texts = scen.seat_texts or [None] * len(scen.players)
    return [title(text, scen.pos) if text is not None else name[:1].upper() + name[1:] if len(name) > 1
            else say("seat_number", n=str(i + 1)) for i, (name, text) in enumerate(zip(scen.players, texts))]


class Played:
    """A scenario with an example, played once for the books in every language: its game, the part the example
    belongs to, its compiled `show` expressions and the run, each made when first asked for (so a broken
    scenario fails at the same check as before, in the first book that shows it)."""

    def __init__(self, src: RulesetSource, scen: A.ScenarioDef) -> None:
        self.src = src
        self.scen = scen
        self.marker = next(s for s in scen.steps if s.kind == "example")

    @cached_property
    def game(self) -> Game:
        return load_game(str(self.src.folder), self.src.refs(self.scen.variants), players=len(self.scen.players))

    @cached_property
    def part(self) -> str:
        return example_part(self.game.program.items, self.marker, self.scen)

    @cached_property
    def shows(self) -> list[tuple[A.Expr, Any, T, int]]:
        return example_shows(self.marker, self.scen, self.game.program.compile_expr)

    @cached_property
    def run(self) -> tuple[ScenarioResult, list[tuple[Optional[A.Step], State]]]:
        """The result, and a copy of the state at each step a Recorder watches from the example's step on."""
        seen: list[tuple[Optional[A.Step], State]] = []

        def watch(step: Optional[A.Step], st: State) -> None:
            if seen or step is self.marker:
                seen.append((step, st.clone()))
        result = run_scenario(str(self.src.folder), self.scen, self.src.refs(self.scen.variants), watch=watch)
        return result, seen


def play_example(played: Played, lang: str, say: Callable[..., str],
                 title: Callable[[A.Text, A.Pos], str]) -> tuple[str, Example]:
    """The example of a scenario, told in a language: the part it belongs to ("action:NAME", …) and its box. A
    scenario that no longer plays is an error at its `example` step, with the step that failed."""
    scen, marker, game = played.scen, played.marker, played.game
    assert marker.text is not None
    part = played.part
    show = Display(game, lang, seat_names(scen, say, title))
    internal = {i.name for i in game.program.items if isinstance(i, A.VarDef) and i.internal}
    recorder = Recorder(show, marker, say, played.shows, scen.players, internal)
    result, seen = played.run
    for step, st in seen:  # telling a move only reads the state (its open node keeps the labels it made)
        recorder(step, st)
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
