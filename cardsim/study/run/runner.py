"""Plays a study's games: the plan's tasks (``plan.tasks``), each run by ``cardsim.api.run_chunk``
wherever the ``Execution`` puts it. Records come back in task order
whatever the backend or the number of jobs, so the same study always gives the same rows: all at
once (``simulate``) or task by task (``stream``). Writes nothing.
"""
from __future__ import annotations

from collections import deque
from typing import Iterator

import numpy as np
import pandas as pd
from cardsim import api
from cardsim import games as registry
from cardsim.core.progress import bar as progress_bar
from cardsim.learn import auto
from cardsim.study.run.execution import Execution
from cardsim.study.plan.spec import Cell, Study
from cardsim.study.plan.tasks import Tasks, engine_for


def simulate(study: Study, *, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
             progress: bool = False, games: np.ndarray | None = None) -> pd.DataFrame:
    """Records of every cell (``variant``, ``players``, ``policy`` columns first), in one table.

    ``games`` restricts the run to these game indices (``verify``); default all.
    """
    with Execution(jobs, backend, scheduler) as execution:
        return pd.concat([df for _, df in stream(study, execution, progress=progress, games=games)],
                         ignore_index=True)


def stream(study: Study, execution: Execution, *, skip: set[int] = frozenset(), progress: bool = False,
           games: np.ndarray | None = None) -> Iterator[tuple[int, pd.DataFrame]]:
    """``(task, records)`` for every task not in ``skip``, in task order, as the workers finish them:
    memory follows the tasks in flight, not the study (the tasks themselves are made one by one)."""
    g, engine = registry.spec(study.game), engine_for(study)
    tasks = Tasks(study, None if games is None else np.asarray(games, dtype=np.int64))
    size = study.games if games is None else len(tasks.games)
    done = sum(len(tasks.task(i)[1]) for i in skip if i < len(tasks))
    first = next((i for i in range(len(tasks)) if i not in skip), None)
    for cell in tasks.cells:  # learned(model=auto): each cell's model, trained here once, before any worker
        auto.ensure(g.name, study.variants[cell.variant], cell.players, cell.seats, jobs=execution.jobs,
                    progress=progress)
    if first is not None and not execution.in_process:
        cell = tasks.task(first)[0]
        api.warm(g, study.variants[cell.variant], cell.players, study.seed, cell.seats, engine)
    order: deque[int] = deque()

    def calls() -> Iterator[tuple]:
        for i in range(first or 0, len(tasks)):
            if i not in skip:
                order.append(i)
                cell, chunk = tasks.task(i)
                yield g, study.variants[cell.variant], cell.players, study.seed, cell.seats, engine, chunk

    with progress_bar(total=size * len(tasks.cells), initial=done, disable=not progress, unit=" games",
                      unit_scale=True, desc=study.name, smoothing=0.1) as bar:
        for df in execution.map(api.run_chunk, calls()):
            i = order.popleft()  # results come in the order of the calls
            bar.update(len(df))
            yield i, _with_cell(tasks.task(i)[0], df)


def _with_cell(cell: Cell, df: pd.DataFrame) -> pd.DataFrame:
    df.insert(0, "policy", cell.policy)
    df.insert(0, "players", np.int64(cell.players))
    df.insert(0, "variant", cell.variant)
    return df
