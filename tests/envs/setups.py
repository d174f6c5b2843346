"""Random setups per game for the environment tests: the games' own hypothesis strategies, as
``(rules, players, seat policies, seed, game index)``."""
from hypothesis import strategies as st

from tests.molotow.strategies import policies as molotow_policies
from tests.molotow.strategies import rules_and_players
from tests.moska.strategies import setups as moska_setups
from tests.musta_maija.strategies import setups as musta_maija_setups
from tests.uno.test_properties import tables as uno_tables

SEEDS, GAMES = st.integers(0, 2**64 - 1), st.integers(0, 10**6)


@st.composite
def musta_maija(draw):
    rules, players, policy, seed = draw(musta_maija_setups())
    return rules, players, policy, seed, draw(GAMES)


@st.composite
def molotow(draw):
    rules, players = draw(rules_and_players(max_hands=2))
    policy = draw(molotow_policies(players).filter(lambda p: "mc" not in str(p)))
    return rules, players, policy, draw(SEEDS), draw(GAMES)


@st.composite
def uno(draw):
    rules, players, policy = draw(uno_tables(max_players=6))
    return rules, players, policy, draw(SEEDS), draw(GAMES)


SETUPS = {"moska": moska_setups(), "musta_maija": musta_maija(), "uno": uno(), "molotow": molotow()}
