"""Uno on the step API: its choices, names and views.

In Uno a step is one *choice* of the reference protocol (``games/uno/reference.py``,
"Choices"): ``START_COLOUR``, ``STACK``, ``CHALLENGE``, ``CARD``, ``TARGET`` or ``COLOUR``. One
decision (a turn, the unit of ``turns``) can be several choices, because what comes next
depends on chance (a wild drawn and played names its colour after the draw; a challenge's
outcome decides whether the challenger plays on). ``Game.turn`` is the decision's number.
A ``move`` is the engine's choice, an ``int``: a card kind (0..55, ``games/uno/cards.py``) or
``DRAW`` (-1) at ``CARD``; a Draw Two's kind or ``TAKE`` (-1) at ``STACK``; 1 (challenge) or 0
at ``CHALLENGE``; a colour 0..3 (R, Y, G, B) at ``COLOUR`` and ``START_COLOUR``; a seat at
``TARGET``. Canonical order: the engine's ``legal_decisions``: held legal kinds ascending, then
draw; Draw Twos by colour, then take; 0 then 1; colours R, Y, G, B; seats clockwise from the next.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.core import rng
from cardsim.games.uno import compiled as c
from cardsim.games.uno.cards import COLOURS, K
from cardsim.games.uno.cards import name as card_name
from cardsim.games.uno.policies import MC
from cardsim.games.uno.reference import (
    CARD,
    CHALLENGE,
    COLOUR,
    DRAW,
    OVER,
    STACK,
    START_COLOUR,
    TARGET,
)
from cardsim.play.base import BaseEngine

CHOICES = {START_COLOUR: "start_colour", STACK: "stack", CHALLENGE: "challenge", CARD: "card", TARGET: "target",
           COLOUR: "colour", OVER: "over"}
COLOUR_WORDS = ("red", "yellow", "green", "blue")


# The engine's functions over the 1-element arrays: numba takes an array from Python in a few
# microseconds, a record in tens (benchmarks/bench_step.py). Each returns the seat to act (-1: over).
@njit(cache=True)
def _seat(state) -> int:
    s = state[0]
    return -1 if s.phase == OVER else s.current


@njit(cache=True)
def _new_game(state, params, players, key, work, reads):
    c.new_game(state[0], params, players, key, work[0])
    state[0].reads = reads  # as play_games: only mc reads the table
    return _seat(state)


@njit(cache=True)
def _apply(state, choice, params, work):
    c.apply(state[0], choice, params, work[0])
    return _seat(state)


@njit(cache=True)
def _legal(state, out):
    return c.legal_decisions(state[0], out)


@njit(cache=True)
def _decide(state, params, table, work):
    return c.decide_for(state[0], params, table, work[0])


def kinds(counts) -> list[int]:
    """A count per kind as a list of kinds, each repeated as often as it is held."""
    return [k for k in range(K) for _ in range(int(counts[k]))]


class Engine(BaseEngine):
    """An Uno game over ``compiled.STATE``."""

    def __init__(self, rules, players, seed, game_index, seats) -> None:
        super().__init__(rules, players, seed, game_index, seats)
        self.params = c.params_of(rules)
        self.table = c.policy_of(self.seats)
        self.state, self.work = np.zeros(1, c.STATE), c.new_work(rules)
        self.options = np.zeros(K + 1, dtype=np.int64)
        reads = any(p.split("(")[0] == MC for p in self.seats)
        self.seat = int(_new_game(self.state, self.params, players, np.uint64(rng.game_key(seed, game_index)),
                                  self.work, reads))

    def copy(self):
        other = super().copy()
        other.options = np.zeros(K + 1, dtype=np.int64)
        return other

    def turn(self) -> int:
        s = self.state[0]
        return int(s["turns"]) - (0 if int(s["phase"]) == OVER else 1)

    def moves(self):
        n = int(_legal(self.state, self.options))
        return iter([int(x) for x in self.options[:n]])

    def name(self, move: int) -> str:
        phase = int(self.state[0]["phase"])
        if phase == CARD:
            return "draw" if move == DRAW else f"play {card_name(move)}"
        if phase == STACK:
            return f"take {int(self.state[0]['pending'])}" if move < 0 else f"stack {card_name(move)}"
        if phase == CHALLENGE:
            return "challenge" if move else "do not challenge"
        if phase in (COLOUR, START_COLOUR):
            return f"name {COLOUR_WORDS[move]}"
        return f"swap hands with seat {move}"

    def apply(self, move: int) -> None:
        self.seat = int(_apply(self.state, move, self.params, self.work))

    def is_legal(self, move) -> bool:
        return move in self.moves()

    def policy_move(self) -> int:
        return int(_decide(self.state, self.params, self.table, self.work))

    def view(self, seat: int) -> dict:
        s, players = self.state[0], self.players
        phase = int(s["phase"])
        top = int(s["top"])
        return {
            "game": "uno", "seat": seat, "players": players, "turn": self.turn(),
            "kind": CHOICES[phase], "to_act": self.to_act(),
            "hand": kinds(s["hands"][seat]), "hand_sizes": [int(x) for x in s["size"][:players]],
            "shown": [kinds(s["shown"][q, seat]) for q in range(players)],
            "top": top, "top_name": card_name(top), "colour": int(s["colour"]),
            "colour_name": COLOURS[int(s["colour"])] if int(s["colour"]) >= 0 else "",
            "direction": int(s["direction"]), "pending": int(s["pending"]),
            "challenge_open": bool(s["challenge_open"]), "wd4_player": int(s["wd4_player"]),
            "discard": kinds(s["discard"]), "pile": int(s["end"] - s["ptr"]),
            "hand_no": int(s["hand_no"]), "hand_turns": int(s["hand_turns"]),
            "scores": [int(x) for x in s["scores"][:players]],
            "rules": self.rules_view(),
        }

    def record(self) -> dict:
        out = np.zeros((1, len(c.RECORD)), dtype=np.int64)
        c.record_into(self.state[0], out, 0)
        row = {"game": self.game_index, **dict(zip(c.RECORD, (int(v) for v in out[0])))}
        row["truncated"] = bool(row["truncated"])
        return row
