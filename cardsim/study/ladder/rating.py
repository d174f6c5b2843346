"""Bradley–Terry ratings of policies from pairwise outcomes, with a bootstrap over deals.

The model: policy i beats policy j with probability ``1 / (1 + exp(theta_j - theta_i))``.
``fit`` maximises the likelihood ``sum_ij W_ij log P(i beats j)`` of a matrix of pairwise
wins ``W`` (``W[i, j]``: how often i beat j; a tie may count half to each) with scipy,
one policy (the ``anchor``) pinned at ``theta = 0``: the other ratings are then strengths
relative to it, and their intervals are the intervals of those differences. ``elo`` puts a
strength on the Elo scale, ``400 log10(e) theta`` (a 400-point gap is 10:1 odds).

The maximum exists (and is unique) exactly when the directed graph "i beat j at least
once" is strongly connected (Zermelo 1929, Ford 1957): no group of policies won, or lost,
every comparison with the rest. When it is not, ``fit`` raises ``RatingUndefined``.

A game between several seats yields several pairwise outcomes that are not independent
(one loser loses to every other seat), and a ladder plays every deal under every seating;
so the intervals come from a bootstrap that resamples **deals** (game indices), each with
all the pairwise outcomes of all its seatings: ``bootstrap`` takes one win matrix per
deal and refits on ``resamples`` resamples drawn from a fixed seed (a report is
reproducible), and ``interval`` takes their 2.5 and 97.5 percentiles. A resample whose
maximum does not exist gives NaN, and then the interval is NaN (undefined): a ladder too
small to rate, said so rather than hidden.

Nothing here knows a game, a seat or a file.
"""
from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import connected_components

ELO = 400 / np.log(10)
"""Elo points per unit of Bradley–Terry strength: ``400 log10(e)``."""
RESAMPLES = 1000
"""Bootstrap resamples of a ladder's ratings."""
BOOTSTRAP_SEED = 20260101
"""The bootstrap's fixed seed: the same ladder gives the same intervals."""
LEVEL = 0.95
_CELLS = 1 << 22
"""Most entries of the (resamples x deals) count matrix drawn at once: bounds its memory (32 MiB)."""


class RatingUndefined(ValueError):
    """The maximum-likelihood strengths do not exist: some group of policies won (or lost)
    every comparison with the others."""


def rateable(wins: np.ndarray) -> bool:
    """Whether the Bradley–Terry maximum exists for ``wins``: "i beat j" is strongly connected."""
    wins = np.asarray(wins, dtype=float)
    if len(wins) < 2:
        return False
    n, _ = connected_components(wins > 0, directed=True, connection="strong")
    return n == 1


def fit(wins: np.ndarray, anchor: int = 0, start: np.ndarray | None = None) -> np.ndarray:
    """Maximum-likelihood strengths ``theta`` (``theta[anchor] = 0``) of the win matrix ``wins``.

    ``wins[i, j]`` is how often i beat j (the diagonal is ignored; fractions allowed); the
    search starts from ``start`` (default all 0). Raises ``RatingUndefined`` when the maximum
    does not exist. Newton's method in a trust region (scipy's ``trust-ncg``), with the exact
    gradient and Hessian of the log-likelihood (concave: the maximum is the only stationary point).
    """
    w = np.array(wins, dtype=float)
    k = len(w)
    if w.shape != (k, k) or k < 2 or (w < 0).any():
        raise ValueError(f"wins must be a square matrix of at least two policies with counts >= 0, not {w.shape}")
    np.fill_diagonal(w, 0)
    if not rateable(w):
        raise RatingUndefined("Bradley–Terry ratings do not exist: some policies won, or lost, every comparison "
                              "with the others; play more games")
    w /= w.sum()  # the maximum does not depend on the scale; the tolerances then do not either
    free = np.arange(k) != anchor

    def full(x: np.ndarray) -> np.ndarray:
        theta = np.zeros(k)
        theta[free] = x
        return theta

    def negative_log_likelihood(x: np.ndarray):
        theta = full(x)
        d = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-d))  # p[i, j] = P(i beats j)
        value = -(w * -np.logaddexp(0, -d)).sum()
        grad = -((w * p.T).sum(1) - (w.T * p).sum(1))  # d/d theta_a: sum_j W_aj P_ja - W_ja P_aj
        n = w + w.T
        hess = -(n * p * p.T)
        np.fill_diagonal(hess, (n * p * p.T).sum(1))
        return value, grad[free], hess[np.ix_(free, free)]

    from scipy import optimize  # here: a run that fits no ratings need not import the optimizers

    x0 = np.zeros(k - 1) if start is None else np.asarray(start, dtype=float)[free] - start[anchor]
    result = optimize.minimize(lambda x: negative_log_likelihood(x)[:2], x0, jac=True,
                               hess=lambda x: negative_log_likelihood(x)[2], method="trust-ncg",
                               options={"gtol": 1e-10})
    x = result.x
    if not result.success and np.abs(result.jac).max() > 1e-8:
        # near the maximum the likelihood's rounding can stop the trust region short of it (two near-equal
        # policies on many games: a gradient of 1e-8); Newton's steps on the exact gradient finish it
        x = _newton(lambda y: negative_log_likelihood(y)[1:], x)
        if np.abs(negative_log_likelihood(x)[1]).max() > 1e-8:
            if start is not None:  # a start at a neighbouring maximum can stall on rounding
                return fit(wins, anchor)
            raise RuntimeError(f"the Bradley–Terry fit did not converge: {result.message}")
    return full(x)


def _newton(gradient_and_hessian, x: np.ndarray, steps: int = 20) -> np.ndarray:
    """Newton's steps from ``x`` while they shrink the gradient (a concave likelihood near its maximum)."""
    grad, hess = gradient_and_hessian(x)
    for _ in range(steps):
        y = x - np.linalg.solve(hess, grad)
        grad_y, hess_y = gradient_and_hessian(y)
        if np.abs(grad_y).max() >= np.abs(grad).max():
            break
        x, grad, hess = y, grad_y, hess_y
    return x


def bootstrap(deal_wins: np.ndarray, anchor: int = 0, resamples: int = RESAMPLES,
              seed: int = BOOTSTRAP_SEED) -> np.ndarray:
    """Strengths refitted on ``resamples`` resamples of the deals: (resamples x policies), NaN rows
    where a resample's maximum does not exist.

    ``deal_wins[g]`` is the win matrix of deal g (all its seatings together); a resample
    draws as many deals as there are, with replacement, and sums their matrices.
    """
    d = np.asarray(deal_wins, dtype=float)
    deals, k = d.shape[0], d.shape[1]
    flat = d.reshape(deals, k * k)
    rng = np.random.default_rng(seed)
    total = flat.sum(0).reshape(k, k)
    start = fit(total, anchor) if rateable(total) else None  # resamples lie near the whole: fewer steps
    out = np.full((resamples, k), np.nan)
    step = max(1, _CELLS // deals)
    for first in range(0, resamples, step):
        block = min(step, resamples - first)
        picks = rng.integers(0, deals, size=(block, deals)) + deals * np.arange(block)[:, None]
        counts = np.bincount(picks.ravel(), minlength=block * deals).reshape(block, deals)
        for b, w in enumerate((counts @ flat).reshape(block, k, k)):
            try:
                out[first + b] = fit(w, anchor, start)
            except RatingUndefined:
                pass
    return out


def interval(samples: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval per column of bootstrap ``samples``; NaN for a column with any NaN."""
    samples = np.asarray(samples, dtype=float)
    q = np.percentile(samples, [50 * (1 - level), 50 * (1 + level)], axis=0)
    undefined = np.isnan(samples).any(axis=0)
    return np.where(undefined, np.nan, q[0]), np.where(undefined, np.nan, q[1])


def elo(theta: np.ndarray) -> np.ndarray:
    """Strengths on the Elo scale."""
    return ELO * np.asarray(theta, dtype=float)
