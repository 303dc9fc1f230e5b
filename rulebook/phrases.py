"""Message catalogues and the small grammar machinery of generated sentences: phrases with forms
(cases, main or subordinate clause), nouns with an article, and pattern filling. Knows no game."""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Union

from dsl import ast as A

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"
LANGUAGES = ("de", "en", "fr")  # the languages with a catalogue, in which a game may declare its texts
DEFAULT_FORMS = ("nom", "main", "default")
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
NAME_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]")  # a capitalised word (not a letter) after an adjective that a name writes capitalised
IT_PLACE = "{it}"  # where a yes/no field's clause puts its card: "{it} is hidden"
CASES = ("nom", "acc", "dat", "vgen")  # the forms a text of the rules file may ask for ("vgen": "of", a
# genitive where the language has one: "des Spielers", else "von dem Spieler")

Pattern = Union[str, Mapping[str, str]]


class MissingRendering(Exception):
    """A construct the catalogue of a language has no sentence for, or a name without a display
    text: the rulebook would show a placeholder, so it is a validation error at the node."""

    def __init__(self, pos: Optional[A.Pos], message: str, hint: str = "") -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.hint = hint


class Catalogue:
    """One language's messages, loaded from rulebook/catalogue/<lang>.toml."""

    def __init__(self, lang: str, data: Mapping[str, object]) -> None:
        self.lang = lang
        self.data = data
        contractions = data.get("contractions", {})
        assert isinstance(contractions, dict)
        self.contractions = [(re.compile(k), str(v), needed(k)) for k, v in contractions.items()]
        self._contracted: dict[str, str] = {}  # a text → itself contracted: the books of a run say many texts again
        self.nouns: dict[str, tuple[str, str, dict[str, Any]]] = {}  # a noun's text → its article, word and forms
        self.memo: dict[tuple[str, ...], str] = {}  # what a noun's word and article give (remembered)

    def remembered(self, key: tuple[str, ...], make: Callable[[], str]) -> str:
        """What `make()` gave for `key` before (a noun's forms: the books of a run say the same nouns again)."""
        said = self.memo.get(key)
        if said is None:
            said = self.memo[key] = make()
        return str(said)

    def pattern(self, key: str, pos: Optional[A.Pos] = None) -> Pattern:
        node: object = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                raise MissingRendering(pos, f"no {self.lang} rendering for '{key}'",
                                       f"add '{key}' to {CATALOGUE_DIR.name}/{self.lang}.toml")
            node = node[part]
        if isinstance(node, dict):
            return {str(k): str(v) for k, v in node.items()}
        return str(node)

    def has(self, key: str) -> bool:
        try:
            self.pattern(key)
        except MissingRendering:
            return False
        return True

    def table(self, key: str) -> dict[str, str]:
        found = self.pattern(key)
        return dict(found) if isinstance(found, Mapping) else {}

    def plural(self, text: str) -> bool:
        """Whether a text starts with an article the catalogue marks plural (French "les")."""
        articles = self.data.get("articles", {})
        found = articles.get(text.partition(" ")[0]) if isinstance(articles, dict) else None
        return isinstance(found, dict) and found.get("plural") is True

    def contract(self, text: str) -> str:
        """The catalogue's contractions applied ("de le" → "du"), for sentences and interface texts alike."""
        done = self._contracted.get(text)
        if done is None:
            done = text
            for regex, repl, pieces in self.contractions:
                if all(piece in done for piece in pieces):  # else it cannot match: no search needed
                    done = regex.sub(repl, done)
            self._contracted[text] = done
        return done

    def polish(self, text: str) -> str:
        """A finished sentence: contractions applied, first letter capitalised (a sentence that starts
        with a *variable* keeps its spelling)."""
        text = self.contract(text)
        return text[:1].upper() + text[1:]


def needed(pattern: str) -> list[str]:
    """Pieces of plain text that every match of a regular expression contains: its runs of literal characters
    between groups, classes, escapes and repeats, where nothing outside a group is an alternative (else none;
    none either for a pattern that ignores case or whitespace). A text without one of them is left as it is."""
    if re.compile(pattern).flags & (re.IGNORECASE | re.VERBOSE):
        return []
    runs: list[str] = []
    run, i = "", 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "|":  # an alternative at the top: no piece is certain
            return []
        if ch == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():  # an escaped character is itself
            run += pattern[i + 1]
            i += 2
            continue
        if ch not in "\\.^$?*+{([":  # a literal character
            run += ch
            i += 1
            continue
        runs.append(run[:-1] if ch in "?*+{" else run)  # a repeat's character may be missing or repeated
        run = ""
        if ch == "\\":  # a class or position (`\b`, `\d`), or a longer escape to its end (`\x41`, `\12`)
            letter, i = pattern[i + 1], i + 2
            while letter not in "bBdDsSwWAZ" and i < len(pattern) and (pattern[i].isalnum() or pattern[i] in "_{}"):
                i += 1
            continue
        if ch == "{":
            i = pattern.find("}", i)
            if i < 0:
                break
        elif ch in "([":
            i = _closing(pattern, i)
        i += 1
    return [piece for piece in runs + [run] if piece]


def _closing(pattern: str, at: int) -> int:
    """Where the group or class that opens at `at` closes (the end of the pattern if it does not)."""
    depth, i = 0, at
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i += 1
            if i < len(pattern) and pattern[i] == "^":
                i += 1
            if i < len(pattern) and pattern[i] == "]":
                i += 1
            while i < len(pattern) and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
            if depth == 0:
                return i
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return i


@lru_cache(maxsize=None)
def catalogue(lang: str) -> Catalogue:
    with open(CATALOGUE_DIR / f"{lang}.toml", "rb") as fh:
        return Catalogue(lang, tomllib.load(fh))


class Phrase:
    """A piece of text in whatever form a pattern asks for; made lazily, as most forms go unused.
    `agree`: how a verb whose subject it is agrees: "" (one thing), "pl" (several), "you" (the reader)."""

    __slots__ = ("_make", "_cache", "agree", "genitive", "clause", "open_end")

    def __init__(self, make: Union[str, Callable[[str], str]], agree: str = "", genitive: bool = False) -> None:
        self._make = make
        self._cache: dict[str, str] = {}
        self.agree = agree
        self.genitive = genitive  # has a form "gen" (German "des Spielers"); else "of" is said with a preposition
        self.clause = False  # a clause of the rules file: has the forms "neg", "vlast" and "neg_vlast"
        self.open_end = False  # a quantifier said before its condition ("for every x: …"): nothing ends its reach

    def __call__(self, f: str) -> str:
        return self.form(f)

    def form(self, f: str) -> str:
        if isinstance(self._make, str):
            return self._make
        if f not in self._cache:
            self._cache[f] = self._make(f)
        return self._cache[f]


Arg = Union[Phrase, str]


def pick(pattern: Pattern, form: str, agree: str = "") -> str:
    """The pattern for a form, or its default one; for a subject that agrees as `agree` ("pl", "you")
    its `FORM_pl` or `FORM_you` where it has one."""
    if isinstance(pattern, str):
        return pattern
    for f in (form, *DEFAULT_FORMS):
        if agree and f"{f}_{agree}" in pattern:
            return pattern[f"{f}_{agree}"]
        if f in pattern:
            return pattern[f]
    return next(iter(pattern.values()))


def _agreement(args: Mapping[str, Arg], name: Optional[str]) -> str:
    value = args.get(name) if name else None
    return value.agree if isinstance(value, Phrase) else ""


def fill(pattern: Pattern, form: str, args: Mapping[str, Arg]) -> str:
    """Fills the placeholders; `{x}` passes the asked-for form on, `{x:dat}` asks for its own. The
    verb agrees with the subject, the place the pattern's `agree` entry names, else its first place."""
    def sub(m: re.Match[str]) -> str:
        value = args[m.group(1)]
        if isinstance(value, str):
            return value
        if m.group(2) == "vgen":  # "of": a genitive where the phrase has one, else "von" + dative
            return value.form("gen") if value.genitive else "von " + value.form("dat")
        return value.form(m.group(2) or form)
    text = pick(pattern, form)
    if not isinstance(pattern, str):
        first = PLACEHOLDER.search(text)
        text = pick(pattern, form, _agreement(args, pattern.get("agree") or (first.group(1) if first else None)))
    return PLACEHOLDER.sub(sub, text)


def agreement(cat: Catalogue, pattern: Pattern, args: Mapping[str, Arg]) -> str:
    """How a pattern's noun phrase agrees: "pl" where its `number` says so (an article that does not tell:
    "the neighbours of …"), else as the phrase it starts with, "pl" after a plural article."""
    if isinstance(pattern, dict) and pattern.get("number") == "pl":
        return "pl"
    text = pick(pattern, "nom")
    first = PLACEHOLDER.match(text)
    return _agreement(args, first.group(1) if first else None) or ("pl" if cat.plural(text) else "")


ELISION = ("'", "’")  # an article ending in an apostrophe is elided: written onto its noun, no space


def _article(text: str, cat: Catalogue) -> tuple[str, str, dict[str, Any]]:
    """A noun's leading article (its gender; "default" for none), its word and its article's forms."""
    text = text.replace(IT_PLACE + " ", "").replace(" " + IT_PLACE, "")  # a clause's card: "is hidden"
    articles = cat.data.get("articles", {})
    assert isinstance(articles, dict)
    first, _, rest = text.partition(" ")
    elided = next((a for a in articles if a.endswith(ELISION) and len(text) > len(a)
                   and text[:len(a)].replace("’", "'") == a.replace("’", "'")), None)
    if first in articles and rest:
        gender, word = first, rest
    elif elided is not None:
        gender, word = elided, text[len(elided):]
    else:
        gender, word = "default", text
    return gender, word, articles.get(gender, {})


def _name_adjective(words: list[str], i: int, written: str) -> bool:
    """Whether a noun's capitalised word is an adjective of a name, which German writes capitalised: it ends as the
    catalogue writes adjectives and a capitalised word follows („der Dunkle Stein“; not a letter: „die Reihe B“)."""
    return bool(written) and words[i].endswith(written) and i + 1 < len(words) and NAME_WORD.match(words[i + 1]) is not None


class Noun:
    """A display text used as a noun; a leading article known to the catalogue gives its gender (an
    elided one, French `l'`, is followed by its noun without a space)."""

    def __init__(self, text: str, cat: Catalogue) -> None:
        self.cat = cat
        found = cat.nouns.get(text)
        if found is None:
            found = cat.nouns[text] = _article(text, cat)
        self.gender, self.word, self.dets = found
        self.agree = "pl" if self.dets.get("plural") is True else ""
        self.own_plural = ""  # a plural made with the singular ("other tokens"), not by the ending rules

    def feminine(self) -> bool:
        """Whether the catalogue marks the noun's article feminine, so a text about it takes its form "fem"."""
        return self.dets.get("feminine") is True

    def plural(self) -> str:
        """The noun in the plural, by the catalogue's ending rules applied to its head word (English:
        the last word before a bracket, German and French: the first)."""
        if self.agree == "pl":
            return self.word
        if self.own_plural:
            return self.own_plural
        return self.cat.remembered(("plural", self.gender, self.word), self._plural)

    def _plural(self) -> str:
        rules = self.cat.data.get("plural", {})
        grammar = self.cat.data.get("grammar", {})
        assert isinstance(rules, dict) and isinstance(grammar, dict)
        main, bracket, rest = self.word.partition(" (")
        words = main.split(" ")
        at = len(words) - 1 if grammar.get("plural_head") == "last" else 0
        own = rules.get(self.gender)
        ordered = list(own.items()) if isinstance(own, dict) else []
        for pattern, repl in ordered + [(k, v) for k, v in rules.items() if not isinstance(v, dict)]:
            if re.search(pattern, words[at]):
                words[at] = re.sub(pattern, str(repl), words[at], count=1)
                break
        return " ".join(words) + bracket + rest

    def gen_suffix(self, head: str) -> str:
        """German genitive ending of a masculine or neuter noun: "des Spielers", "des Platzes"."""
        suffix = str(self.dets.get("gen_suffix", ""))
        if not suffix or not head.replace("-", "").isalpha() or self.weak(head):  # "des Karten-Vorrats"
            return ""
        short = len(re.findall(r"[aeiouäöüy]+", head.lower())) == 1 and head[-1] in "dtgbfk"  # „des Freundes“
        return "es" if head[-1] in "sßxz" or short else suffix

    def genitive(self, det: str) -> str:
        """The noun in the genitive after its article, its adjectives declined and its head noun (the
        first capitalised word) with the ending: "des Stapels am Platz", "des verdrängten Steins"."""
        grammar = self.cat.data.get("grammar", {})
        written = str(grammar.get("adjective_written", "")) if isinstance(grammar, dict) else ""
        words = self.declined(det, "gen").split(" ")
        head = next((i for i, w in enumerate(words) if not w[:1].islower()
                     and not _name_adjective(self.word.split(" "), i, written)), 0)  # „des Dunklen Steins“
        word = words[head].rstrip(",")  # "des Hutes, den …"
        words[head] = word + self.gen_suffix(word) + words[head][len(word):]
        return f"{self.det(det).form('gen')} {' '.join(words)}".strip()

    def det(self, det: str) -> Phrase:
        """The determiner alone (def, each, your, indef, rel, bare; label: none, for a table's row), declined by form."""
        forms = self.dets.get(det, "")
        if isinstance(forms, dict):
            table = {str(k): str(v) for k, v in forms.items()}
            return Phrase(lambda f: pick(table, f))
        return Phrase(str(forms))

    def np(self, det: str) -> Phrase:
        """The noun with a determiner, declined by form; a numbered name, where the catalogue knows one, takes
        no definite article ("tiles 5 to 23")."""
        grammar = self.cat.data.get("grammar", {})
        numbered = grammar.get("numbered_name") if isinstance(grammar, dict) else None
        article = Phrase("") if det == "def" and isinstance(numbered, str) and re.match(numbered, self.word) \
            else self.det(det)

        genitive = det in ("def", "this", "each", "your", "indef", "their", "its", "top", "matching", "first", "chosen", "last") \
            and self.has_genitive(det)

        closed = self.closed() if det not in ("bare", "label") else ""  # a bare noun labels a table's row
        owned = self.owned(det)
        if owned is not None:
            return owned

        def make(f: str) -> str:
            if f == "gen" and genitive:
                return self.genitive(det) + closed
            before, word = article.form(f), self.postposed(det, self.declined(det, f))
            return (before + word if before.endswith(ELISION) else f"{before} {word}".strip()) + closed
        return Phrase(make, self.agree, genitive)

    def postposed(self, det: str, word: str) -> str:
        """The noun with the adjective its determiner puts after it, where the catalogue gives one (French
        `chosen_after`: « le côté choisi », « le nombre choisi de pions »): before the noun's first
        complement, which the catalogue's grammar `postposed_before` finds, else at its end."""
        after = self.dets.get(f"{det}_after")
        grammar = self.cat.data.get("grammar", {})
        stop = grammar.get("postposed_before") if isinstance(grammar, dict) else None
        if not isinstance(after, str) or after in word.split(" "):  # « la créature choisie » says it already
            return word
        found = re.search(stop, word) if isinstance(stop, str) else None
        at = found.start() if found is not None else len(word)
        return f"{word[:at].rstrip()} {after}{' ' if at < len(word) else ''}{word[at:].lstrip()}"

    def owned(self, det: str) -> Optional[Phrase]:
        """A possessive on a noun with a genitive after it goes to that genitive, where the catalogue says so:
        „der Wert seines ausgespielten Plättchens“, not „sein Wert des ausgespielten Plättchens“."""
        text = self.cat.remembered(("owned", self.gender, self.word, det), lambda: self._owned_text(det))
        return Noun(text, self.cat).np("def") if text else None

    def _owned_text(self, det: str) -> str:
        """owned's noun with the possessive moved to its genitive, as a text; "" where the catalogue says none."""
        grammar = self.cat.data.get("grammar", {})
        article = grammar.get("possessive_genitive") if isinstance(grammar, dict) else None
        found = re.match(rf"([A-ZÄÖÜ]\S*) {article} (\S.*)$", self.word) \
            if isinstance(article, str) and det in ("their", "its", "your") else None
        wanted = grammar.get("possessive_gender", "") if isinstance(grammar, dict) else ""
        articles = self.cat.data.get("articles", {})
        gender = articles.get(wanted, {}) if isinstance(articles, dict) else {}
        forms = gender.get(det) if isinstance(gender, dict) else None
        if found is None or not isinstance(forms, dict) or "gen" not in forms:
            return ""
        return f"{self.gender} {found.group(1)} {forms['gen']} {found.group(2)}"

    def closed(self) -> str:
        """The comma that closes a relative clause ending the noun („der Hut, den der Spieler trägt, ist
        rot“) where the catalogue's grammar says how one starts; contractions drop it before . : ; or at the end."""
        return self.cat.remembered(("closed", self.word), self._closed)

    def _closed(self) -> str:
        """closed's comma, worked out from the catalogue's grammar."""
        grammar = self.cat.data.get("grammar", {})
        start = grammar.get("relative_clause") if isinstance(grammar, dict) else None
        main = re.sub(r"\([^()]*\)", "", self.word)
        return "," if isinstance(start, str) and re.search(start, main) and not main.endswith(",") else ""

    def declined(self, det: str, case: str) -> str:
        """The noun with the adjectives before it declined after this determiner, where the catalogue
        gives their endings (German "der dritte Spieler" → "den dritten Spieler", "sein ausgespieltes
        Plättchen"): lower-case words ending as the text writes them, up to the first capitalised word, the
        head noun (not one after an article or preposition), which takes the determiner's dative ending
        ("den Freunden")."""
        return self.cat.remembered(("declined", self.gender, self.word, det, case), lambda: self._declined(det, case))

    def _declined(self, det: str, case: str) -> str:
        rules = self.cat.data.get("grammar", {})
        assert isinstance(rules, dict)
        kind = "mixed" if det in rules.get("adjective_mixed", []) else \
            "weak" if det in rules.get("adjective_weak", []) else \
            "strong" if det in rules.get("adjective_strong", []) else ""
        endings = self.dets.get(kind) if kind else None
        if not isinstance(endings, dict):
            return self.word
        written = str(self.dets.get("written", "") if kind == "strong" else "") or str(rules.get("adjective_written", ""))
        ending = str(endings.get(case, endings.get("nom", "")))
        clause = rules.get("clause", {})
        small = set(clause.get("skip", [])) if isinstance(clause, dict) else set()  # articles, prepositions
        words = self.word.split(" ")
        head = len(words)
        for i, w in enumerate(words):
            if not w[:1].islower():
                if i and words[i - 1] in small:  # a noun inside a phrase before the head: „in dieser Bewegung“
                    continue
                if _name_adjective(words, i, written):
                    words[i] = w[:len(w) - len(written)] + ending  # „Dunkler Stein“, „dem Dunklen Stein“
                    continue
                head = i
                break
            if w.endswith(written) and w not in small:
                words[i] = w[:len(w) - len(written)] + ending
        if head < len(words) and case != "nom" and self.weak(words[head]):  # "den Boten", "dem Kunden"
            words[head] += "n"
        adjectival = self.dets.get("adjective_noun")  # a noun made of an adjective: „mögliche Mitreisende“
        if kind == "strong" and head < len(words) and isinstance(adjectival, str) and re.search(adjectival, words[head]):
            words[head] = words[head][:len(words[head]) - len(written)] + ending
        suffix = str(self.dets.get("dat_suffix", "")) if case == "dat" else ""  # "den Freunden"
        joins = set(clause.get("joins", [])) if isinstance(clause, dict) else set()
        nouns = [head] + ([head + 2] if head + 2 < len(words) and words[head + 1] in joins
                          and words[head + 2][:1].isupper() else [])  # "den Steinen und Karten"
        for at in nouns if suffix else []:
            noun, comma = (words[at][:-1], words[at][-1]) if words[at].endswith(",") else (words[at], "")
            if noun[-1:].isalpha() and not noun.endswith(("n", "s")):
                words[at] = noun + suffix + comma
        return " ".join(words)

    def weak(self, head: str) -> bool:
        """A noun the catalogue declines weak: its head ends in "n" outside the nominative („den Boten“)."""
        ending = self.dets.get("weak_noun")
        return isinstance(ending, str) and re.search(ending, head) is not None

    def has_genitive(self, det: str) -> bool:
        forms = self.dets.get(det)
        return isinstance(forms, dict) and "gen" in forms
