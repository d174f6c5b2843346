"""Option value (restricted play, Jaffe et al. 2012): what an optional action is worth to a skilled seat.

For an option o (``GameSpec.options``), seat r plays ``policy(forbid=o)`` among ``policy`` in every
other seat, for every r, on the same deals as self-play. Game i, seat r: the restricted seat's
outcome against the unrestricted seat r of self-play game i. The **option value** is the mean
over games of the mean over seats of ``[restricted seat loses] - [free seat loses]`` (for a game
with a winner: ``[free seat wins] - [restricted seat wins]``): positive when the option helps
its holder, 0 when it cannot matter. The seats of one deal are averaged first, so the Student
t 95% interval is over deals (the seats of a deal are not independent); ``p`` from it
(``multiplicity.p_value``), null 0.
"""
from __future__ import annotations

import numpy as np

from cardsim.profile.rows import row
from cardsim.study.report.multiplicity import p_value
from cardsim.study.report.stats import paired_mean

FAMILY = "option"


def figures(variant: str, players: int, policy: str, option: str, outcome: str, free: np.ndarray,
            restricted: list[np.ndarray]) -> list[dict]:
    """The option row: ``free`` the self-play outcome seats, ``restricted[r]`` those with seat r restricted
    (both games 0 .. n - 1)."""
    d = np.mean([(o == r).astype(float) - (free == r) for r, o in enumerate(restricted)], axis=0)
    if outcome != "loser":
        d = -d
    mean, lo, hi = paired_mean(d)
    p = float(p_value(mean, lo, hi, len(d)))
    verb = "loses" if outcome == "loser" else "wins"
    return [row(variant, players, FAMILY, f"option_value_{option}", f"{policy} vs {policy} forbidden {option}",
                mean, lo, hi, len(d), 0.0, p,
                f"change in how often the seat {verb}, forbidden {option}, paired over {len(d):,} deals x "
                f"{players} seats")]
