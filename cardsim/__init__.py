"""cardsim: rules-variant simulation of card games, with two engines that agree game for game.

>>> import cardsim
>>> r = cardsim.rules("moska", "turamoska", attack_cap=None)
>>> df = cardsim.simulate("moska", r, players=4, games=10_000, seed=7)
"""
from cardsim.api import presets, replay, rules, simulate
from cardsim.games import GAMES
from cardsim.play import new_game

__version__ = "0.1.0"
__all__ = ["GAMES", "new_game", "presets", "replay", "rules", "simulate", "__version__"]
