"""Scenario tests, one (or more) per rule ID of docs/rules/uno.md: a position built by
hand, one rule applied, the exact outcome checked, on both engines (``eng``: the reference
module or its compiled twin of ``engines.py``, fed the same positions)."""
import numpy as np
import pytest

import cardsim
from cardsim.core import rng
from cardsim.games.uno import GAME
from cardsim.games.uno.cards import (CUSTOM, DECK_SIZES, K, SHUFFLE, WD4, WILD, copies, counts_of, deck_cards,
                                     name, names, parse)
from cardsim.games.uno.reference import Fixed
from cardsim.games.uno.rules import UnoRules

from .engines import ENGINES

STACKING = UnoRules.preset("stacking")
GREEDY = "greedy(bluff=0, challenge=0)"


@pytest.fixture(params=list(ENGINES))
def eng(request):
    """The engine a scenario runs on."""
    return ENGINES[request.param]


def size(s, p):
    return sum(s.hands[p])


def total_cards(s):
    return sum(map(sum, s.hands)) + len(s.pile) + sum(s.discard) + 1


# ---------------------------------------------------------------- cards and players

def test_U1_classic_deck_has_108_cards_25_per_colour_plus_8_wilds():
    """Rule U-1 of docs/rules/uno.md."""
    n = copies("classic")
    assert sum(n) == 108 == DECK_SIZES["classic"]
    for c in range(4):
        assert sum(n[c * 13:(c + 1) * 13]) == 25
        assert n[c * 13] == 1 and all(n[c * 13 + s] == 2 for s in range(1, 13))
    assert n[WILD] == n[WD4] == 4 and n[SHUFFLE] == n[CUSTOM] == 0


def test_U2_deck_2018_adds_shuffle_hands_and_three_custom_wilds():
    """Rule U-2 of docs/rules/uno.md."""
    classic, new = copies("classic"), copies("2018")
    assert sum(new) == 112 and new[SHUFFLE] == 1 and new[CUSTOM] == 3
    assert [n for k, n in enumerate(new) if k not in (SHUFFLE, CUSTOM)] == \
        [n for k, n in enumerate(classic) if k not in (SHUFFLE, CUSTOM)]
    with pytest.raises(ValueError, match="custom_wild='swap_hands' needs deck='2018'"):
        UnoRules(custom_wild="swap_hands")


def test_U3_two_to_ten_players_seat_1_acts_first(eng):
    """Rule U-3 of docs/rules/uno.md."""
    assert (GAME.min_players, GAME.max_players) == (2, 10)
    for bad in (1, 11):
        with pytest.raises(ValueError, match="2 to 10 players"):
            cardsim.simulate("uno", players=bad, games=1)
    for game in range(50):
        s = eng.new_state(UnoRules(), 4, 0, game, ("random",) * 4)
        eng.deal(s, 0)
        if s.top < WILD and s.top % 13 < 10:  # a number starter
            break
    assert s.current == 1 and s.direction == 1


# ---------------------------------------------------------------- deal and start

def test_U4_deal_one_at_a_time_clockwise_from_seat_1(eng):
    """Rule U-4 of docs/rules/uno.md."""
    r, players = UnoRules(), 3
    s = eng.new_state(r, players, 9, 4, ("random",) * players)
    eng.deal(s, 0)
    order = [deck_cards("classic")[i] for i in rng.permutation(s.key, rng.Stream.DEAL, 108)]
    for p in range(players):
        expected = [0] * K
        for j in range(21):
            if (1 + j) % players == p:
                expected[order[j]] += 1
        assert s.hands[p] == expected
    assert [size(s, p) for p in range(players)] == [7, 7, 7]
    assert total_cards(s) == 108
    with pytest.raises(ValueError, match="hand_size=11 for 10 players needs 115 cards"):
        cardsim.simulate("uno", UnoRules(hand_size=11), players=10, games=1)
    UnoRules(hand_size=10).check_players(10)  # 100 dealt, 8 left: a starting card always exists


def start(eng, top, players=4, rules=None, pile="G1 G2 G3 G4"):
    hands = ["R1 R2"] * players
    s = eng.make_state(players, hands, top, pile=pile, rules=rules, current=0, policy=GREEDY)
    eng.start_with_card(s, dealer=0)
    return s


def test_U5_starting_skip_skips_seat_1(eng):
    """Rule U-5 of docs/rules/uno.md."""
    assert start(eng, "YS").current == 2
    assert start(eng, "YS", players=2).current == 0  # two players: the dealer starts


def test_U5_starting_reverse_dealer_plays_first_then_to_the_right(eng):
    """Rule U-5 of docs/rules/uno.md."""
    s = start(eng, "YR")
    assert (s.current, s.direction) == (0, -1)
    eng.play_card(s, parse("R1"), Fixed())  # R1 is not playable on YR, but this checks only the order
    assert s.current == 3


def test_U5_starting_draw_two_seat_1_draws_two_and_seat_2_starts(eng):
    """Rule U-5 of docs/rules/uno.md."""
    s = start(eng, "B+2")
    assert (s.current, size(s, 1), size(s, 2)) == (2, 4, 2)
    s = start(eng, "B+2", players=2)
    assert (s.current, size(s, 1)) == (0, 4)
    s = start(eng, "B+2", rules=STACKING)  # [decision] with stacking seat 1 may answer it
    assert (s.current, s.pending_draw, size(s, 1)) == (1, 2, 2)


def test_U5_starting_wild_seat_1_names_the_colour_and_plays(eng):
    """Rule U-5 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "G5 G6 B7", "R2", "R3"], "W", pile="Y1", current=0, policy=GREEDY)
    eng.start_with_card(s, dealer=0)
    assert (s.current, s.colour) == (1, -1)
    eng.decide(s)
    assert s.colour == "RYGB".index("G") and name(s.top) == "G6" and s.current == 2


def test_U5_starting_wild_draw_four_goes_back_and_a_new_card_is_turned(eng):
    """Rule U-5 of docs/rules/uno.md."""
    r = UnoRules()
    hit = []
    for game in range(400):
        s = eng.new_state(r, 4, 1, game, ("random",) * 4)
        order = [deck_cards("classic")[i] for i in rng.permutation(s.key, rng.Stream.DEAL, 108)]
        if order[28] == WD4:
            eng.deal(s, 0)
            hit.append(game)
            assert s.top != WD4 and total_cards(s) == 108
            assert s.pile.count(WD4) + sum(h[WD4] for h in s.hands) == 4
    assert hit


@pytest.mark.parametrize("top", ["SH", "CW"])
def test_U5_starting_shuffle_hands_or_custom_wild_acts_as_wild(top, eng):
    """Rule U-5 of docs/rules/uno.md."""
    s = start(eng, top, rules=UnoRules(deck="2018", custom_wild="swap_hands"))
    assert (s.current, s.colour, [size(s, p) for p in range(4)]) == (1, -1, [2, 2, 2, 2])


# ---------------------------------------------------------------- a turn

def test_U6_match_colour_number_or_symbol(eng):
    """Rule U-6 of docs/rules/uno.md."""
    s = eng.make_state(2, ["R1", "R7 B3 G5 YS B+2 W"], "R3")
    legal = {name(k) for k in range(K) if eng.legal_cards(s, 1)[k]}
    assert legal == {"R7", "B3", "W"}
    s = eng.make_state(2, ["R1", "BS G+2 GS Y2"], "RS")
    assert {name(k) for k in range(K) if eng.legal_cards(s, 1)[k]} == {"BS", "GS"}
    s = eng.make_state(2, ["R1", "BS G+2 Y2"], "B+2")
    assert {name(k) for k in range(K) if eng.legal_cards(s, 1)[k]} == {"BS", "G+2"}


def test_U7_draw_one_and_play_it_only_if_playable(eng):
    """Rule U-7 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "B5", "R1", "R1"], "R3", pile="G7 R9", policy=GREEDY)
    eng.decide(s)
    assert names(s.hands[1]) == "G7 B5"
    assert s.current == 2 and name(s.top) == "R3"
    s = eng.make_state(4, ["R1", "B5", "R1", "R1"], "R3", pile="R9 G7", policy=GREEDY)
    eng.decide(s)
    assert names(s.hands[1]) == "B5" and name(s.top) == "R9" and s.cards_drawn == 1


def test_U7_draw_until_playable(eng):
    """Rule U-7 of docs/rules/uno.md."""
    r = UnoRules.preset("draw_until_playable")
    s = eng.make_state(4, ["R1", "B5", "R1", "R1"], "R3", pile="G7 Y1 R9 B2", rules=r, policy=GREEDY)
    eng.decide(s)
    assert sorted(names(s.hands[1]).split()) == ["B5", "G7", "Y1"]
    assert name(s.top) == "R9" and s.cards_drawn == 3 and s.pile == [parse("B2")]


def test_U8_reshuffle_keeps_the_top_card(eng):
    """Rule U-8 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "B5", "R1"], "R3", discard="G1 G2 Y3 W")
    drawn = eng.draw_cards(s, 1, 2)
    assert len(drawn) == 2 and s.reshuffles == 1 and name(s.top) == "R3"
    assert len(s.pile) == 2 and sum(s.discard) == 0
    assert sorted(names(counts_of(" ".join(map(name, drawn + s.pile)))).split()) == ["G1", "G2", "W", "Y3"]


def test_U8_nothing_to_reshuffle_draws_what_is_there(eng):
    """Rule U-8 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "B5", "R1"], "R3", pile="G1")
    assert eng.draw_cards(s, 1, 4) == [parse("G1")] and s.reshuffles == 0 and s.cards_drawn == 1
    assert eng.draw_cards(s, 1, 1) == []


def test_U9_skip_four_players_and_two_players(eng):
    """Rule U-9 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "RS R5", "R1", "R1"], "R3")
    eng.play_card(s, parse("RS"), Fixed())
    assert s.current == 3
    s = eng.make_state(2, ["R1", "RS R5"], "R3")
    eng.play_card(s, parse("RS"), Fixed())
    assert s.current == 1  # two players: plays again at once


def test_U10_reverse_four_players_and_two_players(eng):
    """Rule U-10 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "RR R5", "R1", "R1"], "R3")
    eng.play_card(s, parse("RR"), Fixed())
    assert (s.current, s.direction) == (0, -1)
    s = eng.make_state(2, ["R1", "RR R5"], "R3")
    eng.play_card(s, parse("RR"), Fixed())
    assert s.current == 1  # acts as Skip


def test_U11_draw_two_next_draws_two_and_loses_the_turn(eng):
    """Rule U-11 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "R+2 R5", "B+2", "R1"], "R3", pile="G1 G2 G3")
    eng.play_card(s, parse("R+2"), Fixed())
    assert (s.current, size(s, 2), s.pending_draw) == (3, 3, 0)  # stacking off: no answer
    s = eng.make_state(2, ["R1", "R+2 R5"], "R3", pile="G1 G2 G3")
    eng.play_card(s, parse("R+2"), Fixed())
    assert (s.current, size(s, 0)) == (1, 3)  # two players: the player plays again


def test_U11_stacking_passes_the_total_to_the_first_who_does_not_stack(eng):
    """Rule U-11 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "R+2 R5", "B+2 Y5", "G5"], "R3", pile="G1 G2 G3 G4 G6", rules=STACKING,
                   policy=GREEDY)
    eng.play_card(s, parse("R+2"), Fixed())
    assert (s.current, s.pending_draw) == (2, 2)
    eng.decide(s)
    assert (s.current, s.pending_draw, name(s.top)) == (3, 4, "B+2")
    eng.decide(s)
    assert (s.current, s.pending_draw, size(s, 3)) == (0, 0, 5)


def test_U12_wild_on_anything_even_with_playable_cards(eng):
    """Rule U-12 of docs/rules/uno.md."""
    s = eng.make_state(2, ["R1", "R7 W"], "R3")
    assert eng.legal_cards(s, 1)[WILD]
    eng.play_card(s, WILD, Fixed(colour="G"))
    assert s.colour == 2 and s.current == 0


def test_U13_wild_draw_four_legal_only_without_the_current_colour(eng):
    """Rule U-13 of docs/rules/uno.md."""
    s = eng.make_state(2, ["R1", "B3 W+4"], "R3")
    assert eng.legal_cards(s, 1)[WD4]  # a same number in another colour does not matter
    s = eng.make_state(2, ["R1", "R5 W+4"], "R3")
    assert not eng.legal_cards(s, 1)[WD4]
    s = eng.make_state(3, ["R1", "R5 W+4", "R1"], "R3", policy="greedy(bluff=1)")
    eng.decide(s)  # the engine lets the player bluff; only a challenge enforces U-13
    assert name(s.top) == "W+4" and s.challenge_open and s.wd4_bluffed and s.current == 2


def test_U14_failed_challenge_costs_six_and_the_turn(eng):
    """Rule U-14 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "B3 W+4 G7", "Y1 Y2", "R1"], "R3", pile=" ".join(["G1"] * 8),
                   policy="greedy(challenge=1)")
    eng.play_card(s, WD4, Fixed(colour="Y"))
    eng.decide(s)
    assert (size(s, 2), s.current, s.challenges, s.successful_challenges) == (8, 3, 1, 0)


def test_U14_successful_challenge_the_bluffer_draws_four_the_challenger_plays(eng):
    """Rule U-14 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "R5 W+4 G7", "Y1 Y2", "R1"], "R3", pile=" ".join(["G1"] * 8),
                   policy="greedy(challenge=1)")
    eng.play_card(s, WD4, Fixed(colour="Y"))
    eng.decide(s)
    assert (size(s, 1), size(s, 2), s.challenges, s.successful_challenges) == (6, 1, 1, 1)
    assert name(s.top) in ("Y1", "Y2") and s.current == 3


def test_U14_no_challenge_draws_four_and_without_the_knob_it_is_at_once(eng):
    """Rule U-14 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "B3 W+4", "Y1", "R1"], "R3", pile=" ".join(["G1"] * 8), policy=GREEDY)
    eng.play_card(s, WD4, Fixed(colour="Y"))
    eng.decide(s)
    assert (size(s, 2), s.current, s.challenges) == (5, 3, 0)
    s = eng.make_state(4, ["R1", "B3 W+4", "Y1", "R1"], "R3", pile=" ".join(["G1"] * 8),
                   rules=UnoRules(wd4_challenge=False))
    eng.play_card(s, WD4, Fixed(colour="Y"))
    assert (size(s, 2), s.current, s.challenge_open) == (5, 3, False)


def test_U15_shuffle_hands_deals_from_the_next_player_in_the_direction_of_play(eng):
    """Rule U-15 of docs/rules/uno.md."""
    r = UnoRules(deck="2018")
    s = eng.make_state(3, ["R1 R2", "SH G5 G6 G7", "B1 B2"], "R3", rules=r, direction=-1)
    before = sorted(names([sum(h[k] for h in s.hands) for k in range(K)]).split())
    eng.play_card(s, SHUFFLE, Fixed(colour="B"))
    after = sorted(names([sum(h[k] for h in s.hands) for k in range(K)]).split())
    assert before == sorted(after + ["SH"])
    assert [size(s, p) for p in range(3)] == [3, 2, 2]  # 7 cards from P0 (next to the right) on
    assert s.colour == 3 and s.current == 0


def test_U16_custom_wild_plain_wild(eng):
    """Rule U-16 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "CW R5", "R1"], "G3", rules=UnoRules(deck="2018"))
    eng.play_card(s, CUSTOM, Fixed(colour="R"))
    assert (s.colour, s.current, [size(s, p) for p in range(3)]) == (0, 2, [1, 1, 1])


def test_U16_custom_wild_swap_hands(eng):
    """Rule U-16 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "CW R5 R6", "Y1 Y2 Y3"], "G3",
                   rules=UnoRules(deck="2018", custom_wild="swap_hands"))
    eng.play_card(s, CUSTOM, Fixed(colour="Y", target=2))
    assert names(s.hands[1]) == "Y1 Y2 Y3" and names(s.hands[2]) == "R5 R6"
    assert (s.colour, s.current) == (1, 2)


def test_U16_custom_wild_everyone_draws_one(eng):
    """Rule U-16 of docs/rules/uno.md."""
    s = eng.make_state(4, ["R1", "CW R5", "R1", "R1"], "G3", pile="B1 B2 B3 B4",
                   rules=UnoRules(deck="2018", custom_wild="everyone_draws_one"))
    eng.play_card(s, CUSTOM, Fixed(colour="B"))
    assert [size(s, p) for p in range(4)] == [2, 1, 2, 2] and s.current == 2


def test_U17_no_uno_call_one_card_left_is_never_penalised(eng):
    """Rule U-17 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "R5 R6", "R1"], "R3", pile="B1 B2")
    eng.play_card(s, parse("R5"), Fixed())
    assert size(s, 1) == 1 and s.cards_drawn == 0 and s.hand_winner == -1


def test_U18_last_card_draw_two_the_next_player_still_draws(eng):
    """Rule U-18 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "R+2", "Y5"], "R3", pile="B1 B2 B3")
    eng.play_card(s, parse("R+2"), Fixed())
    assert s.hand_winner == 1 and size(s, 2) == 3
    assert eng.hand_points(s, 1) == 1 + 5 + 1 + 2


def test_U18_last_card_stacked_draw_two_and_wild_draw_four(eng):
    """Rule U-18 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R1", "B+2", "Y5"], "R+2", pile="B1 B2 B3 B4 B5", rules=STACKING, policy=GREEDY)
    s.pending_draw = 2
    eng.decide(s)
    assert s.hand_winner == 1 and size(s, 2) == 5 and s.pending_draw == 0
    s = eng.make_state(3, ["R1", "W+4", "Y5"], "R3", pile="B1 B2 B3 B4 B5")
    eng.play_card(s, WD4, Fixed())
    assert s.hand_winner == 1 and size(s, 2) == 5 and not s.challenge_open


def test_U18_last_card_custom_wilds_decision(eng):
    """Rule U-18 of docs/rules/uno.md."""
    r = UnoRules(deck="2018", custom_wild="everyone_draws_one")
    s = eng.make_state(3, ["R1", "CW", "Y5"], "R3", pile="B1 B2", rules=r)
    eng.play_card(s, CUSTOM, Fixed())  # [decision] everyone still draws one, like a Draw Two's penalty
    assert s.hand_winner == 1 and [size(s, p) for p in range(3)] == [2, 0, 2]
    r = UnoRules(deck="2018", custom_wild="swap_hands")
    s = eng.make_state(3, ["R1", "CW", "Y5"], "R3", rules=r)
    eng.play_card(s, CUSTOM, Fixed(target=2))  # the hand is over: no swap
    assert s.hand_winner == 1 and [size(s, p) for p in range(3)] == [1, 0, 1]


def test_U19_points_of_the_cards_left(eng):
    """Rule U-19 of docs/rules/uno.md."""
    s = eng.make_state(3, ["R5 BS W", "", "G+2 SH CW Y0 GR W+4"], "R3", rules=UnoRules(deck="2018"))
    assert eng.hand_points(s, 1) == 5 + 20 + 50 + 20 + 40 + 40 + 0 + 20 + 50


def test_U20_target_score_plays_hands_and_passes_the_deal_left():
    """Rule U-20 of docs/rules/uno.md."""
    r = UnoRules(target_score=150)
    replays = [cardsim.replay("uno", r, players=3, seed=2, game=g, policy="greedy") for g in range(6)]
    assert all(t.record["points"] >= 150 and t.record["winner"] >= 0 for t in replays)
    long = next(t for t in replays if t.record["hands"] >= 2)
    starters = long.events[long.events.action == "starter"]
    assert starters.groupby("hand").seat.last().tolist()[:2] == [0, 1]  # the dealers of hands 0 and 1
    df = cardsim.simulate("uno", r, players=3, seed=2, games=6, policy="greedy")
    assert df.points.tolist() == [t.record["points"] for t in replays]


def test_U21_truncation_after_max_turns():
    """Rule U-21 of docs/rules/uno.md."""
    df = cardsim.simulate("uno", UnoRules(max_turns=5), players=4, games=20, seed=1, engine="reference")
    assert df.truncated.all() and (df.turns == 5).all() and (df.winner == -1).all() and (df.points == 0).all()
    vec = cardsim.simulate("uno", UnoRules(max_turns=5), players=4, games=20, seed=1)
    assert vec.equals(df)


def test_U14_challenge_counts_in_the_record():
    """Rule U-14 of docs/rules/uno.md."""
    df = cardsim.simulate("uno", None, players=4, games=200, seed=3, policy="random(bluff=0.5, challenge=1)")
    assert (df.challenges >= df.successful_challenges).all() and df.successful_challenges.sum() > 0
    assert np.all(df.challenges >= 0)
