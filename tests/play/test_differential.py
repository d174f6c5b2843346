"""The step API against the reference engine, per game: stepping a game by always taking
``policy_decision()`` gives exactly the reference engine's record (``cardsim.replay``), on random
rules (every knob, the games' own hypothesis strategies), player counts, mixed built-in seats
(``mc`` among them) and seeds; every listed decision passes the engine's ``is_legal``.

64 examples of 4 games per game: 1,024 games in all.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.games.moska.rules import MoskaRules
from cardsim.games.musta_maija.rules import MustaMaijaRules
from tests.molotow.strategies import policies as molotow_policies
from tests.molotow.strategies import rules_and_players
from tests.moska.strategies import MC as MOSKA_MC
from tests.moska.strategies import setups as moska_setups
from tests.musta_maija.strategies import setups as musta_setups
from tests.play.stepping import reference_record, step_by_policy
from tests.uno.test_properties import tables as uno_tables

EXAMPLES, GAMES = 64, 4


def agree(game, rules, players, seed, first, seats):
    seats = tuple(seats) if not isinstance(seats, str) else (seats,) * players
    for index in range(first, first + GAMES):
        assert step_by_policy(game, rules, players, seed, index, seats) == \
            reference_record(game, rules, players, seed, index, seats), (game, rules, players, seed, index, seats)


@settings(max_examples=EXAMPLES)
@given(moska_setups(), st.booleans(), MOSKA_MC)
def test_moska_steps_to_the_reference_record(setup, with_mc, mc):
    rules, players, seats, seed, game = setup
    seats = (mc,) + tuple(seats[1:]) if with_mc else seats
    agree("moska", rules, players, seed, game, seats)


@pytest.mark.parametrize("seats", [
    ("mc(determinizations=2, search_stock=all, beliefs=reads)", "greedy", "greedy", "greedy"),
    ("learned", "mc(determinizations=2, base=learned, beliefs=reads)", "oracle(determinizations=2, base=learned)",
     "greedy"),
])
def test_moska_steps_with_the_reads_and_learned_to_the_reference_record(seats):
    """The step API keeps the reads as ``run_games`` does, and seats ``learned`` and the searches over it."""
    agree("moska", MoskaRules(), 4, 7, 0, seats)


@pytest.mark.parametrize("preset, players, seed, game", [("moska", 6, 101, 250), ("turamoska", 5, 101, 19)])
def test_moska_steps_to_the_reference_record_of_a_game_the_repetition_rule_stops(preset, players, seed, game):
    """M-23 through the step API: greedy tables that would cycle to ``max_turns`` stop as the reference does."""
    rules = MoskaRules.preset(preset).replace(repetition=True)
    record = step_by_policy("moska", rules, players, seed, game, ("greedy",) * players)
    assert record == reference_record("moska", rules, players, seed, game, ("greedy",) * players)
    assert record["truncated"] and record["turns"] < rules.max_turns


@settings(max_examples=EXAMPLES)
@given(musta_setups(mc=True), st.integers(0, 10**6))
def test_musta_maija_steps_to_the_reference_record(setup, game):
    rules, players, policy, seed = setup
    agree("musta_maija", rules, players, seed, game, policy)


@pytest.mark.parametrize("seats", [
    ("mc(determinizations=3, beliefs=reads)", "greedy", "greedy", "greedy"),
    ("greedy", "mc(determinizations=2, base=learned, beliefs=reads)", "random", "mc(determinizations=2)"),
])
def test_musta_maija_steps_with_the_reads_to_the_reference_record(seats):
    """The step API keeps the reads as ``run_games`` does (``mc(beliefs=reads)``, games/musta_maija/reads.py)."""
    for first in range(0, 16, GAMES):
        agree("musta_maija", MustaMaijaRules(), 4, 7, first, seats)


@settings(max_examples=EXAMPLES)
@given(uno_tables(max_players=6), st.booleans(), st.integers(0, 2**32), st.integers(0, 10**6))
def test_uno_steps_to_the_reference_record(table, with_mc, seed, game):
    rules, players, policy = table
    seats = [policy] * players if isinstance(policy, str) else list(policy)
    if with_mc:
        seats[-1] = "mc(determinizations=2)"
    agree("uno", rules, players, seed, game, seats)


@st.composite
def molotow_setups(draw):
    rules, players = draw(rules_and_players(max_hands=2))
    return rules, players, draw(molotow_policies(players))


@settings(max_examples=EXAMPLES)
@given(molotow_setups(), st.integers(0, 2**32), st.integers(0, 10**6))
def test_molotow_steps_to_the_reference_record(setup, seed, game):
    rules, players, policy = setup
    agree("molotow", rules, players, seed, game, policy)
