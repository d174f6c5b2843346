"""Molotow training positions for ``learned`` (``cardsim train``, cardsim/learn/train.py): self-play, labelled.

``label`` plays games with the seat policies and, at a keyed sample of the decisions with more than one
legal card, records the candidates' features (``learned_features.describe``, the deciding seat's view) and
the teacher's totals for them (``compiled.search_totals``: ``mc``'s sticks minus potatoes of the hand over
its worlds). The game then goes on with the seat's own card, so the positions are those the playing policy
meets. Everything is keyed from the seed: the same arguments give the same positions.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow import learned_features as feat
from cardsim.games.molotow.rules import MolotowRules
from cardsim.learn import positions

SAMPLE = 1 << 20
"""The draw ``jit.draw(key, SEARCH, turn, SAMPLE)`` that picks a decision (above every world index)."""


@jit.njit(cache=True)
def label_games(params: tuple, policies: np.ndarray, teacher: np.ndarray, seed: np.uint64, games: np.ndarray,
                every: int, block: np.ndarray, count: np.ndarray, x: np.ndarray, y: np.ndarray, state: np.ndarray,
                work: np.ndarray) -> tuple[int, int]:
    """Play ``games`` with ``policies``; a decision with ``n > 1`` legal cards is a position when
    ``below(draw(key, SEARCH, turn, SAMPLE), every) == 0``: its block, ``n``, the candidates' features (rows
    of ``x``) and the teacher's totals (``y``; ``teacher``: a policy table of ``mc`` rows). Stops when
    ``block`` or ``x`` is full (``label`` makes them large enough). The positions and rows written."""
    s, w = state[0], work[0]
    bonus = params.bonus
    positions, rows = 0, 0
    for g in range(len(games)):
        C.new_game(s, params, jit.game_key(seed, games[g]))
        while not C.game_over(s, params):
            if jit.below(jit.draw(s.key, jit.SEARCH, s.turn, SAMPLE), every) == 0 \
                    and jit.popcount(C.legal_cards(s, params)) > 1:
                if positions == len(block) or rows + C.MAX_CANDIDATES > len(x):
                    return positions, rows
                seat = C.to_act(s)
                n = C.search_totals(s, params, teacher, seat, teacher[seat, C.DETERMINIZATIONS], w)
                for i in range(n):
                    feat.describe(x[rows + i], s, seat, w.candidates[i], i == 0, bonus)
                    y[rows + i] = w.totals[i]
                block[positions] = feat.block(s.players, s.trick_len, s.trick_no, s.trump)
                count[positions] = n
                positions += 1
                rows += n
            C.apply(s, params, C.choose(s, params, policies, w))
    return positions, rows


def label(rules: MolotowRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...],
          teacher: str, every: int) -> dict[str, np.ndarray]:
    """The positions of ``games`` (see ``label_games``): ``block``, ``count`` (candidates per position),
    ``x`` (features, one row per candidate), ``y`` (teacher totals); ``teacher``: an ``mc`` policy string."""
    games = np.asarray(games, dtype=np.int64)
    room = len(games) * rules.hands * N_DECISIONS // every + N_DECISIONS
    return positions.label(label_games, "molotow", room, C.MAX_CANDIDATES, feat.N,
                           (C.make_params(rules, players), C.policy_table(policies),
                            C.policy_table((teacher,) * players), np.uint64(seed)), games, every,
                           (C.new_state(), C.new_work()))


N_DECISIONS = 36
"""Cards played in a hand: a bound on a hand's positions at ``every = 1``."""
