"""The step API: a game played one decision at a time, the same for every game.

``new_game(game, rules, players=, seed=, game_index=, policies=)`` deals game ``game_index`` of
a study with ``seed`` on the game's compiled engine and returns a ``Game``: ``to_act``,
``legal()`` (``Decision``: stable index, name, engine move), ``apply(i)``, ``view(seat)``,
``copy()``, ``record()`` and ``policy_decision()``. Stepping by the seats' built-in policies
gives the reference engine's record exactly (``tests/play``). Each game's adapter (its
decisions' canonical order, names and view) is ``cardsim/play/<game>.py``; user policies
(``docs/play.md``) are ``cardsim/play/user.py`` and run by ``cardsim/play/runner.py``.
"""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, integer_expected
from cardsim.core.rules import Rules
from cardsim.play.game import Decision, Decisions, Game

__all__ = ["Decision", "Decisions", "Game", "new_game"]


def engine_class(game: str):
    """The step adapter of a registered game (``cardsim/play/<game>.py``)."""
    return importlib.import_module(f"cardsim.play.{game}").Engine


def new_game(game: str, rules: str | Rules | None = None, *, players: int = 4, seed: int = 0, game_index: int = 0,
             policies: str | Sequence[Any] | None = None) -> Game:
    """Game ``game_index`` of ``game`` under ``rules`` with ``seed``, at its first decision.

    ``policies`` (default ``"random"``): the seats' policies, as in ``simulate``; they decide
    only through ``policy_decision()`` (and in ``cardsim.play.runner``).
    """
    from cardsim import api
    from cardsim.games import spec
    from cardsim.learn import auto

    g = spec(game)
    r = api.rules(game, rules)
    players = g.check_players(r, players)
    seats = g.seat_policies("random" if policies is None else policies, players)
    seats = auto.resolve(game, r, players, seats)  # learned(model=auto): the model trained for these rules
    for name, value, limit in (("seed", seed, SEED_LIMIT), ("game_index", game_index, GAME_LIMIT)):
        expected = integer_expected(value, 0, limit)
        if expected:
            raise ValueError(f"{name} must be {expected}, not {value!r}")
    return Game(engine_class(game)(r, players, int(seed), int(game_index), seats), game, seats)
