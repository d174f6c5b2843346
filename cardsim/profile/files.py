"""A profile's own files in its study folder: ``profile.csv``, ``profile.txt``, ``profile.png``.

A profile is a study (``cardsim.profile.design``), run, locked, swapped in whole and verified
by the study layer; these are the files it writes instead of the per-cell plots (it has dozens
of cells), from ``games.parquet``, into the new folder before it is swapped in, listed with
their sha256 in the manifest. ``check`` is ``cardsim verify``'s part: the files recomputed from
``games.parquet`` and compared (the figure only where this matplotlib drew it); without the
records a note says they were checked by their sha256 alone.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from cardsim.profile import chart, table as tables, text
from cardsim.study.folder import storage
from cardsim.study.plan.spec import Study

TABLE, TEXT = "profile.csv", "profile.txt"
FILES = (TABLE, TEXT, chart.FILE)


def title(study: Study) -> str:
    p = study.profile
    return (f"{study.game} profile: {p.policy} profiled, ladder {', '.join(p.ladder)}; "
            f"{study.games:,} games per cell, seed {study.seed}")


def texts(table, study: Study) -> dict[str, str]:
    return {TABLE: tables.csv_text(table), TEXT: text.format_table(table, study, title(study)) + "\n"}


def write(study: Study, folder: Path) -> list[str]:
    """Write the profile's files into ``folder`` (a new study folder with its ``games.parquet``)."""
    table = tables.compute(study, folder)
    for name, body in texts(table, study).items():
        storage.atomic_write(folder / name, lambda p: p.write_text(body, encoding="utf-8", newline=""))
    chart.render(table, title(study), folder)
    return list(FILES)


def check(folder: Path, study: Study, records: bool, redraw: bool, notes: list[str]) -> list[str]:
    """``verify``'s lines for a profile's files (see the module docstring)."""
    if not records:
        notes.append(f"{', '.join(FILES)} not recomputed: they need {storage.GAMES} (their sha256 is checked)")
        return []
    table = tables.compute(study, folder)
    present = [n for n in FILES if (folder / n).is_file()]
    problems = [f"{name}: not the profile its {storage.GAMES} gives" for name, body in texts(table, study).items()
                if name in present and (folder / name).read_text(encoding="utf-8") != body]
    if redraw and chart.FILE in present:
        with tempfile.TemporaryDirectory() as tmp:
            chart.render(table, title(study), Path(tmp))
            if (Path(tmp) / chart.FILE).read_bytes() != (folder / chart.FILE).read_bytes():
                problems.append(f"{chart.FILE}: not the figure its {storage.GAMES} draws")
    return problems
