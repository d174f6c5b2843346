"""Compiled engine = reference engine, game for game (CI-sized and a slow run of >= 10,000 games),
and the trumpless-hand facts of MJ-4 measured on many hands."""
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.games.molotow import hands_table

from .strategies import policies, rules_and_players

CONFIGS = [
    ("molotow", 4, "random"),
    ("molotow", 4, "greedy"),
    ("swiss", 4, ["greedy", "random", "random", "greedy"]),
    ("mittlere", 3, "random"),
    ("mittlere", 3, "greedy"),
    ("molotow(undertrump='allowed', big_hand='one_each')", 4, "greedy"),
]


def mismatches(rules, players, policy, games, seed, first_game=0) -> int:
    kw = dict(players=players, games=games, seed=seed, policy=policy, first_game=first_game)
    c = cardsim.simulate("molotow", rules, engine="compiled", **kw)
    r = cardsim.simulate("molotow", rules, engine="reference", **kw)
    assert list(c.columns) == list(r.columns) and (c.dtypes == r.dtypes).all()
    return int((c != r).any(axis=1).sum())


@pytest.mark.parametrize("rules, players, policy", CONFIGS)
def test_compiled_equals_reference_ci(rules, players, policy):
    assert mismatches(rules, players, policy, games=60, seed=11) == 0


@pytest.mark.parametrize("rules, players, policy", CONFIGS)
def test_compiled_hands_table_equals_reference(rules, players, policy):
    kw = dict(players=players, seed=5, games=25, policy=policy, first_game=7)
    table = hands_table(rules, **kw)
    assert len(table) == 25 * 12
    pd.testing.assert_frame_equal(table, hands_table(rules, engine="reference", **kw))
    pd.testing.assert_frame_equal(table, hands_table(rules, engine="vector", **kw))


@given(rules_and_players(), st.integers(0, 2**64 - 1), st.integers(0, 10**9), st.data())
def test_compiled_equals_reference_on_random_knobs_players_policies_seeds(rp, seed, first, data):
    rules, players = rp
    policy = data.draw(policies(players))
    kw = dict(players=players, games=8, seed=seed, policy=policy, first_game=first)
    pd.testing.assert_frame_equal(cardsim.simulate("molotow", rules, **kw),
                                  cardsim.simulate("molotow", rules, engine="reference", **kw))


@pytest.mark.slow
def test_compiled_equals_reference_slow(scaled):
    games = scaled(10_000)
    each = -(-games // len(CONFIGS))
    bad = [mismatches(r, n, p, games=each, seed=2026, first_game=i * each) for i, (r, n, p) in enumerate(CONFIGS)]
    print(f"molotow differential: {each * len(CONFIGS)} games, mismatches per config {bad}")
    assert sum(bad) == 0


def trumpless_hands(rules, players, hands, policy):
    games = -(-hands // 12)
    df = cardsim.simulate("molotow", rules, players=players, games=games, seed=77, policy=policy)
    return int(df.hands_trumpless.sum()), games * 12


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_MJ4_four_player_hands_are_never_trumpless_three_player_hands_can_be(policy):
    """Rule MJ-4 of docs/rules/molotow.md."""
    assert trumpless_hands("molotow", 4, 24_000, policy)[0] == 0
    assert trumpless_hands("mittlere", 3, 6_000, policy)[0] > 0


@pytest.mark.slow
def test_MJ4_no_trumpless_hand_in_a_million_four_player_hands(scaled):
    """Rule MJ-4 of docs/rules/molotow.md."""
    found, hands = trumpless_hands("molotow", 4, scaled(1_000_000, floor=24_000), "random")
    print(f"molotow: {found} trumpless hands in {hands} four-player hands")
    assert found == 0
