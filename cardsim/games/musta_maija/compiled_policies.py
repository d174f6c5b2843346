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
from cardsim.core.jit import ONE, U, ZERO, below, ith_lowest, lowest, njit, popcount
from cardsim.core.search import MonteCarlo
from cardsim.games.musta_maija.cards import (
    BLACK_MARIA, KING, LOW_RANKS, M52, MARIA, QUEEN, RANKS, SPADES, SUITS, count, from_ranks, lowest_in_suit,
    suit_mask, suit_of_hand, to_ranks,
)
from cardsim.games.musta_maija import learned_features as features
from cardsim.games.musta_maija.learned import load_model
from cardsim.games.musta_maija.policies import parse, reads

RANDOM, GREEDY, MC, LEARNED = 0, 1, 2, 3
CODES = {"random": RANDOM, "greedy": GREEDY, "mc": MC, "oracle": MC, "learned": LEARNED}
CODE, DETERMINIZATIONS, BASE, SEES, READS, FORBID, WEIGHTS = range(7)
"""Columns of a seat's row of the policy table: its policy's code; for ``mc`` (and ``oracle``) its worlds per
decision, its base policy's code, whether its worlds are the true state and whether they meet the reads
(``beliefs="reads"``, ``reads.py``); the ``forbid`` bits
(``policies.DECLARE``); from ``WEIGHTS`` on the fixed-point weights of the row's ``learned`` policy, or of
its search's ``learned`` base (``learned_features.WEIGHTS`` of them)."""
NO_CAP = -1
"""``cap`` outside the endgame (MM-13)."""
NONE = -(1 << 62)
"""A score below every candidate's (``best_attack``: no attack)."""
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
            row[READS] = reads(text)
            base_name, param = parse(param.base)[:2]
            row[BASE] = CODES[base_name]
        if isinstance(param, models.Learned):
            row[WEIGHTS:] = load_model(param.model).fixed_point(features.SCALE)
    return rows


@njit(cache=True)
def reads_of(policies: np.ndarray) -> bool:
    """Whether a seat of the policy table deals its worlds from the reads (the engines keep them only then)."""
    for q in range(policies.shape[0]):
        if policies[q, READS]:
            return True
    return False


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
def suits_held(lo: np.uint64, hi: np.uint64) -> int:
    n = 0
    for s in range(SUITS):
        n += ((lo | hi) & suit_mask(s)) != ZERO
    return n


@njit(cache=True)
def _random_suit(lo: np.uint64, hi: np.uint64, u: np.uint64) -> int:
    """``held[below(u, len(held))]``: a suit uniformly among the suits held."""
    return _nth_suit(lo, hi, below(u, suits_held(lo, hi)))


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
def beats_any(t_lo: np.uint64, t_hi: np.uint64, w_lo: np.uint64, w_hi: np.uint64, trump: int,
              maria_trump: bool) -> bool:
    """Whether ``beat_with`` beats any attack card, without assigning beaters: a card of the attack's suit above
    its lowest card (MM-8; the Black Maria beats nothing and nothing beats it, MM-2), a willing trump against
    another suit, the Black Maria as the highest trump (MM-3)."""
    s = suit_of_hand(t_lo, t_hi)
    a0, a1 = to_ranks(t_lo & ~MARIA, t_hi, s)
    if a0 | a1 == ZERO:
        return False
    d0, d1 = to_ranks(w_lo & ~MARIA, w_hi, s)
    low = (a0 | a1) & (~(a0 | a1) + ONE)
    if (d0 | d1) & ~(low + low - ONE):
        return True
    if 0 <= trump != s and (w_lo | w_hi) & suit_mask(trump):
        return True
    return maria_trump and w_lo & MARIA != ZERO


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


@njit(cache=True)
def greedy_hand(t_lo: np.uint64, t_hi: np.uint64, move: np.void, endgame: bool) -> int:
    """Which of ``defence_candidates``'s hands greedy's ``defence`` beat with to make ``move``: the whole hand
    (0) in the endgame or when it beats every card, else the low cards (2)."""
    return 0 if endgame or (move.beaten[0] == t_lo and move.beaten[1] == t_hi) else 2


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
        sets = suit_sets(own_lo, own_hi, s, trump)
        for j in range(len(sets)):
            a_lo, a_hi = sets[j]
            if a_lo | a_hi:
                a_lo, a_hi = lowest_in_suit(a_lo, a_hi, s, limit)
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


@njit(cache=True, inline="always")
def suit_sets(own_lo: np.uint64, own_hi: np.uint64, s: int, trump: int) -> tuple:
    """The sets ``mc`` and ``learned`` attack with from ``own``, the hand's cards of suit ``s`` (MM-9): the
    whole suit, its low cards (not trump), spades without the Black Maria; an empty set where there is none.
    In the endgame each is cut to its lowest cards (``lowest_in_suit``, MM-13)."""
    low = (own_lo & LOW, own_hi & LOW) if s != trump else (ZERO, ZERO)
    spades = (own_lo & ~MARIA, own_hi) if own_lo & MARIA else (ZERO, ZERO)
    return (own_lo, own_hi), low, spades


@njit(cache=True)
def defence_candidates(out: np.ndarray, m: int, declare: int, lo: np.uint64, hi: np.uint64, t_lo: np.uint64,
                       t_hi: np.uint64, trump: int, maria_trump: bool, must_beat: bool, greedy: int) -> int:
    """``mc``'s defences (MM-10) after ``out[:m]``: ``beat_with`` the table with the whole hand (the Black
    Maria only as a trump, MM-3), with its non-trumps, with its low cards, with its low cards and
    trumps (keeping the high non-trumps), and beating nothing; under the duty to beat (``must_beat``, and
    the whole hand beats every card) only those that beat every card. The hand ``greedy`` (``greedy_hand``;
    -1: none) is the one greedy's decision ``out[0]`` beat with under this declaration: a copy of it, not
    beaten with again. The new count."""
    full_lo = lo if maria_trump else lo & ~MARIA
    keep, trumps = LOW & ~suit_mask(trump), suit_mask(trump)
    willing = ((full_lo, hi), (lo & ~MARIA & ~trumps, hi & ~trumps), (lo & keep, hi & keep),
               (full_lo & (keep | trumps | MARIA), hi & (keep | trumps)), (ZERO, ZERO))
    first, must = m, False
    for k in range(len(willing)):
        w_lo, w_hi = willing[k]
        if _among(willing, k, w_lo, w_hi):  # the same cards beat alike: a duplicate, or under the duty left out
            continue
        if k == greedy:  # out[0] again: no candidate, but the whole hand's assignment when k is 0
            if k == 0:
                must = must_beat and out[0].beaten[0] == t_lo and out[0].beaten[1] == t_hi
            continue
        move = beat_with(t_lo, t_hi, w_lo, w_hi, trump, maria_trump)
        if k == 0:
            must = must_beat and move[2] == t_lo and move[3] == t_hi
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


# --- learned's attacks: mc's, scored as they come (compiled.learned_attack) -------------------------

@njit(cache=True, inline="always")
def best_attack(gain: np.ndarray, weights: np.ndarray, base: int, lo: np.uint64, hi: np.uint64, o_lo: np.uint64,
                o_hi: np.uint64, trump: int, maria_trump: bool, cap: int, declare: int, greedy: tuple) -> tuple:
    """``learned``'s pass over ``attack_candidates``'s attacks under ``declare`` (``trump`` after it), in their
    order, none written out: each card's gain (``learned_features.card_gains``) into ``gain``, and the first
    best attack (lo, hi, its score less the hand's as kept). An attack scores its cards' gains, and the
    ``left_suits`` weight less if it empties its suit, ``out``'s if the hand. A copy of ``greedy``'s decision
    (declaration, lo, hi), scored apart, is skipped (no attack and ``NONE`` if all are); any other copy ties
    with its first and cannot win. The gains are computed here, inlined, rather than read from a
    ``card_gains`` pass: that measured 1.6× slower (2026-12-04), though the two compute the same integers."""
    o_lo, by_trump, by_plain = features.by_suit(o_lo, o_hi, trump, maria_trump)
    emptied, out = -weights[base + features.LEFT_SUITS], weights[base + features.OUT]
    free = weights[base + features.UNBEATABLE] - weights[base + features.LEFT_UNBEATABLE]
    beaten = weights[base + features.BEATERS]
    maria = weights[base + features.SPENT_MARIA] - weights[base + features.LEFT_MARIA]
    limit = cap if cap != NO_CAP else 2 * RANKS
    skip_lo, skip_hi = (greedy[1], greedy[2]) if declare == greedy[0] else (ZERO, ZERO)
    best = (ZERO, ZERO, NONE)
    for s in range(SUITS):
        own_lo, own_hi = lo & suit_mask(s), hi & suit_mask(s)
        if own_lo | own_hi == ZERO:
            continue
        terms = features.rank_terms(weights, base, s == trump)[1]
        total, low = _suit_gains(gain, terms, free, beaten, own_lo & ~MARIA, own_hi, s, o_lo, o_hi,
                                 by_trump if s == trump else by_plain)
        if own_lo & MARIA:  # nothing beats it (MM-2): unbeatable, its own weights besides
            gain[BLACK_MARIA] = features.at_rank(terms, QUEEN) + free + maria
            total += gain[BLACK_MARIA]
        end = emptied + (out if own_lo == lo and own_hi == hi else 0)
        sets, cut = suit_sets(own_lo, own_hi, s, trump), count(own_lo, own_hi) > limit
        for j in range(len(sets)):
            a_lo, a_hi = sets[j]
            if cut:
                a_lo, a_hi = lowest_in_suit(a_lo, a_hi, s, limit)
            if a_lo | a_hi and (a_lo != skip_lo or a_hi != skip_hi):
                if a_lo == own_lo and a_hi == own_hi:
                    value = total + end
                elif a_lo == own_lo & LOW and a_hi == own_hi & LOW:
                    value = low
                elif a_lo == own_lo & ~MARIA and a_hi == own_hi:
                    value = total - gain[BLACK_MARIA]
                else:
                    value = features.gain_of(gain, a_lo, a_hi)
                if value > best[2]:
                    best = (a_lo, a_hi, value)
        best = _best_single(gain, own_lo, own_hi, end if count(own_lo, own_hi) == 1 else 0, skip_lo, skip_hi, best)
    return best


@njit(cache=True, inline="always")
def _suit_gains(gain: np.ndarray, terms: tuple, free: int, beaten: int, own_lo: np.uint64, own_hi: np.uint64,
                s: int, o_lo: np.uint64, o_hi: np.uint64, by_others: int) -> tuple[int, int]:
    """``best_attack``'s gains of ``own``, cards of suit ``s`` (not the Black Maria), into ``gain``: by rank
    (``terms``, ``learned_features.rank_terms``), ``free`` more if no card of ``others`` (``o``) beats it,
    ``beaten`` for each that does (higher cards of its suit and ``by_others``, as ``beaters_in`` counts them);
    their sum, and the sum over the low ones (2..J)."""
    o0, o1 = to_ranks(o_lo, o_hi, s)
    total, low = 0, 0
    for copy in range(2):
        rest = to_ranks(own_lo, own_hi, s)[copy]
        while rest != ZERO:
            b = rest & (~rest + ONE)
            rest ^= b
            k, r = features.beaters_above(o0, o1, b, by_others), lowest(b)
            g = features.at_rank(terms, r) + free * (k == 0) + beaten * k
            gain[s * RANKS + r + 52 * copy] = g
            total += g
            low += g if r < features.HIGH else 0
    return total, low


@njit(cache=True, inline="always")
def _best_single(gain: np.ndarray, own_lo: np.uint64, own_hi: np.uint64, alone: int, skip_lo: np.uint64,
                 skip_hi: np.uint64, best: tuple) -> tuple:
    """``best_attack``'s single cards of ``own`` after ``best``, in ``attack_candidates``'s order (a copy-1 card
    only without its twin), each scoring its gain plus ``alone`` (the suit's end when it is the suit's one card);
    not ``skip``. The first best of them all."""
    for copy in range(2):
        rest = own_lo if copy == 0 else own_hi & ~own_lo
        while rest != ZERO:
            bit = rest & (~rest + ONE)
            rest ^= bit
            value = gain[lowest(bit) + 52 * copy] + alone
            c_lo, c_hi = (bit, ZERO) if copy == 0 else (ZERO, bit)
            if value > best[2] and (c_lo != skip_lo or c_hi != skip_hi):
                best = (c_lo, c_hi, value)
    return best
