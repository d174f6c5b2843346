"""Moska's features of a candidate decision for ``learned`` (docs/design.md#learned-players), compiled with numba.

A candidate is described by three masks the deciding seat can compute from its **view**: ``spent``,
the cards that leave its hand now (an opening, an addition, the killers and self-attacked cards of a
defence) or, in a give-back (M-12), the cards sent back; ``left``, its hand after the decision (a
defence's unkilled cards included: it picks them up unless it kills them later); ``picked``, those
unkilled cards. ``others`` are the cards the seat cannot place itself: the cards it cannot see and
the cards shown in the other hands. Every feature is an integer, so a score (``score``: the
fixed-point weights of the block of the decision's kind and stage, times the features) is exact
integer arithmetic, the same on every machine and in both engines.

The weights form ``BLOCKS`` blocks of ``len(NAMES)``: block ``kind * STAGES + stage`` for the decision
kind (the engine's phases: open, defend, add, give_back) and the stage of the game (``stage``, the
shedding games' ``core.learned.stock_stage``: the stock holds more than ``LATE_STOCK`` cards, some, none,
none with two seats left). Changing a feature changes ``VERSION``: a model file names the version and the
features it was fitted on, and loads only where they match.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import learned
from cardsim.core.cards import FRENCH52
from cardsim.core.jit import ONE, ZERO, bit, highest, lowest, njit, popcount
from cardsim.core.learned import SCALE
from cardsim.core.learned import STOCK_STAGES as STAGE_NAMES
from cardsim.games.moska.cards import SUIT_MASK, pair_ranks, rank_set
from cardsim.games.moska.policies import LOW_RANKS

VERSION = 1
"""The feature set's version (a model file records it)."""
NAMES = (
    "greedy", "spent", "spent_trumps", "spent_trump_ranks", "spent_plain_ranks", "spent_high_plain",
    "out", "left", "left_ranks", "left_pairs", "left_trumps", "left_high_trumps", "left_low_plain",
    "left_plain_ranks", "left_trump_ranks", "picked", "picked_trumps", "killable", "unkillable", "spent_low_plain",
    "left_unkillable", "over_defender",
)
"""The features of a candidate, in the order of a block of weights: whether it is ``greedy``'s decision;
of ``spent``: how many cards, trumps, rank sums (2 = 0 … A = 12) of its trumps and non-trumps, non-trumps
J..A, non-trumps 2..T (``spent_low_plain``); ``out``: the hand is empty after it; of ``left``: how many
cards, ranks, ranks held twice or more, trumps, trumps J..A, non-trumps 2..T, rank sums; ``picked``: how
many, trumps; ``killable``: the killers (M-10) among ``others`` summed over the spent cards;
``unkillable``: spent cards with no killer among ``others``; ``left_unkillable``: cards of ``left`` with
none; ``over_defender``: in an opening or an addition, the spent cards beyond the defender's hand size."""
N = len(NAMES)
KINDS = ("open", "defend", "add", "give_back")
"""Decision kinds in the order of the engine's phases (``compiled.OPEN`` …)."""
STAGES = len(STAGE_NAMES)
BLOCKS = len(KINDS) * STAGES
WIDTH = learned.width(N)
"""Numbers of a block: ``N`` linear weights and room for ``core.learned.HIDDEN`` rectified units."""
WEIGHTS = BLOCKS * WIDTH
"""Weights of a model: ``BLOCKS`` blocks of ``WIDTH``."""
LANE_WEIGHTS = BLOCKS * learned.lane_width(N)
"""``WEIGHTS`` laid out by ``core.learned.lanes``."""
KEPT = {"left": "spent", "left_trumps": "spent_trumps", "left_high_trumps": "spent_high_trumps",
        "left_low_plain": "spent_low_plain", "left_plain_ranks": "spent_plain_ranks",
        "left_trump_ranks": "spent_trump_ranks", "left_unkillable": "unkillable"}
"""The features of ``left`` that are sums over its cards, each with the sum over the spent cards it loses. In
an opening the spent cards come from the hand and ``left`` is the rest, so each is the hand's sum
(``kept_sums``, once a decision) less the spent cards' (``spent_high_trumps``: the trumps J..A spent, not a
feature of ``NAMES``)."""
FOLDED = ("greedy", "spent", "spent_trumps", "spent_trump_ranks", "spent_plain_ranks", "spent_high_plain", "out",
          "left_ranks", "left_pairs", "killable", "unkillable", "spent_low_plain", "over_defender",
          "spent_high_trumps")
"""An opening's features as ``describe_folded`` writes them: ``NAMES`` without ``KEPT`` and ``picked``,
``picked_trumps`` (0 there), with ``spent_high_trumps``."""
N_FOLDED, N_KEPT = len(FOLDED), len(KEPT)
KEPT_ROWS = (N_FOLDED + 2) * learned.LANES
FOLD_WIDTH = KEPT_ROWS + N_KEPT * learned.LANES
"""A folded block (``fold``, one a stage): ``FOLDED``'s rows, the biases, the output weights, then from
``KEPT_ROWS`` on ``KEPT``'s rows."""
FOLDED_WEIGHTS = STAGES * FOLD_WIDTH
TABLE_WEIGHTS = LANE_WEIGHTS + FOLDED_WEIGHTS
"""Weights of a model in the policy table: its ``lanes`` layout, then its open blocks ``fold``ed."""
RANKS = FRENCH52.n_ranks
HIGH = LOW_RANKS + 1
HIGH_CARDS = np.uint64(sum(FRENCH52.rank_mask(r) for r in range(HIGH, RANKS)))
"""The J, Q, K and A of every suit."""
RANK_BIT = np.array([sum(FRENCH52.rank_mask(r) for r in range(RANKS) if r >> b & 1) for b in range(4)], np.uint64)
"""``RANK_BIT[b]``: the cards whose rank index has bit ``b`` set (``rank_sum``'s slices)."""


def block_names() -> list[str]:
    """``kind/stage`` for every block, in order."""
    return [f"{k}/{s}" for k in KINDS for s in STAGE_NAMES]


@njit(cache=True)
def unkillable(cards: np.uint64, others: np.uint64, trump: int) -> np.uint64:
    """The cards of ``cards`` with no killer (M-10) among ``others``: what ``describe`` reads as ``safe``
    (computed once per decision over every card a candidate can spend or leave). Suit by suit: a card is
    safe from its suit when no card of ``others`` in that suit ranks above it (at or above the highest of
    them), and a non-trump also needs ``others`` to hold no trump."""
    safe = ZERO
    trumps_out = others & SUIT_MASK[trump] != ZERO
    for suit in range(4):
        if suit != trump and trumps_out:
            continue
        mine, theirs = cards & SUIT_MASK[suit], others & SUIT_MASK[suit]
        safe |= mine if theirs == ZERO else mine & ~(bit(highest(theirs)) - ONE)
    return safe


@njit(cache=True)
def rank_sum(cards: np.uint64) -> int:
    """The ranks (2 = 0 … A = 12) of the cards summed, four bit slices of popcounts."""
    return (popcount(cards & RANK_BIT[0]) + 2 * popcount(cards & RANK_BIT[1]) + 4 * popcount(cards & RANK_BIT[2])
            + 8 * popcount(cards & RANK_BIT[3]))


@njit(cache=True, inline="always")
def describe_spent(out: np.ndarray, greedy: bool, spent: np.uint64, trump: int) -> None:
    """The first six features, the same in ``NAMES`` and ``FOLDED``, into ``out[:6]``: ``greedy``, then how many
    cards ``spent`` holds, its trumps, their rank sum, its non-trumps' rank sum, its non-trumps J..A."""
    trumps = SUIT_MASK[trump]
    out[0] = greedy
    out[1] = popcount(spent)
    out[2] = popcount(spent & trumps)
    out[3] = rank_sum(spent & trumps)
    out[4] = rank_sum(spent & ~trumps)
    out[5] = popcount(spent & ~trumps & HIGH_CARDS)


@njit(cache=True, inline="always")
def killers_of(spent: np.uint64, others: np.uint64, trump: int, kill: np.ndarray) -> int:
    """``killable``: the killers (M-10) among ``others`` summed over the spent cards (``kill``: ``compiled.KILL``)."""
    killers = 0
    rest = spent
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        killers += popcount(kill[trump, c] & others)
    return killers


@njit(cache=True, inline="always")
def kept_of(cards: np.uint64, trump: int, safe: np.uint64) -> tuple[int, int, int, int, int, int, int]:
    """``KEPT``'s sums over ``cards``, in order: how many, trumps, trumps J..A, non-trumps 2..T, the non-trumps'
    and the trumps' rank sums, cards in ``safe``."""
    trumps = SUIT_MASK[trump]
    plain = cards & ~trumps
    return (popcount(cards), popcount(cards & trumps), popcount(cards & trumps & HIGH_CARDS),
            popcount(plain & ~HIGH_CARDS), rank_sum(plain), rank_sum(cards & trumps), popcount(cards & safe))


@njit(cache=True, inline="always")
def describe(out: np.ndarray, greedy: bool, spent: np.uint64, left: np.uint64, picked: np.uint64,
             others: np.uint64, trump: int, kill: np.ndarray, defender_hand: int, safe: np.uint64) -> None:
    """The features (``NAMES``) of one candidate into ``out[:N]`` (int64); ``kill``: ``compiled.KILL``;
    ``defender_hand``: the defender's hand size in an opening or an addition (else a large number); ``safe``:
    ``unkillable`` of a mask holding ``spent`` and ``left``. Mask arithmetic but for the killers of the spent
    cards (the feature loop is most of ``learned``'s time). Inlined, as are ``compiled.candidate_features`` and
    ``candidate_masks``: called per candidate, they left ``learned`` self-play 1.15–1.25× slower (2026-12-06)."""
    trumps = SUIT_MASK[trump]
    describe_spent(out, greedy, spent, trump)
    out[19] = popcount(spent & ~trumps & ~HIGH_CARDS)
    out[17] = killers_of(spent, others, trump, kill)
    out[18] = popcount(spent & safe)
    out[6] = left == ZERO
    out[8] = popcount(rank_set(left))
    out[9] = popcount(pair_ranks(left))
    out[7], out[10], out[11], out[12], out[13], out[14], out[20] = kept_of(left, trump, safe)
    out[15] = popcount(picked)
    out[16] = popcount(picked & trumps)
    out[21] = max(0, out[1] - defender_hand)


def fold(lanes: np.ndarray) -> np.ndarray:
    """The open blocks of a model's ``lanes`` layout, one a stage, folded for ``describe_folded``'s features:
    a score is the rows of ``NAMES`` times the features, and each ``KEPT`` feature is the hand's sum less the
    spent cards', so its row moves to the rows of ``KEPT`` (times ``kept_sums``, once a decision) and is taken
    from the row of the spent sum (``spent_high_trumps``' row is its negative). The same integers
    (``core.learned.lane_score``), 14 products a head a candidate instead of 22. Openings have five or six
    candidates a decision: folded, ``learned`` made 1.04× the games (2026-12-06); additions, two or three,
    gained nothing measurable over the sums once a decision, and are not folded."""
    opening = lanes.reshape(BLOCKS, N + 2, learned.LANES)[KINDS.index("open") * STAGES:][:STAGES]
    out = np.zeros((STAGES, N_FOLDED + 2 + N_KEPT, learned.LANES), dtype=np.int64)
    for block, folded in zip(opening, out):
        for r, name in enumerate(FOLDED):
            if name in NAMES:
                folded[r] = block[NAMES.index(name)]
        for k, (kept, spent) in enumerate(KEPT.items()):
            folded[FOLDED.index(spent)] -= block[NAMES.index(kept)]
            folded[N_FOLDED + 2 + k] = block[NAMES.index(kept)]
        folded[N_FOLDED:N_FOLDED + 2] = block[N:]
    return out.reshape(-1)


@njit(cache=True, inline="always")
def kept_sums(out: np.ndarray, hand: np.uint64, trump: int, safe: np.uint64) -> None:
    """``KEPT``'s features of the whole hand, in order, into ``out`` (``safe``: as for ``describe``)."""
    out[0], out[1], out[2], out[3], out[4], out[5], out[6] = kept_of(hand, trump, safe)


@njit(cache=True, inline="always")
def describe_folded(out: np.ndarray, greedy: bool, spent: np.uint64, left: np.uint64, others: np.uint64, trump: int,
                    kill: np.ndarray, defender_hand: int, safe: np.uint64) -> None:
    """The features ``FOLDED`` of an opening (``spent`` from the hand, ``left`` the rest) into ``out``, as
    ``describe`` computes them."""
    trumps = SUIT_MASK[trump]
    describe_spent(out, greedy, spent, trump)
    out[6] = left == ZERO
    out[7] = popcount(rank_set(left))
    out[8] = popcount(pair_ranks(left))
    out[9] = killers_of(spent, others, trump, kill)
    out[10] = popcount(spent & safe)
    out[11] = popcount(spent & ~trumps & ~HIGH_CARDS)
    out[12] = max(0, out[1] - defender_hand)
    out[13] = popcount(spent & trumps & HIGH_CARDS)
