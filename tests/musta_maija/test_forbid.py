"""Musta-Maija's ``forbid=OPTION`` (issue 27's restricted play; policies.py specifies it): the options and their
rules, a forbidden seat never takes the option, the other seats are unaffected, both engines alike, bad options
in one line."""
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.core.records import frame
from cardsim.games import spec
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija.rules import OPTIONS

from .states import redealt
from .strategies import setups
from .test_mc import decide, position

GAME = spec("musta_maija")
RESTRICTED = ("random(forbid=declare)", "greedy(forbid=declare)", "mc(determinizations=2, forbid=declare)",
              "learned(forbid=declare)", "mc(determinizations=2, base=learned, forbid=declare)")
pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")


def records(engine, rules, players, seed, games, seats) -> pd.DataFrame:
    games = np.asarray(games, dtype=np.int64)
    if engine == "reference":
        return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    return frame(GAME.compiled(rules, players, seed, games, seats), GAME.columns)


def test_the_options_are_the_games_and_cite_their_rules():
    assert GAME.options is OPTIONS and set(OPTIONS) == {"declare"}
    assert all(re.search(r"\bMM-\d+\b", text) for text in OPTIONS.values())


@pytest.mark.parametrize("policy", RESTRICTED)
def test_MM5_a_seat_forbidden_to_declare_never_does_and_the_others_still_may(policy):
    """Every seat forbidden: no trump is ever declared (MM-5). One seat forbidden among greedy: declarations
    still happen (made by the other seats)."""
    df = cardsim.simulate("musta_maija", players=4, games=40, seed=9, policy=policy)
    assert (df["trump_declared_turn"] == -1).all() and (df["trump_suit"] == -1).all()
    mixed = cardsim.simulate("musta_maija", players=4, games=40, seed=9, policy=[policy] + ["greedy"] * 3)
    assert (mixed["trump_declared_turn"] >= 0).any()


@pytest.mark.parametrize("preset", ["diamonds", "turned"])
def test_MM6_MM7_without_marriages_forbidding_declare_is_a_no_op(preset):
    """A forbid with no option to take changes nothing: the same records."""
    for plain, barred in (("random", "random(forbid=declare)"), ("greedy", "greedy(forbid=declare)"),
                          ("mc(determinizations=2)", "mc(determinizations=2, forbid=declare)")):
        pd.testing.assert_frame_equal(
            cardsim.simulate("musta_maija", preset, players=4, games=20, seed=2, policy=[plain, "greedy"] * 2),
            cardsim.simulate("musta_maija", preset, players=4, games=20, seed=2, policy=[barred, "greedy"] * 2))


@given(setups(), st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_MM5_the_candidates_of_a_forbidden_seat_never_declare(setup, stop):
    """``mc``'s and ``learned``'s candidates under ``forbid=declare``: those without it less every declaration,
    greedy's (restricted) first."""
    state, p = position(setup, stop)
    assume(C.to_act(state[0]) >= 0)
    w = C.new_work()[0]
    free = [c.tobytes() for c in w["play"][:C.decision_candidates(state[0], p, w["play"], 0)] if c["declare"] < 0]
    barred = w["play"][:C.decision_candidates(state[0], p, w["play"], 1)].copy()
    assert (barred["declare"] == -1).all()
    assert sorted(c.tobytes() for c in barred) == sorted(free)
    assert barred[0].tobytes() == decide(state, p, "greedy(forbid=declare)").tobytes()


@st.composite
def restricted_setups(draw):
    rules, players, policy, seed = draw(setups(max_players=6))
    seats = list(GAME.seat_policies(policy, players))
    for seat in draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True)):
        seats[seat] = draw(st.sampled_from(RESTRICTED))
    return rules, players, tuple(seats), seed, draw(st.integers(0, 10**6))


@settings(max_examples=25, deadline=None)
@given(restricted_setups())
def test_restricted_games_are_the_same_on_both_engines(cell):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 3)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@settings(max_examples=30, deadline=None)
@given(setups(), st.integers(0, 60), st.integers(0, 2**64 - 1), st.sampled_from(RESTRICTED))
def test_a_restricted_decision_depends_only_on_the_deciding_seats_view(setup, stop, shuffle_key, policy):
    state, p = position(setup, stop)
    seat = C.to_act(state[0])
    assume(seat >= 0)
    assert decide(state, p, policy).tobytes() == decide(redealt(state, seat, shuffle_key), p, policy).tobytes()


def test_the_forbid_bits_reach_the_policy_table():
    rows = cpol.table(("greedy", "greedy(forbid=declare)", "mc(forbid=declare)", "learned(forbid=declare)"))
    assert list(rows[:, cpol.FORBID]) == [0, 1, 1, 1]
    assert list(rows[:, cpol.CODE]) == [cpol.GREEDY, cpol.GREEDY, cpol.MC, cpol.LEARNED]


@pytest.mark.parametrize("text, message", [
    ("greedy(forbid=swap)", "musta_maija policy greedy: forbid='swap' is no option of musta_maija; known: declare"),
    ("mc(forbid='declare+stack')", "musta_maija policy mc: forbid='stack' is no option of musta_maija; known: declare"),
    ("learned(forbid=3)", "musta_maija policy learned: forbid=3 is no option of musta_maija; known: declare"),
    ("mc(base='greedy(forbid=declare)')", "musta_maija policy mc: base=\"greedy(forbid='declare')\" takes no forbid "
     "(its play-outs seat every player); put forbid= on mc itself"),
    ("random(forbid=declare, x=1)", "musta_maija policy 'random' takes no parameters but forbid, got x"),
])
def test_an_unknown_option_is_one_line_naming_the_policy_and_the_known_options(text, message):
    for engine in ("compiled", "reference"):
        with pytest.raises(ValueError, match=re.escape(message)) as err:
            cardsim.simulate("musta_maija", players=3, games=2, policy=[text, "greedy", "greedy"], engine=engine)
        assert "\n" not in str(err.value)


def test_an_unknown_option_on_the_command_line_exits_2(tmp_path, capsys):
    from cardsim import cli

    out = tmp_path / "out"
    assert cli.main(["ladder", "musta_maija", "--policies", "greedy,greedy(forbid=stack)", "--games", "4",
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "forbid='stack' is no option of musta_maija" in err and not out.exists()
