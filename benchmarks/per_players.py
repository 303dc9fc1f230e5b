"""Random games per CPU-second of one ruleset at every player count it allows, printed (never asserted):
python benchmarks/per_players.py GAME [--games N] [--variant V]. CPU time (time.process_time), since
machines here are shared: wall time would measure the neighbours."""
from __future__ import annotations

import argparse
import time

from interpreter.compile.loading import load_game, load_program
from interpreter.play.simulate import play_one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    program = load_program(args.game, tuple(args.variant))
    print(f"{args.game}{''.join(' + ' + v for v in args.variant)}: random games, one core, CPU time")
    print("players  games/s  decisions/s  decisions/game  errors")
    for players in range(program.min_players, program.max_players + 1):
        game = load_game(args.game, args.variant, players)
        start = time.process_time()
        outcomes = [play_one(game, args.game, seed, ["random"] * players, None) for seed in range(args.games)]
        seconds = time.process_time() - start
        decisions = sum(o.decisions for o in outcomes)
        errors = sum(o.error is not None for o in outcomes)
        print(f"{players:7d}  {args.games / seconds:7.1f}  {decisions / seconds:11.0f}  {decisions / args.games:14.0f}  {errors:6d}")


if __name__ == "__main__":
    main()
