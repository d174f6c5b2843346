"""The per-game record: one row per game, its columns documented here, once.

Every game's record has the common columns; shedding games (Moska, Musta-Maija) add
the shedding columns; each game adds its own in its ``GameSpec.columns``. Engines
return plain dicts (reference) or dicts of arrays (vector); ``frame`` turns either
into a DataFrame with the same dtypes, so the two engines compare equal.

Seats are dealer-relative: seat 0 is the dealer of the (first) hand, seat 1 the
player who acts after the dealer (to the dealer's left; counter-clockwise in Jass).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str
    doc: str


COMMON = (
    Column("game", "int64", "game index within the study; game i deals the same cards under every variant"),
    Column("turns", "int64", "decisions made by the players (the unit of `max_turns`)"),
    Column("truncated", "bool", "the game hit `max_turns` and was stopped without a result"),
)

SHEDDING = (
    Column("loser", "int64", "seat left holding cards (-1 if none: truncated, or everyone out at once)"),
    Column("rounds", "int64", "attack rounds played (an opening and everything until the table clears)"),
    Column("first_out", "int64", "seat that went out first (TARAKI's winner), -1 if nobody did"),
)


def frame(rows: Iterable[Mapping[str, Any]] | Mapping[str, np.ndarray], columns: tuple[Column, ...]) -> pd.DataFrame:
    """A DataFrame with exactly ``columns`` (order and dtypes) from rows or from arrays."""
    if isinstance(rows, Mapping):
        data = {c.name: np.asarray(rows[c.name]).astype(c.dtype) for c in columns}
    else:
        rows = list(rows)
        data = {c.name: np.array([r[c.name] for r in rows], dtype=c.dtype) for c in columns}
    return pd.DataFrame(data)


def finish_strings(finish: np.ndarray, players: int) -> np.ndarray:
    """The ``finish_order`` column (``"2,0,3"``) from packed orders: the ``j``-th seat out, plus one,
    in bits ``4j .. 4j+3`` (how the compiled shedding engines keep it); each distinct order is written once."""
    codes, which = np.unique(np.asarray(finish, dtype=np.int64), return_inverse=True)
    text = [",".join(str((int(c) >> 4 * j & 15) - 1) for j in range(players) if int(c) >> 4 * j & 15) for c in codes]
    return np.array(text, dtype=object)[which.reshape(-1)]


@dataclass
class Replay:
    """One game replayed by the reference engine: its record and the moves in words."""

    game: str
    record: dict[str, Any]
    moves: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        head = ", ".join(f"{k}={v}" for k, v in self.record.items())
        return "\n".join([*self.moves, f"-- {self.game} record: {head}"])

    def _repr_pretty_(self, p, cycle) -> None:  # IPython shows the game, not the object
        p.text(str(self))
