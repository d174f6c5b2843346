"""The step API's game object: one game over a compiled engine's state, decision by decision.

``Game`` is the same for every game; what differs (how a state lists, names and applies its
decisions, what a seat sees, the record) lives in one small engine adapter per game
(``cardsim/play/<game>.py``, class ``Engine``). A decision is one of the reference
protocol's decisions (``reference.py`` of each game says what one is); ``legal()`` lists
them in the adapter's documented canonical order, lazily, so a large composite set (a
Moska defence, an addition from a long hand) costs only as far as it is read.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from numbers import Integral
from typing import Any

import numpy as np

SHOWN = 12
"""How many legal decisions an error message names before it says how many more there are."""


@dataclass(frozen=True)
class Decision:
    """One legal decision: ``i`` its index in ``Game.legal()``, ``name`` in words, ``move`` the
    engine's move as plain data (its form per game: ``docs/play.md``)."""
    i: int
    name: str
    move: Hashable

    def __int__(self) -> int:
        return self.i


class Decisions(Sequence):
    """The legal decisions of one state in canonical order, made as they are read.

    Indexing, iterating and slicing enumerate only as far as needed; ``len`` enumerates all.
    """

    def __init__(self, moves: Iterator[Hashable], name) -> None:
        self._moves, self._name, self._made = moves, name, []
        self._done = False

    def _fill(self, n: int | None) -> None:
        while not self._done and (n is None or len(self._made) < n):
            move = next(self._moves, None)
            if move is None:
                self._done = True
            else:
                self._made.append(Decision(len(self._made), self._name(move), move))

    def __getitem__(self, i):
        if isinstance(i, slice):
            self._fill(None if (i.start or 0) < 0 or (i.stop is None or i.stop < 0) else i.stop)
            return self._made[i]
        if i < 0:
            self._fill(None)
        else:
            self._fill(i + 1)
        return self._made[i]

    def __len__(self) -> int:
        self._fill(None)
        return len(self._made)

    def __iter__(self) -> Iterator[Decision]:
        k = 0
        while True:
            self._fill(k + 1)
            if k >= len(self._made):
                return
            yield self._made[k]
            k += 1

    def find(self, move: Hashable) -> int | None:
        """The index of ``move`` (enumerating up to it), or None when it is not legal."""
        for d in self:
            if d.move == move:
                return d.i
        return None

    def summary(self) -> str:
        """The first ``SHOWN`` decisions as ``i: name``, and how many more there are."""
        head = [f"{d.i}: {d.name}" for d in islice(self, SHOWN)]
        more = len(self) - len(head)
        return "; ".join(head) + (f"; ... and {more} more" if more > 0 else "")


class Game:
    """One game, stepped one decision at a time (``cardsim.new_game``).

    ``to_act`` (the seat to decide, None when over), ``is_over``, ``turn`` (the record's
    decision counter), ``legal()``, ``apply(i)``, ``view(seat)``, ``copy()``, ``record()``
    and ``policy_decision()`` (the index the seat's built-in policy would take).
    """

    def __init__(self, engine, name: str, policies: tuple) -> None:
        self._engine, self.game, self.policies = engine, name, policies
        self._legal: Decisions | None = None

    @property
    def to_act(self) -> int | None:
        seat = self._engine.to_act()
        return None if seat < 0 else seat

    @property
    def is_over(self) -> bool:
        return self._engine.to_act() < 0

    @property
    def turn(self) -> int:
        """Decisions made so far (the record's ``turns``; in Uno one decision can be several steps)."""
        return self._engine.turn()

    @property
    def rules(self):
        return self._engine.rules

    @property
    def players(self) -> int:
        return self._engine.players

    def legal(self) -> Decisions:
        """The legal decisions of the seat to act (empty when the game is over)."""
        if self._legal is None:
            moves = iter(()) if self.is_over else self._engine.moves()
            self._legal = Decisions(moves, self._engine.name)
        return self._legal

    def apply(self, i: int | Decision) -> None:
        """Make decision ``i`` of ``legal()`` (an index or a ``Decision`` of this state)."""
        legal, given = self.legal(), i
        if isinstance(i, Decision):
            i = i.i if i.i < len(legal._made) and legal._made[i.i] == i else legal.find(i.move)
        if self.is_over:
            raise ValueError(f"{self.game}: the game is over; there is no decision to apply")
        ok = isinstance(i, Integral) and not isinstance(i, (bool, np.bool_)) and i >= 0
        if ok:
            try:
                move = legal[int(i)].move
            except IndexError:
                ok = False
        if not ok:
            shown = given.name if isinstance(given, Decision) else repr(given)
            raise ValueError(f"{self.game}: decision {shown} is not legal for seat {self.to_act} at decision "
                             f"{self.turn}; legal: {legal.summary()}")
        self._engine.apply(move)
        self._legal = None

    def apply_move(self, move: Hashable) -> None:
        """Make the decision whose engine ``move`` this is (a ``ValueError`` when it is not legal)."""
        i = self.legal().find(move)
        if i is None:
            raise ValueError(f"{self.game}: move {move!r} is not legal for seat {self.to_act} at decision "
                             f"{self.turn}; legal: {self.legal().summary()}")
        self.apply(i)

    def is_legal(self, move: Hashable) -> bool:
        """The engine's own legality check of ``move`` (compiled ``is_legal`` where the game has one)."""
        return not self.is_over and self._engine.is_legal(move)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (default: the seat to act) may know, as plain data (``docs/play.md``)."""
        seat = self.to_act if seat is None else seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise ValueError(f"{self.game}: seat must be an integer from 0 to {self.players - 1}, not {seat!r}")
        return self._engine.view(seat)

    def policy_move(self) -> Hashable:
        """The engine move of the seat's built-in policy (random, greedy, mc) at this state."""
        return self._engine.policy_move()

    def policy_decision(self) -> int:
        """The index in ``legal()`` of the decision the seat's built-in policy takes here."""
        if self.is_over:
            raise ValueError(f"{self.game}: the game is over; there is no decision to take")
        from cardsim.play.user import is_user_seat

        if self.policies and is_user_seat(self.policies[self.to_act]):
            raise ValueError(f"{self.game}: seat {self.to_act} plays {self.policies[self.to_act]}, not a built-in "
                             "policy: ask it (or play the game with cardsim.play.runner)")
        move = self._engine.policy_move()
        i = self.legal().find(move)
        if i is None:  # the policy and the enumeration disagree: a bug, not a user error
            raise RuntimeError(f"{self.game}: the built-in policy's move {move!r} is not in legal()")
        return i

    def copy(self) -> Game:
        """An independent copy: stepping one leaves the other as it was."""
        return Game(self._engine.copy(), self.game, self.policies)

    def record(self) -> dict[str, Any]:
        """The record row ``simulate`` writes for this game (once it is over), as a dict."""
        if not self.is_over:
            raise ValueError(f"{self.game}: the game is not over (decision {self.turn}); it has no record yet")
        return self._engine.record()

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"seat {self.to_act} to act"
        return f"<cardsim {self.game} game, {self.players} players, decision {self.turn}, {where}>"
