"""Moska self-play policies, numpy twins of ``policies.py`` for the vector engine.

Each twin implements, on arrays of games, exactly the words of its scalar class's
docstring in ``policies.py`` (that docstring is the specification; it is not repeated
here) and draws the same keyed numbers, so both twins choose the same move. This file
does not decide what is legal: ``vector.py`` hands every method legal candidates only,
and computes the methods on every game of its arrays; the engine keeps the results of
the games that actually decide. Methods therefore accept any input (an empty mask
gives an empty move or ``-1``) without raising.

Mask helpers for ``uint64`` arrays that the scalar side spells with Python loops
(``ith_lowest``, ``n_lowest``, ``part``, the rank folds) live here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from cardsim.core import rng
from cardsim.core.cards import BIT, FRENCH52, np_bit_index, np_count, np_highest, np_lowest_bit
from cardsim.games.moska.policies import LOW_RANKS, GreedyPolicy, RandomPolicy, make_policy

RANKS = FRENCH52.n_ranks
SUITS = len(FRENCH52.suits)
ZERO = np.uint64(0)
ONE = np.uint64(1)
RANK_BITS = np.uint64((1 << RANKS) - 1)
RANK_MASK = np.array([FRENCH52.rank_mask(r) for r in range(RANKS)], dtype=np.uint64)
SUIT_MASK = np.array([FRENCH52.suit_mask(s) for s in range(SUITS)], dtype=np.uint64)
LOW_MASK = np.uint64(sum(FRENCH52.rank_mask(r) for r in range(LOW_RANKS + 1)))
LOW_RANK_BITS = np.uint64((1 << (LOW_RANKS + 1)) - 1)
ALL_CARDS = np.uint64(FRENCH52.full)
_CODES = np.arange(FRENCH52.size, dtype=np.uint64)
BELOW = np.append(BIT - ONE, ~ZERO)
"""``BELOW[p]``: the cards with a code below ``p`` (p = 0..64)."""


def ith_lowest(masks: np.ndarray, i: np.ndarray) -> np.ndarray:
    """Bit of the card of index ``i`` (from 0, ascending code) of each mask; 0 if there is none.

    Binary search for the largest ``p`` with at most ``i`` cards below card ``p``.
    """
    p = np.zeros(masks.shape, dtype=np.int64)
    for step in (32, 16, 8, 4, 2, 1):
        below = np.bitwise_count(masks & BELOW[p + step]).astype(np.int64)
        p = np.where(below <= i, p + step, p)
    return np.where(i < np_count(masks), BIT[p], ZERO)


def n_lowest(masks: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The ``n`` lowest-code cards of each mask (all of them if it has fewer)."""
    many = np.flatnonzero(np_count(masks) > n)
    if not many.size:
        return masks
    out = masks.copy()
    out[many] &= ith_lowest(masks[many], np.broadcast_to(n, masks.shape)[many]) - ONE
    return out


def part(masks: np.ndarray, rank_mask: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``part(X, r, m)``: the group of rank ``r`` if it has <= ``m`` cards, else its ``m`` lowest if ``m >= 2``."""
    group = masks & rank_mask
    size = np_count(group)
    out = np.where(size <= m, group, ZERO)
    cut = np.flatnonzero((size > m) & (m >= 2))
    if cut.size:
        out[cut] = n_lowest(group[cut], np.broadcast_to(m, group.shape)[cut])
    return out


def pair_ranks(masks: np.ndarray) -> np.ndarray:
    """Rank set of the ranks with at least two cards in the mask (pairwise ANDs of the suits)."""
    s = [masks >> np.uint64(RANKS * k) & RANK_BITS for k in range(SUITS)]
    return (s[0] & (s[1] | s[2] | s[3])) | (s[1] & (s[2] | s[3])) | (s[2] & s[3])


def rank_set(masks: np.ndarray) -> np.ndarray:
    """Bit ``r`` set when some card of rank ``r`` is in the mask."""
    r = masks | masks >> np.uint64(RANKS) | masks >> np.uint64(2 * RANKS) | masks >> np.uint64(3 * RANKS)
    return r & RANK_BITS


def rank_cards(ranks: np.ndarray) -> np.ndarray:
    """Every card (all four suits) of the ranks in a rank set."""
    return ranks | ranks << np.uint64(RANKS) | ranks << np.uint64(2 * RANKS) | ranks << np.uint64(3 * RANKS)


def index(bits: np.ndarray) -> np.ndarray:
    """Card code of single-bit masks, ``-1`` for 0."""
    return np_bit_index(bits)


def highest_bit(masks: np.ndarray) -> np.ndarray:
    top = np_highest(masks)
    return np.where(top >= 0, BIT[np.maximum(top, 0)], ZERO)


def _each_card(masks: np.ndarray) -> Iterator[np.ndarray]:
    """The cards of each mask as single bits, lowest first (0 once a mask is exhausted)."""
    rest = masks.copy()
    while rest.any():
        low = np_lowest_bit(rest)
        yield low
        rest ^= low


def _below(u: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``rng.below`` guarded against ``n = 0`` (games that do not decide)."""
    return rng.below(u, np.maximum(n, 1))


@dataclass
class Views:
    """What the deciding seat of each game sees (the arrays of ``policies.View``)."""

    key: np.ndarray
    turn: np.ndarray
    hand: np.ndarray
    trump: np.ndarray
    stock_left: np.ndarray
    room: np.ndarray
    _head: np.ndarray | None = field(default=None, repr=False)

    def head(self) -> np.ndarray:
        """``rng.mix(key, POLICY, turn)``: the prefix of every draw of the decision, hashed once."""
        if self._head is None:
            self._head = rng.mix(self.key, int(rng.Stream.POLICY), self.turn)
        return self._head

    def d(self, k) -> np.ndarray:
        """``rng.draw(key, POLICY, turn, k)``."""
        return rng.mix(self.head(), k)

    def d_of(self, ks: np.ndarray) -> np.ndarray:
        """``d(k)`` for an (n, m) array of ``k``: row ``i`` uses game ``i``'s decision."""
        return rng.mix(self.head()[:, None], ks)

    def d_all(self) -> np.ndarray:
        """``d(c)`` for every card code ``c``: an (n, 52) array."""
        return self.d_of(_CODES[None, :])

    def take(self, idx: np.ndarray) -> Views:
        """The views of the games at ``idx``."""
        return Views(*(getattr(self, f)[idx] for f in ("key", "turn", "hand", "trump", "stock_left", "room")))

    def plain(self, masks: np.ndarray) -> np.ndarray:
        """The non-trump cards of ``masks``."""
        return masks & ~SUIT_MASK[self.trump]

    def is_trump(self, cards: np.ndarray) -> np.ndarray:
        return cards // RANKS == self.trump


class RandomTwin:
    """numpy twin of ``policies.RandomPolicy`` (its docstring is the specification)."""

    DETERMINISTIC = False

    def open(self, v: Views) -> np.ndarray:
        groups = pair_ranks(v.hand)
        n_groups = np_count(groups)
        grouped = (n_groups > 0) & (v.room >= 2) & (v.d(0) & ONE == ZERO)
        d1 = v.d(1)
        first = ith_lowest(groups, _below(d1, n_groups))
        chosen = part(v.hand, rank_cards(first), v.room)
        more = np.flatnonzero(grouped & (n_groups >= 2))
        if more.size:
            chosen[more] = self._more_groups(v.take(more), groups[more] & ~first[more], chosen[more])
        single = ith_lowest(v.hand, _below(d1, np_count(v.hand)))
        return np.where(grouped, chosen, single)

    def _more_groups(self, v: Views, others: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """The other group ranks ascending, each joining the opening on a coin flip."""
        for r in range(RANKS):
            other = others >> np.uint64(r) & ONE == ONE
            if other.any():
                j = np.flatnonzero(other & (v.d(2 + r) & ONE == ZERO))
                chosen[j] |= part(v.hand[j], RANK_MASK[r], v.room[j] - np_count(chosen[j]))
        return chosen

    def kill(self, v: Views, attack: np.ndarray, killers: np.ndarray) -> np.ndarray:
        k = ith_lowest(killers, _below(v.d(64 + attack), np_count(killers)))
        return np.where(v.d(attack) & np.uint64(3) != ZERO, index(k), -1)

    def self_attack(self, v: Views, card: np.ndarray, killers: np.ndarray) -> np.ndarray:
        k = ith_lowest(killers, _below(v.d(192 + card), np_count(killers)))
        return np.where(v.d(128 + card) & ONE == ZERO, index(k), -1)

    def add(self, v: Views, cands: np.ndarray, room: np.ndarray) -> np.ndarray:
        cards = np.stack(list(_each_card(cands)), axis=1) if cands.any() else np.zeros((len(cands), 0), np.uint64)
        heads = (cards != ZERO) & (v.d_of(index(cards)) & ONE == ZERO)
        take = heads & (np.cumsum(heads, axis=1) <= room[:, None])  # while fewer than room are chosen
        return np.bitwise_or.reduce(np.where(take, cards, ZERO), axis=1)

    def give_back(self, v: Views, cards: np.ndarray, e: np.ndarray) -> np.ndarray:
        draws = v.d_all()
        member = (cards[:, None] >> _CODES[None, :]) & ONE == ONE
        codes = np.broadcast_to(np.arange(FRENCH52.size), draws.shape)
        order = np.lexsort((codes, draws, ~member), axis=-1)
        place = np.empty_like(order)
        np.put_along_axis(place, order, np.broadcast_to(np.arange(FRENCH52.size), order.shape), axis=-1)
        back = member & (place < e[:, None])
        return (back.astype(np.uint64) << _CODES[None, :]).sum(axis=1, dtype=np.uint64)


class GreedyTwin:
    """numpy twin of ``policies.GreedyPolicy`` (its docstring is the specification); no draws."""

    DETERMINISTIC = True

    def open(self, v: Views) -> np.ndarray:
        plain = v.plain(v.hand)
        chosen = rank_cards(pair_ranks(plain) & LOW_RANK_BITS) & plain  # every low group, when they fit
        tight = np.flatnonzero(np_count(chosen) > v.room)
        if tight.size:
            chosen[tight] = self._groups_within_room(plain[tight], v.room[tight])
        low_rank = index(np_lowest_bit(rank_set(plain)))
        cheapest = np_lowest_bit(plain & RANK_MASK[np.maximum(low_rank, 0)])
        single = np.where(plain != ZERO, cheapest, np_lowest_bit(v.hand))
        return np.where(chosen != ZERO, chosen, single)

    def _groups_within_room(self, plain: np.ndarray, room: np.ndarray) -> np.ndarray:
        """The low groups ascending, each cut by ``part`` to the room left."""
        chosen = np.zeros_like(plain)
        for r in range(LOW_RANKS + 1):
            group = plain & RANK_MASK[r]
            chosen |= np.where(np_count(group) >= 2, part(group, RANK_MASK[r], room - np_count(chosen)), ZERO)
        return chosen

    def kill(self, v: Views, attack: np.ndarray, killers: np.ndarray) -> np.ndarray:
        plain = v.plain(killers)
        k = index(np_lowest_bit(killers))
        keep = ~v.is_trump(attack) & (k % RANKS > LOW_RANKS) & (v.stock_left > 0)
        return np.where(plain != ZERO, index(np_lowest_bit(plain)), np.where(keep, -1, k))

    def self_attack(self, v: Views, card: np.ndarray, killers: np.ndarray) -> np.ndarray:
        plain = v.plain(killers)
        return np.where((plain != ZERO) & ~v.is_trump(card), index(np_lowest_bit(plain)), -1)

    def add(self, v: Views, cands: np.ndarray, room: np.ndarray) -> np.ndarray:
        plain = v.plain(cands) & np.where(v.stock_left > 0, LOW_MASK, ALL_CARDS)
        return n_lowest(plain, room)

    def give_back(self, v: Views, cards: np.ndarray, e: np.ndarray) -> np.ndarray:
        back = np.zeros_like(cards)
        left = cards.copy()
        e = e.copy()
        trumps = SUIT_MASK[v.trump]
        while True:
            more = (e > 0) & (left != ZERO)
            if not more.any():
                return back
            plain = left & ~trumps
            top_rank = np_highest(rank_set(plain))
            top_plain = highest_bit(plain & RANK_MASK[np.maximum(top_rank, 0)])
            pick = np.where(left & trumps != ZERO, highest_bit(left & trumps), top_plain)
            pick = np.where(more, pick, ZERO)
            back |= pick
            left &= ~pick
            e -= more


TWINS = {RandomPolicy: RandomTwin, GreedyPolicy: GreedyTwin}


def make_twin(text: str) -> RandomTwin | GreedyTwin:
    """The numpy twin of the policy named by ``text`` (validated by ``policies.make_policy``)."""
    return TWINS[type(make_policy(text))]()
