"""Uno self-play policies ``random`` and ``greedy``: specified here in words, implemented twice.

Each function below has a scalar form (lists of counts, for ``reference.py``) and a
numpy twin (``np_...``, arrays over a batch, for ``vector.py``) that choose the same
card for the same draws. This file decides nothing about legality: the engine passes
the deciding player's own hand and the legal kinds; a policy never sees other hands
(only their sizes, which are public).

Draws: ``u_k = rng.draw(key, Stream.POLICY, turn, k)`` with ``turn`` the game's decision
counter; the slots are fixed (``reference.py`` lists them): ``u_0`` answer to a Draw Two
stack or a Wild Draw Four, ``u_1`` bluff, ``u_2`` card, ``u_3`` colour, ``u_4`` swap target,
``u_5`` colour of a wild starting card. ``chance(u, p)`` is true when ``(u >> 11) < p * 2**53``
(exact in both engines). A draw that is not needed is not looked at.

Policy strings: ``random``, ``greedy``, with parameters ``bluff`` (probability of playing
a held Wild Draw Four illegally, U-13) and ``challenge`` (probability of challenging a
Wild Draw Four, U-14), e.g. ``greedy(bluff=0.1, challenge=0.5)``.

**random** (defaults ``bluff=0.0, challenge=0.5``)
- card: uniform over the legal *cards* held (each copy counts once): with ``n`` such
  cards, ``r = u_2 mod n``, and the card is the ``r``-th in ascending kind order;
- colour: ``u_3 mod 4`` (``u_5 mod 4`` for a wild starting card);
- Draw Two stack: with ``n`` Draw Twos held, ``r = u_0 mod (n + 1)``; ``r < n`` plays the
  ``r``-th in kind order, ``r = n`` takes the penalty;
- swap target: the player ``1 + (u_4 mod (P - 1))`` seats clockwise.

**greedy** (defaults ``bluff=0.1, challenge=0.25``), a plausible player
- card: the legal card of highest score (ties: lowest kind): a card of the current
  colour scores 3000 + symbol (Draw Two, Reverse, Skip, then 9 down to 0: shed points
  while keeping the colour); a same number/symbol in another colour 2000 + the cards
  held of that colour (switch to the colour it holds most of); wilds only when stuck:
  W+4 1400, W 1300, CW 1200, SH 1100 (tables in ``cards.py``);
- colour: the colour it holds most cards of, ties to the first of R, Y, G, B;
- Draw Two stack: always stacks when it can, with its Draw Two of the colour it holds
  most of (ties: first colour);
- swap target: the other player holding fewest cards, ties to the first clockwise.

Both: before choosing a card, a player holding a Wild Draw Four it may not legally play
(it holds a card of the current colour) plays it as a bluff when ``chance(u_1, bluff)``;
a Wild Draw Four is challenged when ``chance(u_0, challenge)``; a card drawn that is
playable is always played (never as a bluff), its colour chosen as above.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.core import rng
from cardsim.core.rules import parse_call
from cardsim.games.uno.cards import (CANDIDATES, DRAW_TWO, GREEDY_BASE, GREEDY_BY_COLOUR, IS_DRAW_TWO,
                                     K, KIND_COLOUR)

NAMES = ("random", "greedy")
DEFAULTS = {"random": {"bluff": 0.0, "challenge": 0.5}, "greedy": {"bluff": 0.1, "challenge": 0.25}}
_ONE = 1 << 53


@dataclass(frozen=True)
class Policy:
    """A parsed policy string: its name and its two probabilities as 53-bit cut-offs."""

    name: str
    bluff: float
    challenge: float

    @property
    def greedy(self) -> bool:
        return self.name == "greedy"

    @property
    def bluff_cut(self) -> int:
        return int(self.bluff * _ONE)

    @property
    def challenge_cut(self) -> int:
        return int(self.challenge * _ONE)


def parse_policy(text: str) -> Policy:
    """``Policy`` from ``"random"`` or ``"greedy(bluff=0.1, challenge=0.5)"``; ValueError otherwise."""
    name, params = parse_call(text)
    if name not in NAMES:
        raise ValueError(f"unknown uno policy {name!r}; known policies: {', '.join(NAMES)}")
    unknown = sorted(set(params) - set(DEFAULTS[name]))
    if unknown:
        raise ValueError(f"uno policy {name} has no parameter {unknown[0]!r}; known: bluff, challenge")
    values = {**DEFAULTS[name], **params}
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ValueError(f"uno policy {name}: {key}={value!r} must be a probability from 0 to 1")
    return Policy(name, float(values["bluff"]), float(values["challenge"]))


def chance(u, cut):
    """``(u >> 11) < cut``: an event of probability ``cut / 2**53`` (ints or uint64 arrays)."""
    if isinstance(u, np.ndarray):
        return (u >> np.uint64(11)) < np.asarray(cut).astype(np.uint64)
    return (u >> 11) < cut


def colour_counts(hand: list[int]) -> list[int]:
    """Coloured cards held per colour R, Y, G, B."""
    return [sum(hand[c * 13:(c + 1) * 13]) for c in range(4)]


# ---------------------------------------------------------------- scalar twins (reference)

def random_card(hand: list[int], legal: list[bool], u: int) -> int:
    """The ``u mod n``-th of the ``n`` legal cards held, copies counted, in kind order (-1 if none)."""
    n = sum(hand[k] for k in range(K) if legal[k])
    if n == 0:
        return -1
    r = rng.below(u, n)
    for k in range(K):
        if legal[k]:
            r -= hand[k]
            if r < 0:
                return k
    raise AssertionError("unreachable")


def greedy_score(hand: list[int], colour: int, top: int, kind: int) -> int:
    return int(GREEDY_BASE[colour, top, kind]) + int(GREEDY_BY_COLOUR[colour, top, kind]) * \
        colour_counts(hand)[KIND_COLOUR[kind]]


def greedy_card(hand: list[int], legal: list[bool], colour: int, top: int) -> int:
    """The legal held kind of highest ``greedy_score``, ties to the lowest kind (-1 if none)."""
    kinds = [k for k in range(K) if legal[k] and hand[k] > 0]
    if not kinds:
        return -1
    return max(kinds, key=lambda k: (greedy_score(hand, colour, top, k), -k))


def random_colour(u: int) -> int:
    return rng.below(u, 4)


def greedy_colour(hand: list[int]) -> int:
    counts = colour_counts(hand)
    return counts.index(max(counts))


def random_stack(hand: list[int], u: int) -> int:
    """A Draw Two to stack (its kind) or -1 to take the penalty: ``u mod (n + 1)`` as in the docstring."""
    twos = [c * 13 + DRAW_TWO for c in range(4) for _ in range(hand[c * 13 + DRAW_TWO])]
    r = rng.below(u, len(twos) + 1)
    return twos[r] if r < len(twos) else -1


def greedy_stack(hand: list[int]) -> int:
    counts = colour_counts(hand)
    held = [c for c in range(4) if hand[c * 13 + DRAW_TWO]]
    if not held:
        return -1
    return max(held, key=lambda c: (counts[c], -c)) * 13 + DRAW_TWO


def random_target(player: int, players: int, u: int) -> int:
    return (player + 1 + rng.below(u, players - 1)) % players


def greedy_target(player: int, sizes: list[int]) -> int:
    players = len(sizes)
    others = [(player + i) % players for i in range(1, players)]
    return min(others, key=lambda p: sizes[p])


# ---------------------------------------------------------------- numpy twins (vector)

# The numpy twins work on the candidate columns of ``cards.CANDIDATES[colour, top]``
# (the kinds that can be legal there, real ones in ascending kind order), laid out
# (C, B): one row per candidate column, one column per game, so that running totals
# and maxima over the candidates are whole-row numpy operations. ``counts`` (B, 4) are
# the coloured cards the player holds per colour (the vector engine keeps them).

def _make_candidate_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Greedy's tables on the candidate columns, laid out (C, 4 * K) like the vector engine's
    candidates (``table[:, colour * K + top]`` is one game's column): the packed base score
    ``score * 32 + (31 - column)``, the colour bonus flag times 32, and each candidate's colour."""
    c, top = np.meshgrid(np.arange(4), np.arange(K), indexing="ij")
    c, top = c[..., None], top[..., None]

    def layout(table: np.ndarray, dtype: type) -> np.ndarray:
        return np.ascontiguousarray(table.reshape(4 * K, -1).T, dtype=dtype)

    packed = GREEDY_BASE[c, top, CANDIDATES].astype(np.int32) * 32 + (31 - np.arange(CANDIDATES.shape[2]))
    bonus = GREEDY_BY_COLOUR[c, top, CANDIDATES].astype(np.int32) * 32
    return layout(packed, np.int32), layout(bonus, np.int32), layout(KIND_COLOUR[CANDIDATES], np.int64)


_CAND_PACKED_T, _CAND_BONUS_T, _CAND_COLOUR_T = _make_candidate_tables()


def np_random_card(held: np.ndarray, legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Twin of ``random_card``: the chosen candidate column per game, -1 where none is legal."""
    cum = (held * legal).astype(np.int16)
    for i in range(1, len(cum)):  # running totals row by row: much faster than np.cumsum here
        cum[i] += cum[i - 1]
    n = cum[-1].astype(np.int64)
    r = rng.below(u, np.maximum(n, 1)).astype(np.int16)
    column = (cum <= r).sum(axis=0)  # the first column whose running total passes r
    return np.where(n > 0, column, -1)


def np_greedy_card(counts: np.ndarray, legal: np.ndarray, colour: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Twin of ``greedy_card``: the chosen candidate column (``legal`` is False where not held), -1 for none.

    The score and the column are packed as ``score * 32 + (31 - column)`` so one maximum
    over the rows picks the highest score and, among equals, the lowest column (kind).
    The colour-count bonus (at most 25) only orders cards within the 2000 tier, so it is
    added only in the games whose best card is in that tier.
    """
    state = colour * K + top
    best = np.where(legal, np.take(_CAND_PACKED_T, state, axis=1), -1).max(axis=0)
    tier = np.flatnonzero((best >= 2000 * 32) & (best < 3000 * 32))
    if len(tier):
        st = state[tier]
        held_colour = np.take_along_axis(counts[tier].T, _CAND_COLOUR_T[:, st], axis=0).astype(np.int32)
        packed = _CAND_PACKED_T[:, st] + _CAND_BONUS_T[:, st] * held_colour
        best[tier] = np.where(legal[:, tier], packed, -1).max(axis=0)
    return np.where(best >= 0, 31 - best % 32, -1)


def np_random_colour(u: np.ndarray) -> np.ndarray:
    return rng.below(u, 4)


def np_greedy_colour(counts: np.ndarray) -> np.ndarray:
    return np.argmax(counts, axis=1)


_DRAW_TWO_KINDS = np.flatnonzero(IS_DRAW_TWO)


def np_random_stack(hands: np.ndarray, u: np.ndarray) -> np.ndarray:
    held = hands[:, _DRAW_TWO_KINDS].astype(np.int64)
    cum = np.cumsum(held, axis=1)
    n = cum[:, -1]
    r = rng.below(u, n + 1)
    pick = np.argmax(cum > r[:, None], axis=1)
    return np.where(r < n, _DRAW_TWO_KINDS[pick], -1)


def np_greedy_stack(hands: np.ndarray, counts: np.ndarray) -> np.ndarray:
    held = hands[:, _DRAW_TWO_KINDS] > 0
    best = np.argmax(np.where(held, counts, -1), axis=1)
    return np.where(held.any(axis=1), _DRAW_TWO_KINDS[best], -1)


def np_random_target(player: np.ndarray, players: int, u: np.ndarray) -> np.ndarray:
    return (player + 1 + rng.below(u, players - 1)) % players


def np_greedy_target(player: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``sizes`` (B, P): the other player with fewest cards, ties to the first clockwise."""
    players = sizes.shape[1]
    offsets = np.arange(1, players)
    seats = (player[:, None] + offsets[None, :]) % players
    best = np.argmin(np.take_along_axis(sizes, seats, axis=1), axis=1)
    return seats[np.arange(len(player)), best]
