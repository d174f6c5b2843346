"""The three study commands as functions: ``run_study``, ``verify_study``, ``report_study``.

What ``cardsim run | verify | report`` call, and what a script or notebook may call
directly. Each one checks everything it can before it writes anything.
"""
from __future__ import annotations

import os
import platform
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import cardsim
from cardsim import games as registry
from cardsim.study import plots, storage
from cardsim.study.runner import check_execution, engine_for, simulate
from cardsim.study.spec import Study, StudyError, load
from cardsim.study.stats import CELL, summarize


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
    started = time.perf_counter()
    records = simulate(study, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress)
    simulated = time.perf_counter()
    storage.open_folder(folder)
    digest = storage.write_games(records, folder)
    sampled = storage.sample_games(study.games)
    sample = records.loc[records.game.isin(sampled)].reset_index(drop=True)
    sample_digest = storage.write_sample(sample, folder)
    written = _write_report(study, records, folder)
    timings = {"simulate_s": round(simulated - started, 3), "write_s": round(time.perf_counter() - simulated, 3),
               "games_per_s": round(len(records) / max(simulated - started, 1e-9), 1)}
    storage.write_manifest(_manifest(study, path, written, timings, revision,
                                     {"jobs": jobs, "backend": backend, "scheduler": scheduler},
                                     {"file": storage.GAMES, "rows": len(records), "digest": digest},
                                     {"file": storage.SAMPLE, "rows": len(sample), "games": sampled.tolist(),
                                      "digest": sample_digest}), folder)
    return folder


def report_study(folder: str | Path) -> list[str]:
    """Re-render ``summary.csv`` and the plots from ``games.parquet``; return the files written."""
    folder = Path(folder)
    manifest = storage.read_manifest(folder)
    study = Study.from_dict(manifest["study"], where=str(folder / storage.MANIFEST))
    if not (folder / storage.GAMES).exists():
        raise StudyError(str(folder), None, f"no {storage.GAMES} (the full records are not committed); re-create "
                         f"them with `cardsim run {manifest['study_file']} --games {study.games} --out {folder}`")
    return _write_report(study, storage.read_games(folder), folder)


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
    study = Study.from_dict(manifest["study"], where=str(folder / storage.MANIFEST))
    has_sample, problems = (folder / storage.SAMPLE).exists(), []
    if has_sample:
        sample_rows = storage.read_sample(folder, record_dtypes(study))
        problems += _digest_problems(sample_rows, manifest["sample"])
    if (folder / storage.GAMES).exists():
        source, stored, pool = storage.GAMES, storage.read_games(folder), np.arange(study.games)
        problems += _digest_problems(stored, manifest["records"])
    elif has_sample:
        source, stored = storage.SAMPLE, sample_rows
        pool = np.asarray(manifest["sample"]["games"], dtype=np.int64)
    else:
        raise StudyError(str(folder), None, f"neither {storage.GAMES} nor {storage.SAMPLE} beside the manifest")
    chosen = np.sort(np.random.default_rng(seed).choice(pool, min(sample, len(pool)), replace=False))
    stored = stored.loc[stored.game.isin(chosen)].reset_index(drop=True)
    fresh = simulate(study, games=chosen)
    return Verification(chosen.tolist(), len(study.cells()), source, problems + _row_mismatches(stored, fresh, source))


def record_dtypes(study: Study) -> dict[str, str]:
    """The columns of a study's records and their dtypes, in order: the cell, then the game's record."""
    return {"variant": "str", "players": "int64", "policy": "str",
            **{c.name: c.dtype for c in registry.spec(study.game).columns}}


def _digest_problems(records: pd.DataFrame, entry: dict[str, Any]) -> list[str]:
    """One line when the records' digest is not the one the manifest holds for ``entry['file']``."""
    if storage.records_digest(records) == entry["digest"]:
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


def _write_report(study: Study, records: pd.DataFrame, folder: Path) -> list[str]:
    summary = summarize(records, study.game, study.baseline)
    storage.write_summary(summary, folder)
    return [storage.SUMMARY, *plots.render(summary, records, study.baseline, folder)]


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
