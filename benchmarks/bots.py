"""Win rates of one bot against others, with 95% Wilson intervals (printed, never asserted). The tested
bot sits at seat k % players in game k, so no seat is favoured; the others are all `--against`. Run:
python benchmarks/bots.py GAME --agent ismcts --against random [--players N] [--games G] [--variant V]
[--option iterations=50 --option depth=30 …] [--first K] [--out results.jsonl].
A tie counts as a win for every winner, so compare with the rate of the opponent bot in the tested seat
(`--agent random --against random` is the random-seat baseline). Each game is appended to --out as it
ends, so a long run split over processes (--first) or stopped early keeps its games; --summarize FILE …
prints the table of such files."""
from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from interpreter.compile.loading import load_game
from interpreter.play.agents import make_agent
from interpreter.play.analyze import Rate
from interpreter.play.simulate import agent_seed, play_bots


def _option(text: str) -> tuple[str, Any]:
    """key=value with the value read as JSON where it can be (50, 0.5, null), else as text."""
    key, _, value = text.partition("=")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def play(args: argparse.Namespace) -> None:
    game = load_game(args.game, args.variant, players=args.players)
    options = dict(_option(o) for o in args.option)
    label = args.agent + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    for k in range(args.first, args.first + args.games):
        tested = k % game.num_players
        agents = [make_agent(args.agent, agent_seed(k, p), **options) if p == tested
                  else make_agent(args.against, agent_seed(k, p)) for p in game.players]
        state = game.new_initial_state(seed=k)
        start = time.process_time()
        play_bots(state, agents)
        row = {"game": args.game, "players": game.num_players, "variants": args.variant, "agent": label,
               "against": args.against, "seed": k, "seat": tested, "result": state.returns()[tested],
               "winners": sum(r > 0 for r in state.returns()), "decisions": len(state.history),
               "cpu_seconds": round(time.process_time() - start, 2)}
        print(json.dumps(row), flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")


def summarize(files: list[str]) -> None:
    """One line per (game, players, agent, opponents): wins, rate and interval, ties, CPU time per game."""
    runs: dict[tuple[str, int, str, str], dict[int, dict[str, Any]]] = defaultdict(dict)
    for name in files:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            runs[(row["game"], row["players"], row["agent"], row["against"])][row["seed"]] = row  # a seed once
    for (game, players, agent, against), by_seed in sorted(runs.items()):
        rows = list(by_seed.values())
        wins = sum(r["result"] for r in rows)
        lo, hi = Rate(wins, len(rows)).interval
        shared = sum(r["winners"] > 1 and r["result"] > 0 for r in rows)
        cpu = sum(r["cpu_seconds"] for r in rows) / len(rows)
        print(f"{game} {players}p | {agent} vs {players - 1}× {against} | {wins:g}/{len(rows)} = {wins / len(rows):.1%} "
              f"(95% {lo:.1%}–{hi:.1%}) | shared wins {shared} | {cpu:.1f} CPU s/game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game", nargs="?")
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--against", default="random")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="the first game's seed")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a constructor keyword of the tested agent")
    ap.add_argument("--out", help="append each game as a JSON line")
    ap.add_argument("--summarize", nargs="+", metavar="FILE", help="print the table of these result files")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize)
    else:
        play(args)


if __name__ == "__main__":
    main()
