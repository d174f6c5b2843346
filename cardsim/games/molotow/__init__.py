"""Molotow Jass (``docs/rules/molotow.md``): the game as the library sees it, ``GAME``.

Also ``hands_table``: one row per hand instead of per game, for studies of single hands.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from cardsim.api import engine_name
from cardsim.api import rules as make_rules
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, columns, frame
from cardsim.games.molotow import compiled, reference, seating
from cardsim.games.molotow.policies import POLICIES
from cardsim.games.molotow.rules import OPTIONS, MolotowRules

SEATS = range(reference.SEATS)

COLUMNS = COMMON + columns("""
    winner           int64  seat with the highest score (sticks minus potatoes, MJ-19); -1 for a shared win or a
                            truncated game
    winners          int64  bitmask of the seats sharing the highest score (bit s = seat s); 0 if truncated
    score_{s}        int64  seat {s}'s sticks minus potatoes (0 for seat 3 at a 3-player table)
    sticks_{s}       int64  sticks won by seat {s} (MJ-13…MJ-18)
    potatoes_{s}     int64  potatoes taken by seat {s} (MJ-13…MJ-18)
    hands_trumpless  int64  hands in which no trump was set (MJ-4; never with 4 players)
    hands_100        int64  hands in which a player took 100 to 156 points (MJ-16)
    hands_157        int64  hands in which a player took all the points (MJ-17)
    hands_tie3       int64  hands settled by the three-way-tie draw (MJ-15)
""", SEATS)

HAND_COLUMNS = columns("""
    game          int64  game index
    hand          int64  hand number in the game, from 0
    dealer        int64  the hand's dealer (seat h % players, MJ-5)
    trump         int64  trump suit (0..3 = ♠♥♦♣ of JASS36), -1 if none was set (MJ-8)
    trump_trick   int64  trick (from 0) in which trump was set, -1 if none
    trump_setter  int64  seat that set trump, -1 if none
    points_{s}    int64  card points taken by seat {s} (MJ-4)
    sticks_{s}    int64  sticks of seat {s} for the hand
    potatoes_{s}  int64  potatoes of seat {s} for the hand
""", SEATS)

GAME = GameSpec(
    name="molotow",
    rules=MolotowRules,
    min_players=3,
    max_players=4,
    policies=POLICIES,
    columns=COLUMNS,
    play=seating.play,
    compiled=compiled.simulate,
    options=OPTIONS,
)


def hands_table(rules: MolotowRules | str | None = None, players: int | None = None, seed: int = 0,
                games: int = 1000, policy: str | Sequence[str] = "random", *, first_game: int = 0,
                engine: str = "compiled") -> pd.DataFrame:
    """One row per completed hand of games ``first_game ..`` (columns ``HAND_COLUMNS``).

    ``players`` defaults to the rules' own; both engines give the same table
    (``engine``: ``"compiled"`` or ``"reference"``; ``"vector"`` is an alias of ``"compiled"``).
    """
    r = make_rules("molotow", rules)
    players = GAME.check_players(r, r.players if players is None else players)
    seats = GAME.seat_policies(policy, players)
    idx = np.arange(first_game, first_game + games, dtype=np.int64)
    if engine_name(engine) == "compiled":
        return frame(compiled.simulate_hands(r, players, seed, idx, seats), HAND_COLUMNS)
    rows = [row for i in idx for row in seating.play_game(r, players, seed, int(i), seats).hands]
    return frame(rows, HAND_COLUMNS) if rows else frame({c.name: np.empty(0) for c in HAND_COLUMNS}, HAND_COLUMNS)
