"""Molotow Jass on the step API: its decisions, names and views.

A decision is one card played (``games/molotow/reference.py``); its ``move`` is the card's code
(0..35, ``games/molotow/cards.py``). Canonical order of ``legal()``: the legal cards (MJ-6 …
MJ-11, the engine's ``legal_cards``) by code, lowest first.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.games.molotow import compiled as c
from cardsim.games.molotow.cards import DECK, NO_TRUMP
from cardsim.play.base import BaseEngine


# The engine's functions over the 1-element arrays: numba takes an array from Python in a few
# microseconds, a record in tens (benchmarks/bench_step.py). Each returns the seat to act (-1: over).
@njit(cache=True)
def _seat(state, params) -> int:
    s = state[0]
    return -1 if c.game_over(s, params) else c.to_act(s)


@njit(cache=True)
def _new_game(state, params, key):
    c.new_game(state[0], params, key)
    return _seat(state, params)


@njit(cache=True)
def _apply(state, params, card):
    c.apply(state[0], params, card)
    return _seat(state, params)


@njit(cache=True)
def _legal(state, params):
    return c.legal_cards(state[0], params)


@njit(cache=True)
def _choose(state, params, table, work):
    return c.choose(state[0], params, table, work[0])


class Engine(BaseEngine):
    """A Molotow game over ``compiled.STATE``."""

    def __init__(self, rules, players, seed, game_index, seats) -> None:
        super().__init__(rules, players, seed, game_index, seats)
        self.params = c.make_params(rules, players)
        self.table = c.policy_table(self.seats)
        self.state, self.work = c.new_state(), c.new_work()
        self.seat = int(_new_game(self.state, self.params, np.uint64(rng.game_key(seed, game_index))))

    def turn(self) -> int:
        return int(self.state[0]["turn"])

    def moves(self):
        return iter(list(cards_of(int(_legal(self.state, self.params)))))

    def name(self, move: int) -> str:
        return f"play {DECK.name(move)}"

    def apply(self, move: int) -> None:
        self.seat = int(_apply(self.state, self.params, move))

    def is_legal(self, move) -> bool:
        return bool(int(_legal(self.state, self.params)) >> move & 1)

    def policy_move(self) -> int:
        return int(_choose(self.state, self.params, self.table, self.work))

    def view(self, seat: int) -> dict:
        s, players = self.state[0], self.players
        n = int(s["trick_len"])
        trump = int(s["trump"])
        return {
            "game": "molotow", "seat": seat, "players": players, "turn": int(s["turn"]),
            "kind": "over" if self.to_act() < 0 else ("lead" if n == 0 else "follow"), "to_act": self.to_act(),
            "hand": list(cards_of(int(s["held"][seat]))),
            "hand_sizes": [int(s["held"][q]).bit_count() for q in range(players)],
            "trick": [int(x) for x in s["trick"][:n]], "leader": int(s["leader"]),
            "led": int(s["led"]) if n else -1, "trump": -1 if trump == NO_TRUMP else trump,
            "trump_setter": int(s["setter"]), "trump_trick": int(s["trump_trick"]),
            "played": list(cards_of(int(s["played"]))),
            "taken": [list(cards_of(int(s["taken"][q]))) for q in range(players)],
            "ruled_out": [list(cards_of(int(s["ruled_out"][q]))) for q in range(players)],
            "trick_no": int(s["trick_no"]), "hand_no": int(s["hand_no"]), "dealer": int(s["dealer"]),
            "sticks": [int(x) for x in s["sticks"][:players]], "potatoes": [int(x) for x in s["potatoes"][:players]],
            "rules": self.rules_view(),
        }

    def record(self) -> dict:
        row = np.zeros(len(c.RECORD), dtype=np.int64)
        c.record(self.state[0], self.params, self.game_index, row)
        out = dict(zip(c.RECORD, (int(v) for v in row)))
        out["truncated"] = bool(out["truncated"])
        return out
