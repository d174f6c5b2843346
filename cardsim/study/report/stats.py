"""The statistics of a study: what to measure in a record, intervals, and ``summary.csv``.

Game-agnostic: the outcome and length columns are found by column name
(``OUTCOMES``, ``LENGTHS``), never by game name. Nothing here simulates, reads or
writes files.

Definitions (also in the README):
- outcome rate of seat s: games whose outcome seat is s / all games of the cell
  (truncated games and games without an outcome seat count in the denominator), with a
  Wilson 95% interval;
- game lengths: mean, median and 95th percentile over the games that were not truncated,
  and their histograms (``length_histograms``, the plots' input): one set of integer bins
  per player count, policy and length column, shared by the variants, the longest 0.5% in
  one last bin;
- paired difference against the baseline: game i deals the same cards in every variant
  with the same deck, so for each seat the per-game difference of indicators
  ``[v_i = s] - [b_i = s]`` is averaged with a Student t 95% interval; lengths likewise,
  over the games finished in both cells. Under another deck (a knob marked ``deck``,
  ``Rules.same_deck``) game i deals other cards: the same interval is then that of a
  difference of independent means, and the plots say "unpaired";
- fairness of a cell (``fairness``): the spread ``max - min`` of its seat rates and the
  total-variation distance of its outcome seat from the uniform, with exact 95% intervals
  (simultaneous Clopper-Pearson intervals of the rates, projected).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import special  # the quantiles scipy.stats computes with, without its ~1 s import

from cardsim.core.records import ends

OUTCOMES = ("loser", "winner")
"""Outcome-seat columns, first present wins: a dealer-relative seat, -1 for none (or shared)."""
LENGTHS = ("turns", "rounds", "hands", "tricks")
"""Columns that measure how long a game lasted, summarised where present."""
CELL = ("variant", "players", "policy")
"""The columns that identify a cell in ``games.parquet``."""
BINS = 40
"""Most bins of a length histogram up to its ``TAIL`` quantile."""
TAIL = 0.995
"""The quantile of the lengths past which a histogram has one bin, up to the longest game: a few very
long games (Musta-Maija's `mc` tables that circle for thousands of turns before one ends) would
otherwise widen every bin until the body of the distribution fits in one."""
LEVEL = 0.95


@dataclass(frozen=True)
class Measures:
    outcome: str
    lengths: tuple[str, ...]


def measures(columns: Sequence[str]) -> Measures:
    """The outcome column and the length columns of a record with these columns."""
    outcome = next((c for c in OUTCOMES if c in columns), None)
    if outcome is None:
        raise ValueError(f"the records have no outcome column; expected one of {', '.join(OUTCOMES)}")
    return Measures(outcome, tuple(c for c in LENGTHS if c in columns))


def wilson(k: np.ndarray | int, n: np.ndarray | int, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a proportion ``k / n``: (low, high)."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    z = special.ndtri(0.5 + level / 2)  # the normal quantile
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # the interval holds k / n, within [0, 1]: exact at k = 0 and k = n despite rounding
    return np.clip(np.minimum(centre - half, p), 0, 1), np.clip(np.maximum(centre + half, p), 0, 1)


def paired_mean(d: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of per-game differences with a Student t interval: (mean, low, high)."""
    d = np.asarray(d, dtype=float)
    if len(d) == 0:
        return np.nan, np.nan, np.nan
    mean = float(d.mean())
    if len(d) < 2:
        return mean, np.nan, np.nan
    half = special.stdtrit(len(d) - 1, 0.5 + level / 2) * d.std(ddof=1) / np.sqrt(len(d))
    return mean, mean - half, mean + half


def seat_contrast(here: np.ndarray, there: np.ndarray, seat: int) -> tuple[float, float, float]:
    """Seat ``seat``'s rate in the games of outcomes ``here`` less its rate in ``there``, the same games (a
    variant's cell and its baseline's), paired game by game: ``paired_mean`` of the indicator differences."""
    return paired_mean((here == seat).astype(np.int64) - (there == seat).astype(np.int64))


def fairness(counts: Sequence[int], games: int, level: float = LEVEL) -> dict[str, float]:
    """How far a cell's seats are from equal: ``spread``, ``tv`` and their intervals (``_lo``, ``_hi``).

    ``counts[s]`` games of the cell's ``games`` have seat s as outcome (one count per seat;
    the other games have none or are truncated).

    - ``spread = (max_s k_s - min_s k_s) / games``: the widest gap between two seat rates;
    - ``tv = 1/2 sum_s |k_s / K - 1/players|``, ``K = sum_s k_s``: the total-variation distance
      between the distribution of the outcome seat (over the games that have one) and the
      uniform one: the share of outcomes that would have to change seat to make seats equal.

    Intervals, exact: Clopper-Pearson intervals of every seat's rate ``k_s / games`` (for
    ``tv``: of every share ``k_s / K``), simultaneous by Bonferroni (each at level
    ``1 - (1 - level) / players``), so with probability >= ``level`` every true rate lies in
    its interval; the interval of ``spread`` (``tv``) is the least and the most it can be for
    rates inside them (for ``tv``, shares inside them that sum to 1: ``_tv_range``). Coverage is >= ``level`` at any
    number of games, including a perfectly fair game, where a bootstrap percentile interval
    fails: max, min and |.| of noisy rates are biased upward, so the resampled spreads of
    equal seats all lie above 0 and the interval excludes the truth. The price is width:
    about 1.7 times a bootstrap interval's at 4 seats. The estimates keep that upward bias
    (noise never cancels in a max - min or a |.|): compare cells of the same size, and read a
    lower bound of 0 as "no detectable unfairness".
    """
    k = np.asarray(counts, dtype=np.int64)
    players, decided = len(k), int(k.sum())
    if games < 1 or players < 2 or k.min() < 0 or decided > games:
        raise ValueError(f"fairness needs >= 2 seat counts summing to at most games >= 1, not {list(k)} of {games}")
    each = 1 - (1 - level) / players
    lo, hi = clopper_pearson(k, games, each)
    out = {"spread": float((k.max() - k.min()) / games), "spread_lo": float(max(0.0, lo.max() - hi.min())),
           "spread_hi": float(hi.max() - lo.min())}
    if decided == 0:
        return out | {"tv": np.nan, "tv_lo": np.nan, "tv_hi": np.nan}
    tv = 0.5 * np.abs(k / decided - 1 / players).sum()
    least, most = _tv_range(*clopper_pearson(k, decided, each))
    return out | {"tv": float(tv), "tv_lo": float(min(tv, least)), "tv_hi": float(max(tv, most))}


def _tv_range(lo: np.ndarray, hi: np.ndarray) -> tuple[float, float]:
    """The least and the most total-variation distance from the uniform of shares ``q`` with
    ``lo <= q <= hi`` and ``sum q = 1``.

    On the simplex the distance is the total excess ``E = sum over seats above 1/n of (q - 1/n)``,
    which equals the total shortfall of the seats below. For each split of the seats into
    above and below, the excess the seats above can make spans an interval, the shortfall
    of those below another, and E is any value in both; the range is over every split
    (2**players of them, at most 1,024).
    """
    n = len(lo)
    u = 1 / n
    above = (np.arange(2 ** n)[:, None] >> np.arange(n)[None, :]) & 1 == 1
    fits = ~(above & (hi < u)).any(axis=1) & ~(~above & (lo > u)).any(axis=1)
    up = np.where(above, np.maximum(lo, u) - u, 0).sum(axis=1), np.where(above, hi - u, 0).sum(axis=1)
    down = np.where(above, 0, u - np.minimum(hi, u)).sum(axis=1), np.where(above, 0, u - lo).sum(axis=1)
    least, most = np.maximum(up[0], down[0]), np.minimum(up[1], down[1])
    fits &= least <= most + 1e-12  # rounding: a box of one point still holds its point
    return float(least[fits].min()), float(most[fits].max())


def clopper_pearson(k: np.ndarray | int, n: np.ndarray | int, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson (exact binomial) interval of a proportion ``k / n``: (low, high)."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    tail = (1 - level) / 2
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, special.betaincinv(k, n - k + 1, tail), 0.0)
        hi = np.where(k < n, special.betaincinv(k + 1, n - k, 1 - tail), 1.0)
    return lo, hi


def summarize(games: pd.DataFrame, game: str, baseline: str, seats: int | None = None,
              limits: Mapping[str, int] | None = None) -> pd.DataFrame:
    """``summary.csv``: one row per cell, in the order of ``games``, with the columns of
    ``seats`` seats (default: the most players in ``games``; NaN where a cell has fewer).
    ``limits`` (each variant's ``max_turns``), given where a variant plays the repetition rule
    (``repetition_limits``), adds ``repeated``: the truncated games the rule stopped."""
    m = measures(list(games.columns))
    seats = range(int(games.players.max()) if seats is None else seats)
    cells = games.groupby(list(CELL), sort=False)
    rows = []
    for (variant, players, policy), cell in cells:
        base = cells.get_group((baseline, players, policy))
        stats = _cell_stats(cell, m, seats, players)
        if limits:
            stopped = ends(cell.truncated, cell.turns, limits[variant]) == "repetition"
            stats = {k: stats[k] for k in ("games", "truncated")} | {"repeated": int(stopped.sum())} | stats
        rows.append({"game": game, "variant": variant, "players": players, "policy": policy,
                     **stats, **_paired_stats(cell, base, m, seats, players)})
    return pd.DataFrame(rows)


def repetition_limits(variants: Mapping[str, object]) -> dict[str, int] | None:
    """Each variant's ``max_turns`` where one of ``variants`` (name -> rules) plays the repetition rule (a
    ``repetition`` knob, M-23, MM-18), else None: ``summarize``'s ``limits``."""
    if not any(getattr(rules, "repetition", False) for rules in variants.values()):
        return None
    return {name: rules.max_turns for name, rules in variants.items()}


def _cell_stats(cell: pd.DataFrame, m: Measures, seats: range, players: int) -> dict[str, float]:
    n, outcome = len(cell), cell[m.outcome].to_numpy()
    out: dict[str, float] = {"games": n, "truncated": int(cell.truncated.sum()),
                             f"{m.outcome}_none": int(((outcome < 0) & ~cell.truncated.to_numpy()).sum())}
    for s in seats:
        k = int((outcome == s).sum()) if s < players else np.nan
        lo, hi = wilson(k, n)
        out |= {f"{m.outcome}_rate_{s}": k / n, f"{m.outcome}_lo_{s}": float(lo), f"{m.outcome}_hi_{s}": float(hi)}
    counts = [int((outcome == s).sum()) for s in range(players)]
    out |= {f"{m.outcome}_{k}": v for k, v in fairness(counts, n).items()}
    finished = cell.loc[~cell.truncated]
    for c in m.lengths:
        x = finished[c].to_numpy(dtype=float)
        empty = len(x) == 0
        out |= {f"{c}_mean": np.nan if empty else x.mean(), f"{c}_median": np.nan if empty else np.median(x),
                f"{c}_p95": np.nan if empty else np.percentile(x, 95)}
    return out


def _paired_stats(cell: pd.DataFrame, base: pd.DataFrame, m: Measures, seats: range,
                  players: int) -> dict[str, float]:
    columns = [m.outcome, "truncated", *m.lengths]
    here, there = _paired(cell, base, columns)
    out: dict[str, float] = {}
    for s in seats:
        mean, lo, hi = seat_contrast(here[m.outcome], there[m.outcome], s) if s < players else (np.nan,) * 3
        out |= {f"{m.outcome}_diff_{s}": mean, f"{m.outcome}_diff_lo_{s}": lo, f"{m.outcome}_diff_hi_{s}": hi}
    both = ~here["truncated"] & ~there["truncated"]
    for c in m.lengths:
        mean, lo, hi = paired_mean(here[c][both] - there[c][both])
        out |= {f"{c}_diff": mean, f"{c}_diff_lo": lo, f"{c}_diff_hi": hi}
    return out


def _paired(cell: pd.DataFrame, base: pd.DataFrame, columns: list[str]) -> tuple[dict, dict]:
    """``columns`` of the games that both cells played, game for game in ``cell``'s order: straight from
    the arrays when the two list the same games in the same order (a study's cells do), else joined."""
    games, base_games = cell.game.to_numpy(), base.game.to_numpy()
    if not np.array_equal(games, base_games):
        pair = cell.merge(base, on="game", suffixes=("", "_base"), validate="one_to_one")
        return ({c: pair[c].to_numpy() for c in columns}, {c: pair[f"{c}_base"].to_numpy() for c in columns})
    return {c: cell[c].to_numpy() for c in columns}, {c: base[c].to_numpy() for c in columns}


def length_histograms(games: pd.DataFrame, lengths: Sequence[str]) -> pd.DataFrame:
    """Density histograms of the finished games' ``lengths``: one row per bin (``policy``,
    ``players``, ``variant``, ``measure``, edges ``left`` and ``right``, ``density``)."""
    finished = games.loc[~games.truncated]
    parts = []
    for (players, policy), group in finished.groupby(["players", "policy"], sort=False):
        for c in lengths:
            edges = _integer_bins(group[c].to_numpy())
            for variant, cell in group.groupby("variant", sort=False):
                density, _ = np.histogram(cell[c].to_numpy(), bins=edges, density=True)
                parts.append(pd.DataFrame({"policy": policy, "players": players, "variant": variant, "measure": c,
                                           "left": edges[:-1], "right": edges[1:], "density": density}))
    columns = ["policy", "players", "variant", "measure", "left", "right", "density"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def _integer_bins(x: np.ndarray, most: int = BINS) -> np.ndarray:
    """Histogram edges between integers: at most ``most`` equal bins up to the ``TAIL`` quantile, then one
    bin up to the longest where that is further."""
    lo, top, hi = int(x.min()), int(np.quantile(x, TAIL)), int(x.max())
    step = max(1, -(-(top - lo + 1) // most))
    edges = np.arange(lo, top + step + 1, step) - 0.5
    return edges if edges[-1] >= hi + 0.5 else np.append(edges, hi + 0.5)
