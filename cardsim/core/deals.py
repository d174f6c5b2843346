"""The deal permutations of many games at once: ``permutation(game_key(seed, game), DEAL, n)`` for
each game, compiled (``jit``'s twins of ``rng``), for the per-game deal features that regression
adjustment reads (``cardsim.games.<game>.features``) without playing a game."""
from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.core import jit


def permutations(seed: int, games: np.ndarray, n: int, counter: int = 0) -> np.ndarray:
    """A (games x n) int64 array: row i is game ``games[i]``'s deal permutation of ``n`` cards
    (``counter``: the hand of a game of several hands, as the engines deal hand ``counter``); at most
    ``jit.MAX_DRAWS`` cards, the most a deck of the games holds many times over."""
    if not 0 <= n <= jit.MAX_DRAWS:
        raise ValueError(f"permutations: n={n} cards; allowed 0 to {jit.MAX_DRAWS}")
    return _permutations(np.uint64(seed), np.asarray(games, dtype=np.int64), n, counter)


@njit(cache=True)
def _permutations(seed: np.uint64, games: np.ndarray, n: int, counter: int) -> np.ndarray:
    out = np.empty((len(games), n), np.int64)
    u, perm, count = np.empty(n, np.uint64), np.empty(n, np.int64), np.empty(jit.BUCKETS + 1, np.int64)
    for i in range(len(games)):
        jit.permutation_into(jit.game_key(seed, games[i]), jit.DEAL, counter, n, u, perm, count)
        out[i] = perm
    return out
