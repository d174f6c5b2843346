"""Reading a finished study folder for people: the notebooks' helpers.

Turns ``manifest.json`` and ``summary.csv`` into short readable tables (the headline,
outcome rates and paired differences with their intervals), finds the folder of a
study from anywhere in the project, shows a folder in a notebook (``show``: its tables
and plots), picks an interesting game of a batch and trims a long replay. Nothing here
simulates, computes a statistic or writes a file.
"""
from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from cardsim.study.folder import storage
from cardsim.study.plan.spec import StudyError
from cardsim.study.report.stats import CELL, OUTCOMES


def project_root(start: str | Path | None = None) -> Path:
    """The nearest folder at or above ``start`` (default: the working folder) holding ``experiments/``."""
    here = Path.cwd() if start is None else Path(start)
    for folder in (here, *here.resolve().parents):
        if (folder / "experiments").is_dir():
            return folder
    raise FileNotFoundError(f"no experiments/ folder at or above {here}: run from inside the cardsim project")


def open_study(name: str, root: str | Path | None = None) -> tuple[Path, dict[str, Any], pd.DataFrame]:
    """``results/<name>`` of the project: its folder, manifest and summary table.

    A folder without a manifest (not run, or not committed yet) raises a ``StudyError``
    naming the command that makes it.
    """
    folder = project_root(root) / "results" / name
    if not (folder / storage.MANIFEST).exists():
        raise StudyError(str(folder), None, f"no {storage.MANIFEST}: the study has not been run here; "
                         f"run `cardsim run experiments/{name}.toml` in the project folder")
    return folder, storage.read_manifest(folder), pd.read_csv(folder / storage.SUMMARY)


@dataclass(frozen=True)
class Folder:
    """A finished study folder as a notebook shows it: the headline, the outcome rates and the paired
    differences (with their intervals) and every plot of the manifest, in its order."""

    path: Path
    manifest: dict[str, Any]
    summary: pd.DataFrame

    def plots(self) -> list[Path]:
        """The folder's plots, in the manifest's order."""
        return [self.path / n for n in self.manifest["outputs"] if n.endswith(".png") and (self.path / n).is_file()]

    def _repr_html_(self) -> str:
        study = self.manifest["study"]
        parts = [f"<h3>{html.escape(study['name'])}: {html.escape(study['game'])}</h3>",
                 headline(self.manifest).to_frame("").to_html(header=False),
                 "<h4>Outcome rate by seat (Wilson 95%)</h4>", outcome_table(self.summary).to_html()]
        if self.summary.variant.nunique() > 1:
            parts += [f"<h4>Paired differences against {html.escape(study['baseline'])} (95%)</h4>",
                      paired_table(self.summary, study["baseline"]).to_html()]
        parts += [f"<figure><img style=\"max-width:100%\" alt=\"{html.escape(p.name)}\" src=\"data:image/png;base64,"
                  f"{base64.b64encode(p.read_bytes()).decode()}\"><figcaption>{html.escape(p.name)}</figcaption>"
                  "</figure>" for p in self.plots()]
        return "\n".join(parts)


def show(name: str, root: str | Path | None = None) -> Folder:
    """``results/<name>`` of the project as a ``Folder``: the last line of a notebook cell draws it."""
    return Folder(*open_study(name, root))


def headline(manifest: dict[str, Any]) -> pd.Series:
    """What was run, how big, from which seed, when, on what and how fast."""
    study, package, cells = manifest["study"], manifest["package"], manifest["cells"]
    git = package.get("git") or {}
    return pd.Series({
        "study": study["name"], "game": study["game"], "description": study["description"],
        "variants": ", ".join(dict.fromkeys(c["variant"] for c in cells)), "baseline": study["baseline"],
        "players": ", ".join(map(str, study["players"])),
        "policies": ", ".join(dict.fromkeys(c["policy"] for c in cells)),
        "games per cell": f"{study['games']:,}", "cells": len(manifest["cells"]),
        "games": f"{manifest['records']['rows']:,}", "seed": manifest["seed"], "engine": manifest["engine"],
        "created": manifest["created"], "simulation time": f"{manifest['timings']['simulate_s']:,.1f} s",
        "games/s": f"{manifest['timings']['games_per_s']:,.0f}",
        "machine": f"{manifest['machine']['platform']}, {manifest['machine']['cpus']} CPUs, "
                   f"{manifest['execution']['jobs']} jobs ({manifest['execution']['backend']})",
        "cardsim": f"{package['version']} at {git.get('revision', '?')[:12]}" + (" (dirty)" if git.get("dirty") else ""),
    })


def outcome_column(summary: pd.DataFrame) -> str:
    """``loser`` or ``winner``: the outcome seat a study's summary reports."""
    return next(o for o in OUTCOMES if f"{o}_rate_0" in summary.columns)


def outcome_table(summary: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """Outcome rate by dealer-relative seat as ``rate [low, high]`` (Wilson 95%), one row per cell."""
    o = outcome_column(summary)
    return _intervals(summary, [(f"seat {s}", f"{o}_rate_{s}", f"{o}_lo_{s}", f"{o}_hi_{s}")
                                for s in _seats(summary, o)], digits, f"{o} rate", signed=False)


def paired_table(summary: pd.DataFrame, baseline: str, digits: int = 3) -> pd.DataFrame:
    """Paired differences against ``baseline`` as ``mean [low, high]`` (95%): outcome rate by seat,
    then mean lengths; one row per cell of the other variants."""
    o = outcome_column(summary)
    lengths = [c[:-len("_diff")] for c in summary.columns if c.endswith("_diff") and not c.startswith(o)]
    columns = [(f"seat {s}", f"{o}_diff_{s}", f"{o}_diff_lo_{s}", f"{o}_diff_hi_{s}") for s in _seats(summary, o)]
    columns += [(f"mean {c}", f"{c}_diff", f"{c}_diff_lo", f"{c}_diff_hi") for c in lengths]
    return _intervals(summary.loc[summary.variant != baseline], columns, digits,
                      f"{o} rate / mean length − {baseline}", signed=True)


def most(records: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    """The finished game with the largest ``by`` values (compared in order; the lowest index on ties)."""
    finished = records.loc[~records.truncated]
    if finished.empty:
        raise ValueError("no finished game in the batch")
    return finished.sort_values([*by, "game"], ascending=[False] * len(by) + [True], kind="stable").iloc[0]


def trimmed(text: str, head: int = 40, tail: int = 40) -> str:
    """The first ``head`` and the last ``tail`` lines of ``text``, the lines between counted."""
    lines = str(text).splitlines()
    if len(lines) <= head + tail:
        return "\n".join(lines)
    return "\n".join([*lines[:head], f"... {len(lines) - head - tail} lines ...", *lines[-tail:]])


def _seats(summary: pd.DataFrame, outcome: str) -> list[int]:
    return sorted(int(c.rsplit("_", 1)[1]) for c in summary.columns if c.startswith(f"{outcome}_rate_"))


def _intervals(summary: pd.DataFrame, columns: list[tuple[str, str, str, str]], digits: int,
               title: str, signed: bool) -> pd.DataFrame:
    """``summary`` indexed by cell, with one ``mean [low, high]`` text column per (label, mean, low, high)."""
    number = f"{'+' if signed else ''}.{digits}f"

    def cell(mean: float, lo: float, hi: float) -> str:
        if pd.isna(mean):
            return ""
        if pd.isna(lo):
            return f"{mean:{number}}"
        return f"{mean:{number}} [{lo:{number}}, {hi:{number}}]"

    table = pd.DataFrame({label: [cell(*v) for v in summary[[m, lo, hi]].itertuples(index=False)]
                          for label, m, lo, hi in columns}, index=pd.MultiIndex.from_frame(summary[list(CELL)]))
    table.columns.name = title
    return table
