"""Molotow card facts (MJ-1…MJ-4, MJ-12) and the tables the compiled engine reads.

Cards are ``JASS36`` codes (``suit * 9 + rank``, ranks ``6 7 8 9 10 U O K A`` low→high,
the plain order of MJ-2). A trump state ``t`` is a suit 0..3, or ``NO_TRUMP`` (4)
before the first off-suit card of a hand (MJ-8). This file knows what cards are
worth and which card beats which; it knows nothing of whose turn it is.

Layout of the numpy tables (built once, at import)::

    POINTS[t, card]         points of a card under trump state t (MJ-2, MJ-3, MJ-4)
    PATTERN_POINTS[k, m]    points of one suit's cards with the 9-bit rank pattern m, k 0
                            plain, 1 trump, 2 trumpless (a hand's points: 4 lookups a seat)
    SUIT_OF[card]           the card's suit
    BEATS[card, t]          uint64 mask of the cards that beat ``card`` (MJ-12) when it
                            is the trick's current best card
    SUIT_MASK[s], BUUR[t]   masks; both are 0 for NO_TRUMP

``mask_points`` (compiled) reads a set of cards' points from ``PATTERN_POINTS``.
"""
from __future__ import annotations

import numpy as np

from cardsim.core.cards import JASS36
from cardsim.core.jit import U, njit

DECK = JASS36
N_CARDS = 36
N_RANKS = 9
N_SUITS = 4
NO_TRUMP = 4
"""Trump state of a hand before trump is set (MJ-8)."""
UNDER = 5
"""Rank index of the Under; the trump Under is the Buur (MJ-3, MJ-11)."""

#                   6  7  8   9  10  U  O  K   A
PLAIN_POINTS = (0, 0, 0, 0, 10, 2, 3, 4, 11)       # MJ-2
TRUMP_POINTS = (0, 0, 0, 14, 10, 20, 3, 4, 11)     # MJ-3
TRUMPLESS_POINTS = (0, 0, 8, 0, 10, 2, 3, 4, 11)   # MJ-4: no trump set, every 8 is worth 8
TRUMP_POWER = (0, 1, 2, 7, 3, 8, 4, 5, 6)          # MJ-3: U 9 A K O 10 8 7 6, high→low
CARD_POINTS = 152
"""Card points of a hand without the last-trick bonus, under any trump state (MJ-4)."""


suit = DECK.suit
rank = DECK.rank


def points(card: int, trump: int) -> int:
    """Points of ``card`` when ``trump`` is the hand's final trump state (MJ-2…MJ-4)."""
    if trump == NO_TRUMP:
        return TRUMPLESS_POINTS[rank(card)]
    return TRUMP_POINTS[rank(card)] if suit(card) == trump else PLAIN_POINTS[rank(card)]


def is_trump(card: int, trump: int) -> bool:
    return suit(card) == trump


def beats(card: int, best: int, trump: int) -> bool:
    """MJ-12: does ``card`` take the trick from ``best``, its best card so far?

    ``best`` is a trump or of the led suit: a trump beats every plain card and lower
    trumps (trump order, MJ-3); a plain card beats only a lower card of its own suit.
    """
    if is_trump(card, trump):
        return not is_trump(best, trump) or TRUMP_POWER[rank(card)] > TRUMP_POWER[rank(best)]
    return suit(card) == suit(best) and not is_trump(best, trump) and rank(card) > rank(best)


def suit_mask(s: int) -> int:
    return DECK.suit_mask(s) if s != NO_TRUMP else 0


def buur(trump: int) -> int:
    """Mask of the trump Under (MJ-11); 0 while no trump is set."""
    return 1 << DECK.card(trump, UNDER) if trump != NO_TRUMP else 0


def _make_pattern_points() -> np.ndarray:
    """``PATTERN_POINTS[kind, m]``: points of one suit's cards whose ranks are the 9-bit pattern m,
    kind 0 plain (MJ-2), 1 trump (MJ-3), 2 trumpless (MJ-4)."""
    values = (PLAIN_POINTS, TRUMP_POINTS, TRUMPLESS_POINTS)
    return np.array([[sum(v[r] for r in range(N_RANKS) if m >> r & 1) for m in range(1 << N_RANKS)]
                     for v in values], dtype=np.int64)


def _make_points() -> np.ndarray:
    return np.array([[points(c, t) for c in range(N_CARDS)] for t in range(NO_TRUMP + 1)], dtype=np.int64)


def _make_beats() -> np.ndarray:
    table = np.zeros((N_CARDS, NO_TRUMP + 1), dtype=np.uint64)
    for best in range(N_CARDS):
        for t in range(NO_TRUMP + 1):
            table[best, t] = sum(1 << c for c in range(N_CARDS) if beats(c, best, t))
    return table


POINTS = _make_points()
PATTERN_POINTS = _make_pattern_points()
SUIT_OF = np.arange(N_CARDS, dtype=np.int64) // N_RANKS
BEATS = _make_beats()
SUIT_MASK = np.array([suit_mask(s) for s in range(NO_TRUMP + 1)], dtype=np.uint64)
BUUR = np.array([buur(t) for t in range(NO_TRUMP + 1)], dtype=np.uint64)
_SUIT_BITS = np.uint64((1 << N_RANKS) - 1)


@njit(cache=True, inline="always")
def mask_points(mask: np.uint64, trump: int) -> int:
    """MJ-2…MJ-4: points of the cards of ``mask`` under the trump state ``trump``, one table lookup per suit."""
    total = 0
    for x in range(N_SUITS):
        kind = 2 if trump == NO_TRUMP else (1 if x == trump else 0)
        total += PATTERN_POINTS[kind, np.int64((mask >> U(N_RANKS * x)) & _SUIT_BITS)]
    return total
