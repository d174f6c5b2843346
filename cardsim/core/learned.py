"""What the games' ``learned`` features share (docs/design.md#learned-players), compiled with numba.

A game's ``learned_features`` names its features (``NAMES``) and its weight blocks (``KINDS`` times
``STAGE_NAMES``); a model's weights sit in the policy table in fixed point (``SCALE``), so a candidate's
``score`` is exact integer arithmetic, the same on every machine and in both engines. The shedding games
(Moska, Musta-Maija) stage a game alike, by their stock (``STOCK_STAGES``, ``stock_stage``).

A block of every game's model (Moska, Musta-Maija and Uno scored here; Molotow by its written-out ``units``) is
``width(n)`` numbers: ``n`` linear weights, then ``HIDDEN`` rectified units, each ``n`` weights, a bias and an
output weight. A linear model leaves the units at zero (they add nothing and cost a test each); a network
model (``cardsim train --hidden H``) fills up to ``HIDDEN`` of them, so a candidate's score can weigh one feature
by another (a hand's size by the stage, say), which the linear scorer cannot.
"""
from __future__ import annotations

import numpy as np

from cardsim.core.jit import njit

SHIFT = 16
SCALE = 1 << SHIFT
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


HIDDEN = 4
"""The rectified units a block has room for (``cardsim train --hidden``: 1 to ``HIDDEN``; ``score`` has them
written out, four)."""


def width(n: int) -> int:
    """The numbers of a block of ``n`` features: ``n`` linear weights, then per unit ``n`` weights, its bias and
    its output weight."""
    return n + HIDDEN * (n + 2)


@njit(cache=True, inline="always")
def score(weights: np.ndarray, block: int, features: np.ndarray, n: int) -> int:
    """The fixed-point score of a candidate from its ``n`` features (the game's ``N``) and block ``block`` of
    ``weights`` (int64, blocks of ``width(n)``): the linear weights dotted with the features, plus each unit's
    output weight times its rectified activation (bias plus weights dotted with the features), shifted back
    to the weights' fixed point. A block whose units all have output weight 0 (a linear model's) skips
    them; the four units' activations are summed in one pass over the features, skipping features of 0
    (integer sums, so the order changes nothing). Inlined, so that ``n`` is the caller's constant (loops of
    known length, as fast as the game's own)."""
    base = block * (n + HIDDEN * (n + 2))
    total = 0
    for i in range(n):
        total += weights[base + i] * features[i]
    if not has_units(weights, block, n):
        return total
    u0 = base + n
    u1, u2, u3 = u0 + n + 2, u0 + 2 * (n + 2), u0 + 3 * (n + 2)
    a0, a1, a2, a3 = weights[u0 + n], weights[u1 + n], weights[u2 + n], weights[u3 + n]
    for i in range(n):
        x = features[i]
        if x != 0:
            a0 += weights[u0 + i] * x
            a1 += weights[u1 + i] * x
            a2 += weights[u2 + i] * x
            a3 += weights[u3 + i] * x
    return total + unit(weights[u0 + n + 1], a0) + unit(weights[u1 + n + 1], a1) + unit(weights[u2 + n + 1], a2) \
        + unit(weights[u3 + n + 1], a3)


LANES = HIDDEN + 1
"""The heads of a block (the linear weights, then each unit's) side by side in ``lanes``' layout."""


def lane_width(n: int) -> int:
    """The numbers of a block of ``n`` features in ``lanes``' layout: ``n + 2`` rows of ``LANES``."""
    return (n + 2) * LANES


LANE_LIMIT = 1 << 30
"""``score_lanes`` multiplies in 32 bits: the fixed-point weights of ``lanes`` lie strictly within ``±LANE_LIMIT``
(±16,384 before the fixed point; a difference of two, as Moska's folded blocks hold, within 32 bits), and
features are counts."""


def lanes(weights: np.ndarray, n: int) -> np.ndarray:
    """Blocks of ``width(n)`` weights (a model's ``fixed_point``, within ``±LANE_LIMIT``: a ``ValueError`` if not)
    laid out for ``score_lanes``: per block, row ``i < n`` holds feature ``i``'s weight in every head (the
    linear weights', then each unit's), row ``n`` the units' biases and row ``n + 1`` their output weights (the
    linear head's column 0 in both). The same numbers, so the same scores, in one pass over a candidate's
    features for all the heads, without ``score``'s test of each feature (Moska's ``learned`` made 1.08–1.09×
    the games of ``score``'s layout, 2026-12-06; its products in 32 bits, ``product``, 1.06× more)."""
    if np.abs(weights).max(initial=0) >= LANE_LIMIT:
        raise ValueError(f"weights must lie within ±{LANE_LIMIT // SCALE:,} (the scorer multiplies in 32 bits)")
    blocks = len(weights) // width(n)
    out = np.zeros((blocks, n + 2, LANES), dtype=np.int64)
    for b in range(blocks):
        out[b, :n, 0] = weights[head(b, n, 0):head(b, n, 0) + n]
        for j in range(1, LANES):
            u = head(b, n, j)
            out[b, :n, j], out[b, n, j], out[b, n + 1, j] = weights[u:u + n], weights[u + n], weights[u + n + 1]
    return out.reshape(-1)


@njit(cache=True, inline="always")
def product(weight: int, feature: int) -> int:
    """``weight * feature``, both within 32 bits (``lanes`` checks the weights; features are counts), exact in 64
    bits: the compiler multiplies the 32-bit halves, four to an instruction (``vpmuldq``), not 64-bit integers."""
    return np.int64(np.int32(weight)) * np.int64(np.int32(feature))


@njit(cache=True, inline="always")
def lane_dots(weights: np.ndarray, start: int, features: np.ndarray, n: int) -> tuple[int, int, int, int, int]:
    """Each head's dot product of the ``n`` rows of ``lanes``' layout from ``start`` with the features: the linear
    weights', then each unit's (a part of the score that ``lane_score`` adds)."""
    t, a0, a1, a2, a3 = 0, 0, 0, 0, 0
    for i in range(n):
        x = features[i]
        o = start + i * LANES
        t += product(weights[o], x)
        a0 += product(weights[o + 1], x)
        a1 += product(weights[o + 2], x)
        a2 += product(weights[o + 3], x)
        a3 += product(weights[o + 4], x)
    return t, a0, a1, a2, a3


@njit(cache=True, inline="always")
def lane_score(weights: np.ndarray, start: int, features: np.ndarray, n: int, t: int, a0: int, a1: int, a2: int,
               a3: int) -> int:
    """The score of a block of ``lanes``' layout from ``start`` (``n`` feature rows, the biases, the output
    weights) and the features, its heads' dot products started from ``t``, ``a0`` … ``a3`` (0, or a part summed
    once for every candidate of a decision: ``lane_dots``). A block whose units all have output weight 0 (a
    linear model's) dots the linear weights alone. Inlined, so that ``n`` is the caller's constant."""
    end = start + n * LANES
    out = end + LANES
    if weights[out + 1] == 0 and weights[out + 2] == 0 and weights[out + 3] == 0 and weights[out + 4] == 0:
        for i in range(n):
            t += product(weights[start + i * LANES], features[i])
        return t
    dt, d0, d1, d2, d3 = lane_dots(weights, start, features, n)
    t, a0, a1, a2, a3 = t + dt, a0 + d0 + weights[end + 1], a1 + d1 + weights[end + 2], a2 + d2 + weights[end + 3], \
        a3 + d3 + weights[end + 4]
    return t + unit(weights[out + 1], a0) + unit(weights[out + 2], a1) + unit(weights[out + 3], a2) \
        + unit(weights[out + 4], a3)


@njit(cache=True, inline="always")
def score_lanes(weights: np.ndarray, block: int, features: np.ndarray, n: int) -> int:
    """``score`` of a candidate from weights in ``lanes``' layout: the same integer, every head's dot product in
    one pass over the features (``lane_score`` of block ``block``)."""
    return lane_score(weights, block * (n + 2) * LANES, features, n, 0, 0, 0, 0, 0)


@njit(cache=True, inline="always")
def head(block: int, n: int, j: int) -> int:
    """Where head ``j`` of block ``block`` starts in the weights (blocks of ``width(n)``): head 0 is the linear
    weights, head ``j`` (1 to ``HIDDEN``) unit ``j``'s ``n`` weights, followed by its bias and its output weight. Each
    head is laid out as the linear weights are, so a game's scorer of a linear block also computes any head's dot
    product with the features (Musta-Maija's card-by-card ``card_gains``)."""
    base = block * (n + HIDDEN * (n + 2))
    return base if j == 0 else base + n + (j - 1) * (n + 2)


@njit(cache=True, inline="always")
def from_heads(weights: np.ndarray, block: int, n: int, dots: np.ndarray) -> int:
    """``score`` of a candidate from its features' dot product with each head (``head``) of block ``block``:
    ``dots[0]`` the linear weights', ``dots[j]`` unit ``j``'s. The same integer as ``score`` of the features."""
    total = dots[0]
    for j in range(1, HIDDEN + 1):
        u = head(block, n, j)
        total += unit(weights[u + n + 1], weights[u + n] + dots[j])
    return total


@njit(cache=True, inline="always")
def has_units(weights: np.ndarray, block: int, n: int) -> bool:
    """Whether block ``block`` of ``weights`` (blocks of ``width(n)``) has a unit with an output weight: a network
    model's block; a linear model's has none."""
    u0 = block * (n + HIDDEN * (n + 2)) + n
    return weights[u0 + n + 1] != 0 or weights[u0 + 2 * n + 3] != 0 or weights[u0 + 3 * n + 5] != 0 \
        or weights[u0 + 4 * n + 7] != 0


@njit(cache=True, inline="always")
def unit(output: int, active: int) -> int:
    """A unit's term of the score: its output weight times its rectified activation, in fixed point."""
    return (output * active) >> SHIFT if active > 0 else 0
