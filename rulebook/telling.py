"""How a worked example tells a move: in prose where the action or `choose` says how (`told … infinitive
…`), a refused one with the text of the requirement the engine names; else by the option's words."""
from __future__ import annotations

import re
from typing import Any, Callable, Optional

from dsl import ast as A
from interpreter.compile.types import T
from interpreter.play.display import Display
from interpreter.runtime.program import ActionInfo
from interpreter.runtime.state import State
from rulebook.order import nodes_of
from rulebook.phrases import Noun, Phrase, catalogue, fill

SIBILANTS = "sßxz"  # a name ending in one takes a bare apostrophe as its possessive in some languages
Value = tuple[str, Any, T]  # a `{name}` of a told text, its value and type


class Teller:
    """Tells the moves of one example; gives each requirement's text once (the reader has it then)."""

    def __init__(self, show: Display, say: Callable[..., str], items: list[Any]) -> None:
        self.show = show
        self.say = say
        self.reasons: set[str] = set()
        # each `choose` by the options it offers, as the engine's open node names them
        self.choices = {id(n.options): n for n in nodes_of(items, A.LetChoose)}

    def offered(self, st: State, kind: str, label: str) -> str:
        """A move taken (kind "choose") or open ("legal")."""
        assert st.pending is not None  # a step's label is offered, so a decision is open
        _, _, _, values, slot = st.pending
        value = values[st.legal_labels().index(label)]
        told = self.told_choice(st, value) if slot >= 0 else self.told_action(st, value[0], value[1:])
        if told is not None:
            return self.say(f"example_told_{kind}", player=self.mover(st), done=told[0], infinitive=told[1])
        return self.listed(st, kind, *self.show.chosen(st, label))

    def refused(self, st: State, label: str) -> Optional[str]:
        """A move not allowed, with the text of the requirement that refuses it; None where the rules give
        no reason (a bare "Ani could not …" reads as a log line: the example's text says why)."""
        assert st.pending is not None
        if st.pending[4] >= 0:  # an open `choose`: the label is a value it does not offer, for no stated reason
            return None
        found = self.label_words(st, label)
        if found is None:
            return None
        action, words = found
        chosen = tuple(unlabelled(st, w, t) for w, (_, _, t) in zip(words, action.params))
        told = self.told_action(st, action.aid, chosen) if -1 not in chosen else None
        first = action.first_refusal(st, st.current_player(), chosen) if told is not None else -1
        return self.refusal(st, told[1], action.requires[first].text) if told is not None and first >= 0 else None

    def refusal(self, st: State, infinitive: str, reason: Optional[A.Text]) -> Optional[str]:
        """A refused move, "Ani could not …: REASON" (the reason once per example); German puts "nicht" before the
        infinitive's last word, or before its goal („darf den Stein nicht auf das Feld 5 ziehen“); None for a
        requirement with no text in this language."""
        why = reason.by_lang.get(self.show.lang) if reason is not None else None
        if why is None:
            return None
        if why in self.reasons:  # a reason is given once per example, not after each refused move again
            why = None
        elif why is not None:
            self.reasons.add(why)
        rest, _, verb = infinitive.rpartition(" ")
        grammar = catalogue(self.show.lang).data.get("grammar", {})
        goal = grammar.get("not_before", []) if isinstance(grammar, dict) else []
        words = rest.split(" ")
        at = next((i for i, w in enumerate(words) if i and w in goal), None)  # „nicht auf das Feld 101 ziehen“
        if at is not None:
            rest, verb = " ".join(words[:at]), " ".join(words[at:] + [verb])
        return " ".join(self.say("example_told_illegal_why" if why else "example_told_illegal", player=self.mover(st),
                                 infinitive=infinitive, rest=rest, verb=verb, reason=why or "").split())

    def told_action(self, st: State, aid: int, chosen: tuple[Any, ...]) -> Optional[tuple[str, str]]:
        action = st.game.program.actions[aid]
        return self.told(st, action.ast.told, [(name, v, t) for (name, _, t), v in zip(action.params, chosen)])

    def told_choice(self, st: State, value: Any) -> Optional[tuple[str, str]]:
        _, t, options = st.open_node_type()
        node = self.choices.get(id(options))
        return self.told(st, node.told, [(node.name, value, t)]) if node is not None else None

    def told(self, st: State, told: Optional[A.Told], values: list[Value]) -> Optional[tuple[str, str]]:
        """The `told` texts with the values filled in, or None where there are none in this language; `{x:acc}`
        asks for a case of a card whose title starts with its article („bewegt den Boten“)."""
        lang = self.show.lang
        if told is None or lang not in told.done.by_lang or lang not in told.infinitive.by_lang:
            return None
        fields = {name: self.told_value(st, v, t) for name, v, t in values}
        return fill(told.done.by_lang[lang], "nom", fields), fill(told.infinitive.by_lang[lang], "nom", fields)

    def told_value(self, st: State, v: Any, t: T) -> Phrase:
        """A value as a move tells it; a card of another player as theirs ("Ada's card", „den Boten von Ada“)."""
        card = self.card_phrase(st, v) if t.name == "card" and isinstance(v, int) else None
        owner = st.owner[v] if t.name == "card" else -1
        if owner < 0 or owner == st.current_player():
            return card or Phrase(self.show.value(v, t))
        seat = self.show.seats[owner]
        if card is not None:
            return Phrase(lambda f: self.say("example_card_of_noun", player=seat, card=card.form(f)), card.agree,
                          card.genitive)
        key = "example_card_of_sibilant" if seat[-1:].lower() in SIBILANTS else "example_card_of"
        return Phrase(self.say(key, player=seat, card=self.show.value(v, t)))

    def card_phrase(self, st: State, c: int) -> Optional[Phrase]:
        """A card whose title starts with its article, declined with it (« retourne le Caillou de lune »); a title
        without one after its kind's noun where the catalogue says so (`grammar.bare_title_after_kind`: « retourne
        le pion Première pierre »); None for another title without one."""
        info = st.game.program.cards[c]
        lang, cat = self.show.lang, catalogue(self.show.lang)
        title = info.ast.title if isinstance(info.ast, A.CardEntry) else None
        if title is None or lang not in title.by_lang:
            return None
        noun = Noun(title.by_lang[lang], cat)
        if noun.gender != "default":
            return noun.np("def")
        kind = st.game.program.kinds[info.kind].ast.title
        if not cat.has("grammar.bare_title_after_kind") or kind is None or lang not in kind.by_lang:
            return None
        head = Noun(kind.by_lang[lang], cat)
        return Noun(f"{head.gender} {head.word} {noun.word}", cat).np("def")

    def mover(self, st: State) -> str:
        return self.show.seats[st.current_player()]

    def listed(self, st: State, kind: str, action: str, values: str) -> str:
        """A move without told texts, by its option: the action's text and its values' names."""
        option = self.say("example_option", action=action, values=values) if action and values else action or values
        return self.say(f"example_{kind}", player=self.mover(st), option=option)

    @staticmethod
    def label_words(st: State, label: str) -> Optional[tuple[ActionInfo, list[str]]]:
        """An option that is not offered, read back through its action's label template ("displace {victim}
        with {card}"): the action and its parameters' words."""
        for action in st.game.program.actions:
            pattern = re.escape(action.label).replace(r"\{", "{").replace(r"\}", "}")
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>\\S+)", pattern)
            found = re.fullmatch(pattern, label)
            if found:
                return action, [found.group(name) for name, _, _ in action.params]
        return None


def unlabelled(st: State, word: str, t: T) -> Any:
    """A value from its word in a label (the reverse of the label's formatter); -1 for no card."""
    if t.name == "card":
        return st.game.card_index.get(word, -1)
    if t.name == "player":
        return int(word[1:]) - 1
    if t.name == "bool":
        return word == "yes"
    return int(word) if t.name == "int" and word.lstrip("-").isdigit() else word
