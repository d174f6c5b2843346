"""The seatings of a ladder: which policy sits in which seat, cell by cell.

``pairs``: for every ordered pair (A, B) of distinct policies, A in one seat and B in
all the others, A rotated over the N seats: N k (k - 1) seatings of k policies, fewer at
2 players, where "A among B" and "B among A" are the same seatings. ``all``: every
assignment of the k policies to the N seats, k^N. In both, every policy sits in every
seat equally often, so the seats' own advantages cancel. Pure; imported by the study
file's reader (``spec``), so it imports nothing heavy.
"""
from __future__ import annotations

import itertools
from typing import Sequence

SEATINGS = ("pairs", "all")


def seatings(policies: Sequence[str], players: int, design: str = "pairs") -> list[tuple[str, ...]]:
    """The seatings of a ladder of ``policies`` at ``players`` seats, seat 0 first, in a fixed order.

    ``pairs``: for A, then B (in the order given), A in seat 0, 1, ..., N - 1 and B elsewhere
    (a seating met again is not repeated: at 2 players, B among A is A among B). ``all``:
    every assignment, in lexicographic order of the policies' positions.
    """
    policies = list(policies)
    if design not in SEATINGS:
        raise ValueError(f"unknown seatings {design!r}; known seatings: {', '.join(SEATINGS)}")
    if len(policies) < 2 or len(set(policies)) != len(policies):
        raise ValueError(f"a ladder needs at least two distinct policies, not {policies!r}")
    if not isinstance(players, int) or players < 2:
        raise ValueError(f"a ladder needs at least two players, not {players!r}")
    if design == "all":
        return list(itertools.product(policies, repeat=players))
    out = {}
    for a, b in itertools.permutations(policies, 2):
        for seat in range(players):
            out.setdefault(tuple(a if s == seat else b for s in range(players)), None)
    return list(out)
