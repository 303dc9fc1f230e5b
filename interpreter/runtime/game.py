"""A ruleset compiled for one player count: the zone layout, constants and the factory of states."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Iterator, Optional

from dsl.limits import MAX_FAMILY, MAX_ZONES
from interpreter.runtime.catalogue import Catalogue
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.limits import Limits
from interpreter.runtime.observation import tensor_size
from interpreter.runtime.program import Fn, Op, Program
from interpreter.runtime.saved import parse
from interpreter.runtime.state import IllegalActionError, Start, State, StateUsageError, is_index, step_op


FEW_ZONES = 8  # a family of at most this many zones is cheaper to read afresh than to keep up to date


class ConstantError(ValueError):
    """A constant (or zone size) that cannot be computed for a player count."""

    def __init__(self, name: str, players: int, why: str) -> None:
        super().__init__(f"'{name}' cannot be computed for {players} players: {why}")
        self.name = name


def _first_resumable(game: "Game", bid: int, st: State, fr: list[Any]) -> Iterator[tuple[Any, ...]]:
    """Makes block `bid`'s resumable runner for the game (Block.resumable) in its place in Game.gens, and enters it."""
    make = game.program.blocks[bid].resumable
    assert make is not None, f"block {bid} has no resumable runner"
    run = game.gens[bid] = make(game)
    return run(st, fr)


class _Probe:
    """Stands in for a state while constants and zone sizes are evaluated (they read only the game)."""

    def __init__(self, game: "Game") -> None:
        self.game = game


class Game:
    # slots: generated code made for a game reads its tables once, but the rest of the engine at every step, and a
    # game of this many attributes would keep them in a plain dict
    __slots__ = ("program", "limits", "source", "reload", "ruleset", "variants", "num_players", "players", "next_seat",
                 "no_counts",
                 "all_mask", "card_ids", "card_index", "card_vals", "code", "op_pos", "runners", "gens", "enter_at",
                 "listers", "restricted", "fns", "rules", "effect_runs", "actions", "starts", "nlocals", "mod_field", "mod_rows", "mods_nest", "labels",
                 "consts", "fam_zones", "zone_names", "zone_number", "zone_player", "zone_mask", "zone_shuffled",
                 "zone_public", "zone_cap", "zone_family", "fam_span", "fam_few", "fam_place", "fam_at", "fam_numbers",
                 "fam_full", "field_col", "start_zones", "start_where", "_catalogue", "_rows", "start_state", "max_outcomes", "max_steps", "max_both",
                 "__weakref__")
    max_steps: int  # the limits' two budgets a step reads (set with the limits: __setattr__)
    max_both: int

    def __setattr__(self, name: str, value: Any) -> None:
        """Setting the limits (load_game's reload does, after the game is built) also sets the two budgets a step
        reads of them (State.apply_action), as the game's own, which each state made since copies (State.max_steps)."""
        object.__setattr__(self, name, value)
        if name == "limits":
            object.__setattr__(self, "max_steps", value.max_steps)
            object.__setattr__(self, "max_both", value.max_both)

    def __init__(self, program: Program, num_players: int, ruleset: str, variants: list[str],
                 limits: Optional[Limits] = None) -> None:
        if not program.min_players <= num_players <= program.max_players:
            raise ValueError(f"{ruleset} is for {program.min_players} to {program.max_players} players, "
                             f"not {num_players}")
        self.program = program
        self.limits = limits or Limits.from_env()
        self.source: Optional[str] = None  # where load_game found the rules, so a pickled game can load them again
        self.reload: Optional[Callable[[str, tuple[str, ...], int, Limits], Game]] = None  # load_game's, set with source
        self.ruleset = ruleset
        self.variants = list(variants)
        self.num_players = num_players
        self.players = list(range(num_players))
        self.next_seat = [*self.players[1:], 0]  # each seat's next one: a turn goes on by one index, no `% n`
        self.no_counts = (0,) * (num_players + 1)  # a family's counts by owner once it is empty (blocks.no_owned)
        self.all_mask = (1 << num_players) - 1
        self.card_ids = [c.id for c in program.cards]
        self.card_index = {cid: c for c, cid in enumerate(self.card_ids)}
        self.card_vals = program.card_vals
        self.code: list[list[Op]] = program.code
        self.op_pos = [b.pos for b in program.blocks]
        self.runners: list[Op] = []  # per block: its runner (made by Block.runner once the tables are), entered at a start
        # per block and step (to one past its last): what runs a frame standing there on (State.apply_action), the runner
        # at a start, else the one op (a step only a saved or arranged state stands at); made with the runners
        self.enter_at: list[list[Op]] = []
        self.nlocals = [b.nlocals for b in program.blocks]
        self.mod_field = [md.field for md in program.moddefs]  # modifier → the field it changes (runtime.modified)
        self.mod_rows = [(md.field, md.kind, md.apply) for md in program.moddefs]
        self.mods_nest = any(md.nests for md in program.moddefs)  # a read of a modified field may meet another
        # per seat: option → its label (options.option_label); one dict for all seats where no label names the seat
        seated = any(a.label_names_me for a in program.actions)
        self.labels: list[dict[Any, str]] = [{} for _ in self.players] if seated else [{}] * num_players
        self.starts: list[dict[Any, Start]] = [{} for _ in self.players] if seated else [{}] * num_players  # State._start
        probe: Any = _Probe(self)
        self.consts: list[Any] = []
        for name, fn in program.consts:
            try:
                self.consts.append(fn(probe, []))
            except GameRuleError as exc:
                raise ConstantError(name, num_players, exc.message) from None
        self.fam_zones: list[list[int]] = []
        self.zone_names: list[str] = []
        self.zone_number: list[int] = []
        self.zone_player: list[int] = []
        self.zone_mask: list[int] = []  # who sees the cards: a bit per seat; -1 = the card's owner
        self.zone_shuffled: list[bool] = []
        self.zone_public: list[bool] = []  # declared public: the observer with no seat sees its cards too
        self.zone_cap: list[Optional[int]] = []
        self.zone_family: list[int] = []
        self.fam_span: list[tuple[int, int]] = []  # a family's zones are the consecutive ids lo … hi - 1
        for spec in program.zones:
            if spec.shape == "single":
                count = 1
            elif spec.shape == "per_player":
                count = num_players
            else:
                assert spec.size is not None
                try:
                    count = spec.size(probe, [])
                except GameRuleError as exc:
                    raise ConstantError(spec.name, num_players, exc.message) from None
                if count > MAX_FAMILY:
                    raise ConstantError(spec.name, num_players, f"a family has at most {MAX_FAMILY} zones, not {count}")
            if len(self.zone_names) + count > MAX_ZONES:
                raise ConstantError(spec.name, num_players, f"a game has at most {MAX_ZONES} zones in all")
            ids = []
            self.fam_span.append((len(self.zone_names), len(self.zone_names) + count))
            for i in range(count):
                z = len(self.zone_names)
                ids.append(z)
                if spec.shape == "single":
                    self.zone_names.append(spec.name)
                elif spec.shape == "per_player":
                    self.zone_names.append(f"{spec.name}[P{i + 1}]")
                else:
                    self.zone_names.append(f"{spec.name}[{i + 1}]")
                self.zone_number.append(0 if spec.shape == "single" else i + 1)
                self.zone_player.append(i if spec.shape == "per_player" else -1)
                if spec.visibility == "public":
                    mask = self.all_mask
                elif spec.visibility == "hidden":
                    mask = 0
                else:
                    mask = 1 << i if spec.shape == "per_player" else -1
                self.zone_mask.append(mask)
                self.zone_shuffled.append(spec.shuffled)
                self.zone_public.append(spec.visibility == "public")
                self.zone_cap.append(spec.capacity)
                self.zone_family.append(spec.family_id)
            self.fam_zones.append(ids)
        self.fam_few = [hi - lo <= FEW_ZONES for lo, hi in self.fam_span]  # dropped by a move, not refiled (blocks.card_move)
        # per family, its zones by place number (counted from 1): a place checked and read in one lookup (expressions.e_Index)
        self.fam_place: list[dict[int, int]] = [dict(enumerate(ids, 1)) for ids in self.fam_zones]
        # per family, its zone at each place number, at that index (0 is no place): a place known to exist read by one
        # index, no `- 1` (expressions.e_Index)
        self.fam_at: list[list[int]] = [[-1, *ids] for ids in self.fam_zones]
        # per family, its place numbers 1 … n (positions): made once, not by a range call at each loop over them
        self.fam_numbers: list[range] = [range(1, len(ids) + 1) for ids in self.fam_zones]
        # per family of a capacity, the cards it holds with each of its zones full (-1: none), for a test of that
        # from its counts by owner (expressions._every_place_full)
        self.fam_full: list[int] = [-1 if spec.capacity is None else spec.capacity * len(ids)
                                    for spec, ids in zip(program.zones, self.fam_zones)]
        # per field number, each card's printed value of the field of its kind at that number (None past its row): the
        # rules read a field no rule sets (Program.printed) by one index (expressions.field_read)
        widest = max(map(len, self.card_vals), default=0)
        self.field_col: list[list[Any]] = [[row[k] if k < len(row) else None for row in self.card_vals]
                                           for k in range(widest)]
        self.start_zones: list[list[int]] = [[] for _ in self.zone_names]  # each card in the first zone of its family
        self.start_where: list[int] = []
        for c, info in enumerate(program.cards):
            z = self.fam_zones[program.zone_by_name[info.zone].family_id][0]
            self.start_zones[z].append(c)
            self.start_where.append(z)
        self._catalogue: Optional[Catalogue] = None
        self._rows: dict[int, list[Optional[list[tuple[int, int, int]]]]] = {}  # option_rows, per action
        # every new state as it stands at its first stop, made by the first new_initial_state (State._set_up) from
        # the game as it then stood: a later change of the game's limits is not seen by it
        self.start_state: Optional[State] = None
        self.max_outcomes = max([len(self.card_ids), 1]
                                + [self._outcome_bound(kind, n) for kind, n in program.random_bounds])
        self.fns: dict[str, Fn] = {}
        self.rules: list[Callable[..., None]] = []
        self.effect_runs: list[list[Optional[Callable[..., None]]]] = []
        self.make_rules()
        # per action: its block, its frame's locals past the option's and its body's function if it runs through
        self.actions: list[tuple[int, tuple[None, ...], Optional[Callable[..., None]]]] = [
            (a.block, a.blank, None if a.run is None else a.run(self)) for a in program.actions]
        # made with the tables above (compiler._option_listers): each `choose action`'s lister and picker (or None)
        self.restricted = [make(self) for make in program.restricted]  # first: a lister is made with its own
        self.listers = [None if make is None else make(self) for make in program.listers]
        for b in program.blocks:  # made with the tables above bound (compile/blocks.py _runner_code)
            assert b.runner is not None, f"block {b.name} has no runner"
            self.runners.append(b.runner(self))
        self.enter_at = [[run if pc in b.starts else step_op for pc in range(len(b.code) + 1)]
                         for b, run in zip(program.blocks, self.runners)]
        # per block: its runner as a generator, entered at the same steps (State.apply_action's run in the API loop),
        # made at its first use (most processes never run one)
        self.gens: list[Callable[[State, list[Any]], Iterator[tuple[Any, ...]]]] = [
            partial(_first_resumable, self, bid) for bid in range(len(program.blocks))]

    def make_rules(self) -> None:
        """Makes, for this game, the functions of the rules that run through (Program.rules) it has not made yet, each
        after those it calls, with the tables above bound (a scenario's `arrange` may compile new ones later); and so
        first the functions the rules define (Program.functions)."""
        for name, make_fn in self.program.functions[len(self.fns):]:
            self.fns[name] = make_fn(self)
        for make in self.program.rules[len(self.rules):]:
            self._make_effect_runs()  # before a rule that may read them
            self.rules.append(make(self))
        self._make_effect_runs()

    def _make_effect_runs(self) -> None:
        """Makes the tables of effects (Program.effect_runs) whose functions are all made, in order."""
        for ready, table in self.program.effect_runs[len(self.effect_runs):]:
            if ready > len(self.rules):
                return
            self.effect_runs.append([None if e is None else self.rules[e] for e in table])

    def _outcome_bound(self, kind: str, n: int) -> int:
        """The most outcomes one `random` may have: its literal or constant list's length, else as many as
        there are distinct values of its type (players, cards, zones, enum values, truth values), else any
        list the engine lets a rule make (Limits.max_list)."""
        if kind in ("literal", "enum"):
            return n
        if kind == "const":
            value = self.consts[n]
            return len(value) if isinstance(value, list) else self.limits.max_list
        sizes = {"player": self.num_players, "card": len(self.card_ids), "zone": len(self.zone_names), "bool": 2}
        return sizes.get(kind, self.limits.max_list)

    def places(self, fam: int, *read: int) -> tuple[tuple[int, ...], ...]:
        """The family's places as (number, zone) pairs, or (number, the zone at that number of each family `read`, as
        large): a loop over them (a lister's: hoist.known_places; statements._over_places; bound once per game)
        unpacks each, not counting the number up."""
        return tuple(zip(range(1, len(self.fam_zones[fam]) + 1), *(self.fam_zones[f] for f in read or (fam,))))

    def seat_zones(self, *read: int) -> tuple[tuple[int, ...], ...]:
        """The seats as (seat, its zone of each per-player family `read`): a loop over the players that reads those
        zones (statements._over_places; bound once per game) unpacks them with the seat."""
        return tuple(zip(self.players, *(self.fam_zones[f] for f in read)))

    def option_rows(self, aid: int) -> list[Optional[list[tuple[int, int, int]]]]:
        """Per value of an action's first parameter (a card or a place number), its options' row (helpers.option_row),
        made on first use: a lister (bound once per game) appends an option of the row, no new tuple each time; the
        listers of the action share them."""
        if aid not in self._rows:
            self._rows[aid] = [None] * (len(self.card_ids) + len(self.zone_names))
        return self._rows[aid]

    def place_rows(self, fam: int, aid: int) -> tuple[tuple[int, int, list[tuple[int, int, int]]], ...]:
        """The family's places as (number, zone, row) triples, the row that of the options `(aid, number, c)` of every
        card c (helpers.option_row): a lister's loop over the places of an action's first parameter (bound once per
        game, hoist._places_enumerated) unpacks its row with its place."""
        cards = range(len(self.card_ids))
        return tuple((n, z, [(aid, n, c) for c in cards]) for n, z in self.places(fam))

    def zone_rows(self, fam: int, aid: int) -> tuple[tuple[int, list[tuple[int, int, int]]], ...]:
        """place_rows without the numbers, as (zone, row) pairs: for a loop that reads no place number (one store
        fewer per place)."""
        return tuple((z, row) for _, z, row in self.place_rows(fam, aid))

    def card_rows(self, aid: int) -> list[tuple[int, int]]:
        """The options `(aid, c)` of an action of one card parameter, for every card c: a lister (bound once per game)
        appends an item of the list, no new tuple each time (compiler.option_made)."""
        return [(aid, c) for c in range(len(self.card_ids))]

    def zone_at(self, fam: int) -> list[int]:
        """Per zone id, the zone of family `fam` at that zone's place number (-1 where it has none): a lister reads
        the place of another family as large as the card's (hoist.known_places) in one lookup, bound once per game."""
        zones = self.fam_zones[fam]
        return [zones[n - 1] if 0 < n <= len(zones) else -1 for n in self.zone_number]

    @property
    def catalogue(self) -> Catalogue:
        """Built on first use: most callers never need action ids."""
        if self._catalogue is None:
            self._catalogue = Catalogue(self)
        return self._catalogue

    def num_distinct_actions(self) -> int:
        """How many ids the action catalogue has: every move the game can offer, each with a fixed id."""
        return self.catalogue.size

    def action_id_to_string(self, action_id: int) -> str:
        """A readable string for any catalogue id (`{me}` in a label stays `{me}`); IllegalActionError otherwise."""
        return self.catalogue.to_string(_Probe(self), self.check_id(action_id), "{me}")

    def check_id(self, action_id: int) -> int:
        """The id, checked to be an int in 0 … num_distinct_actions() - 1."""
        if not is_index(action_id) or not 0 <= action_id < self.catalogue.size:
            raise IllegalActionError(f"action id {action_id!r} is not in the catalogue (0 to {self.catalogue.size - 1})")
        return action_id

    def max_chance_outcomes(self) -> int:
        """The most outcomes a chance node can have: a draw from a shuffled zone offers at most every card;
        a `random` is bounded as _outcome_bound says. A node past it is a GameRuleError at run time."""
        return self.max_outcomes

    def max_game_length(self) -> int:
        """The most decisions and chance outcomes a game can take: the Limits budget max_actions, which the
        engine enforces (a game going past it is a located GameRuleError)."""
        return self.limits.max_actions

    def observation_tensor_size(self) -> int:
        """The length of state.observation_tensor(seat), the same for every state of this game."""
        return tensor_size(self)

    def utility_range(self) -> tuple[float, float]:
        """The returns' bounds: each seat gets 1.0 for a win (shared wins included) and 0.0 otherwise."""
        return 0.0, 1.0

    def sees(self, z: int, c: int, owner: list[int]) -> int:
        """The seats that see card c while it lies in zone z face down (a bit per seat)."""
        mask = self.zone_mask[z]
        if mask >= 0:
            return mask
        return 1 << owner[c] if owner[c] >= 0 else 0

    def new_initial_state(self, seed: int = 0) -> State:
        """StateUsageError for a seed that is not an int: a float or str would break the random stream later."""
        if not is_index(seed):
            raise StateUsageError(f"seed must be an int, not {seed!r}")
        return State(self, seed)

    def state_from_json(self, text: str) -> State:
        """A saved state, checked like any untrusted input: a bad one is one SavedStateError."""
        return State.from_dict(self, parse(text))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as where its rules come from (compiled code does not pickle); loading compiles them again."""
        if self.source is None or self.reload is None:
            raise TypeError("only a game made by load_game can be pickled: it is rebuilt from its rules files")
        return self.reload, (self.source, tuple(self.variants), self.num_players, self.limits)

    def __repr__(self) -> str:
        variants = f" +{'+'.join(self.variants)}" if self.variants else ""
        return f"<Game {self.ruleset}{variants} players={self.num_players}>"

