"""What a finished game is worth to each seat, for agents: zero-sum, between -1 and 1.

A seat's outcome is 1 when it did well and 0 when it did not: in the shedding games (Moska,
Musta-Maija) every seat but the ``loser`` did well; in Uno the ``winner`` did; in Molotow the seats
of ``winners`` (a shared highest score shares it). A seat's return is its outcome less the table's
mean outcome, so the returns sum to 0: with 4 players a Moska loser gets -3/4, the others +1/4; a
Uno winner +3/4, the others -1/4. A truncated game, or one without a loser or winner, is worth 0 to
every seat.
"""
from __future__ import annotations

from typing import Mapping

SHEDDING = ("moska", "musta_maija")


def outcomes(game: str, record: Mapping, players: int) -> list[float]:
    """1 for each seat that did well in the finished game's ``record``, else 0 (all 0 when truncated)."""
    if record["truncated"]:
        return [0.0] * players
    if game in SHEDDING:
        loser = int(record["loser"])
        return [0.0] * players if loser < 0 else [float(s != loser) for s in range(players)]
    if game == "uno":
        winner = int(record["winner"])
        return [float(s == winner) for s in range(players)]
    winners = int(record["winners"])
    return [float(winners >> s & 1) for s in range(players)]


def returns(game: str, record: Mapping, players: int) -> list[float]:
    """Each seat's outcome less the mean outcome (zero-sum, in (-1, 1))."""
    won = outcomes(game, record, players)
    mean = sum(won) / players
    return [w - mean for w in won]
