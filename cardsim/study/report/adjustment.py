"""Variance reduction beyond pairing: cross-fitted regression adjustment on the deal's features.

Pairing cancels the deal's luck only as far as the two cells' outcomes stay correlated;
a rule that changes play from the first trick (Moska's continuation rule) decorrelates
them, and the paired interval is then no narrower than an unpaired one. What the deal
dealt each seat (``cardsim.games.<game>.features``: trumps, high cards, ... computed from
the game key alone, so no rule or policy changes them) still predicts the per-game contrast
``d_i``. The adjusted contrast of game i, in fold ``k(i) = i mod K``, is

    e_i = d_i - (x_i - mu) . b_{-k}

with ``b_{-k}`` the least-squares slopes of d on x fitted on the other folds only, and ``mu``
the mean features of ``REFERENCE`` deals the study never played (game indices after its own,
same seed: the same distribution, independent games). Since x_i is independent of both,
``E[(x_i - mu) . b_{-k}] = 0`` exactly: ``mean(e)`` is unbiased for the effect at any number of
games, with no model of how the deal drives the outcome. (Centring on the sample's own mean
instead would cancel the adjustment; an in-sample fit would let game i's noise into its own
correction.) Its variance is ``var(e) / n + b . S b / M`` (S: the features' covariance over
the M reference deals); the interval is Student t's with it. The **variance reduction
factor** is ``(var(d) / n)`` over that: the adjusted interval is as narrow as the raw one
would be with that many times the games (``saved = 1 - 1 / factor`` of them).
Nothing here writes files.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special

from cardsim import games as registry
from cardsim.study.folder import storage
from cardsim.study.report.effects import per_game
from cardsim.study.report.multiplicity import family
from cardsim.study.report.skill import plan
from cardsim.study.plan.spec import Study
from cardsim.study.report.stats import CELL, LEVEL, measures, paired_mean

FOLDS = 5
REFERENCE = 200_000
"""Deals whose mean features centre the adjustment."""


def cross_fitted(d: np.ndarray, x: np.ndarray, mu: np.ndarray, mu_cov: np.ndarray | None = None,
                 folds: int = FOLDS, level: float = LEVEL) -> tuple[float, float, float, float]:
    """The adjusted effect of per-game contrasts ``d`` (n) on features ``x`` (n x k) centred on
    ``mu`` (``mu_cov``: the covariance of ``mu``'s estimate, None when exact), folds by index mod
    ``folds``: (estimate, low, high, factor)."""
    d, x, mu = np.asarray(d, float), np.asarray(x, float), np.asarray(mu, float)
    n, fold = len(d), np.arange(len(d)) % folds
    e, slopes = d.copy(), []
    for k in range(folds):
        fit, here = fold != k, fold == k
        design = np.column_stack([np.ones(fit.sum()), x[fit]])
        b = np.linalg.lstsq(design, d[fit], rcond=None)[0][1:]
        e[here] = d[here] - (x[here] - mu) @ b
        slopes.append(b)
    b = np.mean(slopes, axis=0)
    var = e.var(ddof=1) / n + (0.0 if mu_cov is None else float(b @ mu_cov @ b))
    half = special.stdtrit(n - 1, 0.5 + level / 2) * np.sqrt(var)
    mean = float(e.mean())
    return mean, mean - half, mean + half, float(d.var(ddof=1) / n / var) if var > 0 else np.nan


def reference_mean(module, rules, players: int, seed: int, first: int, deals: int = REFERENCE
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The mean features of ``deals`` deals from game index ``first`` on, and its covariance (S / M)."""
    x = module.deal_features(rules, players, seed, np.arange(first, first + deals))
    return x.mean(axis=0), np.cov(x, rowvar=False) / deals


def features_of(game: str):
    """The game's deal-features module (``cardsim.games.<game>.features``), or None where it has none."""
    try:
        return importlib.import_module(f"cardsim.games.{game}.features")
    except ModuleNotFoundError:
        return None


def table(study: Study, folder: Path, folds: int = FOLDS) -> pd.DataFrame:
    """Every contrast of a study (its effects, or each variant against the baseline), then every
    cell's own rates and lengths (``effect = "rate"``: what an unpaired comparison averages), raw
    and adjusted, per (players, policy, measure), with its factor, from ``folder/games.parquet``;
    features of the baseline's deal (the same for every variant that shuffles the same deck)."""
    module = features_of(study.game)
    if module is None:
        raise ValueError(f"{study.game} has no deal features (cardsim.games.{study.game}.features)")
    m = measures([c.name for c in registry.spec(study.game).columns])
    variants, rows = list(study.variants), []
    for players, policy in dict.fromkeys((c.players, c.policy) for c in study.cells()):
        group = storage.read_games(folder, where={"players": players, "policy": policy},
                                   columns=[*CELL, "game", "truncated", m.outcome, *m.lengths])
        games = np.sort(group.game.unique())
        rules = study.variants[study.baseline]
        x = module.deal_features(rules, players, study.seed, games)
        mu, mu_cov = reference_mean(module, rules, players, study.seed, int(games.max()) + 1)
        ys = per_game(group, variants, m, players)
        rates = [({"effect": "rate", "knob": "variant", "level": v, "reference": "", "knob_b": "", "level_b": "",
                   "reference_b": ""}, {v: 1.0}) for v in variants]
        for labels, weights in [*plan(study), *rates]:
            used = np.array([variants.index(v) for v in weights])
            w = np.array(list(weights.values()))
            for measure, y in ys.items():
                d = w @ y[used]
                kept = ~np.isnan(d)
                raw, adjusted = paired_mean(d[kept]), cross_fitted(d[kept], x[kept], mu, mu_cov, folds)
                rows.append({"players": players, "policy": policy, **labels, "measure": measure,
                             "family": family(measure), "games": int(kept.sum()), "estimate": raw[0], "lo": raw[1],
                             "hi": raw[2], "adjusted": adjusted[0], "adjusted_lo": adjusted[1],
                             "adjusted_hi": adjusted[2], "factor": adjusted[3]})
    return pd.DataFrame(rows)


def factors(adjusted: pd.DataFrame) -> pd.DataFrame:
    """The factor per table (players, policy, contrasts or cell rates, family): median, least and most
    over its rows, and the share of games the median saves."""
    kind = np.where(adjusted.effect == "rate", "cells", "contrasts")
    grouped = adjusted.assign(table=kind).dropna(subset=["factor"]).groupby(
        ["players", "policy", "table", "family"], sort=False).factor
    out = grouped.agg(["median", "min", "max", "count"]).reset_index()
    return out.assign(saved=1 - 1 / out["median"])
