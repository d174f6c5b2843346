"""Pre-play features of an Uno deal, from the game key alone: what a deal-only predictor (balance
profiles' luck of the deal, ``cardsim.profile.luck``) may use, since no rule or policy can change them.

Per dealer-relative seat, from its first hand's seven (``hand_size``) cards (U-4): the Wild Draw
Fours, the other wilds, the Draw Twos, the Skips and Reverses, and how many colours it holds. A match
(``target_score``) deals again each hand; only the first hand's cards are read. The permutation is
``reference.deal``'s (``core.deals``, tested equal).
"""
from __future__ import annotations

import numpy as np

from cardsim.core.deals import permutations
from cardsim.games.uno.cards import DRAW_TWO, REVERSE, SKIP, WD4, WILD, deck_cards
from cardsim.games.uno.rules import UnoRules

FEATURES = ("draw_fours", "wilds", "draw_twos", "actions", "colours")


def names(players: int) -> list[str]:
    return [f"{f}_{s}" for s in range(players) for f in FEATURES]


def deal_features(rules: UnoRules, players: int, seed: int, games: np.ndarray) -> np.ndarray:
    """A (games x 5 * players) array: ``names(players)`` of each game's first deal (dealer seat 0)."""
    deck = np.array(deck_cards(rules.deck))
    dealt = rules.hand_size * players
    hands = deck[permutations(seed, games, len(deck))[:, :dealt]]
    seat_of = (1 + np.arange(dealt)) % players  # U-4: one card at a time, from the dealer's left
    coloured = hands < WILD
    symbol = np.where(coloured, hands % 13, -1)
    out = []
    for s in range(players):
        mine = seat_of == s
        h, sym, c = hands[:, mine], symbol[:, mine], coloured[:, mine]
        colours = sum(((h // 13 == x) & c).any(axis=1) for x in range(4))
        out += [(h == WD4).sum(axis=1), (~c & (h != WD4)).sum(axis=1), (sym == DRAW_TWO).sum(axis=1),
                ((sym == SKIP) | (sym == REVERSE)).sum(axis=1), colours]
    return np.stack(out, axis=1).astype(float)
