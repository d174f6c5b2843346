"""The step API's contract, per game: ``copy()`` is independent, an illegal index raises one clear
``ValueError`` naming the decision and the legal moves, ``view(seat)`` is what that seat may know
(re-dealing the cards it cannot see leaves its view and its legal decisions unchanged), and a
``record()`` exists only once the game is over."""
import json
import random

import pytest

import cardsim
from tests.play.stepping import redealt, world_key

SETUPS = [("moska", "turamoska", 4), ("moska", "moska", 2), ("musta_maija", "musta_maija", 4),
          ("musta_maija", "house", 7), ("uno", "official", 3), ("uno", "stacking", 5), ("molotow", "molotow", 4),
          ("molotow", "mittlere", 3)]


def walk(g, steps, r):
    """Take ``steps`` random legal decisions (fewer if the game ends)."""
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(r.randrange(len(g.legal())))


@pytest.mark.parametrize("game, preset, players", SETUPS)
def test_copy_is_independent(game, preset, players):
    g = cardsim.new_game(game, preset, players=players, seed=5, game_index=3, policies="greedy")
    walk(g, 10, random.Random(1))
    before = (g.turn, g.view(0), [d.name for d in g.legal()])
    twin = g.copy()
    walk(twin, 25, random.Random(2))
    assert (g.turn, g.view(0), [d.name for d in g.legal()]) == before
    while not g.is_over:
        g.apply(g.policy_decision())
    copied = cardsim.new_game(game, preset, players=players, seed=5, game_index=3, policies="greedy")
    walk(copied, 10, random.Random(1))
    copied = copied.copy()
    while not copied.is_over:
        copied.apply(copied.policy_decision())
    assert copied.record() == g.record()


@pytest.mark.parametrize("game, preset, players", SETUPS)
def test_an_illegal_index_is_one_clear_error(game, preset, players):
    g = cardsim.new_game(game, preset, players=players, seed=1)
    n = len(g.legal())
    for bad in (n, -1, "0", 1.0, True):
        with pytest.raises(ValueError) as err:
            g.apply(bad)
        text = str(err.value)
        assert "\n" not in text and f"decision {bad!r} is not legal for seat {g.to_act} at decision 0" in text
        assert f"0: {g.legal()[0].name}" in text
    with pytest.raises(ValueError, match="not over"):
        g.record()
    with pytest.raises(ValueError, match="seat must be"):
        g.view(players)


@pytest.mark.parametrize("game, preset, players", SETUPS)
def test_a_view_is_plain_data_and_holds_only_what_the_seat_may_know(game, preset, players):
    r = random.Random(7)
    for index in range(3):
        g = cardsim.new_game(game, preset, players=players, seed=11, game_index=index)
        checked = 0
        while not g.is_over:
            for seat in range(players):
                view = g.view(seat)
                assert json.loads(json.dumps(view)) == view  # ints, lists, bools, strings only
                w = redealt(g, seat, world_key(g.turn * 10 + seat))
                if w is None:
                    continue
                other = w.view(seat)
                if game == "uno":  # Uno's worlds forget what was shown: compare with that forgotten too
                    view = {**view, "shown": [[] for _ in range(players)]}
                assert other == view, (game, g.turn, seat)
                if seat == g.to_act:
                    assert [d.name for d in w.legal()] == [d.name for d in g.legal()]
                checked += 1
            g.apply(r.randrange(len(g.legal())))
        assert checked > 0


def test_views_differ_where_the_seat_sees_a_difference():
    """The test above can fail: a seat's own hand is in its view, another seat's is not."""
    g = cardsim.new_game("molotow", players=4, seed=0)
    assert g.view(0)["hand"] != g.view(1)["hand"]
    assert sum(g.view(0)["hand_sizes"]) == 36


def test_policy_decision_is_for_built_in_seats():
    g = cardsim.new_game("molotow", players=4, policies=["greedy", "tests/play/policies.py:first", "greedy", "greedy"])
    assert g.to_act == 1
    with pytest.raises(ValueError, match="seat 1 plays tests/play/policies.py:first, not a built-in policy"):
        g.policy_decision()
