"""Length and decisiveness of self-play under the profiled player.

- ``<len>_mean`` and ``<len>_median`` for every length column the game records (``turns``,
  ``rounds``, ``hands``, ``tricks``), over the games not truncated: the mean with a Student t
  95% interval, the median with the distribution-free interval of order statistics
  (binomial ranks); ``truncated`` as a share with Wilson's interval. Descriptive.
- ``decided_share``: how early the final loser is behind for good, from the **replays** of the
  first ``replays`` self-play games (the reference engine's events; replays cost time, so a
  sample): the share of the game's decisions after which the loser holds strictly the most
  cards for the rest of the game (for a game with a winner: the winner strictly the fewest);
  0 when it does from the deal on, 1 when only the last decision settles it. A game whose
  outcome comes from scores (Molotow Jass: every seat holds the same number of cards) counts
  hands instead: the share of the game's hands after which the winner strictly leads the running
  score (sticks minus potatoes, MJ-19) for the rest of the game, 0 when it leads from the first
  hand on; a shared win has no share. Mean over the replayed games with an outcome seat, Student t 95%.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from cardsim.profile.rows import row
from cardsim.study.report.stats import LENGTHS, LEVEL, paired_mean, wilson

FAMILY = "length"


def figures(variant: str, players: int, policy: str, records: pd.DataFrame) -> list[dict]:
    """The length rows of one self-play cell."""
    n = len(records)
    finished = records.loc[~records.truncated]
    k = int(records.truncated.sum())
    lo, hi = wilson(k, n)
    out = [row(variant, players, FAMILY, "truncated", policy, k / n, lo, hi, n, note="share of games stopped")]
    for c in (c for c in LENGTHS if c in records.columns):
        x = np.sort(finished[c].to_numpy(dtype=float))
        if len(x) < 2:
            continue
        mean, mlo, mhi = paired_mean(x)
        out.append(row(variant, players, FAMILY, f"{c}_mean", policy, mean, mlo, mhi, len(x)))
        j, m = median_ranks(len(x))
        out.append(row(variant, players, FAMILY, f"{c}_median", policy, np.median(x), x[j], x[m], len(x),
                       note=f"95th percentile {np.percentile(x, 95):g}"))
    return out


def median_ranks(n: int, level: float = LEVEL) -> tuple[int, int]:
    """0-based ranks (j, m) with P(x_(j) <= median <= x_(m)) >= ``level`` for n draws (binomial(n, 1/2))."""
    j = max(int(sps.binom.ppf((1 - level) / 2, n, 0.5)) - 1, 0)
    return j, min(n - 1 - j, n - 1)


def decided_at(events: pd.DataFrame, seat: int, turns: int, most: bool) -> float:
    """The share of ``turns`` decisions after which ``seat`` holds strictly the most (``most``) or the
    fewest cards for good, from a replay's events (the hand sizes after each decision's last event)."""
    if turns == 0:
        return np.nan
    moves = events.dropna(subset=["decision"]).groupby("decision", sort=True).hand_sizes.last()
    settled = 0
    for d, text in moves.items():
        sizes = np.array(text.split(), dtype=int)
        others = np.delete(sizes, seat)
        behind = sizes[seat] > others.max() if most else sizes[seat] < others.min()
        if not behind:
            settled = int(d) + 1
    return settled / turns


def decided_by_score(events: pd.DataFrame, seat: int) -> float:
    """The share of a scored game's hands after which ``seat`` strictly leads the running score
    (sticks minus potatoes of the replay's ``score`` events, hand by hand) for good; NaN without hands
    or when ``seat`` does not lead alone at the end (a shared win)."""
    scores = events.loc[events.action == "score"]
    if scores.empty:
        return np.nan
    per_hand = (scores.sticks - scores.potatoes).groupby([scores.hand, scores.seat]).sum().unstack(fill_value=0)
    running = per_hand.sort_index().cumsum().to_numpy()
    leads = [totals[seat] > np.delete(totals, seat).max() for totals in running]
    if not leads[-1]:
        return np.nan
    return max((h + 1 for h, ahead in enumerate(leads) if not ahead), default=0) / len(running)


def decisiveness(variant: str, players: int, policy: str, shares: list[float], scored: bool = False) -> list[dict]:
    """The ``decided_share`` row from the replayed games' shares (NaN: no outcome seat); ``scored``:
    shares of hands by the running score (``decided_by_score``), else of decisions by hand sizes."""
    x = np.array([s for s in shares if not np.isnan(s)])
    if len(x) < 2:
        return []
    mean, lo, hi = paired_mean(x)
    what = ("hands until the winner leads the score" if scored
            else "decisions until the outcome seat is behind")
    return [row(variant, players, FAMILY, "decided_share", policy, mean, lo, hi, len(x),
                note=f"{len(x)} replayed games; share of {what} for good")]
