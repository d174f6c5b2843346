"""Fairness: how far the seats of self-play are from equal, under the profiled player.

From the outcome seat (``loser`` or ``winner``, dealer-relative: seat 0 deals) of every
self-play game of one variant at one player count:

- ``seat_edge``: the largest seat rate minus parity (parity = the share of games with an
  outcome seat over the seats: 1/N when every game has one); its interval is the
  Clopper-Pearson interval of that seat's rate at level 1 - 0.05/N (Bonferroni over the
  seats: the seat was picked as the largest), minus parity; its ``p`` is the chi-square test of
  equal seats (scipy), the test of "the game is fair";
- ``spread``: the largest minus the smallest seat rate with its exact interval
  (``cardsim.study.stats.fairness``), descriptive.
"""
from __future__ import annotations

import numpy as np
from scipy import stats as sps

from cardsim.profile.rows import row
from cardsim.study.report.stats import LEVEL, clopper_pearson, fairness

FAMILY = "fairness"


def figures(variant: str, players: int, policy: str, outcome: np.ndarray) -> list[dict]:
    """The fairness rows of one self-play cell (``outcome``: the outcome seat of each game, -1 for none)."""
    n = len(outcome)
    counts = np.array([(outcome == s).sum() for s in range(players)])
    decided = int(counts.sum())
    parity = decided / n / players
    worst = int(np.argmax(counts))
    lo, hi = clopper_pearson(counts[worst], n, 1 - (1 - LEVEL) / players)
    p = float(sps.chisquare(counts).pvalue) if decided else np.nan
    spread = fairness(counts, n)
    return [row(variant, players, FAMILY, "seat_edge", policy, counts[worst] / n - parity, lo - parity, hi - parity, n,
                0.0, p, f"seat {worst} (0 = dealer): rate {counts[worst] / n:.4f}, parity {parity:.4f}"),
            row(variant, players, FAMILY, "spread", policy, spread["spread"], spread["spread_lo"], spread["spread_hi"],
                n, note="largest minus smallest seat rate, exact 95%")]
