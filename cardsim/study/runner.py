"""Runs a study's games: every cell split into chunks of game indices, with joblib.

Each chunk is one ``cardsim.api.run_chunk`` task, run in this process (``jobs=1``),
in loky worker processes, or on a Dask cluster through joblib's dask backend. The
records come back in cell order, then game order, whatever the backend or the
number of jobs, so the same study always gives the same rows: all at once
(``simulate``) or chunk by chunk (``stream``, for studies larger than memory).
Writes nothing.
"""
from __future__ import annotations

import logging
from contextlib import ExitStack, contextmanager
from typing import Iterator

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from tqdm.auto import tqdm

from cardsim import api
from cardsim import games as registry
from cardsim.study.spec import Cell, Study

BACKENDS = ("loky", "dask")
CHUNK = {"compiled": 5_000, "reference": 200}
"""Games per task by engine: small enough to balance the workers, large enough to amortise a task."""


def check_execution(jobs: object, backend: str, scheduler: str | None) -> None:
    """Raise ``ValueError`` for a job count, backend or scheduler that cannot run."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or (jobs < 1 and jobs != -1):
        raise ValueError(f"--jobs must be a positive integer or -1 (all cores), not {jobs!r}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    if backend == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ValueError('--backend dask needs Dask: pip install -e ".[dask]"') from None


def engine_for(study: Study) -> str:
    """The engine that runs the study: its own, or reference for a game without a compiled engine."""
    return study.engine if registry.spec(study.game).compiled is not None else "reference"


def simulate(study: Study, *, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
             progress: bool = False, games: np.ndarray | None = None) -> pd.DataFrame:
    """Records of every cell (``variant``, ``players``, ``policy`` columns first), in one table.

    ``games`` restricts the run to these game indices (``verify``); default all.
    """
    return pd.concat(list(stream(study, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress,
                                 games=games)), ignore_index=True)


def stream(study: Study, *, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
           progress: bool = False, games: np.ndarray | None = None) -> Iterator[pd.DataFrame]:
    """The records of ``simulate`` as consecutive chunks, in the same order, as the workers
    finish them: memory follows the chunk (and joblib's few tasks in flight), not the study."""
    check_execution(jobs, backend, scheduler)
    g, engine = registry.spec(study.game), engine_for(study)
    indices = np.arange(study.games, dtype=np.int64) if games is None else np.asarray(games, dtype=np.int64)
    tasks = [(cell, chunk) for cell in study.cells()
             for chunk in np.array_split(indices, max(1, -(-len(indices) // CHUNK[engine])))]
    bar = tqdm(total=len(indices) * len(study.cells()), disable=not progress, unit=" games",
               unit_scale=True, desc=study.name, smoothing=0.1)
    if tasks and not (jobs == 1 and backend == "loky"):
        first = tasks[0][0]
        api.warm(g, study.variants[first.variant], first.players, study.seed, first.seats, engine)
    with bar, _parallel(jobs, backend, scheduler) as parallel:
        calls = (delayed(api.run_chunk)(g, study.variants[cell.variant], cell.players, study.seed, cell.seats,
                                        engine, chunk) for cell, chunk in tasks)
        for (cell, chunk), df in zip(tasks, parallel(calls)):
            bar.update(len(chunk))
            yield _with_cell(cell, df)


def _with_cell(cell: Cell, df: pd.DataFrame) -> pd.DataFrame:
    df.insert(0, "policy", cell.policy)
    df.insert(0, "players", np.int64(cell.players))
    df.insert(0, "variant", cell.variant)
    return df


@contextmanager
def _parallel(jobs: int, backend: str, scheduler: str | None) -> Iterator:
    """A callable mapping task calls to results, in order: in process, loky, or dask."""
    if jobs == 1 and backend == "loky":
        yield lambda calls: (f(*args, **kw) for f, args, kw in calls)
        return
    with ExitStack() as stack:
        if backend == "dask":
            _dask_client(stack, jobs, scheduler)
        stack.enter_context(parallel_config(backend=backend))
        yield stack.enter_context(Parallel(n_jobs=-1 if backend == "dask" else jobs, return_as="generator"))


def _dask_client(stack: ExitStack, jobs: int, scheduler: str | None) -> None:
    """Connect to ``scheduler``, or start a local cluster of ``jobs`` worker processes."""
    from distributed import Client, LocalCluster

    if scheduler is None:
        cluster = stack.enter_context(LocalCluster(n_workers=None if jobs == -1 else jobs, threads_per_worker=1,
                                                   processes=True, dashboard_address=":0",
                                                   silence_logs=logging.ERROR))
        stack.enter_context(Client(cluster))
    else:
        try:
            stack.enter_context(Client(scheduler, timeout="10s"))
        except OSError as err:
            raise ValueError(f"cannot reach the Dask scheduler {scheduler!r} ({err})") from None

