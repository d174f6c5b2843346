"""The three study commands as functions: ``run_study``, ``verify_study``, ``report_study``.

What ``cardsim run | verify | report`` call, and what a script or notebook may call
directly. Each one checks everything it can before it writes anything.
"""
from __future__ import annotations

import os
import platform
import subprocess
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pandas as pd

import cardsim
from cardsim import games as registry
from cardsim.study import plots, storage
from cardsim.study.runner import check_execution, engine_for, simulate, stream
from cardsim.study.spec import Study, StudyError, load
from cardsim.study.stats import CELL, length_histograms, measures, summarize


def run_study(path: str | Path, *, games: int | None = None, jobs: int = 1, out: str | Path | None = None,
              backend: str = "loky", scheduler: str | None = None, force: bool = False,
              progress: bool = False) -> Path:
    """Run the study file ``path`` and write its folder (default ``results/<name>``); return the folder."""
    study = load(path)
    if games is not None:
        study = study.with_games(games)
    check_execution(jobs, backend, scheduler)
    folder = Path(out) if out is not None else Path("results") / study.name
    storage.check_folder(folder, study.to_dict(), force)
    revision = _git_revision()  # before this run touches a tracked results folder
    sampled, kept = storage.sample_games(study.games), []

    def records() -> Iterator[pd.DataFrame]:
        for part in stream(study, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress):
            kept.append(part.loc[part.game.isin(sampled)])
            yield part

    started = time.perf_counter()
    digest = storage.stream_games(records(), folder, before_rename=lambda: storage.open_folder(folder))
    simulated = time.perf_counter()
    rows = study.games * len(study.cells())
    sample = pd.concat(kept, ignore_index=True)
    sample_digest = storage.write_sample(sample, folder)
    written = _write_report(study, folder)
    timings = {"simulate_s": round(simulated - started, 3), "write_s": round(time.perf_counter() - simulated, 3),
               "games_per_s": round(rows / max(simulated - started, 1e-9), 1)}
    storage.write_manifest(_manifest(study, path, written, timings, revision,
                                     {"jobs": jobs, "backend": backend, "scheduler": scheduler},
                                     {"file": storage.GAMES, "rows": rows, "digest": digest},
                                     {"file": storage.SAMPLE, "rows": len(sample), "games": sampled.tolist(),
                                      "digest": sample_digest}), folder)
    return folder


def report_study(folder: str | Path) -> list[str]:
    """Re-render ``summary.csv`` and the plots from ``games.parquet``; return the files written."""
    folder = Path(folder)
    manifest = storage.read_manifest(folder)
    study = _study(manifest, folder)
    if not (folder / storage.GAMES).exists():
        raise StudyError(str(folder), None, f"no {storage.GAMES} (the full records are not committed); re-create "
                         f"them with `cardsim run {manifest['study_file']} --games {study.games} --out {folder}`")
    return _write_report(study, folder)


@dataclass(frozen=True)
class Verification:
    """What ``verify_study`` re-ran (``games`` in each of ``cells``), against which file
    (``source``), and every difference found: rows, and digests that differ from the manifest."""

    games: list[int]
    cells: int
    source: str
    mismatches: list[str]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def verify_study(folder: str | Path, sample: int = 20, seed: int | None = None) -> Verification:
    """Re-run ``sample`` game indices of every cell and compare them with the stored rows.

    With ``games.parquet`` the indices are drawn afresh from the whole study (``seed``
    fixes them) and the records' digest is checked against the manifest; without it
    (a committed folder) they are drawn from the indices of ``sample.csv``. The digest
    of ``sample.csv``, when present, is checked too.
    """
    folder = Path(folder)
    manifest = storage.read_manifest(folder)
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 1:
        raise ValueError(f"--sample must be a positive integer, not {sample!r}")
    study = _study(manifest, folder)
    has_sample, problems = (folder / storage.SAMPLE).exists(), []
    if has_sample:
        sample_rows = storage.read_sample(folder, record_dtypes(study))
        problems += _digest_problems(storage.records_digest(sample_rows), manifest["sample"])
    full = (folder / storage.GAMES).exists()
    if full:
        source, pool = storage.GAMES, np.arange(study.games)
        problems += _digest_problems(storage.parquet_digest(folder / storage.GAMES), manifest["records"])
    elif has_sample:
        source, pool = storage.SAMPLE, np.asarray(manifest["sample"]["games"], dtype=np.int64)
    else:
        raise StudyError(str(folder), None, f"neither {storage.GAMES} nor {storage.SAMPLE} beside the manifest")
    chosen = np.sort(np.random.default_rng(seed).choice(pool, min(sample, len(pool)), replace=False))
    stored = storage.read_games(folder, games=chosen) if full else sample_rows.loc[sample_rows.game.isin(chosen)]
    stored = stored.reset_index(drop=True)
    fresh = simulate(study, games=chosen)
    return Verification(chosen.tolist(), len(study.cells()), source, problems + _row_mismatches(stored, fresh, source))


def _study(manifest: dict[str, Any], folder: Path) -> Study:
    """The study of a manifest, its variants in the order they were run (its ``cells``): the
    manifest's JSON keeps its keys sorted, and the cell order is the order of the records."""
    study = Study.from_dict(manifest["study"], where=str(folder / storage.MANIFEST))
    ran = dict.fromkeys([*(c["variant"] for c in manifest["cells"]), *study.variants])
    return replace(study, variants={v: study.variants[v] for v in ran})


def record_dtypes(study: Study) -> dict[str, str]:
    """The columns of a study's records and their dtypes, in order: the cell, then the game's record."""
    return {"variant": "str", "players": "int64", "policy": "str",
            **{c.name: c.dtype for c in registry.spec(study.game).columns}}


def _digest_problems(digest: str, entry: dict[str, Any]) -> list[str]:
    """One line when a file's records' ``digest`` is not the one the manifest holds for ``entry['file']``."""
    if digest == entry["digest"]:
        return []
    return [f"{entry['file']}: the records' digest differs from the manifest"]


def _row_mismatches(stored: pd.DataFrame, fresh: pd.DataFrame, source: str) -> list[str]:
    """One line per re-run row that differs from (or is missing in) the stored rows."""
    keys = [*CELL, "game"]
    both = fresh.merge(stored, on=keys, how="left", suffixes=("", "_stored"), indicator=True)
    out = []
    for _, row in both.iterrows():
        where = ", ".join(f"{k}={row[k]}" for k in keys)
        if row["_merge"] != "both":
            out.append(f"{where}: missing from {source}")
            continue
        diff = [c for c in fresh.columns if c not in keys and row[c] != row[f"{c}_stored"]]
        if diff:
            out.append(f"{where}: " + ", ".join(f"{c} stored {row[f'{c}_stored']} re-run {row[c]}" for c in diff))
    if len(stored) != len(fresh):
        out.append(f"{source} holds {len(stored)} rows for the sampled games, the re-run {len(fresh)}")
    return out


def _write_report(study: Study, folder: Path) -> list[str]:
    """``summary.csv`` and the plots from ``games.parquet``, read one (players, policy) group at a
    time: each group holds every variant of its cells, all that the paired differences need."""
    m = measures(list(record_dtypes(study)))
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
    summary = summary.reset_index(drop=True)
    storage.write_summary(summary, folder)
    return [storage.SUMMARY, *plots.render(summary, pd.concat(histograms, ignore_index=True), m, study.baseline,
                                           folder)]


def _manifest(study: Study, path: str | Path, written: list[str], timings: dict[str, float],
              git: dict[str, Any] | None, execution: dict[str, Any], records: dict[str, Any],
              sample: dict[str, Any]) -> dict[str, Any]:
    cells = study.cells()
    return {
        "format": storage.MANIFEST_FORMAT,
        "study": study.to_dict(),
        "study_file": str(path),
        "seed": study.seed,
        "rules": {v: {"describe": r.describe(), "knobs": r.to_dict()} for v, r in study.variants.items()},
        "engine": engine_for(study),
        "cells": [{"variant": c.variant, "players": c.players, "policy": c.policy, "seats": list(c.seats)}
                  for c in cells],
        "records": records,
        "sample": sample,
        "digest": storage.DIGEST,
        "outputs": written,
        "package": {"name": "cardsim", "version": cardsim.__version__, "git": git},
        "machine": {"node": platform.node(), "platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count(), "numpy": np.__version__, "pandas": pd.__version__},
        "execution": execution,
        "timings": timings,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _git_revision() -> dict[str, Any] | None:
    """The package's git revision and whether its tree had changes; None outside a checkout."""
    here = Path(cardsim.__file__).parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if rev.returncode != 0:
        return None
    return {"revision": rev.stdout.strip(), "dirty": bool(dirty.stdout.strip())}
