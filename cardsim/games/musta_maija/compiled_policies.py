"""The numba twins of Musta-Maija's policies (``policies.py`` specifies them in words; the
scalar versions there serve the reference engine). Same decisions, same keyed draws
``u_k = jit.draw(key, POLICY, turn, k)``, hands as two uint64 words (cards.py).

Each function sees what the deciding seat may see (MM-15): its own hand, the table, the
trump, whether the stock is empty, the defender's hand size (the endgame cap, MM-13)
and whether the duty to beat binds it (MM-10). They allocate nothing.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit, models
from cardsim.core.jit import ONE, U, ZERO, below, ith_lowest, njit, popcount
from cardsim.core.search import MonteCarlo
from cardsim.games.musta_maija.cards import (
    KING, LOW_RANKS, M52, MARIA, QUEEN, RANKS, SPADES, SUITS, count, from_ranks, lowest_in_suit, suit_mask,
    suit_of_hand, to_ranks,
)
from cardsim.games.musta_maija import learned_features as features
from cardsim.games.musta_maija.learned import load_model
from cardsim.games.musta_maija.policies import parse

RANDOM, GREEDY, MC, LEARNED = 0, 1, 2, 3
CODES = {"random": RANDOM, "greedy": GREEDY, "mc": MC, "oracle": MC, "learned": LEARNED}
CODE, DETERMINIZATIONS, BASE, SEES, FORBID, WEIGHTS = range(6)
"""Columns of a seat's row of the policy table: its policy's code; for ``mc`` (and ``oracle``) its worlds per
decision, its base policy's code and whether its worlds are the true state; the ``forbid`` bits
(``policies.DECLARE``); from ``WEIGHTS`` on the fixed-point weights of the row's ``learned`` policy, or of
its search's ``learned`` base (``learned_features.WEIGHTS`` of them)."""
NO_CAP = -1
"""``cap`` outside the endgame (MM-13)."""
LOW = np.uint64(sum(int(LOW_RANKS) << (s * RANKS) for s in range(SUITS)))
"""Ranks 2..J of every suit, in either word."""


def table(seats: tuple[str, ...]) -> np.ndarray:
    """The policy table of policy strings (validated by ``policies.parse``, their models by ``learned.load_model``):
    one int64 row per seat."""
    rows = np.zeros((len(seats), WEIGHTS + features.WEIGHTS), dtype=np.int64)
    for seat, text in enumerate(seats):
        name, param, forbid = parse(text)
        row = rows[seat]
        row[CODE], row[FORBID] = CODES[name], forbid
        if isinstance(param, MonteCarlo):
            row[DETERMINIZATIONS], row[SEES] = param.determinizations, param.sees_all
            base_name, param = parse(param.base)[:2]
            row[BASE] = CODES[base_name]
        if isinstance(param, models.Learned):
            row[WEIGHTS:] = load_model(param.model).fixed_point(features.SCALE)
    return rows


@njit(cache=True)
def _u(key: np.uint64, turn: int, k: int) -> np.uint64:
    return jit.draw(key, jit.POLICY, turn, k)


@njit(cache=True)
def _nth_suit(lo: np.uint64, hi: np.uint64, j: int) -> int:
    """The ``j``-th (from 0) suit that holds cards, in suit order."""
    for s in range(SUITS):
        if (lo | hi) & suit_mask(s):
            if j == 0:
                return s
            j -= 1
    return -1


@njit(cache=True)
def _suits_held(lo: np.uint64, hi: np.uint64) -> int:
    n = 0
    for s in range(SUITS):
        n += ((lo | hi) & suit_mask(s)) != ZERO
    return n


@njit(cache=True)
def _random_suit(lo: np.uint64, hi: np.uint64, u: np.uint64) -> int:
    """``held[below(u, len(held))]``: a suit uniformly among the suits held."""
    return _nth_suit(lo, hi, below(u, _suits_held(lo, hi)))


@njit(cache=True)
def marriage_options(lo: np.uint64, hi: np.uint64) -> int:
    """MM-5: bitmask of the suits (never spades) whose king and queen the hand holds, either copy."""
    both, options = lo | hi, 0
    for s in range(SUITS):
        if s != SPADES and (both >> U(s * RANKS + KING)) & ONE and (both >> U(s * RANKS + QUEEN)) & ONE:
            options |= 1 << s
    return options


@njit(cache=True)
def declaration(policy: int, lo: np.uint64, hi: np.uint64, options: int, key: np.uint64, turn: int) -> int:
    """``policies.declaration``: the suit to declare trump (MM-5), or -1; ``options`` a suit bitmask."""
    n = popcount(U(options))
    if n == 0:
        return -1
    if policy == RANDOM:
        j = below(_u(key, turn, 0), 1 + n)
        return ith_lowest(U(options), j - 1) if j else -1
    best, most = -1, -1
    for s in range(SUITS):
        if options >> s & 1 and count(lo & suit_mask(s), hi & suit_mask(s)) > most:
            best, most = s, count(lo & suit_mask(s), hi & suit_mask(s))
    return best


@njit(cache=True)
def _lowest_card(lo: np.uint64, hi: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The lowest card by rank, then suit, then copy."""
    for r in range(RANKS):
        for s in range(SUITS):
            b = ONE << U(s * RANKS + r)
            if lo & b:
                return b, ZERO
            if hi & b:
                return ZERO, b
    return ZERO, ZERO


@njit(cache=True)
def attack(policy: int, lo: np.uint64, hi: np.uint64, trump: int, cap: int, key: np.uint64,
           turn: int) -> tuple[np.uint64, np.uint64]:
    """``policies.attack``: the attack cards (one suit, MM-9); ``cap`` the defender's hand size in the
    endgame (MM-13), ``NO_CAP`` before it."""
    u1 = _u(key, turn, 1)
    if policy == RANDOM:
        s = _random_suit(lo, hi, u1)
        own_lo, own_hi = lo & suit_mask(s), hi & suit_mask(s)
        p_lo, p_hi = own_lo & _u(key, turn, 2) & M52, own_hi & _u(key, turn, 3) & M52
        if p_lo | p_hi == ZERO:
            p_lo, p_hi = lowest_in_suit(own_lo, own_hi, s, 1)
        return lowest_in_suit(p_lo, p_hi, s, cap) if cap != NO_CAP else (p_lo, p_hi)
    if cap != NO_CAP and lo & MARIA:
        sp_lo, sp_hi = lowest_in_suit(lo & ~MARIA, hi, SPADES, cap - 1)
        return sp_lo | MARIA, sp_hi
    if cap != NO_CAP:
        return lowest_in_suit(lo, hi, _random_suit(lo, hi, u1), cap)
    keep = LOW & ~suit_mask(trump)
    low_lo, low_hi = lo & keep, hi & keep
    if low_lo | low_hi == ZERO:
        rest_lo = lo & ~MARIA
        if rest_lo | hi == ZERO:
            rest_lo = lo
        return _lowest_card(rest_lo, hi)
    s = _random_suit(low_lo, low_hi, u1)
    return low_lo & suit_mask(s), low_hi & suit_mask(s)


@njit(cache=True)
def beat_with(t_lo: np.uint64, t_hi: np.uint64, w_lo: np.uint64, w_hi: np.uint64, trump: int,
              maria_trump: bool) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """``policies.beat_with`` (the defence procedure): (beaters lo, hi, beaten lo, hi).

    ``q`` holds the attack cards waiting to be beaten (rank space), lowest taken first.
    """
    if w_lo | w_hi == ZERO:  # nothing to beat with
        return ZERO, ZERO, ZERO, ZERO
    s = suit_of_hand(t_lo, t_hi)
    a0, a1 = to_ranks(t_lo & ~MARIA, t_hi, s)
    d0, d1 = to_ranks(w_lo & ~MARIA, w_hi, s)
    q0, q1, x0, x1, b0, b1 = ZERO, ZERO, ZERO, ZERO, ZERO, ZERO
    ranks = a0 | a1 | d0 | d1
    while ranks:  # the ranks present, low to high: beaters first, then this rank's attack cards wait
        b = ranks & (~ranks + ONE)
        ranks ^= b
        if d0 & b and q0 | q1:
            q0, q1, x0, x1 = _beat_lowest(q0, q1, x0, x1)
            b0 |= b
        if d1 & b and q0 | q1:
            q0, q1, x0, x1 = _beat_lowest(q0, q1, x0, x1)
            b1 |= b
        q0 |= a0 & b
        q1 |= a1 & b
    beat_lo, beat_hi = from_ranks(b0, b1, s)
    if 0 <= trump != s:  # MM-8: the willing trumps, lowest first
        tr0, tr1 = to_ranks(w_lo, w_hi, trump)
        t0, t1 = ZERO, ZERO
        ranks = tr0 | tr1
        while ranks and q0 | q1:
            b = ranks & (~ranks + ONE)
            ranks ^= b
            if tr0 & b:
                q0, q1, x0, x1 = _beat_lowest(q0, q1, x0, x1)
                t0 |= b
            if tr1 & b and q0 | q1:
                q0, q1, x0, x1 = _beat_lowest(q0, q1, x0, x1)
                t1 |= b
        more_lo, more_hi = from_ranks(t0, t1, trump)
        beat_lo, beat_hi = beat_lo | more_lo, beat_hi | more_hi
    if maria_trump and w_lo & MARIA and q0 | q1:  # MM-3
        q0, q1, x0, x1 = _beat_lowest(q0, q1, x0, x1)
        beat_lo |= MARIA
    beaten_lo, beaten_hi = from_ranks(x0, x1, s)
    return beat_lo, beat_hi, beaten_lo, beaten_hi


@njit(cache=True)
def _beat_lowest(q0: np.uint64, q1: np.uint64, x0: np.uint64,
                 x1: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Move the lowest waiting attack card (rank, then copy) from ``q`` to the beaten ``x``."""
    both = q0 | q1
    low = both & (~both + ONE)
    if q0 & low:
        return q0 ^ low, q1, x0 | low, x1
    return q0, q1 ^ low, x0, x1 | low


@njit(cache=True)
def defence(policy: int, lo: np.uint64, hi: np.uint64, t_lo: np.uint64, t_hi: np.uint64, trump: int,
            maria_trump: bool, endgame: bool, must: bool, key: np.uint64,
            turn: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """``policies.defence``: (beaters lo, hi, beaten lo, hi); ``must``: the duty to beat binds (MM-10)."""
    if policy == RANDOM:
        move = beat_with(t_lo, t_hi, lo & _u(key, turn, 1) & M52, hi & _u(key, turn, 2) & M52, trump, maria_trump)
        if must and (move[2] != t_lo or move[3] != t_hi):
            return beat_with(t_lo, t_hi, lo, hi, trump, maria_trump)
        return move
    full = beat_with(t_lo, t_hi, lo if maria_trump else lo & ~MARIA, hi, trump, maria_trump)
    if endgame or (full[2] == t_lo and full[3] == t_hi):
        return full
    keep = LOW & ~suit_mask(trump)
    return beat_with(t_lo, t_hi, lo & keep, hi & keep, trump, maria_trump)


# --- mc's candidate decisions (policies.py) ---------------------------------------------------------

@njit(cache=True)
def same_move(o: np.void, declare: int, c_lo: np.uint64, c_hi: np.uint64, x_lo: np.uint64, x_hi: np.uint64) -> bool:
    """Whether the ``MOVE`` record ``o`` is this decision."""
    return (o.declare == declare and o.cards[0] == c_lo and o.cards[1] == c_hi and o.beaten[0] == x_lo
            and o.beaten[1] == x_hi)


@njit(cache=True)
def add_candidate(out: np.ndarray, m: int, first: int, last: int, declare: int, c_lo: np.uint64, c_hi: np.uint64,
                  x_lo: np.uint64, x_hi: np.uint64) -> int:
    """Append a decision (``MOVE`` fields) to ``out[:m]`` unless it is there already; the new count. Only
    ``out[0]`` (greedy's) and ``out[first:last]`` are compared: the callers know the others to differ from it
    (by their declaration, suit or cards)."""
    if m and same_move(out[0], declare, c_lo, c_hi, x_lo, x_hi):
        return m
    for i in range(max(first, 1), last):
        if same_move(out[i], declare, c_lo, c_hi, x_lo, x_hi):
            return m
    o = out[m]
    o.declare, o.cards[0], o.cards[1], o.beaten[0], o.beaten[1] = declare, c_lo, c_hi, x_lo, x_hi
    return m + 1


@njit(cache=True)
def attack_candidates(out: np.ndarray, m: int, declare: int, lo: np.uint64, hi: np.uint64, trump: int,
                      cap: int) -> int:
    """``mc``'s attacks (MM-9, MM-13: one suit, at most ``cap`` cards) after ``out[:m]``, suit by suit:
    the whole suit, its low cards (not trump), spades without the Black Maria, each single card (one
    of two equal copies); in the endgame each set is cut to its ``cap`` lowest cards. The new count."""
    limit = cap if cap != NO_CAP else 2 * RANKS
    for s in range(SUITS):
        own_lo, own_hi = lo & suit_mask(s), hi & suit_mask(s)
        if own_lo | own_hi == ZERO:
            continue
        first = m
        a_lo, a_hi = lowest_in_suit(own_lo, own_hi, s, limit)
        m = add_candidate(out, m, first, m, declare, a_lo, a_hi, ZERO, ZERO)
        if s != trump and (own_lo | own_hi) & LOW:
            a_lo, a_hi = lowest_in_suit(own_lo & LOW, own_hi & LOW, s, limit)
            m = add_candidate(out, m, first, m, declare, a_lo, a_hi, ZERO, ZERO)
        if own_lo & MARIA and (own_lo & ~MARIA) | own_hi:
            a_lo, a_hi = lowest_in_suit(own_lo & ~MARIA, own_hi, s, limit)
            m = add_candidate(out, m, first, m, declare, a_lo, a_hi, ZERO, ZERO)
        sets = m  # a single card may repeat a set, never another single
        rest = own_lo
        while rest:
            b = rest & (~rest + ONE)
            rest ^= b
            m = add_candidate(out, m, first, sets, declare, b, ZERO, ZERO, ZERO)
        rest = own_hi & ~own_lo
        while rest:
            b = rest & (~rest + ONE)
            rest ^= b
            m = add_candidate(out, m, first, sets, declare, ZERO, b, ZERO, ZERO)
    return m


@njit(cache=True)
def defence_candidates(out: np.ndarray, m: int, declare: int, lo: np.uint64, hi: np.uint64, t_lo: np.uint64,
                       t_hi: np.uint64, trump: int, maria_trump: bool, must: bool) -> int:
    """``mc``'s defences (MM-10) after ``out[:m]``: ``beat_with`` the table with the whole hand (the Black
    Maria only as a trump, MM-3), with its non-trumps, with its low cards, with its low cards and
    trumps (keeping the high non-trumps), and beating nothing; under the duty to beat (``must``) only
    those that beat every card. The new count."""
    full_lo = lo if maria_trump else lo & ~MARIA
    keep, trumps = LOW & ~suit_mask(trump), suit_mask(trump)
    willing = ((full_lo, hi), (lo & ~MARIA & ~trumps, hi & ~trumps), (lo & keep, hi & keep),
               (full_lo & (keep | trumps | MARIA), hi & (keep | trumps)), (ZERO, ZERO))
    first = m
    for k in range(len(willing)):
        w_lo, w_hi = willing[k]
        if _among(willing, k, w_lo, w_hi):  # the same cards beat alike: a duplicate, or under the duty left out
            continue
        move = beat_with(t_lo, t_hi, w_lo, w_hi, trump, maria_trump)
        if not must or (move[2] == t_lo and move[3] == t_hi):
            m = add_candidate(out, m, first, m, declare, move[0], move[1], move[2], move[3])
    return m


@njit(cache=True)
def _among(hands: tuple, k: int, lo: np.uint64, hi: np.uint64) -> bool:
    """Whether ``(lo, hi)`` is one of ``hands[:k]``."""
    for j in range(k):
        if hands[j][0] == lo and hands[j][1] == hi:
            return True
    return False
