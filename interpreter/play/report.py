"""The balance report of `regelwerk analyze`: one self-contained HTML file (plots inline as SVG, made by
matplotlib) and its data as JSON and CSV beside it. Same games, same files: the SVGs carry no dates
or random ids."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from jinja2 import Environment, FileSystemLoader, select_autoescape

from interpreter.play.analyze import Analysis, compare

TEMPLATES = Path(__file__).parent / "templates"


def _figure_svg(draw: Any, width: float = 6.0, height: float = 3.2) -> str:
    """Calls draw(ax) on a fresh figure and returns it as an inline SVG element."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "regelwerk"  # stable element ids: the same report byte for byte
    plt.rcParams["svg.fonttype"] = "none"  # text stays text
    fig, ax = plt.subplots(figsize=(width, height))
    try:
        draw(ax)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    finally:
        plt.close(fig)
    text = out.getvalue()
    return re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)


def _win_rate_plot(runs: Sequence[Analysis]) -> str:
    def draw(ax: Any) -> None:
        width = 0.8 / len(runs)
        for k, run in enumerate(runs):
            rates = run.win_rates()
            xs = [s + 1 + (k - (len(runs) - 1) / 2) * width for s in range(run.players)]
            lows = [r.value - r.interval[0] for r in rates]
            highs = [r.interval[1] - r.value for r in rates]
            ax.bar(xs, [r.value for r in rates], width, yerr=[lows, highs], capsize=3, label=run.title)
        ax.axhline(1 / runs[0].players, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.set_xlabel("seat (1 = start player)")
        ax.set_ylabel("win rate, 95 % interval")
        ax.set_xticks(range(1, runs[0].players + 1))
        ax.set_ylim(0, 1)
        ax.legend(fontsize="small", loc="upper right")
    return _figure_svg(draw)


def _histogram(runs: Sequence[Analysis], values: str, label: str) -> str:
    """One histogram per rule set over shared bins, so their bars line up."""
    series = [getattr(run, values)() for run in runs]
    pooled = [x for data in series for x in data]
    lo, hi = (min(pooled), max(pooled)) if pooled else (0.0, 1.0)
    count = min(30, max(5, len(set(pooled))))
    bins = [lo + (hi - lo or 1.0) * i / count for i in range(count + 1)]

    def draw(ax: Any) -> None:
        for run, data in zip(runs, series):
            if data:
                ax.hist(data, bins=bins, alpha=0.6, label=run.title)
        ax.set_xlabel(label)
        ax.set_ylabel("games")
        ax.legend(fontsize="small")
    return _figure_svg(draw)


def _score_plot(run: Analysis) -> str:
    def draw(ax: Any) -> None:
        done = run.finished
        ax.boxplot([[g.scores[s] for g in done] for s in range(run.players)])
        ax.set_xticks(range(1, run.players + 1))
        ax.set_xlabel("seat")
        ax.set_ylabel("score (first component)")
    return _figure_svg(draw)


def _choice_plot(run: Analysis, which: str) -> Optional[str]:
    rows = sorted(run.choices(which), key=lambda c: c.win_correlation)
    if not rows:
        return None
    rows = rows[:10] + rows[-10:] if len(rows) > 20 else rows

    def draw(ax: Any) -> None:
        ax.barh([c.name for c in rows], [c.win_correlation for c in rows],
                color=["tab:red" if c.win_correlation < 0 else "tab:green" for c in rows])
        ax.axvline(0, color="grey", linewidth=1)
        ax.set_xlabel("correlation of times chosen with winning")
        ax.tick_params(axis="y", labelsize="small")
    return _figure_svg(draw, height=max(2.5, 0.25 * len(rows) + 1))


def write_report(out: Path, base: Analysis, other: Optional[Analysis] = None, change: str = "") -> list[Path]:
    """Writes report.html, data.json and games.csv into `out`; returns the paths written. `change`
    names what `other` adds to `base`, the subject of the comparison's sentences."""
    out.mkdir(parents=True, exist_ok=True)
    runs = [base] + ([other] if other is not None else [])
    differences = compare(base, other, change or other.title) if other is not None else []
    sections = [{"title": run.title, "summary": run.summary(), "scores": _score_plot(run),
                 "actions": _choice_plot(run, "actions"), "cards": _choice_plot(run, "cards"),
                 "win_rates": run.win_rates(), "ties": run.ties(), "no_winner": run.no_winner(),
                 "choices": run.choices("actions"), "card_choices": run.choices("cards"),
                 "errors": run.errors[:10]} for run in runs]
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("report.html.j2").render(
        runs=runs, sections=sections, differences=differences, win_plot=_win_rate_plot(runs),
        margin_plot=_histogram(runs, "margins", "margin: best score minus the next best"),
        length_plot=_histogram(runs, "lengths", "decisions per game"))
    paths = [out / "report.html", out / "data.json", out / "games.csv"]
    paths[0].write_text(html, encoding="utf-8")
    data = {"runs": [run.summary() for run in runs],
            "differences": [vars(d) for d in differences]}
    paths[1].write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    with paths[2].open("w", newline="", encoding="utf-8") as f:
        rows = csv.writer(f)
        rows.writerow(["rules", "seed", "seat", "return", "score", "decisions", "error"])
        for run in runs:
            for g in run.games:
                for s in range(run.players):
                    rows.writerow([run.title, g.seed, s + 1, g.returns[s] if g.returns else "",
                                   g.scores[s] if g.scores else "", g.decisions, g.error])
    return paths
