"""Uno's searching seats, above both engines: ``play`` (the ``GameSpec.play``) hands the reference engine
``compiled_choice``, which it asks at every choice of an ``mc``, ``oracle`` or ``learned`` seat; ``reference.py``
itself imports nothing compiled."""
from __future__ import annotations

from cardsim.core import jit
from cardsim.core.search import seated_play
from cardsim.games.uno import compiled as C
from cardsim.games.uno import reference
from cardsim.games.uno.learned import warn_other_rules
from cardsim.games.uno.rules import UnoRules


def compiled_choice(position: reference.State, choice: int) -> int:
    """The reference engine's ``mc`` and ``learned``: its position, waiting at ``choice`` of the current decision,
    as a compiled state (``compiled.state_from``), decided by the compiled policy (``compiled.decide_for``)."""
    state, work = C.state_from(position, choice), C.new_work(position.rules)
    return int(jit.first_call(C.decide_for, "uno mc/learned", state[0], C.params_of(position.rules),
                              C.policy_of(position.policies), work[0]))


play = seated_play(reference.play, compiled_choice, warn_other_rules)


def new_state(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> reference.State:
    """``reference.new_state`` with its searching seats decided by ``compiled_choice``."""
    return reference.new_state(rules, players, seed, game, policies, compiled_choice)
