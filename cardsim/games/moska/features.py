"""Pre-play features of a Moska deal, from the game key alone: what regression adjustment
(``cardsim.study.report.adjustment``) may use, since no rule or policy can change them.

Per dealer-relative seat, from the deal of M-4, M-5 (before the trump-two swap of M-6):
the trumps dealt, the high cards dealt (J, Q, K, A of any suit) and whether the seat holds
the trump 2. The permutation is ``reference.deal``'s (``core.deals``, tested equal).
"""
from __future__ import annotations

import numpy as np

from cardsim.core.cards import FRENCH52
from cardsim.core.deals import permutations
from cardsim.games.moska.rules import MoskaRules

HIGH = FRENCH52.ranks.index("J")
"""The lowest rank counted as a high card."""
FEATURES = ("trumps", "high", "trump_two")


def names(players: int) -> list[str]:
    return [f"{f}_{s}" for s in range(players) for f in FEATURES]


def deal_features(rules: MoskaRules, players: int, seed: int, games: np.ndarray) -> np.ndarray:
    """A (games x 3 * players) array: ``names(players)`` of each game's deal."""
    perm = permutations(seed, games, FRENCH52.size)
    dealt = players * rules.hand_size
    hands, turned = perm[:, :dealt], perm[:, dealt]
    trump = turned[:, None] // FRENCH52.n_ranks
    seat = (1 + np.arange(dealt)) % players  # M-4: dealt one at a time clockwise from seat 1
    per_card = {"trumps": hands // FRENCH52.n_ranks == trump, "high": hands % FRENCH52.n_ranks >= HIGH,
                "trump_two": hands == trump * FRENCH52.n_ranks}
    return np.stack([per_card[f][:, seat == s].sum(axis=1) for s in range(players) for f in FEATURES],
                    axis=1).astype(float)
