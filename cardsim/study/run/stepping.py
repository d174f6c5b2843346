"""Plays a study step by step until every seat rate (or seat contrast) is as precise as asked
(``precision``'s rule).

Each step plays only its new games, as pieces (``pieces``) numbered like the tasks of
the study at ``max_games`` games (cell c, chunk j is piece ``c * chunks + j``): the
pieces of the n games reached, in that order, are then exactly the records of the study
of n games, whatever steps led there. A chunk that a step leaves partial (n not a
multiple of the chunk) is played again, whole, by the next step. A resumed run walks
the same steps and plays only the pieces it lacks. Writes pieces only.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow.parquet as pq

from cardsim.study.folder import pieces
from cardsim.study.run.execution import Execution
from cardsim.study.run.precision import next_games, widest_contrast_half_width, widest_half_width
from cardsim.study.report.summary import study_measures
from cardsim.study.plan.tasks import Tasks
from cardsim.study.run.runner import stream
from cardsim.study.plan.spec import Study


@dataclass(frozen=True)
class Reached:
    """Where a stepped run stopped: ``games`` per cell, every step's ``games`` and widest half-width
    (pp), whether the precision was ``reached``, and the pieces of the study in task order."""

    games: int
    steps: list[dict[str, float]]
    reached: bool
    order: list[int]


def play(study: Study, part: Path, execution: Execution, precision: float, max_games: int, *,
         progress: bool = False, kept: set[int] = frozenset(), after_piece: Callable[[], None] = lambda: None,
         of: str = "rates") -> Reached:
    """Play ``study`` (its ``games`` the first step) into the pieces of ``part`` until the rule stops;
    ``kept``: pieces an interrupted run left (a resume); ``of``: what the precision is of (``precision.OF``)."""
    whole = Tasks(study.with_games(max_games))
    outcome = study_measures(study).outcome
    rows = {piece: pq.ParquetFile(part / pieces.PIECES / pieces.name(piece)).metadata.num_rows for piece in kept}
    kept_of: dict[int, np.ndarray] = {}

    def keep(x: np.ndarray, players: int) -> np.ndarray:
        """What a piece's outcomes ``x`` count for: its seat counts (rates), or each game's (contrasts)."""
        return np.bincount(x[x >= 0], minlength=players) if of == "rates" else x.astype(np.int8)  # -1: none
    first, n, steps = study.games, study.games, []
    while True:
        tasks = Tasks(study.with_games(n))
        ids = [(i // tasks.per_cell) * whole.per_cell + i % tasks.per_cell for i in range(len(tasks))]
        done = {i for i in range(len(tasks)) if rows.get(ids[i]) == len(tasks.task(i)[1])}
        for i, records in stream(study.with_games(n), execution, skip=done, progress=progress):
            pieces.keep(part, ids[i], records)
            rows[ids[i]] = len(records)
            kept_of[ids[i]] = keep(records[outcome].to_numpy(), tasks.task(i)[0].players)
            after_piece()
        for i in done:
            if ids[i] not in kept_of:
                kept_of[ids[i]] = keep(_outcomes(part, ids[i], outcome), tasks.task(i)[0].players)
        cells = [[kept_of[ids[c * tasks.per_cell + j]] for j in range(tasks.per_cell)] for c in range(len(tasks.cells))]
        widest = _widest(study, tasks.cells, cells, n, of)
        steps.append({"games": n, "widest_half_width_pp": widest})
        following = next_games(n, widest, precision, first, max_games)
        if following is None:
            return Reached(n, steps, widest <= precision, ids)
        n = following


def _widest(study: Study, cells: list, kept: list[list[np.ndarray]], games: int, of: str) -> float:
    """The widest half-width of ``precision``'s rule ``of`` (rates or contrasts) after ``games`` games per cell:
    ``kept[c]``, what ``play`` keeps of cell ``cells[c]``'s pieces, in game order."""
    if of == "rates":
        return widest_half_width([sum(parts) for parts in kept], games)
    return widest_contrast_half_width(study.baseline, cells, [np.concatenate(parts) for parts in kept])


def _outcomes(part: Path, piece: int, outcome: str) -> np.ndarray:
    """The outcome per game of a piece kept by an interrupted run."""
    return pq.read_table(part / pieces.PIECES / pieces.name(piece), columns=[outcome]).column(0).to_numpy()
