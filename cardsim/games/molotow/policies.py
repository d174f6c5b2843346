"""Molotow self-play policies, each specified once in words.

``random`` and ``greedy`` are implemented twice: the scalar twin (``choose``) serves the
reference engine, the compiled twin (``compiled.base_card``, reading the tables at the end
of this file) the compiled engine; both pick the same card from the same situation. They see
only their own hand, the cards already in the trick and the trump state (which they could
see at a real table), plus the legal cards the rules leave them.
``mc`` is implemented once, in the compiled engine (``compiled.search``); the reference engine
hands it its position (``compiled.state_from``). It sees the seat's whole view: its hand, the
cards played this hand and who took them, the trick, the trump state and its setter, every
hand's size and what each seat's plays showed it does not hold.

``random``
    Uniform over the legal cards: ``u = rng.draw(key, Stream.POLICY, turn, 0)``
    (``turn`` = cards played before this one in the game), then the card of rank
    ``rng.below(u, n)`` among the ``n`` legal card codes sorted ascending. One draw.

``greedy``
    Draws nothing. A card's *value* is its points under the trump state of the moment
    (``cards.points``: trumpless values, 8s worth 8, while no trump is set); its
    *cheapness* is the tuple (value, is a trump, power, card code), power = trump
    order for trumps, plain rank otherwise; the *cheapest* of a set is its minimum.
    1. Leading: play the cheapest legal card.
    2. No trump set and unable to follow (the card will set trump, MJ-8): pick the suit
       with the most trump points (MJ-3) in hand, then the most cards, then the lowest
       suit index; play its cheapest card as if that suit were trump (keep the Buur
       and the Nell for later).
    3. Otherwise, if the cards in the trick are worth more than 0 and some legal card
       beats the trick's best card (MJ-12), play the cheapest such card; else play the
       cheapest legal card.

``mc(determinizations=32, base=greedy)``
    Determinized Monte Carlo (docs/design.md; ``compiled.search``), for the seat ``p`` to play at
    decision ``turn``. Its draws come from the ``SEARCH`` stream only, never the game's.
    1. Candidates: every legal card (at most 12), ``greedy``'s card first, then the others
       in ascending code. A single legal card is played without a play-out.
    2. Worlds ``j = 0 .. determinizations - 1``, keyed ``w_j = rng.world_key(key, turn, j)``:
       the cards ``p`` cannot see (neither in its hand nor played this hand) dealt to the other
       seats, each getting as many as it holds, none getting a card its plays showed it does
       not hold (``ruled_out``, MJ-7, MJ-10, MJ-11). The deal (``compiled.determinize``) takes
       the hidden cards by how many seats may hold them (one, two, three), then in ascending
       code; each goes to a seat that may hold it with probability proportional to the cards
       that seat still needs (one draw ``rng.draw(w_j, DEAL, 0, card)``), or, when that seat
       would leave the rest undealable, to the next seat that may hold it in cyclic order that
       does not. A view from play always admits a deal (the true one), and then some seat always
       keeps the rest dealable (Hall's theorem), so the deal never fails; with no seat ruled out
       of anything it is uniform over all deals. Only the view enters: hand sizes, ``played``,
       ``ruled_out``, the key and ``turn``.
    3. Play-outs: in each world, each candidate played, then the rest of the hand with ``base``
       in every seat, ``w_j`` standing in for the game key (its draws for ``random``, its
       three-way-tie draw, MJ-15): every candidate meets the same world and the same draws.
    4. Score: ``p``'s sticks minus potatoes of this hand; 0 if ``max_turns`` stops the hand
       before it is scored. The highest total wins, ties to the lowest index (``greedy``'s card).
"""
from __future__ import annotations

import numpy as np

from functools import lru_cache

from cardsim.core import rng
from cardsim.core.cards import cards_of, count
from cardsim.core.rules import parse_call
from cardsim.core.search import MC, ORACLE, SEARCHES, MonteCarlo, parse_mc
from cardsim.games.molotow.cards import (DECK, N_CARDS, N_RANKS, N_SUITS, NO_TRUMP, TRUMP_POINTS, TRUMP_POWER, beats,
                                         is_trump, points, rank, suit)

BASES = ("random", "greedy")
"""The policies that decide without search: ``mc``'s play-out policies."""
POLICIES = (*BASES, MC, ORACLE)


@lru_cache(maxsize=None)
def parse_policy(text: str) -> tuple[str, MonteCarlo | None]:
    """The policy of a policy string and, for ``mc``, its parameters; ``ValueError`` for an unknown
    policy or a bad parameter (``random`` and ``greedy`` take none)."""
    name, params = parse_call(text)
    if name not in POLICIES:
        raise ValueError(f"unknown molotow policy {name!r}; known policies: {', '.join(POLICIES)}")
    if name in SEARCHES:
        return name, parse_mc("molotow", params, BASES, name)
    if params:
        raise ValueError(f"molotow policy {name!r} takes no parameters, got {', '.join(params)}")
    return name, None


def check_policy(text: str) -> str:
    """The policy's name (validated: ``parse_policy``)."""
    return parse_policy(text)[0]


# ----------------------------------------------------------------------------- scalar twin

def cheapness(card: int, trump: int) -> tuple[int, bool, int, int]:
    """The greedy order: (value, is a trump, power, card code)."""
    trump_card = is_trump(card, trump)
    power = TRUMP_POWER[rank(card)] if trump_card else rank(card)
    return points(card, trump), trump_card, power, card


def cheapest(mask: int, trump: int) -> int:
    return min(cards_of(mask), key=lambda c: cheapness(c, trump))


def random_card(legal: int, key: int, turn: int) -> int:
    k = rng.below(rng.draw(key, rng.Stream.POLICY, turn, 0), count(legal))
    return list(cards_of(legal))[k]


def trump_choice(hand: int) -> int:
    """Greedy step 2: the suit to make trump."""
    def strength(s: int) -> tuple[int, int, int]:
        held = [c for c in cards_of(hand) if suit(c) == s]
        return sum(TRUMP_POINTS[rank(c)] for c in held), len(held), -s
    return max(range(N_SUITS), key=strength)


def greedy_card(hand: int, legal: int, trick: list[int], trump: int) -> int:
    if not trick:                                                        # step 1
        return cheapest(legal, trump)
    if trump == NO_TRUMP and not hand & DECK.suit_mask(suit(trick[0])):  # step 2
        s = trump_choice(hand)
        return cheapest(hand & DECK.suit_mask(s), s)
    best = trick[0]                                                      # step 3
    for c in trick[1:]:
        if beats(c, best, trump):
            best = c
    winning = sum(1 << c for c in cards_of(legal) if beats(c, best, trump))
    if winning and sum(points(c, trump) for c in trick) > 0:
        return cheapest(winning, trump)
    return cheapest(legal, trump)


def choose(policy: str, hand: int, legal: int, trick: list[int], trump: int, key: int, turn: int) -> int:
    """The card ``policy`` (``random`` or ``greedy``) plays (scalar twin); the reference engine asks
    ``compiled.search`` for ``mc``'s."""
    if policy == "random":
        return random_card(legal, key, turn)
    return greedy_card(hand, legal, trick, trump)


# ----------------------------------------------------------------------------- tables of the compiled twin

def _cheap_rank() -> np.ndarray:
    """``CHEAP_RANK[t, card]``: the card's place (0 = cheapest) in the greedy order under trump state t."""
    ranks = np.zeros((NO_TRUMP + 1, N_CARDS), dtype=np.int64)
    for t in range(NO_TRUMP + 1):
        ranks[t, sorted(range(N_CARDS), key=lambda c: cheapness(c, t))] = np.arange(N_CARDS)
    return ranks


def _trump_strength() -> np.ndarray:
    """``TRUMP_STRENGTH[m]``: greedy step 2's strength of a suit whose held ranks are the 9-bit
    pattern m: its trump points (MJ-3) times 16 plus its cards (ties go to the lowest suit)."""
    return np.array([sum(TRUMP_POINTS[r] for r in range(N_RANKS) if m >> r & 1) * 16 + bin(m).count("1")
                     for m in range(1 << N_RANKS)], dtype=np.int64)


CHEAP_RANK = _cheap_rank()
TRUMP_STRENGTH = _trump_strength()

