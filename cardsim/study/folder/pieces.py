"""The records of a run as it plays them: one parquet piece per task, kept for ``--resume``.

A run plays its tasks (a cell and a chunk of its game indices, ``runner.tasks``) and
keeps each task's records as ``<part>/pieces/<task>.parquet``, written to a temporary
name and renamed, so a piece is whole or absent. The tasks are the same whenever the
same study runs, so a resumed run plays only the tasks without a piece, and
``assemble`` streams the pieces in task order into ``games.parquet`` (row groups of
``storage.ROW_GROUP`` rows: the same file whether the run was resumed or not).
``<part>/run.json`` names what the pieces are of (the study, its engine, the chunk
size); a resume checks it before it trusts a piece.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.study.folder import storage
from cardsim.study.hooks import NONE, Hooks
from cardsim.study.plan.spec import StudyError

RUN = "run.json"
PIECES = "pieces"


def start(part: Path, identity: dict[str, Any], resume: bool) -> set[int]:
    """Prepare ``part`` for a run of ``identity``; return the tasks whose records are kept.

    Without ``resume`` any earlier part is removed first. With it, an earlier part of the
    same run is continued (``StudyError`` when it is of another study or size).
    """
    identity = json.loads(json.dumps(identity))  # as run.json holds it
    if part.exists() and resume:
        try:
            held = json.loads((part / RUN).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            held = None
        if held != identity:
            raise StudyError(str(part), None, "the interrupted run kept there is of another study or size; "
                             "run without --resume to start afresh")
        return kept(part)
    if part.exists():
        shutil.rmtree(part)
    (part / PIECES).mkdir(parents=True)
    storage.atomic_write(part / RUN, lambda p: p.write_text(json.dumps(identity, sort_keys=True), encoding="utf-8"))
    return set()


def kept(part: Path) -> set[int]:
    """The tasks whose pieces are in ``part`` (all of them once ``games.parquet`` is assembled)."""
    folder = part / PIECES
    if not folder.exists():
        return set()
    return {int(p.stem) for p in folder.glob("*.parquet") if p.stem.isdigit()}


def assembled(part: Path) -> bool:
    """Whether ``part`` holds the whole ``games.parquet`` already (a run killed after assembling it)."""
    return (part / storage.GAMES).exists()


def name(task: int) -> str:
    """The file name of task ``task``'s piece."""
    return f"{task:09d}.parquet"


def keep(part: Path, task: int, records: pd.DataFrame) -> pa.Table:
    """Keep the records of task ``task`` (replacing a piece of it kept before); return them as written. One
    thread converts them: pyarrow would otherwise start a pool of threads for each piece, a third of the
    conversion's time for pieces of this size."""
    table = pa.Table.from_pandas(records, preserve_index=False, nthreads=1)
    storage.atomic_write(part / PIECES / name(task), lambda p: pq.write_table(table, p))
    return table


def assemble(part: Path, tasks: int | list[int], watch: tuple = (), hooks: Hooks = NONE) -> None:
    """Write ``<part>/games.parquet`` from the pieces of tasks ``0 .. tasks - 1`` (or of the tasks
    listed, in that order: a run stepped to a precision, ``stepping``), then remove the pieces;
    ``watch`` and ``hooks``: ``storage.write_parquet``'s (what is computed from the records as they are
    written; a test's seams)."""
    folder = part / PIECES
    order = list(range(tasks)) if isinstance(tasks, int) else tasks
    missing = sorted(set(order) - kept(part))
    if missing:
        raise StudyError(str(folder), None, f"{len(missing)} pieces missing (first: task {missing[0]})")
    storage.write_parquet((_read(folder / name(t)) for t in order), part / storage.GAMES, watch, hooks)
    shutil.rmtree(folder)


def finish(part: Path) -> None:
    """Remove what only a resume needs (``run.json``) and what a killed run left half-written (a
    ``*.tmp-*`` file, the pieces once assembled), once the study in ``part`` is complete."""
    (part / RUN).unlink(missing_ok=True)
    shutil.rmtree(part / PIECES, ignore_errors=True)
    for leftover in part.glob("*.tmp-*"):
        leftover.unlink()


def _read(path: Path) -> pa.Table:
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as err:
        raise StudyError(str(path), None, f"unreadable piece ({err}); run without --resume") from None
