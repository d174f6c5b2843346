"""What every game's step adapter shares: its setup, the built-in seats' table and ``copy``."""
from __future__ import annotations

import copy as _copy

from cardsim.core.rules import Rules

STAND_IN = "random"
"""The built-in policy a user's seat has in the compiled policy table: never asked (the user's
policy decides there), but the table needs a row for every seat."""


def builtin_seats(seats: tuple) -> tuple[str, ...]:
    """The policy strings of the compiled table: user seats stand in as ``STAND_IN``."""
    from cardsim.play.user import is_user_seat

    return tuple(STAND_IN if is_user_seat(p) else p for p in seats)


class BaseEngine:
    """An adapter over one compiled state: ``state`` (a 1-element ``STATE`` array), ``work`` its
    scratch; the subclass deals in ``__init__`` and lists, names, applies and views decisions."""

    state = None
    work = None

    def __init__(self, rules: Rules, players: int, seed: int, game_index: int, seats: tuple) -> None:
        self.rules, self.players, self.seed, self.game_index = rules, players, seed, game_index
        self.seats = builtin_seats(seats)

    def copy(self):
        other = _copy.copy(self)
        other.state = self.state.copy()
        other.work = self.work.copy()
        return other

    def to_act(self) -> int:
        """The seat whose decision the game waits for (the subclass keeps ``seat`` after each step)."""
        return self.seat

    def rules_view(self) -> dict:
        return self.rules.to_dict()
