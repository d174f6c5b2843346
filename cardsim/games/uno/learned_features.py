"""Uno's features of a candidate choice for ``learned`` (docs/design.md#learned-players), compiled with numba.

A candidate is one option of the waiting choice (``compiled.candidates``: ``mc``'s): a card to play (a
Draw Two to stack among them), a colour to name, ``TAKE`` (the stacked total), to challenge or not, a seat
to swap hands with. Its features come from the deciding seat's **view** only: its own hand, the hand sizes,
the top card and the current colour, the discard pile, what it was shown of other hands (``shown``), the
pending total and the colour a Wild Draw Four was played on. ``unseen`` (per colour, ``unseen_colours``)
counts the coloured cards the seat cannot place: the deck less its hand, the discard pile, the top and what
it was shown. Every feature is an integer, so a score (``score``: the fixed-point weights of the block of
the choice's kind and stage, times the features) is exact integer arithmetic, the same in both engines.

The weights form ``BLOCKS`` blocks of ``N``: block ``kind * STAGES + stage`` for the kind of choice
(``KINDS``) and the stage (``STAGE_NAMES``: ``danger`` once another seat holds ``DANGER`` cards or fewer).
Changing a feature changes ``VERSION``: a model file names the version and the features it was fitted on,
and loads only where they match.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import learned
from cardsim.core.jit import njit
from cardsim.core.learned import SCALE
from cardsim.games.uno.cards import CUSTOM, DRAW_TWO, POINTS, REVERSE, SHUFFLE, SKIP, WD4, WILD
from cardsim.games.uno.reference import CARD, CHALLENGE, COLOUR, DRAW, STACK, START_COLOUR, TAKE, TARGET

VERSION = 1
"""The feature set's version (a model file records it)."""
NAMES = (
    "greedy", "number", "skip", "reverse", "draw_two", "wild", "wd4", "bluff", "switch", "colour_held",
    "colour_unseen", "follow", "wilds_left", "hits_next", "hits_small", "points", "take", "take_cards",
    "challenge", "challenge_unseen", "challenge_size", "target_size", "target_next",
)
"""The features of a candidate, in the order of a block of weights: whether it is ``greedy``'s choice; of a
card played (or stacked): its number (0..9), whether it is a Skip, Reverse, Draw Two, a plain wild (W, SH,
CW), a Wild Draw Four, a bluffed one (U-13: the seat holds the current colour); ``switch``: the colour after
it differs from the current one; of the colour after it (a card's own, a named colour; for a wild still to
be named, the colour held most): ``colour_held`` the seat's cards of it left, ``colour_unseen`` its unseen
cards; ``follow``: the cards left that could be played on it (its colour, its symbol, wilds);
``wilds_left``; ``hits_next``: the next seat loses its turn (Skip, Draw Two, Wild Draw Four, Reverse with two
players), ``hits_small``: and holds 2 cards or fewer; ``points``: the card's U-19 points; ``take``,
``take_cards``: taking the stacked total and its size (U-11); ``challenge`` (U-14), ``challenge_unseen``:
with the unseen cards of the colour the Wild Draw Four was played on, ``challenge_size``: with its player's
hand size; ``target_size``, ``target_next``: a swap target's hand size and whether it is the next seat
(U-16)."""
N = len(NAMES)
KINDS = ("card", "colour", "stack", "challenge", "target")
"""Kinds of choice: ``CARD``; ``COLOUR`` and ``START_COLOUR``; ``STACK``; ``CHALLENGE``; ``TARGET``."""
STAGE_NAMES = ("calm", "danger")
STAGES = len(STAGE_NAMES)
DANGER = 2
"""``danger``: some other seat holds this many cards or fewer."""
BLOCKS = len(KINDS) * STAGES
WIDTH = learned.width(N)
"""Numbers of a block: ``N`` linear weights and room for ``core.learned.HIDDEN`` rectified units."""
WEIGHTS = BLOCKS * WIDTH
"""Weights of a model: ``BLOCKS`` blocks of ``WIDTH``."""
_KIND_OF_PHASE = np.array([1, 2, 3, 0, 4, 1], dtype=np.int64)
"""``KINDS`` index of each choice phase (``START_COLOUR``, ``STACK``, ``CHALLENGE``, ``CARD``, ``TARGET``,
``COLOUR``)."""
assert [START_COLOUR, STACK, CHALLENGE, CARD, TARGET, COLOUR] == list(range(6))


def block_names() -> list[str]:
    """``kind/stage`` for every block, in order."""
    return [f"{k}/{s}" for k in KINDS for s in STAGE_NAMES]


@njit(cache=True)
def block_of(s) -> int:
    """The block of the waiting choice of seat ``current``: its kind and whether another seat is near out."""
    p = s.current
    danger = 0
    for q in range(s.players):
        if q != p and s.size[q] <= DANGER:
            danger = 1
    return _KIND_OF_PHASE[s.phase] * STAGES + danger


@njit(cache=True)
def unseen_colours(s, copies: np.ndarray, out: np.ndarray) -> None:
    """``out[c]``: the cards of colour ``c`` that seat ``current`` cannot place (``copies``: the deck's per kind)."""
    p = s.current
    for c in range(4):
        n = 0
        for k in range(c * 13, c * 13 + 13):
            n += copies[k] - s.discard[k]
        n -= s.colours[p, c]
        for q in range(s.players):
            if q != p and s.shown_total[q] > 0:
                for k in range(c * 13, c * 13 + 13):
                    n -= s.shown[q, p, k]
        out[c] = n
    if s.top < WILD:
        out[s.top // 13] -= 1


@njit(cache=True)
def next_seat(s) -> int:
    x = s.current + s.direction
    return x % s.players


@njit(cache=True)
def most_held(s, p: int) -> int:
    """The colour ``p`` holds most cards of (ties: the first), as ``greedy`` names a wild's."""
    best, most = 0, -1
    for c in range(4):
        if s.colours[p, c] > most:
            best, most = c, s.colours[p, c]
    return best


@njit(cache=True, inline="always")
def describe_card(s, p: int, kind: int, unseen: np.ndarray, out: np.ndarray) -> None:
    """The card features of playing ``kind`` (held by ``p``) into ``out``."""
    hand = s.hands[p]
    wilds = hand[WILD] + hand[WD4] + hand[SHUFFLE] + hand[CUSTOM]
    if kind < WILD:
        colour, symbol = kind // 13, kind % 13
        if symbol <= 9:
            out[1] = symbol
        out[2], out[3], out[4] = symbol == SKIP, symbol == REVERSE, symbol == DRAW_TWO
        held = s.colours[p, colour] - 1
        same = 0
        for c in range(4):
            if c != colour:
                same += hand[c * 13 + symbol]
        out[9], out[11], out[12] = held, held + same + wilds, wilds
        hits = symbol == SKIP or symbol == DRAW_TWO or (symbol == REVERSE and s.players == 2)
    else:
        colour = most_held(s, p)
        out[5], out[6] = kind != WD4, kind == WD4
        out[7] = kind == WD4 and s.colour >= 0 and s.colours[p, s.colour] > 0
        out[9], out[11], out[12] = s.colours[p, colour], s.colours[p, colour] + wilds - 1, wilds - 1
        hits = kind == WD4
    out[8] = colour != s.colour
    out[10] = unseen[colour]
    out[13] = hits
    out[14] = hits and s.size[next_seat(s)] <= DANGER
    out[15] = POINTS[kind]


@njit(cache=True, inline="always")
def describe(s, option: int, greedy: bool, unseen: np.ndarray, out: np.ndarray) -> None:
    """The features (``NAMES``) of ``option`` of the waiting choice of seat ``current`` into ``out[:N]``
    (int64); ``greedy``: it is greedy's choice; ``unseen``: ``unseen_colours`` of this decision. Inlined, as is
    ``describe_card``: called per candidate, they left ``learned`` self-play about 6% slower (2026-12-06)."""
    p, phase = s.current, s.phase
    out[:] = 0
    out[0] = greedy
    if phase == CARD:
        if option != DRAW:
            describe_card(s, p, option, unseen, out)
    elif phase == STACK:
        if option == TAKE:
            out[16], out[17] = 1, s.pending
        else:
            describe_card(s, p, option, unseen, out)
    elif phase == COLOUR or phase == START_COLOUR:
        hand = s.hands[p]
        out[8] = s.colour >= 0 and option != s.colour
        out[9], out[10] = s.colours[p, option], unseen[option]
        out[11] = s.colours[p, option] + hand[WILD] + hand[WD4] + hand[SHUFFLE] + hand[CUSTOM]
    elif phase == CHALLENGE:
        if option == 1:
            out[18], out[19], out[20] = 1, unseen[s.wd4_colour], s.size[s.wd4_player]
    elif phase == TARGET:
        out[21], out[22] = s.size[option], option == next_seat(s)
