"""Clauses written in the rules file ("{it} steht auf dem Spielplan"), turned into the forms a sentence
needs: German subordinate order ("wenn die Karte auf dem Spielplan liegt") and the negation ("the
token does not move", "der Stein liegt nicht auf dem Brett"). The word lists come from the
catalogue's [clause] table; a clause the rules cannot find the verb of returns None (the caller falls
back to "it is not the case that …")."""
from __future__ import annotations

import re
from typing import Mapping, Optional, Sequence

from rulebook.phrases import PLACEHOLDER

Words = Mapping[str, object]


def _set(words: Words, key: str) -> set[str]:
    found = words.get(key, [])
    return {str(w) for w in found} if isinstance(found, list) else set()


def _nounish(token: str) -> bool:
    """A token that heads or ends a noun phrase: a capitalised word, a number, a filled-in place."""
    return bool(PLACEHOLDER.fullmatch(token.rstrip(",")) or token[:1].isupper() or token[:1].isdigit())


def finite_verb(tokens: Sequence[str], words: Words) -> Optional[int]:
    """Where the finite verb of a main clause stands: the first lower-case word after the subject (words
    of noun phrases, prepositions and conjunctions are skipped); an opening pronoun is a subject alone."""
    skip, pronouns, aux = _set(words, "skip"), _set(words, "pronouns"), _set(words, "aux")
    suffixes = tuple(_set(words, "not_verb_endings"))
    seen = False
    for i, token in enumerate(tokens):
        low = token.lower()
        if i == 0 and low in pronouns:
            seen = True
            continue
        if _nounish(token):
            seen = True
            continue
        if not token.isalpha() or low in skip:
            continue
        if low in aux or (seen and not (suffixes and low.endswith(suffixes))):
            return i if seen or low in aux else None
    return None


def _coordinated(tokens: Sequence[str], words: Words) -> bool:
    """Whether a clause goes on with a second verb after "und"/"oder" ("… und kann weder ziehen …"); two
    participles before one closing auxiliary ("geschlagen oder vergiftet werden") share their verb, and a
    clause of its own after a comma ("…, ohne … oder … zu können") is not the main clause's."""
    skip, joins, aux, opens = _set(words, "skip"), _set(words, "joins"), _set(words, "aux"), _set(words, "opens_clause")
    tokens = next((tokens[:i + 1] for i, (t, n) in enumerate(zip(tokens, tokens[1:]))
                   if t.endswith(",") and n in opens), tokens)  # "…, ohne ziehen oder fliehen zu können": its own clause
    shared = len(tokens) - 3 if tokens and tokens[-1] in aux else -1
    return any(t in joins and n.isalpha() and n.islower() and n not in skip and i != shared
               for i, (t, n) in enumerate(zip(tokens, tokens[1:])))


def verb_last(template: str, words: Words) -> Optional[str]:
    """A German main clause as a subordinate one: its finite verb moves to the end, before a trailing
    relative clause, and joins a separable particle ("nimmt … mit" → "… mitnimmt")."""
    tokens = template.split(" ")
    v = finite_verb(tokens, words)
    aside = _closing_aside(tokens)
    if v is not None and aside > v + 1:  # "… als er hat (das gilt nur zu zweit)": an aside at the end stays last
        before = verb_last(" ".join(tokens[:aside]), words)
        return f"{before} {' '.join(tokens[aside:])}" if before is not None else None
    if v is not None and _coordinated(tokens[v + 1:], words):
        return None  # "steht auf oder sieht …": two verbs, no single place for them
    if v is None or v == len(tokens) - 1:
        return template if v is not None else None
    verb, rest = tokens[v], tokens[:v] + tokens[v + 1:]
    end = next((i + 1 for i in range(v, len(rest)) if rest[i].endswith(",")), len(rest))
    if rest[end - 1].endswith(","):  # "…, die der Zugbeginn setzt": the verb goes before the comma
        rest[end - 1] = rest[end - 1][:-1]
        tail = ","
    else:
        tail = ""
    if end - 1 >= v and rest[end - 1] in _set(words, "particles"):  # "{k} liegt aus" → "{k} ausliegt"; "den Weg" is a noun
        verb = rest.pop(end - 1) + verb
        end -= 1
    return " ".join(rest[:end] + [verb + tail] + rest[end:])


def _closing_aside(tokens: Sequence[str]) -> int:
    """Where a bracketed aside that ends a clause starts ("(das gilt nur im Spiel zu zweit)"); -1 if none."""
    depth = 0
    for i in range(len(tokens) - 1, -1, -1):
        depth += tokens[i].count(")") - tokens[i].count("(")
        if depth == 0:
            return i if tokens[-1].endswith(")") and tokens[i].startswith("(") else -1
    return -1


def verb_first(template: str, words: Words) -> Optional[str]:
    """A German main clause after a fronted phrase, its finite verb first ("In diesem Zug" + "ist jeder rote
    Stein verborgen"), where the catalogue asks for it (`verb_second`); None where the verb is not found."""
    tokens = template.split(" ")
    v = finite_verb(tokens, words) if words.get("verb_second") else None
    if not v or _coordinated(tokens[v + 1:], words):
        return None
    return " ".join([tokens[v]] + tokens[:v] + tokens[v + 1:])


def negated(template: str, words: Words) -> Optional[str]:
    """A main clause said the other way round, by the catalogue's way of negating: German drops its
    "nicht"/"kein" or adds them, English drops its "not" or adds "not"/"does not"."""
    tokens = template.split(" ")
    how = words.get("negation")
    return _negated_de(tokens, words) if how == "nicht" else _negated_en(tokens, words) if how == "do" else None


def _negated_de(tokens: list[str], words: Words) -> Optional[str]:
    v = finite_verb(tokens, words)
    if v is None or _coordinated(tokens[v + 1:], words):
        return None
    low = [t.lower() for t in tokens]
    main = next((i + 1 for i, t in enumerate(tokens) if t.endswith(",")), len(tokens))  # not in a relative clause
    for i in range(v + 1, main):
        if low[i] == "nicht":  # "noch nicht bewegt" → "schon bewegt"
            return " ".join(tokens[:i - 1] + ["schon"] + tokens[i + 1:] if i > 0 and low[i - 1] == "noch"
                            else tokens[:i] + tokens[i + 1:])
    for i, t in enumerate(low[:main]):
        if re.fullmatch(r"kein(e|en|em|er|es)?", t):  # "kein Portal wurde betreten" → "ein Portal …"
            out = tokens[:i] + [tokens[i][1:]] + tokens[i + 1:]
            if i > 0 and low[i - 1] == "noch":
                out[i - 1] = "schon"
            return " ".join(out)
    after = v + 1
    while after < len(tokens) and low[after] in _set(words, "after_verb"):  # "ließe sie nicht …", "darf sich nicht …"
        after += 1
    if after < len(tokens) and re.fullmatch(r"ein(e|en|em|er|es)?", low[after]):  # "hat einen Flügel" → "keinen"
        return " ".join(tokens[:after] + ["k" + tokens[after]] + tokens[after + 1:])
    last = tokens[main - 1]
    if low[v] in _set(words, "aux") and main - 1 > after and last.isalpha() and last.islower():
        return " ".join(tokens[:main - 1] + ["nicht"] + tokens[main - 1:])  # "muss anhalten" → "muss nicht anhalten"
    return " ".join(tokens[:after] + ["nicht"] + tokens[after:])


def _negated_en(tokens: list[str], words: Words) -> Optional[str]:
    low = [t.lower() for t in tokens]
    if "not" in low:
        i = low.index("not")
        return " ".join(tokens[:i] + tokens[i + 1:])
    if "cannot" in low:
        i = low.index("cannot")
        return " ".join(tokens[:i] + ["can"] + tokens[i + 1:])
    aux, dets = _set(words, "aux"), _set(words, "skip")
    for i in range(1, len(tokens)):
        t = low[i]
        if t in ("has", "have") and i + 1 < len(tokens) and not low[i + 1].endswith(("ed", "en", "wn", "ne")):
            return " ".join(tokens[:i] + ["does not have" if t == "has" else "do not have"] + tokens[i + 1:])
        if t in aux:
            return " ".join(tokens[:i + 1] + ["not"] + tokens[i + 1:])
        counted = i > 1 and _nounish(tokens[i - 1])  # "{n} steps": a noun after a number
        if t.isalpha() and t.endswith("s") and low[i - 1] not in dets and not _nounish(tokens[i]) and not counted:
            base = t[:-3] + "y" if t.endswith("ies") else t[:-2] if re.search(r"(ss|sh|ch|x|o)es$", t) else t[:-1]
            return " ".join(tokens[:i] + ["does not", base] + tokens[i + 1:])
    return None
