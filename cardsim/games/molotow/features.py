"""Pre-play features of a Molotow deal, from the game key alone: what a deal-only predictor (balance
profiles' luck of the deal, ``cardsim.profile.luck``) may use, since no rule or policy can change them.

Per dealer-relative seat (seat 0 deals the first hand), summed over the game's ``hands`` deals (MJ-5,
MJ-19: the deal passes on each hand): the card points dealt at plain value (MJ-2), the Aces, the Nines
and Unders (the high trumps of MJ-3, whatever suit becomes trump) and the longest suit of each hand.
The permutations are ``reference.deal``'s (``core.deals`` with the hand as counter, tested equal).
"""
from __future__ import annotations

import numpy as np

from cardsim.core.deals import permutations
from cardsim.games.molotow.cards import N_CARDS, N_RANKS, N_SUITS, PLAIN_POINTS, UNDER
from cardsim.games.molotow.rules import MolotowRules

FEATURES = ("points", "aces", "nines_unders", "longest_suit")
ACE, NINE = 8, 3
"""Rank indices (``6 7 8 9 10 U O K A``)."""


def names(players: int) -> list[str]:
    return [f"{f}_{s}" for s in range(players) for f in FEATURES]


def deal_features(rules: MolotowRules, players: int, seed: int, games: np.ndarray) -> np.ndarray:
    """A (games x 4 * players) array: ``names(players)`` of each game's deals, summed over its hands."""
    points = np.array(PLAIN_POINTS)
    out = np.zeros((len(games), len(FEATURES) * players))
    for hand in range(rules.hands):
        cards = permutations(seed, games, N_CARDS, hand)
        seat_of = (hand % players + 1 + np.arange(N_CARDS) // 3) % players  # MJ-5: three at a time
        rank, suit = cards % N_RANKS, cards // N_RANKS
        for s in range(players):
            mine = seat_of == s
            r, su = rank[:, mine], suit[:, mine]
            longest = np.max([(su == x).sum(axis=1) for x in range(N_SUITS)], axis=0)
            out[:, len(FEATURES) * s:len(FEATURES) * (s + 1)] += np.stack(
                [points[r].sum(axis=1), (r == ACE).sum(axis=1), ((r == NINE) | (r == UNDER)).sum(axis=1), longest],
                axis=1)
    return out
