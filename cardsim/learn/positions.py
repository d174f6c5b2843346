"""The arrays of a chunk's training positions, which every game's ``training.label`` fills (cardsim/learn/train.py).

A game's compiled ``label_games`` plays its games and, at a keyed sample of the decisions, writes a
position: its weight block and number of candidates (``block``, ``count``), the candidates' features (rows of
``x``) and the teacher's totals for them (``y``). ``label`` makes the room, runs it and keeps what it wrote.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardsim.core import jit


def label(label_games: Any, game: str, room: int, candidates: int, features: int, before: tuple, games: np.ndarray,
          every: int, after: tuple) -> dict[str, np.ndarray]:
    """``label_games(*before, games, every, block, count, x, y, *after)`` with room for ``room`` positions of at
    most ``candidates`` candidates of ``features`` features each; the ``block``, ``count``, ``x`` and ``y`` it
    wrote (it returns how many positions and rows)."""
    block, count = np.zeros(room, np.int64), np.zeros(room, np.int64)
    x, y = np.zeros((room * candidates, features), np.int64), np.zeros(room * candidates, np.int64)
    n, r = jit.first_call(label_games, f"{game} training", *before, games, every, block, count, x, y, *after)
    return {"block": block[:n], "count": count[:n], "x": x[:r], "y": y[:r]}
