"""Deal again the cards a seat cannot see, keeping what it knows: OpenSpiel's ``resample_from_infostate``.

The step API has no resampling of its own, so this reaches into a game's compiled state (the step
adapter's ``state``, ``params`` and ``work``) and runs the engine's own determinizer, the one its
``mc`` policy deals worlds with: the hidden cards (``hidden_cards``: the deck less what the seat
sees) go to the other hands, after the cards publicly known to be there, and to the stock, in the
keyed order of ``key``. The seat's view is unchanged (tested); the world's game key becomes ``key``.
"""
from __future__ import annotations

import numpy as np


def _moska(engine, seat: int, key: np.uint64) -> None:
    from cardsim.core import repetition
    from cardsim.games.moska import compiled as c

    s, p, w = engine.state[0], engine.params[0], engine.work[0]
    c.determinize(s, p, seat, key, c.hidden_cards(s, p, seat, w), w)
    repetition.forget(s)  # M-23: the world's past is not the game's


def _musta_maija(engine, seat: int, key: np.uint64) -> None:
    from cardsim.core import repetition
    from cardsim.games.musta_maija import compiled as c

    s, w = engine.state[0], engine.work[0]
    c.determinize(s, seat, key, c.hidden_cards(s, seat, w), w)
    repetition.forget(s)  # MM-18: as for Moska


def _uno(engine, seat: int, key: np.uint64) -> None:
    """The engine deals the acting seat's world only; it forgets what anyone was shown and ends the world
    with the hand, so the seat's own knowledge (``shown[:, seat]``) and the match are put back."""
    from cardsim.games.uno import compiled as c

    s, w = engine.state[0], engine.work[0]
    if seat != int(s["current"]):
        raise ValueError(f"uno: only the seat to act ({int(s['current'])}) can be resampled, not {seat}")
    shown, hand_only = s["shown"][:, seat, :].copy(), bool(s["hand_only"])
    c.hidden_cards(s, w)
    c.determinize(s, key, w)
    s["shown"][:, seat, :] = shown
    s["shown_total"][:] = s["shown"].reshape(s["shown"].shape[0], -1).sum(axis=1)
    s["hand_only"] = hand_only


def _molotow(engine, seat: int, key: np.uint64) -> None:
    from cardsim.games.molotow import compiled as c

    c.determinize(engine.state[0], seat, key, engine.work[0])


RESAMPLERS = {"moska": _moska, "musta_maija": _musta_maija, "uno": _uno, "molotow": _molotow}


def resample(table, seat: int, key: int) -> None:
    """Deal ``table``'s cards hidden from ``seat`` again, in place, in the keyed order of ``key``."""
    RESAMPLERS[table.game](table.play._engine, seat, np.uint64(key % 2**64))
    table.play._legal = None
    table._select_again()
