"""Musta-Maija training positions for ``learned`` (``cardsim train``, cardsim/learn/train.py): self-play, labelled.

``label`` plays games with the seat policies and, at a keyed sample of the decisions that have more
than one candidate, records the candidates' features (``learned_features.describe``, the deciding seat's
view) and the teacher's totals for them (``compiled.teacher_scores``: ``mc``'s play-outs). The game then
goes on with the seat's own decision, so the positions are those the playing policy meets. Everything
is keyed from the seed: the same arguments give the same positions.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as pol
from cardsim.games.musta_maija import learned_features as feat
from cardsim.games.musta_maija.rules import MustaMaijaRules
from cardsim.learn import positions

SAMPLE = 1 << 20
"""The draw ``jit.draw(key, SEARCH, turn, SAMPLE)`` that picks a decision (above every world index)."""
PER_GAME = 60
"""A bound on the sampled decisions of one game that ``label`` makes room for, at ``every = 1``."""


@jit.njit(cache=True)
def label_games(p: np.void, policies: np.ndarray, teacher: np.ndarray, worlds: int, seed: np.uint64,
                games: np.ndarray, every: int, block: np.ndarray, count: np.ndarray, x: np.ndarray,
                y: np.ndarray, w: np.void) -> tuple[int, int]:
    """Play ``games`` with ``policies``; a decision of ``n > 1`` candidates is a position when
    ``below(draw(key, SEARCH, turn, SAMPLE), every) == 0``: its block, ``n``, the candidates' features
    (rows of ``x``) and teacher totals (``y``, ``worlds`` worlds, ``teacher``: an ``mc`` table row). Stops
    when ``block`` or ``x`` is full. The numbers of positions and rows written."""
    state = np.zeros(1, C.STATE)
    move = np.zeros(1, C.MOVE)
    s, m = state[0], move[0]
    positions, rows = 0, 0
    reads = pol.reads_of(policies) or teacher[pol.READS] != 0  # as ``run_games`` keeps them
    for g in range(len(games)):
        C.deal(s, p, jit.game_key(seed, games[g]), w.u, w.order, w.tmp, w.count)
        s.reads = reads
        while s.phase != C.OVER:
            if jit.below(jit.draw(s.key, jit.SEARCH, s.turns, SAMPLE), every) == 0 \
                    and C.decision_candidates(s, p, w.play, teacher[pol.FORBID]) > 1:
                if positions == len(block) or rows + C.MAX_CANDIDATES > len(x):
                    return positions, rows
                n = C.teacher_scores(s, p, teacher, worlds, w, y[rows:])
                for i in range(n):
                    C.candidate_features(s, p, w.candidates[i], i == 0, w, x[rows + i])
                block[positions], count[positions] = C.block_of(s, p), n
                positions += 1
                rows += n
            C.choose(s, p, policies, m, w)
            C.apply(s, p, m)
    return positions, rows


def label(rules: MustaMaijaRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...],
          teacher: str, every: int) -> dict[str, np.ndarray]:
    """The positions of ``games`` (see ``label_games``): ``block``, ``count`` (candidates per position),
    ``x`` (features, one row per candidate), ``y`` (teacher totals); ``teacher``: an ``mc`` policy string."""
    games = np.asarray(games, dtype=np.int64)
    row = pol.table((teacher,))[0]
    room = len(games) * PER_GAME // every + PER_GAME
    return positions.label(label_games, "musta_maija", room, C.MAX_CANDIDATES, feat.N,
                           (C.make_params(rules, players)[0], pol.table(policies), row, int(row[pol.DETERMINIZATIONS]),
                            np.uint64(seed)), games, every, (C.new_work()[0],))
