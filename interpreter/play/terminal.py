"""A game at the terminal: humans and bots at one table. A human is shown only observation(seat) and
the log as that seat may read it, so the screen never shows what the rules hide from that seat."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any, Optional, Sequence

from dsl import ast as A
from interpreter.compile.types import PLAYER
from interpreter.play.agents import Agent, make_agent
from interpreter.play.display import Display
from interpreter.play.records import record_of, write_record
from interpreter.play.simulate import agent_seed
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.observation import player_name
from interpreter.runtime.state import State

HUMAN = "human"
LOG_LINES = 400  # since the seat's last decision: enough that a fight's result is never cut off


def view_lines(state: State, seat: int, seats: Sequence[str], show: Display) -> list[str]:
    """Round, phase, every player's values and the zones, all from what `seat` may see, in the rules' words."""
    obs = state.observation(seat)
    prog = state.game.program
    lines = [f"══ {show.words['round']} {obs['round']} · {show.phase(obs['phase'])} · {player_name(seat)} ({seats[seat]}) ══"]
    for p in obs["players"]:
        values = ", ".join(f"{show.var(name)} {show.value(p[name], t)}" for name, t, _ in prog.pvars
                           if name not in show.internal)
        you = f" ← {show.words['you']}" if p["seat"] == seat else ""
        lines.append(f"  {p['name']} ({seats[p['seat']]}): {values}{you}")
    shown = [f"{show.var(name)} {show.value(obs['vars'][name], t)}" for name, t, _ in prog.gvars
             if name in obs["vars"] and name not in show.internal]
    if shown:
        lines.append("  " + ", ".join(shown))
    names = [show.zone(z) for z in range(len(state.game.zone_names))]
    width = max(len(name) for name in names)
    lines += [f"  {name.ljust(width)}  {show.zone_view(view)}" for name, view in zip(names, obs["zones"].values())]
    lines += card_texts(state, obs, show)
    return lines


def card_texts(state: State, obs: dict[str, Any], show: Display) -> list[str]:
    """The note of every card in view that has one (a revealed rule card, say)."""
    lines = []
    for view in obs["zones"].values():
        for cid in view if isinstance(view, list) else []:
            if not isinstance(cid, str):
                continue
            c = state.game.card_index[cid]
            entry = state.game.program.cards[c].ast
            if isinstance(entry, A.CardEntry) and entry.note is not None:
                lines.append(f"  ⓘ {show.cards[c]}: {entry.note.by_lang.get(show.lang, '')}")
    return lines


def log_since(state: State, start: int, seat: int, show: Display) -> list[str]:
    """The log lines `seat` may read since position `start` (the most recent LOG_LINES of them)."""
    entries = state.log[start:]
    skipped = max(0, len(entries) - LOG_LINES)
    lines = [f"  … {skipped}"] if skipped else []
    return lines + [f"  {show.log(state, entry, seat)}" for entry in entries[skipped:]]


def option_lines(state: State, show: Display) -> list[str]:
    """Each option of the open decision in the rules' words, with the stable label one may also type."""
    _, _, _, values, slot = state.pending  # type: ignore[misc]
    asked = state.open_node_type()[1] if slot >= 0 else None
    labels = state.legal_labels()
    return [f"  {i}. {show.option(v, slot, asked)}   [{label}]" for i, (v, label) in enumerate(zip(values, labels), start=1)]


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
    show: Display
    agents: dict[int, Agent] = field(default_factory=dict)
    read: dict[int, int] = field(default_factory=dict)

    @classmethod
    def seated(cls, seats: Sequence[str], seed: int, show: Display) -> "Table":
        table = cls(list(seats), show)
        for seat, name in enumerate(seats):
            if name == HUMAN:
                table.read[seat] = 0
            else:
                table.agents[seat] = make_agent(name, agent_seed(seed, seat))
        return table


def human_turn(state: State, seat: int, table: Table) -> Optional[int]:
    show = table.show
    print()
    print("\n".join(view_lines(state, seat, table.seats, show)))
    news = log_since(state, table.read[seat], seat, show)
    if news:
        print(f"{show.words['since']} {player_name(seat)}:")
        print("\n".join(news))
    print(f"{show.words['options']}:")
    print("\n".join(option_lines(state, show)))
    return ask(state.legal_labels())


def final_lines(state: State, table: Table) -> list[str]:
    scores = state.scores()
    returns = state.returns()
    lines = ["game over — scores:"]
    lines += [f"  {player_name(p)} ({table.seats[p]}): {s}" for p, s in enumerate(scores)]
    winners = [player_name(p) for p, r in enumerate(returns) if r == 1.0]
    lines.append(f"{'winners' if len(winners) > 1 else 'winner'}: {', '.join(winners)}")
    return lines


def play(game: Game, ruleset: str, seed: int, seats: Sequence[str], save: Path, lang: str = "en") -> int:
    """Runs the game to its end or until a human quits; the record is saved either way. The seed is
    printed (and the record written) only then, as it gives away every hidden card. Exit code."""
    state = game.new_initial_state(seed)
    table = Table.seated(seats, seed, Display(game, lang))
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
                    print(table.show.log(state, entry, -1))
                shown = len(state.log)
    except GameRuleError as exc:
        print(f"error: the game broke a rule: {exc}", file=sys.stderr)
        broken = exc
    if state.is_terminal() and broken is None:
        if table.read:
            first = min(table.read)
            print(f"{table.show.words['since']} {player_name(first)}:")
            print("\n".join(log_since(state, table.read[first], first, table.show)))
        print("\n".join(final_lines(state, table)))
    # Only now, with no decision left, may the seed be known: with the public moves it tells every
    # hidden card. So the record, which holds it, is written here and nowhere before.
    print(f"seed {state.seed}")
    write_record(save, record_of(state, ruleset, seats, broken))
    print(f"record saved to {save}")
    return 1 if broken is not None else 0
