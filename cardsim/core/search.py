"""What every game's ``mc`` policy shares: its name, its parameters and their validation.

``mc(determinizations=D, base=B)`` is determinized Monte Carlo (docs/design.md): at each decision it
deals ``D`` worlds of the cards hidden from the decider (``rng.world_key``), plays every
candidate out in each with policy ``B`` in every seat, and takes the candidate with the best
total score (``jit.argmax_first``: ties to the first candidate, ``greedy``'s choice). ``B`` is a policy string
of the game's search-free policies (``learned(model=X)`` among them, where the game has it). The
candidates, the worlds and the score are the game's (its ``compiled.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardsim.core.rules import normal_call, parse_call

MC = "mc"
"""The name of the searching policy in every game."""
DETERMINIZATIONS = 32
"""Worlds per decision by default."""
MAX_DETERMINIZATIONS = 1024
BASE = "greedy"
"""The play-out policy by default."""


@dataclass(frozen=True)
class MonteCarlo:
    """The parameters of an ``mc`` policy string."""

    determinizations: int = DETERMINIZATIONS
    base: str = BASE


def parse_mc(game: str, params: dict[str, Any], bases: tuple[str, ...]) -> MonteCarlo:
    """``MonteCarlo`` from the parameters of ``mc(...)`` (as ``rules.parse_call`` reads them); ``bases``
    are the game's non-search policies. One ``ValueError`` line for an unknown parameter or a bad value."""
    known = ("determinizations", "base")
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{game} policy mc has no parameter {unknown[0]!r}; known: {', '.join(known)}")
    d = params.get("determinizations", DETERMINIZATIONS)
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DETERMINIZATIONS:
        raise ValueError(f"{game} policy mc: determinizations={d!r} must be an integer from 1 to "
                         f"{MAX_DETERMINIZATIONS}")
    base = params.get("base", BASE)
    if not isinstance(base, str) or _name(base) not in bases:
        raise ValueError(f"{game} policy mc: base={base!r} must be one of {', '.join(bases)}")
    return MonteCarlo(d, normal_call(base))


def _name(call: str) -> str | None:
    """The policy name of a base policy string (``learned(model=X)`` → ``learned``), None if unreadable."""
    try:
        return parse_call(call)[0]
    except ValueError:
        return None
