"""The gate of expert iteration (``cardsim train --gate``): is a candidate generation stronger than the last one?

A candidate and the generation it is to follow share a table in a small ladder: every seating of the two
(one in a seat, the other in the rest, the seat rotated; ``plan.seatings``), the same ``games`` deals in
each, so the comparison is paired. The ratings are the ladder's (``study.ladder.tables``: Bradley–Terry on
the Elo scale, the previous generation pinned at 0, a 95% bootstrap interval over deals). The candidate
passes when its interval lies above 0: it beats the previous generation, not merely ties it within the
noise. AlphaGo Zero's evaluator keeps a new network the same way, by a head-to-head margin; a game whose
fit keeps imitating its teacher differently from run to run (docs/ladder.md) then publishes only
generations that climb.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import cardsim
from cardsim.study.ladder.tables import Tally, measure_of
from cardsim.study.plan.seatings import seatings


@dataclass(frozen=True)
class Verdict:
    """A candidate's rating over the previous generation (Elo, its 95% interval) on ``games`` deals."""

    elo: float
    lo: float
    hi: float
    games: int

    @property
    def passed(self) -> bool:
        return self.lo > 0

    def record(self) -> dict[str, float]:
        """The verdict as a model file keeps it (rounded: a file's bytes should not hang on the last bit)."""
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    def __str__(self) -> str:
        return f"{self.elo:+.1f} Elo [{self.lo:+.1f}, {self.hi:+.1f}] on {self.games:,} deals"


def judge(game: str, rules, players: int, previous: str, candidate: str, games: int, seed: int) -> Verdict:
    """Play ``candidate`` against ``previous`` (policy strings) in every seating of the two, ``games`` deals
    keyed from ``seed``, and rate the candidate with the previous generation at 0."""
    policies = (previous, candidate)
    tally = Tally(policies, players, games, measure_of(c.name for c in cardsim.games.spec(game).columns))
    for seats in seatings(policies, players):
        tally.add(seats, cardsim.simulate(game, rules, players=players, games=games, seed=seed, policy=list(seats)))
    row = tally.report().ratings.set_index("policy").loc[candidate]
    return Verdict(float(row.rating), float(row.lo), float(row.hi), games)
