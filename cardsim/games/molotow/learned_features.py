"""Molotow's features of a candidate card for ``learned`` (docs/design.md#the-learned-policy), compiled with numba.

A candidate is one legal card of the seat to play. Its features are integers computed from the seat's
**view** only (``compiled.py``'s module docstring): its hand, the trick, the trump state, the cards played
this hand and who took them (public, MJ-12), and ``possible``, the cards the seats still to play in this
trick might hold (neither seen by the seat nor ruled out for them by their plays: ``compiled.rule_out``).
Values are the points of the trump state *after* the card (a card that sets trump, MJ-8, is valued
under the suit it makes trump). A conditional logit only compares a position's candidates, so what is the
same for every candidate (the seat's points so far, say) enters only through products with what is not:
``win_if_lowest`` is the points the card wins when the seat is (so far) the lowest, for the scoring
that rewards the highest and the lowest (MJ-13, MJ-14) and punishes 100 points (MJ-16).

The weights form ``BLOCKS`` blocks of ``WIDTH``: block ``kind * STAGES + stage`` for the card's place in the
trick (lead, follow, last) and the stage of the hand (no trump yet, trump set with more than
``LATE_TRICKS`` tricks to play, the last ``LATE_TRICKS``). A score is the fixed-point weights
(``SCALE``) of the block's ``N`` linear weights dotted with the features, plus, in a network model
(``cardsim train --hidden``), its rectified ``units`` (``core.learned.score``'s): exact integer arithmetic,
the same in both engines.
Changing a feature changes ``VERSION``; a model file names the version and features it was fitted on.

What a decision's candidates share is computed once (``context``: the points, the trick, the cards no
unseen card beats), so that a candidate's ``features`` and ``score`` are straight-line integer arithmetic
that LLVM inlines into the scorer's loop (``compiled.learned_card``): ``learned`` self-play plays about
twice the games per CPU-second it did when every candidate read the state, the same cards.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardsim.core import learned
from cardsim.core.jit import ONE, U, ZERO, njit, popcount
from cardsim.core.learned import SCALE
from cardsim.games.molotow.cards import (BEATS, BUUR, N_CARDS, N_RANKS, N_SUITS, NO_TRUMP, PATTERN_POINTS, POINTS,
                                         SUIT_MASK, SUIT_OF, TRUMP_POWER, mask_points)

VERSION = 1
"""The feature set's version (a model file records it)."""
NAMES = (
    "greedy", "points", "trump", "power", "wins", "win_points", "beaters", "safe", "safe_points", "give_points",
    "sets_trump", "set_suit_points", "set_suit_cards", "left_trumps", "left_points", "left_boss", "void", "buur",
    "win_if_lowest", "win_if_highest", "becomes_highest", "leaves_lowest", "reaches_100",
)
"""The features of a candidate card, in the order of a block of weights:
``greedy``: it is ``greedy``'s card; ``points``: its points (MJ-2…MJ-4); ``trump``: it is a trump;
``power``: its trump order if a trump (MJ-3), else its plain rank; ``wins``: it is the trick's best card
once played (a lead is); ``win_points``: if it wins, the trick's points with it (and the last-trick bonus
in the last trick, MJ-4); ``beaters``: if it wins, the ``possible`` cards that beat it (MJ-12); ``safe``:
it wins and none can; ``safe_points``: ``win_points`` when safe; ``give_points``: its points when it does
not win (they go to another seat); ``sets_trump``: it sets trump (MJ-8), ``set_suit_points`` and
``set_suit_cards``: then the trump points (MJ-3) and the cards of that suit in the hand; of the hand
left: ``left_trumps``, ``left_points``, ``left_boss`` (cards no unseen card beats if led); ``void``: it is
the last card of a plain suit in hand; ``buur``: it is the trump Under (MJ-11); ``win_if_lowest`` and
``win_if_highest``: ``win_points`` when the seat has so far the fewest (most) points of the hand, ties
included; ``becomes_highest``: winning takes it above every other seat; ``leaves_lowest``: winning takes
it from the lowest; ``reaches_100``: winning takes it to 100 points or more (MJ-16)."""
N = len(NAMES)
KINDS = ("lead", "follow", "last")
STAGE_NAMES = ("no_trump", "trump", "late")
STAGES = len(STAGE_NAMES)
LATE_TRICKS = 3
"""The hand is ``late`` in its last ``LATE_TRICKS`` tricks."""
BLOCKS = len(KINDS) * STAGES
WIDTH = learned.width(N)
"""Numbers of a block: ``N`` linear weights and room for ``core.learned.HIDDEN`` rectified units."""
WEIGHTS = BLOCKS * WIDTH
"""Weights of a model: ``BLOCKS`` blocks of ``WIDTH``."""
BIG = 100
"""MJ-16: a hand of 100 points or more costs its taker 3 potatoes."""
_ALL = np.uint64((1 << N_CARDS) - 1)
POWER = np.array([[TRUMP_POWER[c % N_RANKS] if SUIT_OF[c] == t else c % N_RANKS for c in range(N_CARDS)]
                  for t in range(NO_TRUMP + 1)], dtype=np.int64)
"""``POWER[t, card]``: the card's trump order (MJ-3) if a trump under the trump state ``t``, else its plain rank."""
TRUMP_TOP = np.array([sum(1 << r for r in range(N_RANKS)
                          if all(TRUMP_POWER[r] > TRUMP_POWER[u] for u in range(N_RANKS) if m >> u & 1))
                      for m in range(1 << N_RANKS)], dtype=np.uint64)
"""``TRUMP_TOP[m]``: the ranks (a 9-bit pattern) of the trumps above every trump of the rank pattern ``m`` (MJ-3)."""
_KEPT = np.array([sum(((1 << (N_RANKS - k)) - 1) << (N_RANKS * x) for x in range(N_SUITS)) for k in range(N_RANKS)],
                 dtype=np.uint64)
"""``_KEPT[k]``: the cards of rank ``N_RANKS - k - 1`` or lower: where a mask shifted down by ``k`` ranks still
holds cards of the same suit."""
_SUIT_BITS = np.uint64((1 << N_RANKS) - 1)


def block_names() -> list[str]:
    """``kind/stage`` for every block, in order."""
    return [f"{k}/{s}" for k in KINDS for s in STAGE_NAMES]


@njit(cache=True, inline="always")
def block(players: int, trick_len: int, trick_no: int, trump: int) -> int:
    """The weight block of a decision: the card's place in the trick and the stage of the hand."""
    kind = 0 if trick_len == 0 else (2 if trick_len == players - 1 else 1)
    if trump == NO_TRUMP:
        return kind * STAGES
    return kind * STAGES + (2 if N_CARDS // players - trick_no <= LATE_TRICKS else 1)


@njit(cache=True)
def possible_cards(s, seat: int) -> np.uint64:
    """The cards the seats after ``seat`` in this trick might hold: unseen by ``seat``, not ruled out for them."""
    hidden = _ALL & ~s.held[seat] & ~s.played
    out = ZERO
    n = s.players
    for k in range(1, n - s.trick_len):
        q = seat + k
        q = q - n if q >= n else q
        out |= hidden & ~s.ruled_out[q]
    return out


class Context(NamedTuple):
    """What the candidates of a seat's decision that leave the trump state ``t`` share (``context``)."""

    t: int                  # the trump state after the card (MJ-8)
    sets: bool              # the card sets trump: ``t`` is not yet the hand's trump state
    hand: np.uint64         # the seat's cards
    possible: np.uint64     # ``possible_cards``
    winners: np.uint64      # the cards that would take the trick (MJ-12): any card leads
    gain: int               # the trick's points, with the last-trick bonus in the last trick (MJ-4)
    mine: int               # the seat's points this hand, and the most and the fewest of the other seats'
    high: int
    low: int
    hand_points: int
    hand_trumps: int
    set_points: int         # the trump points (MJ-3) of the hand's cards of suit ``t``, when the card sets it
    boss: np.uint64         # the seat's cards that no unseen card beats if led


@njit(cache=True)
def trump_after(s, card: int) -> int:
    """The trump state once ``card`` is played: MJ-8, the first card of a hand off the led suit makes its suit trump
    (and is a trump in its own trick)."""
    if s.trick_len > 0 and s.trump == NO_TRUMP and SUIT_OF[card] != s.led:
        return SUIT_OF[card]
    return s.trump


@njit(cache=True)
def context(s, seat: int, t: int, bonus: int, possible: np.uint64) -> Context:
    """The ``Context`` of ``seat``'s decision for its cards that leave the trump state ``t`` (``trump_after``),
    ``possible``: ``possible_cards``; once a decision (a suit at a time when the cards set trump)."""
    n = s.players
    gain = bonus if s.trick_no == N_CARDS // n - 1 else 0
    for i in range(s.trick_len):
        gain += POINTS[t, s.trick[i]]
    mine = mask_points(s.taken[seat], t)
    high, low = -1, 1 << 20
    for q in range(n):
        if q != seat:
            p = mask_points(s.taken[q], t)
            high, low = max(high, p), min(low, p)
    hand = s.held[seat]
    unseen = _ALL & ~hand & ~s.played
    below = unseen                                              # MJ-12, the cards no unseen card beats if led:
    below |= (below >> U(1)) & _KEPT[1]                         # in each suit, those above its highest unseen
    below |= (below >> U(2)) & _KEPT[2]                         # card (its unseen ranks smeared down the suit)
    below |= (below >> U(4)) & _KEPT[4]
    below |= (below >> U(8)) & _KEPT[8]
    boss = hand & ~below
    if t != NO_TRUMP:                                           # trumps in the trump order (MJ-3); a plain card
        trumps = hand & TRUMP_TOP[np.int64((unseen >> U(N_RANKS * t)) & _SUIT_BITS)] << U(N_RANKS * t)
        boss = trumps | (boss & ~SUIT_MASK[t] if unseen & SUIT_MASK[t] == ZERO else ZERO)  # while no trump is unseen
    sets = t != s.trump
    return Context(t, sets, hand, possible, _ALL if s.trick_len == 0 else BEATS[s.best, t], gain, mine, high, low,
                   mask_points(hand, t), popcount(hand & SUIT_MASK[t]),
                   PATTERN_POINTS[1, np.int64((hand >> U(N_RANKS * t)) & _SUIT_BITS)] if sets else 0, boss)


@njit(cache=True)
def features(card: int, greedy: bool, here: Context) -> tuple:
    """The ``NAMES`` features of playing ``card`` (a tuple of ``N`` ints), ``here`` the decision's ``context``
    under ``trump_after`` the card: arithmetic without a branch, small enough for LLVM to inline."""
    t, sets, hand_trumps = here.t, np.int64(here.sets), here.hand_trumps
    mine, high, low = here.mine, here.high, here.low
    b = ONE << U(card)
    is_trump = np.int64(b & SUIT_MASK[t] != ZERO)
    pts = POINTS[t, card]
    gain = here.gain + pts
    wins = np.int64(here.winners & b != ZERO)
    beaters = popcount(BEATS[card, t] & here.possible) * wins
    safe = wins * np.int64(beaters == 0)
    win_points = gain * wins
    void = (1 - is_trump) * np.int64(here.hand & ~b & SUIT_MASK[SUIT_OF[card]] == ZERO)
    return (np.int64(greedy), pts, is_trump, POWER[t, card], wins, win_points, beaters, safe, win_points * safe,
            pts * (1 - wins), sets, here.set_points, hand_trumps * sets, hand_trumps - is_trump, here.hand_points - pts,
            popcount(here.boss & ~b), void, np.int64(b == BUUR[t]), win_points * (mine <= low),
            win_points * (mine >= high), wins * (mine <= high) * (high < mine + gain),
            wins * (mine <= low) * (low < mine + gain), wins * (mine + gain >= BIG))


@njit(cache=True)
def describe(out: np.ndarray, s, seat: int, card: int, greedy: bool, bonus: int) -> None:
    """``features`` into ``out[:N]`` (int64): the rows of the training positions and of the tests."""
    f = features(card, greedy, context(s, seat, trump_after(s, card), bonus, possible_cards(s, seat)))
    for i in range(N):
        out[i] = f[i]


assert N == 23, "weights, score and units below are written out for 23 features: write them out again for NAMES"


@njit(cache=True)
def weights(policies: np.ndarray, row: int, start: int, blk: int) -> tuple:
    """The ``N`` linear weights of block ``blk`` of row ``row`` of the policy table (they start at column ``start``):
    a tuple read once a decision, so that ``score`` takes no array (a function taking one was not inlined)."""
    i = start + blk * WIDTH
    return (policies[row, i], policies[row, i + 1], policies[row, i + 2], policies[row, i + 3],
            policies[row, i + 4], policies[row, i + 5], policies[row, i + 6], policies[row, i + 7],
            policies[row, i + 8], policies[row, i + 9], policies[row, i + 10], policies[row, i + 11],
            policies[row, i + 12], policies[row, i + 13], policies[row, i + 14], policies[row, i + 15],
            policies[row, i + 16], policies[row, i + 17], policies[row, i + 18], policies[row, i + 19],
            policies[row, i + 20], policies[row, i + 21], policies[row, i + 22])


@njit(cache=True)
def score(w: tuple, f: tuple) -> int:
    """The fixed-point score of a candidate: its block's ``weights`` ``w`` dotted with its features ``f``, written
    out: numba runs a loop over a tuple through a jump table, element by element."""
    return (w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3] + w[4] * f[4] + w[5] * f[5] + w[6] * f[6]
            + w[7] * f[7] + w[8] * f[8] + w[9] * f[9] + w[10] * f[10] + w[11] * f[11] + w[12] * f[12]
            + w[13] * f[13] + w[14] * f[14] + w[15] * f[15] + w[16] * f[16] + w[17] * f[17] + w[18] * f[18]
            + w[19] * f[19] + w[20] * f[20] + w[21] * f[21] + w[22] * f[22])


@njit(cache=True)
def has_units(policies: np.ndarray, row: int, start: int, blk: int) -> bool:
    """Whether block ``blk`` of row ``row`` has a unit with an output weight (a network model's; a linear model's
    has none, and its candidates skip ``units``): once a decision. ``core.learned.has_units`` asks the same of a
    view of the row; making that view once a decision cost the linear scorer 4% (2026-12-06), so the row is read
    in place, as ``weights`` and ``units`` read it."""
    i = start + blk * WIDTH + N
    for u in range(learned.HIDDEN):
        if policies[row, i + u * (N + 2) + N + 1] != 0:
            return True
    return False


@njit(cache=True, inline="always")
def units(policies: np.ndarray, row: int, start: int, blk: int, f: tuple) -> int:
    """The rectified units of block ``blk`` of row ``row`` over a candidate's features ``f``, in fixed point: each
    unit's output weight times its activation (bias plus weights dotted with ``f``) where that is positive, as
    ``core.learned.score`` adds them (the same integers); the dot products written out, as in ``score``, and read
    from the table candidate by candidate (read once a decision as tuples, as ``weights``, they made the linear
    scorer half as fast). Inlined into a loop of its own (``compiled.top_card``): called, it took half a network's
    time (2026-12-06)."""
    total = 0
    for u in range(learned.HIDDEN):
        j = start + blk * WIDTH + N + u * (N + 2)
        out = policies[row, j + N + 1]
        if out != 0:
            active = (policies[row, j + N] + policies[row, j] * f[0] + policies[row, j + 1] * f[1]
                     + policies[row, j + 2] * f[2] + policies[row, j + 3] * f[3] + policies[row, j + 4] * f[4]
                     + policies[row, j + 5] * f[5] + policies[row, j + 6] * f[6] + policies[row, j + 7] * f[7]
                     + policies[row, j + 8] * f[8] + policies[row, j + 9] * f[9] + policies[row, j + 10] * f[10]
                     + policies[row, j + 11] * f[11] + policies[row, j + 12] * f[12] + policies[row, j + 13] * f[13]
                     + policies[row, j + 14] * f[14] + policies[row, j + 15] * f[15] + policies[row, j + 16] * f[16]
                     + policies[row, j + 17] * f[17] + policies[row, j + 18] * f[18] + policies[row, j + 19] * f[19]
                     + policies[row, j + 20] * f[20] + policies[row, j + 21] * f[21] + policies[row, j + 22] * f[22])
            total += learned.unit(out, active)
    return total
