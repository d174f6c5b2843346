"""Skill: a small ladder under the variant, and how often the strongest player still loses.

From the ladder's ``pairs`` seatings (``cardsim.profile.design``), all on the same deals:

- ``rating_gap_<P>``: the Bradley-Terry rating (Elo scale, ``cardsim.study.ladder``/``rating``)
  of the profiled player minus that of each weaker ladder policy P (``random``, ``greedy``),
  with the 95% percentile interval of the gap over the ladder's bootstrap of deals and its
  two-sided bootstrap p (twice the smaller share of resampled gaps on either side of 0);
- ``luck_share_skill``: how often the profiled player, alone among the weakest policy, ends
  the game as a loser, relative to parity: its loss rate times N (for a game with a winner,
  its rate of not winning over (N - 1) / N). 1 is "skill buys nothing" (pure luck), 0 "the
  stronger seat never loses". Wilson 95% interval; ``p`` the binomial test of parity
  (null 1).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from cardsim.profile.rows import row
from cardsim.study.ladder import rating
from cardsim.study.ladder.tables import Tally, measure_of
from cardsim.study.report.stats import wilson

FAMILY = "skill"


def figures(variant: str, players: int, ladder: tuple[str, ...], columns: list[str], outcome: str,
            seatings: dict[tuple[str, ...], pd.DataFrame], deals: int) -> list[dict]:
    """The skill rows of one variant at one player count; ``seatings``: each seating's records
    (games 0 .. deals - 1), ``outcome``: ``loser`` or ``winner``."""
    tally = Tally(ladder, players, deals, measure_of(columns))
    for seats, records in seatings.items():
        tally.add(seats, records)
    top = len(ladder) - 1
    samples = rating.elo(rating.bootstrap(tally.wins))
    try:
        point = rating.elo(rating.fit(tally.wins.sum(0)))
    except rating.RatingUndefined:
        point = np.full(len(ladder), np.nan)
    out = []
    for j in range(top):
        gap = samples[:, top] - samples[:, j]
        lo, hi = rating.interval(gap[:, None])
        p = float(min(1.0, 2 * min((gap <= 0).mean(), (gap >= 0).mean()))) if not np.isnan(gap).any() else np.nan
        out.append(row(variant, players, FAMILY, f"rating_gap_{ladder[j]}", f"{ladder[top]} vs {ladder[j]}",
                       point[top] - point[j], lo[0], hi[0], deals, 0.0, p,
                       f"Elo points; {len(samples)} bootstrap resamples of the deals"))
    weak, strong = ladder[0], ladder[top]
    lost = []
    for seats, records in seatings.items():
        if seats.count(strong) == 1 and seats.count(weak) == players - 1:
            seat, o = seats.index(strong), records[outcome].to_numpy()
            lost.append(o == seat if outcome == "loser" else o != seat)
    lost = np.concatenate(lost)
    parity = 1 / players if outcome == "loser" else (players - 1) / players
    k, n = int(lost.sum()), len(lost)
    lo, hi = wilson(k, n)
    out.append(row(variant, players, FAMILY, "luck_share_skill", f"{strong} among {weak}", k / n / parity,
                   lo / parity, hi / parity, n, 1.0, sps.binomtest(k, n, parity).pvalue,
                   f"{strong} alone among {weak} {'loses' if outcome == 'loser' else 'fails to win'} "
                   f"{100 * k / n:.2f}% of {n:,} seat-games; parity {100 * parity:.2f}%"))
    return out
