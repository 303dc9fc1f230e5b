"""What one seat may see: zones with hidden cards reduced to their backs, public values (a `hidden`
value only to its own seat), its own decision, and the log filtered by who saw each card move or
payment. Nothing else leaves the engine."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.ops import (
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
    from interpreter.state import State

LOG_TAIL = 40


def player_name(p: int) -> str:
    return f"P{p + 1}" if p >= 0 else "the bank"


def card_visible(st: "State", c: int, seat: int) -> bool:
    return st.face_up[c] or bool((st.known[c] | st.game.sees(st.where[c], c, st.owner)) & (1 << seat))


def card_back(st: "State", c: int) -> dict[str, Any]:
    prog = st.game.program
    kind = prog.kinds[prog.card_kind[c]]
    back: dict[str, Any] = {"kind": kind.name}
    for i, name in enumerate(kind.fields):
        if kind.back[i]:
            back[name] = st.card_vals[c][i]
    return back


def zone_view(st: "State", z: int, seat: int) -> Any:
    cards = st.zones[z]
    game = st.game
    if game.zone_shuffled[z] and not any(card_visible(st, c, seat) for c in cards):
        return {"count": len(cards)}
    return [game.card_ids[c] if card_visible(st, c, seat) else card_back(st, c) for c in cards]


def log_line(st: "State", entry: Any, seat: int) -> str:
    """One log entry as English text, as `seat` may read it (seat -1: everything)."""
    tag = entry[0]
    game = st.game
    if tag == L_MOVE:
        _, c, src, dst, vis = entry
        shown = game.card_ids[c] if seat < 0 or vis & (1 << seat) else f"a {game.program.card_kind[c]} card"
        return f"{shown}: {game.zone_names[src]} → {game.zone_names[dst]}"
    if tag == L_REVEAL:
        if len(entry) == 2:
            return f"revealed {game.card_ids[entry[1]]}"
        _, c, shown, readers = entry
        seats = [player_name(p) for p in game.players if shown & (1 << p)]
        what = game.card_ids[c] if seat < 0 or readers & (1 << seat) else f"a {game.program.card_kind[c]} card"
        return f"{' and '.join(seats)} {'is' if len(seats) == 1 else 'are'} shown {what}"
    if tag == L_PAY:
        _, src, dst, n, name = entry
        secret = game.program.currencies[name][0] in game.program.hidden and seat not in (src, dst) and seat >= 0
        return f"{player_name(src)} pays {'some' if secret else n} {name} to {player_name(dst)}"
    if tag == L_DECIDE:
        return f"{player_name(entry[1])}: {entry[2]}"
    if tag == L_ROUND:
        return f"— round {entry[1]} —"
    if tag == L_PHASE:
        return f"phase {entry[1]}"
    if tag == L_TEXT:
        return str(entry[1]) if len(entry) < 3 else _filled(st, entry[1], entry[2], seat)
    return str(entry)


def _filled(st: "State", text: str, values: dict[str, Any], seat: int) -> str:
    """A log text with its places filled in; a card the seat did not see is named by its kind only."""
    game = st.game
    shown: dict[str, str] = {}

    def card(c: int, seen: int) -> str:
        return game.card_ids[c] if seat < 0 or seen & (1 << seat) else f"a {game.program.card_kind[c]} card"
    for name, v in values.items():
        if isinstance(v, list) and v and isinstance(v[0], list):  # a list of cards: [[card, seats], …]
            shown[name] = "[" + ", ".join(card(c, seen) for c, seen in v) + "]"
        elif isinstance(v, list) and len(v) == 2:  # one card: [card, seats that saw it]
            shown[name] = card(v[0], v[1])
        else:
            shown[name] = "[]" if isinstance(v, list) else str(v)
    return text.format(**shown)


def shown_value(st: "State", p: int, i: int, seat: int) -> Any:
    """Seat p's player var i as `seat` sees it: a hidden one is None to the others until the game ends."""
    if i in st.game.program.hidden and p != seat and st.pending is not None:
        return None
    return st.pvars[p][i]


def observation(st: "State", seat: int) -> dict[str, Any]:
    game = st.game
    prog = game.program
    banks = {bank for _, bank in prog.currencies.values()}
    secret = st.pending is not None  # hidden values stay hidden until the game ends
    obs: dict[str, Any] = {
        "ruleset": game.ruleset, "variants": game.variants, "seat": seat, "round": st.round, "phase": st.phase,
        "current_player": st.current_player(), "terminal": st.is_terminal(),
        "vars": {name: st.gvars[i] for i, (name, _, _) in enumerate(prog.gvars) if i not in banks},
        # net: paid in minus paid out; of a hidden currency it would tell the secret amounts
        "bank": {name: None if secret and pidx in prog.hidden else st.gvars[bank]
                 for name, (pidx, bank) in prog.currencies.items()},
        "players": [{"seat": p, "name": player_name(p),
                     **{name: shown_value(st, p, i, seat) for i, (name, _, _) in enumerate(prog.pvars)}}
                    for p in game.players],
        "zones": {game.zone_names[z]: zone_view(st, z, seat) for z in range(len(st.zones))},
        "log": [log_line(st, e, seat) for e in st.log[-LOG_TAIL:]],
    }
    pending = st.pending
    if pending is not None and pending[0] != CHANCE:
        obs["decision"] = {"seat": pending[1], "options": st.legal_labels() if pending[1] == seat else None}
    if st.is_terminal():
        obs["scores"] = st.scores()
        obs["returns"] = st.returns()
    return obs
