"""The fit of a ``learned`` model: a conditional logit over each position's candidates (docs/design.md).

A position offers ``n`` candidates with feature rows ``x``; the model's probability of candidate ``i``
is ``softmax(x @ w)_i`` over the position's candidates, ``w`` the weights of the position's block. The
target is the teacher's choice: its best candidates share the probability (ties are the teacher's own
indifference); positions where the teacher scores every candidate alike carry no label and are left
out. Blocks are fitted apart (a position's candidates share its block), each by L-BFGS
(``scipy.optimize``) on the mean cross-entropy plus ``l2 / 2 * |w|^2`` over standardised features; the
weights are scaled back to the raw features, so a score is ``x @ w``.

A network (``hidden`` > 0) scores ``x @ v + sum_h w2_h * max(0, x @ W1_h + b_h)``: the same loss, over
``v``, ``W1``, ``b``, ``w2`` together (ridge ``L2_NETWORK``), from a start drawn from a generator seeded by the
block's index, so the same positions give the same model. A block with fewer than ``MIN_NETWORK``
informative positions is fitted linear (its units left at zero): too few to fit units on.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from cardsim.core import learned

L2 = 1e-3
"""The ridge penalty on the standardised weights."""
L2_NETWORK = 1e-2
"""The ridge penalty on a network's standardised weights (all of them)."""
MIN_NETWORK = 200
"""The informative positions a block needs to be fitted with units."""


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


def _unpack(p: np.ndarray, n: int, hidden: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A network's ``v`` (n), ``W1`` (hidden x n), ``b`` and ``w2`` (hidden) from its parameter vector."""
    return p[:n], p[n:n + hidden * n].reshape(hidden, n), p[n + hidden * n:n + hidden * (n + 1)], \
        p[n + hidden * (n + 1):]


def _network_loss(p: np.ndarray, x: np.ndarray, t: np.ndarray, count: np.ndarray, start: np.ndarray, l2: float,
                  hidden: int) -> tuple[float, np.ndarray]:
    v, w1, b, w2 = _unpack(p, x.shape[1], hidden)
    active = x @ w1.T + b
    units = np.maximum(active, 0.0)
    z = x @ v + units @ w2
    z -= np.repeat(np.maximum.reduceat(z, start), count)
    log_p = z - np.repeat(np.log(np.add.reduceat(np.exp(z), start)), count)
    n = len(count)
    g = (np.exp(log_p) - t) / n  # d loss / d z
    g_active = np.outer(g, w2) * (active > 0)
    grad = np.concatenate([x.T @ g, (g_active.T @ x).ravel(), g_active.sum(axis=0), units.T @ g]) + l2 * p
    return -(t * log_p).sum() / n + 0.5 * l2 * p @ p, grad


def _informative(count: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions whose teacher totals differ: their counts, features (float) and target probabilities."""
    if len(count) == 0:
        return count, x.astype(np.float64), np.zeros(0)
    keep, t = targets(count, y)
    rows = np.repeat(keep, count)
    return count[keep], x[rows].astype(np.float64), t[rows]


def _standardised(x: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The features standardised (a constant feature left at 0), the features' standard deviations and
    means, and each position's first row."""
    sd, mean = x.std(axis=0), x.mean(axis=0)
    return (x - mean) / np.where(sd > 0, sd, 1.0), sd, mean, np.concatenate(([0], np.cumsum(count)[:-1]))


def _summary(res, z: np.ndarray, t: np.ndarray, count: np.ndarray, start: np.ndarray) -> dict:
    chosen = np.add.reduceat(t * (z == np.repeat(np.maximum.reduceat(z, start), count)), start)
    return {"positions": int(len(count)), "loss": round(float(res.fun), 6), "iterations": int(res.nit),
            "teacher_agreement": round(float((chosen > 0).mean()), 4)}


def fit_block(count: np.ndarray, x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, dict]:
    """The weights (raw features) of one block from its positions, and a summary of the fit."""
    count, x, t = _informative(count, x, y)
    if len(count) == 0:
        return np.zeros(x.shape[1]), {"positions": 0}
    xs, sd, _, start = _standardised(x, count)
    res = minimize(_loss, np.zeros(x.shape[1]), args=(xs, t, count, start, l2), jac=True, method="L-BFGS-B")
    return np.divide(res.x, sd, out=np.zeros_like(res.x), where=sd > 0), _summary(res, xs @ res.x, t, count, start)


def fit_network_block(count: np.ndarray, x: np.ndarray, y: np.ndarray, hidden: int, seed: int,
                      l2: float = L2_NETWORK) -> tuple[np.ndarray, dict]:
    """A network's block of ``core.learned.width(n)`` numbers (raw features; units past ``hidden`` zero) from the
    block's positions, and a summary of the fit; linear (``fit_block``) below ``MIN_NETWORK`` positions."""
    n = x.shape[1]
    row = np.zeros(learned.width(n))
    informative, xf, t = _informative(count, x, y)
    if len(informative) < MIN_NETWORK:
        row[:n], summary = fit_block(count, x, y)
        return row, summary | {"units": 0}
    count = informative
    xs, sd, mean, start = _standardised(xf, count)
    scale = np.where(sd > 0, sd, 1.0)
    draw = np.random.default_rng(seed)
    p0 = np.concatenate([np.zeros(n), draw.normal(0.0, n ** -0.5, hidden * n), np.zeros(hidden),
                         draw.normal(0.0, 0.1, hidden)])
    res = minimize(_network_loss, p0, args=(xs, t, count, start, l2, hidden), jac=True, method="L-BFGS-B")
    v, w1, b, w2 = _unpack(res.x, n, hidden)
    z = xs @ v + np.maximum(xs @ w1.T + b, 0.0) @ w2
    live = sd > 0
    row[:n] = np.where(live, v / scale, 0.0)
    for h in range(hidden):
        unit = n + h * (n + 2)
        row[unit:unit + n] = np.where(live, w1[h] / scale, 0.0)
        row[unit + n] = b[h] - w1[h] @ np.where(live, mean / scale, 0.0)
        row[unit + n + 1] = w2[h]
    return row, _summary(res, z, t, count, start) | {"units": hidden}


def fit(positions: dict[str, np.ndarray], blocks: int, l2: float = L2, hidden: int = 0) -> tuple[np.ndarray, dict]:
    """The weights (``blocks`` rows: ``n`` linear weights, or with ``hidden`` units a network's
    ``core.learned.width(n)``) from labelled positions (``block``, ``count``, ``x``, ``y``), and per block a
    summary of its fit."""
    block, count, x, y = positions["block"], positions["count"], positions["x"], positions["y"]
    rows = np.repeat(block, count)
    n = x.shape[1]
    weights = np.zeros((blocks, learned.width(n) if hidden else n))
    summary = {}
    for b in range(blocks):
        mine = block == b
        if hidden:
            weights[b], summary[b] = fit_network_block(count[mine], x[rows == b], y[rows == b], hidden, seed=b)
        else:
            weights[b], summary[b] = fit_block(count[mine], x[rows == b], y[rows == b], l2)
    return weights, summary
