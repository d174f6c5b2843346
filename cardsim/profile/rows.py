"""One row of a profile table: a figure of one variant at one player count, with its interval.

Every measure module returns rows made by ``row``; ``table.correct`` then adds the corrections
for many comparisons. A figure with a null value (``null``: what it is when the rule or the
player makes no difference) carries the two-sided ``p`` of its test; a descriptive figure
(a length, a share) has ``null`` and ``p`` NaN and is no member of a family.
"""
from __future__ import annotations

import numpy as np

COLUMNS = ("variant", "players", "family", "measure", "policy", "estimate", "lo", "hi", "games", "null", "p", "note")
"""A row's fields before correction, in the table's order."""


def row(variant: str, players: int, family: str, measure: str, policy: str, estimate: float, lo: float, hi: float,
        games: int, null: float = np.nan, p: float = np.nan, note: str = "") -> dict:
    """A figure: ``measure`` of ``family``, ``policy`` the player (or seating) it rests on, ``games`` its n."""
    return dict(zip(COLUMNS, (variant, int(players), family, measure, policy, float(estimate), float(lo), float(hi),
                              int(games), float(null), float(p), note)))


def outcome_values(outcome: np.ndarray, players: int) -> np.ndarray:
    """(games x seats): 1.0 where the seat is the game's outcome seat (loser, winner), else 0.0."""
    return (np.asarray(outcome)[:, None] == np.arange(players)).astype(float)
