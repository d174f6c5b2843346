"""The game registry: every game cardsim knows, found through the ``cardsim.games`` entry-point group.

A game is a package that hands the library one ``GameSpec`` (``cardsim.core.game``) and names it in
its distribution's metadata::

    [project.entry-points."cardsim.games"]
    eights = "cardsim_eights:GAME"

The four built-in games are registered the same way, in cardsim's own ``pyproject.toml``; ``GAMES``
lists cardsim's own games first, then those of other distributions, each by name. ``register`` adds
a ``GameSpec`` for this process only (a notebook's or a test's game). docs/add_a_game.md is the guide.
"""
from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from cardsim.core.game import GameSpec

GROUP = "cardsim.games"
"""The entry-point group a game registers in."""


def _found() -> dict[str, EntryPoint]:
    """The group's entry points, cardsim's own first, each part by name."""
    points = entry_points(group=GROUP)
    return {p.name: p for p in sorted(points, key=lambda p: (not _own(p), p.name))}


def _own(point: EntryPoint) -> bool:
    return point.dist is not None and point.dist.name == "cardsim"


_ENTRIES = _found()
_REGISTERED: dict[str, GameSpec] = {}
_LOADED: dict[str, GameSpec] = {}

GAMES: tuple[str, ...] = tuple(_ENTRIES)
"""The names of the games found, built-ins first."""
BUILT_IN: tuple[str, ...] = tuple(name for name, point in _ENTRIES.items() if _own(point))
"""The games cardsim itself registers (its docs, rules pages and tests cover these)."""
if not GAMES:
    raise ImportError("cardsim finds no games: its package metadata is missing (install it: pip install -e .)")


def register(game: GameSpec) -> None:
    """Add ``game`` to this process's registry (``GAMES`` and ``spec``), as its entry point would."""
    global GAMES
    if not isinstance(game, GameSpec):
        raise ValueError(f"register takes a GameSpec, not {type(game).__name__}")
    _REGISTERED[game.name] = game
    if game.name not in GAMES:
        GAMES = (*GAMES, game.name)


def spec(name: str) -> GameSpec:
    """The ``GameSpec`` of a game by name (its entry point is loaded on first use)."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in _ENTRIES or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    if name not in _LOADED:
        point = _ENTRIES[name]
        try:
            game = point.load()
        except Exception as e:  # a broken plug-in must not take the others down
            raise ValueError(f"game {name!r} ({point.value}) cannot be loaded: {type(e).__name__}: {e}") from None
        if not isinstance(game, GameSpec) or game.name != name:
            raise ValueError(f"game {name!r}: entry point {point.value} is not the GameSpec of a game named {name!r}")
        _LOADED[name] = game
    return _LOADED[name]
