"""Uno's searching seats: the reference engine with ``mc``, ``oracle`` and ``learned`` decided by the compiled
engine (``play``, the game's ``GameSpec.play``).

A layer above both engines: ``reference.py`` imports nothing compiled; it asks the ``search`` it is handed
here, ``compiled_choice``, at every choice of such a seat.
"""
from __future__ import annotations

from cardsim.core import jit
from cardsim.core.records import Replay
from cardsim.games.uno import compiled as C
from cardsim.games.uno import reference
from cardsim.games.uno.learned import warn_other_rules
from cardsim.games.uno.rules import UnoRules


def compiled_choice(position: reference.State, choice: int) -> int:
    """The reference engine's ``mc`` and ``learned``: its position, waiting at ``choice`` of the current decision,
    as a compiled state (``compiled.state_from``), decided by the compiled policy (``compiled.decide``)."""
    state, work = C.state_from(position, choice), C.new_work(position.rules)
    return int(jit.first_call(C.decide, "uno mc/learned", state[0], C.params_of(position.rules),
                              C.policy_of(position.policies), work[0]))


def play(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Replay:
    """``reference.play`` with its searching seats decided by ``compiled_choice``, warning of a model trained
    under other rules."""
    warn_other_rules(policies, rules, players)
    return reference.play(rules, players, seed, game, policies, compiled_choice)


def new_state(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> reference.State:
    """``reference.new_state`` with its searching seats decided by ``compiled_choice``."""
    return reference.new_state(rules, players, seed, game, policies, compiled_choice)
