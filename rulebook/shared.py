"""What the rulebooks of one ruleset with variants share across their languages: the variant-applied
items and what is read off them once (symbols, where each rule and action is told, the names used, the
assumed values), the compiled program and its games, and the worked examples played. Every language's
book, and each base-game book's chapter on a variant, asks for the same; it is made once per run."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Iterator, Sequence

from dsl import ast as A
from dsl.loader import RulesetSource, apply_variants
from interpreter.compile.loading import load_program
from interpreter.runtime.game import Game
from interpreter.runtime.program import Program
from rulebook.examples import Played
from rulebook.order import Part, names_used, placement, rules_in_place, told_in_place
from rulebook.sentences import Symbols

MEMORY = 32  # rulesets-with-variants kept in this process (each holds its source alive)
_kept: dict[tuple[int, tuple[str, ...]], "Shared"] = {}
MEMORY_ITEMS = 4096  # items whose assumed values are kept (each holds its item alive)
_assumed_in: dict[int, tuple[A.Node, list[tuple[Any, Any]]]] = {}


class Shared:
    """One ruleset with these variants, in no language. Its parts are read only (nodes are frozen)."""

    def __init__(self, src: RulesetSource, variants: tuple[str, ...]) -> None:
        self.src = src
        self.variants = variants
        self.items: list[A.Node] = apply_variants(src, variants)
        self.symbols = Symbols(self.items)
        self._variant_names: dict[str, set[str]] = {}
        self._played: dict[int, Played] = {}  # a scenario's id → its example, played
        self._games: dict[int, Game] = {}  # a player count → the game set up for that many players

    @cached_property
    def program(self) -> Program:
        """The compiled ruleset, for what only the engine computes: the cards, values by player count."""
        return load_program(str(self.src.folder), self.src.refs(self.variants))

    def game(self, players: int) -> Game:
        """The game for this many players (its values and places; read only)."""
        found = self._games.get(players)
        if found is None:
            prog = self.program
            found = self._games[players] = Game(prog, players, prog.name, list(self.variants))
        return found

    @cached_property
    def owners(self) -> list[tuple[str, list[Any]]]:
        """The setup and each phase, with its steps: the parts of the game that tell rules and actions."""
        rnd = next((i for i in self.items if isinstance(i, A.RoundDef)), None)
        return [("setup", [s for setup in self.items if isinstance(setup, A.SetupDef) for s in setup.body])] + \
            [(f"phase:{p.name}", p.body) for p in (rnd.phases if rnd else [])]

    @cached_property
    def told_in_place(self) -> frozenset[int]:
        """The calls told as the called rule's own steps."""
        return told_in_place([body for _, body in self.owners], self.items)

    @cached_property
    def placed(self) -> dict[str, list[Part]]:
        """The rules and actions told inside the setup and inside each phase: those they use first."""
        return placement(self.owners, self.items, self.told_in_place)

    @cached_property
    def names_used(self) -> set[str]:
        """Every name the rules read, call or offer."""
        return names_used(self.items)

    def variant_names_used(self, name: str) -> set[str]:
        """Every name the variant `name` reads, calls or offers."""
        found = self._variant_names.get(name)
        if found is None:
            found = self._variant_names[name] = names_used([self.src.variants[name]])
        return found

    def played(self, scen: A.ScenarioDef) -> Played:
        """The example of a scenario of this source, played once for the books in every language."""
        found = self._played.get(id(scen))
        if found is None or found.scen is not scen:
            found = self._played[id(scen)] = Played(self.src, scen)
        return found

    @cached_property
    def assumed(self) -> list[tuple[Any, Any]]:
        """Every node of the items that carries an `assumed` marker, with the node that owns it."""
        return [found for item in self.items for found in assumed_in(item)]

    @cached_property
    def in_place(self) -> set[str]:
        """The rules told where they are called, so without an entry of their own."""
        return rules_in_place(self.told_in_place, self.items)


def assumed_in(item: A.Node) -> list[tuple[Any, Any]]:
    """_assumed's nodes of one item, found once for the item (most items are the same in every book)."""
    kept = _assumed_in.get(id(item))
    if kept is None or kept[0] is not item:
        if len(_assumed_in) >= MEMORY_ITEMS:
            _assumed_in.clear()
        kept = _assumed_in[id(item)] = (item, list(_assumed(item)))
    return kept[1]


def _assumed(item: Any) -> Iterator[tuple[Any, Any]]:
    """Every node below an item that carries an `assumed` marker, with the node that owns it."""
    stack: list[tuple[Any, Any]] = [(item, item)]
    while stack:
        node, owner = stack.pop(0)
        if getattr(node, "assumed", None) is not None:
            yield node, owner
        if isinstance(node, A.Node):
            for name in type(node).model_fields:
                value = getattr(node, name)
                for child in value if isinstance(value, list) else [value]:
                    if isinstance(child, A.Node) and not isinstance(child, A.Assumed):
                        stack.append((child, node if isinstance(node, (A.CardsDef, A.CardEntry)) else owner))


def shared(src: RulesetSource, variants: Sequence[str]) -> Shared:
    """The one Shared of this source (the very object) and these variants, made at the first ask."""
    key = (id(src), tuple(variants))
    found = _kept.get(key)
    if found is None or found.src is not src:
        if len(_kept) >= MEMORY:
            _kept.clear()
        found = _kept[key] = Shared(src, key[1])
    return found
