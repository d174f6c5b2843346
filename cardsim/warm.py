"""``cardsim warm [GAME...]``: compile the engines ahead, so that no later game waits for a compile.

A compiled engine has two entry points, and a call compiles only the one it uses: the loop
of ``random`` and ``greedy`` and the loop with an ``mc`` or ``learned`` seat, which adds the
search and ``learned``'s scorer. ``warm`` plays one game through each, game by game, with a
progress line on stderr; numba keeps the machine code in its cache (``core/cache.py``: beside the package, or
the user's cache folder when the package folder is read-only), from which a later process
loads it in about a second.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, Sequence

from cardsim import api
from cardsim.core.search import MC
from cardsim.games import GAMES, spec

STEPS = (("without mc", "greedy"), ("with mc", f"{MC}(determinizations=1)"))
"""Each entry point's label and the policy whose game compiles it (one world: the search compiles the same)."""


def steps(games: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(game, label, policy)`` for every entry point of ``games`` (all games when empty); a ``ValueError``
    for an unknown game, before anything compiles."""
    out = []
    for name in dict.fromkeys(games or GAMES):
        g = spec(name)
        if g.compiled is not None:
            out += [(name, label, policy) for label, policy in STEPS if policy.split("(")[0] in g.policies]
    return out


def warm(games: Sequence[str] = (), note: Callable[[str], None] = lambda line: print(line, file=sys.stderr)
         ) -> list[tuple[str, str, float]]:
    """Compile (or load from the cache) every entry point of ``games``; return ``(game, label, seconds)``."""
    todo, done = steps(games), []
    for i, (name, label, policy) in enumerate(todo, 1):
        note(f"cardsim: warm {i}/{len(todo)}: {name} {label} ...")
        start = time.perf_counter()
        api.simulate(name, players=_players(name), games=1, policy=policy)
        done.append((name, label, time.perf_counter() - start))
        note(f"cardsim: warm {i}/{len(todo)}: {name} {label}: {done[-1][2]:.1f} s")
    return done


def _players(name: str) -> int:
    """A player count the game's default rules allow (the entry points compile the same for any)."""
    g = spec(name)
    rules = api.rules(name)
    for players in range(g.min_players, g.max_players + 1):
        try:
            return g.check_players(rules, players)
        except ValueError:
            continue
    raise ValueError(f"{name}: no player count fits its default rules")
