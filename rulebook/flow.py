"""How a game goes, in a few sentences from the rules themselves: the round's phases, the actions a turn
offers, when the game ends and who wins (readers learn the game from this before the details)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

from dsl import ast as A

Part = Union[A.PhaseDef, A.RuleDef]


@dataclass
class TurnChoice:
    """The actions a phase (or the rule it calls) offers: `again` when they are chosen in a loop, `turn`
    when each player chooses on their turn (inside `turns`)."""

    part: Part
    actions: list[str]
    again: bool
    turn: bool = False
    instead: list[tuple[A.Expr, list[str]]] = field(default_factory=list)  # `if C { choose … } else { choose … }`


def _choices(body: Sequence[A.Stmt], looped: bool = False, turn: bool = False) -> list[tuple[A.ChooseAction, bool, bool]]:
    """The action choices a body always reaches, each with whether it is looped and whether it is made
    on a turn: an `if` without `else` is a special case and left out; of an `if`/`else` with choices in
    both, the `else` (the general case) counts."""
    found: list[tuple[A.ChooseAction, bool, bool]] = []
    for st in body:
        if isinstance(st, A.ChooseAction):
            found.append((st, looped, turn))
        elif isinstance(st, A.If):
            found += _choices(st.other or [], looped, turn) or []
        elif isinstance(st, A.While):
            found += _choices(st.body, True, turn)
        elif isinstance(st, (A.Turns, A.TurnsIn)):
            found += _choices(st.body, looped, True)
        elif isinstance(st, (A.For, A.NamedStep)):
            found += _choices(st.body, looped, turn)
    return found


def _instead(body: Sequence[A.Stmt]) -> list[tuple[A.Expr, list[str]]]:
    """The actions an `if` offers in place of its `else`'s, with its condition ("with 2 players: …")."""
    found: list[tuple[A.Expr, list[str]]] = []
    for st in body:
        if isinstance(st, A.If) and st.other and _choices(st.then) and _choices(st.other):
            found.append((st.cond, list(dict.fromkeys(a for c, _, _ in _choices(st.then) for a in c.actions))))
        elif isinstance(st, (A.While, A.Turns, A.TurnsIn, A.For, A.NamedStep)):
            found += _instead(st.body)
    return found


def _called(body: Sequence[A.Stmt], turn: bool = False) -> list[tuple[str, bool]]:
    """The rules a body calls, also inside its loops (not inside conditions), each with whether it is
    called on a turn."""
    names: list[tuple[str, bool]] = []
    for st in body:
        if isinstance(st, A.CallRule):
            names.append((st.rule, turn))
        elif isinstance(st, A.For) and _each_player(st):  # `for p in players { call turn(p) }`: each on their turn
            names += [(c.rule, True) for c in st.body if isinstance(c, A.CallRule)]
        elif isinstance(st, (A.While, A.Turns, A.TurnsIn, A.For, A.NamedStep)):
            names += _called(st.body, turn or isinstance(st, (A.Turns, A.TurnsIn)))
    return names


def _each_player(st: A.For) -> bool:
    """Whether a loop only hands each player a rule of their own (`for p in … { call r(p) }`): their turns."""
    return bool(st.body) and all(isinstance(c, A.CallRule) and len(c.args) == 1 and isinstance(c.args[0], A.Name)
                                 and c.args[0].name == st.var for c in st.body) \
        and any(isinstance(n, A.Name) and n.name == "players" for n in A.walk([st.source]))


def turn_choices(phases: Sequence[A.PhaseDef], rules: Sequence[A.RuleDef]) -> list[TurnChoice]:
    """Per phase, the actions offered in it or in a rule it calls directly, each action once."""
    by_name = {r.name: r for r in rules}
    result: list[TurnChoice] = []
    for phase in phases:
        parts: list[tuple[Part, bool]] = [(phase, False)] + [(by_name[n], t) for n, t in _called(phase.body)
                                                              if n in by_name]
        for part, on_turn in parts:
            chosen = _choices(part.body, turn=on_turn)
            names = list(dict.fromkeys(a for st, _, _ in chosen for a in st.actions))
            if names:
                result.append(TurnChoice(part, names, any(again for _, again, _ in chosen),
                                         all(turn for _, _, turn in chosen), _instead(part.body)))
    return result


def fixed_rounds(repeat_while: A.Expr, consts: dict[str, A.ConstDef]) -> Optional[A.Num]:
    """N when rounds repeat while `round < N` (N a number, or a constant that is one): the game lasts N rounds."""
    if isinstance(repeat_while, A.BinOp) and repeat_while.op == "<" and isinstance(repeat_while.left, A.Name) \
            and repeat_while.left.name == "round":
        right = repeat_while.right
        if isinstance(right, A.Name) and right.name in consts:
            right = consts[right.name].value
        if isinstance(right, A.Num):
            return right
    return None
