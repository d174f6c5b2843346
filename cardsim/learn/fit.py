"""The fit of a ``learned`` model: a conditional logit over each position's candidates (docs/design.md).

A position offers ``n`` candidates with feature rows ``x``; the model's probability of candidate ``i``
is ``softmax(x @ w)_i`` over the position's candidates, ``w`` the weights of the position's block. The
target is the teacher's choice: its best candidates share the probability (ties are the teacher's own
indifference); positions where the teacher scores every candidate alike carry no label and are left
out. Blocks are fitted apart (a position's candidates share its block), each by L-BFGS
(``scipy.optimize``) on the mean cross-entropy plus ``l2 / 2 * |w|^2`` over standardised features; the
weights are scaled back to the raw features, so a score is ``x @ w``.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

L2 = 1e-3
"""The ridge penalty on the standardised weights."""


def targets(count: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per position whether it is informative (the teacher's totals differ) and, per candidate row, the
    target probability (uniform over the teacher's best)."""
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    best = np.maximum.reduceat(y, start)
    worst = np.minimum.reduceat(y, start)
    top = (y == np.repeat(best, count)).astype(np.float64)
    return best > worst, top / np.repeat(np.add.reduceat(top, start), count)


def _loss(w: np.ndarray, x: np.ndarray, t: np.ndarray, count: np.ndarray, start: np.ndarray,
          l2: float) -> tuple[float, np.ndarray]:
    z = x @ w
    z -= np.repeat(np.maximum.reduceat(z, start), count)
    e = np.exp(z)
    total = np.add.reduceat(e, start)
    log_p = z - np.repeat(np.log(total), count)
    n = len(count)
    loss = -(t * log_p).sum() / n + 0.5 * l2 * w @ w
    grad = x.T @ (np.exp(log_p) - t) / n + l2 * w
    return loss, grad


def fit_block(count: np.ndarray, x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, dict]:
    """The weights (raw features) of one block from its positions, and a summary of the fit."""
    if len(count):
        keep, t = targets(count, y)
        rows = np.repeat(keep, count)
        count, x, t = count[keep], x[rows].astype(np.float64), t[rows]
    if len(count) == 0:
        return np.zeros(x.shape[1]), {"positions": 0}
    sd = x.std(axis=0)
    scale = np.where(sd > 0, sd, 1.0)
    xs = (x - x.mean(axis=0)) / scale
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    res = minimize(_loss, np.zeros(x.shape[1]), args=(xs, t, count, start, l2), jac=True, method="L-BFGS-B")
    chosen = np.add.reduceat(t * (xs @ res.x == np.repeat(np.maximum.reduceat(xs @ res.x, start), count)), start)
    return np.where(sd > 0, res.x / scale, 0.0), {
        "positions": int(len(count)), "loss": round(float(res.fun), 6), "iterations": int(res.nit),
        "teacher_agreement": round(float((chosen > 0).mean()), 4)}


def fit(positions: dict[str, np.ndarray], blocks: int, l2: float = L2) -> tuple[np.ndarray, dict]:
    """The weights (``blocks`` rows) from labelled positions (``block``, ``count``, ``x``, ``y``), and per block
    a summary of its fit."""
    block, count, x, y = positions["block"], positions["count"], positions["x"], positions["y"]
    rows = np.repeat(block, count)
    weights = np.zeros((blocks, x.shape[1]))
    summary = {}
    for b in range(blocks):
        mine = block == b
        weights[b], summary[b] = fit_block(count[mine], x[rows == b], y[rows == b], l2)
    return weights, summary
