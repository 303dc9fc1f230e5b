"""Load-time checks on the AST that need no compiling: named parts and their uniqueness, and that
every display text exists in every language the game declares (its rulebooks are written in them)."""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence, Union

from dsl import ast as A
from dsl.errors import RulesError, error_at
from dsl.limits import MAX_PLAYERS
from dsl.pictures import picture_problems
from dsl.steps import duplicate_names

# The engine's own texts (log lines, the play screen) are German and English, so every game has both.
REQUIRED_LANGUAGES = ("de", "en")

_PARTS: dict[type, str] = {
    A.GameDef: "game", A.EnumDef: "enum", A.KindDef: "kind", A.CardsDef: "cards", A.ZoneDef: "zone",
    A.VarDef: "var", A.ConstDef: "const", A.CurrencyDef: "currency", A.FunctionDef: "function",
    A.RuleDef: "rule", A.ActionDef: "action", A.SetupDef: "setup", A.RoundDef: "round",
    A.ScoreDef: "score", A.HeuristicDef: "heuristic", A.WinnerDef: "can_win", A.TriggerDef: "trigger",
    A.PictureDef: "picture", A.EventDef: "event", A.SectionDef: "section",
}


def part_key(item: Any, existing: Mapping[tuple[str, str], int]) -> tuple[str, str]:
    """The (part, name) by which a variant addresses an item; unnamed triggers are numbered per event."""
    part = _PARTS[type(item)]
    if isinstance(item, A.TriggerDef) and item.name is None:
        n = sum(1 for k in existing if k[0] == "trigger" and k[1].split("#")[0] == item.event)
        return part, f"{item.event}#{n + 1}"
    if isinstance(item, A.CardsDef):
        return part, item.table or item.name
    return part, str(getattr(item, "name", ""))


def _texts(node: Any) -> list[A.Text]:
    return A.found(node, A.Text)


def languages_of(items: Sequence[Any]) -> tuple[str, ...]:
    """The languages the game header declares (`languages de en fr`), German and English if none."""
    game = next((i for i in items if isinstance(i, A.GameDef)), None)
    return game.languages if game is not None else A.DEFAULT_LANGUAGES


def formula_definitions(items: Sequence[Any]) -> list[str]:
    """The functions the rulebook's "Definitions" still tell as a formula: neither `internal` nor worded
    by a `note`, so a modder sees which terms lack a sentence."""
    return [i.name for i in items if isinstance(i, A.FunctionDef) and not i.internal and i.note is None]


def check_texts(nodes: list[Any], languages: Sequence[str] = A.DEFAULT_LANGUAGES) -> None:
    """Every text has a version in each of the game's `languages`."""
    problems = []
    example = " ".join(f'{lang} "…"' for lang in languages)
    for node in nodes:
        for text in _texts(node):
            missing = [lang for lang in languages if lang not in text.by_lang]
            if missing:
                declared = "" if tuple(languages) == A.DEFAULT_LANGUAGES else \
                    f"the game declares languages {' '.join(languages)}: "
                problems.extend(error_at(text.pos, f"text has no {' and no '.join(missing)} version",
                                         f"{declared}write each, as in {example}").diagnostics)
    if problems:
        raise RulesError(problems)


def _names_twice(what: str, named: list[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    out = []
    for node in named:
        if node.name in seen:
            out.extend(error_at(node.pos, f"{what} '{node.name}' appears twice (first at line {seen[node.name].line})"
                                ).diagnostics)
        seen.setdefault(node.name, node.pos)
    return out


def check_definitions(nodes: list[Any]) -> None:
    """Small sanity checks inside single definitions: names given twice, an impossible player range."""
    problems = []
    enums = {i.name: {v.name for v in i.values} for n in nodes for i in _walk_items(n) if isinstance(i, A.EnumDef)}
    for node in nodes:
        for item in _walk_items(node):
            for told_of in [item] if isinstance(item, A.VarDef) else item.fields if isinstance(item, A.KindDef) else []:
                problems += _told_problems(told_of, enums)
            if isinstance(item, (A.FunctionDef, A.RuleDef, A.ActionDef)):
                problems += _names_twice("parameter", list(item.params))
            if isinstance(item, (A.RuleDef, A.ActionDef, A.PhaseDef)):
                problems += duplicate_names(_PARTS.get(type(item), "phase"), item)
            elif isinstance(item, A.RoundDef):
                for phase in item.phases:
                    problems += duplicate_names("phase", phase)
            elif isinstance(item, A.PictureDef):
                problems += picture_problems(item)
            elif isinstance(item, A.EnumDef):
                problems += _names_twice("enum value", list(item.values))
            elif isinstance(item, A.GameDef) and not 1 <= item.min_players <= item.max_players:
                problems += error_at(item.pos, f"players {item.min_players} to {item.max_players}: the "
                                     "range must start at 1 or more and not run backwards",
                                     "write the smaller number first, as in players 3 to 6").diagnostics
            elif isinstance(item, A.GameDef) and item.max_players > MAX_PLAYERS:
                problems += error_at(item.pos, f"players {item.min_players} to {item.max_players}: a game is "
                                     f"for at most {MAX_PLAYERS} players").diagnostics
            if isinstance(item, A.GameDef):
                problems += _languages_problems(item)
    if problems:
        raise RulesError(problems)


def _told_problems(item: Union[A.VarDef, A.FieldDef], enums: Mapping[str, set[str]]) -> list[Any]:
    """A `told` text tells a change its var or field can make: "add"/"sub"/a number for a count, "add" for a
    list, "true"/"false" for a flag, a value of its enum; "set" for any."""
    out: list[Any] = []
    kind = item.type.name
    for told in item.told:
        k = told.kind
        ok = k == "set" or (k in ("add", "sub") or k.lstrip("-").isdigit() if kind == "int" else k == "add" if kind == "list" else
                            k in ("true", "false") if kind == "bool" else k in enums.get(kind, set()))
        if not ok:
            out += error_at(told.pos, f"told {k}: {item.name} is a {kind}, which cannot change that way",
                            "write told set, told add/sub or a number for an int, told true/false for a bool, "
                            "told VALUE for a value of its enum").diagnostics
    return out


def _languages_problems(game: A.GameDef) -> list[Any]:
    """`languages` names each language once and keeps German and English, which the engine speaks."""
    twice = sorted({lang for lang in game.languages if game.languages.count(lang) > 1})
    lacking = [lang for lang in REQUIRED_LANGUAGES if lang not in game.languages]
    if twice:
        return error_at(game.pos, f"languages {' '.join(game.languages)}: {', '.join(twice)} is named twice").diagnostics
    if lacking:
        return error_at(game.pos, f"languages {' '.join(game.languages)}: a game is written in "
                        f"{' and '.join(REQUIRED_LANGUAGES)} at least, but {' and '.join(lacking)} is missing",
                        f"write e.g. languages {' '.join(REQUIRED_LANGUAGES)} fr").diagnostics
    return []


def _walk_items(node: Any) -> Iterator[Any]:
    """A top-level item, or the items and phases a variant adds or replaces."""
    if isinstance(node, A.VariantDef):
        for op in node.ops:
            if op.item is not None:
                yield op.item
            if op.phase is not None:
                yield op.phase
    else:
        yield node
