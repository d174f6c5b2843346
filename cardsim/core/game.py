"""What a game package hands to the library: its ``GameSpec``.

Each ``cardsim/games/<game>/__init__.py`` defines ``GAME = GameSpec(...)``. The API,
the CLI and the study layer see a game only through this object.

Engine signatures (``policies`` holds one policy string per seat, validated):

- ``play(rules, players, seed, game, policies) -> Replay`` — the reference engine;
- ``compiled(rules, players, seed, games, policies) -> dict[str, np.ndarray]`` — the
  fast engine on an ``int64`` array of game indices, one array per column.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from cardsim.core.records import Column, Replay
from cardsim.core.rules import Rules, parse_call


@dataclass(frozen=True)
class GameSpec:
    name: str
    rules: type[Rules]
    min_players: int
    max_players: int
    policies: tuple[str, ...]
    columns: tuple[Column, ...]
    play: Callable[[Rules, int, int, int, tuple[str, ...]], Replay]
    compiled: Callable[[Rules, int, int, np.ndarray, tuple[str, ...]], dict[str, np.ndarray]] | None = None

    def check_players(self, rules: Rules, players: object) -> int:
        if not isinstance(players, (int, np.integer)) or isinstance(players, bool):
            raise ValueError(f"{self.name}: players must be an integer from {self.min_players} to {self.max_players}")
        players = int(players)
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}")
        rules.check_players(players)
        return players

    def seat_policies(self, policy: str | list[str] | tuple[str, ...], players: int) -> tuple[str, ...]:
        """One policy string per seat from a name (self-play) or a list (one per seat)."""
        seats = (policy,) * players if isinstance(policy, str) else tuple(policy)
        if len(seats) != players:
            raise ValueError(f"{self.name}: {len(seats)} policies given for {players} players")
        for p in seats:
            if not isinstance(p, str) or parse_call(p)[0] not in self.policies:
                raise ValueError(f"unknown {self.name} policy {p!r}; known policies: {', '.join(self.policies)}")
        return seats
