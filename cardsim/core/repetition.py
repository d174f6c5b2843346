"""The repetition rule of the shedding games (M-23 Moska, MM-18 Musta-Maija), shared by both engines.

Once the stock is empty, cards only move between hands and the discard pile, and seats that
decide alike in alike positions (``greedy``, ``learned``) can pass the same cards round after
round for ever. Without this rule such a game runs to ``max_turns`` decisions (M-21, MM-16),
each one searched under ``mc``, and its record cannot tell a cycle from a slow game. With the
knob ``repetition``, a round that would begin, the stock empty, in a *position* one of the last
``WINDOW`` such rounds began in ends the game instead: no loser, recorded ``truncated`` with
fewer than ``max_turns`` decisions (``records.end_of`` names the three ends).

A position is what the rules carry from one round into the next: every hand and the attacker
(Musta-Maija: and the trump, which a marriage may still declare). With the stock empty and the
table clear the discard pile follows from the hands. What seats remember is not part of it.

The reference engines keep the positions themselves (``Positions``); the compiled engines keep a
64-bit fingerprint of each (``jit.fold`` over the same words) in a ring of ``WINDOW`` in the
game's state (``repeats``, ``remember``). Two different positions share a fingerprint with
probability 2^-64 per comparison: the engines agree unless that happens.
"""
from __future__ import annotations

from collections import deque
from typing import Hashable

import numpy as np

from cardsim.core.jit import njit

WINDOW = 64
"""How many earlier round beginnings (with the stock empty) a position is compared with. A cycle of
greedy play is a few rounds long; the bound keeps the compiled state a fixed size."""


class Positions:
    """The reference engines' memory of the last ``WINDOW`` positions."""

    def __init__(self) -> None:
        self.recent: deque[Hashable] = deque(maxlen=WINDOW)

    def recurs(self, position: Hashable) -> bool:
        """Whether ``position`` is one of the remembered ones; it is remembered if not."""
        if position in self.recent:
            return True
        self.recent.append(position)
        return False


@njit(cache=True)
def recurs(seen: np.ndarray, n_seen: int, fingerprint: np.uint64) -> bool:
    """Whether ``fingerprint`` is among the ring ``seen`` holding the last ``min(n_seen, WINDOW)`` ones."""
    for i in range(min(n_seen, WINDOW)):
        if seen[i] == fingerprint:
            return True
    return False


@njit(cache=True)
def remember(seen: np.ndarray, n_seen: int, fingerprint: np.uint64) -> int:
    """Put ``fingerprint`` in the ring (over the oldest once it is full); the new count."""
    seen[n_seen % WINDOW] = fingerprint
    return n_seen + 1
