"""The ``overplays`` record (docs/records.md, M-12): addition steps whose excess went back to the hands.

An over-play is counted once its excess is back, so a game truncated (M-21) at the
give-back decision counts none for that step: issue 28's reproduction recorded 2 where
its events showed 1. On both engines, the count equals the addition steps that end with
cards taken back in the events (a run of ``take_back`` events), whatever the knobs and
wherever M-21 cuts the game.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardsim.games.moska import reference
from cardsim.games.moska.rules import MoskaRules

from .strategies import setups
from .test_compiled import assert_same_records

ISSUE_28 = MoskaRules.preset("turamoska").replace(attack_cap=1, cap_mode="unkilled", defender_self_attack=True,
                                                  hand_size=7, max_turns=25)
"""``cardsim replay moska "turamoska(attack_cap=1, cap_mode='unkilled', defender_self_attack=True, hand_size=7,
max_turns=25)" --players 4 --seed 811 --game 203 --policy greedy``: truncated at the give-back decision."""


def taken_back_steps(log) -> int:
    """The addition steps whose excess went back, in the events: runs of consecutive ``take_back`` events."""
    kinds = [event[2] for event in log]
    return sum(1 for i, k in enumerate(kinds) if k == "take_back" and (i == 0 or kinds[i - 1] != "take_back"))


def test_M12_issue_28_a_game_truncated_at_the_give_back_decision_counts_only_the_give_back_that_happened():
    game = reference.play(ISSUE_28, 4, 811, 203, ["greedy"] * 4)
    assert game.record["truncated"] and [e[2] for e in game.log if e[0] is not None][-1] == "add"
    assert game.record["overplays"] == taken_back_steps(game.log) == 1
    longer = reference.play(ISSUE_28.replace(max_turns=26), 4, 811, 203, ["greedy"] * 4)
    assert longer.record["overplays"] == 2  # one decision more: the second give-back happens
    for rules in (ISSUE_28, ISSUE_28.replace(max_turns=26)):
        assert_same_records(rules, 4, 811, np.array([203]), ("greedy",) * 4)


@pytest.mark.differential
@given(setups(), st.integers(1, 120))
def test_M12_overplays_counts_the_addition_steps_whose_excess_went_back_wherever_the_game_is_cut(cell, cut):
    rules, players, seats, seed, game = cell
    rules = rules.replace(max_turns=min(rules.max_turns, cut))
    played = reference.play(rules, players, seed, game, list(seats))
    assert played.record["overplays"] == taken_back_steps(played.log)
    assert_same_records(rules, players, seed, np.array([game]), seats)
