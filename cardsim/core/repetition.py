"""The repetition rule of the shedding games (M-23 Moska, MM-18 Musta-Maija), shared by both engines.

Once the stock is empty, cards only move between hands and the discard pile, and seats that
decide alike in alike positions (``greedy``, ``learned``) can pass the same cards round after
round for ever. Without this rule such a game runs to ``max_turns`` decisions (M-21, MM-16),
each one searched under ``mc``, and its record cannot tell a cycle from a slow game. With the
knob ``repetition``, a round that would begin, the stock empty, in a *position* one of the last
``WINDOW`` such rounds began in ends the game instead: no loser, recorded ``truncated`` with
fewer than ``max_turns`` decisions (``records.ends`` names the three ends).

A position is what the rules carry from one round into the next: every hand and the attacker
(Musta-Maija: and the trump, which a marriage may still declare). With the stock empty and the
table clear the discard pile follows from the hands. What seats remember is not part of it.

The reference engines keep the positions themselves (``Positions``). The compiled engines keep a 64-bit
fingerprint of each (``fingerprint``: splitmix64's finaliser over the position's words) in a ring of
``WINDOW`` in the game's state (``repeats``), and only since a card last left play: with the stock empty a
card leaves play only to the discard pile, and the pile only grows, so no position before that can recur.
The first round of each such stretch is kept as words and fingerprinted only if a second round follows
without a discard: most rounds discard, so most round beginnings cost a copy, not a fingerprint (``mc``'s
play-outs begin many). The ring then holds the last ``WINDOW`` positions that could recur, as the
reference's memory does. Two different positions share a fingerprint with probability 2^-64 per
comparison: the engines agree unless that happens.
"""
from __future__ import annotations

from collections import deque
from typing import Hashable

import numpy as np

from cardsim.core import jit
from cardsim.core.jit import njit

WINDOW = 64
"""How many earlier round beginnings (with the stock empty) a position is compared with. A cycle of
greedy play is a few rounds long; the bound keeps the compiled state a fixed size."""


class Positions:
    """The reference engines' memory of the last ``WINDOW`` positions."""

    def __init__(self) -> None:
        self.recent: deque[Hashable] = deque(maxlen=WINDOW)

    def recurs(self, position: Hashable) -> bool:
        """Whether ``position`` is one of the remembered ones; it is remembered if not."""
        if position in self.recent:
            return True
        self.recent.append(position)
        return False


FIELDS = ("seen", "n_seen", "epoch", "position", "first")
"""The state fields ``repeats`` reads and writes, in both compiled engines: ``seen`` the ring of fingerprints
(``WINDOW``), ``n_seen`` how many were put in it (-1: the stretch's first position is in ``first``, not yet
fingerprinted), ``epoch`` the cards discarded when the stretch began (-1: none begun, ``forget``),
``position`` the engine's words of the position a round would begin in, ``first`` those of the stretch's
first round."""


@njit(cache=True)
def fingerprint(words: np.ndarray, n: int) -> np.uint64:
    """The fingerprint of a position's ``n`` words: each folded in with one ``jit.fmix`` (a bijection of 64 bits,
    so one word's change always changes the running value; one mix a word, as ``mc``'s play-outs begin many
    rounds)."""
    h = jit.ONE
    for i in range(n):
        h = jit.fmix(h ^ words[i])
    return h


@njit(cache=True)
def recurs(seen: np.ndarray, n_seen: int, h: np.uint64) -> bool:
    """Whether ``h`` is among the ring ``seen`` holding the last ``min(n_seen, WINDOW)`` fingerprints."""
    for i in range(min(n_seen, WINDOW)):
        if seen[i] == h:
            return True
    return False


@njit(cache=True)
def remember(seen: np.ndarray, n_seen: int, h: np.uint64) -> int:
    """Put ``h`` in the ring (over the oldest once it is full); the new count."""
    seen[n_seen % WINDOW] = h
    return n_seen + 1


@njit(cache=True)
def repeats(s: np.void, n: int, discarded: int) -> bool:
    """Whether the round about to begin, in the position of the ``n`` words ``s.position[:n]`` with
    ``discarded`` cards in the discard pile (the stock empty), would begin in one of the last ``WINDOW``
    positions that can recur; a new one is remembered. ``s``: a compiled state with ``FIELDS``."""
    if discarded != s.epoch:  # a card left play: nothing before can recur; keep the words, hash them later
        s.epoch = discarded
        s.first[:n] = s.position[:n]
        s.n_seen = -1
        return False
    if s.n_seen < 0:
        s.n_seen = remember(s.seen, 0, fingerprint(s.first, n))
    h = fingerprint(s.position, n)
    if recurs(s.seen, s.n_seen, h):
        return True
    s.n_seen = remember(s.seen, s.n_seen, h)
    return False


@njit(cache=True)
def forget(s: np.void) -> None:
    """No position remembered (a new game, or a world of ``mc`` whose past is not the game's)."""
    s.epoch = -1
    s.n_seen = 0
