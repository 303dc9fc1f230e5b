"""Engine speed, printed as numbers (never asserted): random games per second, decisions per second,
ruleset load time and rulebook rendering time. Run: python benchmarks/bench_engine.py [--games N] [--players N] [--variant V].
With --jobs-curve it prints only how `regelwerk simulate --jobs N` scales, from 1 worker to all cores; with
--versus only Mächtige Monster's games/s, hand-written (benchmarks/handwritten_mm.py) beside the engine."""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as `python benchmarks/bench_engine.py`: the package lives in the repository root
    sys.path.insert(0, str(ROOT))

from dsl.files import find_ruleset  # noqa: E402
from dsl.loader import read_ruleset  # noqa: E402
from benchmarks.handwritten_mm import VARIANTS, play as play_by_hand
from interpreter.compile.loading import load_game, load_program
from interpreter.play.records import ruleset_ref
from interpreter.play.simulate import simulate
from rulebook.docs import rulebooks
from rulebook.render import render


def load_ms(ruleset: str, variants: tuple[str, ...], repeats: int) -> float:
    """Median wall time of a cold parse + overlay + compile (the program cache is cleared each time)."""
    times = []
    for _ in range(repeats):
        load_program.cache_clear()
        start = time.perf_counter()
        load_program(ruleset, variants)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


FIRST_LOAD = ("import sys, time\nfrom interpreter import load_game\nstart = time.process_time()\n"
              "load_game(sys.argv[1], sys.argv[2:])\nprint((time.process_time() - start) * 1000)")


def first_load_ms(ruleset: str, variants: tuple[str, ...], repeats: int) -> float:
    """Median CPU time of the first load_game in a fresh process (after its imports), with the caches on disk
    as they are: what a script or a `simulate` pays before its first game."""
    runs = [float(subprocess.run([sys.executable, "-c", FIRST_LOAD, ruleset, *variants], check=True, text=True,
                                 capture_output=True, cwd=ROOT, env=_child_env()).stdout)
            for _ in range(repeats)]
    return statistics.median(runs)


def command_s(args: list[str], repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `regelwerk ARGS` in a fresh process (its exit status is not looked at)."""
    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "interpreter.cli", *args], capture_output=True, cwd=ROOT,
                       env=_child_env())
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def _child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def rulebook_ms(ruleset: str, variants: tuple[str, ...], repeats: int) -> float:
    """Median wall time of building the German and English rulebooks and rendering both formats
    (the compiled program is cached, as in `regelwerk docs`)."""
    src = read_ruleset(find_ruleset(ruleset))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for book in rulebooks(src, variants).values():
            render(book, "md")
            render(book, "html")
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def play(ruleset: str, variants: tuple[str, ...], players: int, games: int, seed: int) -> tuple[float, int, int]:
    """Plays random games on one core; returns (cpu seconds, decisions, chance outcomes)."""
    game = load_game(ruleset, variants, players=players)
    rng = random.Random(seed)
    decisions = chances = 0
    start = time.process_time()
    for k in range(games):
        state = game.new_initial_state(seed=seed + k)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                chances += 1
            else:
                state.apply_action(rng.randrange(len(state.legal_actions())))
                decisions += 1
    return time.process_time() - start, decisions, chances


def state_costs(ruleset: str, variants: tuple[str, ...], players: int, seed: int) -> tuple[float, float]:
    """Microseconds per clone and per JSON save + load, measured on a state in the middle of a game."""
    game = load_game(ruleset, variants, players=players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.randrange(len(state.legal_actions())))
    start = time.perf_counter()
    for _ in range(2000):
        state.clone()
    clone_us = (time.perf_counter() - start) / 2000 * 1e6
    start = time.perf_counter()
    for _ in range(200):
        game.state_from_json(state.to_json())
    json_us = (time.perf_counter() - start) / 200 * 1e6
    return clone_us, json_us


def jobs_curve(ruleset: str, variants: tuple[str, ...], players: int, games: int, seed: int,
               rounds: int) -> list[tuple[int, float, str]]:
    """(jobs, games/s of wall time, median of `rounds`, digest) of `simulate` from 1 to all cores; the digest
    must not change with the jobs (start-up of the workers included, as a user sees it)."""
    game = load_game(ruleset, variants, players=players)
    curve = []
    for jobs in range(1, (os.cpu_count() or 1) + 1):
        runs = [simulate(game, ruleset_ref(ruleset), games, seed, ["random"] * players, jobs=jobs) for _ in range(rounds)]
        curve.append((jobs, statistics.median(r.games_per_second for r in runs), runs[0].digest))
    return curve


def simulate_seconds(ruleset: str, variants: tuple[str, ...], players: int, games: int, seed: int) -> tuple[float, str]:
    """CPU seconds of `simulate` (jobs 1, random agents, the digest included) and its digest."""
    game = load_game(ruleset, variants, players=players)
    start = time.process_time()
    summary = simulate(game, ruleset_ref(ruleset), games, seed, ["random"] * players, jobs=1)
    return time.process_time() - start, summary.digest


def by_hand_seconds(variants: tuple[str, ...], players: int, games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and decisions of the hand-written Mächtige Monster."""
    rng = random.Random(seed)
    chosen = frozenset(variants)
    start = time.process_time()
    decisions = sum(play_by_hand(players, rng, chosen)[0] for _ in range(games))
    return time.process_time() - start, decisions


def versus(games: int, seed: int, rounds: int) -> None:
    """games/s of hand-written Python, the engine's API loop and `simulate`, side by side for 3 to 6 players, the
    base game and each variant, with the engine's share. The three take turns within each of `rounds` rounds, and
    each reports its best (least CPU time), as timeit does: on a shared machine the load drifts by tens of per cent
    within a minute, so timing one side's rounds after the other's would credit the drift to one side."""
    print(f"maechtige_monster, {games} random games per run, best CPU time of {rounds} interleaved rounds; "
          "ratio = engine games/s / hand-written games/s (goal: >= 0.5)")
    print(f"{'variant':<22}{'n':>2}{'by hand':>9}{'API':>7}{'ratio':>7}{'simulate':>9}{'ratio':>7}"
          f"{'dec/game hand':>15}{'engine':>8}")
    for variant in ("", *VARIANTS):
        variants = (variant,) if variant else ()
        for players in range(3, 7):
            hand, api, sim = [], [], []
            for _ in range(rounds):
                hand.append(by_hand_seconds(variants, players, games, seed))
                api.append(play("maechtige_monster", variants, players, games, seed))
                sim.append(simulate_seconds("maechtige_monster", variants, players, games, seed)[0])
            h, a, s = (games / min(t) for t in ([x[0] for x in hand], [x[0] for x in api], sim))
            print(f"{variant or '(base)':<22}{players:>2}{h:>9.0f}{a:>7.0f}{a / h:>7.2f}{s:>9.0f}{s / h:>7.2f}"
                  f"{hand[0][1] / games:>15.1f}{api[0][1] / games:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="maechtige_monster")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="repeat the timing, report the best (the median with --jobs-curve)")
    parser.add_argument("--jobs-curve", action="store_true", help="print only games/s of simulate --jobs 1 … all cores")
    parser.add_argument("--versus", action="store_true",
                        help="print only Mächtige Monster's games/s by hand and in the engine, 3 to 6 players, each variant")
    args = parser.parse_args()
    variants = tuple(args.variant)
    if args.versus:
        versus(args.games, args.seed, args.rounds)
        return
    if args.jobs_curve:
        print(f"ruleset {args.ruleset} {'+'.join(variants) or '(base)'}, {args.players} players, "
              f"{args.games} random games per run, median of {args.rounds}, wall time with worker start-up")
        curve = jobs_curve(args.ruleset, variants, args.players, args.games, args.seed, args.rounds)
        for jobs, per_second, digest in curve:
            print(f"jobs {jobs}: {per_second:.0f} games/s ({per_second / curve[0][1]:.2f}x), digest {digest[:16]}")
        if len({digest for _, _, digest in curve}) != 1:
            raise SystemExit("the digest changed with --jobs")
        return
    print(f"ruleset {args.ruleset} {'+'.join(variants) or '(base)'}, {args.players} players, "
          f"{args.games} random games, best of {args.rounds}")
    print(f"load (parse + variants + compile): {load_ms(args.ruleset, variants, 5):.1f} ms")
    print(f"first load_game in a fresh process (caches on disk): {first_load_ms(args.ruleset, variants, 5):.0f} ms CPU")
    for command, repeats in ((["--help"], 5), (["docs", "--check"], 1)):
        wall, cpu = command_s(command, repeats)
        print(f"regelwerk {' '.join(command)}: {wall:.2f} s wall, {cpu:.2f} s CPU (a fresh process)")
    best = None
    for _ in range(args.rounds):
        seconds, decisions, chances = play(args.ruleset, variants, args.players, args.games, args.seed)
        if best is None or seconds < best[0]:
            best = (seconds, decisions, chances)
    assert best is not None
    seconds, decisions, chances = best
    print(f"games/s: {args.games / seconds:.0f}")
    print(f"decisions/s: {decisions / seconds:.0f}  (chance outcomes/s: {chances / seconds:.0f})")
    print(f"decisions per game: {decisions / args.games:.1f}, cpu seconds: {seconds:.2f}")
    clone_us, json_us = state_costs(args.ruleset, variants, args.players, args.seed)
    print(f"clone: {clone_us:.1f} µs, JSON save + load: {json_us:.0f} µs (a state in mid-game)")
    print(f"rulebooks (de + en, Markdown + HTML): {rulebook_ms(args.ruleset, variants, 5):.0f} ms")


if __name__ == "__main__":
    main()
