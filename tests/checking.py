"""Running an independent checker (tests/<game>/checker.py) on replays, for the tests/<game>/test_checker.py.

Each game's test runs its checker on many games of every preset (it must pass them) and on
tampered events (it must reject them). This module is what those tests share: replaying
games through ``cardsim``, checking them, and a tampered game's events and record. Unlike
``replay_reading`` (which the checkers themselves use) it imports cardsim.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import pandas as pd
import pytest

import cardsim
from replay_reading import CheckError

Check = Callable[[pd.DataFrame, dict, dict, int], None]
"""A game's ``check(events, record, rules, players)``."""


@dataclass
class Tampered:
    """One game's events and record (copies, to tamper with), the knobs and players to check them with."""

    events: pd.DataFrame
    record: dict[str, Any]
    knobs: dict[str, Any]
    players: int
    check: Check

    def passes(self) -> None:
        self.check(self.events, self.record, self.knobs, self.players)

    def fails(self, message: str) -> None:
        """The checker must raise ``CheckError`` matching ``message`` (a regular expression)."""
        with pytest.raises(CheckError, match=message):
            self.passes()


@dataclass(frozen=True)
class Checker:
    """A game's checker and the replays it is tested on: ``seed`` for every replay, ``rules`` by default."""

    game: str
    check: Check
    seed: int
    rules: str

    def tamper(self, index: int = 0, rules: str | None = None, players: int = 4) -> Tampered:
        """Game ``index`` (default policy) to tamper with."""
        rules = self.rules if rules is None else rules
        t = cardsim.replay(self.game, rules, players=players, seed=self.seed, game=index)
        return Tampered(t.events.copy(), dict(t.record), cardsim.rules(self.game, rules).to_dict(), players, self.check)

    def actions(self, rules: str, games: int, players: Iterable[int],
                policies: Iterable[str] = ("random", "greedy")) -> Counter:
        """Checks games 0 .. ``games - 1`` of ``rules`` for every player count and policy (each must
        pass); the actions of their events, counted."""
        knobs = cardsim.rules(self.game, rules).to_dict()
        actions: Counter = Counter()
        for n in players:
            for policy in policies:
                for game in range(games):
                    t = cardsim.replay(self.game, rules, players=n, seed=self.seed, game=game, policy=policy)
                    self.check(t.events, t.record, knobs, n)
                    actions.update(t.events.action)
        return actions

    # -- tamper cases every game's checker must catch the same way

    def duplicated_card_is_caught(self, message: str) -> None:
        """Seat 1's first dealt card replaced by seat 0's first (the first two events are their deals):
        a card dealt twice. ``message`` may name it as ``{card}``."""
        g = self.tamper()
        seat0, seat1 = (g.events.cards[i].split() for i in (0, 1))
        g.events.loc[1, "cards"] = " ".join([seat0[0], *seat1[1:]])
        g.fails(message.format(card=seat0[0]))

    def wrong_seat_is_caught(self, action: str, nth: int = 0) -> None:
        """The ``nth`` ``action`` event given to the next seat round the table."""
        g = self.tamper()
        i = g.events.index[g.events.action == action][nth]
        g.events.loc[i, "seat"] = (g.events.seat[i] + 1) % g.players
        g.fails("expected seat")

    def wrong_record_is_caught(self, column: str, step: int = 1, seat: bool = False) -> None:
        """The record's ``column`` ``step`` off (a seat: moved round the table); the checker must name it."""
        g = self.tamper()
        g.record[column] += step
        if seat:
            g.record[column] %= g.players
        g.fails(f"record {column}")


def dealt(events: pd.DataFrame, seat: int) -> list[str]:
    """The cards of ``seat``'s first deal."""
    return events.cards[(events.action == "deal") & (events.seat == seat)].iloc[0].split()
