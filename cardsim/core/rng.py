"""The keyed counter RNG: every random number is a pure function of its coordinates.

``game_key(seed, game)`` folds a study seed and a game index into one 64-bit key;
``draw(key, stream, counter, ...)`` folds further words into a 64-bit number. The
mixer is the splitmix64 finaliser. There is no state, so a game's numbers do not
depend on batch size, chunking, worker count or engine.

Every function accepts Python ints *or* numpy ``uint64`` arrays (broadcasting) and
returns the same numbers for both; that equality is tested.

Streams name every kind of chance event in one place (OpenSpiel's explicit chance):
``DEAL`` for shuffles, ``POLICY`` for the players' choices, ``RESHUFFLE`` for Uno's
draw-pile reshuffles, ``EXTRA`` for any further game event (e.g. Jass tie draws) and
``SEARCH`` for the worlds a searching policy (``mc``) imagines: ``world_key``.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class Stream(IntEnum):
    """Named RNG streams; the value is the first word after the game key."""

    DEAL = 1
    POLICY = 2
    RESHUFFLE = 3
    EXTRA = 4
    SEARCH = 5


def _is_array(*xs: Any) -> bool:
    return any(isinstance(x, np.ndarray) for x in xs)


def _fmix(z):
    """splitmix64 finaliser on a Python int (already reduced mod 2**64)."""
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def _fmix_np(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


def mix(key, *words):
    """Fold ``words`` into ``key``: ``h = fmix(h ^ fmix(w + GOLDEN))`` per word."""
    if _is_array(key, *words):
        with np.errstate(over="ignore"):
            h = np.asarray(key, dtype=np.uint64)
            for w in words:
                w = np.asarray(w).astype(np.uint64)
                h = _fmix_np(h ^ _fmix_np(w + np.uint64(_GOLDEN)))
        return h
    h = int(key) & MASK64
    for w in words:
        h = _fmix(h ^ _fmix((int(w) + _GOLDEN) & MASK64))
    return h


def word_mixes(n: int) -> np.ndarray:
    """``fmix(w + GOLDEN)`` for the words ``w = 0 .. n-1``: the inner mix of ``mix`` for small words, as a
    table (``jit.fold_count``)."""
    with np.errstate(over="ignore"):
        return _fmix_np(np.arange(n, dtype=np.uint64) + np.uint64(_GOLDEN))


def game_key(seed, game):
    """The key of game ``game`` of a study with seed ``seed`` (both ints >= 0)."""
    return mix(seed, game)


def draw(key, stream, counter, *more):
    """A 64-bit random number at coordinates (key, stream, counter, *more)."""
    return mix(key, stream, counter, *more)


def world_key(key, turn, j):
    """The key of world ``j`` that a searching policy imagines at decision ``turn`` of game ``key``.

    It deals the cards hidden from the decider and stands in for the game key in the play-outs,
    so a play-out never sees the real game's future deals or policy draws.
    """
    return draw(key, Stream.SEARCH, turn, j)


def below(u, n):
    """Map 64-bit draws ``u`` to ``[0, n)`` by ``u % n`` (bias < n / 2**64)."""
    if _is_array(u, n):
        return (np.asarray(u, dtype=np.uint64) % np.asarray(n).astype(np.uint64)).astype(np.int64)
    return int(u) % int(n)


def permutation(key, stream, n: int, counter: int = 0):
    """A uniform permutation of ``range(n)``: argsort of n keyed draws, ties by index.

    With an array ``key`` of shape (B,) returns an int64 array of shape (B, n) whose
    row b equals ``permutation(int(key[b]), stream, n, counter)``.
    """
    if _is_array(key):
        u = draw(np.asarray(key, dtype=np.uint64)[:, None], stream, counter,
                 np.arange(n, dtype=np.uint64)[None, :])
        return np.argsort(u, axis=1, kind="stable")
    u = [draw(key, stream, counter, i) for i in range(n)]
    return sorted(range(n), key=lambda i: (u[i], i))
