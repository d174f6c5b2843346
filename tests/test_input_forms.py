"""The forms of input every entry point shares (core/rules.py, core/game.py): one spelling of a policy,
calls split at top-level commas only, a knob named twice refused, numpy numbers taken as Python's,
seeds below 2**64 and game indices below 2**63 everywhere, policy=None one ValueError line."""
import numpy as np
import pytest

import cardsim
from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, integer_expected
from cardsim.core.rules import normal_call, parse_call, split_calls
from cardsim.games import spec


@pytest.mark.parametrize("text, normal", [
    ("greedy", "greedy"), ("greedy()", "greedy"), (" greedy", "greedy"), ("greedy( ) ", "greedy"),
    ("greedy(challenge=0.5, bluff=0.1)", "greedy(bluff=0.1, challenge=0.5)"),
    ("greedy(bluff = 0.1)", "greedy(bluff=0.1)"),
])
def test_equivalent_spellings_of_a_policy_are_one(text, normal):
    assert normal_call(text) == normal
    assert spec("uno").seat_policies(text, 2) == (normal, normal)


def test_calls_split_at_top_level_commas_only():
    assert split_calls("greedy(bluff=0.1, challenge=0.5),random") == ["greedy(bluff=0.1, challenge=0.5)", "random"]
    assert split_calls("a(x='1,2'),b(y=[1, 2]),c") == ["a(x='1,2')", "b(y=[1, 2])", "c"]
    assert split_calls("greedy") == ["greedy"]


def test_a_knob_or_parameter_named_twice_is_refused_by_name():
    with pytest.raises(ValueError, match="attack_cap is given twice"):
        cardsim.rules("moska", "moska(attack_cap=3, attack_cap=4)")
    with pytest.raises(ValueError, match="bluff is given twice"):
        parse_call("greedy(bluff=0.1, bluff=0.2)")


def test_numpy_knob_values_are_the_python_values_as_numpy_players_are():
    r = cardsim.rules("moska", "moska", attack_cap=np.int64(4), hand_size=np.int32(5), trump_two_swap=np.bool_(False))
    assert r == cardsim.rules("moska", "moska", attack_cap=4, hand_size=5, trump_two_swap=False)
    assert type(r.attack_cap) is int and r.describe() == "moska(attack_cap=4, trump_two_swap=False, hand_size=5)"
    u = cardsim.rules("uno", "official", hand_size=np.int64(7))
    df = cardsim.simulate("uno", u, players=np.int64(3), games=np.int64(3), seed=np.uint64(5), policy="greedy")
    assert df.equals(cardsim.simulate("uno", "official", players=3, games=3, seed=5, policy="greedy"))
    with pytest.raises(ValueError, match="attack_cap=4.5 is invalid"):
        cardsim.rules("moska", "moska", attack_cap=np.float64(4.5))


@pytest.mark.parametrize("call, message", [
    (lambda: cardsim.simulate("moska", policy=None, games=1), "policy must be a policy name or a list of one per seat"),
    (lambda: cardsim.simulate("moska", seed=2**64, games=1), f"seed must be an integer >= 0 and < 2**64, not {2**64}"),
    (lambda: cardsim.replay("moska", seed=2**64, game=0), f"seed must be an integer >= 0 and < 2**64, not {2**64}"),
    (lambda: cardsim.replay("moska", game=2**63), f"game must be an integer >= 0 and < 2**63, not {2**63}"),
    (lambda: cardsim.simulate("moska", games=2**63), "games must be an integer >= 0 and < 2**63"),
    (lambda: cardsim.simulate("moska", games=2, first_game=2**63 - 1), "first_game must be an integer >= 0 and <"),
    (lambda: cardsim.simulate("moska", games=1, seed=True), "seed must be an integer"),
])
def test_bounds_and_none_are_one_value_error_line(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_largest_seed_plays_the_same_game_in_simulate_and_replay():
    row = cardsim.simulate("moska", "moska", players=3, games=1, first_game=7, seed=SEED_LIMIT - 1, policy="greedy")
    assert cardsim.replay("moska", "moska", players=3, game=7, seed=SEED_LIMIT - 1, policy="greedy").record == (
        row.iloc[0].to_dict())


def test_integer_bounds_in_words():
    assert integer_expected(0, 0, SEED_LIMIT) is None and integer_expected(np.uint64(2**64 - 1), 0, SEED_LIMIT) is None
    assert integer_expected(2**64, 0, SEED_LIMIT) == "an integer >= 0 and < 2**64"
    assert integer_expected(1.0, 1, GAME_LIMIT) == "an integer >= 1 and < 2**63"
    assert integer_expected(np.bool_(True)) == "an integer >= 0"


def test_a_knob_marked_deck_breaks_the_pairing_and_no_other_does():
    from dataclasses import dataclass
    from typing import ClassVar

    from cardsim.core.rules import Rules, knob

    @dataclass(frozen=True)
    class Decked(Rules):
        GAME: ClassVar[str] = "decked"
        PRESETS: ClassVar[dict] = {"base": {}}
        DEFAULT_PRESET: ClassVar[str] = "base"
        deck: str = knob("classic", "the cards", choices=("classic", "2018"), deck=True)
        stacking: bool = knob(False, "a play rule")

    base = Decked()
    assert base.same_deck(Decked(stacking=True)) and not base.same_deck(Decked(deck="2018"))
