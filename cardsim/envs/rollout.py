"""Play a position out to its end with cardsim's compiled ``random`` policy in every seat.

The ISMCTS seat's rollouts (``ismcts.RandomPlayouts``): OpenSpiel's own random rollout steps a
Python game action by action; this plays the rest of the game in the engine's ``play_out`` (the
loop its ``mc`` policy plays out with), a few hundred times faster. A decision under way (tokens
chosen, not yet made) is made by the random policy too. The copy's game key is the world's, so
each resampled world plays out with its own draws.
"""
from __future__ import annotations

import numpy as np

from cardsim.envs.returns import returns


def _moska(e, seats):
    from cardsim.games.moska import compiled as c
    from cardsim.games.moska import compiled_policies as pol

    c.play_out(e.state[0], e.params[0], pol.table(seats), np.zeros(1, c.MOVE)[0], e.work[0])


def _musta_maija(e, seats):
    from cardsim.games.musta_maija import compiled as c
    from cardsim.games.musta_maija import compiled_policies as pol

    c.play_out(e.state[0], e.params[0], pol.table(seats), np.zeros(1, c.MOVE)[0], e.work[0])


def _uno(e, seats):
    from cardsim.games.uno import compiled as c

    c.play_out(e.state[0], e.params, c.policy_of(seats), e.work[0])


def _molotow(e, seats):
    from cardsim.games.molotow import compiled as c

    c.play_out(e.state[0], e.params, c.policy_table(seats), e.work[0])


PLAY_OUT = {"moska": _moska, "musta_maija": _musta_maija, "uno": _uno, "molotow": _molotow}


def random_returns(table) -> list[float]:
    """The returns (``cardsim.envs.returns``) of ``table``'s game played out from here by ``random`` seats;
    ``table`` itself is left as it is."""
    engine = table.play._engine.copy()
    PLAY_OUT[table.game](engine, ("random",) * table.players)
    return returns(table.game, engine.record(), table.players)
