"""Molotow rules objects, presets and the one-line errors of bad input."""
import pytest

import cardsim
from cardsim.games.molotow import HAND_COLUMNS, hands_table
from cardsim.games.molotow.rules import MolotowRules


def test_presets_are_the_seed_swiss_and_mittlere():
    p = cardsim.presets("molotow")
    assert list(p) == ["molotow", "swiss", "mittlere"]
    assert p["molotow"] == MolotowRules()
    assert (p["swiss"].undertrump, p["swiss"].big_hand, p["swiss"].players) == ("forbidden", "one_each", 4)
    assert p["mittlere"].players == 3 and p["mittlere"].replace(players=4) == p["molotow"]
    assert cardsim.rules("molotow", "swiss(hands=4)").hands == 4


@pytest.mark.parametrize("call, match", [
    (lambda: MolotowRules(undertrump="sometimes"), "undertrump.*'seed', 'forbidden', 'allowed'"),
    (lambda: MolotowRules(big_hand="two"), "big_hand"),
    (lambda: MolotowRules(hands=0), "hands"),
    (lambda: MolotowRules(last_trick_bonus=48), "last_trick_bonus"),
    (lambda: cardsim.simulate("molotow", "mittlere", players=4), "for 3 players .*molotow or players=4"),
    (lambda: cardsim.simulate("molotow", None, policy="greedy(depth=2)"), "takes no parameters"),
    (lambda: cardsim.simulate("molotow", None, policy=["random"] * 3), "3 policies given for 4 players"),
    (lambda: hands_table(None, games=2, engine="gpu"), "known engines"),
    (lambda: hands_table("mittlere", players=4, games=2), "players"),
])
def test_bad_input_is_one_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match) as err:
        call()
    assert "\n" not in str(err.value)


def test_hands_table_columns_and_default_players():
    table = hands_table("mittlere", seed=1, games=3, policy="greedy")
    assert list(table.columns) == [c.name for c in HAND_COLUMNS]
    assert len(table) == 36 and (table.points_3 == 0).all()
    truncated = hands_table(MolotowRules(max_turns=100), seed=1, games=3)
    assert truncated.hand.tolist() == [0, 1] * 3  # only completed hands have a row
