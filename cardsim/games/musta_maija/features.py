"""Pre-play features of a Musta-Maija deal, from the game key alone: what regression adjustment
(``cardsim.study.report.adjustment``) may use, since no rule or policy can change them.

Per dealer-relative seat, from the hands of the deal (MM-1, MM-4): the high cards dealt
(J, Q, K, A), the diamonds dealt (the trump under ``trump = "diamonds"``), the marriages
(a K and a Q of one suit: MM-6's trump-makers) and whether the seat holds the Black Maria.
The permutation is ``reference.deal``'s (``core.deals``, tested equal).
"""
from __future__ import annotations

import numpy as np

from cardsim.core.deals import permutations
from cardsim.games.musta_maija.cards import BLACK_MARIA, DIAMONDS, JACK, KING, QUEEN, RANKS, card_list
from cardsim.games.musta_maija.reference import deal_order
from cardsim.games.musta_maija.rules import MustaMaijaRules

FEATURES = ("high", "diamonds", "marriages", "black_maria")
SUITS = 4


def names(players: int) -> list[str]:
    return [f"{f}_{s}" for s in range(players) for f in FEATURES]


def deal_features(rules: MustaMaijaRules, players: int, seed: int, games: np.ndarray) -> np.ndarray:
    """A (games x 4 * players) array: ``names(players)`` of each game's deal."""
    codes = np.array(card_list(players))
    seats = np.array(deal_order(players, rules.hand_size))
    hands = codes[permutations(seed, games, len(codes))[:, :len(seats)]]
    suit, rank = (hands % 52) // RANKS, hands % RANKS
    out = []
    for s in range(players):
        mine = seats == s
        r, su = rank[:, mine], suit[:, mine]
        marriages = sum(((r == KING) & (su == x)).any(axis=1) & ((r == QUEEN) & (su == x)).any(axis=1)
                        for x in range(SUITS))
        out += [(r >= JACK).sum(axis=1), (su == DIAMONDS).sum(axis=1), marriages,
                (hands[:, mine] == BLACK_MARIA).any(axis=1)]
    return np.stack(out, axis=1).astype(float)
