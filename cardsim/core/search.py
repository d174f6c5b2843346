"""What every game's searching policies share: their names, their parameters and their validation.

``mc(determinizations=D, base=B)`` is determinized Monte Carlo (docs/design.md): at each decision it
deals ``D`` worlds of the cards hidden from the decider (``rng.world_key``), plays every
candidate out in each with policy ``B`` in every seat, and takes the candidate with the best
total score (``jit.argmax_first``: ties to the first candidate, ``greedy``'s choice). ``B`` is a policy string
of the game's search-free policies (``learned(model=X)`` among them, where the game has it). The
candidates, the worlds and the score are the game's (its ``compiled.py``).

``oracle(...)`` is the same search whose worlds are the true state: it sees every hand (and the stock).
It is **not a fair player**: a reference for what knowing the hidden cards is worth to the search, not a
ceiling on fair play (its one world seats every other player as its base: in Molotow it rates below ``mc``,
docs/ladder.md); every output that seats it says so (``UNFAIR``, ``unfair_note``).

A game may take more parameters (``extra``): Moska's ``search_stock`` (search only once the stock holds
at most that many cards; ``None`` or ``"all"``: the whole game) and ``beliefs`` (``"uniform"`` worlds, or
worlds that meet what the opponents' choices ``"reads"`` of their hands under the base policy).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

from cardsim.core.models import Learned, parse_learned
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
            f"a reference for what the hidden cards are worth to its search")


def _name(call: str) -> str | None:
    """The policy name of a base policy string (``learned(model=X)`` → ``learned``), None if unreadable."""
    try:
        return parse_call(call)[0]
    except ValueError:
        return None


def forbid_bits(game: str, name: str, value: object, options: Sequence[str]) -> int:
    """The bits (bit ``i``: ``options[i]``, the game's ``rules.OPTIONS``) of ``forbid=A+B`` on policy ``name``;
    one ``ValueError`` line naming the policy, the option and the known ones."""
    bits = 0
    for option in value.split("+") if isinstance(value, str) else [value]:
        if option not in options:
            raise ValueError(f"{game} policy {name}: forbid={option!r} is no option of {game}; "
                             f"known: {', '.join(options)}")
        bits |= 1 << list(options).index(option)
    return bits


@dataclass(frozen=True, eq=False)
class PolicyStrings:
    """A game's policy strings whose search-free policies take no parameter but ``forbid`` (Moska, Musta-Maija,
    Molotow): ``parse(text)`` is the policy's name, ``mc``'s (``oracle``'s) or ``learned``'s parameters and its
    ``forbid`` bits (``forbid_bits``), cached; one ``ValueError`` line if bad. A search's ``base`` (one of
    ``bases``) takes no ``forbid``: the search's own holds at its seat's play-out decisions too. A ``learned``
    model is named here and loaded, and checked, where it is played (the game's ``learned.py``)."""

    game: str
    names: tuple[str, ...]
    bases: tuple[str, ...]
    options: tuple[str, ...]
    default_model: str
    extra: dict[str, Any] = field(default_factory=dict)
    """The game's further ``mc`` parameters and their defaults (``parse_mc``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parse", lru_cache(maxsize=None)(self._parse))

    def __reduce__(self):
        """Pickled by its fields (a study's tasks carry it to the workers), its cache made again there: a
        cache of a bound method does not pickle."""
        return type(self), (self.game, self.names, self.bases, self.options, self.default_model, self.extra)

    def _parse(self, text: str) -> tuple[str, MonteCarlo | Learned | None, int]:
        game = self.game
        name, params = parse_call(text)
        if name not in self.names:
            raise ValueError(f"unknown {game} policy {name!r}; known policies: {', '.join(self.names)}")
        forbid = forbid_bits(game, name, params.pop("forbid"), self.options) if "forbid" in params else 0
        if name in SEARCHES:
            search = parse_mc(game, params, self.bases, name, self.extra)
            if self.parse(search.base)[2]:
                raise ValueError(f"{game} policy {name}: base={search.base!r} takes no forbid (its play-outs seat "
                                 f"every player); put forbid= on {name} itself")
            return name, search, forbid
        if name == "learned":
            return name, parse_learned(game, params, self.default_model), forbid
        if params:
            raise ValueError(f"{game} policy {name!r} takes no parameters but forbid, got {', '.join(params)}")
        return name, None, forbid

    def policy(self, text: str) -> tuple[str, MonteCarlo | Learned | None]:
        """The policy's name and, for ``mc`` and ``learned``, its parameters (``parse``)."""
        return self.parse(text)[:2]

    def name(self, text: str) -> str:
        """The policy's name (validated: ``parse``)."""
        return self.parse(text)[0]

    def forbid(self, text: str) -> int:
        """The policy's ``forbid`` bits (validated: ``parse``)."""
        return self.parse(text)[2]


def unseated(game: str, policy: str) -> ValueError:
    """The error of a reference engine asked to play a policy the compiled engine decides (``mc``, ``oracle``,
    ``learned``) without being handed its searcher: the game's ``seating.play`` (its ``GameSpec.play``) hands it."""
    return ValueError(f"{game} policy {policy} is decided by the compiled engine: play it through "
                      f"cardsim.games.{game}.seating.play (the game's GameSpec.play), not reference.play alone")


def seated_play(play: Callable[..., Any], search: Callable[..., Any], warn: Callable[..., None]) -> Callable[..., Any]:
    """A game's ``GameSpec.play``: its reference engine ``play(rules, players, seed, game, policies, search)``
    handed ``search``, the compiled engine's decision for its ``mc``, ``oracle`` and ``learned`` seats, after
    ``warn(policies, rules, players)`` (a model trained under other rules)."""
    def seated(rules: Any, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Any:
        warn(policies, rules, players)
        return play(rules, players, seed, game, policies, search)

    seated.__doc__ = f"{play.__module__}.play with its searching seats decided by the compiled engine."
    return seated
