"""Which preposition a zone takes in a language: a card goes *onto* a pile, *into* a box, *to* a place
("to"), lies there ("at") and is taken from it ("from"). The zone's own `at` text decides, else the
catalogue's table of nouns ("Stapel" → "auf"), else the language's default."""
from __future__ import annotations

import re
from typing import Mapping, Optional

from dsl import ast as A
from rulebook.phrases import Catalogue, MissingRendering, Noun



def _table(cat: Catalogue, key: str) -> dict[str, object]:
    found = cat.data.get(key, {})
    return dict(found) if isinstance(found, Mapping) else {}


def _frame(cat: Catalogue, value: object) -> Optional[dict[str, str]]:
    """A preposition's three forms: a name of the catalogue's `[place]` table, or a table of its own."""
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    found = _table(cat, "place").get(str(value))
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, Mapping) else None


def preposition(zone: Optional[A.ZoneDef], role: str, cat: Catalogue) -> str:
    """The preposition of a zone in one role ("to", "at", "from"); a list that is no zone takes the frame
    `list`, whose "among" says where a loop's items come from ("every value in the list")."""
    if zone is None:
        return (_frame(cat, "list") or {}).get(role, "")
    return place_preposition(zone.text, zone.at, role, cat)


def case(zone: Optional[A.ZoneDef], role: str, cat: Catalogue) -> str:
    """The case a zone's preposition governs in a role where the frame says one (German "zu" + dative),
    else "" (the pattern's own case)."""
    return preposition(zone, f"{role}_case", cat)


def place_preposition(text: Optional[A.Text], at: Optional[A.Text], role: str, cat: Catalogue) -> str:
    """The preposition of a place named by a text (a zone, a currency's bank), or declared by `at`."""
    frame: Optional[dict[str, str]] = None
    if at is not None and cat.lang in at.by_lang:
        word = at.by_lang[cat.lang]
        frame = _frame(cat, word)
        if frame is None:
            known = ", ".join(sorted(k for k in _table(cat, "place") if k not in ("default", "list")))
            raise MissingRendering(at.pos, f"the {cat.lang} catalogue knows no preposition '{word}'",
                                   f"write one of {known}")
    elif text is not None and cat.lang in text.by_lang:
        noun = Noun(text.by_lang[cat.lang], cat)
        word = noun.word.partition(" (")[0]
        frame = next((_frame(cat, v) for k, v in _table(cat, "place_nouns").items() if re.search(k, word)), None)
        if frame is None and noun.agree == "pl":  # a collection of things: German "zu den Handkarten"
            frame = _frame(cat, "plural")
    return (frame or _frame(cat, "default") or {}).get(role, "")
