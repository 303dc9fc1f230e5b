"""Hoists what a generated option enumerator reads again and again into local names: the state's lists
and the game's tables (read once per call instead of once per option), card reads that cannot fail
and that a level's conditions repeat (read once per binding), and its frame slots (plain locals)."""
from __future__ import annotations

import ast
import copy
import re
from bisect import bisect_left
from types import CodeType
from typing import Any, Callable, Iterator, Optional, Union

from interpreter.compile.astwalk import OWN_SCOPE, pure, walked
from interpreter.compile.code_cache import compiled
from interpreter.compile.lowering import (cheaper_forms, frame_as_locals, kept_at_first_use, kept_value,
                                          lowered_function)
from interpreter.compile.primitives import FAMILY_CARDS
from interpreter.compile.reuse import reused

STRING_LITERAL = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")  # repr's quoting
# the state's lists (its family cache, counts by owner and log too, and whether the log keeps its entries)
# that generated code reads but never rebinds: an enumerator changes nothing, a block runner only their items
# (State.recount sets the counts between runs, play_bots the log's flag before it); a family's list of counts by owner
# is read as one (`st.owned[5]`: blocks.no_owned sets it in place)
_STATE_LISTS = ("zones", "where", "card_vals", "owner", "known", "pvars", "gvars", "fam_cards", "owned",
                "log", "keep_log")
_STATE_READ = re.compile(r"\bst\.(?:game\.(?:field_col\[\d+\]|\w+)|owned\[\d+\]|(" + "|".join(_STATE_LISTS)
                         + r")\b)(?!\w|\s*\()")
_NAME = r"(?:L\[\d+\]|_p\d+)"
# reads of a bound card that cannot fail: its zone, that zone's number, a field of its row, its owner
_BOUND_NAME = re.compile(_NAME)
_CARD_READ = re.compile(rf"st\.game\.zone_number\[st\.where\[{_NAME}\]\]|st\.where\[{_NAME}\]"
                        rf"|st\.card_vals\[{_NAME}\]\[\d+\]|st\.game\.field_col\[\d+\]\[{_NAME}\]|st\.owner\[{_NAME}\]")


# the game's tables that stay as they are once it is built (Game.__init__; runners, listers and rules are filled, never
# replaced): block runners, option listers and functions that run through are made per game with them bound as
# their parameters' defaults (blocks._runner_code, made_for_game), not read at each entry
GAME_TABLES = ("num_players", "players", "next_seat", "no_counts", "all_mask", "card_ids", "card_index", "card_vals", "code",
               "op_pos", "runners", "gens", "listers", "restricted", "rules", "effect_runs", "nlocals", "mod_field", "mod_rows", "mods_nest", "labels",
               "consts", "fam_zones", "zone_names", "zone_number", "zone_player", "zone_mask", "zone_shuffled",
               "zone_public", "zone_cap", "zone_family", "fam_span", "fam_few", "fam_place", "fam_at", "fam_numbers",
               "fam_full", "field_col", "start_zones", "start_where", "max_outcomes", "program")
_GAME_TABLE = re.compile(r"\bst\.game\.(" + "|".join(GAME_TABLES) + r")\b(?!\s*\()")
# an entry of a table at a constant index that every game has (a family's, a constant's, a rule's function, a `choose
# action`'s lister, a table of effects; a single zone's id, expressions.e_Name: its family's first): bound itself
_GAME_ENTRY = re.compile(r"\bst\.game\.(?:(fam_zones|fam_few|consts|rules|listers|restricted|effect_runs)\[(\d+)\]"
                         r"(?:\[(0)\])?"
                         r"|(fam_place|fam_at|fam_numbers|fam_full|field_col)\[(\d+)\])")
# a table the game makes for a family or an action when asked (Game.places, seat_zones, zone_at, option_rows, place_rows,
# zone_rows, card_rows): bound itself too
_GAME_MADE = re.compile(r"\bst\.game\.(places|seat_zones|zone_at|option_rows|place_rows|zone_rows|card_rows)"
                        r"\((\d+(?:, \d+)*)\)")
# a call of a rules function that reads the game (expressions._function: `_fg_NAME`, in the generated code's globals,
# reads_game): its game's own (Game.fns) bound under the same name
_FUNCTION_CALL = re.compile(r"\b_fg_(\w+)\(")


def sub_code(line: str, pattern: re.Pattern[str], repl: object) -> str:
    """Substitutes outside string literals only."""
    parts = STRING_LITERAL.split(line)
    for i in range(0, len(parts), 2):
        parts[i] = pattern.sub(repl, parts[i])  # type: ignore[call-overload]
    return "".join(parts)


def game_tables_bound(lines: list[str]) -> tuple[list[str], dict[str, str]]:
    """The lines reading the game's tables (GAME_TABLES), their entries at a constant index (_GAME_ENTRY) and the
    tables it makes (_GAME_MADE) as `_g_…` names, and those names with what they hold (`fam_zones`, `fam_zones[4]`,
    `fam_zones[1][0]`, `places(5)`; a rules function it calls, `_fg_NAME`, keeps its name: `fns['NAME']`), for a
    function made for one game (outside string literals: an error's message reads them as it is)."""
    bound: dict[str, str] = {}

    def name(m: re.Match[str]) -> str:
        parts = [part for part in m.groups() if part]
        local = "_".join(["_g", *parts])
        bound[local] = parts[0] + "".join(f"[{index}]" for index in parts[1:])
        return local

    def made(m: re.Match[str]) -> str:
        local = f"_g_{m[1]}_{m[2].replace(', ', '_')}"
        bound[local] = f"{m[1]}({m[2]})"
        return local

    def function(m: re.Match[str]) -> str:
        bound[f"_fg_{m[1]}"] = f"fns[{m[1]!r}]"
        return m.group(0)

    return [sub_code(sub_code(sub_code(sub_code(line, _FUNCTION_CALL, function), _GAME_MADE, made), _GAME_ENTRY, name),
                     _GAME_TABLE, name) for line in lines], bound


def reads_game(src: str) -> bool:
    """Whether generated code reads a table of its game (GAME_TABLES, _GAME_MADE) or calls a function that does: a
    rules function made for each game (Game.fns) then spares those reads at every call, a call of it costing one
    bytecode more than a global's (the function a local)."""
    return any(pattern.search(src) for pattern in (_GAME_TABLE, _GAME_MADE, _FUNCTION_CALL))


def made_for_game(src: str, bound: dict[str, str]) -> str:
    """A generated function (`def f(st, …):` and its body) inside `def make(_g):`, which returns it for the game
    `_g` with the tables `bound` (game_tables_bound) as its parameters' defaults: set by each call, no bytecode."""
    head, *body = src.split("\n")
    defaults = "".join(f", {name}=_g.{table}" for name, table in sorted(bound.items()))
    return "\n".join(["def make(_g):", f"    {head[:-2]}{defaults}):", *("    " + ln for ln in body),
                      f"    return {head[4:head.index('(')]}"])


def local_name(read: str) -> str:
    """The local that holds a read of the state's list (`st.x`: `_s_x`, `st.owned[5]`: `_s_owned_5`) or of the game's
    table (`_g_x`; a field's column `st.game.field_col[1]`: `_g_field_col_1`, as game_tables_bound names it)."""
    name = f"_g_{read[8:]}" if read.startswith("st.game.") else f"_s_{read[3:]}"
    return name.replace("[", "_").rstrip("]")


def state_reads_as_locals(body: list[str], only: Optional[set[str]] = None) -> tuple[list[str], dict[str, str]]:
    """The lines reading the state's lists and the game's tables as `_s_…`/`_g_…` locals (those in `only`,
    if given), and those locals with what each must be set to; only for code during which no such list is
    replaced."""
    return _reads_as_locals([_scanned(line) for line in body], only)


# a line split at its string literals, each part with the reads (_STATE_READ) it makes (none in a literal)
_Scanned = list[tuple[str, list[re.Match[str]]]]


def _scanned(line: str) -> _Scanned:
    """The line's parts and their reads: found once, for their weights (_weights) and their locals."""
    return [(part, [] if i % 2 else list(_STATE_READ.finditer(part))) for i, part in enumerate(STRING_LITERAL.split(line))]


def _reads_as_locals(lines: list[_Scanned], only: Optional[set[str]]) -> tuple[list[str], dict[str, str]]:
    """state_reads_as_locals of lines already _scanned."""
    used: dict[str, str] = {}
    out = []
    for line in lines:
        text = []
        for part, reads in line:
            at = 0
            for m in reads:
                read = m.group(0)
                if only is None or read in only:
                    name = local_name(read)
                    used[name] = read
                    text += [part[at:m.start()], name]
                    at = m.end()
            text.append(part[at:])
        out.append("".join(text))
    return out, used


def hoist_function_reads(src: str) -> str:
    """A generated expression's function (`def _fn(st, …):` and its body) with the state's lists and the game's
    tables that it reads more than once, or in a loop, read once into locals first: an expression changes
    nothing, so none is replaced while it runs (a read made once stays as it is: a local would cost more)."""
    head, *body = src.split("\n")
    if not head.startswith("def _fn(st"):
        return src
    return "\n".join([head, *repeated_reads_as_locals(body, "    ")])


def repeated_reads_as_locals(body: list[str], pad: str) -> list[str]:
    """The lines of a function's body (`pad`: its indent) with the state's lists that they read three times or
    more, or in a loop, and the game's tables read twice or more, read once into locals first (the game itself
    too, where four tables are: a local costs its setting, and a list read inline is one attribute, a table two);
    only for code during which no such list is replaced."""
    scanned = [_scanned(line) for line in body]
    weight = _weights(body, scanned)
    repeated = {read for read, n in weight.items() if n >= (2 if read.startswith("st.game.") else 3)}
    if not repeated:
        return body
    lines, used = _reads_as_locals(scanned, repeated)
    return [pad + ln for ln in locals_set(used, 3)] + lines


def locals_set(reads: dict[str, str], tables: int, ready: bool = False) -> list[str]:
    """The statements setting the locals `reads` (name → read), reading the game once first (`_g = st.game`) where
    more than `tables` of its tables are read; `ready`: `_g` is set already, read through it."""
    game = ready or sum(read.startswith("st.game.") for read in reads.values()) > tables
    return ([] if ready or not game else ["_g = st.game"]) + [
        f"{name} = {read.replace('st.game.', '_g.') if game else read}" for name, read in reads.items()]


def _weights(body: list[str], scanned: list[_Scanned], looped: bool = False) -> dict[str, int]:
    """How often the lines (with their reads, _scanned) read each of the state's lists and the game's tables: a
    read inside a loop or a comprehension counts 3, as does every read where the lines run in a loop themselves
    (`looped`)."""
    weight: dict[str, int] = {}
    loops: list[int] = []  # the indents of the loop statements around a line
    for line, parts in zip(body, scanned):
        indent = len(line) - len(line.lstrip())
        while loops and indent <= loops[-1]:
            loops.pop()
        for part, reads in parts:
            for m in reads:
                weight[m.group(0)] = weight.get(m.group(0), 0) + (3 if looped or loops or " for " in part else 1)
        if line.lstrip().startswith(("for ", "while ")):
            loops.append(indent)
    return weight


def runner_reads_as_locals(arms: list[list[str]], units: list[int], looped: list[bool], forced: dict[int, list[str]]
                           ) -> tuple[list[list[str]], dict[str, str], dict[int, dict[str, str]]]:
    """A block runner's arms (their statements), each in a unit (`units`: an arm, or the arms a jump back runs again,
    as one loop; `looped`: the arms that run again) reading the state's lists and the game's tables they read twice or
    more, or in a loop, as locals: set at the runner's head where more than one unit reads it, else as the unit that
    does starts (an entry past the unit sets none); a read made once stays inline. `forced`: per arm, the reads it must
    have as locals (code lowered later names them). Returns the arms, the head's locals and each unit's, with what each
    must be set to; only for code during which no such list is replaced."""
    scanned = [[_scanned(line) for line in arm] for arm in arms]
    weights: dict[int, dict[str, int]] = {}
    for a, (arm, unit) in enumerate(zip(arms, units)):
        w = weights.setdefault(unit, {})
        for read, n in _weights(arm, scanned[a], looped[a]).items():
            w[read] = w.get(read, 0) + n
        for read in forced.get(a, ()):
            w[read] = w.get(read, 0) + 3
    total: dict[str, int] = {}
    for w in weights.values():
        for read, n in w.items():
            total[read] = total.get(read, 0) + n
    kept = {read for read, n in total.items() if n >= 2}
    head = {read for read in kept if sum(read in w for w in weights.values()) > 1}
    out: list[list[str]] = []
    used: dict[str, str] = {}
    own: dict[int, dict[str, str]] = {}
    for a, unit in enumerate(units):
        mine = {read for read in weights[unit] if read in kept and read not in head}
        lines, names = _reads_as_locals(scanned[a], head | mine)
        names.update((local_name(read), read) for read in forced.get(a, ()))
        used.update((name, read) for name, read in names.items() if read in head)
        own.setdefault(unit, {}).update((name, read) for name, read in names.items() if read in mine)
        out.append(lines)
    return out, used, own


def hoist_card_reads(lines: list[str], pad: str, tag: str, bound: set[str],
                     deeper: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """A level's conditions with the card reads they make more than once, or that the `deeper` levels (run for
    each item of the loops inside) make, read once, before them; only reads of a card in `bound` (names set
    before the level's lines: its own `let`s come later). Returns the level's lines and the deeper levels."""
    counts: dict[str, int] = {}
    for weight, level in [(1, lines)] + [(2, d) for d in deeper]:
        for line in level:
            for part in STRING_LITERAL.split(line)[::2]:
                for m in _CARD_READ.finditer(part):
                    if _BOUND_NAME.search(m.group(0)).group(0) in bound:  # type: ignore[union-attr]
                        counts[m.group(0)] = counts.get(m.group(0), 0) + weight
    names = {read: f"_r{tag}_{k}" for k, read in enumerate(r for r, n in counts.items() if n > 1)}
    if not names:
        return lines, deeper
    pattern = re.compile("|".join(re.escape(r) for r in sorted(names, key=len, reverse=True)))
    return ([f"{pad}{name} = {read}" for read, name in names.items()]
            + [sub_code(line, pattern, lambda m: names[m.group(0)]) for line in lines],
            [[sub_code(line, pattern, lambda m: names[m.group(0)]) for line in level] for level in deeper])


# what every option of a call reads alike: the deciding seat's variables and the game's variables (its constants
# are the lister's defaults: game_tables_bound)
_CALL_READ = re.compile(r"st\.pvars\[L\[0\]\]\[\d+\]|st\.gvars\[\d+\]")


def hoist_call_reads(loops: list[str], pad: str) -> tuple[list[str], list[str]]:
    """The reads the enumerator's loops make of what is the same for every option (_CALL_READ: a read that
    cannot fail, of what listing never changes), each read once before the loops into `_k…`: those
    assignments, at `pad`, and the loops reading the locals."""
    names: dict[str, str] = {}

    def local(m: re.Match[str]) -> str:
        return names.setdefault(m.group(0), f"_k{len(names)}")

    loops = [sub_code(line, _CALL_READ, local) for line in loops]
    return [f"{pad}{name} = {read}" for read, name in names.items()], loops


_SLOT = re.compile(r"\bL\[(\d+)\]")


_ALIAS = re.compile(r"\s*L\[(\d+)\] = (L\[\d+\]|_n\d+)")  # a `let` of a parameter or of a card's place


def slots_as_locals(body: list[str], names: dict[int, str]) -> list[str]:
    """The enumerator's frame slots `L[n]` as Python locals: `names` for the deciding seat and the
    parameters (their loop variables), `_ln` for the rest (its `let`s); no frame list is needed. A `let`
    set once, to a name that stays as it is while the let's level runs, is that name (no line sets it)."""
    names = dict(names)
    sets = [m.group(1) for line in body for m in re.finditer(r"\bL\[(\d+)\] = ", line)]

    def local(m: re.Match[str]) -> str:
        return names.get(int(m.group(1)), f"_l{m.group(1)}")

    out = []
    for line in body:
        alias = _ALIAS.fullmatch(line)
        if alias and sets.count(alias.group(1)) == 1 and alias.group(2)[2:-1] not in sets:
            names[int(alias.group(1))] = sub_code(alias.group(2), _SLOT, local)
            continue
        out.append(sub_code(line, _SLOT, local))
    return out


# ================================================================== places known to exist

# a place of a family checked against the family's size (expressions.e_Index), and the first or last item of
# a plain read (expressions._end_item_inline) that may name such a place
CHECKED_PLACE = re.compile(r"\(st\.game\.fam_place\[(\d+)\]\[(\w+)\] if \2 in st\.game\.fam_place\[\1\] "
                            r"else _member\(st, \1, \2, '\w+', _at\d+\)\)")
PICK_READ = re.compile(r"_pick\(((?:[\w.\[\]]| - 1\]|zone_at\(\d+\))+), (-?\d+), ('\w+', _at\d+)\)")


_PLACE_LOOPS = (re.compile(r"for (_p\d+) in st\.game\.fam_numbers\[(\d+)\]:$"),  # positions(F)
                re.compile(r"for _z(\d+) in st\.game\.fam_zones\[(\d+)\]:$"))  # card_loop: its _n is the place
# a place's row of options, read in the loop over the places (compiler._action)
_PLACE_ROW = re.compile(r"_row(\d+) = st\.game\.option_rows\(\1\)\[(_p\d+)\] "
                        r"or _optrow\(st\.game\.option_rows\(\1\), \1, \2, \d+\)")


def known_places(lines: list[str], sizes: dict[int, str]) -> list[str]:
    """The enumerator's lines (frame slots as locals) with a place `F[x]` read without its check where x holds a
    place of a family whose size is F's (`sizes`: family → the code of its size; the same code gives the same
    size, as it reads only the game), as the loop's zone `_z…` where x is the place of that loop's zone in F (in
    another family: the game's table of F's zone at each zone's place, one lookup), and the end item of such a place
    read inline, the helper called only to fail on an empty zone."""
    places: dict[str, str] = {}
    zones: dict[str, tuple[str, str]] = {}  # the place of a card loop's zone → its family and that zone
    for line in lines:
        text = line.strip()
        for k, loop in enumerate(_PLACE_LOOPS):
            m = loop.match(text)
            if m and int(m.group(2)) in sizes:
                places[m.group(1) if k == 0 else f"_n{m.group(1)}"] = sizes[int(m.group(2))]
                if k:
                    zones[f"_n{m.group(1)}"] = m.group(2), f"_z{m.group(1)}"

    def place(m: re.Match[str]) -> str:
        known = places.get(m.group(2))
        if known is None or known != sizes.get(int(m.group(1))):
            return m.group(0)
        if m.group(2) in zones:  # a card loop's place: its zone, or the zone of another family there (Game.zone_at)
            family, zone = zones[m.group(2)]
            return zone if family == m.group(1) else f"st.game.zone_at({m.group(1)})[{zone}]"
        return f"st.game.fam_at[{m.group(1)}][{m.group(2)}]"

    lines = [end_items_inline(_sub_spanning(line, CHECKED_PLACE, place)) for line in lines]
    unread = [n for n in zones if not any(re.search(rf"\b{n}\b(?! = )", line) for line in lines)]
    return _places_enumerated([ln for ln in lines if ln.strip().split(" = ")[0] not in unread])  # a number read nowhere


def end_items_inline(code: str) -> str:
    """Code with each first or last item of a plain read (PICK_READ) read inline, its list read once, the helper
    called only to fail: `(Z or _pick((), i, …))[i]` (fewer bytecodes and a shorter body than a conditional)."""
    def pick(m: re.Match[str]) -> str:
        return f"({m.group(1)} or _pick((), {m.group(2)}, {m.group(3)}))[{m.group(2)}]"

    return _sub_spanning(code, PICK_READ, pick)


def end_items_once(src: str) -> str:
    """Generated functions with each end item still read by the helper read inline (end_items_inline's form); each
    entry of a map held in a local M whose key K is computed (`_mapget(M, K, at)`) looked up inline, the helper
    called only to fail: `M[_m] if (_m := K) in M else _mapget(M, _m, at)`; and two lists joined inline while within
    the budget (_InlineReads._joined)."""
    tree = _end_items_tree(src, True)
    return src if tree is None else ast.unparse(tree)


def end_items_code(src: str, inline_too: bool = True) -> Union[str, CodeType]:
    """end_items_once's functions ready for exec: compiled from the changed tree (no source written out again), or
    the source as it was; without `inline_too`, also where every helper call only fails (calls_helpers): there the
    parse costs the load more than reading a list once instead of twice spares."""
    tree = _end_items_tree(src, inline_too)
    return src if tree is None else compile(tree, "<string>", "exec")


def pure_function_code(src: str) -> Union[str, CodeType]:
    """end_items_code (without inline_too) of generated functions that change nothing (a rule's function, an
    expression's), each value they compute again read from its first computation (reuse.values_reused)."""
    tree = _end_items_tree(src, False) or ast.parse(src)
    cheaper_forms(tree)
    reused(tree)
    return compile(ast.fix_missing_locations(tree), "<string>", "exec")


def reused_code(src: str) -> CodeType:
    """The code of generated functions that change nothing, lowered (lowering.lowered_function), each value they
    compute again read from its first computation (reuse.values_reused)."""
    tree = ast.parse(lowered_function(src))
    reused(tree)
    return compile(ast.fix_missing_locations(tree), "<string>", "exec")


def _end_items_tree(src: str, inline_too: bool) -> Optional[ast.Module]:
    """The tree of `src` changed by end_items_in, or None where it has nothing to change (see end_items_code)."""
    if not (reads_end_items(src) if inline_too else calls_helpers(src)):
        return None
    tree = ast.parse(src)
    return ast.fix_missing_locations(tree) if end_items_in(tree) else None


def lister_code(src: str) -> CodeType:
    """end_items_code's code of a generated lister or picker (compiler._enumerator), its actions' `try`s one (one_try),
    each value it computes again read from its first computation (reuse.values_reused: listing changes nothing)."""
    tree = _end_items_tree(src, True) or ast.parse(src)
    one_try(tree)
    failing_helpers_bound(tree)
    reused(tree)
    return compile(ast.fix_missing_locations(tree), "<string>", "exec")


FAILING_HELPER = re.compile(r"_at\d+|_pick|_mapget|_member")  # the helpers called only to fail, their positions


def failing_helpers_bound(tree: ast.Module) -> None:
    """made_for_game's function with the helpers it calls only to fail, and their positions, bound as its parameters'
    defaults: a local's read is one code unit where a global's is six, and these sit in loop bodies, whose jumps
    cost an EXTENDED_ARG per run once a body is over 255 units (none read inside a comprehension: a cell costs)."""
    func = tree.body[0].body[0]  # type: ignore[attr-defined]
    names: set[str] = set()
    inner: set[str] = set()
    todo: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in func.body]
    while todo:
        node, nested = todo.pop()
        if isinstance(node, ast.Name) and FAILING_HELPER.fullmatch(node.id):
            (inner if nested else names).add(node.id)
        todo.extend((child, nested or isinstance(node, OWN_SCOPE)) for child in ast.iter_child_nodes(node))
    for name in sorted(names - inner):
        func.args.args.append(ast.arg(name))
        func.args.defaults.append(ast.Name(name, ast.Load()))


def one_try(tree: ast.Module) -> None:
    """The inner function's run of adjacent `try: … except GameRuleError as exc: raise exc.at(P) from None`, one per
    action, made one `try` whose handler finds P from the line that raised (the actions' statements keep their
    lines, in order) and whose `else` is the rest of the body: a `try` costs a NOP, and a jump over its handler, per
    call (the merged one neither: it starts on its first statement's line, its `else` on its last's)."""
    make = tree.body[0]  # made_for_game: `def make(_g):` around the function
    assert isinstance(make, ast.FunctionDef) and isinstance(make.body[0], ast.FunctionDef)
    func = make.body[0]
    start, tries, spots = 0, list[ast.Try](), list[ast.expr]()
    for k, stmt in enumerate(func.body):
        spot = _action_try(stmt)
        if spot is None and tries:
            break
        if spot is not None and isinstance(stmt, ast.Try):
            start = start if tries else k
            tries.append(stmt)
            spots.append(spot)
    if not tries:
        return
    handler = copy.copy(tries[0].handlers[0])
    raised = copy.copy(handler.body[0])
    assert isinstance(raised, ast.Raise) and isinstance(raised.exc, ast.Call) and handler.name is not None
    choice = spots[-1]
    for spot, after in zip(reversed(spots[:-1]), reversed(tries[1:])):
        choice = ast.IfExp(ast.Compare(ast.Name("_line", ast.Load()), [ast.Lt()], [ast.Constant(after.lineno)]), spot, choice)
    if isinstance(choice, ast.IfExp) and isinstance(choice.test, ast.Compare):  # the line read once, by the first test
        choice.test.left = ast.NamedExpr(ast.Name("_line", ast.Store()),
                                         ast.parse(f"{handler.name}.__traceback__.tb_lineno", mode="eval").body)
    raised.exc = ast.Call(raised.exc.func, [choice], [])
    handler.body = [raised]
    rest = func.body[start + len(tries):]
    merged = ast.Try([s for t in tries for s in t.body], [handler], rest, [])
    ast.copy_location(merged, merged.body[0])
    func.body[start:] = [merged]
    if rest:  # its first line said as the `try`'s last statement's: where that is a loop, its exit needs no NOP
        line, last = rest[0].lineno, merged.body[-1].lineno
        for node in ast.walk(rest[0]):
            if getattr(node, "lineno", None) == line and getattr(node, "end_lineno", None) == line:
                node.lineno = node.end_lineno = last  # type: ignore[attr-defined]


def _action_try(stmt: ast.stmt) -> Optional[ast.expr]:
    """The position P of a lister's `try: … except GameRuleError as exc: raise exc.at(P) from None`, else None."""
    if not (isinstance(stmt, ast.Try) and len(stmt.handlers) == 1 and not stmt.orelse and not stmt.finalbody):
        return None
    handler = stmt.handlers[0]
    raised = handler.body[0]
    if not (isinstance(handler.type, ast.Name) and handler.type.id == "GameRuleError" and len(handler.body) == 1
            and isinstance(raised, ast.Raise) and isinstance(raised.exc, ast.Call)
            and isinstance(raised.exc.func, ast.Attribute) and raised.exc.func.attr == "at"
            and len(raised.exc.args) == 1):
        return None
    return raised.exc.args[0]


def inline_function_code(body: list[str]) -> CodeType:
    """The code making, for a game (made_for_game), `def run(st, L):` with the lines `body` (indented): the game's
    tables its parameters' defaults (game_tables_bound), the state's lists it reads again as locals
    (repeated_reads_as_locals: it replaces none), its frame's slots as locals (frame_as_locals), lowered, its end
    items read inline where it calls a helper for them (end_items_code without inline_too), its statements in cheaper
    forms (cheaper_forms); kept between loads as lowering.function_code's is, under a key of its own."""
    def made() -> Union[str, CodeType]:
        lines, bound = game_tables_bound(body)
        src = "\n".join(["def run(st, L):", *repeated_reads_as_locals(lines, "    ")])
        whole = made_for_game(lowered_function(frame_as_locals(src)), bound)
        tree = _end_items_tree(whole, False) or ast.parse(whole)
        cheaper_forms(tree)
        reused(tree, False)
        return compile(ast.fix_missing_locations(tree), "<string>", "exec")

    return compiled("function\0" + "\n".join(body), made)


_HELPERS = ("_pick(", "_mapget(", "_concat(")  # the calls end_items_in reads inline


def reads_end_items(src: str) -> bool:
    """Whether generated code may have work for end_items_in."""
    return any(helper in src for helper in _HELPERS)


def calls_helpers(src: str) -> bool:
    """Whether generated code calls a helper of end_items_in for a value it does not read inline already, or checks a
    list's index inline (index_once): where the helpers are called only to fail, end_items_in would spare little."""
    return any(src.count(helper) > src.count("else " + helper) + src.count(" or " + helper) for helper in _HELPERS) \
        or "else _listget(" in src


def end_items_lines(src: str) -> Callable[[ast.AST], bool]:
    """end_items_in for the tree of `src` (or of code whose statements keep its lines), looking only into the statements
    on whose lines a helper is called: a runner is large, and most of its statements call none."""
    marked = [k for k, line in enumerate(src.split("\n"), 1) if any(helper in line for helper in _HELPERS)]
    return lambda tree: end_items_in(tree, marked)


def end_items_in(tree: ast.AST, marked: Optional[list[int]] = None) -> bool:
    """end_items_once on a parsed tree, changed in place (its new nodes without positions); whether it changed.
    `marked`: the lines (in order) that call a helper, where known: a statement on none of them is passed over."""
    found: list[tuple[ast.AST, str, int, ast.AST]] = []  # (parent, field, index or -1, node): the candidates, parents first
    reads = _InlineReads()
    todo = [tree]
    while todo:  # the nodes outside comprehensions and lambdas (a name set inside one is another scope's, or refused)
        node = todo.pop()
        for name in node._fields:
            value = getattr(node, name, None)
            for i, child in (enumerate(value) if isinstance(value, list) else ((-1, value),)):
                if not isinstance(child, ast.AST) or isinstance(child, OWN_SCOPE):
                    continue
                if marked is not None and isinstance(child, ast.stmt):
                    k = bisect_left(marked, child.lineno)
                    if k == len(marked) or marked[k] > (child.end_lineno or child.lineno):
                        continue
                if isinstance(child, ast.IfExp) and _calls(child.orelse, "_concat"):
                    reads.inline.add(id(child.orelse))  # read inline already: the helper only fails
                elif isinstance(child, ast.BoolOp) and _is_pick(child.values[-1]):
                    reads.inline.add(id(child.values[-1]))  # an end item read inline already (end_items_inline)
                if isinstance(child, (ast.IfExp, ast.Call)):
                    found.append((node, name, i, child))
                todo.append(child)
    for _, _, _, node in found:  # a list's index checked inline: worked out once
        if isinstance(node, ast.IfExp):
            reads.index_once(node)
    for parent, name, i, node in reversed(found):  # inner ones first: an outer one takes them along
        new = reads.rewritten(node) if isinstance(node, ast.Call) else node
        if new is not node:
            if i < 0:
                setattr(parent, name, new)
            else:
                getattr(parent, name)[i] = new
    return reads.changed


class _InlineReads:
    """`_pick(Z, i, …)` of any list Z not read inline yet as end_items_inline reads it; a join `_concat(st, A, B)`
    (_joined); and `_mapget(M, K, at)` of a local M (or a local's item: a game's table) and a computed K as
    `M[_m] if (_m := K) in M else _mapget(M, _m, at)` (K first, then M: reading a local or its item neither fails
    nor changes anything)."""

    def __init__(self) -> None:
        self.names = 0
        self.picks = 0  # the joined lists read into names so far (`_j…`)
        self.changed = False
        self.inline: set[int] = set()  # the helper calls that fail for an item read inline already

    def index_once(self, node: ast.IfExp) -> None:
        """`X[I] if 0 <= I < len(X) else _listget(X, I, at)` (expressions.e_Index) of a computed I working it out once:
        `X[_i] if 0 <= (_i := I) < len(X) else _listget(X, _i, at)`."""
        test, body, helper = node.test, node.body, node.orelse
        if not (isinstance(body, ast.Subscript) and isinstance(test, ast.Compare) and _calls(helper, "_listget")
                and len(test.comparators) == 2 and isinstance(helper, ast.Call) and len(helper.args) == 3) \
                or isinstance(body.slice, (ast.Name, ast.Constant, ast.NamedExpr)):
            return
        index = ast.dump(body.slice)
        if ast.dump(test.comparators[0]) == index == ast.dump(helper.args[1]):
            name = self._name("_i")
            test.comparators[0] = ast.NamedExpr(ast.Name(name, ast.Store()), body.slice)
            body.slice = helper.args[1] = ast.Name(name, ast.Load())

    def rewritten(self, node: ast.Call) -> ast.AST:
        """The call as it reads inline, or the call itself."""
        if id(node) in self.inline:
            return node
        if _is_pick(node) and len(node.args) == 4 and isinstance(node.args[1], (ast.Constant, ast.UnaryOp)) \
                and pure(node.args[1]):  # 0 or -1
            return self._end_item(node)
        if _calls(node, "_concat") and len(node.args) == 3:
            return self._joined(node)
        if not (_calls(node, "_mapget") and len(node.args) == 3 and _local_read(node.args[0])
                and not isinstance(node.args[1], (ast.Name, ast.Constant))):
            return node
        key = f"_m{self.names}"
        self.names += 1
        self.changed = True
        mapping = node.args[0]
        found = ast.Compare(ast.NamedExpr(ast.Name(key, ast.Store()), node.args[1]), [ast.In()], [copy.deepcopy(mapping)])
        node.args[1] = ast.Name(key, ast.Load())
        return ast.IfExp(found, ast.Subscript(copy.deepcopy(mapping), ast.Name(key, ast.Load()), ast.Load()), node)

    def _name(self, prefix: str) -> str:
        self.picks += 1
        self.changed = True
        return f"{prefix}{self.picks - 1}"

    def _joined(self, node: ast.Call) -> ast.expr:
        """`_concat(st, A, B)` as `_a + _b if len(_a := A) + len(_b := B) <= st.game.limits.max_list else
        _concat(st, _a, _b)`: A, then B, worked out once, the helper called only to fail."""
        first, second = self._name("_j"), self._name("_j")
        left, right = (ast.Call(ast.Name("len", ast.Load()), [ast.NamedExpr(ast.Name(name, ast.Store()), arg)], [])
                       for name, arg in ((first, node.args[1]), (second, node.args[2])))
        sizes = ast.BinOp(left, ast.Add(), right)
        node.args[1:] = [ast.Name(first, ast.Load()), ast.Name(second, ast.Load())]
        budget: ast.expr = copy.deepcopy(node.args[0])  # the state: st.game.limits.max_list
        for name in ("game", "limits", "max_list"):
            budget = ast.Attribute(budget, name, ast.Load())
        test = ast.Compare(sizes, [ast.LtE()], [budget])
        return ast.IfExp(test, ast.BinOp(ast.Name(first, ast.Load()), ast.Add(), ast.Name(second, ast.Load())), node)

    def _end_item(self, node: ast.Call) -> ast.expr:
        self.changed = True
        items, node.args[0] = node.args[0], ast.Tuple([], ast.Load())
        return ast.Subscript(ast.BoolOp(ast.Or(), [items, node]), copy.deepcopy(node.args[1]), ast.Load())


def _is_pick(node: ast.AST) -> bool:
    return _calls(node, "_pick")


def _calls(node: ast.AST, helper: str) -> bool:
    """Whether node is a call of the helper, by position only."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == helper and not node.keywords


def _local_read(node: ast.expr) -> bool:
    """A name, or an item at a constant index of a name or of its attribute (a game's table): read again at no risk."""
    if isinstance(node, ast.Subscript):
        if not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
        while isinstance(node, ast.Attribute):
            node = node.value
    return isinstance(node, ast.Name)


def _places_enumerated(lines: list[str]) -> list[str]:
    """A loop over positions(F) whose body reads F's zone at the position: over F's places (Game.places: a pair
    unpacked costs less than a count or `enumerate`), the zone `_y{k}` with its position `_p{k}`, so the body reads
    no table for it. Where the body reads its position's row of options (compiler._action), the loop is over the
    places with their rows made for the game (Game.place_rows): no row looked up and tested per place."""
    out: list[str] = []
    for i, line in enumerate(lines):
        m = _PLACE_LOOPS[0].match(line.strip())
        if m is None:
            out.append(line)
            continue
        pad = line[:len(line) - len(line.lstrip())]
        end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith(pad + " ")), len(lines))
        read = re.compile(re.escape(f"st.game.fam_at[{m.group(2)}][{m.group(1)}]"))
        k = m.group(1)[2:]
        body = [sub_code(b, read, f"_y{k}") for b in lines[i + 1:end]]
        rows = [(j, r[1]) for j, b in enumerate(body) if b[len(pad) + 4:len(pad) + 5] != " " and
                (r := _PLACE_ROW.fullmatch(b.strip())) and r[2] == m.group(1)]  # in the body itself, not deeper
        if rows:
            del body[rows[0][0]]
            number = _read_in(m.group(1), body + _until_bound(m.group(1), lines[end:]))
            out.append(f"{pad}for {m.group(1) + ', ' if number else ''}_y{k}, _row{rows[0][1]} in "
                       f"st.game.{'place' if number else 'zone'}_rows({m.group(2)}, {rows[0][1]}):")
        elif body != lines[i + 1:end]:
            out.append(f"{pad}for {m.group(1)}, _y{k} in st.game.places({m.group(2)}):")
        else:
            out.append(line)
            continue
        lines[i + 1:end] = body  # read on as the loop's own lines
    return out


def _read_in(name: str, lines: list[str]) -> bool:
    """Whether the lines read the local `name` (outside string literals)."""
    word = re.compile(rf"\b{name}\b")
    return any(word.search(part) for line in lines for part in STRING_LITERAL.split(line)[::2])


def _until_bound(name: str, lines: list[str]) -> list[str]:
    """The lines up to the next loop that binds the local `name` again (the next action's own loop)."""
    start = re.compile(rf"\s*for {name}\b")
    return lines[:next((j for j, line in enumerate(lines) if start.match(line)), len(lines))]


def _sub_spanning(line: str, pattern: re.Pattern[str], repl: Callable[[re.Match[str]], str]) -> str:
    """Substitutes a pattern that holds a string literal itself: a match starting inside a literal is left."""
    literals = [m.span() for m in STRING_LITERAL.finditer(line)]
    return pattern.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in literals) else repl(m), line)


# ================================================================== work per zone, not per card

def card_loop(domain: str, levels: list[list[str]], slot: int, k: int, pad: str) -> tuple[list[str], list[list[str]], str]:
    """The loop of card parameter `_p{k}` over `domain`, the deeper `levels` and the pad of the loop's body. Where
    a level reads the card's zone number, it is `_n{k}`, read once per option, and a new zone starts work per
    zone (hoist_zone_work adds it); over the cards of a numbered family, the loop goes place by place (zone
    `_z{k}`, its number `_n{k}`), so a place is looked up once, not once per card."""
    read = re.compile(re.escape(f"st.game.zone_number[st.where[L[{slot}]]]"))
    if not any(read.search(part) for level in levels for line in level for part in STRING_LITERAL.split(line)[::2]):
        return [f"{pad}for _p{k} in {domain}:"], levels, pad + "    "
    levels = [[sub_code(line, read, f"_n{k}") for line in level] for level in levels]
    family = FAMILY_CARDS.fullmatch(domain)
    if family:
        return [f"{pad}for _z{k} in st.game.fam_zones[{family[1]}]:", f"{pad}    _n{k} = st.game.zone_number[_z{k}]",
                f"{pad}    for _p{k} in st.zones[_z{k}]:"], levels, pad + "        "
    return [f"{pad}_q{k} = None", f"{pad}for _p{k} in {domain}:", f"{pad}    _n{k} = st.game.zone_number[st.where[L[{slot}]]]",
            f"{pad}    if _n{k} != _q{k}:", f"{pad}        _q{k} = _n{k}"], levels, pad + "    "


def hoist_zone_work(src: str) -> str:
    """In a generated enumerator: the parts of a card level's conditions that read the card only through
    its zone number `_n{k}` or, place by place, its zone `_z{k}` (and contain a call) are computed once per zone, on
    first use, so the same value and the same errors come in the same order; cards of one zone follow each other, so
    most reads reuse it."""
    if "_n" not in src and "for _z" not in src:  # no card level reads its zone: nothing to hoist
        return src
    tree = ast.parse(src)
    for loop in [n for n in walked(tree) if isinstance(n, ast.For)]:
        level = _zone_level(loop)
        if level is None:
            continue
        k, cards, start, resets = level
        body = cards.body
        assigned = {n.id for s in body for n in walked(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        assigned |= {n.id for n in walked(cards.target) if isinstance(n, ast.Name)}
        assigned.discard(f"_n{k}")
        names: dict[str, str] = {}
        for stmt in body[start:]:
            if isinstance(stmt, ast.For):
                break
            _Hoister(assigned, names, f"_h{k}_").visit(stmt)
        _kept_parts_reused(body[start:], set(names.values()), f"_h{k}_", len(names))
        if names:
            resets.insert(0, ast.Assign([ast.Name(n, ast.Store()) for n in names.values()], ast.Constant(None)))
        if resets is loop.body:  # place by place
            _number_where_kept(loop, k, set(names.values()))
        elif not names:  # nothing kept: the zone need not be followed
            del loop.body[start - 1]
            unset = f"_q{k} = None"
            for node in walked(tree):
                stmts = getattr(node, "body", None)
                if isinstance(stmts, list):
                    stmts[:] = [s for s in stmts if not (isinstance(s, ast.Assign) and ast.unparse(s) == unset)]
    return ast.unparse(ast.fix_missing_locations(tree))


def _kept_parts_reused(body: list[ast.stmt], kept: set[str], prefix: str, count: int) -> None:
    """A card level's statements (hoist_zone_work) where a later one (in a branch too) repeats a part of a value kept
    per zone that the value always works out (_always_evaluated), reading that part's name instead, set as the value
    is computed (`(_h := part)`): a statement after it runs only once the zone's value is kept, and the part reads
    nothing the card level sets, so the name holds its value for the zone."""
    parts: dict[str, ast.expr] = {}  # a part's dump → the part (where the value works it out)
    named: dict[int, str] = {}  # the parts read again, by id → their names
    seen: set[str] = set()
    for stmt in body:
        if parts:
            _PartsRead(parts, named, prefix, count).visit(stmt)
        for node in _always_evaluated(stmt):
            value = kept_value(node) if isinstance(node, ast.expr) else None
            if value is None or value[0] not in kept or value[0] in seen:
                continue
            seen.add(value[0])
            for part in _always_evaluated(value[1]):
                if isinstance(part, ast.expr) and not isinstance(part, (ast.Name, ast.Constant)) \
                        and any(isinstance(n, (ast.Call, ast.Subscript)) for n in walked(part)) \
                        and not any(isinstance(n, ast.NamedExpr) for n in walked(part)):
                    parts.setdefault(ast.dump(part), part)
    if named:
        for stmt in body:
            _PartsNamed(named).visit(stmt)


def _always_evaluated(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a simple statement (an assignment, an `if`'s test, an expression) or of an expression that are
    worked out whenever it is, outermost first: no branch of an `if`, no value of an `and`/`or` or comparison past
    the first, nothing in another scope."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.IfExp, ast.If)):
            children: list[ast.AST] = [node.test]
        elif isinstance(node, ast.BoolOp):
            children = list(node.values[:1])
        elif isinstance(node, ast.Compare):
            children = [node.left, node.comparators[0]]
        elif isinstance(node, (ast.Assign, ast.Expr, ast.expr)) and not isinstance(node, OWN_SCOPE):
            children = list(ast.iter_child_nodes(node))
        else:
            children = []
        todo.extend(reversed(children))


class _PartsRead(ast.NodeTransformer):
    """A part of a kept value (_kept_parts_reused) read by its name, noting the parts so read."""

    def __init__(self, parts: dict[str, ast.expr], named: dict[int, str], prefix: str, count: int) -> None:
        self.parts, self.named, self.prefix, self.count = parts, named, prefix, count

    def visit(self, node: ast.AST) -> Any:
        part = self.parts.get(ast.dump(node)) if isinstance(node, ast.expr) else None
        if part is not None:
            name = self.named.setdefault(id(part), f"{self.prefix}{self.count + len(self.named)}")
            return ast.Name(name, ast.Load())
        return node if isinstance(node, OWN_SCOPE) else self.generic_visit(node)


class _PartsNamed(ast.NodeTransformer):
    """The parts read again (_kept_parts_reused) named where the kept value works them out."""

    def __init__(self, named: dict[int, str]) -> None:
        self.named = named

    def visit(self, node: ast.AST) -> Any:
        name = self.named.get(id(node))
        node = self.generic_visit(node)
        if name is None:
            return node
        assert isinstance(node, ast.expr)  # a part named is an expression
        return ast.NamedExpr(ast.Name(name, ast.Store()), node)


def _number_where_kept(places: ast.For, k: str, kept: set[str]) -> None:
    """A loop place by place (card_loop) whose place number `_n{k}` is read only by at most two values kept per zone
    (hoist_zone_work) reads it there, as each is computed, and not for every place (an empty one too): a read
    there costs the eval loop two steps more than the name, the number set for each place four."""
    number = f"_n{k}"
    setting = next((s for s in places.body if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == number), None)
    if setting is None:  # read nowhere (known_places)
        return
    value = setting.value
    values = [n for n in walked(places) if isinstance(n, ast.NamedExpr) and n.target.id in kept]
    reading = [n for n in values if any(isinstance(m, ast.Name) and m.id == number for m in walked(n.value))]
    read = sum(isinstance(n, ast.Name) and n.id == number and isinstance(n.ctx, ast.Load) for n in walked(places))
    if len(reading) > 2 or read != sum(isinstance(m, ast.Name) and m.id == number for n in reading for m in walked(n.value)):
        return

    class Number(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(value) if node.id == number else node

    for n in reading:
        n.value = Number().visit(n.value)
    places.body.remove(setting)


def _zone_level(loop: ast.For) -> Optional[tuple[str, ast.For, int, list[ast.stmt]]]:
    """For a loop that starts a zone's work: the k of its card parameter, the loop over the cards, where in
    that loop's body the card's own lines start and the statements a new zone's resets go first into."""
    if isinstance(loop.target, ast.Name) and loop.target.id.startswith("_z"):  # place by place (card_loop)
        return loop.target.id[2:], loop.body[-1], 0, loop.body  # type: ignore[return-value]
    reset = next((s for s in loop.body if isinstance(s, ast.If) and _is_zone_test(s.test)), None)
    if reset is None:
        return None
    return reset.test.left.id[2:], loop, loop.body.index(reset) + 1, reset.body  # type: ignore[attr-defined]


def _is_zone_test(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id.startswith("_n")
            and isinstance(test.comparators[0], ast.Name) and test.comparators[0].id == "_q" + test.left.id[2:])


def _free_names(node: ast.AST) -> set[str]:
    """The names a node reads that it does not bind itself (in comprehensions)."""
    bound = {n.id for n in walked(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return {n.id for n in walked(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


class _Hoister(ast.NodeTransformer):
    """Replaces the largest subexpressions that read nothing the card level sets but contain a call by
    `(_h if _h is not None else (_h := expr))` (no value of the rules is None); comprehensions and lambdas are taken
    whole or not at all, a branch of an `if` or a later value of an `and`/`or` not at all: computed only for the cards
    that reach it, it is seldom asked twice in one zone, and keeping costs a reset per zone and a test per use."""

    def __init__(self, assigned: set[str], names: dict[str, str], prefix: str) -> None:
        self.assigned, self.names, self.prefix = assigned, names, prefix

    def visit(self, node: ast.AST) -> Any:
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Name, ast.Constant)) \
                and any(isinstance(n, ast.Call) for n in walked(node)) and not _free_names(node) & self.assigned \
                and not any(isinstance(n, ast.NamedExpr) for n in walked(node)):
            key = ast.dump(node)
            name = self.names.setdefault(key, f"{self.prefix}{len(self.names)}")
            return kept_at_first_use(name, node, ast.Constant(None))
        if isinstance(node, OWN_SCOPE):
            return node
        if isinstance(node, ast.IfExp):  # a branch's value (computed for few cards of a zone): not kept
            node.test = self.visit(node.test)
            return node
        if isinstance(node, ast.BoolOp):  # so the values after its first
            node.values[0] = self.visit(node.values[0])
            return node
        return self.generic_visit(node)


# ================================================================== work per call, not per action

def shared_lists(src: str) -> str:
    """A generated enumerator (`def options(st, me)`: the `_s_…`/`_g_…` locals set first, then `out = []`) with each
    list comprehension that reads only what is the same all through the call, and is written two or more times
    (the seat's cards filtered alike for several actions), built once, at its first use, and kept for the other
    uses (`_c…`): listing changes nothing and lists are never changed in place, so each use sees the same value,
    and a first use that fails stops the listing as before."""
    if src.count("[") < 2 or " for " not in src:
        return src
    tree = ast.parse(src)
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    start = next(i for i, s in enumerate(fn.body) if isinstance(s, ast.Assign) and ast.unparse(s) == "out = []")
    stored = {n.id for s in fn.body[start:] for n in walked(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    found: dict[str, list[ast.ListComp]] = {}  # those not inside another comprehension or a lambda (another scope)
    for node in _own_scope(ast.Module(fn.body[start:], [])):
        if isinstance(node, ast.ListComp) and not _free_names(node) & stored \
                and not any(isinstance(n, (ast.NamedExpr, ast.Lambda)) for n in walked(node)):
            found.setdefault(ast.dump(node), []).append(node)
    names = {id(node): f"_c{k}" for k, nodes in enumerate(n for n in found.values() if len(n) > 1) for node in nodes}
    if not names:
        return src

    class Share(ast.NodeTransformer):
        def visit_ListComp(self, node: ast.ListComp) -> ast.expr:
            name = names.get(id(node))
            if name is None:
                return node
            return kept_at_first_use(name, node, ast.Constant(None))

    fn.body[start + 1:] = [Share().visit(s) for s in fn.body[start + 1:]]
    fn.body.insert(start + 1, ast.Assign([ast.Name(n, ast.Store()) for n in sorted(set(names.values()))],
                                         ast.Constant(None)))
    return ast.unparse(ast.fix_missing_locations(tree))


_DOMAIN_READ = re.compile(r"(        )(_d\d+) = (?!None$).+")  # a pure domain read, first in an action's `try` (compiler._action)


def domains_read_once(actions: list[list[str]]) -> list[list[str]]:
    """The lines of a lister's actions (each inside its `try`) without a domain read `_dK = …` that an action
    before made alike, unconditionally, with nothing setting `_dK` since: listing changes nothing, so the
    name still holds that value."""
    held: dict[str, str] = {}
    out = []
    for lines in actions:
        kept = []
        for line in lines:
            read = _DOMAIN_READ.fullmatch(line)
            if read and held.get(read[2]) == line:
                continue
            for name in [n for n in held if re.search(rf"\b{n}\b\s*:?=(?!=)", line)]:
                del held[name]
            if read:
                held[read[2]] = line
            kept.append(line)
        out.append(kept)
    return out


def _own_scope(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of the tree outside comprehensions and lambdas (those themselves, not what is inside them)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, OWN_SCOPE):
            todo.extend(reversed(list(ast.iter_child_nodes(node))))
