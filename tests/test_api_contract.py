"""The public API's contract, run against every game (Pgx's shared `api_test`): the conformance suite
``cardsim.testing.check_game`` runs on each built-in game, check by check, plus what only the built-ins
promise (job independence, rules round trips, the one-line errors of every entry point).
"""
import pandas as pd
import pytest

import cardsim
from cardsim.games import spec
from cardsim.testing import checks

from molotow.checker import check as molotow_check
from moska.checker import check as moska_check
from musta_maija.checker import check as musta_maija_check
from uno.checker import check as uno_check

GAMES = cardsim.games.BUILT_IN
N = 24


def sim(game, **kw):
    kw = {"players": 4, "games": N, "seed": 5, **kw}
    return cardsim.simulate(game, None, **kw)


CHECKERS = {"moska": moska_check, "musta_maija": musta_maija_check, "uno": uno_check, "molotow": molotow_check}
"""Each built-in game's independent replay checker (tests/<game>/checker.py)."""


@pytest.mark.parametrize("check", [name for name, _ in checks(spec("moska"))])
@pytest.mark.parametrize("game", GAMES)
def test_every_game_passes_the_conformance_suite(game, check):
    """cardsim.testing's suite, check by check: schema, determinism, game i is game i, replay = batch row (with
    the game's own checker on every replay), reference = compiled on every preset and policy, errors."""
    dict(checks(spec(game), games=N, seed=5, checker=CHECKERS[game]))[check]()


@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_jobs(game):
    pd.testing.assert_frame_equal(sim(game, chunk_size=8), sim(game, chunk_size=8, n_jobs=2))


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
    with pytest.raises(ValueError, match="known games: molotow, moska, musta_maija, uno"):
        cardsim.simulate("durak")
