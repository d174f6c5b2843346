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

The weights form ``BLOCKS`` blocks of ``N``: block ``kind * STAGES + stage`` for the card's place in the
trick (lead, follow, last) and the stage of the hand (no trump yet, trump set with more than
``LATE_TRICKS`` tricks to play, the last ``LATE_TRICKS``). A score is the fixed-point weights
(``SCALE``) of the block dotted with the features: exact integer arithmetic, the same in both engines.
Changing a feature changes ``VERSION``; a model file names the version and features it was fitted on.
"""
from __future__ import annotations

import numpy as np

from cardsim.core.jit import ONE, U, ZERO, lowest, njit, popcount
from cardsim.core.learned import SCALE
from cardsim.games.molotow.cards import (BEATS, BUUR, N_CARDS, N_RANKS, NO_TRUMP, PATTERN_POINTS, POINTS, SUIT_MASK,
                                         SUIT_OF, TRUMP_POWER, mask_points)

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
WEIGHTS = BLOCKS * N
"""Weights of a model: ``BLOCKS`` blocks of ``N``."""
BIG = 100
"""MJ-16: a hand of 100 points or more costs its taker 3 potatoes."""
_ALL = np.uint64((1 << N_CARDS) - 1)
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


@njit(cache=True)
def context(s, seat: int, t: int, bonus: int) -> tuple:
    """What every candidate of ``seat``'s decision shares under the trump state ``t``: the trick's points (with
    the last-trick bonus in the last trick, MJ-4), the seat's points this hand, the most and the fewest of the
    other seats, its hand's points and trumps, and its cards that no unseen card beats (a mask)."""
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
    boss = ZERO
    rest = hand
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        if BEATS[c, t] & unseen == ZERO:
            boss |= ONE << U(c)
    return gain, mine, high, low, mask_points(hand, t), popcount(hand & SUIT_MASK[t]), boss


@njit(cache=True)
def features(s, seat: int, card: int, greedy: bool, bonus: int, possible: np.uint64, here: tuple) -> tuple:
    """The ``NAMES`` features of ``seat`` playing ``card`` in state ``s`` (a tuple of ``N`` ints); ``bonus``: the
    last-trick bonus (MJ-4); ``possible``: ``possible_cards(s, seat)``; ``here``: ``context`` under the trump
    state (a card that sets trump computes its own)."""
    t = s.trump
    sets = s.trick_len > 0 and t == NO_TRUMP and SUIT_OF[card] != s.led
    if sets:                                                    # MJ-8: it is a trump in its own trick
        t = SUIT_OF[card]
        here = context(s, seat, t, bonus)
    gain, mine, high, low, hand_points, hand_trumps, boss = here
    b = ONE << U(card)
    hand = s.held[seat]
    is_trump = b & SUIT_MASK[t] != ZERO
    r = card % N_RANKS
    pts = POINTS[t, card]
    gain += pts
    wins = s.trick_len == 0 or BEATS[s.best, t] & b != ZERO
    beaters = popcount(BEATS[card, t] & possible) if wins else 0
    safe = wins and beaters == 0
    win_points = gain if wins else 0
    set_points = PATTERN_POINTS[1, np.int64((hand >> U(N_RANKS * t)) & _SUIT_BITS)] if sets else 0
    void = not is_trump and hand & ~b & SUIT_MASK[SUIT_OF[card]] == ZERO
    return (np.int64(greedy), pts, np.int64(is_trump), np.int64(TRUMP_POWER[r] if is_trump else r), np.int64(wins),
            win_points, beaters, np.int64(safe), win_points if safe else 0, 0 if wins else pts, np.int64(sets),
            set_points, hand_trumps if sets else 0, hand_trumps - np.int64(is_trump), hand_points - pts,
            popcount(boss & ~b), np.int64(void), np.int64(b == BUUR[t]), win_points if mine <= low else 0,
            win_points if mine >= high else 0, np.int64(wins and mine <= high < mine + gain),
            np.int64(wins and mine <= low < mine + gain), np.int64(wins and mine + gain >= BIG))


@njit(cache=True)
def describe(out: np.ndarray, s, seat: int, card: int, greedy: bool, bonus: int) -> None:
    """``features`` into ``out[:N]`` (int64): the rows of the training positions and of the tests."""
    f = features(s, seat, card, greedy, bonus, possible_cards(s, seat), context(s, seat, s.trump, bonus))
    for i in range(N):
        out[i] = f[i]


@njit(cache=True)
def score(policies: np.ndarray, row: int, start: int, blk: int, f: tuple) -> int:
    """The fixed-point score of a candidate: block ``blk`` of the weights of row ``row`` of the policy table
    (they start at column ``start``) dotted with its features ``f``."""
    total = 0
    i = start + blk * N
    for v in f:
        total += policies[row, i] * v
        i += 1
    return total
