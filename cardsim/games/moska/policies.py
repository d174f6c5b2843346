"""Moska self-play policies (scalar twins): ``random`` and ``greedy``; the names and parameters of all of them.
``mc``, ``oracle`` and ``learned`` are decided by the compiled engine: their seats are ``seating.py``'s.

Each policy is specified in words in its class docstring, precisely enough for the
compiled twin in ``compiled_policies.py`` to choose the same moves. This file does not
decide what is legal: the engine (``reference.py``, see its DECISION PROTOCOL) hands
each method only legal candidates, and a policy only picks among them.

Shared vocabulary
-----------------
- ``d(k) = rng.draw(key, Stream.POLICY, turn, k)``: draw ``k`` of the current decision
  (``turn`` = the game's decision counter). Draws are pure functions, so a draw that
  is not needed is simply not looked at. No other randomness exists.
- ``i-th lowest`` of a mask: the card of index ``i`` (from 0) in ascending card code.
- ``part(X, r, m)``: the cards of rank ``r`` in mask ``X``: all of them if there are at
  most ``m``; else the ``m`` lowest codes if ``m >= 2``; else none.
- ``order(c) = 4 * (13 * is_trump(c) + rank(c)) + suit(c)``: greedy's card order
  (non-trumps below trumps, then rank, then suit code).

The engine calls, for the seat that decides (all calls of one decision share its turn):
- ``open(view)`` → mask of the opening (room ``view.room >= 1``);
- ``kill(view, a, killers)`` → one card of ``killers`` or ``-1``: once for each unkilled
  attack card ``a`` in ascending code, with ``killers`` = its killers still in hand
  (cards used earlier in the step removed), only when ``killers`` is not empty (and,
  with M-14, while TARAKI's six-card limit allows another kill);
- ``self_attack(view, c, killers)`` → a card of ``killers`` or ``-1``: with M-14, after
  the kills, for ``c`` = 0..51 ascending, only when ``c`` is a legal self-attack card
  at that moment (``killers`` = its killers in hand, not empty);
- ``add(view, cands, room)`` → a subset of ``cands`` (cards of allowed ranks in hand)
  of at most ``room`` cards;
- ``give_back(view, cards, e)`` → exactly ``e`` cards of ``cards`` to send back (M-12),
  asked of the defender (``excess_return="defender"``), of the round's attacker
  (``"attacker"``: ``cards`` = all cards added in the step) or of the one last
  over-player who takes back part of their own cards (``"last"``); the same rule
  whoever is asked.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardsim.core import rng
from cardsim.core.cards import FRENCH52, cards_of, count, lowest
from cardsim.core.search import MC, ORACLE, PolicyStrings, unseated
from cardsim.games.moska.rules import OPTIONS

RANKS = FRENCH52.n_ranks
LOW_RANKS = 8
"""Greedy's low ranks are 2..T (rank index <= 8); J, Q, K, A are kept."""
LOW_CARDS = sum(FRENCH52.rank_mask(r) for r in range(LOW_RANKS + 1))


@dataclass(frozen=True)
class View:
    """What the deciding seat sees: its own hand and the public table, never others' hands."""

    key: int
    turn: int
    seat: int
    hand: int
    trump: int
    stock_left: int
    room: int
    game: Any = field(default=None, compare=False, repr=False)
    """The reference engine's whole game (``reference.State``), for ``mc`` only: it hands the position to
    the compiled search, which reads only this seat's view from it (tested); ``random`` and ``greedy``
    never look at it."""

    def d(self, k: int) -> int:
        return rng.draw(self.key, rng.Stream.POLICY, self.turn, k)

    def is_trump(self, card: int) -> bool:
        return FRENCH52.suit(card) == self.trump


def ith_lowest(mask: int, i: int) -> int:
    """The card of index ``i`` (from 0) of ``mask`` in ascending code."""
    return list(cards_of(mask))[i]


def n_lowest(mask: int, n: int) -> int:
    """The ``n`` lowest-code cards of ``mask`` (all if it has fewer)."""
    out = 0
    for c in cards_of(mask):
        if count(out) == n:
            break
        out |= 1 << c
    return out


def part(mask: int, rank: int, m: int) -> int:
    """``part(X, r, m)`` of the module docstring: a legal group of rank ``r`` within ``m`` cards."""
    group = mask & FRENCH52.rank_mask(rank)
    if count(group) <= m:
        return group
    return n_lowest(group, m) if m >= 2 else 0


def group_ranks(mask: int) -> list[int]:
    """Ranks with at least two cards in ``mask``, ascending."""
    return [r for r in range(RANKS) if count(mask & FRENCH52.rank_mask(r)) >= 2]


def order(card: int, trump: int) -> int:
    """Greedy's card order: non-trumps below trumps, then rank, then suit."""
    return 4 * (RANKS * (FRENCH52.suit(card) == trump) + FRENCH52.rank(card)) + FRENCH52.suit(card)


class RandomPolicy:
    """``random``: a coin-flipping player that exercises every kind of legal move.

    - open: ``G`` = ranks with >= 2 cards in hand. If ``G`` is not empty, room >= 2 and
      ``below(d(0), 2) == 0``: a group opening: ``r0`` = ``G[below(d(1), len(G))]``
      (``G`` ascending), ``S = part(hand, r0, room)``; then for each other rank ``r`` of
      ``G`` ascending, if ``below(d(2 + r), 2) == 0``: ``S |= part(hand, r, room - |S|)``.
      Otherwise a single card: the ``below(d(1), |hand|)``-th lowest card of the hand.
    - kill ``a``: kill iff ``below(d(a), 4) != 0`` (probability 3/4), with the
      ``below(d(64 + a), |killers|)``-th lowest killer.
    - self_attack ``c``: iff ``below(d(128 + c), 2) == 0``, with the
      ``below(d(192 + c), |killers|)``-th lowest killer.
    - add: for each candidate ``c`` ascending: add it iff fewer than ``room`` cards are
      chosen so far and ``below(d(c), 2) == 0``.
    - give_back: the ``e`` cards ``c`` of ``cards`` with the smallest ``(d(c), c)``.
    """

    def open(self, v: View) -> int:
        groups = group_ranks(v.hand)
        if groups and v.room >= 2 and rng.below(v.d(0), 2) == 0:
            r0 = groups[rng.below(v.d(1), len(groups))]
            chosen = part(v.hand, r0, v.room)
            for r in groups:
                if r != r0 and rng.below(v.d(2 + r), 2) == 0:
                    chosen |= part(v.hand, r, v.room - count(chosen))
            return chosen
        return 1 << ith_lowest(v.hand, rng.below(v.d(1), count(v.hand)))

    def kill(self, v: View, attack: int, killers: int) -> int:
        if rng.below(v.d(attack), 4) == 0:
            return -1
        return ith_lowest(killers, rng.below(v.d(64 + attack), count(killers)))

    def self_attack(self, v: View, card: int, killers: int) -> int:
        if rng.below(v.d(128 + card), 2) != 0:
            return -1
        return ith_lowest(killers, rng.below(v.d(192 + card), count(killers)))

    def add(self, v: View, cands: int, room: int) -> int:
        chosen = 0
        for c in cards_of(cands):
            if count(chosen) < room and rng.below(v.d(c), 2) == 0:
                chosen |= 1 << c
        return chosen

    def give_back(self, v: View, cards: int, e: int) -> int:
        back = sorted(cards_of(cards), key=lambda c: (v.d(c), c))[:e]
        return sum(1 << c for c in back)


class GreedyPolicy:
    """``greedy``: a plausible human: opens low non-trumps in groups, kills cheaply, keeps trumps.

    No draws. ``N`` = the non-trump cards of a mask; low = rank <= T (index 8).
    - open: for each rank ``r <= 8`` with >= 2 cards in ``N(hand)``, ascending:
      ``S |= part(N(hand), r, room - |S|)``. If ``S`` is empty: the non-trump card with
      the lowest ``order``; if there is none, the lowest trump (lowest code).
    - kill ``a``: the lowest-code non-trump killer if there is one. Otherwise ``k`` =
      the lowest-code (trump) killer, except: leave ``a`` unkilled (-1) when ``a`` is
      not a trump, ``rank(k) >= 9`` (J, Q, K, A) and the stock is not empty.
    - self_attack ``c``: only if ``c`` is not a trump and it has a non-trump killer:
      the lowest-code one; otherwise -1.
    - add: ``C = N(cands)``, and if the stock is not empty only its low ranks; add the
      ``min(room, |C|)`` lowest-code cards of ``C``.
    - give_back: the ``e`` cards of ``cards`` with the highest ``order`` (keep low cards
      on the table, high cards and trumps go back).
    """

    def _non_trump(self, v: View, mask: int) -> int:
        return mask & ~FRENCH52.suit_mask(v.trump)

    def open(self, v: View) -> int:
        plain = self._non_trump(v, v.hand)
        chosen = 0
        for r in group_ranks(plain):
            if r <= LOW_RANKS:
                chosen |= part(plain, r, v.room - count(chosen))
        if chosen:
            return chosen
        if plain:
            return 1 << min(cards_of(plain), key=lambda c: order(c, v.trump))
        return 1 << lowest(v.hand)

    def kill(self, v: View, attack: int, killers: int) -> int:
        plain = self._non_trump(v, killers)
        if plain:
            return lowest(plain)
        k = lowest(killers)
        if not v.is_trump(attack) and FRENCH52.rank(k) > LOW_RANKS and v.stock_left > 0:
            return -1
        return k

    def self_attack(self, v: View, card: int, killers: int) -> int:
        plain = self._non_trump(v, killers)
        return lowest(plain) if plain and not v.is_trump(card) else -1

    def add(self, v: View, cands: int, room: int) -> int:
        plain = self._non_trump(v, cands)
        if v.stock_left > 0:
            plain &= LOW_CARDS
        return n_lowest(plain, room)

    def give_back(self, v: View, cards: int, e: int) -> int:
        back = sorted(cards_of(cards), key=lambda c: order(c, v.trump), reverse=True)[:e]
        return sum(1 << c for c in back)


LEARNED = "learned"
DEFAULT_MODEL = "moska_4p_net_g2"
"""The model of ``learned`` without a ``model``: the best committed generation (docs/ladder.md)."""
BASES = ("random", "greedy", LEARNED)
"""The policies that decide without search: ``mc``'s play-out policies."""
SCALAR = {"random": RandomPolicy, "greedy": GreedyPolicy}
"""The policies decided here (the scalar twins), by name."""
POLICIES = (*SCALAR, MC, ORACLE, LEARNED)
SEARCH_STOCK = 8
"""``mc(search_stock=N)`` by default: search once the stock holds at most ``N`` cards (``None``/``all``: the whole
game); before, nothing is searched: the decision is the base's when the base is ``learned``, else greedy's
(benchmarks/bench_beliefs.py measures both windows)."""
MC_EXTRA = {"search_stock": SEARCH_STOCK, "beliefs": "uniform"}
"""Moska's further ``mc``/``oracle`` parameters and their defaults (``core/search.py``)."""


FORBID_SWAP, FORBID_SELF_ATTACK, FORBID_CONTINUATION = (1 << i for i in range(len(OPTIONS)))
FORBID = dict(zip(OPTIONS, (FORBID_SWAP, FORBID_SELF_ATTACK, FORBID_CONTINUATION)))
"""``forbid=A+B`` (any policy, ``rules.OPTIONS``) → the bits of the seat's forbid mask (``State.forbid`` of both
engines, from the policy table's ``FORBID`` column). The engines apply them at the forbidding seat alone,
whatever its policy, so ``mc`` and ``learned`` lose those candidates, at the root and in the seat's own
play-outs (not the other seats'): ``swap``: the seat never makes the M-6 swap (it keeps the trump 2, the
turned card stays under the stock); ``self_attack``: its defences make no M-14 pair (its policy is not asked);
``continuation``: its additions are offered only cards of the attack cards' ranks (M-11; it still decides,
and may add nothing). Each is a no-op where the rules do not offer the action."""


STRINGS = PolicyStrings("moska", POLICIES, BASES, tuple(OPTIONS), DEFAULT_MODEL, MC_EXTRA)
parse_policy, forbid_of = STRINGS.policy, STRINGS.forbid
"""The policy of a policy string and, for ``mc`` and ``learned``, its parameters; the ``forbid`` mask of a
policy string (``FORBID``). One ``ValueError`` line if bad (``core.search.PolicyStrings``)."""


def make_policy(text: str) -> RandomPolicy | GreedyPolicy:
    """The scalar policy object of a ``random`` or ``greedy`` policy string; the reference engine's default
    ``seat``. A searching policy is a ``ValueError`` line: only ``seating.make_policy`` (the compiled engine's
    search) seats it."""
    name, _ = parse_policy(text)
    if name not in SCALAR:
        raise unseated("moska", name)
    return SCALAR[name]()
