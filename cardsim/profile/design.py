"""A profile's design: the profiled player, the ladder, the restricted options, and the cells they make.

A balance profile is a study whose cells are made for it (``cells``), at every variant and
player count of the study, all on the same deals (game i deals the same cards in every cell):

- **self-play** of the profiled player ``policy`` (the strongest affordable one): fairness,
  luck of the deal, length and decisiveness;
- **the ladder**: the ``pairs`` seatings of ``ladder`` (``cardsim.study.seatings``: one policy
  alone among another, rotated over the seats): skill;
- **restricted play**: for each option ``o`` of ``options`` (``GameSpec.options``) and each seat
  r, ``policy(forbid=o)`` in seat r and ``policy`` in the others: option value, paired with
  self-play game by game and seat by seat.

Pure and light: the study file's reader (``cardsim.study.spec``) imports it.
"""
from __future__ import annotations

from dataclasses import dataclass

from cardsim.core.rules import format_call, normal_call, parse_call
from cardsim.study.plan.seatings import seatings

REPLAYS = 200
"""Self-play games replayed (reference engine) for decisiveness when a profile names no number."""
KEYS = ("policy", "ladder", "options", "replays")


@dataclass(frozen=True)
class Profile:
    """What a ``[profile]`` section says, each policy in its one spelling."""

    policy: str
    ladder: tuple[str, ...]
    options: tuple[str, ...]
    replays: int = REPLAYS

    def to_dict(self) -> dict:
        return {"policy": self.policy, "ladder": list(self.ladder), "options": list(self.options),
                "replays": self.replays}


def forbidden(policy: str, option: str) -> str:
    """``policy`` forbidden ``option`` (the shared ``forbid=`` convention), in its one spelling:
    ``forbidden("mc(determinizations=16)", "swap")`` is ``"mc(determinizations=16, forbid='swap')"``."""
    name, kwargs = parse_call(policy)
    if "forbid" in kwargs:
        raise ValueError(f"the profiled policy {policy!r} is already restricted (forbid=); profile an unrestricted one")
    return normal_call(format_call(name, kwargs | {"forbid": option}))


def ladder_of(profile_policy: str, given: list[str] | None, known: tuple[str, ...]) -> tuple[str, ...]:
    """The ladder's policies: ``given``, else ``random`` and ``greedy`` where the game has them, then the
    profiled policy (each once, weakest first)."""
    names = given if given is not None else [p for p in ("random", "greedy") if p in known]
    out = list(dict.fromkeys(normal_call(p) for p in [*names, profile_policy]))
    return tuple(out)


def cells(profile: Profile, players: tuple[int, ...]) -> tuple:
    """The study's policies (``Study.policies``): self-play first, then per player count the ladder's
    seatings and the restricted seatings (option by option, seat by seat)."""
    out: list = [profile.policy]
    for n in players:
        out += [s for s in seatings(profile.ladder, n, "pairs") if s not in out]
        for option in profile.options:
            out += [restricted(profile, option, n, r) for r in range(n)]
    return tuple(out)


def restricted(profile: Profile, option: str, players: int, seat: int) -> tuple[str, ...]:
    """The seating with ``policy(forbid=option)`` in ``seat`` and ``policy`` elsewhere."""
    return tuple(forbidden(profile.policy, option) if s == seat else profile.policy for s in range(players))
