"""A study's summary and plots from its records: what a run writes, ``report`` rewrites and ``verify`` re-draws.

``compute`` reads ``games.parquet`` one (players, policy) group at a time (each group
holds every variant of its cells, all that the paired differences and the effects
need) and returns the summary, in cell order, the length histograms and, for a sweep
or factorial, the effects; ``write`` writes ``summary.csv``, ``effects.csv`` and the
plots (a ladder: its own files instead of the plots, ``ladder_files``; a skill ladder also
``skill.csv`` and its plots, ``skill``). Nothing here
decides where a folder lives.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from cardsim import games as registry
from cardsim.study.hooks import NONE, Hooks
from cardsim.study.ladder import files as ladder_files
from cardsim.study.report import multiplicity
from cardsim.study.report import plots
from cardsim.study.report import skill
from cardsim.study.report import skill_plot as skillplot
from cardsim.study.folder import storage
from cardsim.study.report.effects import COLUMNS as RAW_COLUMNS, effects as effects_of
from cardsim.study.plan.spec import Study, StudyError
from cardsim.study.report.stats import CELL, Measures, length_histograms, measures, repetition_limits, summarize

EFFECTS = "effects.csv"
EFFECT_COLUMNS = (*RAW_COLUMNS, *multiplicity.COLUMNS)
"""``effects.csv``'s columns: the effects, then their corrections for many comparisons (``multiplicity``;
a folder written before them holds only ``RAW_COLUMNS``)."""
LEGACY_FORMAT = 2
"""Folders of this manifest format were written before fairness and effects: no fairness columns in
``summary.csv``, no fairness, means, knob or effects plot, no ``effects.csv``."""


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


SUMMARY_ROWS = 20_000_000
"""Records up to which a run keeps the summary's columns in memory as it writes them (``summary_columns``,
about 40 bytes a row): the summary then reads nothing back. A larger study is summarised from
``games.parquet``, one (players, policy) group at a time."""


def summary_columns(study: Study) -> list[str]:
    """The columns of the records that the summary, the histograms and the effects read, in order."""
    m = study_measures(study)
    return [*CELL, "game", "truncated", m.outcome, *m.lengths]


def compute(study: Study, folder: Path, records: pd.DataFrame | None = None
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None]:
    """The summary (one row per cell, in cell order), the length histograms and the effects (None
    unless the study is a sweep or factorial) of ``folder/games.parquet``, or of ``records`` (its
    ``summary_columns``, kept while they were written) when given; the effects carry their
    corrections for many comparisons, each family over the whole study (``multiplicity.adjust``)."""
    m = study_measures(study)
    cells = study.cells()
    summaries, histograms, effects = [], [], []
    for players, policy in dict.fromkeys((c.players, c.policy) for c in cells):
        if records is None:
            group = storage.read_games(folder, where={"players": players, "policy": policy},
                                       columns=summary_columns(study))
        else:
            group = records.loc[(records.players == players) & (records.policy == policy)].reset_index(drop=True)
        summaries.append(summarize(group, study.game, study.baseline, seats=max(study.players),
                                   limits=repetition_limits(study.variants)))
        histograms.append(length_histograms(group, m.lengths))
        if study.design is not None:
            effects.append(effects_of(group, study.design, m, study.game, study.variants))
    order = {(c.variant, c.players, c.policy): i for i, c in enumerate(cells)}
    summary = pd.concat(summaries, ignore_index=True)
    summary = summary.iloc[np.argsort([order[k] for k in zip(summary.variant, summary.players, summary.policy)])]
    return (summary.reset_index(drop=True), pd.concat(histograms, ignore_index=True),
            multiplicity.adjust(pd.concat(effects, ignore_index=True), study.alpha) if effects else None)


def summarize_records(study: Study, records: pd.DataFrame) -> pd.DataFrame:
    """The summary of records held in memory (``cardsim compare`` without a folder), as its file reads back."""
    return storage.parse_summary(storage.summary_csv(summarize(records, study.game, study.baseline,
                                                               seats=max(study.players),
                                                               limits=repetition_limits(study.variants))))


def as_read(summary: pd.DataFrame, histograms: pd.DataFrame, effects: pd.DataFrame | None
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None]:
    """The tables of ``compute`` as their files read back (what the plots are drawn from, as ``verify``
    re-draws them from the files)."""
    return (storage.parse_summary(storage.summary_csv(summary)), histograms,
            None if effects is None else parse_effects(effects_csv(effects)))


def write(study: Study, folder: Path, summary: pd.DataFrame, histograms: pd.DataFrame | None,
          effects: pd.DataFrame | None = None, hooks: Hooks = NONE, jobs: int = 1,
          meanwhile: Callable[[], None] = lambda: None) -> list[str]:
    """Write ``summary.csv``, ``effects.csv`` (a sweep or factorial) and the plots into ``folder``
    (drawn by ``jobs`` processes at once, ``plots.render``); return the files written, in ``outputs``
    order. A ladder writes its own files (``ladder_files``, from ``folder/games.parquet``) instead of the
    plots. ``meanwhile``: what this process does while the plots are drawn (a run: it assembles
    ``games.parquet``), done first where the files written read ``games.parquet`` (a ladder, a profile).
    ``hooks``: a test's seams (``cardsim.study.hooks``)."""
    storage.write_summary(summary, folder)
    if study.ladder is not None:
        meanwhile()
        return [storage.SUMMARY, *ladder_files.write(ladder_files.compute(study, folder), study, folder)]
    if study.profile is not None:  # a balance profile: its own files instead of the per-cell plots
        meanwhile()
        return [storage.SUMMARY, *_profile_files().write(study, folder)]
    written = [storage.SUMMARY]
    if effects is not None:
        storage.atomic_write(folder / EFFECTS, lambda p: p.write_text(effects_csv(effects), encoding="utf-8"))
        written.append(EFFECTS)
    written += plots.render(summary, histograms, study_measures(study), study.baseline, folder,
                            unpaired(study), study.design, effects, hooks, jobs=jobs, meanwhile=meanwhile)
    if study.skill is not None:  # a skill ladder: skill.csv and its plots (``skill``), from games.parquet
        written += skill.write(skill.compute(study, folder), folder)
        contrasts = effects if effects is not None else multiplicity.paired_table(summary, study.baseline, study.alpha)
        written += skillplot.render(contrasts, study.skill.rungs, study_measures(study).outcome, study.players, folder)
    return written


def _profile_files():
    """``cardsim.profile.files``, imported for a profile only: its tests and fits import scipy's statistics and
    optimizers and statsmodels, a second of start-up that every other study would wait for."""
    from cardsim.profile import files

    return files


def outputs(study: Study, manifest_format: int = storage.MANIFEST_FORMAT) -> list[str]:
    """The files ``write`` writes for ``study``, in its order (as a folder of ``manifest_format`` holds them)."""
    if study.ladder is not None:
        return [storage.SUMMARY, *ladder_files.outputs(study, manifest_format)]
    if study.profile is not None:
        return [storage.SUMMARY, *_profile_files().FILES]
    cells = study.cells()
    policies = list(dict.fromkeys(c.policy for c in cells))
    legacy = manifest_format <= LEGACY_FORMAT
    kind = None if legacy or study.design is None else study.design.kind
    return [storage.SUMMARY, *([EFFECTS] if kind else []),
            *plots.names(policies, study_measures(study).outcome, len(study.variants), kind, fairness=not legacy,
                         players={p: len({c.players for c in cells if c.policy == p}) for p in policies}),
            *([skill.FILE, *skillplot.names(study.players)] if study.skill is not None else [])]


def effects_csv(effects: pd.DataFrame) -> str:
    """The text of ``effects.csv``: what a run writes and what ``verify`` compares with it."""
    return effects.to_csv(index=False, float_format="%.6g", lineterminator="\n")


def parse_effects(text: str, where: str = EFFECTS) -> pd.DataFrame:
    """The table of ``effects.csv``'s text (labels as text, ``None`` and empty ones included); a table
    written before the corrections (``RAW_COLUMNS`` only) reads back as it is."""
    numbers = ("estimate", "lo", "hi", *multiplicity.COLUMNS[:-1])
    try:
        table = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values={c: [""] for c in numbers},
                            dtype={c: "str" for c in ("game", "policy", "effect", "knob", "level", "reference",
                                                      "knob_b", "level_b", "reference_b", "measure")})
    except (ValueError, pd.errors.ParserError) as err:
        raise StudyError(where, None, f"unreadable effects table ({err})") from None
    if list(table.columns) not in (list(EFFECT_COLUMNS), list(RAW_COLUMNS)):
        raise StudyError(where, None, f"expected the columns {', '.join(EFFECT_COLUMNS)}")
    return table
