"""Musta-Maija's self-play policies, each specified once here and implemented twice:
scalar (``declaration``/``attack``/``defence``, for reference.py) and numpy
(``np_declaration``/``np_attack``/``np_defence``, for vector.py). Not the rules: the
engines check every move a policy makes.

A policy sees only its own hand, the table, the trump, the public hand sizes (MM-15)
and whether the stock is empty. Its randomness is ``u_k = rng.draw(key, Stream.POLICY,
turn, k)``, ``turn`` = the game's decision counter. "Lower" within a suit means lower
rank, then copy 0 before copy 1; across suits rank, then suit, then copy. A card of
copy 0 with code ``c`` "is in the bits of u" when bit ``c`` of u is set; a copy-1 card
of code ``52 + b`` when bit ``b`` of the second draw named is set.

**The defence procedure** ``beat_with(table, willing)`` (MM-10; both policies use it;
the table holds one suit s): the attack cards other than the Black Maria are taken
lowest first; sweeping ranks low to high, each willing card of suit s at rank r (copy 0
first; never the Black Maria) beats the lowest still-unbeaten attack card of rank < r,
if any. If s is not trump, the willing trumps, lowest first, beat the lowest unbeaten
cards left. Then with ``black_maria="highest_trump"`` a willing Black Maria beats the
lowest card still unbeaten (MM-3). The Black Maria on the table is never beaten (MM-2).

**The duty to beat** (MM-10, ``must_beat="all_if_possible"``): the engine tells the
policy ``must`` when the defender can beat every attack card (a complete assignment of
distinct beaters exists; the engine finds one by augmenting paths). Then
``beat_with(table, hand)`` beats every card: its same-suit sweep is a largest matching
of the beaters of suit s to lower attack cards (beaters taken lowest first, each with
any lower card left), and the trumps (s not trump) and a ``highest_trump`` Black Maria
beat any card, so they cover as many of the rest as there are of them. So a policy
bound by the duty can always fall back on ``beat_with(table, hand)``.

``random`` — uniform over each of these choice coordinates:
- declare (MM-5): with options (suits in suit order), ``j = below(u0, 1 + len(options))``;
  ``j = 0`` declares nothing, else ``options[j - 1]``.
- attack: the suit ``held[below(u1, len(held))]`` among the suits held (suit order);
  the cards of that suit in the bits of ``u2`` (copy 0) / ``u3`` (copy 1); if none, the
  lowest card of the suit; in the endgame (MM-13) only the ``cap`` lowest of them.
- defence: willing = the hand's cards in the bits of ``u1`` (copy 0) / ``u2`` (copy 1);
  the move is ``beat_with(table, willing)``; under the duty (``must``), if that leaves
  a card unbeaten, the move is ``beat_with(table, hand)`` instead (same draws).

``greedy`` — the seed's tips; its only draw is in the endgame attack:
- declare: at the first chance, the option suit with the most cards in hand (ties: the
  lower suit).
- attack before the endgame, "shed low cards, keep kings and queens": the low cards
  are the non-trump cards of rank 2..J; if any, all low cards of the suit
  ``low_suits[below(u1, len(low_suits))]`` among the suits holding low cards (suit
  order). If none, the lowest card other than the Black Maria alone (the Black Maria
  if it is the only card).
- attack in the endgame (stock empty), shedding as many cards as it may: with the Black
  Maria ("held for the endgame", the card nobody can beat) the Black Maria and the
  ``cap - 1`` lowest other spades; otherwise the ``cap`` lowest cards of the suit
  ``held[below(u1, len(held))]``.
- Why the draws: a deterministic attack lets a low card nobody can beat circle the
  table for ever (each defender picks it up and sheds it next), before the endgame as
  in it; a random suit breaks such cycles.
- defence: ``beat_with(table, hand)`` (the Black Maria willing only with
  ``highest_trump``) if it beats every card or the stock is empty (every card beaten is
  one card fewer to shed); otherwise, since it must pick up anyway, it beats only with
  low cards (non-trump, rank 2..J), keeping the rest: ``beat_with(table, low cards)``.
  It beats every card whenever it can, so the duty to beat never changes its move.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

import numpy as np

from cardsim.core import rng
from cardsim.core.rules import parse_call
from cardsim.games.musta_maija.cards import (
    BLACK_MARIA, BM_BIT, JACK, LOW_BITS, RANK_BITS, RANK_COL, RANKS, SPADES, SUIT_BITS, SUITS, cards, mask,
    np_count, np_lowest_k, np_lowest_one, np_ranks, np_unranks, rank, suit, suit_cards,
)

POLICIES = ("random", "greedy")
HIGHEST_TRUMP = "highest_trump"


@lru_cache(maxsize=None)
def policy_name(text: str) -> str:
    """The policy of a policy string; neither policy takes parameters."""
    name, params = parse_call(text)
    if name not in POLICIES:
        raise ValueError(f"unknown musta_maija policy {text!r}; known policies: {', '.join(POLICIES)}")
    if params:
        raise ValueError(f"musta_maija policy {name!r} takes no parameters, got {', '.join(params)}")
    return name


def _u(key, turn, k):
    return rng.draw(key, rng.Stream.POLICY, turn, k)


def _in_bits(hand: int, u_copy0: int, u_copy1: int) -> int:
    """The cards of ``hand`` in the bits of the two draws (copy 0, copy 1)."""
    return hand & ((u_copy0 & ((1 << 52) - 1)) | (u_copy1 & ((1 << 52) - 1)) << 52)


def lowest(hand: int, k: int) -> int:
    """The ``k`` lowest cards of a one-suit hand (all if fewer)."""
    return mask(cards(hand)[:k])


def low_cards(hand: int, trump: int) -> int:
    """Greedy's cards to shed: non-trump cards of rank 2..J."""
    return mask(c for c in cards(hand) if rank(c) <= JACK and suit(c) != trump)


# --- scalar twins -------------------------------------------------------------------


def declaration(policy: str, hand: int, options: list[int], key: int, turn: int) -> int:
    """The suit to declare trump (MM-5), or -1."""
    if not options:
        return -1
    if policy_name(policy) == "random":
        j = rng.below(_u(key, turn, 0), 1 + len(options))
        return options[j - 1] if j else -1
    return max(options, key=lambda s: (len(cards(suit_cards(hand, s))), -s))


def attack(policy: str, hand: int, trump: int, cap: int | None, key: int, turn: int) -> int:
    """The attack cards (one suit, MM-9); ``cap`` is the defender's hand size in the endgame (MM-13)."""
    held = [s for s in range(SUITS) if suit_cards(hand, s)]
    if policy_name(policy) == "random":
        own = suit_cards(hand, held[rng.below(_u(key, turn, 1), len(held))])
        pick = _in_bits(own, _u(key, turn, 2), _u(key, turn, 3)) or lowest(own, 1)
        return pick if cap is None else lowest(pick, cap)
    if cap is not None and hand >> BLACK_MARIA & 1:
        return 1 << BLACK_MARIA | lowest(suit_cards(hand, SPADES) & ~(1 << BLACK_MARIA), cap - 1)
    if cap is not None:
        return lowest(suit_cards(hand, held[rng.below(_u(key, turn, 1), len(held))]), cap)
    low = low_cards(hand, trump)
    if not low:
        rest = cards(hand & ~(1 << BLACK_MARIA)) or cards(hand)
        return 1 << rest[0]
    low_suits = [s for s in range(SUITS) if suit_cards(low, s)]
    return suit_cards(low, low_suits[rng.below(_u(key, turn, 1), len(low_suits))])


def beat_with(table: int, willing: int, trump: int, black_maria: str) -> list[tuple[int, int]]:
    """The defence procedure of the module docstring: pairs (beater, attack card)."""
    s = suit(cards(table)[0])
    attack_cards = [c for c in cards(table) if c != BLACK_MARIA]
    own = [c for c in cards(suit_cards(willing, s)) if c != BLACK_MARIA]
    pairs: list[tuple[int, int]] = []
    unbeaten: deque[int] = deque()
    for r in range(RANKS):
        for d in (c for c in own if rank(c) == r):
            if unbeaten:
                pairs.append((d, unbeaten.popleft()))
        unbeaten.extend(c for c in attack_cards if rank(c) == r)
    if 0 <= trump != s:
        for d in cards(suit_cards(willing, trump)):
            if unbeaten:
                pairs.append((d, unbeaten.popleft()))
    if black_maria == HIGHEST_TRUMP and willing >> BLACK_MARIA & 1 and unbeaten:
        pairs.append((BLACK_MARIA, unbeaten.popleft()))
    return pairs


def defence(policy: str, hand: int, table: int, trump: int, black_maria: str, endgame: bool, must: bool, key: int,
            turn: int) -> list[tuple[int, int]]:
    """The defender's pairs (beater, attack card); unbeaten cards are picked up (MM-10..MM-12).

    ``must``: the duty to beat binds (MM-10), every attack card must be beaten.
    """
    if policy_name(policy) == "random":
        pairs = beat_with(table, _in_bits(hand, _u(key, turn, 1), _u(key, turn, 2)), trump, black_maria)
        return beat_with(table, hand, trump, black_maria) if must and len(pairs) < len(cards(table)) else pairs
    willing = hand if black_maria == HIGHEST_TRUMP else hand & ~(1 << BLACK_MARIA)
    pairs = beat_with(table, willing, trump, black_maria)
    if endgame or len(pairs) == len(cards(table)):
        return pairs
    return beat_with(table, low_cards(hand, trump), trump, black_maria)


# --- numpy twins: one entry per game of the (sub)batch ------------------------------

_M52 = np.uint64((1 << 52) - 1)


def _np_u(key: np.ndarray, turn: np.ndarray, k: int) -> np.ndarray:
    return rng.draw(key, rng.Stream.POLICY, turn, k)


def _np_lowest_of_suit(lo, hi, s):
    return np_unranks(*np_lowest_one(*np_ranks(lo, hi, s)), s)


def _np_keep_lowest(lo, hi, s, cap):
    x0, x1 = np_ranks(lo, hi, s)
    return np_unranks(*np_lowest_k(x0, x1, cap), s)


def _np_suit_of(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Suit of the lowest card code of each non-empty one-suit hand."""
    both = lo | hi
    return np.bitwise_count((both & (~both + np.uint64(1))) - np.uint64(1)).astype(np.int64) // RANKS


def _np_lowest_rank_major(lo, hi):
    """(lo, hi) of the lowest card by rank, then suit, then copy (empty if no card)."""
    both = lo | hi
    present = (both[None, :] & RANK_BITS[:, None]) != 0
    r = np.argmax(present, axis=0)
    at = both & RANK_BITS[r]
    first = at & (~at + np.uint64(1))
    pick_lo = lo & first
    return pick_lo, np.where(pick_lo != 0, np.uint64(0), hi & first)


def _np_low_cards(lo, hi, trump):
    keep = LOW_BITS & ~SUIT_BITS[trump]
    return lo & keep, hi & keep


def np_declaration(policy: str, lo: np.ndarray, hi: np.ndarray, options: np.ndarray, key: np.ndarray,
                   turn: np.ndarray) -> np.ndarray:
    """Twin of ``declaration``; ``options`` is (B, SUITS) bool. Returns the suit or -1."""
    n = options.sum(axis=1)
    if policy_name(policy) == "random":
        j = rng.below(_np_u(key, turn, 0), 1 + n)
        nth = np.cumsum(options, axis=1) == j[:, None]
        return np.where(j > 0, np.argmax(nth & options, axis=1), -1)
    sizes = np.stack([np_count(lo & SUIT_BITS[s], hi & SUIT_BITS[s]) for s in range(SUITS)], axis=1)
    best = np.argmax(np.where(options, sizes, -1), axis=1)
    return np.where(n > 0, best, -1)


def _np_random_suit(lo, hi, u1):
    """``held[below(u1, len(held))]``: a suit uniformly among the suits held (0 for an empty hand)."""
    held = np.stack([((lo | hi) & SUIT_BITS[s]) != 0 for s in range(SUITS)])
    j = rng.below(u1, np.maximum(held.sum(axis=0), 1))
    return np.argmax(np.cumsum(held, axis=0) > j, axis=0)


def np_attack(policy: str, lo: np.ndarray, hi: np.ndarray, trump: np.ndarray, cap: np.ndarray,
              endgame: np.ndarray, key: np.ndarray, turn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Twin of ``attack``; ``cap`` is any number >= the hand size outside the endgame."""
    u1 = _np_u(key, turn, 1)
    if policy_name(policy) == "random":
        s = _np_random_suit(lo, hi, u1)
        own_lo, own_hi = lo & SUIT_BITS[s], hi & SUIT_BITS[s]
        p_lo = own_lo & _np_u(key, turn, 2) & _M52
        p_hi = own_hi & _np_u(key, turn, 3) & _M52
        none = (p_lo | p_hi) == 0
        f_lo, f_hi = _np_lowest_of_suit(own_lo, own_hi, s)
        return _np_keep_lowest(np.where(none, f_lo, p_lo), np.where(none, f_hi, p_hi), s, cap)
    low_lo, low_hi = _np_low_cards(lo, hi, trump)
    s = _np_random_suit(low_lo, low_hi, u1)
    out_lo, out_hi = low_lo & SUIT_BITS[s], low_hi & SUIT_BITS[s]
    alone = np.nonzero(((low_lo | low_hi) == 0) & ~endgame)[0]
    if len(alone):
        a_lo, a_hi = lo[alone], hi[alone]
        out_lo[alone], out_hi[alone] = _np_lowest_rank_major(np.where((a_lo & ~BM_BIT) | a_hi, a_lo & ~BM_BIT, a_lo),
                                                             a_hi)
    end = np.nonzero(endgame)[0]
    if len(end):
        out_lo[end], out_hi[end] = _np_endgame_attack(lo[end], hi[end], cap[end], u1[end])
    return out_lo, out_hi


def _np_endgame_attack(lo, hi, cap, u1):
    """Greedy's endgame attack: the Black Maria and low spades, or the lowest of a random suit."""
    s = _np_random_suit(lo, hi, u1)
    e_lo, e_hi = _np_keep_lowest(lo & SUIT_BITS[s], hi & SUIT_BITS[s], s, cap)
    spades = np.full(len(lo), SPADES)
    m_lo, m_hi = _np_keep_lowest(lo & SUIT_BITS[SPADES] & ~BM_BIT, hi & SUIT_BITS[SPADES], spades, cap - 1)
    maria = (lo & BM_BIT) != 0
    return np.where(maria, m_lo | BM_BIT, e_lo), np.where(maria, m_hi, e_hi)


def _make_unpack() -> np.ndarray:
    """``UNPACK[x]``: the 13 rank bits of a rank-space word x as int8, lowest rank first."""
    return ((np.arange(1 << RANKS)[:, None] >> np.arange(RANKS)) & 1).astype(np.int8)


UNPACK = _make_unpack()
PACK = (1 << np.arange(RANKS)).astype(np.uint16)
"""Rank-space words back from unpacked bits: ``(bits * PACK).sum(axis=1)``."""


def _np_sweep(a0, a1, d0, d1):
    """The same-suit sweep of ``beat_with`` on rank-space hands, all ranks at once.

    With ``a_r``/``d_r`` the attack/willing cards of rank r, the unbeaten attack cards
    left after rank r's beaters, ``Q_r = max(Q_{r-1} + a_{r-1} - d_r, 0)``, is a
    clamped running sum: ``S_r - min(0, min_{j<=r} S_j)`` with ``S = cumsum(a_{r-1} - d_r)``.
    Returns (copy-0 beaters, copy-1 beaters, number of attack cards left unbeaten).
    """
    a = UNPACK[a0] + UNPACK[a1]
    b0, b1 = UNPACK[d0], UNPACK[d1]
    a_before = np.zeros_like(a)
    a_before[:, 1:] = a[:, :-1]
    total = np.cumsum(a_before - b0 - b1, axis=1, dtype=np.int8)
    left = total - np.minimum.accumulate(np.minimum(total, 0), axis=1)
    waiting = np.zeros_like(a)
    waiting[:, 1:] = (left + a)[:, :-1]
    take0 = b0 & (waiting > 0)
    take1 = b1 & (waiting - take0 > 0)
    used0 = (take0 * PACK).sum(axis=1, dtype=np.uint16).astype(np.uint64)
    used1 = (take1 * PACK).sum(axis=1, dtype=np.uint16).astype(np.uint64)
    return used0, used1, (left[:, -1] + a[:, -1]).astype(np.int64)


def np_beat_with(t_lo, t_hi, w_lo, w_hi, trump, black_maria: str):
    """Twin of ``beat_with``: (beaters lo, hi, unbeaten lo, unbeaten hi)."""
    s = _np_suit_of(t_lo, t_hi)
    a0, a1 = np_ranks(t_lo & ~BM_BIT, t_hi, s)
    d0, d1 = np_ranks(w_lo & ~BM_BIT, w_hi, s)
    used0, used1, unbeaten = _np_sweep(a0, a1, d0, d1)
    other = (trump >= 0) & (trump != s)
    ts = np.where(other, trump, 0)
    trumps = SUIT_BITS[np.where(other, trump, -1)]
    tr0, tr1 = np_ranks(w_lo & trumps, w_hi & trumps, ts)
    n_trumps = np.minimum(unbeaten, np.bitwise_count(tr0).astype(np.int64) + np.bitwise_count(tr1))
    unbeaten -= n_trumps
    t0, t1 = np_lowest_k(tr0, tr1, n_trumps)
    maria = (unbeaten > 0) & ((w_lo & BM_BIT) != 0) if black_maria == HIGHEST_TRUMP else np.zeros(len(s), bool)
    unbeaten -= maria
    n_attack = np.bitwise_count(a0).astype(np.int64) + np.bitwise_count(a1)
    low0, low1 = np_lowest_k(a0, a1, n_attack - unbeaten)
    u_lo, u_hi = np_unranks(a0 ^ low0, a1 ^ low1, s)
    b_lo, b_hi = np_unranks(used0, used1, s)
    tb_lo, tb_hi = np_unranks(t0, t1, ts)
    return (b_lo | tb_lo | maria * BM_BIT, b_hi | tb_hi, u_lo | (t_lo & BM_BIT), u_hi)


def np_defence(policy: str, lo, hi, t_lo, t_hi, trump, black_maria: str, endgame, must, key, turn):
    """Twin of ``defence``: (beaters lo, hi, unbeaten lo, unbeaten hi); ``must`` per game (MM-10)."""
    if policy_name(policy) == "random":
        move = np_beat_with(t_lo, t_hi, lo & _np_u(key, turn, 1) & _M52, hi & _np_u(key, turn, 2) & _M52,
                            trump, black_maria)
        redo = np.nonzero(must & ((move[2] | move[3]) != 0))[0]
        if len(redo):
            _np_put(move, redo, np_beat_with(t_lo[redo], t_hi[redo], lo[redo], hi[redo], trump[redo], black_maria))
        return move
    w_lo = lo if black_maria == HIGHEST_TRUMP else lo & ~BM_BIT
    full = np_beat_with(t_lo, t_hi, w_lo, hi, trump, black_maria)
    redo = np.nonzero(((full[2] | full[3]) != 0) & ~endgame)[0]
    if len(redo):
        _np_put(full, redo, np_beat_with(t_lo[redo], t_hi[redo], *_np_low_cards(lo[redo], hi[redo], trump[redo]),
                                         trump[redo], black_maria))
    return full


def _np_put(move, rows, other) -> None:
    """``move[k][rows] = other[k]`` for each of the four arrays of a defence."""
    for m, o in zip(move, other):
        m[rows] = o
