"""One game for an agent loop: a step-API game, its game's coding, and the decision under way.

``Table`` is what the PettingZoo env and the OpenSpiel state share: the seat to act, the legal
action ids (``actions.Selection``), taking one, the seat's observation array, the returns once the
game is over, a copy. It plays the game through the step API (``cardsim.new_game``); only a
game's ``fast`` observation and ``resample`` read the step adapter's compiled state.
"""
from __future__ import annotations

import copy

import numpy as np

from cardsim.envs import returns as _returns
from cardsim.envs.actions import Selection
from cardsim.envs.codings import coding


PLAYERS = 4
"""The seats of an environment unless it says otherwise (Molotow: its rules' ``players``)."""


def default_players(rules) -> int:
    return getattr(rules, "players", PLAYERS)


class Table:
    """Game ``game_index`` of ``seed`` under ``rules`` with ``players`` seats, stepped by action ids
    (``policies``: the seats' built-in policies of ``new_game``, which only ``policy_tokens`` asks)."""

    def __init__(self, game: str, rules, players: int, seed: int, game_index: int, policies=None) -> None:
        from cardsim.play import new_game

        self.game, self.players = game, players
        self.coding = coding(game)
        self.play = new_game(game, rules, players=players, seed=seed, game_index=game_index, policies=policies)
        self._select()

    @classmethod
    def of(cls, game: str, play) -> Table:
        """A table over an existing step-API game ``play`` (not copied)."""
        table = cls.__new__(cls)
        table.game, table.players, table.coding, table.play = game, play.players, coding(game), play
        table._select()
        return table

    def _select(self) -> None:
        if self.play.is_over:
            self.selection = None
        else:
            actions = self.coding.actions
            context = actions.context(self.play) if actions.context else None
            self.selection = Selection(actions, list(self.play.legal()), context)

    @property
    def is_over(self) -> bool:
        return self.play.is_over

    @property
    def seat(self) -> int | None:
        """The seat to act, None once the game is over."""
        return self.play.to_act

    def legal_actions(self) -> list[int]:
        return [] if self.selection is None else self.selection.legal()

    def mask(self) -> np.ndarray:
        """1 for each legal action id, as ``int8`` (all 0 once the game is over)."""
        out = np.zeros(self.coding.actions.actions, dtype=np.int8)
        out[self.legal_actions()] = 1
        return out

    def chosen(self) -> list[int]:
        """The tokens of the decision under way chosen so far."""
        return [] if self.selection is None else list(self.selection.chosen)

    def policy_tokens(self) -> tuple[int, ...]:
        """The tokens that spell the seat's built-in policy decision (``Game.policy_decision``), from the start
        of the decision."""
        actions = self.coding.actions
        context = actions.context(self.play) if actions.context else None
        return actions.tokens(self.play.legal()[self.play.policy_decision()], context)

    def step(self, action: int) -> None:
        """Take action ``action`` for the seat to act (a ValueError naming the legal ones if it is not legal)."""
        if self.selection is None:
            raise ValueError(f"{self.game}: the game is over; there is no action to take")
        done = self.selection.choose(int(action))
        if done is not None:
            self.play.apply(done)
            self._select()

    def observation(self, seat: int) -> np.ndarray:
        """``seat``'s view as the game's fixed-shape array (``codings``), its own choices under way included."""
        mine = self.chosen() if seat == self.seat else []
        return self.coding.observe_game(self.play, seat, mine)

    def returns(self) -> list[float]:
        """Each seat's return (``returns``): 0 for all until the game is over."""
        if not self.play.is_over:
            return [0.0] * self.players
        return _returns.returns(self.game, self.play.record(), self.players)

    def truncated(self) -> bool:
        return self.play.is_over and bool(self.play.record()["truncated"])

    def _select_again(self) -> None:
        """After the hidden cards changed (``resample``): the same legal decisions over the new state, the
        tokens chosen so far chosen again."""
        chosen = self.chosen()
        self._select()
        for t in chosen:
            self.selection.choose(t)

    def copy(self) -> Table:
        other = copy.copy(self)
        other.play = self.play.copy()
        if self.selection is not None:
            other.selection = copy.copy(self.selection)
            other.selection.chosen = list(self.selection.chosen)
        return other

    def __deepcopy__(self, memo) -> Table:
        return self.copy()

    def __getstate__(self) -> dict:
        """For pickling (OpenSpiel's serialisation): the game copied without its lazy decision list."""
        return {**self.__dict__, "play": self.play.copy()}

    def text(self) -> str:
        """The game as a person reads it: the seat to act, its view, its choices so far and its options."""
        if self.play.is_over:
            return f"{self.game}: over; record {self.play.record()}; returns {self.returns()}"
        seat = self.seat
        names = [self.coding.actions.name(t) for t in self.selection.chosen]
        options = ", ".join(f"{t}: {self.coding.actions.name(t)}" for t in self.legal_actions())
        return (f"{self.game}, decision {self.play.turn}, seat {seat} to act\n"
                f"view: {self.play.view(seat)}\n"
                f"chosen so far: {' '.join(names) or '-'}\n"
                f"actions: {options}")
