"""Named steps and requirements inside actions, rules and phases: finding them, checking that their
names are unique per owner, and the variant operations that replace, remove or add one of them."""
from __future__ import annotations

from typing import Any, Callable, Optional, Union, get_args

from dsl import ast as A
from dsl.errors import Diagnostic, RulesError, did_you_mean, error_at

Named = Union[A.NamedStep, A.Require]
_STMTS = get_args(A.Stmt)
_KIND = {"replace_step": "step", "remove_step": "step", "add_step": "step", "replace_require": "require",
         "remove_require": "require"}


def named_in(body: list[Any]) -> list[Named]:
    """Every named step and named requirement in a body, nested ones included, in source order."""
    return [n for n in A.walk(body) if isinstance(n, A.NamedStep) or (isinstance(n, A.Require) and n.name)]


def kind_of(node: Named) -> str:
    """The keyword a variant uses for it: `step` or `require`."""
    return "step" if isinstance(node, A.NamedStep) else "require"


def owners(items: list[A.Node]) -> dict[str, list[tuple[str, Any]]]:
    """Actions, rules and phases by name, each as (part, item): the parts that can hold named steps."""
    found: dict[str, list[tuple[str, Any]]] = {}
    for item in items:
        if isinstance(item, (A.ActionDef, A.RuleDef)):
            found.setdefault(item.name, []).append(("action" if isinstance(item, A.ActionDef) else "rule", item))
        elif isinstance(item, A.RoundDef):
            for phase in item.phases:
                found.setdefault(phase.name, []).append(("phase", phase))
    return found


def duplicate_names(part: str, owner: Any) -> list[Diagnostic]:
    """A step or requirement name given twice in one action, rule or phase (a variant could not say which)."""
    seen: dict[str, A.Pos] = {}
    problems: list[Diagnostic] = []
    for node in named_in(owner.body):
        name = str(node.name)
        if name in seen:
            problems += error_at(node.pos, f"{part} '{owner.name}' names two steps or requirements '{name}' "
                                 f"(first at line {seen[name].line})", "give each its own name").diagnostics
        seen.setdefault(name, node.pos)
    return problems


def find_owner(items: list[A.Node], op: A.VariantOp) -> tuple[str, Any]:
    """The action, rule or phase a step operation addresses; unknown or ambiguous names are load errors."""
    found = owners(items)
    name = str(op.owner)
    if name not in found:
        raise error_at(op.pos, f"there is no action, rule or phase '{name}'", did_you_mean(name, found))
    if len(found[name]) > 1:
        parts = " and ".join(f"{p} '{name}'" for p, _ in found[name])
        raise error_at(op.pos, f"'{name}' names both {parts}", "rename one of them to address its steps")
    return found[name][0]


def _edit(body: list[Any], name: str, change: Callable[[Named], list[Any]]) -> list[Any]:
    """The body with the named step or requirement `name` (at any depth) replaced by `change(it)`."""
    out: list[Any] = []
    for stmt in body:
        if isinstance(stmt, (A.NamedStep, A.Require)) and stmt.name == name:
            out.extend(change(stmt))
            continue
        update = {field: _edit(value, name, change) for field in type(stmt).model_fields
                  if isinstance(value := getattr(stmt, field), list) and value and isinstance(value[0], _STMTS)}
        out.append(stmt.model_copy(update=update) if update else stmt)
    return out


_WORD = {"step": "step", "require": "requirement"}


def _missing(part: str, item: Any, op: A.VariantOp, target: str, named: dict[str, Named]) -> RulesError:
    """No step or requirement of that name (and kind): the error, with the closest name as a hint."""
    kind = _KIND[op.op]
    anchor = op.op == "add_step"
    found = named.get(target)
    same = [n for n, node in named.items() if anchor or kind_of(node) == kind]
    if found is not None:
        hint = f"'{target}' is a {_WORD[kind_of(found)]}: write `{op.op.split('_')[0]} {kind_of(found)} " \
               f"{item.name}.{target}`"
    elif same:
        hint = did_you_mean(target, same)
    else:
        hint = f"name one in the {part}, as in " + ("`step NAME { … }`" if kind == "step" else "`require COND as NAME`")
    what = "step or requirement" if anchor else _WORD[kind]
    return error_at(op.pos, f"{part} '{item.name}' has no {what} '{target}'", hint)


def apply_step(owner: tuple[str, Any], op: A.VariantOp) -> Any:
    """The owner with one step or requirement replaced, removed or added; the addressed name must exist
    (with the operation's kind) and an added name must be new."""
    part, item = owner
    named = {str(n.name): n for n in named_in(item.body)}
    target = str(op.anchor if op.op == "add_step" else op.name)
    if op.op == "add_step" and str(op.name) in named:
        raise error_at(op.pos, f"{part} '{item.name}' has a step or requirement '{op.name}' already",
                       "use `replace step` to change it")
    found = named.get(target)
    if found is None or (op.op != "add_step" and kind_of(found) != _KIND[op.op]):
        raise _missing(part, item, op, target, named)
    new = op.stmt
    if new is None:
        body = _edit(item.body, target, lambda old: [])
    elif op.op == "add_step":
        body = _edit(item.body, target, lambda old: [new, old] if op.position == "before" else [old, new])
    else:
        body = _edit(item.body, target, lambda old: [new])
    changed = item.model_copy(update={"body": body})
    problems = duplicate_names(part, changed)
    if problems:
        raise error_at(op.pos, problems[0].message, "give the new step's inner steps and requirements other names")
    return changed


def named_part(owner: Any, name: str) -> Optional[Named]:
    """The step or requirement of that name in an action, rule or phase, if it has one."""
    return next((n for n in named_in(owner.body) if n.name == name), None)
