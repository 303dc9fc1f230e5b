"""A game state with an OpenSpiel-shaped API. All of it is plain lists and ints, so it clones by
copying lists and saves to JSON anywhere, mid-turn included."""
from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Optional, Sequence

from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.observation import observation, observation_tensor, public_observation
from interpreter.runtime.ops import CHANCE, DECIDE, L_DECIDE, over_budget, unique
from interpreter.runtime.options import LABELS_KEPT, option_label
from interpreter.runtime.saved import FORMAT, resume, validate

if TYPE_CHECKING:
    from dsl.ast import Pos
    from interpreter.compile.types import T
    from interpreter.runtime.game import Game
    from interpreter.runtime.program import Fn

# an option of `choose action` as State.take_action takes it (State._start): label, block, locals, body
Start = tuple[str, int, tuple[Any, ...], Optional[Callable[..., None]]]

CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
_MASK = (1 << 64) - 1
_ACTIONS: dict[int, list[int]] = {}  # legal_actions' answers by number of options
# apply_action's quick test of an action: an int from 0 to 256 is (in CPython) the one object of its value, so it is
# the item of its own index here, where a bool, an int below 0 or a larger one is not (None past the small ones,
# or an IndexError); those go on to the full check (State._check_action)
_INDEXES: list[Optional[int]] = [*range(257)]
_OUTCOMES: dict[int, list[tuple[int, float]]] = {}  # chance_outcomes' answers by number of outcomes
# what json.dumps(..., separators=(",", ":"), ensure_ascii=False) gives, made once; a state holds no
# cycles, so the check for them is left out
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


class StateUsageError(ValueError):
    """A State method called with a bad argument or at the wrong kind of node; the state is left
    exactly as it was, so a caller can catch it and go on."""


class IllegalActionError(StateUsageError):
    """An action that is not legal here; the state is left exactly as it was."""


class NotASeatError(StateUsageError):
    """A seat that is not an int from 0 to num_players - 1."""


class WrongNodeError(StateUsageError):
    """A call that only a chance node (or only an open node) answers, made at another kind of node."""


def is_index(value: object) -> bool:
    """An int that is not a bool: True would otherwise pass as action or seat 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def random_below(bits: Callable[[int], int], n: int) -> int:
    """random.Random.randrange(n) written out (the rejection sampling of Random._randbelow) over the generator's
    getrandbits: the same numbers from the same stream, without randrange's checks (RandomAgent, State.agent_pick)."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def step_op(st: "State", fr: list[Any]) -> Optional[bool]:
    """Runs the one op a frame stands at, between its block's starts (Game.enter_at); a failure is located at it."""
    bid, pc, _ = fr
    fr[1] = pc + 1
    try:
        return st.game.code[bid][pc](st, fr)  # type: ignore[no-any-return]
    except GameRuleError as exc:
        raise exc.at(st.game.op_pos[bid][pc]) from None


_NO_RUN: Iterator[tuple[Any, ...]] = iter(())  # State._gen where the state has no run: one that has ended


def _resumed(st: "State") -> Iterator[tuple[Any, ...]]:
    """The run of the state's top frame in the API loop as a generator, which yields each stop's node and goes on from
    there at the next step: its block's resumable runner (Game.gens, entered as Game.enter_at says), which runs the
    frames it pushes inside itself, so a stop costs no new entry into the runners of the frames below it."""
    fr = st.frames[-1]
    if st.game.enter_at[fr[0]][fr[1]] is step_op:  # between its block's starts (a saved or arranged state)
        return _stepped(st, fr)
    run: Iterator[tuple[Any, ...]] = st.game.gens[fr[0]](st, fr)
    return run


def _stepped(st: "State", fr: list[Any]) -> Iterator[tuple[Any, ...]]:
    """The frame's one op (step_op), as a generator."""
    if step_op(st, fr):
        yield st.pending  # type: ignore[misc]  # the node it stopped at


class State:
    __slots__ = ("game", "zones", "where", "owner", "card_vals", "gvars", "pvars", "frames", "mods", "forbids",
                 "known", "pending", "_seed", "_stream", "_input", "round", "phase", "log", "history", "_returns",
                 "_base", "_steps", "budget", "modded", "fam_cards", "owned", "sampling", "agents", "random_bits",
                 "keep_log", "_gen", "max_steps", "max_both")

    def __init__(self, game: "Game", seed: int = 0, _empty: bool = False) -> None:
        self.game = game
        # what a failing step goes back to (_go_back): the seed of a new state, or a copy of the state as it stood,
        # and the actions apply_action applied since, or both None: no base (apply_action takes a copy first; a base
        # no step can go back to is not kept alive)
        self._base: Optional[int | State] = None
        self._steps: Optional[list[int]] = None
        self.budget = game.max_steps  # set again by each run; here too for an op run on a clone
        # the two budgets a step reads (its game's, of the limits as they are when the state is made): one read each
        self.max_steps, self.max_both = game.max_steps, game.max_both
        self.fam_cards: dict[int, list[int]] = {}  # family -> its cards (helpers.family_cards), kept by blocks.card_move
        self.sampling = False  # whether this run decides chance events itself (advance(a, sample_chance=True) only)
        self.agents: Optional[Sequence[Any]] = None  # agents taking the decisions inside the run (decide_inline)
        # per seat, with agents: the bit source of a plain random agent, whose pick agent_pick writes out, or None
        self.random_bits: Sequence[Optional[Callable[[int], int]]] = ()
        # whether the log keeps its entries, or only their count (each entry (), for the Limits' max_log): in a
        # playout whose log nobody reads (simulate.play_bots), a move skips working out who saw it
        self.keep_log = True
        # the live state's run in the API loop, stopped where the state stands (_resumed), or _NO_RUN: dropped
        # wherever the frames go on without it or the state is written to otherwise (never copied, saved or pickled)
        self._gen: Iterator[tuple[Any, ...]] = _NO_RUN
        self._stream = self._input = 0  # no draws yet: the count the seed setter keeps (a copy's or load's is set)
        if _empty:
            return
        start = game.start_state
        if start is None:
            self._set_up(seed)
            self._run()
            game.start_state = self.clone()
        else:
            start._copy_to(self)
            self.seed = seed
        self._base, self._steps = seed, []  # a new state of the same seed is this one

    def _set_up(self, seed: int) -> None:
        """The state before its setup runs: each card in the first zone of its family, the variables at their
        start values. That and the run up to the first stop are the same for every seed (a start value is an
        expression, and a chance event is a stop there), so a game runs them once and a new state starts as a
        copy of where that run stopped (Game.start_state)."""
        game = self.game
        prog = game.program
        ncards = len(prog.cards)
        self.zones: list[list[int]] = [z[:] for z in game.start_zones]
        self.where: list[int] = game.start_where[:]
        # per card, the seats it was shown to (`reveal c to p`), a bit each, until it moves; ~ of that (below 0) while
        # it lies face up (`reveal c`), so a move tests one number for both (saves write them apart: face_up)
        self.known: list[int] = [0] * ncards
        self.owner: list[int] = [-1] * ncards
        self.card_vals: list[list[Any]] = list(game.card_vals)
        self.gvars: list[Any] = []
        self.pvars: list[list[Any]] = [[] for _ in game.players]
        self.mods: list[tuple[int, int, list[Any]]] = []  # (modifier, scope, captured locals)
        self.modded: frozenset[int] = frozenset()  # at least the fields the active modifiers change (runtime.modified)
        self.forbids: list[tuple[int, int, list[Any]]] = []
        self.pending: Optional[tuple[Any, ...]] = None
        self.seed = seed
        self.draws = 0
        self.round = 0
        self.phase = "setup"
        self.log: list[tuple[Any, ...]] = []
        self.history: list[str] = []
        self._returns: Optional[list[float]] = None
        for (_, _, init), pos in zip(prog.gvars, prog.gvar_pos):
            self.gvars.append(self._start_value(init, [], pos))
        for p in game.players:
            for (_, _, init), pos in zip(prog.pvars, prog.pvar_pos):
                self.pvars[p].append(self._start_value(init, [p], pos))
        for _, (pidx, bank) in prog.currencies.items():
            self.gvars[bank] -= sum(self.pvars[p][pidx] for p in game.players)
        self.frames: list[list[Any]] = [[prog.main_block, 0, []]]
        self.recount()

    @property
    def face_up(self) -> list[bool]:
        """Whether each card lies face up (a new list, read from `known`)."""
        return [k < 0 for k in self.known]

    def recount(self) -> None:
        """The cards of each family in Program.counted by owner: a slot per seat and the last for the bank (-1), kept
        by the moves and gifts of the generated code; counted afresh where zones or owners are set otherwise."""
        game, owner = self.game, self.owner
        self.owned: dict[int, list[int]] = {}
        for k in game.program.counted:
            counts = self.owned[k] = [0] * (game.num_players + 1)
            for cards in self.zones[slice(*game.fam_span[k])]:
                for c in cards:
                    counts[owner[c]] += 1

    # ---------------------------------------------------------------- execution
    def _start_value(self, init: "Fn", L: list[Any], pos: "Pos") -> Any:
        """A variable's start value; a failure names the line that gives it."""
        try:
            return init(self, L)
        except GameRuleError as exc:
            raise exc.at(pos).during(self.seed, []) from None

    def apply_action(self, action: int, pending: Optional[tuple[Any, ...]] = None, undoable: bool = True) -> None:
        """advance, all or nothing: a step that fails leaves the state exactly as it was. Nothing is noted on the
        way: the state goes back by replaying the steps since its base (_go_back), as a game plays the same
        from the same seed and actions. `pending` and `undoable` are the engine's own (callers give only the action):
        its runs (advance, _run) come here not undoable, with the node to step, checked (None: none; the run goes on
        from the frames as they stand), so that an API step is one Python call.

        A step takes option `action` of the open node (`choose action`'s by take_action, a chance outcome here,
        any other decision's by _choose), then runs ops until a decision, a chance event or the end; a
        GameRuleError leaves it located at the failing op's statement (or an inner position), with the seed and
        decision number. A run past a budget of the game's Limits is such an error, at the loop or the stop that
        went past it. A frame standing at one of its block's starts goes on in the block's runner
        (compile/blocks.py), else one op at a time (a step only a saved or arranged state stands at; Game.enter_at
        says which). In a sampling run (advance's), the ops decide the chance events they open at once
        (sample_chance(n)). The node taken stays in `pending` through an API run, which reads it nowhere, until
        the stop or the end sets it; the engine's run closes it first, for the agents that decide inside it."""
        if not undoable:  # the engine's own run (advance, _run): the node given, checked, or none
            if pending is None:  # the run goes on from the frames as they stand: no option to take (kind None, labels
                kind, labels, slot = None, (), 0  # not None, slot not below 0: no branch below takes one)
            else:
                kind, seat, labels, values, slot = pending
                value = values[action]
        else:  # the open node, unless the quick test fails (a bool, below 0 or an int past the small ones; IndexError:
            # below); the try's first line holds the test, so that the try costs no NOP (see is_chance_node); the action
            # noted last is not replayed if the step fails (_go_back)
            try: kind, seat, labels, values, slot = (self._check_action(action) if _INDEXES[action]  # type: ignore[misc]
                                                     is not action else self.pending); value = values[action]; (
                self._steps.append(action))  # type: ignore[union-attr]  # noqa: E701, E702
            except (TypeError, IndexError):  # the end (no node to unpack), an action past the last option or not an int,
                self._apply_past_indexes(action)  # or one past the ints _INDEXES holds: refused unless legal
                return
            except AttributeError:  # no base (_steps None): the state as it stands is, taken before the step
                self._base, self._steps = self.clone(), [action]
        try:
            if kind:  # a chance node (CHANCE is the one true kind: DECIDE is 0, a run's None): its label noted (a
                # draw's: its card's id), its value put into its slot; the node stays until the run stops or ends
                self.history.append(labels[action] if labels is not None else self.game.card_ids[value])
                self.frames[-1][2][slot] = value
            elif labels is None:  # a decision opened without labels: `choose action`'s, its labels not read (the
                self.take_action(seat, value)  # usual one; a `choose`'s has its labels), of the label the game remembers
            elif slot < 0:  # `choose action`'s, its labels read (State._labels): of the node's own label
                self.take_action(seat, value, labels[action])
            elif kind == DECIDE:
                self._choose(self.pending, action)  # type: ignore[arg-type]  # the node stepped (`pending` in a run)
            self.budget = self.max_steps  # loop rounds and calls until the next stop (see blocks.loop_back)
            # the API loop, which leaves only by a stop's return or at the end's break: the run goes on in the
            # generator that stopped (_resumed); else (not undoable) the engine's loop, over the runners
            while undoable:
                for self.pending in self._gen:  # a stop, at the node it yields (runners locate errors of theirs)
                    if len(self.log) + len(self.history) > self.max_both:
                        self._past_written_at(self.frames[-1])
                    return
                if not self.frames:
                    break
                self._gen = _resumed(self)  # the frame on top, below those of the run that ended
            else:
                self._gen = _NO_RUN
                self.pending = None  # the node taken (kept by the step): agents in the run see the ones it opens
                enter_at, frames = self.game.enter_at, self.frames
                while frames:
                    fr = frames[-1]
                    if enter_at[fr[0]][fr[1]](self, fr):  # the runner (or op) leaves fr[1] after the op that failed
                        if len(self.log) + len(self.history) > self.max_both:
                            self._past_written_at(frames[-1])  # the frame that stopped, maybe one its runner ran
                        return
            self.pending = None
            self._finish()
        except GameRuleError as exc:  # located where it was raised (by a runner or op, a stop, _finish)
            exc = exc.during(self.seed, self.history)  # the steps so far, this one's own included (not _go_back's)
            if undoable:
                self._go_back()
            raise exc from None
        except BaseException:  # whatever else stops a step must not leave half of it either
            if undoable:
                self._go_back()
            raise

    def _run(self, pending: Optional[tuple[Any, ...]] = None, action: int = 0) -> None:
        """apply_action's step, not undoable: `action` (checked) of the node `pending`, or, without one, the run
        on from the frames as they stand (a new game's set-up, a scenario's arranged state)."""
        self.apply_action(action, pending, False)

    def _past_written_at(self, fr: list[Any]) -> None:
        """past_written at apply_action's stop, where frame `fr` stands after the op that stopped: its error located
        at that op."""
        try: self.past_written()  # noqa: E701
        except GameRuleError as exc:
            raise exc.at(self.game.op_pos[fr[0]][fr[1] - 1]) from None

    def past_written(self) -> None:
        """At a stop whose log and history together are past Limits.max_both: the error of the one past its own budget
        (ops.over_budget), if either is."""
        limits = self.game.limits
        if len(self.log) > limits.max_log or len(self.history) > limits.max_actions:
            over_budget(self)

    def _finish(self) -> None:
        """Scores the ended game into the returns (also when a finished game is loaded: never read from a file)."""
        prog = self.game.program
        score, can_win, players = prog.score, prog.winner, self.game.players
        assert score is not None
        try:
            eligible = None if can_win is None else [bool(can_win(self, p)) for p in players]
        except GameRuleError as exc:
            raise exc.at(prog.def_pos["winner"]).during(self.seed, self.history) from None
        try:
            scores = [score(self, p) for p in players]
        except GameRuleError as exc:
            raise exc.at(prog.def_pos["score"]).during(self.seed, self.history) from None
        if eligible is None:  # every seat may win: no list of who may (every game is scored once, at its end)
            best = (min if prog.lowest_wins else max)(scores)
            self._returns = [1.0 if s == best else 0.0 for s in scores]
            return
        best = (min if prog.lowest_wins else max)((s for s, e in zip(scores, eligible) if e), default=None)
        self._returns = [1.0 if e and s == best else 0.0 for s, e in zip(scores, eligible)]

    def refile(self, c: int, src: int, z: int, bottom: bool) -> None:
        """Keeps the family cache (helpers.family_cards) right after card c moved from zone src to z (where[c]
        is z already; blocks.card_move calls it where a family of many zones is concerned and the cache keeps the
        list of one of the two families): new lists, as a running loop may hold the old ones. A family's zones are
        consecutive ids, so its list is ordered by zone id: c goes below or above the cards of zone z by bisection."""
        cached = self.fam_cards
        family = self.game.zone_family
        left, entered = family[src], family[z]
        cards = cached.get(left)
        if cards is not None:
            cards = cached[left] = cards[:]
            cards.remove(c)
        if entered != left:
            cards = cached.get(entered)
            if cards is None:
                return
            cards = cached[entered] = cards[:]
        elif cards is None:
            return
        cards.insert((bisect_left if bottom else bisect_right)(cards, z, key=self.where.__getitem__), c)

    # ---------------------------------------------------------------- OpenSpiel-shaped API
    def current_player(self) -> int:
        if self.pending is None:
            return TERMINAL_PLAYER
        return CHANCE_PLAYER if self.pending[0] == CHANCE else int(self.pending[1])

    def is_terminal(self) -> bool:
        return self.pending is None

    def is_chance_node(self) -> bool:
        # a try costs nothing where it does not catch (the API loop asks only before the end), and nothing at all on
        # its statement's line: Python runs a NOP for a `try:` line of its own (so do the API's other hot tries)
        try: return self.pending[0] == CHANCE  # type: ignore[index, no-any-return]  # noqa: E701
        except TypeError:  # the end: no node
            return False

    def legal_actions(self) -> list[int]:
        """0 to n - 1 for the n options: a copy of a list made once per n (about half the cost of a new range's list)."""
        try: return _ACTIONS[len(self.pending[3])].copy()  # type: ignore[index]  # noqa: E701
        except TypeError:  # the end: no node
            return []
        except KeyError:  # the first node of n options
            n = len(self.pending[3])  # type: ignore[index]
            actions = _ACTIONS[n] = [*range(n)]
            return actions.copy()

    def open_node_type(self) -> tuple[str, T, Any]:
        """What the op that opened the pending `choose`, `random` or draw node asks for: (node kind, value
        type, options as written); only for such a node (its slot is >= 0), not for `choose action`."""
        fr = self.frames[-1]
        return self.game.program.node_types[self.game.code[fr[0]][fr[1] - 1]]

    def _labels(self) -> list[str]:
        pending = self.pending
        if pending is None:
            raise WrongNodeError("the game is over; there are no options")
        if pending[2] is None:
            labels = self._made_labels(pending)
            self.pending = (pending[0], pending[1], labels, pending[3], pending[4])
            return labels
        return list(pending[2])

    def _made_labels(self, pending: tuple[Any, ...]) -> list[str]:
        """The labels of a node opened without them: a draw's are its cards' ids, `choose action`'s the
        options' labels (a node's labels are made only when read, most steps need only the chosen one)."""
        if pending[0] == CHANCE:
            return list(map(self.game.card_ids.__getitem__, pending[3]))
        return unique([option_label(self, v, pending[1]) for v in pending[3]])

    def legal_labels(self) -> list[str]:
        return self._labels() if self.pending is not None else []

    def action_to_string(self, action: int) -> str:
        """The label of a legal action; IllegalActionError for anything else, at the end too."""
        if self.pending is None:
            raise IllegalActionError(f"action {action!r} is not legal here: the game is over")
        if not is_index(action) or not 0 <= action < len(self.pending[3]):
            raise IllegalActionError(f"action {action!r} is not legal here; legal: 0 to {len(self.pending[3]) - 1}")
        return self._labels()[action]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) of each chance outcome; WrongNodeError unless this is a chance node."""
        n = len(self._chance("chance_outcomes")[3])
        outcomes = _OUTCOMES.get(n)
        if outcomes is None:  # made once per number of outcomes (a copy is cheaper than new pairs)
            outcomes = _OUTCOMES[n] = [(i, 1.0 / n) for i in range(n)]
        return outcomes.copy()

    def legal_action_ids(self) -> list[int]:
        """The catalogue ids of the current options, sorted (each once); empty at the end."""
        return sorted(self._id_positions()) if self.pending is not None else []

    def _id_positions(self) -> dict[int, int]:
        """Catalogue id → the first option position with it (equal moves share an id)."""
        positions: dict[int, int] = {}
        for pos, action_id in enumerate(self.game.catalogue.node_ids(self)):
            positions.setdefault(action_id, pos)
        return positions

    def apply_action_id(self, action_id: int) -> None:
        """Applies the option with this catalogue id; IllegalActionError (state unchanged) if none has it."""
        if self.pending is None:
            raise IllegalActionError(f"action id {action_id!r} is not legal here: the game is over")
        pos = self._id_positions().get(self.game.check_id(action_id))
        if pos is None:
            raise IllegalActionError(f"action id {action_id} ({self.action_id_to_string(action_id)}) is not legal here")
        self.apply_action(pos)

    def action_id_to_string(self, action_id: int) -> str:
        """The option's label for a legal id, as action_to_string gives it; for any other id the catalogue's
        string, with `{me}` the deciding seat at a decision."""
        pos = self._id_positions().get(self.game.check_id(action_id)) if self.pending is not None else None
        if pos is not None:
            return self._labels()[pos]
        me = f"P{self.pending[1] + 1}" if self.pending is not None and self.pending[0] == DECIDE else "{me}"
        return self.game.catalogue.to_string(self, action_id, me)

    def chance_outcome_ids(self) -> list[tuple[int, float]]:
        """(catalogue id, probability) of each chance outcome, sorted by id; equal outcomes add up."""
        pending = self._chance("chance_outcome_ids")
        probs: dict[int, float] = {}
        for action_id in self.game.catalogue.node_ids(self):
            probs[action_id] = probs.get(action_id, 0.0) + 1.0 / len(pending[3])
        return sorted(probs.items())

    def _chance(self, call: str) -> tuple[Any, ...]:
        """The pending chance node, checked before anything changes (an assert would vanish under -O)."""
        pending = self.pending
        if pending is None or pending[0] != CHANCE:
            self._no_chance(call)
        return pending

    def _no_chance(self, call: str = "sample_chance") -> NoReturn:
        """WrongNodeError for `call`, where no chance node is open."""
        if self.pending is None:
            raise WrongNodeError(f"{call}() at the end of the game: there is no chance node")
        raise WrongNodeError(f"{call}() at a decision of P{self.pending[1] + 1}: only a chance node has outcomes")

    def returns(self) -> list[float]:
        return list(self._returns) if self._returns is not None else [0.0] * self.game.num_players

    def observation(self, seat: int, full_log: bool = False) -> dict[str, Any]:
        """JSON-able view for one seat: only what that seat may see; the log's last LOG_TAIL entries unless full_log."""
        return observation(self, self._seat(seat), full_log)

    def information_state(self, seat: int) -> dict[str, Any]:
        """The seat's perfect-recall view: its observation with the whole filtered log and its own decisions."""
        return self.observation(seat, full_log=True)

    def public_observation(self, full_log: bool = False) -> dict[str, Any]:
        """The view of an observer with no seat: public zones, face-up cards, backs, public values."""
        return public_observation(self, full_log)

    def observation_tensor(self, seat: int) -> list[float]:
        """The seat's observation as game.observation_tensor_size() floats, for learning agents."""
        return observation_tensor(self, 1 << self._seat(seat))

    def _seat(self, seat: int) -> int:
        """The seat, checked: NotASeatError for anything but an int from 0 to num_players - 1."""
        if not is_index(seat):
            raise NotASeatError(f"seat must be an int from 0 to {self.game.num_players - 1}, not {seat!r}")
        if not 0 <= seat < self.game.num_players:
            raise NotASeatError(f"no seat {seat}: this game has seats 0 to {self.game.num_players - 1}")
        return seat

    def scores(self) -> list[int]:
        score = self.game.program.score
        assert score is not None
        return [score(self, p) for p in self.game.players]

    @property
    def seed(self) -> int:
        return self._seed

    @seed.setter
    def seed(self, seed: int) -> None:
        """Also keeps the seed's own term of a draw's input (sample_chance), so a draw does not compute it again, and
        the count of draws, on the new seed's stream. The steps so far came from another seed: no longer replayed
        (edited)."""
        self._seed = seed
        self._base = self._steps = None
        stream = (seed * 0x2545F4914F6CDD1D + 0x9E3779B97F4A7C15) & _MASK
        self._input, self._stream = (self._input - self._stream + stream) & _MASK, stream

    @property
    def draws(self) -> int:
        """How many numbers the stream has given (sample_chance). A draw advances only its input, the seed's term
        plus draws (mod 2 ** 64, as splitmix64 reads it), so the count is that less the seed's term."""
        return (self._input - self._stream) & _MASK

    @draws.setter
    def draws(self, draws: int) -> None:
        self._input = (self._stream + draws) & _MASK

    def sample_chance(self, n: Optional[int] = None) -> int:
        """A chance outcome drawn from the state's seeded stream: same seed, same game.
        WrongNodeError (the stream untouched) unless this is a chance node. `n` is the engine's own: the outcomes of
        a chance event decided inside a sampling run (see `advance`; the op notes the outcome's label), where no node
        is open; the budgets are then checked as at a stop and renewed as by a step.

        The draw: the next number u in [0, 1) of the stream (advancing it), int(u * n). u is splitmix64 of seed and
        draws, a tiny, fast, portable random function whose whole state is two integers (written out here, no call:
        its input, seed * 0x2545F4914F6CDD1D + draws + 0x9E3779B97F4A7C15, is the seed's term plus draws, kept as
        such: one more each draw). Between steps only sample_chance draws (_go_back keeps the count)."""
        if n is None:  # the open node's outcomes: the end (TypeError) and a decision (DECIDE is 0; ops) are refused
            try: n = self._no_chance() if not self.pending[0] else len(self.pending[3])  # type: ignore  # noqa: E701
            except TypeError:
                self._no_chance()
        else:
            if len(self.log) + len(self.history) > self.max_both:
                self.past_written()
            self.budget = self.max_steps
        self._input = x = (self._input + 1) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return int((x ^ (x >> 31)) / 2.0 ** 64 * n)

    def _check_action(self, action: int) -> tuple[Any, ...]:
        """The open node, if `action` is legal there; else IllegalActionError, the state unchanged (its callers
        try the common case, a plain int in range, themselves)."""
        pending = self.pending
        if pending is None or not is_index(action) or not 0 <= action < len(pending[3]):
            self._refuse(action)
        return pending

    def _apply_past_indexes(self, action: int) -> None:
        """apply_action of an action whose quick test raised, before the step changed anything: IllegalActionError
        unless it is a legal int past those _INDEXES holds, which then holds its index (as a None, so that the test
        sends it on to _check_action) and the step is taken."""
        self._check_action(action)
        _INDEXES.extend([None] * (action + 1 - len(_INDEXES)))
        self.apply_action(action)

    def _refuse(self, action: object) -> NoReturn:
        """The IllegalActionError of an action that is not legal here, the state unchanged."""
        if self.pending is None:
            raise IllegalActionError("the game is over; no action is legal")
        labels = self._labels()
        shown = ", ".join(f"{i}: {label}" for i, label in enumerate(labels[:12]))
        raise IllegalActionError(f"action {action!r} is not legal here; legal: {shown}"
                                 + (" …" if len(labels) > 12 else ""))

    def advance(self, action: int, sample_chance: bool = False) -> None:
        """apply_action without its undo, for playouts that drop a game whose rules fail (simulate): an
        illegal action is refused as there, but a GameRuleError leaves this state mid-step, unusable.
        With `sample_chance`, it goes on through chance events, each decided from the state's seeded stream
        as `advance(sample_chance())` would (the same game), and stops only at a decision or the end."""
        pending = self.pending
        if pending is None or type(action) is not int or not 0 <= action < len(pending[3]):
            pending = self._check_action(action)
        self._base = self._steps = None  # a step apply_action does not replay (see edited); its base is let go
        self.sampling = sample_chance
        try:
            self.apply_action(action, pending, False)
        finally:
            self.sampling = False

    def edited(self) -> None:
        """Tells the state it was written to other than by its steps (determinize, a scenario's `arrange`, a list
        replaced): a failing apply_action then goes back to it as it stands, not to what replaying its steps would give,
        and the next one goes on from the frames, not in the run (_gen), which holds the lists it read."""
        self._base = self._steps = None
        self._gen = _NO_RUN

    def _go_back(self) -> None:
        """The state before the failing step: its base with the steps since replayed, copied in (the log and
        history kept as the lists they are); that copy is the base from now on. The steps' runs do not sample
        chance, so only sample_chance drew between them: the count of draws is the failing step's own."""
        base, steps = self._base, self._steps
        assert base is not None and steps is not None  # apply_action set them
        back = State(self.game, base) if isinstance(base, int) else base.clone()
        back.keep_log = self.keep_log
        for action in steps[:-1]:  # the last is the failing step's own
            back.advance(action)
        back.draws = self.draws
        log, history = self.log, self.history
        back._copy_to(self)
        log[:], history[:] = self.log, self.history
        self.log, self.history = log, history
        self.fam_cards.clear()
        self._base, self._steps = back, []
        self._gen = _NO_RUN

    def decide_inline(self) -> None:
        """The decision its op has just opened (`pending`), with agents playing inside the run (play_bots): the
        seat's agent takes it here, as advance would after the stop, and the run goes on."""
        pending: tuple[Any, ...] = self.pending  # type: ignore[assignment]  # the node its op has just opened
        self._choose(pending, self.agent_pick(pending[1], pending[3]))

    def agent_pick(self, seat: int, options: Sequence[Any]) -> int:
        """The option the seat's agent picks among those of the decision just opened, inside the run (agents
        set): the budgets are checked as at a stop and renewed as by a step. The agent sees a state as at the
        stop: the frames stand after the op, the node is open (a `choose action` node, opened only here: not for
        a plain random agent, whose pick is written out from its stream, `random_bits`: RandomAgent.act's numbers)."""
        if len(self.log) + len(self.history) > self.max_both:
            self.past_written()
        bits = self.random_bits[seat]
        n = len(options)
        if bits is None:
            if self.pending is None:  # blocks.choose_action's node
                self.pending = (DECIDE, seat, None, options, -1)
            action: int = self.agents[seat].act(self)  # type: ignore[index]  # agents play
            if type(action) is not int or not 0 <= action < n:
                self._check_action(action)  # IllegalActionError
            self.pending = None  # closed again (take_action leaves it open), so the next agent_pick opens its own
        else:  # random_below written out: a call less per decision
            k = n.bit_length()
            action = bits(k)
            while action >= n:
                action = bits(k)
        self.budget = self.max_steps
        return action

    def _choose(self, pending: tuple[Any, ...], action: int) -> None:
        """Takes option `action` of the open decision `pending` of a value (not `choose action`'s): notes its label
        and puts the value into its slot of the node's frame."""
        _, seat, labels, values, slot = pending
        self.pending = None
        self.history.append(labels[action])
        self.log.append((L_DECIDE, seat, labels[action]))
        self.frames[-1][2][slot] = values[action]

    def take_action(self, seat: int, value: tuple[Any, ...], label: Optional[str] = None) -> None:
        """Takes the option `value` of the open `choose action` node: notes its label (the one the game remembers
        unless given), starts the action's frame, or runs a body that runs through at once, as its frame would. The
        node is left as it is: the run's next stop or end sets it (apply_action; agent_pick closes its own)."""
        # the option as the game remembers it (Game.starts): most are
        try: known, block, layout, run = self.game.starts[seat][value]  # noqa: E701
        except (KeyError, TypeError):  # not yet; or a parameter that is a list
            known, block, layout, run = self._start(seat, value)
        if label is not None:  # the node's own (its labels read, made unique)
            known = label
        self.history.append(known)
        self.log.append((L_DECIDE, seat, known))
        L = [*layout]  # the frame's locals: the option laid out (one allocation, where `[seat, *...]` makes two)
        L[0] = seat  # in the action id's place
        if run is None:
            self.frames.append([block, 0, L])
            return
        try: run(self, L)  # noqa: E701
        except GameRuleError as exc:
            raise exc.during(self.seed, self.history) from None

    def _start(self, seat: int, value: tuple[Any, ...]) -> Start:
        """What take_action needs of an option, remembered by the game (Game.starts, kept as Game.labels) where the
        option is hashable: its label, its action's block, the frame's locals as the option lays them out (action id,
        parameters, then the action's other locals; the seat goes in the id's place) and the body's function if it
        runs through."""
        label = option_label(self, value, seat)
        block, blank, run = self.game.actions[value[0]]
        start = (label, block, (*value, *blank), run)
        starts = self.game.starts[seat]
        try:
            starts[value] = start
        except TypeError:  # a parameter that is a list
            return start
        if len(starts) > LABELS_KEPT:
            starts.clear()
        return start

    def apply_label(self, label: str) -> None:
        """Applies the option with this label (for scenarios, replays and humans)."""
        if not isinstance(label, str):
            raise IllegalActionError(f"a label is a str, not {label!r}")
        labels = self.legal_labels()
        if label not in labels:
            from dsl.errors import did_you_mean
            hint = did_you_mean(label, labels)
            raise IllegalActionError(f"'{label}' is not legal here" + (f"; {hint}" if hint else "")
                                     + f" (legal: {', '.join(labels[:10])}{' …' if len(labels) > 10 else ''})")
        self.apply_action(labels.index(label))

    def clone(self) -> "State":
        """An independent copy (the game shared)."""
        s = State(self.game, _empty=True)
        self._copy_to(s)
        return s

    def _copy_to(self, s: "State") -> None:
        """Makes `s` a copy of this state; lists are copied by `copy`, which makes no slice object."""
        s.zones = [*map(list.copy, self.zones)]
        s.where = self.where.copy()
        s.known = self.known.copy()
        s.owner = self.owner.copy()
        s.owned = {k: counts.copy() for k, counts in self.owned.items()}
        s.card_vals = self.card_vals.copy()
        s.gvars = self.gvars.copy()
        s.pvars = [*map(list.copy, self.pvars)]
        s.frames = [[b, pc, L.copy()] for b, pc, L in self.frames]
        s.mods = self.mods.copy()
        s.modded = self.modded
        s.forbids = self.forbids.copy()
        s.pending = self.pending
        s._seed, s._stream, s._input, s.round, s.phase = self._seed, self._stream, self._input, self.round, self.phase
        s.log = self.log.copy()
        s.keep_log = self.keep_log
        s.history = self.history.copy()
        s._returns = self._returns
        s._base, s._steps = self._base, None if self._steps is None else self._steps.copy()

    # ---------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "ruleset": self.game.ruleset, "variants": self.game.variants,
            "players": self.game.num_players, "program": self.game.program.layout, "seed": self.seed, "draws": self.draws,
            "round": self.round, "phase": self.phase,
            "zones": self.zones, "face_up": self.face_up, "known": [~k if k < 0 else k for k in self.known],
            "owner": self.owner,
            "changed_cards": {str(c): row for c, row in enumerate(self.card_vals) if row != self.game.card_vals[c]},
            "gvars": self.gvars, "pvars": self.pvars,
            "frames": self.frames, "mods": self.mods, "forbids": self.forbids,
            "pending": self._saved_pending(self.pending),
            "log": self.log, "history": self.history, "returns": self._returns,
        }

    def _saved_pending(self, p: Optional[tuple[Any, ...]]) -> Optional[list[Any]]:
        """The open node; action labels are left out, as they follow from the options."""
        if p is None:
            return None
        return [p[0], p[1], None if p[4] < 0 else p[2] if p[2] is not None else self._made_labels(p), p[3], p[4]]

    def to_json(self) -> str:
        return _ENCODER.encode(self.to_dict())

    @classmethod
    def from_dict(cls, game: "Game", d: Any) -> "State":
        """A state from untrusted data: validated fully, its open node and returns recomputed, else a
        SavedStateError naming what is wrong."""
        v = validate(game, d)
        s = cls(game, _empty=True)
        s.zones = v.zones
        s.where = [0] * len(game.card_ids)
        for z, cards in enumerate(s.zones):
            for c in cards:
                s.where[c] = z
        s.owner = v.owner
        s.recount()
        s.known = [~k if up else k for k, up in zip(v.known or [0] * len(s.where), v.face_up)]
        s.card_vals = list(game.card_vals)
        for key, row in v.changed_cards.items():
            s.card_vals[int(key)] = row
        s.gvars, s.pvars = v.gvars, v.pvars
        s.frames = [[f[0], f[1], f[2]] for f in v.frames]
        s.mods, s.forbids = v.mods, v.forbids
        s.modded = frozenset(game.mod_field[m[0]] for m in s.mods)
        s.pending = None
        s.seed, s.draws, s.round, s.phase = v.seed, v.draws, v.round, v.phase
        s.log = [tuple(e) for e in v.log]
        s.history = v.history
        s._returns = None
        resume(s, v)
        return s

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        """copy.deepcopy is clone(): the game and its compiled code are shared, never copied."""
        return self.clone()

    def __copy__(self) -> "State":
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its game and its saved form, so it crosses processes like a saved game."""
        return _unpickle, (self.game, self.to_json())

    def __repr__(self) -> str:
        who = self.current_player()
        return (f"<State {self.game.ruleset} round={self.round} phase={self.phase} "
                f"player={'terminal' if who == TERMINAL_PLAYER else 'chance' if who == CHANCE_PLAYER else who}>")


def _unpickle(game: "Game", text: str) -> State:
    return game.state_from_json(text)
