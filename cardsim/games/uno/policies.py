"""Uno self-play policies ``random``, ``greedy``, ``mc`` and ``learned``: specified here in words, implemented
twice (``mc`` and ``learned`` once: the reference engine calls the compiled search and scorer).

The functions below (lists of counts) are the reference engine's; ``compiled.py`` has their
numba twins (``choose`` and the functions it calls), tested equal. This file decides nothing
about legality: the engine passes the deciding player's own hand and the legal kinds; a
policy never sees other hands (only their sizes, which are public).

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

**mc** (``mc(determinizations=32, base=greedy)``; docs/design.md, ``core/search.py``), determinized
Monte Carlo at every choice of the protocol (``reference.py``).
- Candidates: ``greedy``'s choice first (at greedy's default bluff and challenge, with the
  decision's draws), then the other legal options in the order of
  ``compiled.legal_decisions``, choice by choice:
  card (step 4): the legal kinds held (U-6, U-13: a Wild Draw Four even as a bluff), less
  drawing while a card can be played (U-7; when none can, drawing is greedy's choice and
  the only candidate), less the wilds unless greedy's choice is a wild (a wild played while a
  coloured card could be was a measured loss), less a number card when a higher number of
  its colour can be played (for winning the hand, numbers of a colour are alike);
  colour of a wild or of a wild starting card: the colours of which it holds a card (none
  held: greedy's alone); stacking a Draw Two: each colour held, or taking the total
  (U-11); challenge: both (U-14); swap target: every other seat (U-16). With one
  candidate it is taken without search.
- Worlds: world ``j`` (``j < determinizations``) is keyed ``rng.world_key(key, t, j)``
  (``t`` the decision counter, as for the policy draws). The cards the player cannot see
  (the deck less its own hand, the discard pile with its top, and what it was shown of
  each hand, ``shown``) are put in keyed order with words ``(Stream.DEAL, 0)`` after the
  world key and dealt: each other hand in seat order gets what it was shown; then, oldest
  read first, the next cards that are none of the read's kinds until the read's cards are
  in the hand (its shown cards count first; as far as the cards go); then, seat by seat,
  the next cards left up to its size; the rest is the draw pile in that order. What was
  read (``reference.State.barred``) is what the other seats' choices say of their hands when
  each is read as ``greedy`` (``greedy_passes_over``) and every seat plays when it can. A
  Wild Draw Four waiting for its challenge is a bluff in the world when its player's world
  hand holds the colour it was played on (U-13).
- Play-outs: in each world each candidate is made, then the hand is played to its end with
  ``base`` (at its default bluff and challenge) in every seat, the world key standing in
  for the game key (policy draws, reshuffles, Shuffle Hands). It scores 1 when the player wins the hand
  (U-18; with ``target_score`` the current hand), else 0 (a truncated hand, U-21, too).
- The candidate with the highest total is chosen; among equal totals the one with the fewest
  cards left in the player's hand at the play-outs' ends; then the first (greedy's choice).
- ``base=learned(model=X)``: the play-outs are played by that ``learned`` policy in every seat.

**learned** (``learned(model=NAME)``; docs/design.md#learned-players), a scorer (linear, or a small network:
``core.learned.score``) run by the compiled engine (the reference engine asks it at every choice, as it
asks ``mc``): at each choice the candidates are
``mc``'s (greedy's choice first); each is described by the integer features of ``learned_features.py``,
computed from the deciding seat's view only; its score is the model's fixed-point weights of the block of the
choice's kind and stage dotted with them; the highest score wins, ties to the first candidate (so a model of
zero weights is ``greedy`` at its default bluff and challenge). ``NAME`` is a committed model
(``cardsim/models/uno/``) or a model file's path; without it, ``DEFAULT_MODEL``. It takes no ``bluff`` or
``challenge``: both are among its candidates.

**forbid** (every policy: ``greedy(forbid=stack+challenge)``, restricted play; ``rules.OPTIONS``): the seat
never takes a forbidden option while another choice is legal: ``stack`` takes the stacked total (U-11),
``challenge`` does not challenge (U-14), ``bluff`` plays no Wild Draw Four while holding the current colour
(U-13). A forbidden option is neither drawn for (``random``, ``greedy``) nor a candidate (``mc`` at its own
choices and at its own seat's play-out choices; ``learned``); a forbidden stack or challenge costs no draw.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.core import models, rng
from cardsim.core.rules import parse_call
from cardsim.core.search import MC, ORACLE, SEARCHES, MonteCarlo, forbid_bits, parse_mc
from cardsim.games.uno.cards import DECK_SIZES, DRAW_TWO, GREEDY_BASE, GREEDY_BY_COLOUR, K, KIND_COLOUR, LEGAL, WD4
from cardsim.games.uno.rules import OPTIONS

LEARNED = "learned"
BASES = ("random", "greedy", LEARNED)
"""The policies that decide without search: ``mc``'s play-out policies."""
NAMES = (*BASES, MC, ORACLE)
DEFAULTS = {"random": {"bluff": 0.0, "challenge": 0.5}, "greedy": {"bluff": 0.1, "challenge": 0.25},
            LEARNED: {"bluff": 0.0, "challenge": 0.0}}
"""Each base policy's ``bluff`` and ``challenge`` (``learned`` takes neither: its candidates hold both choices)."""
DEFAULT_MODEL = "official_4p_g3"
"""The model of ``learned`` without a ``model``: the best committed generation
(docs/players.md#uno-4-players-official-rules)."""
FORBID = {name: 1 << i for i, name in enumerate(OPTIONS)}
"""``forbid=`` options (``rules.OPTIONS``) as the bits of the policy table's ``FORBID`` column."""
STACK_BIT, CHALLENGE_BIT, BLUFF_BIT = FORBID["stack"], FORBID["challenge"], FORBID["bluff"]
_ONE = 1 << 53


@dataclass(frozen=True)
class Policy:
    """A parsed policy string: its name, its two probabilities (``mc``: none, it searches its bluffs
    and challenges) and ``mc``'s parameters."""

    name: str
    bluff: float = 0.0
    challenge: float = 0.0
    search: MonteCarlo | None = None
    forbid: int = 0
    """The ``forbid=`` options as bits (``FORBID``)."""
    model: str = ""
    """``learned``'s model (a committed name or a path)."""

    @property
    def greedy(self) -> bool:
        return self.name == "greedy"

    @property
    def mc(self) -> bool:
        """A searching policy: ``mc``, or ``oracle`` (the same search on the true state)."""
        return self.search is not None

    @property
    def compiled(self) -> bool:
        """A policy only the compiled engine runs (``mc``, ``oracle``, ``learned``): the reference engine asks the
        search it is handed at every choice (``reference.searched``; ``seating.play`` hands it)."""
        return self.mc or self.name == LEARNED

    def forbids(self, bit: int) -> bool:
        return bool(self.forbid & bit)

    @property
    def bluff_cut(self) -> int:
        return int(self.bluff * _ONE)

    @property
    def challenge_cut(self) -> int:
        return int(self.challenge * _ONE)


def parse_policy(text: str) -> Policy:
    """``Policy`` from ``"random"``, ``"greedy(bluff=0.1, challenge=0.5)"``, ``"mc(determinizations=32,
    base=greedy)"`` or ``"learned(model=official_4p_g3)"``, each with an optional ``forbid=OPTION``; ValueError
    otherwise (``learned``'s model is loaded, and checked, where it is played: ``learned.load_model``)."""
    name, params = parse_call(text)
    if name not in NAMES:
        raise ValueError(f"unknown uno policy {name!r}; known policies: {', '.join(NAMES)}")
    forbid = forbid_bits("uno", name, params.pop("forbid"), OPTIONS) if "forbid" in params else 0
    if name in SEARCHES:
        search = parse_mc("uno", params, BASES, name)
        parse_policy(search.base)
        return Policy(name, search=search, forbid=forbid)
    if name == LEARNED:
        return Policy(name, forbid=forbid, model=models.parse_learned("uno", params, DEFAULT_MODEL).model)
    unknown = sorted(set(params) - set(DEFAULTS[name]))
    if unknown:
        raise ValueError(f"uno policy {name} has no parameter {unknown[0]!r}; known: bluff, challenge, forbid")
    values = {**DEFAULTS[name], **params}
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ValueError(f"uno policy {name}: {key}={value!r} must be a probability from 0 to 1")
    return Policy(name, float(values["bluff"]), float(values["challenge"]), forbid=forbid)


def chance(u: int, cut: int) -> bool:
    """``(u >> 11) < cut``: an event of probability ``cut / 2**53``."""
    return (u >> 11) < cut


def colour_counts(hand: list[int]) -> list[int]:
    """Coloured cards held per colour R, Y, G, B."""
    return [sum(hand[c * 13:(c + 1) * 13]) for c in range(4)]


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


def _bits(flags: np.ndarray) -> np.ndarray:
    """One flag per kind on the last axis, as the bits of one uint64 (bit ``k``: kind ``k``)."""
    return (flags.astype(np.uint64) << np.arange(K, dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)


def _greedy_passes_over() -> np.ndarray:
    """``[colour, top, kind]``: the kinds ``greedy`` would have played rather than ``kind``, as bits."""
    lowest = GREEDY_BASE.astype(np.int64) + GREEDY_BY_COLOUR  # a legal kind is held: its colour counts >= 1
    highest = GREEDY_BASE.astype(np.int64) + GREEDY_BY_COLOUR * max(DECK_SIZES.values())
    passed = LEGAL[:, :, None, :] & (lowest[:, :, None, :] > highest[:, :, :, None])
    passed[:, :, WD4, :] = False
    return _bits(passed)


GREEDY_PASSES_OVER = _greedy_passes_over()
"""``greedy_passes_over`` for every ``[colour, top, kind]``: the table both engines read a play with."""
LEGAL_BITS = _bits(LEGAL)
"""``LEGAL[colour, top]`` as bits (bit ``k``: kind ``k``)."""


def greedy_passes_over(colour: int, top: int, kind: int) -> int:
    """The kinds ``greedy`` would have played rather than ``kind`` on ``colour`` and ``top``, whatever else it
    held, as bits: the legal kinds whose lowest ``greedy_score`` beats the highest ``kind`` can have (a
    colour's count is at most a deck). None for a Wild Draw Four, which may have been a bluff (U-13). What
    ``mc`` reads from an opponent's play (``reference.read``)."""
    return int(GREEDY_PASSES_OVER[colour, top, kind])


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
