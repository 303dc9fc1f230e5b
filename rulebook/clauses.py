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
    "nicht"/"kein" or adds them, English drops its "not" or adds "not"/"does not", French drops its
    "ne … pas" or adds it around the verb. A negation said inside the clause keeps its reach to that clause,
    where a phrase before it ("it is not the case that A and B") may be read as covering what follows."""
    tokens = template.split(" ")
    how = words.get("negation")
    if how == "ne":
        return _negated_fr(tokens, words)
    return _negated_de(tokens, words) if how == "nicht" else _negated_en(tokens, words) if how == "do" else None


def _negated_de(tokens: list[str], words: Words) -> Optional[str]:
    v = finite_verb(tokens, words)
    if v is None or _coordinated(tokens[v + 1:], words):
        return None
    low = [t.lower() for t in tokens]
    main = next((i + 1 for i, t in enumerate(tokens) if t.endswith(",")), len(tokens))  # not in a relative clause
    for i in range(v + 1, main):
        if low[i] == "weder" and "noch" in low[i + 2:main]:  # "weder geschlagen noch vergiftet" → "geschlagen oder vergiftet"
            return " ".join(tokens[:i] + ["oder" if t == "noch" and j > i else w for j, (w, t)
                                          in enumerate(zip(tokens, low)) if j > i])
        if low[i] == "nicht" and low[i + 1:i + 2] == ["mehr"] and not _nounish(tokens[min(i + 2, len(tokens) - 1)]):
            return " ".join(tokens[:i] + ["noch"] + tokens[i + 2:])  # "nicht mehr vergiftet" → "noch vergiftet", not "mehr Freunde"
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
    if "neither" in low and "nor" in low[low.index("neither"):]:  # "can neither move nor flee" → "can move or flee"
        i = low.index("neither")
        return " ".join(tokens[:i] + ["or" if t == "nor" else w for w, t in zip(tokens[i + 1:], low[i + 1:])])
    if "no longer" in " ".join(low):  # "is no longer poisoned" → "is still poisoned"
        i = next(j for j, (t, n) in enumerate(zip(low, low[1:])) if (t, n) == ("no", "longer"))
        return " ".join(tokens[:i] + ["still"] + tokens[i + 2:])
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


def _negated_fr(tokens: list[str], words: Words) -> Optional[str]:
    """French: a clause with "ne" in its main part is said positively (`undone` gives what its "pas", "plus",
    "aucun" become; "ni A ni B" becomes "A ou B"), any other gets "ne … pas" around its finite verb; None where
    the clause's shape is not one of these (its subject not a place or a pronoun, two verbs, "ne … que")."""
    low = [t.lower() for t in tokens]
    opens = _set(words, "opens_clause")
    main = next((i for i, t in enumerate(low) if i > 0 and (t in opens or t.startswith(("qu'", "qu’")))), len(tokens))
    neg = next((i for i, t in enumerate(low[:main]) if t == "ne" or t.startswith(("n'", "n’"))), None)
    if neg is not None:
        return _positive_fr(tokens, low, neg, main, words)
    if low[0] in _set(words, "subject_verbs"):  # "c'est …" → "ce n'est pas …"
        subject, verb = low[0].split("'")
        return " ".join([subject, "n'" + verb, "pas"] + tokens[1:])
    joins, aux, skip = _set(words, "joins"), _set(words, "aux"), _set(words, "skip")
    start = v = 1  # the verb after the subject and its object pronouns: "{c} ne se trouve pas …"
    while v < main and low[v] in _set(words, "clitics"):
        v += 1
    if not (PLACEHOLDER.fullmatch(tokens[0]) or low[0] in _set(words, "pronouns")) or v >= main or low[v] in skip:
        start = v = next((i for i in range(1, main) if low[i] in aux), main)  # a longer subject ("la case {i} est …"):
        if any(t in joins for t in low[:v]):  # the verb is the first auxiliary
            return None
    if v >= main or not re.fullmatch(r"[a-zà-ÿ'’-]+", low[v]):
        return None
    if any(t in joins and n in aux for t, n in zip(low[v + 1:main], low[v + 2:main])):
        return None  # "… a une aile et peut voler": two verbs, one negation would cover only the first
    rest = tokens[v + 1:]
    if rest and low[v] in _set(words, "modals") and re.fullmatch(r"[a-zà-ÿ]+(er|ir|re|oir)", rest[0]):
        head, rest = [rest[0]], rest[1:]
        copula = head[0] in _set(words, "copulas")
    else:
        head, copula = [], low[v] in _set(words, "copulas")
    if rest and rest[0] in ("un", "une", "des") and not copula:  # "ne fait pas de déplacement": the partitive "de"
        if len(rest) < 2 or PLACEHOLDER.fullmatch(rest[1]):
            return None
        rest = [_elided("de", rest[1])] + rest[2:] if rest[1][:1].lower() in _VOWELS else ["de"] + rest[1:]
    return " ".join(tokens[:start] + [_elided("ne", " ".join(tokens[start:v + 1]))] + ["pas"] + head + rest)


_VOWELS = "aeiouyhàâéèêëîïôû"


def _elided(word: str, after: str) -> str:
    """French "ne"/"de" before what follows, elided onto a word that starts with a vowel: "n'est", "d'artefact"."""
    return f"{word[:-1]}'{after}" if after[:1].lower() in _VOWELS else f"{word} {after}"


def _positive_fr(tokens: list[str], low: list[str], neg: int, main: int, words: Words) -> Optional[str]:
    """A French clause whose "ne" stands at `neg`, said positively: the "ne" goes and the word that completes
    it is undone by the catalogue's `undone` table ("pas" → nothing, "plus" → "encore", "pas encore" →
    "déjà"); "ni A ni B" becomes "A ou B". None for a completing word the table has no entry for ("que")."""
    undone = words.get("undone", {})
    assert isinstance(undone, dict)
    out = tokens[:neg] + ([] if low[neg] == "ne" else [tokens[neg][2:]]) + tokens[neg + 1:]
    shift = 1 if low[neg] == "ne" else 0
    for i in range(neg + 1 - shift, main - shift):
        t = out[i].lower()
        if t == words.get("neither"):
            nis = [j for j in range(i, len(out)) if out[j].lower() == t]
            if len(nis) < 2:
                return None
            for j in nis[1:]:
                out[j] = str(words.get("either", "ou"))
            return " ".join(out[:i] + out[i + 1:])
        pair = f"{t} {out[i + 1].lower()}" if i + 1 < len(out) else ""
        if pair in undone:
            return " ".join(out[:i] + ([str(undone[pair])] if undone[pair] else []) + out[i + 2:])
        if t in undone:
            nxt = out[i + 1].lower() if i + 1 < len(out) else ""
            if nxt in ("de", "d'") or nxt.startswith(("d'", "d’")):  # "n'a pas de catapulte": the article is lost
                return None
            return " ".join(out[:i] + ([str(undone[t])] if undone[t] else []) + out[i + 1:])
    return None
