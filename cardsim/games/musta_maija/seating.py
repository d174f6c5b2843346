"""Musta-Maija's searching seats, above both engines: ``play`` (the ``GameSpec.play``) is the reference engine
handed ``compiled.decide_from``, the compiled decision on ``compiled.state_from`` of its table, for every
``mc``, ``oracle`` and ``learned`` decision; ``reference.py`` itself imports nothing compiled."""
from __future__ import annotations

from cardsim.core.search import seated_play
from cardsim.games.musta_maija import reference
from cardsim.games.musta_maija.compiled import decide_from
from cardsim.games.musta_maija.learned import warn_other_rules
from cardsim.games.musta_maija.rules import MustaMaijaRules

play = seated_play(reference.play, decide_from, warn_other_rules)


def play_states(rules: MustaMaijaRules, players: int, seed: int, game: int, seats: tuple[str, ...]):
    """``reference.play_states`` with its searching seats decided by ``compiled.decide_from``."""
    return reference.play_states(rules, players, seed, game, seats, decide_from)
