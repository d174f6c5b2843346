"""Plays a study's games: every cell split into tasks of consecutive game indices.

A task is one cell and one chunk of its game indices (``CHUNK`` games by engine),
run by ``cardsim.api.run_chunk`` wherever the ``Execution`` puts it. The tasks of a
study are numbered in cell order, then game order, and are the same whenever the same
study runs: that is what lets a killed run resume from the tasks it kept. Records come
back in task order whatever the backend or the number of jobs, so the same study always
gives the same rows: all at once (``simulate``) or task by task (``stream``). Writes
nothing.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import numpy as np
import pandas as pd
from cardsim import api
from cardsim import games as registry
from cardsim.core.progress import bar as progress_bar
from cardsim.study.run.execution import Execution
from cardsim.study.plan.spec import Cell, Study

CHUNK = {"compiled": 5_000, "reference": 200}
"""Games per task by engine: small enough to balance the workers, large enough to amortise a task."""


def engine_for(study: Study) -> str:
    """The engine that runs the study: its own, or reference for a game without a compiled engine."""
    return study.engine if registry.spec(study.game).compiled is not None else "reference"


@dataclass(frozen=True)
class Tasks:
    """The tasks of a study (or of the game indices ``games`` of every cell), numbered from 0."""

    study: Study
    games: np.ndarray | None = None

    @cached_property
    def chunk(self) -> int:
        return CHUNK[engine_for(self.study)]

    @cached_property
    def cells(self) -> list[Cell]:
        return self.study.cells()

    @cached_property
    def per_cell(self) -> int:
        n = self.study.games if self.games is None else len(self.games)
        return -(-n // self.chunk)

    def __len__(self) -> int:
        return len(self.cells) * self.per_cell

    def task(self, i: int) -> tuple[Cell, np.ndarray]:
        """Task ``i``: its cell and its game indices."""
        cell, j = self.cells[i // self.per_cell], i % self.per_cell
        if self.games is None:
            return cell, np.arange(j * self.chunk, min((j + 1) * self.chunk, self.study.games), dtype=np.int64)
        return cell, np.asarray(self.games[j * self.chunk:(j + 1) * self.chunk], dtype=np.int64)


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
