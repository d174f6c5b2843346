"""The public API's contract, run against every game (Pgx's shared `api_test`).

Columns and dtypes, determinism (own RNG only), `first_game` slicing, chunk and job
independence, replay = batch row, vector = reference, and the one-line errors.
"""
import random

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.games import spec

GAMES = cardsim.GAMES
N = 24


def sim(game, **kw):
    kw = {"players": 4, "games": N, "seed": 5, **kw}
    return cardsim.simulate(game, None, **kw)


@pytest.mark.parametrize("game", GAMES)
def test_columns_and_dtypes_are_the_documented_ones(game):
    df = sim(game, engine="reference", games=4)
    g = spec(game)
    assert list(df.columns) == [c.name for c in g.columns]
    assert [str(t) for t in df.dtypes] == [c.dtype for c in g.columns]
    assert {"game", "turns", "truncated"} <= set(df.columns)
    assert df.game.tolist() == list(range(4))


@pytest.mark.parametrize("game", GAMES)
def test_only_the_keyed_rng_is_used(game):
    random.seed(1)
    np.random.seed(1)
    a = sim(game)
    random.seed(99)
    np.random.seed(99)
    for _ in range(3):
        random.random(), np.random.random()
    pd.testing.assert_frame_equal(a, sim(game))


@pytest.mark.parametrize("game", GAMES)
def test_game_i_is_always_game_i(game):
    whole = sim(game)
    tail = sim(game, first_game=7, games=N - 7)
    pd.testing.assert_frame_equal(whole.iloc[7:].reset_index(drop=True), tail)
    pd.testing.assert_frame_equal(whole, sim(game, chunk_size=5))


@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_jobs(game):
    pd.testing.assert_frame_equal(sim(game, chunk_size=8), sim(game, chunk_size=8, n_jobs=2))


@pytest.mark.parametrize("game", GAMES)
def test_replay_record_is_the_batch_row(game):
    df = sim(game, policy="greedy")
    for i in (0, 13):
        t = cardsim.replay(game, None, players=4, seed=5, game=i, policy="greedy")
        assert t.record == df.loc[df.game == i].iloc[0].to_dict()
        assert len(str(t).splitlines()) > 3


@pytest.mark.parametrize("game", GAMES)
def test_compiled_equals_reference(game):
    if spec(game).compiled is None:
        pytest.fail(f"{game} has no compiled engine")
    for policy in ("random", "greedy"):
        pd.testing.assert_frame_equal(sim(game, policy=policy), sim(game, policy=policy, engine="reference"))


@pytest.mark.parametrize("game", GAMES)
def test_rules_round_trip_and_string_form(game):
    for name, r in cardsim.presets(game).items():
        assert type(r).from_dict(r.to_dict()) == r
        assert cardsim.rules(game, name) == r
        assert cardsim.rules(game, r.describe()) == r


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("call, match", [
    (lambda g: cardsim.rules(g, "no_such_preset"), "known presets"),
    (lambda g: cardsim.rules(g, None, no_such_knob=1), "known knobs"),
    (lambda g: cardsim.rules(g, None, max_turns="many"), "max_turns"),
    (lambda g: cardsim.simulate(g, None, players=1), "players"),
    (lambda g: cardsim.simulate(g, None, players=11), "players"),
    (lambda g: cardsim.simulate(g, None, games=-1), "games"),
    (lambda g: cardsim.simulate(g, None, policy="no_such_policy"), "known policies"),
    (lambda g: cardsim.simulate(g, None, engine="gpu"), "known engines"),
])
def test_bad_input_is_one_clear_value_error(game, call, match):
    with pytest.raises(ValueError, match=match) as err:
        call(game)
    assert "\n" not in str(err.value)


def test_unknown_game_lists_the_games():
    with pytest.raises(ValueError, match="known games: moska, musta_maija, uno, molotow"):
        cardsim.simulate("durak")
