"""The `regelwerk` command: check, simulate, replay, play and test rulesets from the shell.
Exit codes: 0 ok, 1 failure, 2 usage; errors are one line (or a rendered RulesError), never a traceback.
Each command imports what it needs when it runs, so `regelwerk --help` starts fast."""
from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Sequence

if TYPE_CHECKING:
    from rich.table import Table

    from interpreter.play.simulate import Summary


class UsageError(Exception):
    """Arguments that parse but do not fit together (exit code 2)."""


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _seats(spec: str, players: int, allowed: Sequence[str]) -> list[str]:
    from interpreter.play.simulate import seat_agents
    names = [name.strip() for name in spec.split(",")]
    unknown = [name for name in names if name not in allowed]
    if unknown:
        raise UsageError(f"unknown agent '{unknown[0]}' (known: {', '.join(allowed)})")
    try:
        return seat_agents(names, players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


# ------------------------------------------------------------------ check


def check_ruleset(path: str, variants: Sequence[str] = ()) -> tuple[str, list[str]]:
    """Compiles the base game, each variant alone, all shipped ones together (unless two change the same part),
    the `variants` asked for together and every scenario's expectations, and renders the rulebooks; one
    RulesError for all problems."""
    from dsl.errors import RulesError
    from dsl.files import find_ruleset
    from dsl.loader import VariantConflict, add_variant_files, read_ruleset
    from dsl.validate import check_texts, languages_of
    from interpreter.compile.loading import load_program
    from interpreter.play.scenario import check_scenario
    from rulebook.docs import check_renderings
    src = read_ruleset(find_ruleset(path))
    shipped = list(src.variants)
    add_variant_files(src, variants)
    combos: list[tuple[str, ...]] = [()] + [src.refs([v]) for v in src.variants]
    if len(shipped) > 1:
        combos.append(tuple(shipped))
    if variants and tuple(variants) not in combos:
        combos.append(tuple(variants))
    load_program(path, ())
    problems: list[RulesError] = []
    compiled = ["base"]
    for combo in combos[1:]:
        try:
            load_program(path, combo)
            compiled.append("+".join(combo))
        except VariantConflict as exc:
            if combo == tuple(variants):  # asked for, so it must load; the shipped ones need not all combine
                problems.append(exc)
        except RulesError as exc:
            problems.append(exc)
    try:
        check_texts(list(src.scenarios), languages_of(src.items))  # playing a game reads no scenario file
    except RulesError as exc:
        problems.append(exc)
    for scen in src.scenarios:
        try:
            check_scenario(path, scen, src.refs(scen.variants))
        except RulesError as exc:
            exc.sources.update(src.sources)
            problems.append(exc)
    try:
        check_renderings(src)
    except RulesError as exc:
        problems.append(exc)
    if problems:
        diagnostics = list(dict.fromkeys(d for exc in problems for d in exc.diagnostics))
        raise RulesError(diagnostics, {f: t for exc in problems for f, t in exc.sources.items()})
    return src.name, compiled


def warn_formula_definitions(path: str) -> None:
    """Not an error: a definition without a sentence still prints, as a formula a player cannot read."""
    from dsl.files import find_ruleset
    from dsl.loader import read_ruleset
    from dsl.validate import formula_definitions
    names = formula_definitions(read_ruleset(find_ruleset(path)).items)
    if names:
        _err(f"{path}: warning: definitions printed as a formula (give each a `note` sentence or mark it "
             f"`internal`): {', '.join(names)}")


def cmd_check(args: argparse.Namespace) -> int:
    from dsl.errors import RulesError
    failed = False
    for path in args.paths:
        try:
            name, compiled = check_ruleset(path, args.variant)
            warn_formula_definitions(path)
        except RulesError as exc:
            _err(exc.render())
            failed = True
        except (FileNotFoundError, ValueError, OSError) as exc:
            _err(f"{path}: error: {exc}")
            failed = True
        else:
            print(f"ok: {name} ({', '.join(compiled)})")
    return 1 if failed else 0


# ------------------------------------------------------------------ simulate


def summary_table(summary: Summary) -> Table:
    from rich.table import Table

    from interpreter.runtime.observation import player_name
    table = Table(title=f"{summary.games} games, {summary.errors} errors, {summary.ties} ties, "
                        f"{summary.no_winner} won by nobody")
    for column in ("seat", "agent", "wins", "share"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for seat, (agent, wins) in enumerate(zip(summary.agents, summary.wins_by_seat)):
        share = f"{wins / summary.finished:.1%}" if summary.finished else "—"
        table.add_row(player_name(seat), agent, str(wins), share)
    return table


def cmd_simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from interpreter.play.agents import AGENTS
    from interpreter.compile.loading import load_game
    from interpreter.play.records import ruleset_ref
    from interpreter.play.simulate import auto_jobs, simulate
    game = load_game(args.game, args.variant, args.players)
    agents = _seats(args.agents, game.num_players, list(AGENTS))
    if args.games < 0:
        raise UsageError("--games must not be negative")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    jobs = args.jobs if args.jobs is not None else auto_jobs(args.games)
    errors = Console(stderr=True)
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    bar = Progress(*columns, console=errors, disable=not errors.is_terminal, transient=True)
    task = bar.add_task("games", total=args.games)

    def advance() -> None:
        if not bar.live.is_started:  # its refresh thread starts after the workers are forked, never before
            bar.start()
        bar.advance(task)

    try:
        summary = simulate(game, ruleset_ref(args.game), args.games, args.seed, agents,
                           Path(args.save) if args.save else None, advance, jobs, args.cluster)
    finally:
        bar.stop()
    if args.json:
        print(json.dumps(summary.to_dict()))
    else:
        out = Console()
        out.print(summary_table(summary))
        out.print(f"{summary.mean_decisions:.1f} decisions per game · {summary.games_per_second:.1f} games/s · "
                  f"digest {summary.digest[:16]}")
    if summary.failures:
        _err(f"{summary.errors} of {summary.games} games failed, {len(summary.failures)} kind(s) of error:")
        for failure in summary.failures:
            _err(failure.describe())
        return 1
    return 0


# ------------------------------------------------------------------ analyze


def _titles(game: str) -> dict[str, str]:
    """English titles of the game (key "") and of its variants by name, for the report's sentences."""
    from dsl import ast as A
    from dsl.files import find_ruleset
    from dsl.loader import read_ruleset
    src = read_ruleset(find_ruleset(game), scenarios=False)
    titles = {name: v.title.by_lang.get("en", name) for name, v in src.variants.items()}
    for item in src.items:
        if isinstance(item, A.GameDef) and item.title is not None:
            titles[""] = item.title.by_lang.get("en", item.name)
    return titles


def cmd_analyze(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from interpreter.play.agents import AGENTS
    from interpreter.play.analyze import Analysis, play_many
    from interpreter.compile.loading import load_game
    from interpreter.play.records import ruleset_ref
    from interpreter.play.simulate import auto_jobs
    try:
        from interpreter.play.report import write_report
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("the report needs matplotlib: pip install -e '.[analyze]'") from None
    if args.games < 2:
        raise UsageError("--games must be at least 2")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    jobs = args.jobs if args.jobs is not None else auto_jobs(args.games)
    sets = [args.variant] + ([args.variant + args.compare_with] if args.compare_with else [])
    titles = _titles(args.game)
    runs = []
    with Progress(console=Console(stderr=True), transient=True) as bar:
        for variants in sets:
            game = load_game(args.game, variants, args.players)
            agents = _seats(args.agents, game.num_players, list(AGENTS))
            title = " + ".join([titles.get("", game.program.name)] + [titles.get(v, Path(v).stem) for v in variants])
            run = Analysis(title, variants, game.num_players, agents)
            task = bar.add_task(title, total=args.games)
            for data in play_many(game, ruleset_ref(args.game), args.games, args.seed, agents, jobs, args.cluster):
                run.games.append(data)
                bar.advance(task)
            runs.append(run)
    change = " and ".join(titles.get(v, Path(v).stem) for v in args.compare_with)
    paths = write_report(Path(args.out), runs[0], runs[1] if len(runs) > 1 else None, change)
    for run in runs:
        rates = ", ".join(f"seat {s + 1} {r.text()}" for s, r in enumerate(run.win_rates()))
        print(f"{run.title}: {len(run.finished)} games, win rates {rates}; {len(run.errors)} broke a rule")
    print("wrote " + ", ".join(str(p) for p in paths))
    return 1 if any(run.errors for run in runs) else 0


# ------------------------------------------------------------------ replay


def cmd_replay(args: argparse.Namespace) -> int:
    from interpreter.runtime.observation import player_name
    from interpreter.play.records import CHOSEN, RecordError, read_record, replay
    try:
        record = read_record(Path(args.file))
        state = replay(record, args.ruleset, args.variant)
    except RecordError as exc:
        _err(f"{args.file}: error: {exc}")
        return 1
    if record.error is not None:
        _err(f"{args.file}: error: the record says the game failed ({record.error}), but the replay does not")
        return 1
    scores = tuple(state.scores()) if state.is_terminal() else None
    shown = ", ".join(f"{player_name(p)} {s}" for p, s in enumerate(scores)) if scores is not None else "unfinished"
    if scores != record.scores:
        recorded = ", ".join(map(str, record.scores)) if record.scores is not None else "unfinished"
        _err(f"{args.file}: error: the replay ends with {shown}, the record says {recorded}")
        return 1
    variants = f" +{'+'.join(record.variants)}" if record.variants else ""
    unchecked = "; chance outcomes chosen, not checked against the seed" if record.chance == CHOSEN else ""
    print(f"ok: {args.file}: {record.ruleset}{variants}, {record.players} players, seed {record.seed}, "
          f"{len(record.actions)} actions replayed; {shown}{unchecked}")
    return 0


# ------------------------------------------------------------------ play and test


def cmd_play(args: argparse.Namespace) -> int:
    from interpreter.play.agents import AGENTS
    from interpreter.compile.loading import load_game
    from interpreter.runtime.observation import player_name
    from interpreter.play.records import ruleset_ref
    from interpreter.play.terminal import HUMAN, play
    game = load_game(args.game, args.variant, args.players)
    spec = args.seats or ",".join([HUMAN] + ["random"] * (game.num_players - 1))
    seats = _seats(spec, game.num_players, [HUMAN, *AGENTS])
    # The seed and the public moves tell every hidden card, so a fair game needs one nobody can guess or
    # search for (63 bits from the OS) and keeps it secret until the end; --seed is for practice and replays.
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    save = Path(args.save) if args.save else Path("saved_games") / f"{game.ruleset}-{seed}.json"
    print(f"{game.ruleset}{''.join(' +' + v for v in game.variants)}, {game.num_players} players: "
          + ", ".join(f"{player_name(p)} {name}" for p, name in enumerate(seats)))
    if args.seed is not None:
        print(f"practice game: seed {seed} was given with --seed, so whoever knows it can work out every hidden card")
    return play(game, ruleset_ref(args.game), seed, seats, save, args.lang)


def cmd_test(args: argparse.Namespace) -> int:
    from interpreter.play.scenario import run_all
    results = run_all(args.game, variants=args.variant)
    if args.variant and not results:
        raise UsageError(f"no scenario loads {' or '.join(args.variant)}")
    for r in results:
        message = r.message.replace("\n", "\n    ")
        print(f"PASS {r.name}" if r.passed else f"FAIL {r.name}: {message}")
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ------------------------------------------------------------------ docs


def cmd_docs(args: argparse.Namespace) -> int:
    from rulebook.docs import DOCS_DIR, MANIFEST, expected_files, stale_files, write_files
    from rulebook.pdf import NoWeasyPrint
    if args.variant and len(args.games) != 1:
        raise UsageError("--variant needs exactly one GAME")
    out = Path(args.out) if args.out is not None else DOCS_DIR
    expected = expected_files(args.games, args.variant, pdf=not args.no_pdf)
    if args.check:
        stale = stale_files(out, expected, everything=not args.games)
        for rel in stale:
            generated = rel in expected or rel == MANIFEST
            what = "left over" if not generated else "stale" if (out / rel).is_file() else "missing"
            _err(f"{what}: {out / rel}")
        if stale:
            _err("generated docs are missing or not what the rules produce now; run `regelwerk docs` and commit")
            return 1
        print(f"ok: {len(expected)} generated files are up to date")
    else:
        try:
            touched = write_files(out, expected, everything=not args.games)
        except NoWeasyPrint as exc:
            raise UsageError(str(exc)) from None
        print(f"wrote {len(touched)} of {len(expected)} files to {out}")
    if args.screenshots:
        return _browser_check(out)
    return 0


def _browser_check(out: Path) -> int:
    """Opens every HTML rulebook in headless Chromium and keeps each game's first page as a PNG."""
    from rulebook.docs import first_pages, html_pages
    from rulebook.browser import check_pages, chromium_path  # Playwright is a test extra: load it only here
    if chromium_path() is None:
        raise UsageError("--screenshots needs Chromium (Debian package chromium)")
    reports = check_pages(html_pages(out), first_pages(out))
    for report in reports:
        if not report.ok:
            _err(report.summary())
    print(f"browser: {sum(r.ok for r in reports)} of {len(reports)} pages ok; "
          f"screenshots: {', '.join(str(p) for p in first_pages(out).values())}")
    return 0 if all(r.ok for r in reports) else 1


# ------------------------------------------------------------------ cache


def cmd_cache(args: argparse.Namespace) -> int:
    from dsl.cache_folder import cache_dir, cache_limit, entries, prune
    folder = cache_dir()
    if folder is None:
        print("no cache on disk (REGELWERK_CACHE is empty)")
        return 0
    limit = cache_limit()
    if args.clear or args.prune:
        done = prune(folder, 0 if args.clear else limit)
        print(f"removed {done.removed} of {done.files} files ({_mb(done.freed)} of {_mb(done.size)})")
    found = entries(folder) if folder.is_dir() else []
    print(f"{folder}: {len(found)} files, {_mb(sum(e.size for e in found))} (limit {_mb(limit)}, REGELWERK_CACHE_MB)")
    return 0


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


# ------------------------------------------------------------------ arguments


class _Seats:
    """The names a seat may take, for `%(seats)s` in a help text: computed only when help is printed,
    because importing the agents imports the engine."""

    def __init__(self, human: bool) -> None:
        self.human = human

    def __str__(self) -> str:
        from interpreter.play.agents import AGENTS
        from interpreter.play.terminal import HUMAN
        return ", ".join([HUMAN, *AGENTS] if self.human else AGENTS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="regelwerk", description="Tabletop games written as rules files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=text, description=text)
        p.set_defaults(run=run)
        return p

    def variant_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", action="append", default=[], metavar="V",
                       help="a variant's name or a .rules file holding one, anywhere on disk (repeatable)")

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="ruleset name or folder")
        variant_option(p)
        p.add_argument("--players", type=int, default=0, metavar="N", help="player count (default: the minimum)")

    p = command("check", cmd_check, "compile rulesets with each variant and their scenarios' expectations")
    p.add_argument("paths", nargs="+", metavar="PATH", help="ruleset name, folder or .rules file")
    variant_option(p)

    p = command("simulate", cmd_simulate, "play many seeded bot games and summarise them")
    game_options(p)
    p.add_argument("--games", type=int, default=100, metavar="G")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="game k uses seed S+k")
    setattr(p.add_argument("--agents", default="random", metavar="A,…", help="per seat or one for all: %(seats)s"),
            "seats", _Seats(human=False))
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--save", metavar="DIR", help="write a record of every game, failed ones too, to DIR")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="worker processes (default: all cores, at most one per 50 games; 1: play in this process)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on a Dask cluster (e.g. tcp://host:8786) instead of local workers; same results")

    p = command("analyze", cmd_analyze, "play many bot games and write a balance report (HTML, JSON, CSV)")
    game_options(p)
    p.add_argument("--compare-with", action="append", default=[], metavar="V",
                   help="also play with these variants added and compare the two rule sets (repeatable)")
    p.add_argument("--games", type=int, default=200, metavar="G")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="game k uses seed S+k in each rule set")
    setattr(p.add_argument("--agents", default="random", metavar="A,…", help="per seat or one for all: %(seats)s"),
            "seats", _Seats(human=False))
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: all cores, at most one per 20 games)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on a Dask cluster (e.g. tcp://host:8786) instead of local workers; same results")
    p.add_argument("--out", default="analysis", metavar="DIR", help="where report.html, data.json and games.csv go")

    p = command("replay", cmd_replay, "replay a game record, checking every step and the scores")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--ruleset", metavar="PATH",
                   help="the rules to replay with (default: the record's ruleset by name from the rulesets folder)")
    p.add_argument("--variant", action="append", default=[], metavar="PATH",
                   help="a variant file the record names (record files are never opened from the record)")

    p = command("play", cmd_play, "play at the terminal against bots or each other")
    game_options(p)
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="a practice or replay game with this seed (default: a secret seed from the OS, shown at the end)")
    setattr(p.add_argument("--seats", metavar="S,…", help="per seat: %(seats)s (default: human, then random)"),
            "seats", _Seats(human=True))
    p.add_argument("--save", metavar="FILE", help="default: saved_games/<ruleset>-<seed>.json, written when the game ends")
    p.add_argument("--lang", choices=["en", "de"], default="en", help="the language of the play screen (default: en)")

    p = command("docs", cmd_docs, "render the rulebooks and the language reference into generated_docs/")
    p.add_argument("games", nargs="*", metavar="GAME", help="rulesets to render (default: all)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is missing or stale")
    p.add_argument("--out", metavar="DIR", help="default: generated_docs/ of the regelwerk checkout")
    p.add_argument("--no-pdf", action="store_true",
                   help="leave the PDF rulebooks as they are: neither lay them out (WeasyPrint) nor check them")
    variant_option(p)
    p.add_argument("--screenshots", action="store_true",
                   help="open the HTML in headless Chromium, check it, keep each game's first page as PNG")

    p = command("cache", cmd_cache, "show where the caches on disk are and how large; prune or clear them")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--prune", action="store_true",
                      help="remove the files used longest ago now, down to 3/4 of the limit, if over it")
    what.add_argument("--clear", action="store_true", help="remove every cached file")

    p = command("test", cmd_test, "run a ruleset's scenarios; with --variant those that load one of the variants")
    p.add_argument("game", metavar="GAME")
    variant_option(p)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    from dsl.errors import RulesError
    from interpreter.runtime.errors import GameRuleError
    try:
        code: int = args.run(args)
    except UsageError as exc:
        _err(f"regelwerk {args.command}: error: {exc}")
        return 2
    except RulesError as exc:
        _err(exc.render())
        return 1
    except (FileNotFoundError, ValueError, OSError, GameRuleError) as exc:
        _err(f"error: {exc}")
        return 1
    return code


if __name__ == "__main__":  # `python -m interpreter.cli` runs the CLI from a checkout that is not installed
    sys.exit(main())
