"""Where chunks of seeded games are played: in this process, on local worker processes, or on a Dask
cluster (the optional extra `cluster`). Each way yields the chunks' results in task order, so what a
caller sums from them is the same whichever way played them."""
from __future__ import annotations

import multiprocessing
import sys
from typing import Any, Callable, Iterator, Optional, Sequence, TypeVar

Result = TypeVar("Result")


def play_seeds(here: Callable[[int], Result], chunk: Callable[[tuple[Any, ...]], list[Result]],
               how: tuple[Any, ...], seeds: range, jobs: int, cluster: Optional[str] = None) -> Iterator[Result]:
    """Each seed's result, in seed order. With one job and no cluster `here(seed)` plays it in this
    process; else `chunk((*how, some_seeds))` plays a run of seeds on a worker process or a Dask worker
    (`chunk` is module-level: it is pickled by name; `cluster` is a scheduler address such as
    tcp://host:8786, whose workers have regelwerk installed and the ruleset by name or path)."""
    if cluster is None and (jobs <= 1 or len(seeds) <= 1):
        yield from map(here, seeds)
        return
    size = max(1, min(25, len(seeds) // (min(jobs, len(seeds)) * 4)))  # small chunks keep every worker busy
    tasks = [(*how, seeds[i:i + size]) for i in range(0, len(seeds), size)]
    if cluster is not None:
        yield from _on_cluster(chunk, tasks, cluster)
        return
    # Linux forks (a worker finds the compiled program in its copy of the cache: no second parse); elsewhere
    # fork is unsafe or missing, and a spawned worker parses and compiles the rules once more.
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with context.Pool(min(jobs, len(tasks))) as pool:
        for results in pool.imap(chunk, tasks):
            yield from results


def _on_cluster(play: Callable[[tuple[Any, ...]], list[Result]], tasks: Sequence[tuple[Any, ...]],
                address: str) -> Iterator[Result]:
    """Dask rather than Ray: pure Python from PyPI, a scheduler and workers started with one command each
    (`dask scheduler`, `dask worker ADDRESS`), and futures that come back in the order they were sent."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--cluster needs Dask: pip install -e '.[cluster]'") from None
    try:
        client = Client(address, timeout="5s")  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise ValueError(f"no Dask scheduler at {address}: {exc}") from None
    with client:
        futures = client.map(play, list(tasks), pure=False)
        for future in futures:
            yield from future.result()
