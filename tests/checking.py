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


def give_seat_1_seat_0s_first_card(events: pd.DataFrame) -> str:
    """Tampers with the first two events (the deals to seats 0 and 1): seat 1's first card becomes
    seat 0's first card, now dealt twice. Returns that card."""
    seat0, seat1 = (events.cards[i].split() for i in (0, 1))
    events.loc[1, "cards"] = " ".join([seat0[0], *seat1[1:]])
    return seat0[0]


def dealt(events: pd.DataFrame, seat: int) -> list[str]:
    """The cards of ``seat``'s first deal."""
    return events.cards[(events.action == "deal") & (events.seat == seat)].iloc[0].split()
