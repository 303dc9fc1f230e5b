"""Hoists what a generated option enumerator reads again and again into local names: the state's lists
and the game's tables (read once per call instead of once per option), card reads that cannot fail
and that a level's conditions repeat (read once per binding), and its frame slots (plain locals)."""
from __future__ import annotations

import re

from interpreter.compile.expressions import _STRING

# the state's lists (and its family cache) that generated code reads but never rebinds: an enumerator changes
# nothing, a block runner only their items
_STATE_LISTS = ("zones", "where", "card_vals", "owner", "face_up", "known", "pvars", "gvars", "fam_cards")
_STATE_READ = re.compile(r"\bst\.(?:game\.(\w+)|(" + "|".join(_STATE_LISTS) + r")\b)(?!\w|\s*\()")
_NAME = r"(?:L\[\d+\]|_p\d+)"
# reads of a bound card that cannot fail: its zone, that zone's number, a field of its row, its owner
_BOUND_NAME = re.compile(_NAME)
_CARD_READ = re.compile(rf"st\.game\.zone_number\[st\.where\[{_NAME}\]\]|st\.where\[{_NAME}\]"
                        rf"|st\.card_vals\[{_NAME}\]\[\d+\]|st\.owner\[{_NAME}\]")


def _sub_code(line: str, pattern: re.Pattern[str], repl: object) -> str:
    """Substitutes outside string literals only."""
    parts = _STRING.split(line)
    for i in range(0, len(parts), 2):
        parts[i] = pattern.sub(repl, parts[i])  # type: ignore[call-overload]
    return "".join(parts)


def hoist_state_reads(body: list[str]) -> list[str]:
    """`body`: the enumerator's lines after its `def`; returns them reading `_s_…`/`_g_…` locals, set first."""
    out, used = state_reads_as_locals(body)
    pad = body[0][:len(body[0]) - len(body[0].lstrip())]
    return [f"{pad}{name} = {read}" for name, read in used.items()] + out


def state_reads_as_locals(body: list[str]) -> tuple[list[str], dict[str, str]]:
    """The lines reading the state's lists and the game's tables as `_s_…`/`_g_…` locals, and those
    locals with what each must be set to; only for code during which no such list is replaced."""
    used: dict[str, str] = {}

    def local(m: re.Match[str]) -> str:
        name = f"_g_{m.group(1)}" if m.group(1) else f"_s_{m.group(2)}"
        used[name] = m.group(0)
        return name

    return [_sub_code(line, _STATE_READ, local) for line in body], used


def hoist_card_reads(lines: list[str], pad: str, tag: str, bound: set[str]) -> list[str]:
    """A level's conditions with the card reads they make more than once read once, before them; only
    reads of a card in `bound` (names set before the level's lines: its own `let`s come later)."""
    counts: dict[str, int] = {}
    for line in lines:
        for part in _STRING.split(line)[::2]:
            for m in _CARD_READ.finditer(part):
                if _BOUND_NAME.search(m.group(0)).group(0) in bound:  # type: ignore[union-attr]
                    counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    names = {read: f"_r{tag}_{k}" for k, read in enumerate(r for r, n in counts.items() if n > 1)}
    if not names:
        return lines
    pattern = re.compile("|".join(re.escape(r) for r in sorted(names, key=len, reverse=True)))
    return ([f"{pad}{name} = {read}" for read, name in names.items()]
            + [_sub_code(line, pattern, lambda m: names[m.group(0)]) for line in lines])


_SLOT = re.compile(r"\bL\[(\d+)\]")


def slots_as_locals(body: list[str], names: dict[int, str]) -> list[str]:
    """The enumerator's frame slots `L[n]` as Python locals: `names` for the deciding seat and the
    parameters (their loop variables), `_ln` for the rest (its `let`s); no frame list is needed."""
    return [_sub_code(line, _SLOT, lambda m: names.get(int(m.group(1)), f"_l{m.group(1)}")) for line in body]
