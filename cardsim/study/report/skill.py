"""Effects along a skill ladder: the same contrast at every rung, on the same deals, and whether it has settled.

A study with ``[skill] rungs = [...]`` plays every variant at every rung (a self-play
policy; weakest first) on the same game indices, so game i deals the same cards at every
rung. Its contrasts are the design's effects (``effects.contrasts``) of a sweep or factorial,
else each variant against the baseline. ``skill.csv`` has one row per (players, contrast,
measure): the contrast at the top rung (``top_estimate``, ``top_lo``, ``top_hi``) and the
difference of the top two rungs, ``diff = d(top) - d(second)``, with its paired Student t
95% interval (per game i: the contrast at the top rung minus the contrast at the second, so
the deal's own luck cancels), and a verdict with the study's ``skill.margin`` (pp for seat
rates, decisions for lengths):

- ``settled at the top``: the difference's interval lies within ``±margin``: the two
  strongest players agree on the effect to within the margin;
- ``still moving``: the interval excludes 0: the effect still changes with skill, so no
  number for it is a finding about skilled play;
- ``undetermined``: neither (the interval holds 0 but is wider than the margin).

The verdict is per effect at 95%, not corrected for many comparisons: it errs towards
``still moving``, the cautious side for a quoted finding.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import games as registry
from cardsim.study.folder import storage
from cardsim.study.report.effects import contrasts, per_game
from cardsim.study.report.multiplicity import family
from cardsim.study.plan.spec import Study
from cardsim.study.report.stats import CELL, measures, paired_mean

FILE = "skill.csv"
VERDICTS = ("settled at the top", "still moving", "undetermined")
LABELS = ("effect", "knob", "level", "reference", "knob_b", "level_b", "reference_b")


def plan(study: Study) -> list[tuple[dict[str, str], dict[str, float]]]:
    """The contrasts of a skill study: labels and weights (variant -> weight of its per-game measure)."""
    if study.design is not None:
        return [({k: c[k] for k in LABELS}, c["weights"]) for c in contrasts(study.design)]
    return [({"effect": "variant", "knob": "variant", "level": v, "reference": study.baseline, "knob_b": "",
              "level_b": "", "reference_b": ""}, {v: 1.0, study.baseline: -1.0})
            for v in study.variants if v != study.baseline]


def compute(study: Study, folder: Path) -> pd.DataFrame:
    """``skill.csv`` of a skill study's records (``folder/games.parquet``)."""
    top, second = study.skill.rungs[-1], study.skill.rungs[-2]
    variants = list(study.variants)
    m = measures([c.name for c in registry.spec(study.game).columns])
    rows = []
    for players in study.players:
        ys = {}
        for rung in (second, top):
            group = storage.read_games(folder, where={"players": players, "policy": rung},
                                       columns=[*CELL, "game", "truncated", m.outcome, *m.lengths])
            ys[rung] = per_game(group, variants, m, players)
        for labels, weights in plan(study):
            used = np.array([variants.index(v) for v in weights])
            w = np.array(list(weights.values()))
            for measure in ys[top]:
                d_top, d_second = w @ ys[top][measure][used], w @ ys[second][measure][used]
                diff = d_top - d_second
                est, lo, hi = paired_mean(d_top[~np.isnan(d_top)])
                delta, delta_lo, delta_hi = paired_mean(diff[~np.isnan(diff)])
                rows.append({"players": players, **labels, "measure": measure, "top": top, "second": second,
                             "top_estimate": est, "top_lo": lo, "top_hi": hi, "difference": delta,
                             "difference_lo": delta_lo, "difference_hi": delta_hi,
                             "verdict": verdict(delta_lo, delta_hi, _margin(study.skill.margin, measure))})
    return pd.DataFrame(rows)


def verdict(lo: float, hi: float, margin: float) -> str:
    """The verdict of a top-two difference with interval ``[lo, hi]`` (see the module docstring)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "undetermined"
    if -margin <= lo and hi <= margin:
        return "settled at the top"
    if lo > 0 or hi < 0:
        return "still moving"
    return "undetermined"


def _margin(margin: float, measure: str) -> float:
    """The margin in the measure's unit: a rate's pp as a fraction, a length's decisions as they are."""
    return margin / 100 if family(measure) == "seat" else margin


def write(table: pd.DataFrame, folder: Path) -> list[str]:
    """Write ``skill.csv``; return its name."""
    storage.atomic_write(folder / FILE, lambda p: p.write_text(
        table.to_csv(index=False, float_format="%.6g", lineterminator="\n"), encoding="utf-8"))
    return [FILE]
