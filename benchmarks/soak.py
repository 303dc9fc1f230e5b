"""The long soak run (outside CI): many random games of every shipped ruleset and fixture game, each
variant combination and player count, with the engine's generic invariants checked at every stop.

Run: python benchmarks/soak.py [--games 10000] [--only NAME] [--observe-every 50]
Prints one line per configuration and a total; exits 1 if any game broke a rule or an invariant."""
from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

from dsl.files import find_ruleset
from dsl.loader import read_ruleset
from interpreter.compile.loading import load_game
from interpreter.runtime.errors import GameRuleError
from interpreter.runtime.game import Game
from interpreter.runtime.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = [p for p in sorted((ROOT / "rulesets").iterdir()) if (p / "game.rules").is_file()] + \
    [p for p in sorted((ROOT / "tests" / "fixtures" / "games").iterdir()) if (p / "game.rules").is_file()]


class InvariantError(AssertionError):
    """A state that breaks one of the engine's own promises."""


def check(state: State) -> None:
    """Every card in exactly one zone and `where` agreeing; every currency conserved (players + bank = 0)."""
    game = state.game
    seen = [0] * len(game.card_ids)
    for z, cards in enumerate(state.zones):
        for c in cards:
            seen[c] += 1
            if state.where[c] != z:
                raise InvariantError(f"{game.card_ids[c]} lies in {game.zone_names[z]} but `where` says "
                                     f"{game.zone_names[state.where[c]]}")
    lost = [game.card_ids[c] for c, n in enumerate(seen) if n != 1]
    if lost:
        raise InvariantError(f"cards not in exactly one zone: {lost[:5]}")
    for name, (pidx, bank) in game.program.currencies.items():
        total = sum(state.pvars[p][pidx] for p in game.players) + state.gvars[bank]
        if total != 0:
            raise InvariantError(f"{name} is not conserved: players and bank add up to {total}")


def observe_leaks(state: State) -> None:
    """No seat's observation names a card it cannot see (zones only; logs are covered by the tests)."""
    game = state.game
    for seat in game.players:
        zones = state.observation(seat)["zones"]
        for z, cards in enumerate(state.zones):
            shown = zones[game.zone_names[z]]
            if isinstance(shown, dict):
                continue
            for c, view in zip(cards, shown):
                visible = state.known[c] < 0 or state.known[c] >> seat & 1 or game.sees(z, c, state.owner) >> seat & 1
                if isinstance(view, str) and not visible:
                    raise InvariantError(f"seat {seat} sees {view} in {game.zone_names[z]}")


def play(game: Game, seed: int, observe_every: int) -> int:
    """One random game to the end; returns the number of stops."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    stops = 0
    while not state.is_terminal():
        check(state)
        if observe_every and stops % observe_every == 0:
            observe_leaks(state)
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.randrange(len(state.legal_actions())))
        stops += 1
    check(state)
    return stops


def configurations(folder: Path) -> list[tuple[str, ...]]:
    """The base game, each variant alone and every combination of variants that loads together."""
    names = sorted(read_ruleset(find_ruleset(str(folder))).variants)
    return [combo for k in range(len(names) + 1) for combo in combinations(names, k)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per configuration and player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="a ruleset or fixture name")
    parser.add_argument("--observe-every", type=int, default=50, help="check observations every N stops (0: never)")
    args = parser.parse_args()
    failures = total = 0
    for folder in GAMES:
        if args.only and folder.name != args.only:
            continue
        for variants in configurations(folder):
            try:
                first = load_game(str(folder), list(variants))
            except Exception as exc:  # noqa: BLE001 - a combination of variants that clash is reported, not fatal
                print(f"{folder.name} {'+'.join(variants) or 'base'}: not loadable together ({exc})".splitlines()[0])
                continue
            for players in range(first.program.min_players, first.program.max_players + 1):
                game = load_game(str(folder), list(variants), players)
                start, stops, broken = time.perf_counter(), 0, 0
                for k in range(args.games):
                    try:
                        stops += play(game, args.seed + k, args.observe_every)
                    except (GameRuleError, InvariantError) as exc:
                        broken += 1
                        if broken == 1:
                            print(f"  seed {args.seed + k}: {exc}")
                seconds = time.perf_counter() - start
                total += args.games
                failures += broken
                print(f"{folder.name:20} {'+'.join(variants) or 'base':40} {players}p: {args.games} games, "
                      f"{broken} failed, {stops / args.games:.0f} stops/game, {args.games / seconds:.0f} games/s",
                      flush=True)
    print(f"total: {total} games, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
