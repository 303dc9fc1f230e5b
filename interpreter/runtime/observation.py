"""What one seat may see: zones with hidden cards reduced to their backs, public values (a `hidden`
value only to its own seat), its own decision, and the log filtered by who saw each card move or
payment. Nothing else leaves the engine. Every view is drawn for a viewer mask (a bit per seat):
one bit for a seat, 0 for the public observer with no seat, EVERYTHING for the omniscient log."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.runtime.ops import (
    CHANCE,
    L_DECIDE,
    L_MOVE,
    L_PAY,
    L_PHASE,
    L_REVEAL,
    L_ROUND,
    L_TEXT,
)

if TYPE_CHECKING:
    from interpreter.compile.types import T
    from interpreter.runtime.game import Game
    from interpreter.runtime.state import State

LOG_TAIL = 40
EVERYTHING = -1  # the viewer mask that reads every card: the log of a finished game, the CLI's full log


def seat_mask(seat: int) -> int:
    """The viewer mask of a seat; seat -1 (everything, as log_line takes it) is EVERYTHING."""
    return 1 << seat if seat >= 0 else EVERYTHING


def _reads(viewer: int, seats: int) -> bool:
    """Whether the viewer is among `seats` (a bit per seat); the omniscient viewer reads everything."""
    return viewer == EVERYTHING or bool(seats & viewer)


def player_name(p: int) -> str:
    return f"P{p + 1}" if p >= 0 else "the bank"


def card_visible(st: "State", c: int, seat: int) -> bool:
    return card_shown(st, c, 1 << seat)


def card_shown(st: "State", c: int, viewer: int) -> bool:
    """Whether the viewer sees card c's front: face up, in a public zone, or seen by one of its seats."""
    z, known = st.where[c], st.known[c]
    return known < 0 or st.game.zone_public[z] or _reads(viewer, known | st.game.sees(z, c, st.owner))


def card_back(st: "State", c: int) -> dict[str, Any]:
    prog = st.game.program
    kind = prog.kinds[prog.card_kind[c]]
    back: dict[str, Any] = {"kind": kind.name}
    for i, name in enumerate(kind.fields):
        if kind.back[i]:
            back[name] = st.card_vals[c][i]
    return back


def zone_view(st: "State", z: int, viewer: int) -> Any:
    cards = st.zones[z]
    game = st.game
    if game.zone_shuffled[z] and not any(card_shown(st, c, viewer) for c in cards):
        return {"count": len(cards)}
    return [game.card_ids[c] if card_shown(st, c, viewer) else card_back(st, c) for c in cards]


def log_line(st: "State", entry: Any, seat: int) -> str:
    """One log entry as English text, as `seat` may read it (seat -1: everything)."""
    return view_line(st, entry, seat_mask(seat))


def _bit(p: int) -> int:
    """A seat's bit; the bank (-1) has none."""
    return 1 << p if p >= 0 else 0


def view_line(st: "State", entry: Any, viewer: int) -> str:
    """One log entry as English text, as the viewer mask may read it (a move to or from a public zone is public)."""
    tag = entry[0]
    game = st.game
    if tag == L_MOVE:
        _, c, src, dst, vis = entry
        public = game.zone_public[src] or game.zone_public[dst]
        shown = game.card_ids[c] if public or _reads(viewer, vis) else f"a {game.program.card_kind[c]} card"
        return f"{shown}: {game.zone_names[src]} → {game.zone_names[dst]}"
    if tag == L_REVEAL:
        if len(entry) == 2:
            return f"revealed {game.card_ids[entry[1]]}"
        _, c, shown, readers = entry
        seats = [player_name(p) for p in game.players if shown & (1 << p)]
        what = game.card_ids[c] if _reads(viewer, readers) else f"a {game.program.card_kind[c]} card"
        return f"{' and '.join(seats)} {'is' if len(seats) == 1 else 'are'} shown {what}"
    if tag == L_PAY:
        _, src, dst, n, name = entry
        secret = game.program.currencies[name][0] in game.program.hidden and not _reads(viewer, _bit(src) | _bit(dst))
        return f"{player_name(src)} pays {'some' if secret else n} {name} to {player_name(dst)}"
    if tag == L_DECIDE:
        return f"{player_name(entry[1])}: {entry[2]}"
    if tag == L_ROUND:
        return f"— round {entry[1]} —"
    if tag == L_PHASE:
        return f"phase {entry[1]}"
    if tag == L_TEXT:
        return str(entry[1]) if len(entry) < 3 else _filled(st, entry[1], entry[2], viewer)
    return str(entry)


def _filled(st: "State", text: str, values: dict[str, Any], viewer: int) -> str:
    """A log text with its places filled in; a card the seat did not see is named by its kind only."""
    game = st.game
    shown: dict[str, str] = {}

    def card(c: int, seen: int) -> str:
        return game.card_ids[c] if _reads(viewer, seen) else f"a {game.program.card_kind[c]} card"
    for name, v in values.items():
        if isinstance(v, list) and v and isinstance(v[0], list):  # a list of cards: [[card, seats], …]
            shown[name] = "[" + ", ".join(card(c, seen) for c, seen in v) + "]"
        elif isinstance(v, list) and len(v) == 2:  # one card: [card, seats that saw it]
            shown[name] = card(v[0], v[1])
        else:
            shown[name] = "[]" if isinstance(v, list) else str(v)
    return text.format(**shown)


def shown_value(st: "State", p: int, i: int, viewer: int) -> Any:
    """Seat p's player var i as the viewer sees it: a hidden one is None to the others until the game ends."""
    if i in st.game.program.hidden and not _reads(viewer, 1 << p) and st.pending is not None:
        return None
    return st.pvars[p][i]


def observation(st: "State", seat: int, full_log: bool = False) -> dict[str, Any]:
    """The seat's view; with full_log its perfect-recall information state (the whole filtered log)."""
    obs = view(st, 1 << seat, full_log)
    obs["seat"] = seat
    pending = st.pending
    if pending is not None and pending[0] != CHANCE and pending[1] == seat:
        obs["decision"]["options"] = st.legal_labels()
    if full_log:
        obs["decisions"] = [e[2] for e in st.log if e[0] == L_DECIDE and e[1] == seat]
    return obs


def public_observation(st: "State", full_log: bool = False) -> dict[str, Any]:
    """What an observer with no seat sees: public zones, face-up cards, backs and public values."""
    obs = view(st, 0, full_log)
    obs["seat"] = None
    return obs


def view(st: "State", viewer: int, full_log: bool) -> dict[str, Any]:
    """The view shared by a seat and the public observer: everything but the seat's own options."""
    game = st.game
    prog = game.program
    banks = {bank for _, bank in prog.currencies.values()}
    secret = st.pending is not None  # hidden values stay hidden until the game ends
    obs: dict[str, Any] = {
        "ruleset": game.ruleset, "variants": game.variants, "seat": None, "round": st.round, "phase": st.phase,
        "current_player": st.current_player(), "terminal": st.is_terminal(),
        "vars": {name: st.gvars[i] for i, (name, _, _) in enumerate(prog.gvars) if i not in banks},
        # net: paid in minus paid out; of a hidden currency it would tell the secret amounts
        "bank": {name: None if secret and pidx in prog.hidden else st.gvars[bank]
                 for name, (pidx, bank) in prog.currencies.items()},
        "players": [{"seat": p, "name": player_name(p),
                     **{name: shown_value(st, p, i, viewer) for i, (name, _, _) in enumerate(prog.pvars)}}
                    for p in game.players],
        "zones": {game.zone_names[z]: zone_view(st, z, viewer) for z in range(len(st.zones))},
        "log": [view_line(st, e, viewer) for e in (st.log if full_log else st.log[-LOG_TAIL:])],
    }
    pending = st.pending
    if pending is not None and pending[0] != CHANCE:
        obs["decision"] = {"seat": pending[1], "options": None}
    if st.is_terminal():
        obs["scores"] = st.scores()
        obs["returns"] = st.returns()
    return obs


_BIG = 10 ** 300


def _number(v: Any) -> float:
    """A numeric value as a float; a number too big for a float is clamped (tensors want finite floats)."""
    return float(max(-_BIG, min(_BIG, int(v))))


def _numeric(t: "T") -> bool:
    """Int and bool values go into a tensor; texts, cards and lists have no fixed numeric form."""
    return t.name in ("int", "bool")


def tensor_size(game: "Game") -> int:
    """The length of every observation tensor of the game (see observation_tensor)."""
    prog = game.program
    nz, nc = len(game.zone_names), len(game.card_ids)
    npv = sum(_numeric(t) for _, t, _ in prog.pvars)
    ngv = len(_tensor_gvars(game))
    return nz * nc + nz + 2 * npv * game.num_players + ngv + game.num_players + 2 + 1


def _tensor_gvars(game: "Game") -> list[int]:
    """The numeric global vars a tensor holds: all but the banks (a hidden currency's bank tells secrets)."""
    prog = game.program
    banks = {bank for _, bank in prog.currencies.values()}
    return [i for i, (_, t, _) in enumerate(prog.gvars) if _numeric(t) and i not in banks]


def observation_tensor(st: "State", viewer: int) -> list[float]:
    """The viewer's observation as a flat list of floats of tensor_size: per zone a one-hot of the cards
    shown there and its count of unseen cards; numeric player values (0 and a mask bit 1 if hidden); numeric
    global vars; the current player one-hot (then chance, terminal); the round."""
    game = st.game
    prog = game.program
    nc = len(game.card_ids)
    out: list[float] = []
    for cards in st.zones:
        row = [0.0] * nc
        unseen = 0
        for c in cards:
            if card_shown(st, c, viewer):
                row[c] = 1.0
            else:
                unseen += 1
        out += row
        out.append(float(unseen))
    for p in game.players:
        for i, (_, t, _) in enumerate(prog.pvars):
            if _numeric(t):
                v = shown_value(st, p, i, viewer)
                out += [0.0, 1.0] if v is None else [_number(v), 0.0]
    out += [_number(st.gvars[i]) for i in _tensor_gvars(game)]
    who = [0.0] * (game.num_players + 2)
    cur = st.current_player()
    who[cur if cur >= 0 else game.num_players + (0 if st.is_chance_node() else 1)] = 1.0
    out += who
    out.append(float(st.round))
    return out
