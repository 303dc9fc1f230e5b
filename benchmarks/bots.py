"""Win rates of one bot against others, with 95% Wilson intervals (printed, never asserted). The tested
bot sits at seat k % players in game k, so no seat is favoured. Run: python benchmarks/bots.py GAME
--agent ismcts --against random [--players N] [--games G] [--variant V]; a tie counts as a win for every
winner, so compare with the rate of the opponent bot in its place (`--agent random`)."""
from __future__ import annotations

import argparse
import time

from interpreter.compile.loading import load_game
from interpreter.play.agents import make_agent
from interpreter.play.analyze import Rate
from interpreter.play.simulate import agent_seed, play_bots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game")
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--against", default="random")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    game = load_game(args.game, args.variant, players=args.players)
    wins = 0.0
    start = time.perf_counter()
    for k in range(args.games):
        tested = k % game.num_players
        agents = [make_agent(args.agent if p == tested else args.against, agent_seed(k, p)) for p in game.players]
        state = game.new_initial_state(seed=k)
        play_bots(state, agents)
        wins += state.returns()[tested]
    lo, hi = Rate(wins, args.games).interval
    print(f"{args.game} {game.num_players}p: {args.agent} vs {args.against}: {wins:g}/{args.games} = "
          f"{wins / args.games:.1%} (95% {lo:.1%}–{hi:.1%}), {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
