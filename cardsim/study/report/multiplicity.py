"""Many comparisons: p-values, Holm and Benjamini-Hochberg adjustments, simultaneous intervals.

A study tests many contrasts at once (a factorial's ``effects.csv`` holds dozens of seat
effects), so a raw 95% interval that excludes 0 is no finding on its own. Every contrast
belongs to one **family** (``family``): a study's seat effects (the outcome-rate measures)
or its length effects (the ``*_mean`` measures), over all its player counts, policies,
main effects and interactions. Within a family:

- ``p``: the two-sided p-value of "no effect", recovered from the contrast's Student t 95%
  interval (``p_value``: the interval gives the standard error, ``games - 1`` degrees of
  freedom), so it is computed alike from the records or from a committed table;
- ``p_holm``: Holm's step-down adjusted p-value (family-wise error, any dependence);
- ``q_bh``: the Benjamini-Hochberg q-value (false-discovery rate);
- ``sim_lo``, ``sim_hi``: Bonferroni simultaneous ``1 - alpha`` intervals (every interval of
  the family holds its true value at once with probability >= ``1 - alpha``): what to read
  when a table is read as a whole;
- ``survives``: ``p_holm <= alpha``, the study's stated level (``alpha`` in the study file).

Adjustments are statsmodels' ``multipletests`` (``holm``, ``fdr_bh``). Nothing here reads
or writes files.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special

from cardsim.study.report.stats import LEVEL

ALPHA = 0.05
"""The study's level when its file states none."""
COLUMNS = ("p", "p_holm", "q_bh", "sim_lo", "sim_hi", "survives")
"""What ``adjust`` adds to a table of contrasts."""
SEAT, LENGTH = "seat", "length"
ROUNDING = 1e-9
"""An estimate and interval within this of 0 are a contrast that is 0 in every game, up to the rounding
of its weights (a mean of |R| equal terms): p = 1, not a "finding" of 1e-16 decisions."""


def family(measure: str) -> str:
    """The family of a measure: ``length`` for a ``*_mean`` (a game length), else ``seat``."""
    return LENGTH if measure.endswith("_mean") else SEAT


def p_value(estimate, lo, hi, games, level: float = LEVEL) -> np.ndarray:
    """Two-sided p-values of a zero mean from Student t ``level`` intervals ``[lo, hi]`` of
    ``games`` per-game contrasts: ``se = (hi - lo) / (2 t)``, ``p = 2 P(T > |estimate| / se)``.
    A contrast that is the same in every game (``se = 0``) has p = 1 at 0 (within ``ROUNDING``) and 0
    elsewhere; NaN without an interval (fewer than 2 games)."""
    est, lo, hi = (np.asarray(x, dtype=float) for x in (estimate, lo, hi))
    df = np.asarray(games, dtype=float) - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        se = (hi - lo) / (2 * special.stdtrit(df, 0.5 + level / 2))
        p = 2 * special.stdtr(df, -np.abs(est) / se)  # Student t's upper tail
    zero = (np.abs(est) <= ROUNDING) & (np.abs(hi - lo) <= 2 * ROUNDING)
    p = np.where(zero, 1.0, np.where(se == 0, 0.0, p))
    return np.where(np.isfinite(se) & (df >= 1), p, np.nan)


def half_width(lo, hi, games, level: float = LEVEL, to: float = LEVEL) -> np.ndarray:
    """The half-width at level ``to`` of Student t intervals ``[lo, hi]`` given at ``level``."""
    df = np.asarray(games, dtype=float) - 1
    with np.errstate(invalid="ignore"):
        return ((np.asarray(hi, float) - np.asarray(lo, float)) / 2 * special.stdtrit(df, 0.5 + to / 2)
                / special.stdtrit(df, 0.5 + level / 2))


def adjust(table: pd.DataFrame, alpha: float = ALPHA, level: float = LEVEL) -> pd.DataFrame:
    """``table`` (columns ``measure``, ``estimate``, ``lo``, ``hi``, ``games``; ``level`` intervals)
    with ``COLUMNS`` added, each family adjusted on its own (rows without a p-value are left out
    of the family and get NaN)."""
    from statsmodels.stats.multitest import multipletests  # here: its import (scipy.stats, ~1 s) waits for effects

    out = table.copy()
    p = p_value(out.estimate, out.lo, out.hi, out.games, level)
    holm, q = np.full(len(out), np.nan), np.full(len(out), np.nan)
    size = np.zeros(len(out))
    families = np.array([family(m) for m in out.measure])
    for f in (SEAT, LENGTH):
        rows = np.flatnonzero((families == f) & ~np.isnan(p))
        if len(rows):
            holm[rows] = multipletests(p[rows], alpha=alpha, method="holm")[1]
            q[rows] = multipletests(p[rows], alpha=alpha, method="fdr_bh")[1]
            size[rows] = len(rows)
    with np.errstate(divide="ignore"):
        half = half_width(out.lo, out.hi, out.games, level, 1 - alpha / np.maximum(size, 1))
    half = np.where(size > 0, half, np.nan)
    est = out.estimate.to_numpy(float)
    return out.assign(p=p, p_holm=holm, q_bh=q, sim_lo=est - half, sim_hi=est + half,
                      survives=~np.isnan(holm) & (holm <= alpha))


def paired_table(summary: pd.DataFrame, baseline: str, alpha: float = ALPHA) -> pd.DataFrame:
    """``summary.csv``'s paired differences against ``baseline``, one row per (variant, players,
    policy, measure), adjusted (``adjust``): the paired table of a study, read as one family of
    seat shifts and one of length shifts. ``games``: the cell's games (for a length, the games
    finished in both cells are not in the summary; the cell's games less both cells' truncated
    ones is used: the degrees of freedom only matter below a few dozen games)."""
    outcome = "loser" if "loser_rate_0" in summary else "winner"
    lengths = [c[:-5] for c in summary.columns if c.endswith("_diff") and not c.startswith(outcome)]
    base = summary.loc[summary.variant == baseline].set_index(["players", "policy"])
    rows = []
    for _, r in summary.loc[summary.variant != baseline].iterrows():
        cell = {"variant": r.variant, "players": r.players, "policy": r.policy}
        for s in range(int(r.players)):
            rows.append(cell | {"measure": f"{outcome}_rate_{s}", "estimate": r[f"{outcome}_diff_{s}"],
                                "lo": r[f"{outcome}_diff_lo_{s}"], "hi": r[f"{outcome}_diff_hi_{s}"],
                                "games": r.games})
        truncated = r.truncated + base.loc[(r.players, r.policy), "truncated"]
        for c in lengths:
            rows.append(cell | {"measure": f"{c}_mean", "estimate": r[f"{c}_diff"], "lo": r[f"{c}_diff_lo"],
                                "hi": r[f"{c}_diff_hi"], "games": r.games - truncated})
    columns = ["variant", "players", "policy", "measure", "estimate", "lo", "hi", "games"]
    return adjust(pd.DataFrame(rows, columns=columns), alpha)


def variant_table(summary: pd.DataFrame, baseline: str, alpha: float = ALPHA) -> pd.DataFrame:
    """A variant study's contrasts: ``paired_table``, then, where games end in ties, ``tie_table``."""
    paired, ties = paired_table(summary, baseline, alpha), tie_table(summary, baseline, alpha)
    return paired if ties.empty else pd.concat([paired, ties], ignore_index=True)


def tie_table(summary: pd.DataFrame, baseline: str, alpha: float = ALPHA) -> pd.DataFrame:
    """Each variant's change of the rate of games without one winner (``winner_none``: a shared win,
    Molotow's ties) against ``baseline``, adjusted as a family of its own: unpaired two-proportion normal
    intervals, for the summary holds no per-game tie contrast (``games`` is set large: a normal, not a
    t, quantile). Empty where the summary has no such column or no tie."""
    columns = ["variant", "players", "policy", "measure", "estimate", "lo", "hi", "games"]
    if "winner_none" not in summary or not summary.winner_none.any():
        return adjust(pd.DataFrame(columns=columns), alpha)
    z = special.ndtri(0.5 + LEVEL / 2)
    base = summary.loc[summary.variant == baseline].set_index(["players", "policy"])
    rows = []
    for _, r in summary.loc[summary.variant != baseline].iterrows():
        b = base.loc[(r.players, r.policy)]
        p, q = r.winner_none / r.games, b.winner_none / b.games
        half = z * np.sqrt(p * (1 - p) / r.games + q * (1 - q) / b.games)
        rows.append({"variant": r.variant, "players": r.players, "policy": r.policy, "measure": "winner_none",
                     "estimate": p - q, "lo": p - q - half, "hi": p - q + half, "games": 10**9})
    return adjust(pd.DataFrame(rows, columns=columns), alpha)
