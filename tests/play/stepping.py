"""Shared by the step-API tests: play a game by its seats' built-in policies, and re-deal what a seat
cannot see (the compiled engines' own ``determinize``, as ``mc`` does) to check views."""
from __future__ import annotations

import numpy as np

import cardsim
from cardsim.core import jit

LISTED = 40
"""How many of each state's legal decisions the differential tests check with the engine's ``is_legal``."""


def step_by_policy(game, rules, players, seed, index, seats, listed=LISTED):
    """Play game ``index`` on the step API, always taking ``policy_decision()``; check every listed
    decision (the first ``listed``) with the engine's ``is_legal`` and that they are distinct. The record."""
    g = cardsim.new_game(game, rules, players=players, seed=seed, game_index=index, policies=seats)
    while not g.is_over:
        legal = g.legal()
        head = legal[:listed]
        assert head, f"no legal decision at decision {g.turn}"
        assert all(g.is_legal(d.move) for d in head), [d.name for d in head if not g.is_legal(d.move)]
        assert len({d.move for d in head}) == len(head)
        assert [d.i for d in head] == list(range(len(head)))
        g.apply(g.policy_decision())
    return g.record()


def reference_record(game, rules, players, seed, index, seats):
    return cardsim.replay(game, rules, game=index, players=players, seed=seed, policy=list(seats)).record


def redealt(g, seat: int, key: int):
    """A copy of ``g`` whose cards ``seat`` cannot see are dealt again (world ``key``), via the game's
    compiled ``determinize``; None where the engine determinizes only for the seat to act (Uno) and
    ``seat`` is not it."""
    w = g.copy()
    e = w._engine
    s, work = e.state[0], e.work[0]
    key = np.uint64(key)
    if w.game == "moska":
        from cardsim.games.moska import compiled as c
        n = c.hidden_cards(s, e.params[0], seat, work)
        c.determinize(s, e.params[0], seat, key, n, work)
    elif w.game == "musta_maija":
        from cardsim.games.musta_maija import compiled as c
        n = c.hidden_cards(s, seat, work)
        c.determinize(s, seat, key, n, work)
    elif w.game == "uno":
        from cardsim.games.uno import compiled as c
        if seat != g.to_act:
            return None
        c.hidden_cards(s, work)
        c.determinize(s, key, work)
    else:
        from cardsim.games.molotow import compiled as c
        c.determinize(s, seat, key, work)
    s["key"] = g._engine.state[0]["key"]  # the game's own draws (policies) stay
    return w


def world_key(i: int) -> int:
    return int(jit.world_key(np.uint64(12345), 7, i))
