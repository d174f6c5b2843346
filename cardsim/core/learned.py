"""What the games' ``learned`` features share (docs/design.md#learned-players), compiled with numba.

A game's ``learned_features`` names its features (``NAMES``) and its weight blocks (``KINDS`` times
``STAGE_NAMES``); a model's weights sit in the policy table in fixed point (``SCALE``), so a candidate's
``score`` is exact integer arithmetic, the same on every machine and in both engines. The shedding games
(Moska, Musta-Maija) stage a game alike, by their stock (``STOCK_STAGES``, ``stock_stage``).
"""
from __future__ import annotations

import numpy as np

from cardsim.core.jit import njit

SCALE = 1 << 16
"""Fixed point of the weights in the policy table: ``round(w * SCALE)``."""
STOCK_STAGES = ("stock", "late", "empty", "duel")
"""The shedding games' stages: the stock holds more than ``LATE_STOCK`` cards, some, none, none with two
seats left in play."""
LATE_STOCK = 8
"""The stock is ``late`` from this many cards down (Moska's ``mc`` ``SEARCH_STOCK``; Musta-Maija's endgame
draws near, MM-13)."""


@njit(cache=True)
def stock_stage(stock_left: int, in_play: int) -> int:
    """The ``STOCK_STAGES`` index: 0 while the stock holds more than ``LATE_STOCK`` cards, 1 while it holds
    some, 2 when empty, 3 when empty with ``in_play`` two seats."""
    if stock_left > LATE_STOCK:
        return 0
    if stock_left > 0:
        return 1
    return 3 if in_play <= 2 else 2


@njit(cache=True, inline="always")
def score(weights: np.ndarray, block: int, features: np.ndarray, n: int) -> int:
    """The fixed-point score of a candidate: block ``block`` of ``weights`` (int64, blocks of ``n``, the game's
    ``N``) dotted with its ``n`` features. Inlined, so that ``n`` is the caller's constant (a loop of known
    length, as fast as the game's own)."""
    total = 0
    base = block * n
    for i in range(n):
        total += weights[base + i] * features[i]
    return total

