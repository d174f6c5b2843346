"""``verify_study``: check everything a study folder claims.

1. **The folder**: a swap left half-done by a killed run is finished first (under the
   lock, ``folder.recover``); the folder is then read under a shared lock, so no run
   replaces it meanwhile.
2. **The manifest against its own study** (``manifest.check``): seed, rules (knobs and
   ``describe``), engine, cells, numbers of records and sampled rows, sampled game
   indices, output files.
3. **The files**: every file the manifest lists is there, with the sha256 it records.
4. **sample.csv**: its records' digest is the manifest's, and it holds exactly the
   sampled games of every cell.
5. **games.parquet**, when present (it is not committed): its records' digest is the
   manifest's, its rows at the sampled games are ``sample.csv``'s, and ``summary.csv`` is
   the summary recomputed from it. Without it ``summary.csv`` is checked in itself: its
   cells are the study's, each of the study's size, each Wilson interval the one of its
   rate, each cell's rates summing to one.
6. **The plots**, re-drawn and compared byte for byte when this matplotlib is the one
   that drew them (else a note says so): all of them from ``games.parquet``, or the ones
   ``summary.csv`` alone determines. A ladder's own files instead (``ladder_files.check``):
   ``ladder.csv``, ``ratings.csv``, ``ladder.txt`` and ``ladder.png`` recomputed from
   ``games.parquet``, or without it ``ladder.csv``'s intervals checked in themselves.
7. **Games re-run**: by default every sampled game of every cell (committed folders are
   small); with ``sample=N``, N indices drawn with ``seed`` from the whole study (with
   ``games.parquet``) or from the sampled ones. Each re-run row must equal the stored one.

Differences are lines of ``Verification.mismatches``; what could not be checked, and
why, lines of ``notes``.
"""
from __future__ import annotations

import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd

from cardsim.study import folder as place_of, ladder_files, lock, manifest as claims, plots, report, storage
from cardsim.study.runner import simulate
from cardsim.study.spec import Study, StudyError
from cardsim.study.stats import CELL, wilson

SHOWN = 5
"""Differences shown one by one per check; the rest are counted."""


@dataclass(frozen=True)
class Verification:
    """What ``verify_study`` re-ran (``games`` in each of ``cells``), against which file (``source``),
    every difference found (``mismatches``) and what it could not check (``notes``)."""

    games: list[int]
    cells: int
    source: str
    mismatches: list[str]
    notes: list[str] = field(default_factory=list)
    seed: int | None = None
    """The ``--sample-seed`` that drew ``games`` (None: every sampled game was re-run)."""

    @property
    def ok(self) -> bool:
        return not self.mismatches


def verify_study(folder: str | Path, sample: int | None = None, seed: int | None = None, *,
                 redraw: bool = True) -> Verification:
    """Check the study folder ``folder`` (see the module docstring); ``StudyError`` when it cannot be checked.
    ``redraw=False`` leaves out step 6, the slowest (the plots' sha256 is still checked)."""
    if sample is not None and (not isinstance(sample, int) or isinstance(sample, bool) or sample < 1):
        raise ValueError(f"--sample must be a positive integer, not {sample!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64):
        raise ValueError(f"--sample-seed must be an integer >= 0 and < 2**64, not {seed!r}")
    place = place_of.Place(Path(folder).absolute())
    notes: list[str] = []
    if place.leftovers("ready") or place.leftovers("old"):
        with lock.hold(place.lock, place.folder, note=notes.append):
            notes += place_of.recover(place)
    with lock.hold(place.lock, place.folder, exclusive=False):
        return _verify(Path(folder), sample, seed, redraw, notes)


def _verify(folder: Path, sample: int | None, seed: int | None, redraw: bool, notes: list[str]) -> Verification:
    manifest = storage.read_manifest(folder)
    study = claims.study_of(manifest, folder / storage.MANIFEST)
    problems = claims.check(manifest, study)
    problems += _files(folder, manifest, notes)
    sample_rows = _sample(folder, manifest, study, problems)
    records = _records(folder, manifest, study, sample_rows, problems, notes)
    summary = _summary(folder, study, records, problems)
    if study.ladder is not None:
        drawn_here = redraw and _drawn_here(manifest, notes)
        problems += ladder_files.check(folder, study, records is not None, drawn_here, notes)
    elif redraw and _drawn_here(manifest, notes):
        _plots(folder, study, records, summary, problems, notes)
    games, chosen_seed, source = _chosen(manifest, study, records is not None, sample, seed)
    if records is not None:
        stored = storage.read_games(folder, games=games)
    elif sample_rows is not None:
        stored = sample_rows.loc[sample_rows.game.isin(games)]
    else:
        problems.append(f"neither {storage.GAMES} nor {storage.SAMPLE}: no stored rows to compare re-run games with")
        return Verification([], len(study.cells()), "nothing", problems, notes, chosen_seed)
    problems += _row_mismatches(stored.reset_index(drop=True), simulate(study, games=games), source)
    return Verification(games.tolist(), len(study.cells()), source, problems, notes, chosen_seed)


def _files(folder: Path, manifest: dict[str, Any], notes: list[str]) -> list[str]:
    """Every listed file present, with the sha256 the manifest records (format 3)."""
    listed = [*manifest["outputs"], storage.SAMPLE]
    digests = manifest.get("files", {})
    out = []
    for name in dict.fromkeys(listed):
        path = folder / name
        if not path.is_file():
            out.append(f"{name}: missing (the manifest lists it)")
        elif name in digests and storage.file_digest(path) != digests[name]:
            out.append(f"{name}: changed since the run (its sha256 is not the manifest's)")
    if manifest.get("format") == 2:
        notes.append("format 2 manifest (an earlier cardsim): it records no sha256 of summary.csv and the plots, "
                     "so an edit to them is found only where they are recomputed")
    return out


def _sample(folder: Path, manifest: dict[str, Any], study: Study, problems: list[str]) -> pd.DataFrame | None:
    """``sample.csv``, checked against the manifest's digest and sampled games (None when missing or unreadable)."""
    if not (folder / storage.SAMPLE).is_file():
        return None
    try:
        rows = storage.read_sample(folder, report.record_dtypes(study))
    except StudyError as err:
        problems.append(str(err))
        return None
    if storage.records_digest(rows) != manifest["sample"]["digest"]:
        problems.append("sample.csv: the records' digest differs from the manifest")
    want = {(c.variant, c.players, c.policy, g) for c in study.cells() for g in storage.sample_games(study.games)}
    have = list(zip(rows.variant, rows.players, rows.policy, rows.game))
    extra, missing = [k for k in have if k not in want], sorted(want - set(have))
    if extra or missing or len(have) != len(set(have)):
        problems.append(f"sample.csv: not the sampled games of every cell ({len(missing)} missing, {len(extra)} other, "
                        f"{len(have) - len(set(have))} twice)")
    return rows


def _records(folder: Path, manifest: dict[str, Any], study: Study, sample_rows: pd.DataFrame | None,
             problems: list[str], notes: list[str]) -> Path | None:
    """``games.parquet`` checked (digest; its sampled rows are ``sample.csv``'s); None when absent or unreadable."""
    path = folder / storage.GAMES
    if not path.exists():
        notes.append(f"no {storage.GAMES} (the full records are not committed): its digest, the summary's numbers "
                     "and the length plots are not recomputed; re-run games are compared with sample.csv")
        return None
    try:
        if storage.parquet_digest(path) != manifest["records"]["digest"]:
            problems.append(f"{storage.GAMES}: the records' digest differs from the manifest")
        sampled = storage.read_games(folder, games=storage.sample_games(study.games))
    except StudyError as err:
        problems.append(str(err))
        return None
    if sample_rows is not None and not _equal(sampled, sample_rows):
        problems.append(f"sample.csv: its rows are not those of {storage.GAMES} at the sampled games")
    return path


def _summary(folder: Path, study: Study, records: Path | None, problems: list[str]) -> dict[str, Any] | None:
    """``summary.csv`` recomputed from the records, or checked in itself; what the plots are re-drawn from."""
    path = folder / storage.SUMMARY
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        stored = storage.parse_summary(text, str(path))
    except StudyError as err:
        problems.append(str(err))
        return None
    if records is not None:
        summary, histograms = report.compute(study, folder)
        fresh = storage.summary_csv(summary)
        if fresh != text:
            problems += _summary_differences(stored, storage.parse_summary(fresh), study)
        return {"summary": storage.parse_summary(fresh), "histograms": histograms}
    problems += _summary_in_itself(stored, study)
    return {"summary": stored, "histograms": None}


def _summary_differences(stored: pd.DataFrame, fresh: pd.DataFrame, study: Study) -> list[str]:
    if list(stored.columns) != list(fresh.columns) or len(stored) != len(fresh):
        return [f"summary.csv: not the summary of {storage.GAMES} (other columns or cells)"]
    out = []
    for i in range(len(fresh)):
        diff = [c for c in fresh.columns if not _same(stored[c].iloc[i], fresh[c].iloc[i])]
        if diff:
            cell = ", ".join(f"{k}={fresh[k].iloc[i]}" for k in CELL)
            out.append(f"summary.csv: {cell}: " + ", ".join(f"{c} {stored[c].iloc[i]} (from {storage.GAMES}: "
                                                              f"{fresh[c].iloc[i]})" for c in diff[:3]))
    return _capped(out, "summary.csv")


def _summary_in_itself(summary: pd.DataFrame, study: Study) -> list[str]:
    """What a summary without its records can still be checked for: its cells, sizes and intervals."""
    m = report.study_measures(study)
    cells = [(c.variant, c.players, c.policy) for c in study.cells()]
    need = [*CELL, "game", "games", "truncated", f"{m.outcome}_none"]
    if any(c not in summary.columns for c in need):
        return ["summary.csv: not a study summary (columns missing)"]
    if list(zip(summary.variant, summary.players, summary.policy)) != cells:
        return ["summary.csv: its cells are not the study's"]
    out = []
    if not (summary.games == study.games).all() or not (summary.game == study.game).all():
        out.append(f"summary.csv: not {study.games} games of {study.game} in every cell")
    n = float(study.games)
    for i, (_, row) in enumerate(summary.iterrows()):
        total = (row.truncated + row[f"{m.outcome}_none"]) / n
        for s in range(cells[i][1]):
            rate, lo, hi = (row.get(f"{m.outcome}_{k}_{s}") for k in ("rate", "lo", "hi"))
            k = round(rate * n)
            w_lo, w_hi = wilson(k, n)
            if not (_close(k / n, rate) and _close(float(w_lo), lo) and _close(float(w_hi), hi)):
                out.append(f"summary.csv: {cells[i]}: seat {s}: rate {rate} [{lo}, {hi}] is no Wilson interval "
                           f"of {study.games} games")
            total += rate
        if not _close(total, 1.0, 1e-4):
            out.append(f"summary.csv: {cells[i]}: the outcome rates, no-outcome and truncated games sum to {total:.6f}")
    return _capped(out, "summary.csv")


def _drawn_here(manifest: dict[str, Any], notes: list[str]) -> bool:
    """Whether this matplotlib drew the folder's plots (then they can be re-drawn byte for byte); else a note."""
    drew = manifest.get("machine", {}).get("matplotlib") if isinstance(manifest.get("machine"), dict) else None
    if drew != matplotlib.__version__:
        notes.append(f"plots not re-drawn: drawn by matplotlib {drew or '(not recorded)'}, this is "
                     f"{matplotlib.__version__}" + (" (their sha256 is checked)" if "files" in manifest else ""))
        return False
    return True


def _plots(folder: Path, study: Study, records: Path | None, summary: dict[str, Any] | None, problems: list[str],
           notes: list[str]) -> None:
    """Re-draw the plots and compare them with the folder's, byte for byte."""
    if summary is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        drawn = plots.render(summary["summary"], summary["histograms"], report.study_measures(study),
                             study.baseline, Path(tmp), report.unpaired(study))
        differ = [f for f in drawn
                  if (folder / f).is_file() and (folder / f).read_bytes() != (Path(tmp) / f).read_bytes()]
    problems += [f"{f}: not the plot its {'records' if records else 'summary.csv'} draw" for f in differ]
    if records is None:
        notes.append("length plots not re-drawn: they need games.parquet")


def _chosen(manifest: dict[str, Any], study: Study, full: bool, sample: int | None,
            seed: int | None) -> tuple[np.ndarray, int | None, str]:
    """The game indices to re-run, the seed that drew them (None: all sampled ones), the rows' source."""
    source = storage.GAMES if full else storage.SAMPLE
    sampled = storage.sample_games(study.games)
    if sample is None:
        return sampled, None, source
    seed = secrets.randbits(32) if seed is None else seed
    rng = np.random.default_rng(seed)
    if full:
        return np.sort(rng.choice(study.games, min(sample, study.games), replace=False)).astype(np.int64), seed, source
    return np.sort(rng.choice(sampled, min(sample, len(sampled)), replace=False)), seed, source


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


def _equal(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    return storage.records_digest(a.reset_index(drop=True)) == storage.records_digest(b.reset_index(drop=True))


def _same(a: object, b: object) -> bool:
    return (pd.isna(a) and pd.isna(b)) or a == b


def _close(a: float, b: float, rtol: float = 2e-5) -> bool:
    return bool(np.isclose(a, b, rtol=rtol, atol=1e-9)) if not (pd.isna(a) or pd.isna(b)) else pd.isna(a) == pd.isna(b)


def _capped(lines: list[str], what: str) -> list[str]:
    return lines if len(lines) <= SHOWN else [*lines[:SHOWN], f"{what}: ... and {len(lines) - SHOWN} more"]
