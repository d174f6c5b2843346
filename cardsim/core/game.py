"""What a game package hands to the library: its ``GameSpec``.

Each ``cardsim/games/<game>/__init__.py`` defines ``GAME = GameSpec(...)``. The API,
the CLI and the study layer see a game only through this object.

Engine signatures (``policies`` holds one policy string per seat, validated):

- ``play(rules, players, seed, game, policies) -> Replay`` — the reference engine;
- ``compiled(rules, players, seed, games, policies) -> dict[str, np.ndarray]`` — the
  fast engine on an ``int64`` array of game indices, one array per column.

The bounds every entry point shares (API, CLI, study files): a seed is a ``uint64``
(``SEED_LIMIT``), a game index an ``int64`` record value (``GAME_LIMIT``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from cardsim.core.records import Column, Replay
from cardsim.core.rules import Rules, normal_call, parse_call

SEED_LIMIT = 2**64
"""Seeds are 0 .. 2**64 - 1: the keyed RNG folds them as ``uint64``."""
GAME_LIMIT = 2**63
"""Game indices (and numbers of games) are below 2**63: the ``game`` column is ``int64``."""
_LIMITS = {SEED_LIMIT: "2**64", GAME_LIMIT: "2**63"}


def integer_expected(value: object, minimum: int = 0, limit: int | None = None) -> str | None:
    """None when ``value`` is an integer (Python or numpy, not bool) with ``minimum <= value < limit``;
    else what was expected, in words (``"an integer >= 0 and < 2**64"``), for the caller's message."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if ok and minimum <= value and (limit is None or value < limit):
        return None
    return f"an integer >= {minimum}" + ("" if limit is None else f" and < {_LIMITS.get(limit, limit)}")


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
    protocol: int = 1
    """The version of the game's decision protocol, recorded in every manifest: raised whenever the same
    rules, seed and game index give another record (as Pgx raises ``Env.version``)."""
    rules_page: str = ""
    """Where the game's numbered rules are written (``cardsim list GAME`` cites it); the built-ins':
    ``docs/rules/<game>.md``."""
    options: dict[str, str] = field(default_factory=dict)
    """The optional actions a seat may be forbidden (``greedy(forbid=swap)``, restricted play in balance
    profiles): option name -> one line citing the rule that offers it (``rules.OPTIONS`` of each game)."""

    def __post_init__(self) -> None:
        if not self.rules_page:
            object.__setattr__(self, "rules_page", f"docs/rules/{self.name}.md")

    def check_players(self, rules: Rules, players: object) -> int:
        if not isinstance(players, (int, np.integer)) or isinstance(players, bool):
            raise ValueError(f"{self.name}: players must be an integer from {self.min_players} to {self.max_players}")
        players = int(players)
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}")
        rules.check_players(players)
        return players

    def seat_policies(self, policy, players: int) -> tuple:
        """One policy per seat from a name (self-play) or a list (one per seat), each in its one
        spelling (``normal_call``: ``"greedy()"`` is ``"greedy"``). A user policy
        (``cardsim.play.user``: ``"module:name"``, ``"file.py:name"``, or in Python a callable) is
        loaded and checked here; a string stays its spec string, a callable becomes a ``UserPolicy``."""
        from cardsim.play import user

        if not isinstance(policy, (str, list, tuple)) and not callable(policy):
            raise ValueError(f"{self.name}: policy must be a policy name or a list of one per seat, not {policy!r}")
        seats = (policy,) * players if isinstance(policy, str) or callable(policy) else tuple(policy)
        if len(seats) != players:
            raise ValueError(f"{self.name}: {len(seats)} policies given for {players} players")
        out = []
        for p in seats:
            if isinstance(p, user.UserPolicy):
                out.append(p)
            elif user.is_user_spec(p):
                out.append(user.load(p).spec)
            elif not isinstance(p, str) and (callable(p) or callable(getattr(p, "decide", None))):
                out.append(user.from_object(p))
            elif not isinstance(p, str) or parse_call(p)[0] not in self.policies:
                raise ValueError(f"unknown {self.name} policy {p!r}; known policies: {', '.join(self.policies)}, "
                                 "or your own as \"module:name\" or \"path/to/file.py:name\"")
            else:
                out.append(normal_call(p))
        return tuple(out)
