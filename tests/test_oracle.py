"""The ``oracle`` player in every game: seated like ``mc``, checked like it, the same records on both engines.

It is ``mc`` whose worlds are the true state (``core/search.py``); tests/moska/test_beliefs.py checks that it
decides as ``mc`` where nothing is hidden and that what it decides depends on the hidden cards.
"""
import pandas as pd
import pytest

import cardsim
from cardsim.games import spec

PLAYERS = {"moska": 4, "musta_maija": 4, "uno": 4, "molotow": 4}


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_oracle_is_a_policy_of_every_game_with_mcs_parameters(game):
    assert "oracle" in spec(game).policies
    with pytest.raises(ValueError, match=f"{game} policy oracle: determinizations=0 must be an integer") as err:
        cardsim.simulate(game, players=PLAYERS[game], games=1, policy="oracle(determinizations=0)")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("game", sorted(PLAYERS))
@pytest.mark.parametrize("oracle", ["oracle(determinizations=3)", "oracle(determinizations=2, base=random)"])
def test_oracle_games_are_the_same_on_both_engines_and_repeat(game, oracle):
    n = PLAYERS[game]
    seats = [oracle, "mc(determinizations=2)"] + ["greedy"] * (n - 2)
    compiled = cardsim.simulate(game, players=n, games=3, seed=4, policy=seats)
    pd.testing.assert_frame_equal(compiled, cardsim.simulate(game, players=n, games=3, seed=4, policy=seats,
                                                             engine="reference"))
    pd.testing.assert_frame_equal(compiled, cardsim.simulate(game, players=n, games=3, seed=4, policy=seats))
