"""Finds a ruleset folder, parses its files and lays the chosen variants over the base game.

A variant is an overlay of named parts (add, replace, remove, add/replace a phase), never a copy;
variants compose as long as no two of them change the same part."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, did_you_mean, error_at
from dsl.files import REPO_ROOT, display_name, find_ruleset, is_variant_file, rules_files, rulesets_dir
from dsl.parser import parse_file
from dsl.steps import apply_step, find_owner
from dsl.validate import check_definitions, check_texts, languages_of, part_key


@dataclass
class RulesetSource:
    """Everything parsed from one ruleset folder (or one file), before variants are applied."""

    name: str
    folder: Path
    items: list[A.Node] = field(default_factory=list)
    variants: dict[str, A.VariantDef] = field(default_factory=dict)
    scenarios: list[A.ScenarioDef] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    variant_files: dict[str, str] = field(default_factory=dict)  # variant name → the .rules file it came from

    def refs(self, names: Sequence[str]) -> tuple[str, ...]:
        """How load_program is told these variants: a variant from a file outside the ruleset by that file."""
        return tuple(self.variant_files.get(name, name) for name in names)


class UnknownVariantError(ValueError):
    """A variant was asked for by a name the ruleset does not define (a caller's mistake, not a file's)."""


class VariantConflict(RulesError):
    """Two variants change the same part: each may be fine, they just cannot be loaded together."""


def read_ruleset(path: Path, scenarios: bool = True) -> RulesetSource:
    """Parse every file (scenario files only if `scenarios`); all syntax errors of all files are reported together."""
    src = RulesetSource(name=path.stem if path.is_file() else path.name, folder=path)
    problems: list[Diagnostic] = []
    for file in rules_files(path, scenarios):
        try:
            parsed, text = parse_file(file, display_name(file))
        except RulesError as exc:
            problems.extend(exc.diagnostics)
            src.sources.update(exc.sources)
            continue
        if file.parent == path / "scenarios" and (parsed.items or parsed.variants):
            at = (parsed.items or parsed.variants)[0].pos
            problems.append(Diagnostic(at.file, at.line, at.col, "a file in scenarios/ holds `scenario` blocks only",
                                       "put game parts in the game's files and variants in variants/: "
                                       "simulate and play do not read scenarios/"))
        src.sources[parsed.pos.file] = text
        src.items.extend(parsed.items)
        for v in parsed.variants:
            if v.name in src.variants:
                problems.append(Diagnostic(v.pos.file, v.pos.line, v.pos.col, f"variant '{v.name}' is defined twice"))
            src.variants[v.name] = v
        src.scenarios.extend(parsed.scenarios)
    if problems:
        raise RulesError(problems, src.sources)
    return src


def add_variant_files(src: RulesetSource, refs: Sequence[str]) -> list[str]:
    """Reads the refs that are .rules files into `src` (their variants, and scenarios to test them) and
    returns the names of the variants to apply, in order, each once."""
    names: list[str] = []
    for ref in refs:
        if not is_variant_file(ref):
            if ref.endswith(".rules"):
                raise UnknownVariantError(f"no variant file '{ref}'")
            names.append(ref)
            continue
        file = display_name(Path(ref))
        if file not in src.sources:
            _read_variant_file(src, ref, file)
        names += [name for name in src.variant_files if src.variants[name].pos.file == file]
    return list(dict.fromkeys(names))


def _read_variant_file(src: RulesetSource, ref: str, file: str) -> None:
    parsed, text = parse_file(Path(ref), file)
    src.sources[file] = text
    if parsed.items or not parsed.variants:
        at = parsed.items[0].pos if parsed.items else A.Pos(file=file, line=1, col=1)
        raise RulesError([Diagnostic(file, at.line, at.col, "a variant file holds `variant` and `scenario` blocks only",
                                     "write `variant NAME { title de \"…\" en \"…\" add … }`; "
                                     "a base-game part goes after `add` or `replace`")], {file: text})
    for v in parsed.variants:
        if v.name in src.variants:
            first = src.variants[v.name].pos
            raise RulesError([Diagnostic(file, v.pos.line, v.pos.col,
                                         f"variant '{v.name}' is defined twice (first at {first.file}:{first.line})",
                                         "give your variant a name of its own")], {file: text})
        src.variants[v.name] = v
        src.variant_files[v.name] = ref
    src.scenarios.extend(parsed.scenarios)


def _named(key: tuple[str, str]) -> str:
    """How a message names a part: `rule 'x'`, or just `score` for the parts a game has once."""
    return f"{key[0]} '{key[1]}'" if key[1] else f"`{key[0]}`"


def _index(items: list[A.Node]) -> dict[tuple[str, str], int]:
    index: dict[tuple[str, str], int] = {}
    for i, item in enumerate(items):
        key = part_key(item, index)
        if key in index:
            first = items[index[key]].pos
            raise error_at(item.pos, f"{_named(key)} is defined twice (first at {first.file}:{first.line})")
        index[key] = i
    return index


def _round(items: list[A.Node], at: A.Pos) -> tuple[int, A.RoundDef]:
    for i, item in enumerate(items):
        if isinstance(item, A.RoundDef):
            return i, item
    raise error_at(at, "the base game has no `round` to change phases of")


def _claim(touched: dict[tuple[str, str], str], key: tuple[str, str], variant: str, pos: A.Pos,
           holders: Sequence[tuple[str, str]] = ()) -> None:
    """Marks a part as changed by a variant. Another variant may not change it too, nor its named
    steps, nor (for a step) the action, rule or phase that holds it (`holders`: the candidates)."""
    checks = [(key, key), ((f"steps of {key[0]}", key[1]), key)] + [(h, h) for h in holders]
    for mark, named in checks:
        other = touched.get(mark)
        if other is not None and other != variant:
            raise VariantConflict([Diagnostic(pos.file, pos.line, pos.col,
                                              f"variants '{other}' and '{variant}' both change {_named(named)}",
                                              "they cannot be combined; write a variant that makes both changes")])
    touched[key] = variant
    for holder in holders:
        touched[(f"steps of {holder[0]}", holder[1])] = variant


def _change_step(items: list[A.Node], op: A.VariantOp, variant: str,
                 touched: dict[tuple[str, str], str]) -> list[A.Node]:
    """Replaces, removes or adds one named step or requirement of an action, rule or phase."""
    kind = "require" if op.op.endswith("require") else "step"
    holders = [(part, str(op.owner)) for part in ("action", "rule", "phase")]
    _claim(touched, (kind, f"{op.owner}.{op.name}"), variant, op.pos, holders)
    part, owner = find_owner(items, op)
    changed = apply_step((part, owner), op)
    if part != "phase":
        return [changed if item is owner else item for item in items]
    ri, rnd = _round(items, op.pos)
    items[ri] = rnd.model_copy(update={"phases": [changed if p is owner else p for p in rnd.phases]})
    return items


def _apply(items: list[A.Node], variant: A.VariantDef, touched: dict[tuple[str, str], str]) -> list[A.Node]:
    items = list(items)
    for op in variant.ops:
        if op.op.endswith(("_step", "_require")):
            items = _change_step(items, op, variant.name, touched)
            continue
        index = _index(items)
        if op.op in ("add", "replace"):
            assert op.item is not None
            key = part_key(op.item, {} if op.op == "replace" else index)
            exists = key in index
            if op.op == "add" and exists:
                raise error_at(op.pos, f"{_named(key)} exists already", "use `replace` to change it")
            if op.op == "replace" and not exists:
                names = [k[1] for k in index if k[0] == key[0]]
                raise error_at(op.pos, f"there is no {_named(key)} to replace", did_you_mean(key[1], names))
        elif op.op == "remove":
            assert op.part is not None and op.name is not None
            key = (op.part, op.name)
            if key not in index and op.part != "phase":
                names = [k[1] for k in index if k[0] == op.part]
                raise error_at(op.pos, f"there is no {op.part} '{op.name}' to remove", did_you_mean(op.name, names))
        else:
            assert op.phase is not None
            key = ("phase", op.phase.name)
        _claim(touched, key, variant.name, op.pos)
        if op.op in ("add", "replace"):
            assert op.item is not None
            if op.op == "add":
                items.append(op.item)
            else:
                items[index[key]] = op.item
        elif op.op == "remove" and op.part != "phase":
            del items[index[key]]
        else:
            items = _change_phase(items, op)
    return items


def _change_phase(items: list[A.Node], op: A.VariantOp) -> list[A.Node]:
    ri, rnd = _round(items, op.pos)
    phases = list(rnd.phases)
    names = [p.name for p in phases]
    target = op.name if op.op != "add_phase" else op.anchor
    assert target is not None
    if target not in names:
        raise error_at(op.pos, f"there is no phase '{target}'", did_you_mean(target, names))
    at = names.index(target)
    if op.op == "add_phase":
        assert op.phase is not None
        if op.phase.name in names:
            raise error_at(op.pos, f"phase '{op.phase.name}' exists already", "use `replace phase` to change it")
        phases.insert(at if op.position == "before" else at + 1, op.phase)
    elif op.op == "replace_phase":
        assert op.phase is not None
        phases[at] = op.phase
    else:
        del phases[at]
    items[ri] = rnd.model_copy(update={"phases": phases})
    return items


def apply_variants(src: RulesetSource, names: Sequence[str]) -> list[A.Node]:
    """The base items with each named variant laid over them, in the order given."""
    items = list(src.items)
    if not any(isinstance(i, A.GameDef) for i in items):
        first = next(iter(src.sources), str(src.folder))
        raise RulesError([Diagnostic(first, 1, 1, "no `game` definition found",
                                     'a ruleset starts with game NAME { title de "…" en "…" players N to M }')])
    _index(items)
    touched: dict[tuple[str, str], str] = {}
    for name in names:
        if name not in src.variants:
            hint = did_you_mean(name, src.variants) or f"variants: {', '.join(sorted(src.variants)) or 'none'}"
            raise UnknownVariantError(f"ruleset '{src.name}' has no variant '{name}'; {hint}")
        items = _apply(items, src.variants[name], touched)
    return items


def validate_source(src: RulesetSource, extra: Optional[list[Any]] = None) -> None:
    """Checks that need no compiling: every display text in each language the game declares."""
    nodes: list[Any] = list(src.items) + list(src.variants.values()) + list(src.scenarios) + (extra or [])
    check_texts(nodes, languages_of(src.items))
    check_definitions(nodes)
