"""Uno training positions for ``learned`` (``cardsim train``, cardsim/learn/train.py): self-play, labelled.

``label`` plays games with the seat policies and, at a keyed sample of the choices that have more than one
candidate, records the candidates' features (``learned_features.describe``, the deciding seat's view) and
the teacher's totals for them (``compiled.teacher_scores``: ``mc``'s worlds, play-outs and score). The game
then goes on with the seat's own choice, so the positions are those the playing policy meets. Everything
is keyed from the seed: the same arguments give the same positions.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit
from cardsim.games.uno import compiled as C
from cardsim.games.uno import learned_features as feat
from cardsim.games.uno.cards import K
from cardsim.games.uno.reference import OVER
from cardsim.games.uno.rules import UnoRules
from cardsim.learn import positions

SAMPLE = 1 << 20
"""The draw ``jit.draw(key, SEARCH, turn, SAMPLE + phase)`` that picks a choice (above every world index)."""
PER_GAME = 60
"""A bound on the sampled choices of one game that ``label`` makes room for, at ``every = 1``."""


@jit.njit(cache=True)
def label_games(params, policy, teacher, players: int, seed: np.uint64, games, every: int, block, count, x, y,
                w) -> tuple[int, int]:
    """Play ``games`` with ``policy``; a choice of ``n > 1`` candidates is a position when
    ``below(draw(key, SEARCH, turn, SAMPLE + phase), every) == 0``: its block, ``n``, the candidates' features
    (rows of ``x``) and teacher totals (``y``; ``teacher``: an ``mc`` policy table row). Stops when ``block`` or
    ``x`` is full. The numbers of positions and rows written."""
    state = np.zeros(1, C.STATE)
    s = state[0]
    positions, rows = 0, 0
    C.seat_table(policy, w)
    for g in range(len(games)):
        C.new_game(s, params, players, jit.game_key(seed, games[g]), w)
        s.reads = True  # the teacher is an mc seat: it reads the table as it does in play
        while s.phase != OVER:
            if jit.below(jit.draw(s.key, jit.SEARCH, s.turns, SAMPLE + s.phase), every) == 0 \
                    and C.candidates(s, 0, w, w.options) > 1:
                if positions == len(block) or rows + K + 1 > len(x):
                    return positions, rows
                n = C.teacher_scores(s, params, teacher, w)
                feat.unseen_colours(s, w.copies, w.unseen)
                for i in range(n):
                    feat.describe(s, w.options[i], i == 0, w.unseen, x[rows + i])
                    y[rows + i] = w.score[i]
                block[positions], count[positions] = feat.block_of(s), n
                positions += 1
                rows += n
            C.apply(s, C.decide(s, params, w.seats, w), params, w)
    return positions, rows


def label(rules: UnoRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...],
          teacher: str, every: int) -> dict[str, np.ndarray]:
    """The positions of ``games`` (see ``label_games``): ``block``, ``count`` (candidates per position),
    ``x`` (features, one row per candidate), ``y`` (teacher totals); ``teacher``: an ``mc`` policy string."""
    games = np.asarray(games, dtype=np.int64)
    room = len(games) * PER_GAME // every + PER_GAME
    return positions.label(label_games, "uno", room, 8, feat.N,
                           (C.params_of(rules), C.policy_of(policies), C.policy_of((teacher,))[0], players,
                            np.uint64(seed)), games, every, (C.new_work(rules)[0],))
