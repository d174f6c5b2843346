"""A study's cells split into tasks of consecutive game indices: what a run plays, numbered.

A task is one cell and one chunk of its game indices (``CHUNK`` games by engine). The
tasks of a study are numbered in cell order, then game order, and are the same whenever
the same study runs: that is what lets a killed run resume from the tasks it kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from cardsim import games as registry
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
