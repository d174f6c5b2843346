"""Musta-Maija's card layout: one 52-card deck, or two decks less one queen of spades.

Not a deck of its own: every card is a ``FRENCH52`` card plus a deck copy. The code of
a card is ``copy * 52 + FRENCH52 code`` (copy 0 or 1); a hand is an ``int`` with bit
``code`` set (reference engine) or two ``uint64`` words ``(lo, hi)``, one per copy
(compiled engine: ``lo`` bit c = code c, ``hi`` bit c = code 52 + c)::

    code  0..51   copy 0: ♣2..♣A ♦2..♦A ♥2..♥A ♠2..♠A   (the Black Maria ♠Q is code 49)
    code 52..103  copy 1: the same cards, but code 101 (a second ♠Q) never exists (MM-1)

Within one suit, "lower" means lower rank, then copy 0 before copy 1: ``order_key``.
"""
from __future__ import annotations

import numpy as np

from cardsim.core.cards import FRENCH52, cards_of, mask_of
from cardsim.core.jit import ONE, U, ZERO, lowest, njit, popcount

SUITS = 4
RANKS = FRENCH52.n_ranks
SPADES = FRENCH52.suits.index("♠")
DIAMONDS = FRENCH52.suits.index("♦")
QUEEN = FRENCH52.ranks.index("Q")
KING = FRENCH52.ranks.index("K")
JACK = FRENCH52.ranks.index("J")
BLACK_MARIA = FRENCH52.card(SPADES, QUEEN)
"""Code of the one queen of spades (copy 0): the Black Maria (MM-1)."""
ONE_DECK_MAX_PLAYERS = 5


def two_decks(players: int) -> bool:
    """MM-1: more than five players shuffle two decks together."""
    return players > ONE_DECK_MAX_PLAYERS


def card_list(players: int) -> list[int]:
    """The codes of the cards in play, in code order: 52, or 103 without a second ♠Q (MM-1)."""
    if not two_decks(players):
        return list(range(52))
    return list(range(52)) + [52 + c for c in range(52) if c != BLACK_MARIA]


def suit(card: int) -> int:
    return (card % 52) // RANKS


def rank(card: int) -> int:
    return card % RANKS


def copy(card: int) -> int:
    return card // 52


def order_key(card: int) -> tuple[int, int, int]:
    """Low to high: rank, then suit, then copy (within one suit: rank, then copy)."""
    return rank(card), suit(card), copy(card)


def cards(mask: int) -> list[int]:
    """The cards of a hand mask, lowest first by ``order_key``."""
    return sorted(cards_of(mask), key=order_key)


mask = mask_of
"""Hand mask from card codes (both copies: codes 0..103)."""


def suit_cards(hand: int, s: int) -> int:
    """The cards of suit ``s`` in a hand mask (both copies)."""
    one = FRENCH52.suit_mask(s)
    return hand & (one | one << 52)


def name(card: int) -> str:
    """``♥7``; a copy-1 card carries a prime: ``♥7'``."""
    return FRENCH52.name(card % 52) + ("'" if copy(card) else "")


def names(hand: int) -> str:
    return " ".join(name(c) for c in cards(hand)) or "-"


def parse(text: str) -> int:
    """Hand mask from names such as ``"♠Q ♥7 ♥7'"`` (a prime marks copy 1)."""
    return mask(FRENCH52.parse(t.rstrip("'")) + 52 * t.endswith("'") for t in text.split())


# --- the same layout as two uint64 words (compiled engine; numba) -------------------------
# A hand is (lo, hi), one word per copy. Within one suit a hand is "rank space": two 13-bit
# words (x0, x1), bit r = the card of rank r of copy 0 / copy 1.

M13 = np.uint64((1 << RANKS) - 1)
M52 = np.uint64((1 << 52) - 1)
MARIA = np.uint64(1 << BLACK_MARIA)
"""The Black Maria's bit in the ``lo`` word (it exists in copy 0 only, MM-1)."""
LOW_RANKS = np.uint64((1 << (JACK + 1)) - 1)
"""Ranks 2..J in rank space: the cards the greedy policy sheds."""


@njit(cache=True)
def code_at(i: int) -> int:
    """The code of the ``i``-th card of ``card_list`` (one deck: ``i``; two decks skip the second ♠Q)."""
    return i if i < 52 + BLACK_MARIA else i + 1


@njit(cache=True)
def card_words(code: int) -> tuple[np.uint64, np.uint64]:
    """One card as ``(lo, hi)``."""
    if code < 52:
        return ONE << U(code), ZERO
    return ZERO, ONE << U(code - 52)


@njit(cache=True)
def suit_of_code(code: int) -> int:
    return (code % 52) // RANKS


@njit(cache=True)
def count(lo: np.uint64, hi: np.uint64) -> int:
    """Cards in a hand."""
    return popcount(lo) + popcount(hi)


@njit(cache=True)
def suit_mask(s: int) -> np.uint64:
    """The 13 bits of suit ``s`` in either word; empty for ``s < 0`` (no trump)."""
    return M13 << U(RANKS * s) if s >= 0 else ZERO


@njit(cache=True)
def to_ranks(lo: np.uint64, hi: np.uint64, s: int) -> tuple[np.uint64, np.uint64]:
    """Rank space of suit ``s`` (``s >= 0``)."""
    shift = U(RANKS * s)
    return (lo >> shift) & M13, (hi >> shift) & M13


@njit(cache=True)
def from_ranks(x0: np.uint64, x1: np.uint64, s: int) -> tuple[np.uint64, np.uint64]:
    shift = U(RANKS * s)
    return x0 << shift, x1 << shift


@njit(cache=True)
def lowest_k(x0: np.uint64, x1: np.uint64, k: int) -> tuple[np.uint64, np.uint64]:
    """The ``k`` lowest cards (rank, then copy) of a rank-space hand; all of them if fewer."""
    out0, out1 = ZERO, ZERO
    for r in range(RANKS):
        b = ONE << U(r)
        if k > 0 and x0 & b:
            out0 |= b
            k -= 1
        if k > 0 and x1 & b:
            out1 |= b
            k -= 1
    return out0, out1


@njit(cache=True)
def lowest_in_suit(lo: np.uint64, hi: np.uint64, s: int, k: int) -> tuple[np.uint64, np.uint64]:
    """The ``k`` lowest cards of suit ``s`` in a hand (``lowest`` of the scalar policies)."""
    x0, x1 = to_ranks(lo, hi, s)
    if popcount(x0) + popcount(x1) <= k:  # all of them: every attack before the endgame (MM-13)
        return from_ranks(x0, x1, s)
    y0, y1 = lowest_k(x0, x1, k)
    return from_ranks(y0, y1, s)


@njit(cache=True)
def suit_of_hand(lo: np.uint64, hi: np.uint64) -> int:
    """The suit of a non-empty one-suit hand."""
    return lowest(lo) // RANKS if lo else lowest(hi) // RANKS
