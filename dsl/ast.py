"""Typed AST of the rules language: pydantic models, built once at load, never on the hot path. Each model's
validator is built when first used (defer_build), so importing the engine does not pay for all of them."""
from __future__ import annotations

from typing import Any, Iterator, Literal, Optional, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field

_new = object.__new__
# the setters of a model's attributes that a node read back is given (_unpickled): a call each, with no lookup of the
# attribute by name as object.__setattr__ makes (a frozen model refuses its own __setattr__)
_set_dict, _set_given, _set_extra, _set_private = (BaseModel.__dict__[name].__set__ for name in (
    "__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))


def _reduced(node: BaseModel) -> tuple[Any, ...]:
    """A node pickled as its class, fields and the fields given (its validators hold no more; it has no extra
    or private attributes): a parsed file in the parse cache is a fifth smaller, and reads back faster. Nodes
    given the same fields share one set of their names once read back (pydantic changes a frozen model's set
    never, a copy's only once copied): a load makes a third fewer objects for the garbage collector to visit."""
    given = node.__pydantic_fields_set__
    fields = node.__dict__
    pos = fields.get("pos")
    if type(pos) is Pos and pos.__pydantic_fields_set__ == _POS_GIVEN:  # half the nodes: made by its node's call
        return _unpickled, (type(node), {**fields, "pos": None}, _GIVEN.setdefault(frozenset(given), given),
                            *pos.__dict__.values())
    return _unpickled, (type(node), fields, _GIVEN.setdefault(frozenset(given), given))


_GIVEN: dict[frozenset[str], set[str]] = {}  # the set pickled for each set of fields given (_reduced)
_POS_GIVEN = {"file", "line", "col"}  # the fields given of every position read back (as the parser gives them)


def _unpickled(cls: type[BaseModel], fields: dict[str, Any], given: set[str], file: Optional[str] = None,
               line: int = 0, col: int = 0) -> BaseModel:
    """As BaseModel.__setstate__ makes it, from less; with its position where `file` is given (`fields` holds its
    place): half the nodes read back are positions, each made in its node's call."""
    if file is not None:
        pos = _new(Pos)
        _set_dict(pos, {"file": file, "line": line, "col": col})
        _set_given(pos, _POS_GIVEN)
        _set_extra(pos, None)
        _set_private(pos, None)
        fields["pos"] = pos
    node = _new(cls)
    _set_dict(node, fields)
    _set_given(node, given)
    _set_extra(node, None)
    _set_private(node, None)
    return node


class Pos(BaseModel):
    """Where a node starts in its source file, for `file:line:col` messages."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    file: str
    line: int
    col: int
    __reduce__ = _reduced


class Node(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)
    pos: Pos
    __reduce__ = _reduced


# The languages of a game that declares none: its texts need these, its rulebooks are written in them.
DEFAULT_LANGUAGES = ("de", "en")


class Text(Node):
    """A display text in several languages, keyed by language code."""

    by_lang: dict[str, str]


class Assumed(Node):
    """A value the printed rules do not give, reconstructed by the ruleset's author; `text` gives
    the reason in each language (`why` is a single-language reason)."""

    why: str = ""
    text: Optional[Text] = None


# ------------------------------------------------------------------ expressions


class Num(Node):
    value: int


class Str(Node):
    value: str


class BoolLit(Node):
    value: bool


class Name(Node):
    name: str


class Attr(Node):
    obj: "Expr"
    name: str


class Index(Node):
    obj: "Expr"
    index: "Expr"


class Call(Node):
    func: str
    args: list["Expr"]


class Comprehension(Node):
    """`expr for var in source [if cond] [by key]`: a list, filtered and optionally sorted."""

    expr: "Expr"
    var: str
    source: "Expr"
    cond: Optional["Expr"] = None
    key: Optional["Expr"] = None


class CallComp(Node):
    """An aggregate over a comprehension: `sum(c.strength for c in zone)`."""

    func: str
    comp: Comprehension


class BinOp(Node):
    op: str
    left: "Expr"
    right: "Expr"


class Not(Node):
    operand: "Expr"


class Neg(Node):
    operand: "Expr"


class CondExpr(Node):
    cond: "Expr"
    then: "Expr"
    other: "Expr"


class ListLit(Node):
    items: list["Expr"]


class MapLit(Node):
    items: list[tuple["Expr", "Expr"]]


Expr = Union[Num, Str, BoolLit, Name, Attr, Index, Call, CallComp, Comprehension, BinOp, Not, Neg,
             CondExpr, ListLit, MapLit]


# ------------------------------------------------------------------ statements


class Let(Node):
    """A local; `text` is its noun in the rulebook ("the capped score") where the value's own is vague."""

    name: str
    value: Expr
    text: Optional[Text] = None


class Told(Node):
    """How a worked example tells a move in prose: `done` follows the mover's name ("places {card} at
    {i}"), `infinitive` follows a modal ("could place {card} at {i}"); `{name}` names an action's
    parameter or a `choose`'s value."""

    done: Text
    infinitive: Text


class LetChoose(Node):
    """A decision by any seat among the items of a list; `told` tells the choice in worked examples."""

    name: str
    seat: Expr
    options: Expr
    told: Optional[Told] = None
    text: Optional[Text] = None


class LetRandom(Node):
    """A chance node: one item of a list, uniformly."""

    name: str
    options: Expr
    text: Optional[Text] = None


class SetStmt(Node):
    target: Expr
    value: Expr


class Move(Node):
    what: Expr
    to: Expr
    bottom: bool = False


class Draw(Node):
    count: Optional[Expr]
    source: Expr
    to: Expr


class Reveal(Node):
    """`reveal c` turns a card face up for all; `reveal c to p` (or a list of seats) shows it to those alone."""

    what: Expr
    to: Optional[Expr] = None


class Pay(Node):
    amount: Expr
    currency: str
    payer: Optional[Expr]  # None = the bank
    payee: Optional[Expr]
    at_most_available: bool = False


class If(Node):
    cond: Expr
    then: list["Stmt"]
    other: list["Stmt"] = Field(default_factory=list)


class For(Node):
    """A loop; `text` is the noun of one item in the rulebook, as a `let`'s."""

    var: str
    source: Expr
    body: list["Stmt"]
    text: Optional[Text] = None


class While(Node):
    cond: Expr
    body: list["Stmt"]


class Repeat(Node):
    count: Expr
    body: list["Stmt"]


class Break(Node):
    text: Optional[Text] = None  # what ends, for the rulebook ("the movement ends")


class ChooseAction(Node):
    seat: Expr
    actions: list[str]


class CallRule(Node):
    rule: str
    args: list[Expr]


class Run(Node):
    """Runs an effect held in a card field: `run tile.effect`, or `run tile.effect by p` where no
    acting player (`me`) is known, as in a rule or phase; `as c` runs it with `self` = another card
    of the same kind (a card that takes on another card's rule text)."""

    target: Expr
    by: Optional[Expr] = None
    as_self: Optional[Expr] = None


class Modify(Node):
    kind: str
    field: str
    mode: Literal["by", "to"]
    value: Expr
    where: Optional[Expr]
    until: str


class Forbid(Node):
    actions: list[str]
    where: Optional[Expr]
    until: str


class Turns(Node):
    var: str
    start: Expr
    until: Expr
    skip: Optional[Expr]
    body: list["Stmt"]


class Log(Node):
    text: Text


class Require(Node):
    """A guard; `require COND as NAME` names it, so that a variant can replace or remove it."""

    cond: Expr
    text: Optional[Text] = None
    name: Optional[str] = None


class NamedStep(Node):
    """`step NAME { … }`: statements a variant can replace or remove; it runs as if written in
    place (no scope of its own), so its requirements still count towards an action's options."""

    name: str
    body: list["Stmt"]


class Give(Node):
    what: Expr
    to: Expr


class EndGame(Node):
    pass


class Emit(Node):
    event: str
    args: list[Expr]


class TurnsIn(Node):
    """`turns p in ORDER { … }`: one turn per player of a list (an order by bid, by score, …)."""

    var: str
    order: Expr
    body: list["Stmt"]


Stmt = Union[Let, LetChoose, LetRandom, SetStmt, Move, Draw, Reveal, Pay, If, For, While, Repeat, Break,
             ChooseAction, CallRule, Run, Modify, Forbid, Turns, TurnsIn, Log, Require, Give, EndGame, Emit,
             NamedStep]


def opened(body: list[Stmt]) -> Iterator[Stmt]:
    """A body's statements with its named steps opened up, in the order they run."""
    for stmt in body:
        if isinstance(stmt, NamedStep):
            yield from opened(stmt.body)
        else:
            yield stmt


# ------------------------------------------------------------------ definitions


class TypeRef(Node):
    name: str
    list_of: Optional["TypeRef"] = None


class Param(Node):
    """A parameter; `text` is its noun in the rulebook, as a `let`'s."""

    name: str
    type: TypeRef
    text: Optional[Text] = None


class GameDef(Node):
    name: str
    title: Optional[Text] = None
    min_players: int = 2
    max_players: int = 2
    goal: Optional[Text] = None
    languages: tuple[str, ...] = DEFAULT_LANGUAGES  # every text needs each; a rulebook is written in each


class EnumValue(Node):
    name: str
    text: Text


class EnumDef(Node):
    name: str
    title: Optional[Text]
    values: list[EnumValue]


class ChangeTold(Node):
    """How the rulebook tells one kind of change of a var or field: `kind` is "add", "sub", "set" or a value
    written as in the rules ("0", "true", an enum value)."""

    kind: str
    text: Text


class FieldDef(Node):
    name: str
    type: TypeRef
    back: bool
    text: Optional[Text]
    default: Optional["Literal_"] = None
    negated: Optional[Text] = None  # a yes/no field's clause said the other way round ("{it} lies face down")
    internal: bool = False  # a flag the card's other lines already tell: no line or column of its own (1.5)
    told: list["ChangeTold"] = Field(default_factory=list)  # how the rulebook tells a change of it
    unsaid: bool = False  # its changes are bookkeeping the rulebook leaves out


class KindDef(Node):
    name: str
    title: Optional[Text]
    fields: list[FieldDef]
    id_template: Optional[str]
    named: Optional[Text] = None  # how a card is named in play and in examples: "{colour} {value}" (1.5)


class Literal_(Node):
    """A value written in data (a cards row, a field value or default): number, text, truth value,
    enum value (a bare name) or a list of these."""

    value: Union[int, str, bool, None]
    is_name: bool = False
    items: Optional[list["Literal_"]] = None
    range: Optional[tuple[int, int]] = None  # `3..35` in a cards row: one card per number


class CardRow(Node):
    values: list[Literal_]
    assumed: Optional[Assumed] = None
    effects: list["EffectValue"] = Field(default_factory=list)


class FieldValue(Node):
    name: str
    value: Literal_
    assumed: Optional[Assumed] = None


class EffectValue(Node):
    name: str
    body: list[Stmt]


class CardEntry(Node):
    name: str
    title: Optional[Text]
    note: Optional[Text]
    values: list[FieldValue]
    effects: list[EffectValue]
    copies: int = 1  # `copies N`: N identical cards, ids NAME_1 … NAME_N


class CardsDef(Node):
    name: str  # the kind
    zone: str
    table: Optional[str] = None  # `cards NAME of KIND in ZONE`: a kind's second table needs its own name
    assumed: Optional[Assumed]
    each: Optional[tuple[str, str]]  # (field, enum)
    columns: list[str]
    rows: list[CardRow]
    cards: list[CardEntry]


class ZoneDef(Node):
    name: str
    text: Optional[Text]
    shape: Literal["single", "per_player", "indexed"]
    size: Optional[Expr]
    kind: str
    visibility: Literal["public", "hidden", "owner"]
    shuffled: bool
    capacity: Optional[int]
    assumed: Optional[Assumed]
    at: Optional[Text] = None  # `at TEXT`: the preposition a card lies at the zone with ("auf", "on")


class VarDef(Node):
    name: str
    per_player: bool
    type: TypeRef
    init: Expr
    text: Optional[Text]
    assumed: Optional[Assumed]
    hidden: bool = False  # a player var only its own seat sees (until the game ends)
    internal: bool = False  # bookkeeping for the rules: no value a player keeps track of (1.8)
    negated: Optional[Text] = None  # a yes/no var's clause said the other way round ("the leader has time")
    told: list["ChangeTold"] = Field(default_factory=list)  # how the rulebook tells a change of it
    unsaid: bool = False  # its changes are bookkeeping the rulebook leaves out


class ConstDef(Node):
    name: str
    value: Expr
    text: Optional[Text]
    assumed: Optional[Assumed]
    internal: bool = False  # data for the rules only (a board's geometry), no value a player looks up (1.9)
    told: Optional[Text] = None  # a `random` pick from it said as an order ("roll the red die", 1.14)
    negated: Optional[Text] = None  # a yes/no constant's clause said the other way round ("jokers do not stack")


class CurrencyDef(Node):
    name: str
    text: Optional[Text]
    start: Expr
    assumed: Optional[Assumed]
    hidden: bool = False  # a balance only its own seat sees (until the game ends)
    bank: Optional[Text] = None  # `bank TEXT`: what the rulebook calls the bank of this currency ("the supply")


class ToldBy(Node):
    """A rule's step said where its player parameter `param` is another player than the reader, who
    is then not addressed: `text` may name `param` as the subject ("{p} moves up to {n} spaces")."""

    param: str
    text: Text


class FunctionDef(Node):
    name: str
    params: list[Param]
    text: Optional[Text] = None  # what the rulebook calls the value ("the pair sum of i")
    body: Expr
    negated: Optional[Text] = None  # a condition's clause said the other way round ("no token lies in row {i}")
    kind_clause: Optional[Text] = None  # `f(i) == V` said as a clause: "{i} is {value}" ("the square is a switch")
    note: Optional[Text] = None  # the definition in a player's words: the rulebook prints it instead of the formula
    internal: bool = False  # a lookup the rules text already says where it is used: no entry in "Definitions"
    told: Optional[Text] = None  # a rule called with this value, said as this step instead: "raise your points by {n}"
    told_by: Optional[ToldBy] = None  # the same step where its player parameter (or whose own place it is) is not the reader


class RuleDef(Node):
    name: str
    params: list[Param]
    text: Optional[Text]
    note: Optional[Text] = None  # the author's clarification, shown beside the generated rule text
    body: list[Stmt]
    told: Optional[Text] = None  # the step where it is called, with `{param}` places: "move up to {n} spaces"
    told_by: Optional[ToldBy] = None  # the step where its acting player is not the reader
    internal: bool = False  # keeps bookkeeping current (a cache of what the board shows): its calls go unsaid


class ActionParam(Node):
    """A parameter the player picks from `domain`; `text` is its noun in the rulebook, as a `let`'s."""

    name: str
    domain: Expr
    text: Optional[Text] = None


class ActionDef(Node):
    name: str
    params: list[ActionParam]
    text: Optional[Text]
    label: str
    note: Optional[Text] = None
    told: Optional[Told] = None
    body: list[Stmt]


class SetupDef(Node):
    body: list[Stmt]


class PhaseDef(Node):
    name: str
    text: Optional[Text]
    note: Optional[Text] = None
    body: list[Stmt]


class RoundDef(Node):
    repeat_while: Expr
    phases: list[PhaseDef]


class ScoreDef(Node):
    """`score(p) = EXPR [lowest wins]`: the best score is the highest, or the lowest."""

    var: str
    expr: Expr
    lowest: bool = False


class HeuristicDef(Node):
    var: str
    expr: Expr


class WinnerDef(Node):
    """`can_win(p) = COND`: only players for whom COND holds can win; of them, the best score wins.
    When it holds for nobody, nobody wins."""

    var: str
    expr: Expr


class EventDef(Node):
    """`event NAME(params) TEXT`: an event the rules emit, its values' types and what the rulebook says
    when it happens ("{p} makes a bid"); every `emit` and `when` of it is checked against it."""

    name: str
    params: list[Param]
    text: Text


class TriggerDef(Node):
    """`when EVENT(params) [as NAME] [TEXT] [where COND] { … }`; the name lets a variant replace or remove it.
    A parameter of an event the rules emit may carry a type (`when met(t: token)`), so its fields
    can be read."""

    event: str
    params: list[str]
    types: list[Optional["TypeRef"]] = Field(default_factory=list)
    name: Optional[str] = None
    text: Optional[Text] = None  # what the reaction is about: its heading in the rulebook
    where: Optional[Expr]
    body: list[Stmt]
    note: Optional[Text] = None


class PictureEntry(Node):
    """One line of a picture: `at` (the positions), `lines`/`arrows` (edges), `nodes` (a class of
    nodes), `others` (every node of no class), `labels`, `numbered`; `of` names the nodes of `at` or
    `labels`, `text` is a legend entry, and `shape`, `colour` and `dashed` say how it is drawn."""

    what: Literal["at", "lines", "arrows", "nodes", "others", "labels", "numbered"]
    value: Optional[Expr] = None
    of: Optional[Expr] = None  # `at`, `labels`: the nodes the value's items belong to, in order
    shape: Optional[str] = None
    colour: Optional[str] = None
    dashed: bool = False
    text: Optional[Text] = None


class PictureDef(Node):
    """`picture NAME TEXT { … }`: a drawing of a board the rulebooks show as SVG, from constants."""

    name: str
    text: Text
    entries: list[PictureEntry]


class SectionDef(Node):
    """`section NAME TEXT { PART, … }`: rules and actions the rulebook tells under one heading, as a
    print groups them into sections; nothing in play depends on it."""

    name: str
    text: Text
    note: Optional[Text] = None
    parts: list[str]


Item = Union[GameDef, EnumDef, KindDef, CardsDef, ZoneDef, VarDef, ConstDef, CurrencyDef, FunctionDef,
             RuleDef, ActionDef, SetupDef, RoundDef, ScoreDef, HeuristicDef, WinnerDef, TriggerDef, EventDef,
             PictureDef, SectionDef]


class VariantOp(Node):
    """One change of an overlay: add or replace an item, remove a named part, add/replace a phase, or
    change one named step or requirement (`stmt`) of the action, rule or phase `owner`."""

    op: Literal["add", "replace", "remove", "add_phase", "replace_phase", "replace_step", "remove_step",
                "add_step", "replace_require", "remove_require"]
    item: Optional[Item] = None
    part: Optional[str] = None
    name: Optional[str] = None
    phase: Optional[PhaseDef] = None
    position: Optional[Literal["before", "after"]] = None
    anchor: Optional[str] = None
    owner: Optional[str] = None
    stmt: Optional[Union[NamedStep, Require]] = None


class VariantDef(Node):
    name: str
    title: Text
    ops: list[VariantOp]


class Step(Node):
    kind: Literal["choose", "chance", "expect", "legal", "illegal", "arrange", "example"]
    seat: Optional[str] = None
    label: Optional[str] = None  # `example`: the action, rule or phase whose rulebook section shows it
    expr: Optional[Expr] = None
    body: list[Stmt] = []  # `arrange`: statements that put the state in place
    text: Optional[Text] = None  # `example`: the example's text in the rulebook
    shows: list[Expr] = []  # `example … show`: the zones and players' values its table shows


class ScenarioDef(Node):
    name: str
    title: Text
    players: list[str]
    seed: int
    variants: list[str]
    steps: list[Step]
    seat_texts: list[Optional[Text]] = Field(default_factory=list)  # each seat's name in a worked example


class RulesFile(Node):
    """One parsed source file: its items, variants and scenarios in source order."""

    items: list[Item]
    variants: list[VariantDef]
    scenarios: list[ScenarioDef]


def walk(node: object) -> Iterator[object]:
    """Every AST node below (and including) `node`, depth first (a stack, not nested generators: it runs
    over every node of a ruleset at each load). A node's fields are the values of its `__dict__`, in their
    order (pydantic keeps nothing else there); `model_fields` and a getattr per field cost a third more."""
    stack = [node]
    kinds = _WALKED
    while stack:
        top = stack.pop()
        kind = kinds.get(type(top))
        if kind is None:  # isinstance of a pydantic model is an ABC's check, slow for the strings and ints it meets
            kind = kinds[type(top)] = 1 if isinstance(top, BaseModel) else 2 if isinstance(top, (list, tuple)) else 0
        if kind == 1:
            yield top
            stack.extend(reversed(top.__dict__.values()))
        elif kind == 2:
            stack.extend(reversed(top))  # type: ignore[call-overload]
        elif kind == 3:
            yield top


# a value's type → 1 if walk yields and opens it (a node), 2 if it opens it (a list), 3 if it yields it only (a
# position: its file, line and column, no nodes; half the nodes a walk meets), 0 if neither
_WALKED: dict[type, int] = {Pos: 3}



N = TypeVar("N", bound=BaseModel)
MEMORY_INDEXES = 4096  # nodes whose index (found) is kept in this process
ByClass = dict[type, list[Any]]  # a node's nodes by class, in walk's order (found)
# id(node) → the node, its index, and the answers given (class asked → its nodes)
_indexes: dict[int, tuple[Node, ByClass, ByClass]] = {}


def found(node: Node, cls: type[N]) -> list[N]:
    """The nodes of class `cls` below (and including) `node`, in walk's order for each class of node (read, never
    changed): several checks of a load look for their own kinds of node in every item, and nodes are frozen, so each
    item is walked once (its index kept by identity, with the item, for the parsed files' life in the process).
    Positions are no nodes: a parse cache entry makes them with their nodes (_unpickled), not for an index."""
    entry = _indexes.get(id(node))
    if entry is None or entry[0] is not node:
        entry = _kept(node)
    if not cls.__subclasses__():  # its nodes are the index's of its class: no answer made (a load asks 355 items × 6)
        return entry[1].get(cls, _NONE)
    answer = entry[2].get(cls)
    if answer is None:
        answer = entry[2][cls] = [n for t, nodes in entry[1].items() if issubclass(t, cls) for n in nodes]
    return answer


_NONE: list[Any] = []  # found's answer where a node holds none of a class (read, never changed)


def _kept(node: Node, index: Optional[ByClass] = None) -> tuple[Node, ByClass, ByClass]:
    """Keeps `index` as `node`'s index, or one made by a walk."""
    if index is None:
        index = {}
        for n in walk(node):
            if type(n) is not Pos:
                index.setdefault(type(n), []).append(n)
    if len(_indexes) >= MEMORY_INDEXES:
        _indexes.clear()
    entry = _indexes[id(node)] = (node, index, {})
    return entry


def indexes(nodes: list[Node]) -> list[ByClass]:
    """The index found keeps of each node, to be stored with them (the parse cache pickles a file's beside it)."""
    kept = [_indexes.get(id(node)) for node in nodes]
    return [entry[1] if entry is not None and entry[0] is node else _kept(node)[1] for node, entry in zip(nodes, kept)]


def adopt_indexes(nodes: list[Node], stored: list[ByClass]) -> None:
    """Keeps the indexes `indexes` gave for these nodes, read back with them (so holding the very same nodes)."""
    for node, index in zip(nodes, stored):
        _kept(node, index)
