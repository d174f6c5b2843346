"""Molotow's searching seats, above both engines. ``reference.py`` imports nothing compiled: ``play`` (the
``GameSpec.play``) and ``play_game`` hand it ``compiled.decide_from``, which plays an ``mc``, ``oracle`` or
``learned`` card on ``compiled.state_from`` of the reference position."""
from __future__ import annotations

from cardsim.core.search import seated_play
from cardsim.games.molotow import reference
from cardsim.games.molotow.compiled import decide_from
from cardsim.games.molotow.learned import warn_other_rules
from cardsim.games.molotow.rules import MolotowRules

play = seated_play(reference.play, decide_from, warn_other_rules)


def play_game(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...],
              log: list[reference.Decision] | None = None) -> reference.Game:
    """``reference.play_game`` with its searching seats decided by ``compiled.decide_from``."""
    return reference.play_game(rules, players, seed, game, policies, log, decide_from)
