"""What the compiled shedding engines (Moska, Musta-Maija) share around their loops: which loop plays a policy
table, and the record columns from the int64 rows the loop writes.

Each engine has two compiled loops of one signature, ``(params, table, seed, games, out, work)``:
``run_games`` plays every policy, ``run_plain`` only those that search nowhere (``random``, ``greedy``), so
a call that plays neither ``mc`` nor ``learned`` compiles no search. A row of ``out`` holds a game's
record fields, ``finish`` packed as ``records.finish_strings`` reads it.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from cardsim.core import jit
from cardsim.core.records import finish_strings


def play(game: str, run_games: Any, run_plain: Any, searching: bool, params: np.void, table: np.ndarray, seed: int,
         games: np.ndarray, fields: Sequence[str], work: np.void) -> np.ndarray:
    """The record rows of ``games`` (int64, one column per name of ``fields``): ``run_games`` plays them when
    some seat of ``table`` is ``searching``, else ``run_plain``."""
    out = np.zeros((len(games), len(fields)), dtype=np.int64)
    jit.first_call(run_games if searching else run_plain, f"{game} (mc, learned)" if searching else game, params,
                   table, np.uint64(seed), games, out, work)
    return out


def record(out: np.ndarray, fields: Sequence[str], games: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """The record columns of the rows ``out`` (``fields`` name them): ``game``, ``truncated`` as bool, and
    ``first_out`` and ``finish_order`` in place of the packed ``finish``."""
    cols = {f: out[:, j] for j, f in enumerate(fields)}
    finish = cols.pop("finish")
    cols["truncated"] = cols["truncated"].astype(bool)
    cols["game"] = games
    cols["first_out"] = finish % 16 - 1
    cols["finish_order"] = finish_strings(finish, players)
    return cols
