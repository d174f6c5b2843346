"""Luck of the deal: how much of the outcome a predictor that sees only the dealt hands explains.

The predictor is a conditional logit over the seats: the chance that seat s is the game's
outcome seat (the loser, or the winner) is ``softmax_s(x_s . b + a_s)``, with ``x_s`` the seat's
deal features (``deal_features`` of the game's features module, from the game key alone: no
rule or policy changes them), ``b`` shared by the seats and ``a_s`` a seat effect (a_0 = 0).
It is fitted (scipy L-BFGS, a small ridge penalty on standardised features) on the
self-play games of even index and evaluated on those of odd index, which it never saw:

- ``deal_hit_rate``: the share of held-out games whose outcome seat is the seat the
  predictor names most likely, minus the **seat-only** rate: the held-out share of the seat
  most often the outcome seat in the fitting half (what knowing the seat numbers alone gets;
  1/N for fair seats). Null 0, Wilson 95% interval, binomial test against the seat-only rate;
- ``luck_share_deal``: that gain rescaled to 0..1, ``(hit - seat) / (1 - seat)``: 0 when the deal
  tells nothing the seat number does not, 1 when it decides every game (NaN when the seat
  alone decides every game, as in a rigged rule: nothing is left for the deal to explain).

The features module is ``cardsim.games.<game>.features`` for the built-in games, else a
``features`` module beside the game's engine, else ``deal_features`` in the engine's own
module (a plug-in or test game); a game without one gets no luck-of-the-deal rows.
"""
from __future__ import annotations

import importlib
import sys

import numpy as np
from scipy import optimize
from scipy import stats as sps
from scipy.special import logsumexp

from cardsim import games as registry
from cardsim.profile.rows import row
from cardsim.study.report.stats import wilson

FAMILY = "luck"
RIDGE = 1e-3
"""The penalty on the standardised weights: keeps a deal that decides every game (separable) finite."""


def features_module(game: str):
    """The game's deal-features module (see the module docstring), or None."""
    try:
        return importlib.import_module(f"cardsim.games.{game}.features")
    except ModuleNotFoundError:
        pass
    module = registry.spec(game).play.__module__
    package = module.rpartition(".")[0]
    if package:
        try:
            return importlib.import_module(f"{package}.features")
        except ModuleNotFoundError:
            pass
    own = sys.modules.get(module)
    return own if hasattr(own, "deal_features") else None


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The weights (k features, then N - 1 seat effects) of the conditional logit on ``x``
    (games x N x k, standardised) and outcome seats ``y`` (games with one only)."""
    g, n, k = x.shape

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        score = x @ w[:k] + np.concatenate([[0.0], w[k:]])
        logp = score - logsumexp(score, axis=1, keepdims=True)
        prob = np.exp(logp)
        hit = np.zeros_like(prob)
        hit[np.arange(g), y] = 1
        resid = prob - hit
        grad = np.concatenate([np.einsum("gs,gsk->k", resid, x), resid.sum(0)[1:]]) / g + RIDGE * w
        return -logp[np.arange(g), y].mean() + RIDGE / 2 * w @ w, grad

    return optimize.minimize(loss, np.zeros(k + n - 1), jac=True, method="L-BFGS-B").x


def figures(variant: str, players: int, policy: str, outcome: np.ndarray, x: np.ndarray | None) -> list[dict]:
    """The luck rows of one self-play cell: ``outcome`` (games 0 .. n - 1), ``x`` their deal features
    (games x players * k, seat by seat) or None."""
    if x is None or len(outcome) < 4:
        return []
    x = x.reshape(len(outcome), players, -1)
    mean, sd = x.mean(axis=(0, 1)), x.std(axis=(0, 1))
    x = (x - mean) / np.where(sd > 0, sd, 1)
    train = (np.arange(len(outcome)) % 2 == 0) & (outcome >= 0)
    test = np.arange(len(outcome)) % 2 == 1
    w = fit(x[train], outcome[train])
    k = x.shape[2]
    named = np.argmax(x[test] @ w[:k] + np.concatenate([[0.0], w[k:]]), axis=1)
    hits, n = int((named == outcome[test]).sum()), int(test.sum())
    seat = np.bincount(outcome[train], minlength=players).argmax()
    base = float((outcome[test] == seat).mean())
    lo, hi = wilson(hits, n)
    p = sps.binomtest(hits, n, base).pvalue if 0 < base < 1 else float(hits == round(base * n))
    scale = 1 - base
    share = ((hits / n - base) / scale, (lo - base) / scale, (hi - base) / scale) if scale > 0 else (np.nan,) * 3
    note = f"{hits:,} of {n:,} held-out games; seat {seat} alone {100 * base:.2f}%; fitted on {int(train.sum()):,}"
    return [row(variant, players, FAMILY, "deal_hit_rate", policy, hits / n - base, lo - base, hi - base, n,
                0.0, p, note),
            row(variant, players, FAMILY, "luck_share_deal", policy, *share, n,
                note="(hit rate - seat-only rate) / (1 - seat-only rate)")]
