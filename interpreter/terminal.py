"""A game at the terminal: humans and bots at one table. A human is shown only observation(seat) and
the log as that seat may read it, so the screen never shows what the rules hide from that seat."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any, Optional, Sequence

from dsl import ast as A
from interpreter.agents import Agent, make_agent
from interpreter.game import Game
from interpreter.observation import log_line, player_name
from interpreter.primitives import GameRuleError
from interpreter.records import record_of, write_record
from interpreter.simulate import agent_seed
from interpreter.state import State
from interpreter.types import PLAYER, T

HUMAN = "human"
LOG_LINES = 40


def back_text(back: dict[str, Any]) -> str:
    """A hidden card as its back shows it: the kind and the back's first field, e.g. `[guard L2]`."""
    fields = [(name, value) for name, value in back.items() if name != "kind"]
    if not fields:
        return f"[{back['kind']}]"
    name, value = fields[0]
    shown = f"{name[0].upper()}{value}" if isinstance(value, int) else str(value)
    return f"[{back['kind']} {shown}]"


def zone_text(view: Any) -> str:
    """A zone from observation(): a shuffled pile as its size, else its cards, repeats of a back folded."""
    if isinstance(view, dict):
        n = view["count"]
        return f"({n} card{'s' if n != 1 else ''})"
    if not view:
        return "—"
    shown = [card if isinstance(card, str) else back_text(card) for card in view]
    parts = []
    for text, run in groupby(shown):
        n = len(list(run))
        parts += [f"{text} ×{n}"] if text.startswith("[") and n > 1 else [text] * n
    return " ".join(parts)

def value_text(value: Any, t: T) -> str:
    """A value as observation() gives it; None is another seat's hidden value."""
    if value is None:
        return "?"
    return player_name(value) if t == PLAYER and isinstance(value, int) else str(value)


def view_lines(state: State, seat: int, seats: Sequence[str]) -> list[str]:
    """Round, phase, every player's values and the zones, all from what `seat` may see."""
    obs = state.observation(seat)
    prog = state.game.program
    lines = [f"══ round {obs['round']} · phase {obs['phase']} · {player_name(seat)} ({seats[seat]}) to decide ══"]
    for p in obs["players"]:
        values = ", ".join(f"{name} {value_text(p[name], t)}" for name, t, _ in prog.pvars)
        you = " ← you" if p["seat"] == seat else ""
        lines.append(f"  {p['name']} ({seats[p['seat']]}): {values}{you}")
    shown = [f"{name} {value_text(obs['vars'][name], t)}" for name, t, _ in prog.gvars if name in obs["vars"]]
    if shown:
        lines.append("  " + ", ".join(shown))
    width = max(len(name) for name in obs["zones"])
    lines += [f"  {name.ljust(width)}  {zone_text(view)}" for name, view in obs["zones"].items()]
    lines += card_texts(state, obs)
    return lines


def card_texts(state: State, obs: dict[str, Any]) -> list[str]:
    """Title and note of every card in view that has them (a revealed rule card, say), in English."""
    lines = []
    for view in obs["zones"].values():
        for cid in view if isinstance(view, list) else []:
            if not isinstance(cid, str):
                continue
            entry = state.game.program.cards[state.game.card_index[cid]].ast
            if isinstance(entry, A.CardEntry) and entry.title is not None:
                note = f" — {entry.note.by_lang['en']}" if entry.note is not None else ""
                lines.append(f"  ⓘ {cid}: {entry.title.by_lang['en']}{note}")
    return lines


def log_since(state: State, start: int, seat: int) -> list[str]:
    """The log lines `seat` may read since position `start`, the most recent LOG_LINES of them."""
    entries = state.log[start:]
    skipped = max(0, len(entries) - LOG_LINES)
    lines = [f"  … {skipped} earlier lines"] if skipped else []
    return lines + [f"  {log_line(state, entry, seat)}" for entry in entries[skipped:]]


def ask(labels: Sequence[str]) -> Optional[int]:
    """A number or an exact label; None to quit (`q` or end of input). Anything else asks again."""
    while True:
        try:
            answer = input(f"choice [1-{len(labels)}, q quits]: ").strip()
        except EOFError:
            print()
            return None
        if answer == "q":
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(labels):
            return int(answer) - 1
        if answer in labels:
            return labels.index(answer)
        print(f"  '{answer}' is not a choice; type a number from 1 to {len(labels)} or an option's exact text")


@dataclass
class Table:
    """Who sits where, and how far into the log each human has read."""

    seats: list[str]
    agents: dict[int, Agent] = field(default_factory=dict)
    read: dict[int, int] = field(default_factory=dict)

    @classmethod
    def seated(cls, seats: Sequence[str], seed: int) -> "Table":
        table = cls(list(seats))
        for seat, name in enumerate(seats):
            if name == HUMAN:
                table.read[seat] = 0
            else:
                table.agents[seat] = make_agent(name, agent_seed(seed, seat))
        return table


def human_turn(state: State, seat: int, table: Table) -> Optional[int]:
    print()
    print("\n".join(view_lines(state, seat, table.seats)))
    news = log_since(state, table.read[seat], seat)
    if news:
        print(f"since {player_name(seat)}'s last decision:")
        print("\n".join(news))
    labels = state.legal_labels()
    print("options:")
    print("\n".join(f"  {i}. {label}" for i, label in enumerate(labels, start=1)))
    return ask(labels)


def final_lines(state: State, table: Table) -> list[str]:
    scores = state.scores()
    returns = state.returns()
    lines = ["game over — scores:"]
    lines += [f"  {player_name(p)} ({table.seats[p]}): {s}" for p, s in enumerate(scores)]
    winners = [player_name(p) for p, r in enumerate(returns) if r == 1.0]
    lines.append(f"{'winners' if len(winners) > 1 else 'winner'}: {', '.join(winners)}")
    return lines


def play(game: Game, ruleset: str, seed: int, seats: Sequence[str], save: Path) -> int:
    """Runs the game to its end or until a human quits; the record is saved either way. The seed is
    printed (and the record written) only then, as it gives away every hidden card. Exit code."""
    state = game.new_initial_state(seed)
    table = Table.seated(seats, seed)
    spectator = not table.read
    shown = 0
    broken: Optional[GameRuleError] = None
    try:
        while not state.is_terminal():
            seat = state.current_player()
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            elif seat in table.agents:
                state.apply_action(table.agents[seat].act(state))
            else:
                choice = human_turn(state, seat, table)
                if choice is None:
                    print("quit.")
                    break
                state.apply_action(choice)
                table.read[seat] = len(state.log)
            if spectator:
                for entry in state.log[shown:]:
                    print(log_line(state, entry, -1))
                shown = len(state.log)
    except GameRuleError as exc:
        print(f"error: the game broke a rule: {exc}", file=sys.stderr)
        broken = exc
    if state.is_terminal() and broken is None:
        if table.read:
            first = min(table.read)
            print(f"since {player_name(first)}'s last decision:")
            print("\n".join(log_since(state, table.read[first], first)))
        print("\n".join(final_lines(state, table)))
    # Only now, with no decision left, may the seed be known: with the public moves it tells every
    # hidden card. So the record, which holds it, is written here and nowhere before.
    print(f"seed {state.seed}")
    write_record(save, record_of(state, ruleset, seats, broken))
    print(f"record saved to {save}")
    return 1 if broken is not None else 0
