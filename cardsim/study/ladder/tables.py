"""A ladder: how strong each policy is, from games where the policies share a table.

A ladder is a study of one variant at one player count whose cells are **seatings**
(one policy per seat, ``cardsim.study.plan.seatings``); every seating plays games
``0 .. n - 1``, so game i deals the same cards in every seating and the comparisons are
paired. This module holds the statistics a ladder adds to a study, all of it pure (it
plays and writes nothing; ``pipeline.run_ladder`` runs a ladder and writes its files):

- ``measure_of``: how a record says how each seat did, found by column name — the
  seat that lost (``loser``: Moska, Musta-Maija), the seat's score (``score_<seat>``,
  sticks minus potatoes: Molotow), or the seat that won (``winner``: Uno).
- ``Tally``: the records of the seatings, one seating at a time, reduced to the two
  tables of the report (``Report``):

  ``table`` (``ladder.csv``), one row per ordered pair (A among B: A in one seat, B in
  all the others, over every seating of that shape) with A's loss rate, win rate or
  mean score in its seat and the B seats' for comparison, then one row per policy over
  all the seats it sat in (``among = "(all)"``). Rates count every game (a truncated
  game, or one without a loser, counts as not lost / not won) with Wilson 95% intervals
  over the seat-games; the seat-games of one deal in its rotated seatings are not
  strictly independent, but their outcomes hardly correlate (measured in Moska at 4
  players: correlations between rotations within ±0.02), so Wilson's binomial interval
  is kept, as for every rate of the study. Scores are averaged over finished games, and
  their Student t 95% interval is taken over **deals** (each deal's mean over its
  seatings): scores of one deal are not independent across seats and seatings.

  ``ratings`` (``ratings.csv``): Bradley–Terry strengths (``rating``) on the Elo scale,
  the first policy pinned at 0, fitted to the pairwise outcomes of every game between
  seats of different policies: the loser loses to every other seat (no outcome between
  two seats that did not lose), the winner beats every other seat, and in Molotow the
  higher score beats the lower, a tie counting half a win to each. 95% intervals by a
  bootstrap over deals (all the seatings of a deal resampled together; fixed seed).

  ``steps`` (``steps.csv``), where the ladder seats two or more generations of a learned model
  (``generations``): each generation's rating less the one before it in its family, with the 95% interval
  of that difference from the same resamples (two ratings' intervals may overlap while their difference is
  clear of 0, as both move together from resample to resample), and whether it ``climbs`` (interval above
  0), ``falls`` (below) or shows ``no difference detected``.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from cardsim.study.ladder import rating
from cardsim.study.report.stats import paired_mean, wilson

ALL = "(all)"
"""The ``among`` of a policy's row over all its seats."""
TABLE_COLUMNS = ("policy", "among", "measure", "seat_games", "value", "lo", "hi", "among_value", "among_lo",
                 "among_hi")
RATING_COLUMNS = ("policy", "rating", "lo", "hi", "wins", "losses")
STEP_COLUMNS = ("family", "generation", "previous_generation", "policy", "previous", "step", "lo", "hi", "verdict")
GENERATION = re.compile(r"(model=['\"]?[^'\"(),]*?_g)(\d+)\b")
"""A learned model's generation in a policy string: ``learned(model='moska_4p_g3')`` is generation 3."""


def generations(policies) -> dict[str, list[tuple[int, str]]]:
    """The policies that name a model generation, by family (the string with ``g*`` for the generation):
    ``{family: [(generation, policy), ...]}`` in generation order; empty when none does."""
    families: dict[str, list[tuple[int, str]]] = {}
    for policy in policies:
        match = GENERATION.search(policy)
        if match:
            family = GENERATION.sub(lambda m: m.group(1) + "*", policy)
            families.setdefault(family, []).append((int(match.group(2)), policy))
    return {family: sorted(members) for family, members in families.items()}


def verdict(lo: float, hi: float) -> str:
    """What a step's 95% interval says: ``climbs`` (above 0), ``falls`` (below), else no difference detected."""
    return "climbs" if lo > 0 else "falls" if hi < 0 else "no difference detected"


@dataclass(frozen=True)
class Measure:
    """How a record says how each seat did: ``kind`` is ``loser``, ``winner`` or ``score``."""

    kind: str

    @property
    def name(self) -> str:
        return {"loser": "loss rate", "winner": "win rate", "score": "mean score"}[self.kind]

    @property
    def is_rate(self) -> bool:
        return self.kind != "score"

    def columns(self, players: int) -> list[str]:
        """The record columns it reads."""
        return ["game", "truncated", *([f"score_{s}" for s in range(players)] if self.kind == "score" else [self.kind])]

    def values(self, records: pd.DataFrame, players: int) -> np.ndarray:
        """(games x seats): 1.0 where the seat lost (won), else 0.0; or the seat's score, NaN when truncated."""
        if self.kind == "score":
            v = records[[f"score_{s}" for s in range(players)]].to_numpy(dtype=float)
            return np.where(records.truncated.to_numpy()[:, None], np.nan, v)
        return (records[self.kind].to_numpy()[:, None] == np.arange(players)).astype(float)

    def beats(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per game, how much a seat with values ``x`` beat one with ``y``: 1, 0, or 1/2 for tied scores
        (two seats that neither lost nor won are no comparison); 0 when either is NaN."""
        if self.kind == "loser":
            return ((x == 0) & (y == 1)).astype(float)
        if self.kind == "winner":
            return ((x == 1) & (y == 0)).astype(float)
        return (x > y) + 0.5 * (x == y)


def measure_of(columns: Iterable[str]) -> Measure:
    """The measure of a game's record columns: ``loser`` first, then ``score_0``, then ``winner``."""
    columns = set(columns)
    for kind, column in (("loser", "loser"), ("score", "score_0"), ("winner", "winner")):
        if column in columns:
            return Measure(kind)
    raise ValueError("the records have no loser, score_<seat> or winner column to rank the policies by")


@dataclass
class _Sums:
    """Per deal: the sum of the values seen and how many there were."""

    total: np.ndarray
    count: np.ndarray

    @classmethod
    def zeros(cls, deals: int) -> _Sums:
        return cls(np.zeros(deals), np.zeros(deals))

    def add(self, values: np.ndarray) -> None:
        """``values``: (deals x seats) for one seating, NaN where there is no value."""
        seen = ~np.isnan(values)
        self.total += np.where(seen, values, 0).sum(1)
        self.count += seen.sum(1)

    def estimate(self, measure: Measure) -> tuple[int, float, float, float]:
        """(seat-games, value, low, high): a rate with Wilson's interval, or a score with a t interval over deals."""
        n = int(self.count.sum())
        if n == 0:
            return 0, np.nan, np.nan, np.nan
        if measure.is_rate:
            k = self.total.sum()
            lo, hi = wilson(k, n)
            return n, float(k / n), float(lo), float(hi)
        seen = self.count > 0
        mean, lo, hi = paired_mean(self.total[seen] / self.count[seen])
        return n, mean, lo, hi


@dataclass(frozen=True)
class Report:
    """The two tables of a ladder (columns ``TABLE_COLUMNS`` and ``RATING_COLUMNS``) and what they rest on."""

    table: pd.DataFrame
    ratings: pd.DataFrame
    measure: Measure
    players: int
    deals: int
    seatings: int
    parity: float
    """The mean value of a seat over every seat-game of the ladder: 1/N for a loss rate with a loser in every game."""
    resamples: int
    undefined: int
    """Bootstrap resamples in which the ratings did not exist (then the intervals are NaN)."""
    steps: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(STEP_COLUMNS)))
    """Each model generation less the one before it (``STEP_COLUMNS``; no rows without two generations)."""


@dataclass
class Tally:
    """The report of a ladder, accumulated one seating at a time (records of games ``0 .. deals - 1``)."""

    policies: tuple[str, ...]
    players: int
    deals: int
    measure: Measure
    wins: np.ndarray = field(init=False)
    _single: dict = field(init=False)
    _others: dict = field(init=False)
    _overall: dict = field(init=False)
    _seatings: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        k = len(self.policies)
        self.wins = np.zeros((self.deals, k, k))
        self._single, self._others = {}, {}
        self._overall = {p: _Sums.zeros(self.deals) for p in self.policies}

    def add(self, seats: Sequence[str], records: pd.DataFrame) -> None:
        """Count one seating's records (one row per game ``0 .. deals - 1``)."""
        if len(seats) != self.players:
            raise ValueError(f"{len(seats)} seat policies given for a ladder of {self.players} players")
        games = records.game.to_numpy()
        if len(games) != self.deals or (np.sort(games) != np.arange(self.deals)).any():
            raise ValueError(f"a seating's records must hold games 0 to {self.deals - 1} once each")
        v = np.full((self.deals, self.players), np.nan)
        v[games] = self.measure.values(records, self.players)
        index = [self.policies.index(p) for p in seats]
        for s, t in itertools.permutations(range(self.players), 2):
            if index[s] != index[t]:
                self.wins[:, index[s], index[t]] += self.measure.beats(v[:, s], v[:, t])
        for p in set(seats):
            self._overall[p].add(v[:, [s for s, q in enumerate(seats) if q == p]])
        for a in set(seats):
            mine = [s for s, q in enumerate(seats) if q == a]
            others = set(seats) - {a}
            if len(mine) == 1 and len(others) == 1:
                pair = (a, others.pop())
                self._single.setdefault(pair, _Sums.zeros(self.deals)).add(v[:, mine])
                self._others.setdefault(pair, _Sums.zeros(self.deals)).add(np.delete(v, mine, axis=1))
        self._seatings += 1

    def report(self, resamples: int = rating.RESAMPLES, seed: int = rating.BOOTSTRAP_SEED) -> Report:
        """Both tables; the ratings' intervals from ``resamples`` bootstrap resamples of the deals."""
        rows = []
        for a, b in itertools.permutations(self.policies, 2):
            if (a, b) in self._single:
                n, value, lo, hi = self._single[a, b].estimate(self.measure)
                _, among, among_lo, among_hi = self._others[a, b].estimate(self.measure)
                rows.append((a, b, self.measure.name, n, value, lo, hi, among, among_lo, among_hi))
        for p in self.policies:
            rows.append((p, ALL, self.measure.name, *self._overall[p].estimate(self.measure), np.nan, np.nan, np.nan))
        table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
        ratings, samples = self._ratings(resamples, seed)
        undefined = int(np.isnan(samples).any(axis=1).sum())
        steps = self._steps(ratings.rating.to_numpy(), samples)
        every = sum(s.total.sum() for s in self._overall.values()) / sum(s.count.sum() for s in self._overall.values())
        return Report(table, ratings, self.measure, self.players, self.deals, self._seatings, float(every),
                      resamples, undefined, steps)

    def _ratings(self, resamples: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
        """The ratings table and the bootstrap's ratings (resamples x policies, Elo)."""
        total = self.wins.sum(0)
        try:
            point = rating.elo(rating.fit(total))
        except rating.RatingUndefined:
            point = np.full(len(self.policies), np.nan)
        samples = rating.elo(rating.bootstrap(self.wins, resamples=resamples, seed=seed))
        lo, hi = rating.interval(samples)
        np.fill_diagonal(total, 0)
        table = pd.DataFrame({"policy": self.policies, "rating": point, "lo": lo, "hi": hi,
                              "wins": total.sum(1), "losses": total.sum(0)})
        return table, samples

    def _steps(self, point: np.ndarray, samples: np.ndarray) -> pd.DataFrame:
        """``Report.steps``: each generation's rating less the one before it, its interval from the same
        resamples (a difference of two ratings does not depend on which policy is pinned at 0)."""
        rows = []
        for family, members in generations(self.policies).items():
            for (h, before), (k, after) in zip(members, members[1:]):
                i, j = self.policies.index(after), self.policies.index(before)
                lo, hi = rating.interval(samples[:, [i]] - samples[:, [j]])
                rows.append((family, k, h, after, before, point[i] - point[j], lo[0], hi[0], verdict(lo[0], hi[0])))
        return pd.DataFrame(rows, columns=list(STEP_COLUMNS))


CONTRAST_COLUMNS = ("effect", "policy", "reference", "measure", "estimate", "lo", "hi", "games")
"""A ladder's claims as contrasts (``contrasts``), the columns ``cardsim replicate`` corrects and compares."""


def contrasts(ratings: pd.DataFrame, steps: pd.DataFrame, deals: int) -> pd.DataFrame:
    """A ladder's claims, one row each (``CONTRAST_COLUMNS``): every policy's ``rating`` against the
    pinned first policy (its ``reference``), then every generation's ``step`` over the one before it,
    each an Elo difference with its 95% bootstrap interval over ``deals`` deals (``games``)."""
    anchor = ratings.policy.iloc[0]
    rows = [("rating", r.policy, anchor, "elo", r.rating, r.lo, r.hi, deals) for r in ratings.iloc[1:].itertuples()]
    rows += [("step", s.policy, s.previous, "elo", s.step, s.lo, s.hi, deals) for s in steps.itertuples()]
    return pd.DataFrame(rows, columns=list(CONTRAST_COLUMNS))


def format_report(report: Report, title: str, steps: bool = True) -> str:
    """The tables as text for a terminal: rates in %, intervals in brackets; with ``steps`` (a folder that holds
    ``steps.csv``: ``files.outputs``), the generation steps after the ratings."""
    rate = report.measure.is_rate

    def number(x: float) -> str:
        return "" if np.isnan(x) else f"{100 * x:.2f}%" if rate else f"{x:+.3f}"

    def cell(value: float, lo: float, hi: float) -> str:
        if np.isnan(value):
            return ""
        bounds = "" if np.isnan(lo) else f" [{number(lo).rstrip('%')}, {number(hi).rstrip('%')}]"
        return number(value) + bounds

    t = report.table
    lines = [title,
             f"{report.measure.name} of A in one seat among B in the others, and of the B seats "
             f"({'Wilson' if rate else 'Student t over deals'} 95% intervals; every seat on average: "
             f"{number(report.parity)})"]
    width = max(len(p) for p in t.policy)
    pairs = t.loc[t.among != ALL]
    among_width = max([len(ALL), *map(len, t.among)])
    head = f"  {'A':{width}}  {'among B':{among_width}}  {'A':>26}  {'B seats':>26}"
    lines += [head] + [f"  {r.policy:{width}}  {r.among:{among_width}}  {cell(r.value, r.lo, r.hi):>26}  "
                       f"{cell(r.among_value, r.among_lo, r.among_hi):>26}" for r in pairs.itertuples()]
    lines += [f"{report.measure.name} of each policy over all its seats"]
    lines += [f"  {r.policy:{width}}  {cell(r.value, r.lo, r.hi):>26}  ({r.seat_games:,} seat-games)"
              for r in t.loc[t.among == ALL].itertuples()]
    r = report.ratings
    lines += [f"ratings: Bradley–Terry on the Elo scale, {r.policy.iloc[0]} = 0 (95% bootstrap intervals over "
              f"deals, {report.resamples:,} resamples)"]
    lines += [f"  {x.policy:{width}}  {x.rating:+8.1f} [{x.lo:+.1f}, {x.hi:+.1f}]   "
              f"pairwise wins {x.wins:,.1f}, losses {x.losses:,.1f}" for x in r.itertuples()]
    if report.undefined:
        lines.append(f"  (intervals undefined: in {report.undefined} of {report.resamples} resamples some policies "
                     "won or lost every comparison; play more games)")
    if steps and len(report.steps):
        lines.append("generation steps: each generation less the one before it, Elo (95% intervals of the "
                     "difference, the same resamples)")
        for family, rows in report.steps.groupby("family", sort=False):
            lines.append(f"  {family}")
            lines += [f"    g{x.generation} less g{x.previous_generation}: {x.step:+.1f} [{x.lo:+.1f}, {x.hi:+.1f}]  "
                      f"{x.verdict}" for x in rows.itertuples()]
    return "\n".join(lines)
