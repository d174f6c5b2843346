"""``verify_study``: check everything a study folder claims.

1. **The folder**: a swap left half-done by a killed run is finished first (under the
   lock, ``folder.recover``); the folder is then read under a shared lock, so no run
   replaces it meanwhile.
2. **The manifest against its own study** (``manifest.check``): seed, rules (knobs and
   ``describe``), engine, cells, numbers of records and sampled rows, sampled game
   indices, output files.
3. **The files**: every file the manifest lists is there, with the sha256 it records;
   every other entry of the folder is reported as foreign, but ``manifest.json``,
   ``games.parquet`` (step 5), ``report.html`` (rendered again from the folder's files and
   compared) and a file an interrupted write left (``*.tmp-*``: a note). The manifest's
   seal (format 4) is the sha256 of its fields, the informational ones included
   (``manifest.INFORMATIONAL``); an earlier format's are unsealed: a note says so.
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
import shutil
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd

from cardsim.core.models import OtherRules
from cardsim.profile import files as profile_files
from cardsim.study.folder import place as place_of
from cardsim.study.ladder import files as ladder_files
from cardsim.study.folder import lock
from cardsim.study.folder import manifest as claims
from cardsim.study.report import plots
from cardsim.study.run import precision as rule
from cardsim.study.report import html as htmlreport
from cardsim.study.report import summary as report
from cardsim.study.folder import storage
from cardsim.study.run.runner import simulate
from cardsim.study.plan.spec import Study, StudyError
from cardsim.study.report.effects import contrasts, paired
from cardsim.study.report.stats import CELL, fairness, wilson

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
    with lock.hold(place.lock, place.folder, exclusive=False), warnings.catch_warnings():
        warnings.simplefilter("ignore", OtherRules)  # the games re-run as the study played them; it said so once
        return _verify(Path(folder), sample, seed, redraw, notes)


def _verify(folder: Path, sample: int | None, seed: int | None, redraw: bool, notes: list[str]) -> Verification:
    manifest = storage.read_manifest(folder)
    study = claims.study_of(manifest, folder / storage.MANIFEST)
    problems = claims.check(manifest, study, report.outputs)
    problems += _files(folder, manifest, notes)
    problems += _contents(folder, manifest, notes)
    sample_rows = _sample(folder, manifest, study, problems)
    records = _records(folder, manifest, study, sample_rows, problems, notes)
    summary = _summary(folder, manifest, study, records, problems, notes)
    problems += _precision(folder, manifest, study, records, summary)
    if not redraw:
        notes.append("plots not re-drawn (their sha256 is checked; --redraw draws them again and compares them "
                     "byte for byte)")
    if study.ladder is not None:
        drawn_here = redraw and _drawn_here(manifest, notes)
        problems += ladder_files.check(folder, study, records is not None, drawn_here, notes, manifest["format"])
    elif study.profile is not None:  # a balance profile's own files (``cardsim.profile.files``)
        problems += profile_files.check(folder, study, records is not None, redraw and _drawn_here(manifest, notes),
                                        notes)
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
    if manifest.get("format") in (2, 3):
        notes.append(f"format {manifest['format']} manifest (an earlier cardsim): not sealed, so an edit to a field "
                     f"nothing derives again ({', '.join(claims.INFORMATIONAL)}) is not found")
    return out


def _contents(folder: Path, manifest: dict[str, Any], notes: list[str]) -> list[str]:
    """Every entry of the folder that is not a file of the study (step 3); ``report.html`` rendered again."""
    known = {storage.MANIFEST, storage.GAMES, *manifest["outputs"], storage.SAMPLE, *manifest.get("files", {})}
    out = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if path.is_symlink() or not path.is_file():
            out.append(f"{name}: foreign (not a file: a study folder holds files only)")
        elif ".tmp-" in name:
            notes.append(f"{name}: left half-written by an interrupted process, not a file of the study "
                         "(remove it)")
        elif name == htmlreport.REPORT and "command" not in manifest:
            notes.append(f"{name}: not rendered again (it names the folder by the command that re-creates it, "
                         "which this manifest does not record)")
        elif name == htmlreport.REPORT:
            out += _report_page(folder)
        elif name not in known:
            out.append(f"{name}: foreign (the manifest does not list it)")
    return out


def _report_page(folder: Path) -> list[str]:
    """``report.html`` is the page the folder's files render (in a copy of them, so nothing is written here)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / folder.name
        copy.mkdir()
        for path in folder.iterdir():
            if path.is_file() and not path.is_symlink() and path.name not in (storage.GAMES, htmlreport.REPORT):
                shutil.copyfile(path, copy / path.name)
        try:
            page = htmlreport.write_report(copy).read_bytes()
        except (OSError, ValueError, KeyError, TypeError) as err:
            return [f"{htmlreport.REPORT}: not the page of this folder (its files render none: {err})"]
    if page != (folder / htmlreport.REPORT).read_bytes():
        return [f"{htmlreport.REPORT}: not the page this folder's files render (write it again with "
                f"`cardsim report --html {folder}`)"]
    return []


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


def _summary(folder: Path, manifest: dict[str, Any], study: Study, records: Path | None, problems: list[str],
             notes: list[str]) -> dict[str, Any] | None:
    """``summary.csv`` (and a sweep's or factorial's ``effects.csv``) recomputed from the records, or
    checked in themselves; what the plots are re-drawn from."""
    path = folder / storage.SUMMARY
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        stored = storage.parse_summary(text, str(path))
    except StudyError as err:
        problems.append(str(err))
        return None
    legacy = manifest["format"] <= report.LEGACY_FORMAT
    stored_effects = None if legacy or study.design is None else _stored_effects(folder, problems)
    if records is not None:
        summary, histograms, effects = report.compute(study, folder)
        if legacy:  # written before the fairness columns
            summary = summary[[c for c in summary.columns if c not in _fairness_columns(study)]]
        fresh = storage.summary_csv(summary)
        if fresh != text:
            problems += _summary_differences(stored, storage.parse_summary(fresh), study)
        if stored_effects is not None and report.effects_csv(effects) != stored_effects[1]:
            problems += _effects_differences(stored_effects[0], report.parse_effects(report.effects_csv(effects)))
        _, _, effects = report.as_read(summary, histograms, effects)
        return {"summary": storage.parse_summary(fresh), "histograms": histograms, "effects": effects}
    problems += _summary_in_itself(stored, study, legacy)
    if stored_effects is not None:
        problems += _effects_in_itself(stored_effects[0], stored, study)
        notes.append(f"{report.EFFECTS}: its intervals are not recomputed (they need games.parquet); its rows and "
                     "its estimates of seat rates are checked against summary.csv")
    return {"summary": stored, "histograms": None, "effects": None if stored_effects is None else stored_effects[0]}


def _precision(folder: Path, manifest: dict[str, Any], study: Study, records: Path | None,
               summary: dict[str, Any] | None) -> list[str]:
    """A run stepped to a precision (``precision`` in the manifest): its steps follow the rule from
    its first step to the study's games, each step's widest half-width is the records' (without
    them, the last one is ``summary.csv``'s), and ``reached`` says whether the last is within it."""
    stepped = manifest.get("precision")
    if stepped is None:
        return []
    shape = {"pp": (int, float), "max_games": int, "first": int, "rule": str, "steps": list, "reached": bool}
    if (not isinstance(stepped, dict) or any(not isinstance(stepped.get(k), t) for k, t in shape.items())
            or stepped.get("of", "rates") not in rule.OF
            or not stepped["steps"] or any(not isinstance(x, dict) or not isinstance(x.get("games"), int)
                                           or not isinstance(x.get("widest_half_width_pp"), (int, float))
                                           for x in stepped["steps"])):
        return ["manifest.json: precision is not a precision run's record (pp, max_games, first, rule, steps, "
                f"reached; of: {' or '.join(rule.OF)})"]
    pp, top, first, of = stepped["pp"], stepped["max_games"], stepped["first"], stepped.get("of", "rates")
    games = [x["games"] for x in stepped["steps"]]
    widths = [x["widest_half_width_pp"] for x in stepped["steps"]]
    out = [] if stepped["rule"] == rule.OF[of] else ["manifest.json: precision.rule is not this cardsim's rule"]
    walked = [first]
    for n, h in zip(games, widths):
        following = rule.next_games(n, h, pp, first, top)
        if following is None:
            break
        walked.append(following)
    if games != walked or games[-1] != study.games:
        out.append(f"manifest.json: precision.steps {games} are not the rule's steps from {first} to the study's "
                   f"{study.games} games")
    if stepped["reached"] != (widths[-1] <= pp):
        out.append(f"manifest.json: precision.reached is {stepped['reached']} with a widest half-width of "
                   f"{widths[-1]} pp for ±{pp} pp")
    if records is not None:
        fresh = _step_widths(folder, study, games, of)
        out += [f"manifest.json: precision: after {n:,} games the widest half-width is {h} pp, not {w} "
                f"(from {storage.GAMES})" for n, w, h in zip(games, widths, fresh) if not _close(w, h, 1e-9)]
    elif summary is not None:
        m = report.study_measures(study)
        rows = summary["summary"]
        if of == "rates":
            counts = [[round(rows[f"{m.outcome}_rate_{s}"].iloc[i] * study.games) for s in range(c.players)]
                      for i, c in enumerate(study.cells())]
            h, slack = rule.widest_half_width(counts, study.games), 1e-5 * widths[-1]
        else:  # the paired intervals summary.csv gives each seat contrast, each end to 6 significant digits
            ends = [(rows[f"{m.outcome}_diff_hi_{s}"].iloc[i], rows[f"{m.outcome}_diff_lo_{s}"].iloc[i])
                    for i, c in enumerate(study.cells()) if c.variant != study.baseline for s in range(c.players)]
            h = max(100 * (hi - lo) / 2 for hi, lo in ends)
            slack = max(100 * 5e-6 * (abs(hi) + abs(lo)) / 2 for hi, lo in ends) + 1e-9  # the ends' rounding
        if not abs(widths[-1] - h) <= slack:
            out.append(f"manifest.json: precision: the last widest half-width {widths[-1]} pp is not summary.csv's "
                       f"({h:.6g} pp)")
    return out


def _step_widths(folder: Path, study: Study, steps: list[int], of: str = "rates") -> list[float]:
    """The widest half-width of the seat rates (or contrasts: ``of``) after each step, from ``games.parquet``
    (one (players, policy) group at a time)."""
    m = report.study_measures(study)
    counts: dict[int, list] = {n: [] for n in steps}
    widest = dict.fromkeys(steps, 0.0)
    for players, policy in dict.fromkeys((c.players, c.policy) for c in study.cells()):
        group = storage.read_games(folder, where={"players": players, "policy": policy},
                                   columns=["variant", "game", m.outcome])
        cells = [c for c in study.cells() if (c.players, c.policy) == (players, policy)]
        outcomes = {v: cell.sort_values("game")[m.outcome].to_numpy() for v, cell in group.groupby("variant")}
        for n in steps:  # games 0 .. n - 1 of each cell
            firsts = [outcomes[c.variant][:n] for c in cells]
            counts[n] += [np.bincount(x[x >= 0], minlength=players) for x in firsts]
            if of == "contrasts":
                widest[n] = max(widest[n], rule.widest_contrast_half_width(study.baseline, cells, firsts))
    return [widest[n] if of == "contrasts" else rule.widest_half_width(counts[n], n) for n in steps]


def _fairness_columns(study: Study) -> list[str]:
    o = report.study_measures(study).outcome
    return [f"{o}_{k}{e}" for k in ("spread", "tv") for e in ("", "_lo", "_hi")]


def _stored_effects(folder: Path, problems: list[str]) -> tuple[pd.DataFrame, str] | None:
    """``effects.csv`` as a table and as text (None when missing or unreadable: that is a problem)."""
    path = folder / report.EFFECTS
    if not path.is_file():
        return None  # _files reports the missing file
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return report.parse_effects(text, str(path)), text
    except StudyError as err:
        problems.append(str(err))
        return None


def _effects_differences(stored: pd.DataFrame, fresh: pd.DataFrame) -> list[str]:
    if list(stored.columns) != list(fresh.columns) or len(stored) != len(fresh):
        return [f"{report.EFFECTS}: not the effects of {storage.GAMES} (other columns or rows)"]
    out = []
    for i in range(len(fresh)):
        diff = [c for c in fresh.columns if not _same(stored[c].iloc[i], fresh[c].iloc[i])]
        if diff:
            out.append(f"{report.EFFECTS}: row {i + 2} ({_effect_name(fresh.iloc[i])}): " + ", ".join(
                f"{c} {stored[c].iloc[i]} (from {storage.GAMES}: {fresh[c].iloc[i]})" for c in diff[:3]))
    return _capped(out, report.EFFECTS)


def _effect_name(row: pd.Series) -> str:
    name = f"{row.players} players, {row.policy}, {row.knob}={row.level}"
    return (name if row.effect == "main" else f"{name} x {row.knob_b}={row.level_b}") + f", {row.measure}"


def _effects_in_itself(stored: pd.DataFrame, summary: pd.DataFrame, study: Study) -> list[str]:
    """Without the records: the rows are the design's contrasts of every group and measure, in
    order, and each seat rate's estimate is its contrast of ``summary.csv``'s rates (the mean of
    per-game contrasts is the contrast of the means); every interval holds its estimate."""
    m = report.study_measures(study)
    labels = ["effect", "knob", "level", "reference", "knob_b", "level_b", "reference_b", "combinations"]
    want, estimates = [], []
    rates = summary.set_index([*CELL])
    for n, p in dict.fromkeys((c.players, c.policy) for c in study.cells()):
        for c in contrasts(study.design):
            for measure in [*(f"{m.outcome}_rate_{s}" for s in range(n)), *(f"{x}_mean" for x in m.lengths)]:
                want.append((n, p, *(c[k] for k in labels), measure, paired(c, study.variants)))
                rate = measure.startswith(f"{m.outcome}_rate_")
                estimates.append(sum(w * rates.loc[(v, n, p), measure] for v, w in c["weights"].items())
                                 if rate else np.nan)
    have = list(zip(stored.players, stored.policy, *(stored[k] for k in labels), stored.measure, stored.paired))
    if have != want:
        return [f"{report.EFFECTS}: its rows are not the design's effects of every group and measure"]
    out = [f"{report.EFFECTS}: row {i + 2} ({_effect_name(stored.iloc[i])}): estimate {stored.estimate.iloc[i]} is "
           f"not the contrast of summary.csv's rates ({e:.6g})"
           for i, e in enumerate(estimates) if not pd.isna(e) and not abs(stored.estimate.iloc[i] - e) <= 1e-5]
    inside = (stored.lo <= stored.estimate + 1e-9) & (stored.estimate <= stored.hi + 1e-9)
    out += [f"{report.EFFECTS}: row {i + 2} ({_effect_name(stored.iloc[i])}): the interval does not hold the estimate"
            for i in np.flatnonzero(~inside & stored.lo.notna())]
    return _capped(out, report.EFFECTS)


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


def _summary_in_itself(summary: pd.DataFrame, study: Study, legacy: bool) -> list[str]:
    """What a summary without its records can still be checked for: its cells, sizes and intervals,
    and each cell's fairness (a function of its seat counts; an earlier cardsim's ``legacy``
    summary has none)."""
    m = report.study_measures(study)
    cells = [(c.variant, c.players, c.policy) for c in study.cells()]
    need = [*CELL, "game", "games", "truncated", f"{m.outcome}_none", *([] if legacy else _fairness_columns(study))]
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
        counts = []
        for s in range(cells[i][1]):
            rate, lo, hi = (row.get(f"{m.outcome}_{k}_{s}") for k in ("rate", "lo", "hi"))
            k = round(rate * n)
            counts.append(k)
            w_lo, w_hi = wilson(k, n)
            if not (_close(k / n, rate) and _close(float(w_lo), lo) and _close(float(w_hi), hi)):
                out.append(f"summary.csv: {cells[i]}: seat {s}: rate {rate} [{lo}, {hi}] is no Wilson interval "
                           f"of {study.games} games")
            total += rate
        if not legacy and min(counts) >= 0 and sum(counts) <= study.games:  # else the sum below is off
            fair = fairness(counts, study.games)
            if not all(_close(v, row[f"{m.outcome}_{k}"]) for k, v in fair.items()):
                out.append(f"summary.csv: {cells[i]}: the fairness columns are not those of its seat rates")
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
                             study.baseline, Path(tmp), report.unpaired(study), study.design, summary["effects"])
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
