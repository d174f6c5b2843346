"""Musta-Maija's features of a candidate decision for ``learned`` (docs/design.md#learned-players), in numba.

A candidate (``compiled.MOVE``: a declaration, the cards played, the attack cards beaten) is described by
masks the deciding seat computes from its **view**: ``spent``, the cards that leave its hand (an attack,
or a defence's beaters); ``picked``, the attack cards a defence leaves unbeaten (MM-12: picked up);
``left``, its hand after the decision (before any refill); ``others``, the cards it cannot place itself
(not in its hand, the discard or on the table: the other hands and the stock). Hands are two uint64 words
(cards.py). Every feature is an integer, so a score (the fixed-point weights of the block of the decision's
kind and stage, times the features) is exact integer arithmetic, alike in both engines.

The weights form ``BLOCKS`` blocks of ``WIDTH``: block ``kind * STAGES + stage`` for the decision kind (attack,
defence: ``compiled.ATTACK``, ``DEFENCE``) and the stage of the game (``stage``, the shedding games'
``core.learned.stock_stage``: MM-13's endgame draws near from ``LATE_STOCK`` cards). The engine sums a score
card by card (``card_gains``, ``head_scores``: every feature but four is a sum over cards) and writes no
features out (``describe`` does, for training and tests): a linear model's block has one head, its weights; a
network model's (``cardsim train --hidden``) has ``HEADS``, its linear weights and each rectified unit's, each
summed so and then rectified (``core.learned.from_heads``). Changing a feature changes ``VERSION``: a model file
names the version and features it was fitted on, and loads only where they match.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import learned
from cardsim.core.jit import ONE, U, ZERO, lowest, njit, popcount
from cardsim.core.learned import SCALE
from cardsim.core.learned import STOCK_STAGES as STAGE_NAMES
from cardsim.games.musta_maija.cards import (
    BLACK_MARIA, JACK, M13, MARIA, QUEEN, RANKS, SPADES, SUITS, count, suit_mask,
)

VERSION = 1
"""The feature set's version (a model file records it)."""
NAMES = (
    "greedy", "declare", "spent", "spent_trumps", "spent_high_plain", "spent_plain_ranks", "spent_maria",
    "picked", "picked_maria", "picked_trumps", "left", "left_trumps", "left_high_trumps", "left_low_plain",
    "left_plain_ranks", "left_suits", "left_maria", "out", "unbeatable", "beaters", "left_unbeatable",
)
"""The features of a candidate, in the order of a block of weights: whether it is ``greedy``'s decision;
whether it declares a trump (MM-5); of ``spent``: how many cards, trumps, non-trumps Q..A, the rank sum
(2 = 0 … A = 12) of its non-trumps, the Black Maria among them; of ``picked``: how many, the Black Maria,
trumps; of ``left``: how many, trumps, trumps Q..A, non-trumps 2..J, the rank sum of its non-trumps, the
suits it holds, the Black Maria; ``out``: the hand is empty after it; in an attack, ``unbeatable``: attack
cards no card of ``others`` beats (MM-8, MM-10), ``beaters``: the beaters among ``others`` summed over the
attack cards; ``left_unbeatable``: cards of ``left`` no card of ``others`` beats. The trump is the one
after the candidate's declaration (none yet: no card is a trump)."""
N = len(NAMES)
(GREEDY, DECLARE, SPENT, SPENT_TRUMPS, SPENT_HIGH_PLAIN, SPENT_PLAIN_RANKS, SPENT_MARIA, PICKED, PICKED_MARIA,
 PICKED_TRUMPS, LEFT, LEFT_TRUMPS, LEFT_HIGH_TRUMPS, LEFT_LOW_PLAIN, LEFT_PLAIN_RANKS, LEFT_SUITS, LEFT_MARIA, OUT,
 UNBEATABLE, BEATERS, LEFT_UNBEATABLE) = range(N)
"""Each feature's index in a block (``NAMES`` order)."""
KINDS = ("attack", "defence")
"""Decision kinds in the order of the engine's phases (``compiled.ATTACK``, ``DEFENCE``)."""
STAGES = len(STAGE_NAMES)
BLOCKS = len(KINDS) * STAGES
WIDTH = learned.width(N)
"""Numbers of a block: ``N`` linear weights and room for ``core.learned.HIDDEN`` rectified units."""
WEIGHTS = BLOCKS * WIDTH
"""Weights of a model: ``BLOCKS`` blocks of ``WIDTH``."""
HEADS = learned.HIDDEN + 1
"""A network block's heads (``core.learned.head``): its linear weights and each unit's."""
HIGH = JACK + 1
"""Ranks from here (Q, K, A) are high."""


def block_names() -> list[str]:
    """``kind/stage`` for every block, in order."""
    return [f"{k}/{s}" for k in KINDS for s in STAGE_NAMES]


@njit(cache=True, inline="always")
def rank_terms(weights: np.ndarray, base: int, is_trump: bool) -> tuple:
    """A card's terms in the score of the block ``weights[base:base + N]`` as far as its suit (the trump's or
    another, ``is_trump``) and rank decide them: as a card of ``left``, and its gain when spent less those; each
    a triple ``(a, b, c)`` that ``at_rank`` weighs. Once per decision and suit, not per card."""
    if is_trump:
        left = (weights[base + LEFT] + weights[base + LEFT_TRUMPS], weights[base + LEFT_HIGH_TRUMPS], 0)
        spent = (weights[base + SPENT] + weights[base + SPENT_TRUMPS], 0, 0)
    else:
        left = (weights[base + LEFT] + weights[base + LEFT_LOW_PLAIN], -weights[base + LEFT_LOW_PLAIN],
                weights[base + LEFT_PLAIN_RANKS])
        spent = (weights[base + SPENT], weights[base + SPENT_HIGH_PLAIN], weights[base + SPENT_PLAIN_RANKS])
    return left, (spent[0] - left[0], spent[1] - left[1], spent[2] - left[2])


@njit(cache=True, inline="always")
def at_rank(terms: tuple, r: int) -> int:
    """``rank_terms``'s ``(a, b, c)`` for a card of rank ``r`` (2 = 0 … A = 12): ``a + b * high + c * r``."""
    return terms[0] + terms[1] * (r >= HIGH) + terms[2] * r


@njit(cache=True)
def beaters(b: int, copy0: bool, trump: int, maria_trump: bool) -> np.uint64:
    """The cards (either word) that beat the card of bit ``b`` (MM-8, MM-10): higher ranks of its suit, the
    trumps when it is no trump; the Black Maria beats only as the highest trump (MM-3) and nothing beats it
    (MM-2). The Black Maria's bit is in the ``lo`` word alone: the caller masks it out of ``hi``."""
    if copy0 and ONE << U(b) == MARIA:
        return ZERO
    s = b // RANKS
    out = suit_mask(s) & ~((ONE << U(b + 1)) - ONE)
    if trump >= 0 and s != trump:
        out |= suit_mask(trump)
    out &= ~MARIA
    if maria_trump:
        out |= MARIA
    return out


@njit(cache=True)
def beaters_in(lo: np.uint64, hi: np.uint64, b: int, copy0: bool, trump: int, maria_trump: bool) -> int:
    """How many cards of the hand ``(lo, hi)`` beat the card of bit ``b``."""
    mask = beaters(b, copy0, trump, maria_trump)
    return popcount(lo & mask) + popcount(hi & mask & ~MARIA)


@njit(cache=True)
def tally(lo: np.uint64, hi: np.uint64, trump: int) -> tuple[int, int, int, int, int]:
    """Of a hand: its trumps, trumps Q..A, non-trumps Q..A, non-trumps 2..J, and the rank sum of its non-trumps."""
    trumps, high_trumps, high, low, ranks = 0, 0, 0, 0, 0
    for word in (lo, hi):
        rest = word
        while rest != ZERO:
            b = lowest(rest)
            rest &= rest - ONE
            r = b % RANKS
            if b // RANKS == trump:
                trumps += 1
                high_trumps += r >= HIGH
            else:
                high += r >= HIGH
                low += r < HIGH
                ranks += r
    return trumps, high_trumps, high, low, ranks


@njit(cache=True)
def prepare(beats: np.ndarray, lo: np.uint64, hi: np.uint64, o_lo: np.uint64, o_hi: np.uint64, trump: int,
            maria_trump: bool) -> tuple[np.uint64, np.uint64]:
    """Once per decision and trump: ``beats[code]``, how many cards of ``others`` (``o``) beat each card of
    ``(lo, hi)`` (the seat's hand and the table), and the mask of those no card of ``others`` beats."""
    u_lo, u_hi = ZERO, ZERO
    for copy in range(2):
        rest = lo if copy == 0 else hi
        while rest != ZERO:
            b = lowest(rest)
            rest &= rest - ONE
            k = beaters_in(o_lo, o_hi, b, copy == 0, trump, maria_trump)
            beats[b + 52 * copy] = k
            if k == 0:
                if copy == 0:
                    u_lo |= ONE << U(b)
                else:
                    u_hi |= ONE << U(b)
    return u_lo, u_hi


@njit(cache=True)
def describe(out: np.ndarray, greedy: bool, declares: bool, s_lo: np.uint64, s_hi: np.uint64, p_lo: np.uint64,
             p_hi: np.uint64, l_lo: np.uint64, l_hi: np.uint64, trump: int, attacking: bool, beats: np.ndarray,
             u_lo: np.uint64, u_hi: np.uint64, held: tuple[int, int, int, int, int]) -> None:
    """The features (``NAMES``) of one candidate into ``out[:N]`` (int64): ``s`` spent, ``p`` picked, ``l``
    left (the masks of the module docstring), ``trump`` after its declaration (-1: none); ``beats`` and ``u``:
    ``prepare``'s of the hand and the table under that trump; ``held``: ``tally`` of the hand under it. The
    tally of what is left is the hand's less the spent cards' plus the picked ones' (``l`` is the hand without
    ``s``, which it holds, with ``p``, which it does not): a hand's loop once per decision, not per candidate."""
    out[:] = 0
    out[0] = greedy
    out[1] = declares
    out[2] = count(s_lo, s_hi)
    trumps, high_trumps, high, low, ranks = tally(s_lo, s_hi, trump)
    out[3], out[4], out[5] = trumps, high, ranks
    out[6] = (s_lo & MARIA) != ZERO
    out[7] = count(p_lo, p_hi)
    out[8] = (p_lo & MARIA) != ZERO
    out[9] = count(p_lo & suit_mask(trump), p_hi & suit_mask(trump))
    out[10] = count(l_lo, l_hi)
    p_trumps, p_high_trumps, _, p_low, p_ranks = tally(p_lo, p_hi, trump)
    out[11] = held[0] - trumps + p_trumps
    out[12] = held[1] - high_trumps + p_high_trumps
    out[13] = held[3] - low + p_low
    out[14] = held[4] - ranks + p_ranks
    suits = l_lo | l_hi
    for s in range(SUITS):
        out[15] += (suits >> U(s * RANKS)) & M13 != ZERO
    out[16] = (l_lo & MARIA) != ZERO
    out[17] = out[10] == 0
    if attacking:
        out[18] = count(s_lo & u_lo, s_hi & u_hi)
        for copy in range(2):
            rest = s_lo if copy == 0 else s_hi
            while rest != ZERO:
                b = lowest(rest)
                rest &= rest - ONE
                out[19] += beats[b + 52 * copy]
    out[20] = count(l_lo & u_lo, l_hi & u_hi)


@njit(cache=True)
def by_suit(o_lo: np.uint64, o_hi: np.uint64, trump: int, maria_trump: bool) -> tuple[np.uint64, int, int]:
    """``others`` without the Black Maria, and how many of them beat any card of a trump suit (the Black Maria
    as the highest trump, MM-3) and of another suit (the trumps besides, MM-8)."""
    by_maria = 1 if maria_trump and o_lo & MARIA else 0
    o_lo &= ~MARIA
    return o_lo, by_maria, by_maria + count(o_lo & suit_mask(trump), o_hi & suit_mask(trump))


@njit(cache=True)
def beaters_above(o0: np.uint64, o1: np.uint64, b: np.uint64, by_others: int) -> int:
    """How many cards of ``others`` beat the card of rank bit ``b`` (``o0``, ``o1``: each copy's ranks of its
    suit, as ``beaters_in`` counts them): the higher ranks of its suit (MM-8), and ``by_others`` (``by_suit``)."""
    above = M13 & ~(b + b - ONE)
    return popcount(o0 & above) + popcount(o1 & above) + by_others


@njit(cache=True, inline="always")
def card_gains(gain: np.ndarray, kept: np.ndarray, weights: np.ndarray, block: int, heads: int, lo: np.uint64,
               hi: np.uint64, t_lo: np.uint64, t_hi: np.uint64, o_lo: np.uint64, o_hi: np.uint64, trump: int,
               maria_trump: bool, attacking: bool) -> None:
    """Once per decision and trump, the score of block ``block`` card by card, for its first ``heads`` heads
    (``core.learned.head``: 1, a linear block's weights; ``HEADS``, a network's linear weights and units), head
    ``j`` into ``gain[j]`` and ``kept[j]``: every feature but ``greedy``, ``declare``, ``left_suits`` and ``out``
    is a sum over cards (``left`` is the hand ``(lo, hi)`` less ``spent``, which it holds, with ``picked``, from
    the table ``t``), so a candidate's score under a head is those four (``head_scores``) plus the hand's score as
    ``left`` (``kept[j]``) plus ``gain[j, code]`` of each card it spends or picks up. Integer arithmetic: the same
    score as ``describe``'s features dotted with the head's weights, with a hand's loop per decision instead of
    the features of each candidate, and one loop for every head. A card's terms by suit and rank are
    ``rank_terms``'s; ``others`` (``o``) as in ``prepare``, a card's beaters counted as ``beaters_in`` counts
    them (higher cards of its suit, ``by_suit``'s), the Black Maria's terms (nothing beats it, MM-2) last."""
    o_lo, by_trump, by_plain = by_suit(o_lo, o_hi, trump, maria_trump)
    kept[:heads] = 0
    for s in range(SUITS):
        is_trump = s == trump
        by_others = by_trump if is_trump else by_plain
        o0, o1 = (o_lo >> U(s * RANKS)) & M13, (o_hi >> U(s * RANKS)) & M13
        for copy in range(2):
            held = ((lo & ~MARIA if copy == 0 else hi) >> U(s * RANKS)) & M13
            rest = held | (((t_lo & ~MARIA if copy == 0 else t_hi) >> U(s * RANKS)) & M13)
            while rest != ZERO:
                b = rest & (~rest + ONE)
                rest ^= b
                k, r = beaters_above(o0, o1, b, by_others), lowest(b)
                code = s * RANKS + r + 52 * copy
                for j in range(heads):
                    base = learned.head(block, N, j)
                    left_terms, gain_terms = rank_terms(weights, base, is_trump)
                    unbeatable = weights[base + LEFT_UNBEATABLE]
                    left = at_rank(left_terms, r) + unbeatable * (k == 0)
                    if held & b:
                        free = (weights[base + UNBEATABLE] if attacking else 0) - unbeatable
                        beaten = weights[base + BEATERS] if attacking else 0
                        kept[j] += left
                        gain[j, code] = at_rank(gain_terms, r) + free * (k == 0) + beaten * k
                    else:
                        gain[j, code] = weights[base + PICKED] + weights[base + PICKED_TRUMPS] * is_trump + left
    if (lo | t_lo) & MARIA:
        for j in range(heads):
            base = learned.head(block, N, j)
            left_terms, gain_terms = rank_terms(weights, base, SPADES == trump)
            unbeatable = weights[base + LEFT_UNBEATABLE]
            free = (weights[base + UNBEATABLE] if attacking else 0) - unbeatable
            left = at_rank(left_terms, QUEEN) + unbeatable + weights[base + LEFT_MARIA]
            if lo & MARIA:
                kept[j] += left
                gain[j, BLACK_MARIA] = (at_rank(gain_terms, QUEEN) + free + weights[base + SPENT_MARIA]
                                        - weights[base + LEFT_MARIA])
            else:
                gain[j, BLACK_MARIA] = (weights[base + PICKED] + weights[base + PICKED_TRUMPS] * (SPADES == trump)
                                        + weights[base + PICKED_MARIA] + left)


@njit(cache=True, inline="always")
def head_scores(dots: np.ndarray, weights: np.ndarray, block: int, heads: int, gain: np.ndarray, kept: np.ndarray,
                greedy: bool, declares: bool, s_lo: np.uint64, s_hi: np.uint64, p_lo: np.uint64, p_hi: np.uint64,
                lo: np.uint64, hi: np.uint64) -> None:
    """The score of a candidate (``describe``'s ``s`` spent, ``p`` picked; the hand ``(lo, hi)``) under each of the
    first ``heads`` heads of block ``block`` (as ``card_gains``: 1 for a linear block) into ``dots``, from their
    ``card_gains`` (``gain[j]``, ``kept[j]``): the four features that are no sum over cards (``greedy``,
    ``declare``, ``left_suits``, ``out``) and the gains of the cards it spends or picks up, counted once for all
    heads. Inlined: called per candidate, it left a network's self-play about 9% slower (2026-12-06)."""
    l_lo, l_hi = (lo & ~s_lo) | p_lo, (hi & ~s_hi) | p_hi
    suits = l_lo | l_hi
    held = 0
    for s in range(SUITS):
        held += (suits >> U(s * RANKS)) & M13 != ZERO
    out = l_lo | l_hi == ZERO
    for j in range(heads):
        base = learned.head(block, N, j)
        dots[j] = (kept[j] + weights[base + GREEDY] * greedy + weights[base + DECLARE] * declares
                   + weights[base + LEFT_SUITS] * held + weights[base + OUT] * out)
    for copy in range(2):
        rest = (s_lo | p_lo) if copy == 0 else (s_hi | p_hi)
        while rest != ZERO:
            code = lowest(rest) + 52 * copy
            rest &= rest - ONE
            for j in range(heads):
                dots[j] += gain[j, code]


@njit(cache=True)
def gain_of(gain: np.ndarray, lo: np.uint64, hi: np.uint64) -> int:
    """The ``gain`` (``card_gains``) of the cards ``(lo, hi)``, summed."""
    total = 0
    for copy in range(2):
        rest = lo if copy == 0 else hi
        while rest != ZERO:
            total += gain[lowest(rest) + 52 * copy]
            rest &= rest - ONE
    return total
