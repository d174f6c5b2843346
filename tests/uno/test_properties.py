"""Property tests: cards conserved after every decision, only legal plays, one winner per
finished hand, determinism, compiled = reference on random knobs, players, policies, seeds."""
import random
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.games.uno import GAME
from cardsim.games.uno import reference as ref
from cardsim.games.uno import seating
from cardsim.games.uno.cards import DECK_SIZES, DRAW_TWO, WD4, symbol_of
from cardsim.games.uno.policies import parse_policy
from cardsim.games.uno.rules import UnoRules

POLICIES = ["random", "greedy", "random(bluff=0.3, challenge=0.9)", "greedy(bluff=0.5, challenge=1)",
            "greedy(bluff=0, challenge=0)", "random(challenge=0)"]


@st.composite
def tables(draw, max_players=10):
    """(rules, players, policies): any knobs, a player count the deck allows, self-play or per seat."""
    deck = draw(st.sampled_from(["classic", "2018"]))
    custom = draw(st.sampled_from(["wild", "swap_hands", "everyone_draws_one"])) if deck == "2018" else "wild"
    players = draw(st.integers(2, max_players))
    hand_size = draw(st.integers(1, min(12, (DECK_SIZES[deck] - 5) // players)))
    rules = UnoRules(deck=deck, custom_wild=custom, hand_size=hand_size,
                     draw_rule=draw(st.sampled_from(["one", "until_playable"])),
                     stack_draw_two=draw(st.booleans()), wd4_challenge=draw(st.booleans()),
                     target_score=draw(st.sampled_from([None, None, 60, 200])),
                     max_turns=draw(st.sampled_from([15, 200, 5000])))
    if draw(st.booleans()):
        policy = draw(st.sampled_from(POLICIES))
    else:
        policy = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    return rules, players, policy


def seats(policy, players):
    return GAME.seat_policies(policy, players)


def cards_in_play(s):
    return sum(map(sum, s.hands)) + len(s.pile) + sum(s.discard) + 1


@given(tables(), st.integers(0, 2**32), st.integers(0, 10**6))
def test_cards_conserved_only_legal_plays_one_winner_per_hand(table, seed, game):
    rules, players, policy = table
    n_cards = DECK_SIZES[rules.deck]
    decide, play_card, play_hand = ref.decide, ref.play_card, ref.play_hand

    def checked_decide(s):
        decide(s)
        assert cards_in_play(s) == n_cards  # U-1, U-2: 108 (or 112) cards always accounted for

    def checked_play_card(s, kind, choose):
        p = s.current
        assert s.hands[p][kind] > 0
        if s.pending_draw:  # U-11: only a Draw Two answers a stacked Draw Two
            assert symbol_of(kind) == DRAW_TWO and kind < 52
        else:  # U-6, U-12, U-13: legal, or a bluffed Wild Draw Four
            assert ref.playable(s, p, kind) or kind == WD4
        play_card(s, kind, choose)

    def checked_play_hand(s, hand_no):
        finished = play_hand(s, hand_no)
        empty = [p for p in range(players) if sum(s.hands[p]) == 0]
        assert empty == ([s.hand_winner] if finished else [])  # U-18: exactly one winner
        return finished

    with mock.patch.object(ref, "decide", checked_decide), mock.patch.object(ref, "play_card", checked_play_card), \
            mock.patch.object(ref, "play_hand", checked_play_hand):
        record = seating.play(rules, players, seed, game, seats(policy, players)).record
    assert record["truncated"] == (record["winner"] == -1)
    assert record["successful_challenges"] <= record["challenges"]


@given(tables(), st.integers(0, 2**32), st.integers(0, 10**9))
def test_compiled_equals_reference_on_random_tables(table, seed, first_game):
    rules, players, policy = table
    kw = dict(players=players, games=5, seed=seed, policy=policy, first_game=first_game)
    pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                  cardsim.simulate("uno", rules, engine="reference", **kw))


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_game_i_is_game_i_alone_or_in_a_batch_whatever_the_global_rng(engine):
    r = UnoRules(deck="2018", custom_wild="swap_hands", target_score=100)
    kw = dict(players=5, seed=11, policy=["greedy", "random", "greedy(bluff=1)", "random", "random"], engine=engine)
    random.seed(0)
    np.random.seed(0)
    batch = cardsim.simulate("uno", r, games=12, **kw)
    random.seed(5)
    np.random.seed(5)
    np.random.random(10)
    shifted = cardsim.simulate("uno", r, games=5, first_game=7, **kw)
    alone = cardsim.simulate("uno", r, games=1, first_game=9, **kw)
    pd.testing.assert_frame_equal(batch.iloc[7:].reset_index(drop=True), shifted)
    pd.testing.assert_frame_equal(batch.iloc[[9]].reset_index(drop=True), alone)
    pd.testing.assert_frame_equal(batch, cardsim.simulate("uno", r, games=12, **kw))


def test_replay_is_the_batch_row_and_prints_the_game():
    r = cardsim.rules("uno", "stacking(deck='2018', custom_wild='everyone_draws_one')")
    df = cardsim.simulate("uno", r, players=3, games=8, seed=4, policy="random")
    t = cardsim.replay("uno", r, players=3, seed=4, game=6, policy="random")
    assert t.record == df.iloc[6].to_dict()
    assert "starting card" in str(t) and "uno record" in str(t)


def test_records_are_plausible():
    df = cardsim.simulate("uno", None, players=4, games=400, seed=1, policy="random")
    assert not df.truncated.any() and set(df.winner) == {0, 1, 2, 3}
    assert (df.points > 0).all() and (df.hands == 1).all() and (df.cards_drawn > 0).all()


@pytest.mark.parametrize("text, message", [
    ("random(bluff=2)", "bluff=2 must be a probability"),
    ("greedy(risk=0.1)", "no parameter 'risk'"),
    ("greedy(challenge='x')", "challenge='x' must be a probability"),
    ("smart", "unknown uno policy 'smart'"),
])
def test_bad_policy_strings_raise_one_clear_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_policy(text)
    with pytest.raises(ValueError):
        cardsim.simulate("uno", players=2, games=1, policy=text)


def test_bad_knobs_raise_one_clear_line():
    with pytest.raises(ValueError, match="draw_rule='two' is invalid"):
        UnoRules(draw_rule="two")
    with pytest.raises(ValueError, match="unknown uno knob 'stack'"):
        cardsim.rules("uno", "official(stack=True)")
    with pytest.raises(ValueError, match="unknown uno preset"):
        cardsim.rules("uno", "house")
    assert UnoRules.preset("stacking").describe() == "stacking"
    assert UnoRules.from_dict(UnoRules(target_score=500).to_dict()) == UnoRules(target_score=500)

