"""A study's summary and plots from its records: what a run writes, ``report`` rewrites and ``verify`` re-draws.

``compute`` reads ``games.parquet`` one (players, policy) group at a time (each group
holds every variant of its cells, all that the paired differences need) and returns
the summary, in cell order, and the length histograms; ``write`` writes
``summary.csv`` and the plots (a ladder: its own files instead, ``ladder_files``).
Nothing here decides where a folder lives.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import games as registry
from cardsim.study import ladder_files, plots, storage
from cardsim.study.spec import Study
from cardsim.study.stats import CELL, Measures, length_histograms, measures, summarize


def record_dtypes(study: Study) -> dict[str, str]:
    """The columns of a study's records and their dtypes, in order: the cell, then the game's record."""
    return {"variant": "str", "players": "int64", "policy": "str",
            **{c.name: c.dtype for c in registry.spec(study.game).columns}}


def study_measures(study: Study) -> Measures:
    return measures(list(record_dtypes(study)))


def unpaired(study: Study) -> tuple[str, ...]:
    """The variants that shuffle another deck than the baseline (``Rules.same_deck``): not paired with it."""
    base = study.variants[study.baseline]
    return tuple(v for v, r in study.variants.items() if not r.same_deck(base))


def compute(study: Study, folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The summary (one row per cell, in cell order) and the length histograms of ``folder/games.parquet``."""
    m = study_measures(study)
    cells = study.cells()
    summaries, histograms = [], []
    for players, policy in dict.fromkeys((c.players, c.policy) for c in cells):
        group = storage.read_games(folder, where={"players": players, "policy": policy},
                                   columns=[*CELL, "game", "truncated", m.outcome, *m.lengths])
        summaries.append(summarize(group, study.game, study.baseline, seats=max(study.players)))
        histograms.append(length_histograms(group, m.lengths))
    order = {(c.variant, c.players, c.policy): i for i, c in enumerate(cells)}
    summary = pd.concat(summaries, ignore_index=True)
    summary = summary.iloc[np.argsort([order[k] for k in zip(summary.variant, summary.players, summary.policy)])]
    return summary.reset_index(drop=True), pd.concat(histograms, ignore_index=True)


def write(study: Study, folder: Path, summary: pd.DataFrame, histograms: pd.DataFrame | None) -> list[str]:
    """Write ``summary.csv`` and the plots into ``folder``; return the files written, summary first.
    A ladder writes its own files (``ladder_files``, from ``folder/games.parquet``) instead of the plots."""
    storage.write_summary(summary, folder)
    if study.ladder is not None:
        return [storage.SUMMARY, *ladder_files.write(ladder_files.compute(study, folder), study, folder)]
    return [storage.SUMMARY, *plots.render(summary, histograms, study_measures(study), study.baseline, folder,
                                           unpaired(study))]


def outputs(study: Study) -> list[str]:
    """The files ``write`` writes for ``study``, in its order."""
    if study.ladder is not None:
        return [storage.SUMMARY, *ladder_files.FILES]
    policies = list(dict.fromkeys(c.policy for c in study.cells()))
    return [storage.SUMMARY, *plots.names(policies, study_measures(study).outcome, len(study.variants))]
