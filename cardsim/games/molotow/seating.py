"""Molotow's searching seats: the reference engine with ``mc``, ``oracle`` and ``learned`` decided by the compiled
engine (``play``, the game's ``GameSpec.play``).

A layer above both engines: ``reference.py`` imports nothing compiled; it asks the ``search`` it is handed
here, ``compiled.decide_from``, which decides on the compiled state of the reference position
(``compiled.state_from``), so both engines decide alike.
"""
from __future__ import annotations

from cardsim.core.records import Replay
from cardsim.games.molotow import reference
from cardsim.games.molotow.compiled import decide_from
from cardsim.games.molotow.learned import warn_other_rules
from cardsim.games.molotow.rules import MolotowRules


def play(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Replay:
    """``reference.play`` with its searching seats decided by ``compiled.decide_from``, warning of a model
    trained under other rules."""
    warn_other_rules(policies, rules, players)
    return reference.play(rules, players, seed, game, policies, decide_from)


def play_game(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...],
              log: list[reference.Decision] | None = None) -> reference.Game:
    """``reference.play_game`` with its searching seats decided by ``compiled.decide_from``."""
    return reference.play_game(rules, players, seed, game, policies, log, decide_from)
