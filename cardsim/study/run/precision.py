"""Stop at a precision: how many games per cell a study plays to pin every seat rate (or every seat
contrast) down.

``cardsim run STUDY --precision P [--max-games M] [--precision-of contrasts]`` plays in steps. The
rule, exactly (the games are deterministic, so the same command reaches the same n):

1. step 0 plays ``n_0`` games per cell: the study's ``games`` (its file's, or ``--games``);
2. after a step of ``n_k`` games per cell, ``h_k`` is the widest 95% Wilson half-width
   ``(high - low) / 2`` over every seat rate of every cell, in percentage points; with
   ``--precision-of contrasts``, the widest 95% half-width of every seat contrast instead: each
   cell's seat rate less its baseline cell's (the same players and policy), paired game by game
   with a Student t interval, as ``summary.csv``'s ``_diff`` columns give it (``CONTRAST_RULE``);
3. if ``h_k <= P``, or ``n_k = M``, the study is the study of ``n_k`` games (games
   ``0 .. n_k - 1`` of every cell, exactly what ``--games n_k`` plays);
4. otherwise ``n_{k+1} = min(M, max(n_k + n_0, n_0 * ceil(n_k * (h_k / P)**2 / n_0)))``: a half-width
   shrinks as ``1 / sqrt(n)``, so this is where the widest one would reach ``P`` were the
   rates to stay as they are, rounded up to a multiple of ``n_0``, and at least
   ``n_k + n_0``; go to 2.

Each step plays only the new games ``n_k .. n_{k+1} - 1``. The manifest records the rule,
``P``, ``M``, every ``n_k`` with its ``h_k``, and whether ``P`` was reached (and ``of``:
``contrasts``, where it was asked). A seat contrast with independent outcomes is about
``sqrt(2)`` times as wide as the rates it joins; pairing narrows it where a rule changes few
games. Pure: nothing here plays or writes.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from cardsim.study.report.stats import seat_contrast, wilson

MAX_GAMES = 1_000_000
"""``--max-games`` when it is not given: the most games per cell a ``--precision`` run plays."""
RULE = ("n_0 = the study's games; after n_k games per cell, h_k = the widest 95% Wilson half-width (high - low) / 2 "
        "of any seat rate of any cell, in pp; stop at h_k <= precision or n_k = max_games; else "
        "n_(k+1) = min(max_games, max(n_k + n_0, n_0 * ceil(n_k * (h_k / precision)^2 / n_0)))")
"""The stopping rule in one line, as the manifest states it."""
CONTRAST_RULE = ("n_0 = the study's games; after n_k games per cell, h_k = the widest 95% half-width (high - low) / 2 "
                 "of any seat contrast, a cell's seat rate less its baseline cell's (the same players and policy), "
                 "paired game by game with a Student t interval, in pp; stop at h_k <= precision or n_k = max_games; "
                 "else n_(k+1) = min(max_games, max(n_k + n_0, n_0 * ceil(n_k * (h_k / precision)^2 / n_0)))")
"""The rule of ``--precision-of contrasts``."""
OF = {"rates": RULE, "contrasts": CONTRAST_RULE}
"""What ``--precision-of`` may name, and the rule each is held to (``rates``: the default)."""


def check(precision: object, max_games: object, first: int, of: object = "rates", variants: int = 2) -> None:
    """Raise ``ValueError`` for a precision or bound that cannot run (``first``: the study's games; ``variants``:
    how many it has, for contrasts)."""
    if of not in OF:
        raise ValueError(f"--precision-of must be one of {', '.join(OF)}, not {of!r}")
    if of == "contrasts" and variants < 2:
        raise ValueError("--precision-of contrasts needs a study of two or more variants: there is no contrast")
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 100 \
            or not math.isfinite(precision):
        raise ValueError(f"--precision must be a number of percentage points > 0 and < 100, not {precision!r}")
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < first:
        raise ValueError(f"--max-games must be an integer >= the study's games ({first:,}), not {max_games!r}")


def widest_half_width(counts: Sequence[Sequence[int]], games: int) -> float:
    """The widest 95% Wilson half-width, in percentage points, over the seat counts of every
    cell (one sequence of per-seat outcome counts per cell) after ``games`` games per cell."""
    k = np.concatenate([np.asarray(c, dtype=np.int64) for c in counts])
    lo, hi = wilson(k, np.full(len(k), games))
    return float(100 * (hi - lo).max() / 2)


def next_games(games: int, widest: float, precision: float, first: int, max_games: int) -> int | None:
    """The games per cell of the next step, or None when ``games`` is where the study stops."""
    if widest <= precision or games >= max_games:
        return None
    projected = first * math.ceil(games * (widest / precision) ** 2 / first)
    return min(max_games, max(projected, games + first))  # never the same n again, whatever the rounding


def widest_contrast_half_width(baseline: str, cells: Sequence, outcomes: Sequence[np.ndarray]) -> float:
    """The widest 95% half-width, in percentage points, of the seat contrasts of ``cells`` (each with its
    ``variant``, ``players`` and ``policy``; ``outcomes[c]``: cell c's outcome per game, the seat or < 0 for
    none, the same games in every cell): every cell not of ``baseline`` against the ``baseline`` cell of its
    players and policy, seat by seat, as ``summary.csv`` gives it (``stats.seat_contrast``)."""
    of = {(c.variant, c.players, c.policy): x for c, x in zip(cells, outcomes)}
    widest = 0.0
    for c, here in zip(cells, outcomes):
        if c.variant == baseline:
            continue
        for s in range(c.players):
            _, lo, hi = seat_contrast(here, of[(baseline, c.players, c.policy)], s)
            widest = max(widest, np.inf if np.isnan(hi) else 100 * (hi - lo) / 2)  # one game: no interval yet
    return float(widest)
