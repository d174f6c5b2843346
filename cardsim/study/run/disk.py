"""The disk a run needs, estimated before any game is played, from the study alone.

A run writes its records chunk by chunk (the pieces, ``pieces``), assembles them into
``games.parquet`` (both on disk for a moment), then writes the sample, the summary, the
plots and the manifest; the earlier study stays until the swap. ``folder_bytes`` is the
size of the new folder, ``run_bytes`` the most the run has on disk at once (the folder,
the pieces and the records digest's spill). The constants are measured on the studies of ``results/`` and on
test studies of 40 to 20,000 games per cell (``tests/study/test_study_disk.py``
holds the estimate within 2x of the folder a run writes). Parquet compresses the
records of some games better than others' (0.2 to 0.45 bytes a value), and a plot
grows with its cells, not in proportion: these are estimates, never limits.
"""
from __future__ import annotations

import math
import shutil
from typing import TYPE_CHECKING

from cardsim.study.report import summary as report
from cardsim.study.folder import storage
from cardsim.study.plan.tasks import Tasks

if TYPE_CHECKING:
    from cardsim.study.folder.place import Place
    from cardsim.study.plan.spec import Study

RECORD_BYTES = 0.35
"""``games.parquet`` per record value (measured 0.2 on the test game, 0.45 on Moska at 20,000 games per cell)."""
PIECE_BYTES = 0.7
"""A piece per record value: a chunk of a few thousand rows compresses less well than the whole file."""
COLUMN_BYTES = 500
"""Parquet's metadata per column, in each piece and in ``games.parquet``."""
PLOT_BYTES = (20_000, 18_000)
"""A plot: the first plus the second times the square root of its cells (one policy's cells)."""
SAMPLE_VALUE_BYTES = 5
"""``sample.csv`` per value, beside the cell's names on each row."""
CELL_BYTES = 400
"""``summary.csv`` (and a design's ``effects.csv``) per cell."""
SPILL_BYTES = 8
"""The records digest's spill per record value while ``games.parquet`` is written (``storage.RecordsDigest``:
each column's raw bytes, int64 mostly, until it is hashed)."""
MANIFEST_BYTES = (4_000, 300)
"""``manifest.json``: the first plus the second per cell."""


def folder_bytes(study: Study) -> int:
    """The estimated size of the folder a run of ``study`` writes."""
    cells, columns = study.cells(), len(report.record_dtypes(study))
    policies = len({c.policy for c in cells})
    plots = sum(name.endswith(".png") for name in report.outputs(study))
    sample = len(storage.sample_games(study.games)) * sum(
        columns * SAMPLE_VALUE_BYTES + len(c.variant) + len(c.policy) for c in cells)
    tables = CELL_BYTES * len(cells) * (2 if study.design is not None else 1)
    return round(study.games * len(cells) * columns * RECORD_BYTES + COLUMN_BYTES * columns + sample + tables
                 + plots * (PLOT_BYTES[0] + PLOT_BYTES[1] * math.sqrt(len(cells) / policies))
                 + MANIFEST_BYTES[0] + MANIFEST_BYTES[1] * len(cells))


def run_bytes(study: Study) -> int:
    """The most disk a run of ``study`` holds at once: the new folder, the pieces of its records and the
    digest's spill of them (at assembly all are on disk together)."""
    tasks, columns = Tasks(study), len(report.record_dtypes(study))
    values = study.games * len(study.cells()) * columns
    pieces = len(tasks) * COLUMN_BYTES * columns + values * PIECE_BYTES
    return folder_bytes(study) + round(pieces + values * SPILL_BYTES)


def check(place: Place, study: Study) -> None:
    """``ValueError`` (one line) when the file system of ``place`` has less free space than ``run_bytes``
    (the earlier study stays until the swap: its space is not counted as free)."""
    needed, free = run_bytes(study), shutil.disk_usage(place.parent).free
    if needed > free:
        values = study.games * len(study.cells()) * len(report.record_dtypes(study))
        raise ValueError(f"{place.folder}: the run needs about {size(needed)} of disk ({values:,} record values), "
                         f"{size(free)} free")


def size(n: float) -> str:
    """``n`` bytes in words: ``17.7 MB``."""
    unit = 0
    while n >= 1000 and unit < 5:
        n, unit = n / 1000, unit + 1
    return f"{n:,.1f} {('B', 'kB', 'MB', 'GB', 'TB', 'PB')[unit]}"
