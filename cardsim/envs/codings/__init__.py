"""Each game's fixed action space and observation for agents (one module per game).

A module defines ``ACTIONS`` (an ``actions.Coding``: the tokens that spell its decisions),
``layout(players)`` (the observation's named segments), ``segments(view, players)`` (their values
from the step API's view: the definition) and ``fast(engine, seat, players)`` (the same values read
from the compiled state in numba). ``observe(view, chosen, players)`` turns
the step API's ``view(seat)`` into one ``float32`` vector in [0, 1]: segments in the order of the
layout, seats rotated so that entry 0 of a per-seat segment is the observing seat, entry 1 the seat
after it, and so on; ``chosen`` (the tokens the seat has chosen so far at the decision under way)
ends the vector as a 0/1 entry per action id.
"""
from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cardsim.envs.actions import Coding


@dataclass(frozen=True)
class GameCoding:
    """A game's action coding and observation: ``observe(view, chosen, players)``, ``layout(players)``."""

    actions: Coding
    segments: Callable[[dict, int], list[tuple[str, np.ndarray]]]
    layout: Callable[[int], list[tuple[str, int]]]
    fast: Callable[[object, int, int], np.ndarray]
    """The view's segments read straight from a step adapter's compiled state in numba (tested equal to
    ``segments``): building the view's lists costs more than the step itself."""

    def observe(self, view: dict, chosen: list[int], players: int) -> np.ndarray:
        parts = [v for _, v in self.segments(view, players)]
        return self._ended(np.concatenate([np.asarray(p, dtype=np.float32).ravel() for p in parts]), chosen)

    def observe_game(self, game, seat: int, chosen: list[int]) -> np.ndarray:
        """``observe`` of ``game.view(seat)``, by ``fast``."""
        return self._ended(self.fast(game._engine, seat, game.players), chosen)

    def _ended(self, head: np.ndarray, chosen: list[int]) -> np.ndarray:
        mine = np.zeros(self.actions.actions, dtype=np.float32)
        mine[chosen] = 1.0
        return np.concatenate([head, mine])

    def size(self, players: int) -> int:
        return width(self.layout, players) + self.actions.actions


def coding(game: str) -> GameCoding:
    """The coding of a registered game (``cardsim/envs/codings/<game>.py``)."""
    module = importlib.import_module(f"cardsim.envs.codings.{game}")
    return GameCoding(module.ACTIONS, module.segments, module.layout, module.fast)


@functools.cache
def width(layout: Callable[[int], list[tuple[str, int]]], players: int) -> int:
    """The entries of a layout's segments at ``players`` (the observation less the chosen tokens)."""
    return sum(n for _, n in layout(players))


def blank(layout: Callable[[int], list[tuple[str, int]]], players: int) -> np.ndarray:
    """A zero ``float32`` vector of a layout's width: what a game's ``fast`` fills."""
    return np.zeros(width(layout, players), dtype=np.float32)


def cards(codes, deck: int) -> np.ndarray:
    """A 0/1 vector over ``deck`` card codes."""
    out = np.zeros(deck, dtype=np.float32)
    out[list(codes)] = 1.0
    return out


def one_hot(i: int, n: int) -> np.ndarray:
    """A 0/1 vector with entry ``i`` set (none when ``i`` is negative)."""
    out = np.zeros(n, dtype=np.float32)
    if i >= 0:
        out[i] = 1.0
    return out


def rotate(values, seat: int, players: int) -> list:
    """``values`` (one per seat) from ``seat``'s place: entry ``j`` is seat ``(seat + j) % players``."""
    return [values[(seat + j) % players] for j in range(players)]


def relative(q: int, seat: int, players: int) -> int:
    """Seat ``q`` counted from ``seat`` (0 is ``seat`` itself); -1 stays -1."""
    return -1 if q < 0 else (q - seat) % players
