"""Moska's masks by rank over the 52-card bitmask (``core/cards.py`` draws the layout: card ``13 * suit +
rank``), shared by the compiled policies and the learned features, built once at import."""
from __future__ import annotations

import numpy as np

from cardsim.core.cards import FRENCH52
from cardsim.core.jit import njit

RANKS = FRENCH52.n_ranks
RANK_BITS = np.uint64((1 << RANKS) - 1)
RANK_MASK = np.array([FRENCH52.rank_mask(r) for r in range(RANKS)], dtype=np.uint64)
SUIT_MASK = np.array([FRENCH52.suit_mask(s) for s in range(4)], dtype=np.uint64)
_R1, _R2, _R3 = np.uint64(RANKS), np.uint64(2 * RANKS), np.uint64(3 * RANKS)


@njit(cache=True)
def rank_set(mask: np.uint64) -> np.uint64:
    """Bit ``r`` set when some card of rank ``r`` is in the mask."""
    return (mask | mask >> _R1 | mask >> _R2 | mask >> _R3) & RANK_BITS


@njit(cache=True)
def rank_cards(ranks: np.uint64) -> np.uint64:
    """Every card (all four suits) of the ranks in a rank set."""
    return ranks | ranks << _R1 | ranks << _R2 | ranks << _R3


@njit(cache=True)
def pair_ranks(mask: np.uint64) -> np.uint64:
    """Rank set of the ranks with at least two cards in the mask."""
    s0, s1 = mask & RANK_BITS, mask >> _R1 & RANK_BITS
    s2, s3 = mask >> _R2 & RANK_BITS, mask >> _R3 & RANK_BITS
    return (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
