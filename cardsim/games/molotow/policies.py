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
    ``base`` may be ``learned(model=X)``: the play-outs are that model's in every seat.

``learned(model=NAME)``
    A scorer (linear, or a small network: ``core.learned``) over ``mc``'s candidates (every legal card,
    ``greedy``'s first, then ascending code), run by the compiled engine (``compiled.learned_card``; the
    reference engine hands it its position as it does ``mc``'s). Each card is described by the integer
    features of ``learned_features.py``, from the seat's view only (its hand, the trick, the trump state, the cards
    played this hand and who took them, what the later seats' plays ruled out); its score is the model's
    fixed-point weights of the decision's block (lead, follow or last card of the trick; no trump yet,
    trump set, the last tricks) dotted with them, plus a network's rectified units over them
    (``learned_features.units``); the highest wins, ties to the first (a model of zero
    weights is ``greedy``). A single legal card is played without scoring. Draws nothing. ``NAME`` is a
    committed model (``cardsim/models/molotow/``) or a model file's path; without it ``DEFAULT_MODEL``.

``forbid=OPTION`` (every policy; several joined by ``+``: ``greedy(forbid=trump_instead+undertrump)``)
    The seat never takes the optional actions named (``rules.OPTIONS``: ``trump_instead`` MJ-9,
    ``undertrump`` MJ-10, ``keep_buur`` MJ-11) while another legal card remains: the policy chooses among
    ``reference.allowed_moves`` instead of the legal cards (for ``mc``: its candidates, and its own
    decisions in its play-outs; the other seats of a play-out are not restricted). Its draws are the
    same; what its cards show the table (``ruled_out``) is still read from the rules alone.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import rng
from cardsim.core.cards import cards_of, count
from cardsim.core.search import MC, ORACLE, PolicyStrings
from cardsim.games.molotow.cards import (DECK, N_CARDS, N_RANKS, N_SUITS, NO_TRUMP, TRUMP_POINTS, TRUMP_POWER, beats,
                                         is_trump, points, rank, suit)
from cardsim.games.molotow.rules import OPTIONS

BASES = ("random", "greedy")
"""The policies that decide without search and have a scalar twin here (the reference engine's)."""
LEARNED = "learned"
PLAY_OUTS = (*BASES, LEARNED)
"""``mc``'s play-out policies: those that decide without search."""
POLICIES = (*PLAY_OUTS, MC, ORACLE)
DEFAULT_MODEL = "molotow_4p_g3"
"""The model of ``learned`` without a ``model``: the best committed generation (docs/ladder.md)."""
STRINGS = PolicyStrings("molotow", POLICIES, PLAY_OUTS, tuple(OPTIONS), DEFAULT_MODEL)
parse_full, parse_policy, check_policy, forbid_of = STRINGS.parse, STRINGS.policy, STRINGS.name, STRINGS.forbid
"""A policy string's name, its parameters (``mc``'s, ``learned``'s model) and its ``forbid`` mask (bit ``i``:
``rules.OPTIONS[i]``), one ``ValueError`` line if bad (``parse_full``: ``core.search.PolicyStrings``); the
first two (``parse_policy``); the name (``check_policy``); the mask (``forbid_of``)."""


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
    """The card ``policy`` (``random`` or ``greedy``) plays among ``legal`` (scalar twin; with ``forbid``, the
    allowed cards); the reference engine asks the compiled engine for ``mc``'s and ``learned``'s."""
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

