"""cardsim: rules-variant simulation of card games, with two engines that agree game for game.

>>> import cardsim
>>> r = cardsim.rules("moska", "turamoska", attack_cap=None)
>>> df = cardsim.simulate("moska", r, players=4, games=10_000, seed=7)
"""
from cardsim.core import cache as _cache

_cache.configure()  # before any engine module imports numba: a read-only install caches in the user's folder

from cardsim.api import presets, replay, rules, simulate  # noqa: E402
from cardsim.games import GAMES  # noqa: E402
from cardsim.play import new_game  # noqa: E402

__version__ = "0.1.0"
__all__ = ["GAMES", "new_game", "presets", "replay", "rules", "simulate", "__version__"]
