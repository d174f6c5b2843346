"""A ladder's own files in its study folder: ``ladder.csv``, ``ratings.csv``, ``ladder.txt``, ``ladder.png``, and
``steps.csv`` where it seats two or more generations of a learned model.

``compute`` reads the folder's ``games.parquet`` one seating at a time into a
``ladder.Report``; ``write`` writes the files (each under a temporary name, then
renamed; a run writes them into the new folder before it is swapped in, so they are
all or nothing with the rest of the study); ``check`` is ``verify``'s part for a ladder:
the files recomputed from ``games.parquet`` and compared byte for byte (the figure only
where this matplotlib drew it), or, without the records, ``ladder.csv`` checked in itself.
The manifest lists the files with their sha256, like every output of a study, and
``command``, the ``cardsim ladder`` command line that re-creates the folder. A folder of manifest format 4 or
earlier was written before the generation steps (``outputs``): it has no ``steps.csv``, and its ``ladder.txt``
ends with the ratings.
"""
from __future__ import annotations

import io
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import games as registry
from cardsim.core.search import unfair_note
from cardsim.study.ladder import plot as ladder_plot
from cardsim.study.folder import storage
from cardsim.study.ladder.tables import ALL, Report, Tally, format_report, generations, measure_of
from cardsim.study.plan.spec import Study
from cardsim.study.report.stats import wilson

TABLE = "ladder.csv"
RATINGS = "ratings.csv"
TEXT = "ladder.txt"
STEPS = "steps.csv"
FILES = (TABLE, RATINGS, TEXT, ladder_plot.FILE)
"""What every ladder writes beside its study's ``summary.csv`` (a ladder draws no per-seating plots)."""
STEPS_FORMAT = 5
"""The first manifest format whose ladders write their generation steps (``steps.csv``, ``ladder.txt``)."""


def outputs(study: Study, manifest_format: int = storage.MANIFEST_FORMAT) -> list[str]:
    """The ladder's files, as a folder of ``manifest_format`` holds them: ``FILES``, then ``STEPS`` from
    ``STEPS_FORMAT`` on where two policies are generations of one model family."""
    families = generations(study.ladder.policies).values()
    stepped = manifest_format >= STEPS_FORMAT and any(len(members) > 1 for members in families)
    return [*FILES, *([STEPS] if stepped else [])]


def compute(study: Study, folder: Path) -> Report:
    """The ladder's report from ``folder/games.parquet``."""
    return tally(study, folder).report()


def tally(study: Study, folder: Path) -> Tally:
    """The ladder's outcomes, deal by deal, from ``folder/games.parquet``, read one seating (cell) at a time."""
    ladder, players = study.ladder, study.players[0]
    measure = measure_of(c.name for c in registry.spec(study.game).columns)
    counts = Tally(ladder.policies, players, study.games, measure)
    for cell in study.cells():
        counts.add(cell.seats, storage.read_games(folder, where={"policy": cell.policy},
                                                  columns=measure.columns(players)))
    return counts


def title(study: Study) -> str:
    """The ladder's heading (text and plot); a second line when it seats a player that sees hidden cards."""
    (variant,) = study.variants
    note = unfair_note(study.ladder.policies)
    return (f"{study.game} {variant}, {study.players[0]} players, {study.games:,} games per seating, "
            f"{len(study.cells())} seatings ({study.ladder.seatings}), seed {study.seed}" + (f"\n{note}" if note else ""))


def command(study: Study, out: str | Path | None) -> list[str]:
    """The ``cardsim ladder`` command line that re-creates the study's folder, word by word."""
    (variant,) = study.variants
    words = ["cardsim", "ladder", study.game, variant, "--policies", ",".join(study.ladder.policies),
             "--players", str(study.players[0]), "--games", str(study.games), "--seed", str(study.seed),
             "--seatings", study.ladder.seatings, *(["--engine", study.engine] if study.engine != "compiled" else []),
             *(["--out", str(out)] if out is not None else [])]
    return words


def texts(report: Report, study: Study, manifest_format: int = storage.MANIFEST_FORMAT) -> dict[str, str]:
    """The text files, by name, as a folder of ``manifest_format`` holds them: what ``write`` writes and
    ``check`` compares."""
    stepped = STEPS in outputs(study, manifest_format)
    out = {TABLE: _csv(report.table), RATINGS: _csv(report.ratings),
           TEXT: format_report(report, title(study), steps=stepped) + "\n"}
    return out | ({STEPS: _csv(report.steps)} if stepped else {})


def write(report: Report, study: Study, folder: Path) -> list[str]:
    """Write the ladder's files into ``folder``; return their names (``outputs``)."""
    for name, text in texts(report, study).items():
        storage.atomic_write(folder / name, lambda p: p.write_text(text, encoding="utf-8", newline=""))
    ladder_plot.render(report, title(study), folder)
    return outputs(study)


def check(folder: Path, study: Study, records: bool, redraw: bool, notes: list[str],
          manifest_format: int = storage.MANIFEST_FORMAT) -> list[str]:
    """``verify``'s lines for a ladder's files (see the module docstring), as a folder of ``manifest_format``
    holds them; ``redraw``: this matplotlib drew them."""
    names = outputs(study, manifest_format)
    present = [name for name in names if (folder / name).is_file()]  # a missing file is reported by verify
    if not records:
        recomputed = [name for name in names if name != ladder_plot.FILE]
        notes.append(f"{', '.join(recomputed)} and {ladder_plot.FILE} not recomputed: they need {storage.GAMES} "
                     f"(their sha256 is checked, {TABLE}'s intervals in themselves)")
        return _table_in_itself(folder) if TABLE in present else []
    report = compute(study, folder)
    problems = [f"{name}: not the ladder its {storage.GAMES} gives"
                for name, text in texts(report, study, manifest_format).items()
                if name in present and (folder / name).read_text(encoding="utf-8") != text]
    if redraw and ladder_plot.FILE in present:
        with tempfile.TemporaryDirectory() as tmp:
            ladder_plot.render(report, title(study), Path(tmp))
            if (Path(tmp) / ladder_plot.FILE).read_bytes() != (folder / ladder_plot.FILE).read_bytes():
                problems.append(f"{ladder_plot.FILE}: not the figure its {storage.GAMES} draws")
    return problems


def _csv(table: pd.DataFrame) -> str:
    return table.to_csv(index=False, float_format="%.6g", lineterminator="\n")


def _table_in_itself(folder: Path) -> list[str]:
    """Each rate of ``ladder.csv`` with the Wilson interval of its seat-games."""
    try:
        table = pd.read_csv(io.StringIO((folder / TABLE).read_text(encoding="utf-8")), keep_default_na=False,
                            na_values=[""], dtype={"policy": str, "among": str})
    except (ValueError, pd.errors.ParserError):
        return [f"{TABLE}: unreadable"]
    out = []
    for row in table.itertuples():
        if row.measure == "mean score" or row.seat_games == 0:
            continue
        k = round(row.value * row.seat_games)
        lo, hi = wilson(k, row.seat_games)
        if not (np.isclose(k / row.seat_games, row.value, rtol=2e-5) and np.isclose(lo, row.lo, rtol=2e-5, atol=1e-9)
                and np.isclose(hi, row.hi, rtol=2e-5, atol=1e-9)):
            among = "all its seats" if row.among == ALL else f"among {row.among}"
            out.append(f"{TABLE}: {row.policy} {among}: {row.value} [{row.lo}, {row.hi}] is no Wilson interval of "
                       f"{row.seat_games} seat-games")
    return out
