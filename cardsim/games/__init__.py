"""The game registry: ``GAMES`` and ``spec(name)`` (each game's ``GameSpec``)."""
from __future__ import annotations

import importlib

from cardsim.core.game import GameSpec

GAMES: tuple[str, ...] = ("moska", "musta_maija", "uno", "molotow")


def spec(name: str) -> GameSpec:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return importlib.import_module(f"cardsim.games.{name}").GAME
