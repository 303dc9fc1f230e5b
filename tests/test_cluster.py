"""`--cluster ADDRESS` plays on a real local Dask cluster (a scheduler and two worker processes, no
mock) and gives exactly the results of a run in one process."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[test]'")

from interpreter.cli import main  # noqa: E402
from interpreter.compile.loading import load_game  # noqa: E402
from interpreter.play.analyze import play_many  # noqa: E402


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    assert main(["simulate", "maechtige_monster", "--players", "4", "--games", "40", "--seed", "3", "--json",
                 *extra]) == 0
    summary: dict[str, object] = json.loads(capsys.readouterr().out)
    del summary["seconds"], summary["games_per_second"]
    return summary


def test_simulate_on_the_cluster_equals_one_process(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    here = _simulate(capsys, "--jobs", "1")
    there = _simulate(capsys, "--cluster", address)
    assert there == here and here["games"] == 40


def test_analysis_data_on_the_cluster_equals_one_process(address: str) -> None:
    game = load_game("maechtige_monster", [], 3)
    here = list(play_many(game, "maechtige_monster", 10, 1, ["random"] * 3, jobs=1))
    there = list(play_many(game, "maechtige_monster", 10, 1, ["random"] * 3, cluster=address))
    assert there == here


def test_a_wrong_address_is_one_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["simulate", "maechtige_monster", "--games", "2", "--cluster", "tcp://127.0.0.1:9"])
    assert code == 1
    err = capsys.readouterr().err
    assert "no Dask scheduler at tcp://127.0.0.1:9" in err and "Traceback" not in err
