"""Musta-Maija's searching seats: the reference engine with ``mc``, ``oracle`` and ``learned`` decided by the
compiled engine (``play``, the game's ``GameSpec.play``).

A layer above both engines: ``reference.py`` imports nothing compiled; it asks the ``search`` it is handed
here, ``compiled.decide_from``, which decides on the compiled state of the reference table
(``compiled.state_from``), so both engines decide alike.
"""
from __future__ import annotations

from cardsim.core.records import Replay
from cardsim.games.musta_maija import reference
from cardsim.games.musta_maija.compiled import decide_from
from cardsim.games.musta_maija.learned import warn_other_rules
from cardsim.games.musta_maija.rules import MustaMaijaRules


def play(rules: MustaMaijaRules, players: int, seed: int, game: int, seats: tuple[str, ...]) -> Replay:
    """``reference.play`` with its searching seats decided by ``compiled.decide_from``, warning of a model
    trained under other rules."""
    warn_other_rules(seats, rules, players)
    return reference.play(rules, players, seed, game, seats, decide_from)


def play_states(rules: MustaMaijaRules, players: int, seed: int, game: int, seats: tuple[str, ...]):
    """``reference.play_states`` with its searching seats decided by ``compiled.decide_from``."""
    return reference.play_states(rules, players, seed, game, seats, decide_from)
