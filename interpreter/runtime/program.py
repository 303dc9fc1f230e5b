"""The compiled, static form of a ruleset: plain data and closures, shared by every state of a game."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from dsl import ast as A

if TYPE_CHECKING:
    from interpreter.compile.types import T
    from interpreter.runtime.state import State

Fn = Callable[["State", list[Any]], Any]
Op = Callable[["State", list[Any]], Optional[bool]]  # returns True to suspend at a decision or chance node

SCOPES = {"turn": 0, "phase": 1, "round": 2, "game": 3}


@dataclass
class KindInfo:
    name: str
    fields: list[str]
    types: list[T]
    back: list[bool]
    index: dict[str, int]
    ast: A.KindDef
    defaults: list[Any] = field(default_factory=list)  # None where a card must give the value


@dataclass
class CardInfo:
    id: str
    kind: str
    values: list[Any]
    zone: str
    effects: dict[str, int]  # effect field → block id
    ast: Optional[A.Node]
    effect_src: list[A.EffectValue] = field(default_factory=list)  # the effects as written


@dataclass
class ZoneSpec:
    name: str
    family_id: int
    shape: str
    size: Optional[Fn]
    kind: str
    visibility: str
    shuffled: bool
    capacity: Optional[int]
    ast: A.ZoneDef


@dataclass
class Block:
    name: str
    code: list[Op]
    nlocals: int
    pos: list[A.Pos] = field(default_factory=list)  # per op: the statement it was compiled from
    # makes, for a game, what runs the ops from a step in `starts` on, at once (compile/blocks.py)
    runner: Optional[Callable[[Any], Op]] = None
    starts: frozenset[int] = frozenset()
    # makes, for a game, the runner as a generator that goes on after a stop (State.apply_action's, compile/blocks.py)
    resumable: Optional[Callable[[Any], Callable[[Any, list[Any]], Iterator[tuple[Any, ...]]]]] = None


@dataclass
class ActionInfo:
    """An action's parameters (name, slot, type) (its options are (action id, *parameter values), listed by the
    generated function of each `choose action`), the block that runs once an option is chosen, and which
    requirement refuses an option (for worked examples and "why not" answers)."""

    name: str
    aid: int
    params: list[tuple[str, int, T]]
    block: int
    nlocals: int
    label: str
    label_names_me: bool  # whether the label says who decides ({me}): then an option's label differs by seat
    formats: list[Callable[["State", Any], str]]
    ast: A.ActionDef
    # (state, seat, parameter values) → index in `requires` of the first that fails, -1 if none fails
    first_refusal: Callable[..., int]
    requires: list[A.Require]  # the leading requirements, which decide the options
    # makes, for a game, the body as a function (state, locals) → None, for an action whose body runs through (no stop
    # inside): no frame needed (Game.actions holds it)
    run: Optional[Callable[[Any], Callable[["State", list[Any]], None]]] = None
    # (state, seat, option) → its label: generated from `label` when the first is asked for (options.option_label)
    make_label: Optional[Callable[["State", int, tuple[Any, ...]], str]] = None
    # the slots after the seat (slot 0) and the parameters (slots 1 to k, in order), empty in a new frame
    blank: tuple[None, ...] = field(init=False)

    def __post_init__(self) -> None:
        assert [slot for _, slot, _ in self.params] == list(range(1, len(self.params) + 1))
        self.blank = (None,) * (self.nlocals - 1 - len(self.params))


@dataclass
class ModDef:
    kind: str
    field: int
    apply: Callable[..., Any]  # (state, the card read, the value so far, *captured locals) → the value after it
    scope: int
    pos: A.Pos
    nests: bool  # its value or condition may read a field some modifier changes (Game.mods_nest)


@dataclass
class ForbidDef:
    keep: Callable[..., list[Any]]  # (state, deciding seat, listed options, *captured locals) → those it allows
    scope: int
    pos: A.Pos


@dataclass
class Trigger:
    event: str
    where: Optional[str]  # the condition as generated code over the event's values `L[0]`, `L[1]`, …
    block: int
    pos: A.Pos
    values: int  # how many values the event carries (the first locals of the block)


@dataclass
class Program:
    name: str
    min_players: int
    max_players: int
    kinds: dict[str, KindInfo] = field(default_factory=dict)
    enums: dict[str, list[str]] = field(default_factory=dict)
    cards: list[CardInfo] = field(default_factory=list)
    card_vals: list[list[Any]] = field(default_factory=list)
    card_kind: list[str] = field(default_factory=list)
    zones: list[ZoneSpec] = field(default_factory=list)
    zone_by_name: dict[str, ZoneSpec] = field(default_factory=dict)
    gvars: list[tuple[str, T, Fn]] = field(default_factory=list)
    pvars: list[tuple[str, T, Fn]] = field(default_factory=list)
    gvar_pos: list[A.Pos] = field(default_factory=list)  # where each start value is written
    pvar_pos: list[A.Pos] = field(default_factory=list)
    currencies: dict[str, tuple[int, int]] = field(default_factory=dict)  # name → (pvar index, gvar index of bank)
    hidden: set[int] = field(default_factory=set)  # pvar indexes only their own seat sees (`hidden`)
    consts: list[tuple[str, Fn]] = field(default_factory=list)
    pictures: dict[str, list[list[Fn]]] = field(default_factory=dict)  # each entry's value and `of`, as consts
    blocks: list[Block] = field(default_factory=list)
    actions: list[ActionInfo] = field(default_factory=list)
    # per rule that runs through (and the places its parameters name): makes, for a game, its function (st, L), after
    # those of the rules it calls (StatementCompiler._rule_function)
    rules: list[Callable[[Any], Callable[..., None]]] = field(default_factory=list)
    # per (kind, effect field) whose effects all run through: how many `rules` make its functions, and per card its
    # effect's function (its index in `rules`) or None (StatementCompiler._effect_table: Game.effect_runs)
    effect_runs: list[tuple[int, list[Optional[int]]]] = field(default_factory=list)
    # per function the rules define that reads the game (hoist.reads_game): its name and what makes it for a game
    # (CompilerBase.fn_for_game: Game.fns), after the functions it calls; code made for one game calls these, other
    # code the program's own (`_fg_NAME`)
    functions: list[tuple[str, Callable[[Any], Fn]]] = field(default_factory=list)
    # per `choose action`, side by side: what makes, for a game, the generated function listing its options, and its
    # picking function or None (compiler._option_listers)
    listers: list[Optional[Callable[[Any], Callable[..., Any]]]] = field(default_factory=list)
    # what makes, for a game, a lister while a restriction is active, which its lister calls (compiler._restricted)
    restricted: list[Callable[[Any], Callable[..., Any]]] = field(default_factory=list)
    moddefs: list[ModDef] = field(default_factory=list)
    forbids: list[ForbidDef] = field(default_factory=list)
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)
    # the card fields (kind, field) whose printed values generated code relies on (read from the game's column, a map
    # looked up by one without its check): no rule sets them, and neither may a saved state nor a scenario's arrange
    # (saved.validate, ops)
    printed: set[tuple[str, str]] = field(default_factory=set)
    # the card kinds no rule may reveal (State.known stays 0): their moves neither test nor clear it
    # (blocks.card_move), and neither a saved state nor a scenario's arrange may show one (saved.validate, s_Reveal)
    unshown: frozenset[str] = frozenset()
    main_block: int = 0
    counted: tuple[int, ...] = ()  # the zone families whose cards are counted per owner as they move (State.owned)
    # the zone families whose cards the rules may read as one list, kept in the state (helpers.family_cards); a move
    # between families of no other keeps no cache (blocks.card_move)
    cached: frozenset[int] = frozenset()
    # one per `random`: how its outcomes are bounded, ("literal"/"enum", n), ("const", index) or (type name, 0)
    random_bounds: list[tuple[str, int]] = field(default_factory=list)
    # each op that opens a choose, random or draw node → (node kind, value type, options as written), for the catalogue
    node_types: dict[Op, tuple[str, T, Optional[A.Expr]]] = field(default_factory=dict)
    score: Optional[Callable[["State", int], Any]] = None  # (state, seat) → number or list
    lowest_wins: bool = False
    heuristic: Optional[Callable[["State", int], Any]] = None
    winner: Optional[Callable[["State", int], Any]] = None  # (state, seat) → may win; default: everyone
    def_pos: dict[str, A.Pos] = field(default_factory=dict)  # "score", "heuristic", "winner" → definition
    variants: list[str] = field(default_factory=list)
    items: list[A.Node] = field(default_factory=list)
    compile_expr: Optional[Callable[[Any, dict[str, T]], tuple[Fn, T, int]]] = None  # for scenario expectations
    compile_block: Optional[Callable[[Any, dict[str, T], A.Pos], Block]] = None  # for scenario `arrange` steps

    @property
    def code(self) -> list[list[Op]]:
        return [b.code for b in self.blocks]

    @cached_property
    def layout(self) -> str:
        """What a saved state's numbers point into: blocks (name, locals, each step's statement by its place
        within the block), actions, modifiers, restrictions and variables. A save from another layout would
        resume at other steps, so its loader refuses it (saved.validate); edits outside blocks keep it."""
        parts: list[object] = [[v[0] for v in self.gvars], [v[0] for v in self.pvars]]
        for b in self.blocks:
            base = b.pos[0].line if b.pos else 0
            parts.append((b.name, b.nlocals, [(p.line - base, p.col) for p in b.pos]))
        parts += [(a.name, a.block, a.nlocals, [n for n, _, _ in a.params]) for a in self.actions]
        parts += [(d.kind, d.field, d.scope) for d in self.moddefs] + [d.scope for d in self.forbids]
        text = repr(parts)
        return hashlib.sha256(text.encode()).hexdigest()[:16]
