"""Card codes and bitmask helpers shared by every game.

A hand is a set of distinct cards, stored as one integer (Python ``int`` in the
reference engines, ``uint64`` in the compiled engines) with bit ``c`` set when card
``c`` is held. A card code is ``suit * n_ranks + rank``; ranks count up from the
lowest. The two decks::

    52-card (Moska, Musta-Maija)           36-card Jass (Molotow)
    bit  0..12  ♣ 2 3 4 5 6 7 8 9 T J Q K A  bit  0..8   ♠ 6 7 8 9 10 U O K A
    bit 13..25  ♦ ...                        bit  9..17  ♥ ...
    bit 26..38  ♥ ...                        bit 18..26  ♦ ...
    bit 39..51  ♠ ...                        bit 27..35  ♣ ...

Suit order is only an encoding. Rank indices follow the plain order low→high; a
game with another order (Jass trumps) keeps its own rank table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np


@dataclass(frozen=True)
class Deck:
    """A deck of ``n_suits * len(ranks)`` distinct cards with bitmask helpers."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    letters: str

    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits)

    @property
    def full(self) -> int:
        return (1 << self.size) - 1

    def card(self, suit: int, rank: int) -> int:
        return suit * self.n_ranks + rank

    def suit(self, card: int) -> int:
        return card // self.n_ranks

    def rank(self, card: int) -> int:
        return card % self.n_ranks

    def suit_mask(self, suit: int) -> int:
        return ((1 << self.n_ranks) - 1) << (suit * self.n_ranks)

    def rank_mask(self, rank: int) -> int:
        return sum(1 << self.card(s, rank) for s in range(len(self.suits)))

    def name(self, card: int) -> str:
        return f"{self.suits[self.suit(card)]}{self.ranks[self.rank(card)]}"

    def names(self, mask: int) -> str:
        return " ".join(self.name(c) for c in cards_of(mask)) or "-"

    def parse(self, text: str) -> int:
        """Card code from its name, e.g. ``"♠6"`` or ``"S6"`` (suit symbol or letter, then rank)."""
        text = text.strip()
        head, tail = text[0], text[1:]
        if head in self.suits:
            s = self.suits.index(head)
        else:
            s = self.letters.index(head.upper())
        return self.card(s, self.ranks.index(tail.upper() if tail.upper() in self.ranks else tail))

    def hand(self, text: str) -> int:
        """Bitmask from space-separated card names, e.g. ``hand("♠6 ♦6")``."""
        return mask_of(self.parse(t) for t in text.split())


FRENCH52 = Deck(ranks=tuple("23456789TJQKA"), suits=tuple("♣♦♥♠"), letters="CDHS")
JASS36 = Deck(ranks=("6", "7", "8", "9", "10", "U", "O", "K", "A"), suits=tuple("♠♥♦♣"), letters="SHDC")


def cards_of(mask: int) -> Iterator[int]:
    """The card codes in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def count(mask: int) -> int:
    return int(mask).bit_count()


def lowest(mask: int) -> int:
    """Code of the lowest card in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return int(mask).bit_length() - 1


def np_count(masks: np.ndarray) -> np.ndarray:
    """Cards per mask for a ``uint64`` array."""
    return np.bitwise_count(masks).astype(np.int64)


def np_lowest_bit(masks: np.ndarray) -> np.ndarray:
    """``x & -x`` on ``uint64``: the lowest set bit (0 for an empty mask)."""
    return masks & (~masks + np.uint64(1))


def np_bit_index(bits: np.ndarray) -> np.ndarray:
    """Index of a single set bit (``-1`` for 0), exact for all 64 bits."""
    out = np.full(bits.shape, -1, dtype=np.int64)
    nz = bits != 0
    out[nz] = np.bitwise_count(bits[nz] - np.uint64(1)).astype(np.int64)
    return out


def np_lowest(masks: np.ndarray) -> np.ndarray:
    """Code of the lowest card of each mask (``-1`` when empty)."""
    return np_bit_index(np_lowest_bit(masks))


def np_highest(masks: np.ndarray) -> np.ndarray:
    """Code of the highest card of each mask (``-1`` when empty)."""
    m = masks.copy()
    for shift in (1, 2, 4, 8, 16, 32):
        m |= m >> np.uint64(shift)
    return np_count(m) - 1


BIT = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
"""``BIT[c]`` is the ``uint64`` mask of card ``c``."""
