"""Molotow card facts (MJ-1…MJ-4, MJ-12) and the tables both engines read.

Cards are ``JASS36`` codes (``suit * 9 + rank``, ranks ``6 7 8 9 10 U O K A`` low→high,
the plain order of MJ-2). A trump state ``t`` is a suit 0..3, or ``NO_TRUMP`` (4)
before the first off-suit card of a hand (MJ-8). This file knows what cards are
worth and which card beats which; it knows nothing of whose turn it is.

Layout of the numpy tables (built once, at import)::

    POINTS[t, card]         points of a card under trump state t (MJ-2, MJ-3, MJ-4)
    BEATS[card, t]          uint64 mask of the cards that beat ``card`` when it leads a
                            trick (MJ-12); ``card`` is the trick's current best card
    SUIT_MASK[s], TRUMP_MASK[t], BUUR[t]   masks; TRUMP_MASK/BUUR are 0 for NO_TRUMP
    POINT_BYTES[t, k, v]    points of the cards of byte k (bits 8k..8k+7) with value v
"""
from __future__ import annotations

import numpy as np

from cardsim.core.cards import JASS36, cards_of

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


def mask_points(mask: int, trump: int) -> int:
    return sum(points(c, trump) for c in cards_of(mask))


def _make_points() -> np.ndarray:
    return np.array([[points(c, t) for c in range(N_CARDS)] for t in range(NO_TRUMP + 1)], dtype=np.int64)


def _make_beats() -> np.ndarray:
    table = np.zeros((N_CARDS, NO_TRUMP + 1), dtype=np.uint64)
    for best in range(N_CARDS):
        for t in range(NO_TRUMP + 1):
            table[best, t] = sum(1 << c for c in range(N_CARDS) if beats(c, best, t))
    return table


def byte_tables(value_of_card: np.ndarray) -> np.ndarray:
    """``out[..., k, v]`` = sum of ``value_of_card[..., c]`` over the set bits c = 8k+i of v."""
    lead = value_of_card.shape[:-1]
    padded = np.zeros(lead + (40,), dtype=value_of_card.dtype)
    padded[..., :N_CARDS] = value_of_card
    bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1            # (256, 8)
    return np.einsum("...ki,vi->...kv", padded.reshape(lead + (5, 8)), bits.astype(value_of_card.dtype))


POINTS = _make_points()
BEATS = _make_beats()
SUIT_MASK = np.array([suit_mask(s) for s in range(NO_TRUMP + 1)], dtype=np.uint64)
TRUMP_MASK = SUIT_MASK
BUUR = np.array([buur(t) for t in range(NO_TRUMP + 1)], dtype=np.uint64)
POINT_BYTES = byte_tables(POINTS)
BYTES = np.arange(5, dtype=np.uint64) * np.uint64(8)


def np_byte_lookups(masks: np.ndarray, table: np.ndarray, t: np.ndarray) -> list[np.ndarray]:
    """``table[t, k, byte k of mask]`` for the five bytes k of each mask (one flat gather each)."""
    flat = table.reshape(-1)
    base = t * (5 * 256)
    return [flat[base + (k * 256 + ((masks >> BYTES[k]) & np.uint64(255)).astype(np.intp))] for k in range(5)]


def np_mask_sum(masks: np.ndarray, table: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per game, the sum over the cards of ``masks`` of a byte table ``table[t, k, v]``."""
    a, b, c, d, e = np_byte_lookups(masks, table, t)
    return a + b + c + d + e
