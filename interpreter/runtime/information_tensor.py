"""The information-state tensor: a seat's observation tensor plus a fixed-size summary of all it has read
in the log (where it last saw each card, its own moves, what kinds of moves each seat made), so a
learning agent recalls the past at a size known per game instead of the whole history (which could
run to max_game_length steps)."""
from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING

from interpreter.runtime.observation import player_name
from interpreter.runtime.ops import L_DECIDE, L_MOVE, L_REVEAL

if TYPE_CHECKING:
    from interpreter.runtime.game import Game
    from interpreter.runtime.state import State

_IDS: "weakref.WeakKeyDictionary[Game, list[dict[str, list[tuple[int, int]]]]]" = weakref.WeakKeyDictionary()
_RUNNING = re.compile(r" #\d+$")  # the running number that tells equal labels of one decision apart


def information_state_tensor_size(game: "Game") -> int:
    """The length of every information-state tensor of the game: see information_state_tensor."""
    nz, nc = len(game.zone_names), len(game.card_ids)
    return game.observation_tensor_size() + nc * (nz + 1) + game.num_distinct_actions() \
        + game.num_players * len(game.catalogue.segments)


def information_state_tensor(st: "State", seat: int) -> list[float]:
    """The seat's observation tensor, then per card a one-hot of the zone it was last seen moving to and a
    bit for "seen its face" (moves and reveals the seat read), then per catalogue id how often the seat
    chose that move, then per seat and catalogue segment (an action, or a kind of choice) how often that
    seat chose a move of it (decisions are logged for all). A label several ids share counts for each,
    split evenly. Everything comes from the seat's own view and its filtered log: nothing hidden from it."""
    out = st.observation_tensor(seat)  # checks the seat
    recall = [0.0] * (information_state_tensor_size(st.game) - len(out))
    for i, v in recall_entries(st, seat).items():
        recall[i] = v
    return out + recall


def recall_entries(st: "State", seat: int) -> dict[int, float]:
    """The non-zero entries of the tensor's recall part (past the observation tensor), by index: sparse,
    so a bridge can fill a large array without building it as a list."""
    game = st.game
    nz, size = len(game.zone_names), game.num_distinct_actions()
    segments = len(game.catalogue.segments)
    bit = 1 << seat
    public = game.zone_public
    last: dict[int, int] = {}
    seen: set[int] = set()
    entries: dict[int, float] = {}
    own = len(game.card_ids) * (nz + 1)
    kinds = own + size
    ids = _label_ids(game)
    for e in st.log:
        tag = e[0]
        if tag == L_MOVE:
            _, c, src, dst, vis = e
            if public[src] or public[dst] or vis & bit:
                last[c] = dst
                seen.add(c)
        elif tag == L_REVEAL:
            if len(e) == 2 or e[3] & bit:
                seen.add(e[1])
        elif tag == L_DECIDE:
            p, label = e[1], e[2]
            chosen = ids[p].get(label) or ids[p].get(_RUNNING.sub("", label), [])
            share = 1.0 / len(chosen) if chosen else 0.0
            for i, seg in chosen:
                if p == seat:
                    entries[own + i] = entries.get(own + i, 0.0) + share
                at = kinds + p * segments + seg
                entries[at] = entries.get(at, 0.0) + share
    for c, z in last.items():
        entries[c * (nz + 1) + z] = 1.0
    for c in seen:
        entries[c * (nz + 1) + nz] = 1.0
    return entries


def _label_ids(game: "Game") -> list[dict[str, list[tuple[int, int]]]]:
    """Per seat, the catalogue ids (and their segments) of each option label as that seat's decisions log
    it (built once per game)."""
    if game not in _IDS:
        catalogue = game.catalogue
        actions = len(game.program.actions)
        probe = game.new_initial_state(0)
        table: list[dict[str, list[tuple[int, int]]]] = [{} for _ in game.players]
        for action_id in range(catalogue.size):
            seg, values = catalogue.decode(action_id)
            for p in game.players:
                if seg < actions:
                    label = catalogue.to_string(probe, action_id, player_name(p))
                else:  # a choice among values is logged as the value alone
                    label = catalogue.segments[seg].formats[0](probe, values[0])
                table[p].setdefault(label, []).append((action_id, seg))
        _IDS[game] = table
    return _IDS[game]
