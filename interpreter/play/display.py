"""Display names for the play screen, in the rules file's own words and in one language: cards by their
title ("Orcs 3", built from the id template with each field's display text), zones by their text and
number ("card place 2", "hand of P1"), a face-down card by what its back shows, values, options and
log lines. The observation itself keeps the stable ids; this only renders them for people."""
from __future__ import annotations

import re
import string
from typing import Any, Optional

from dsl import ast as A
from interpreter.compile.types import T
from interpreter.runtime.game import Game
from interpreter.runtime.observation import player_name, seat_mask, view_line
from interpreter.runtime.ops import L_DECIDE, L_MOVE, L_TEXT

LANGS = ("en", "de", "fr")
_WORDS = {"en": {"of": "of", "cards": "cards", "card": "card", "face_down": "face down", "round": "round",
                 "you": "you", "since": "since the last decision of", "options": "options"},
          "de": {"of": "von", "cards": "Karten", "card": "Karte", "face_down": "verdeckt", "round": "Runde",
                 "you": "du", "since": "seit der letzten Entscheidung von", "options": "Möglichkeiten"},
          "fr": {"of": "de", "cards": "cartes", "card": "carte", "face_down": "face cachée", "round": "manche",
                 "you": "vous", "since": "depuis la dernière décision de", "options": "options"}}
_YES_NO = {"en": ("no", "yes"), "de": ("nein", "ja"), "fr": ("non", "oui")}


def bare(text: Optional[A.Text], lang: str, fallback: str) -> str:
    """A display text without its leading article ("die Hand" → "Hand"), its adjectives as they stand alone, as in
    the rulebook's headings („Dunkler Stein“, not „Dunkle Stein“), or the rules-file name."""
    if text is None or lang not in text.by_lang:
        return fallback
    from rulebook.phrases import Noun, catalogue
    return Noun(text.by_lang[lang], catalogue(lang)).np("label").form("nom")


class Display:
    def __init__(self, game: Game, lang: str = "en", seats: Optional[list[str]] = None) -> None:
        """`seats`: the players' names (a scenario's), else P1, P2, …"""
        if lang not in LANGS:
            raise ValueError(f"no play screen language '{lang}' (known: {', '.join(LANGS)})")
        self.game = game
        self.lang = lang
        self.seats = seats or [player_name(p) for p in game.players]
        self.words = _WORDS[lang]
        prog = game.program
        self.texts: dict[str, str] = {}  # enum value, var, currency, zone, kind, action → display text
        self.logs: dict[str, str] = {}  # a log line's English text → its text in this language
        # Bookkeeping values no player keeps track of stay off the screen, as they stay out of the rulebook.
        self.internal = frozenset(item.name for item in prog.items if isinstance(item, A.VarDef) and item.internal)
        for item in prog.items:
            if isinstance(item, A.EnumDef):
                for v in item.values:
                    self.texts[f"enum {item.name}.{v.name}"] = bare(v.text, lang, v.name)
            elif isinstance(item, (A.VarDef, A.CurrencyDef, A.ZoneDef, A.ActionDef)):
                self.texts[f"{type(item).__name__} {item.name}"] = bare(item.text, lang, item.name)
            elif isinstance(item, A.KindDef):
                self.texts[f"kind {item.name}"] = bare(item.title, lang, item.name)
                for f in item.fields:
                    self.texts[f"field {item.name}.{f.name}"] = bare(f.text, lang, f.name)
        for item in prog.items:  # each item's index of nodes (A.found), not a walk of the whole ruleset
            for phase in A.found(item, A.PhaseDef):
                self.texts[f"phase {phase.name}"] = bare(phase.text, lang, phase.name)
            for log in A.found(item, A.Log):
                if "en" in log.text.by_lang:
                    self.logs.setdefault(log.text.by_lang["en"], log.text.by_lang.get(lang, log.text.by_lang["en"]))
        self.cards = [self._card_name(c) for c in range(len(prog.cards))]

    def _card_name(self, c: int) -> str:
        """The card's title; else its kind's `named` text or its id template with display values ("black 5",
        "Orcs 3"); else kind and values, or the kind and number of a table's own id ("token 23")."""
        prog = self.game.program
        info = prog.cards[c]
        if isinstance(info.ast, A.CardEntry) and info.ast.title is not None:
            return bare(info.ast.title, self.lang, info.id)
        kind = prog.kinds[info.kind]
        values = {name: self.value(v, t, kind.ast.name) for name, t, v in zip(kind.fields, kind.types, info.values)
                  if name in kind.index}
        if kind.ast.named is not None and self.lang in kind.ast.named.by_lang:
            return kind.ast.named.by_lang[self.lang].format(**values)
        template = kind.ast.id_template or ""
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        if fields and template.startswith("{"):
            return re.sub(r"\s+", " ", template.replace("_", " ").format(**values)).strip()
        shown = ", ".join(f"{self.texts.get(f'field {kind.ast.name}.{name}', name)} {values[name]}" for name in fields)
        title = self.texts.get(f"kind {kind.ast.name}", info.kind)
        if shown:
            return f"{title} ({shown})"
        counted = re.fullmatch(rf"{re.escape(kind.ast.name)}_(\d+)", info.id)  # a table's own ids: KIND_N
        return f"{title} {counted.group(1)}" if counted else info.id

    def value(self, v: Any, t: T, kind: str = "") -> str:
        """A value of type t for people: an enum value's text, a player's name, a card's name."""
        if v is None:
            return "?"
        if t.name == "enum":
            return self.texts.get(f"enum {t.arg}.{v}", str(v))
        if t.name == "player" and isinstance(v, int):
            return self.seats[v] if 0 <= v < len(self.seats) else player_name(v)
        if t.name == "card" and isinstance(v, int):
            return self.cards[v]
        if t.name == "bool":
            return _YES_NO[self.lang][bool(v)]
        if t.name == "list" and isinstance(v, list) and t.elem is not None:
            return "[" + ", ".join(self.value(x, t.elem) for x in v) + "]"
        return str(v)

    def zone(self, z: int) -> str:
        """A zone's display text with its number or owner: "card place 2", "hand of P1"."""
        game = self.game
        spec = game.program.zones[game.zone_family[z]]
        name = self.texts.get(f"ZoneDef {spec.name}", spec.name)
        if game.zone_player[z] >= 0:
            return f"{name} {self.words['of']} {self.seats[game.zone_player[z]]}"
        return f"{name} {game.zone_number[z]}" if game.zone_number[z] else name

    def phase(self, name: str) -> str:
        return self.texts.get(f"phase {name}", name)

    def var(self, name: str) -> str:
        return self.texts.get(f"VarDef {name}") or self.texts.get(f"CurrencyDef {name}", name)

    def back(self, back: dict[str, Any]) -> str:
        """A face-down card as its back shows it: "[tile: level 2, lowest value 3, …]"."""
        kind = back["kind"]
        prog = self.game.program
        info = prog.kinds.get(kind)
        title = self.texts.get(f"kind {kind}", kind)
        fields = [(n, v) for n, v in back.items() if n != "kind"]
        if not fields or info is None:
            return f"[{title}]"
        shown = ", ".join(f"{self.texts.get(f'field {kind}.{n}', n)} "
                          f"{self.value(v, info.types[info.index[n]], kind)}" for n, v in fields)
        return f"[{title}: {shown}]"

    def zone_view(self, view: Any) -> str:
        """A zone of an observation: a shuffled pile as its size, else its cards, repeated backs folded."""
        if isinstance(view, dict):
            n = view["count"]
            return f"({n} {self.words['card'] if n == 1 else self.words['cards']}, {self.words['face_down']})"
        if not view:
            return "—"
        shown = [self.cards[self.game.card_index[cid]] if isinstance(cid, str) else self.back(cid) for cid in view]
        parts: list[str] = []
        for text in shown:
            if parts and text.startswith("[") and parts[-1].split(" ×")[0] == text:
                head, _, n = parts[-1].partition(" ×")
                parts[-1] = f"{head} ×{int(n or 1) + 1}"
            else:
                parts.append(text)
        return " · ".join(parts)

    def option(self, value: Any, slot: int, node_type: Optional[T]) -> str:
        """An option of the open decision: the action's display text with its values, or a chosen value."""
        title, shown = self.option_parts(value, slot, node_type)
        return f"{title}: {shown}" if title and shown else title or shown

    def option_parts(self, value: Any, slot: int, node_type: Optional[T]) -> tuple[str, str]:
        """An option as the action's display text and its values ("", value for a chosen value)."""
        if slot < 0:
            action = self.game.program.actions[value[0]]
            title = self.texts.get(f"ActionDef {action.name}", action.name)
            return title, ", ".join(self.value(v, t) for (_, _, t), v in zip(action.params, value[1:]))
        return "", self.value(value, node_type) if node_type is not None else str(value)

    def chosen(self, state: Any, label: str) -> tuple[str, str]:
        """The option with this label of the open decision, in the rules' words (see option_parts)."""
        _, _, _, values, slot = state.pending
        index = state.legal_labels().index(label)
        return self.option_parts(values[index], slot, state.open_node_type()[1] if slot >= 0 else None)

    def log(self, st: Any, entry: Any, seat: int) -> str:
        """A log line as `seat` may read it, with display names where the line names cards and zones."""
        text = view_line(st, entry, seat_mask(seat))
        tag = entry[0]
        game = self.game
        if tag == L_MOVE:
            _, c, src, dst, _ = entry
            shown, _, _ = text.partition(": ")
            card = self.cards[c] if shown == game.card_ids[c] else self.back({"kind": game.program.card_kind[c]})
            return f"{card}: {self.zone(src)} → {self.zone(dst)}"
        if tag == L_TEXT and len(entry) == 2:
            return self.logs.get(text, text)
        if tag == L_TEXT:
            local = self.logs.get(entry[1])
            if local is not None:
                view = view_line(st, (L_TEXT, local, entry[2]), seat_mask(seat))
                return self._names(view)
        if tag == L_DECIDE:
            return text
        return self._names(text)

    def _names(self, text: str) -> str:
        """Card ids in a line replaced by the cards' names."""
        index = self.game.card_index
        return re.sub(r"[A-Za-z0-9_]+", lambda m: self.cards[index[m.group(0)]] if m.group(0) in index else m.group(0), text)

