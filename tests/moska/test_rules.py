"""MoskaRules: the knobs of rules/moska.md, the four presets, validation with one clear line."""
import pytest

import cardsim
from cardsim.games.moska.rules import MoskaRules

# the variants table of rules/moska.md (and M-12: taraki sets excess_return="attacker")
TABLE = {
    "moska": ("attack", 6, True, True, False, False, "defender"),
    "turamoska": ("attack_and_kill", 6, True, True, False, False, "defender"),
    "pyhaselka": ("attack_and_kill", None, False, True, False, False, "defender"),
    "taraki": ("attack", 6, True, False, True, True, "attacker"),
}


def test_presets_are_the_variants_table():
    presets = cardsim.presets("moska")
    assert list(presets) == list(TABLE)
    for name, row in TABLE.items():
        r = presets[name]
        assert (r.continuation, r.attack_cap, r.cap_to_defender_hand, r.trump_two_swap,
                r.defender_self_attack, r.defender_closes, r.excess_return) == row
        assert (r.cap_mode, r.hand_size, r.max_turns) == ("round", 6, 10_000)


def test_every_knob_of_the_rules_file():
    assert list(MoskaRules.knobs()) == ["continuation", "attack_cap", "cap_to_defender_hand", "cap_mode",
                                        "trump_two_swap", "defender_self_attack", "defender_closes",
                                        "excess_return", "hand_size", "max_turns", "repetition"]
    assert MoskaRules() == MoskaRules.preset("moska")


def test_string_form_and_round_trip():
    r = cardsim.rules("moska", "turamoska(attack_cap=None)")
    assert r == cardsim.rules("moska", "turamoska", attack_cap=None)
    assert r.describe() == "turamoska(attack_cap=None)"
    assert MoskaRules.from_dict(r.to_dict()) == r


@pytest.mark.parametrize("knobs, match", [
    ({"attack_cap": 0}, "attack_cap=0 is invalid: expected an integer >= 1 <= 52 or None"),
    ({"attack_cap": "6"}, "attack_cap='6' is invalid"),
    ({"attack_cap": True}, "attack_cap=True is invalid"),
    ({"continuation": "kill"}, "continuation='kill' is invalid: expected one of 'attack', 'attack_and_kill'"),
    ({"cap_mode": "table"}, "cap_mode='table' is invalid"),
    ({"excess_return": "first"}, "excess_return='first' is invalid"),
    ({"trump_two_swap": 1}, "trump_two_swap=1 is invalid: expected True or False"),
    ({"defender_self_attack": None}, "defender_self_attack=None is invalid"),
    ({"defender_closes": "yes"}, "defender_closes='yes' is invalid: expected True or False"),
    ({"excess_return": "adder"}, "excess_return='adder' is invalid: expected one of 'defender', 'attacker', 'last'"),
    ({"hand_size": 0}, "hand_size=0 is invalid"),
    ({"hand_size": 26}, "hand_size=26 is invalid"),
    ({"max_turns": 0}, "max_turns=0 is invalid"),
    ({"max_turns": 1.5}, "max_turns=1.5 is invalid"),
    ({"no_such_knob": 1}, "unknown moska knob 'no_such_knob'; known knobs: continuation, attack_cap"),
])
def test_bad_knobs_are_one_clear_value_error(knobs, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")) as err:
        cardsim.rules("moska", "moska", **knobs)
    assert "\n" not in str(err.value)


def test_unknown_preset_lists_the_presets():
    with pytest.raises(ValueError, match="unknown moska preset 'durak'; known presets: moska, turamoska, pyhaselka, "
                                         "taraki"):
        cardsim.rules("moska", "durak")


@pytest.mark.parametrize("players, hand_size, ok", [(8, 6, True), (2, 25, True), (8, 7, False), (3, 17, True),
                                                    (4, 13, False)])
def test_M3_player_count_against_hand_size(players, hand_size, ok):
    """Rule M-3 of docs/rules/moska.md."""
    r = MoskaRules(hand_size=hand_size)
    if ok:
        cardsim.simulate("moska", r, players=players, games=1, engine="reference")
    else:
        with pytest.raises(ValueError, match=f"{players} players x hand_size {hand_size}"):
            cardsim.simulate("moska", r, players=players, games=1)


@pytest.mark.parametrize("call, match", [
    (lambda: cardsim.simulate("moska", "moska", players=1), "moska is played by 2 to 8 players, not 1"),
    (lambda: cardsim.simulate("moska", "moska", players=9), "moska is played by 2 to 8 players, not 9"),
    (lambda: cardsim.simulate("moska", "moska", games=-1), "games must be an integer >= 0"),
    (lambda: cardsim.simulate("moska", "moska", policy="smart"), "unknown moska policy 'smart'"),
    (lambda: cardsim.simulate("moska", "moska", policy="greedy(bluff=0.1)", engine="reference"),
     "takes no parameters"),
    (lambda: cardsim.simulate("muska"), "unknown game 'muska'"),
])
def test_bad_input_is_one_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(")) as err:
        call()
    assert "\n" not in str(err.value)


def test_the_game_spec():
    from cardsim.games.moska import GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("moska", 2, 8)
    assert GAME.policies == ("random", "greedy", "mc", "oracle", "learned")
    names = [c.name for c in GAME.columns]
    assert names[:6] == ["game", "turns", "truncated", "loser", "rounds", "first_out"]
    assert {"finish_order", "trump_suit", "swaps", "overplays", "pickups", "self_attacks"} <= set(names)
    assert all(c.doc for c in GAME.columns)
