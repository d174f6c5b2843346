"""What every game's searching policies share: their names, their parameters and their validation.

``mc(determinizations=D, base=B)`` is determinized Monte Carlo (docs/design.md): at each decision it
deals ``D`` worlds of the cards hidden from the decider (``rng.world_key``), plays every
candidate out in each with policy ``B`` in every seat, and takes the candidate with the best
total score (``jit.argmax_first``: ties to the first candidate, ``greedy``'s choice). ``B`` is a policy string
of the game's search-free policies (``learned(model=X)`` among them, where the game has it). The
candidates, the worlds and the score are the game's (its ``compiled.py``).

``oracle(...)`` is the same search whose worlds are the true state: it sees every hand (and the stock).
It is **not a fair player**, a bound on what knowing the hidden cards is worth; every output that
seats it says so (``UNFAIR``, ``unfair_note``).

A game may take more parameters (``extra``): Moska's ``search_stock`` (search only once the stock holds
at most that many cards; ``None`` or ``"all"``: the whole game) and ``beliefs`` (``"uniform"`` worlds, or
worlds that meet what the opponents' choices ``"reads"`` of their hands under the base policy).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from cardsim.core.rules import format_call, normal_call, parse_call

MC = "mc"
"""The name of the searching policy in every game."""
ORACLE = "oracle"
"""The search that sees every hand: not a fair player."""
SEARCHES = (MC, ORACLE)
"""The searching policies' names."""
UNFAIR = (ORACLE,)
"""Policy names that see cards a seat could not see at a real table."""
DETERMINIZATIONS = 32
"""Worlds per decision by default."""
MAX_DETERMINIZATIONS = 1024
BASE = "greedy"
"""The play-out policy by default."""
ALL = "all"
"""``search_stock="all"`` (or ``None``): search from the first decision."""
BELIEFS = ("uniform", "reads")
"""How a world deals the hidden cards: uniformly over what the view allows, or also meeting the reads."""


@dataclass(frozen=True)
class MonteCarlo:
    """The parameters of an ``mc`` (or ``oracle``) policy string. ``search_stock`` None: the whole game."""

    determinizations: int = DETERMINIZATIONS
    base: str = BASE
    search_stock: int | None = None
    beliefs: str = "uniform"
    sees_all: bool = False


def parse_mc(game: str, params: dict[str, Any], bases: tuple[str, ...], name: str = MC,
             extra: dict[str, Any] | None = None) -> MonteCarlo:
    """``MonteCarlo`` from the parameters of ``mc(...)`` or ``oracle(...)`` (as ``rules.parse_call`` reads
    them); ``bases`` are the game's non-search policies; ``extra`` the game's further parameters
    (``search_stock``, ``beliefs``) with their defaults. One ``ValueError`` line for an unknown parameter or a
    bad value."""
    extra = extra or {}
    known = ("determinizations", "base", *extra)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{game} policy {name} has no parameter {unknown[0]!r}; known: {', '.join(known)}")
    d = params.get("determinizations", DETERMINIZATIONS)
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DETERMINIZATIONS:
        raise ValueError(f"{game} policy {name}: determinizations={d!r} must be an integer from 1 to "
                         f"{MAX_DETERMINIZATIONS}")
    base = params.get("base", BASE)
    if not isinstance(base, str) or _name(base) not in bases:
        raise ValueError(f"{game} policy {name}: base={base!r} must be one of {', '.join(bases)}")
    stock = params.get("search_stock", extra.get("search_stock"))
    if stock == ALL:
        stock = None
    if stock is not None and (isinstance(stock, bool) or not isinstance(stock, int) or not 0 <= stock <= 52):
        raise ValueError(f"{game} policy {name}: search_stock={stock!r} must be an integer from 0 to 52, "
                         f"None or all")
    beliefs = params.get("beliefs", extra.get("beliefs", "uniform"))
    if beliefs not in BELIEFS:
        raise ValueError(f"{game} policy {name}: beliefs={beliefs!r} must be one of {', '.join(BELIEFS)}")
    return MonteCarlo(d, normal_call(base), stock, beliefs, name == ORACLE)


def search_call(search: MonteCarlo, extra: dict[str, Any] | None = None, **change: Any) -> str:
    """The policy string of ``search`` (``parse_mc``'s inverse), with the parameters in ``change`` replaced:
    ``determinizations`` and ``base``, then the game's ``extra`` parameters where they differ from its
    defaults (so ``mc(determinizations=48, base='greedy')`` reads as it was written)."""
    params = {"determinizations": search.determinizations, "base": search.base}
    for key, default in (extra or {}).items():
        value = getattr(search, key)
        if value != (None if default == ALL else default):
            params[key] = ALL if value is None else value
    return format_call(ORACLE if search.sees_all else MC, params | change)


_UNFAIR = re.compile(r"(?<![\w.])(" + "|".join(UNFAIR) + r")\b")


def is_unfair(policy: str) -> bool:
    """Whether a policy string (or a list of seats' policies in one string) seats a player that sees hidden
    cards (``oracle``)."""
    return _UNFAIR.search(policy) is not None


def unfair_note(policies: Iterable[str]) -> str:
    """The line every output seating an ``oracle`` carries (empty when none is seated)."""
    unfair = sorted({p for p in policies if is_unfair(p)})
    if not unfair:
        return ""
    return (f"note: {', '.join(unfair)} sees every hand (its worlds are the true state): not a fair player, "
            f"a bound on what the hidden cards are worth")


def _name(call: str) -> str | None:
    """The policy name of a base policy string (``learned(model=X)`` → ``learned``), None if unreadable."""
    try:
        return parse_call(call)[0]
    except ValueError:
        return None


def unseated(game: str, policy: str) -> ValueError:
    """The error of a reference engine asked to play a policy the compiled engine decides (``mc``, ``oracle``,
    ``learned``) without being handed its searcher: the game's ``seating.play`` (its ``GameSpec.play``) hands it."""
    return ValueError(f"{game} policy {policy} is decided by the compiled engine: play it through "
                      f"cardsim.games.{game}.seating.play (the game's GameSpec.play), not reference.play alone")
