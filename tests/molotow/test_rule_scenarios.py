"""One scenario per rule of docs/rules/molotow.md (MJ-1…MJ-19): a hand-built position, the rule, the outcome."""
import numpy as np
import pytest

import cardsim
from cardsim.core import rng
from cardsim.core.cards import count, mask_of
from cardsim.games.molotow import compiled, hands_table
from cardsim.games.molotow.cards import DECK, NO_TRUMP, beats, points
from cardsim.games.molotow.reference import (Decision, best_card, deal, hand_points, legal_moves, play_game,
                                             score_hand, sets_trump, tie_draw)
from cardsim.games.molotow.rules import MolotowRules

from .states import compiled_score, position_state

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SEED = MolotowRules()
SWISS = MolotowRules.preset("swiss")
BIG_HAND = [SEED, SEED.replace(big_hand="one_each")]


def C(name: str) -> int:
    return DECK.parse(name)


def H(names: str) -> int:
    return DECK.hand(names)


def T(names: str) -> list[int]:
    return [C(n) for n in names.split()]


def legal(hand: str, trick: str, trump: int, undertrump: str = "seed") -> int:
    """Legal cards by the reference engine, checked against the compiled engine's twin."""
    mask = legal_moves(H(hand), T(trick), trump, undertrump)
    st, params = position_state(H(hand), T(trick), trump, undertrump)
    assert int(compiled.legal_cards(st[0], params)) == mask
    return mask


def never_scored(rules, pts):
    raise AssertionError("no three-way tie expected")


def both_engines_score(pts, rules, hand_no=0, key=12345):
    """score_hand of the reference (with the keyed tie draw) and of the compiled engine agree; returns the former."""
    got, lost = score_hand(pts, rules, lambda tied: tie_draw(key, hand_no, tied)[0])
    assert compiled_score(pts, rules, key, hand_no)[:2] == (got, lost)
    return got, lost


# ----------------------------------------------------------------------------- cards and players

def test_MJ1_four_players_nine_cards_or_three_players_twelve():
    """Rule MJ-1 of docs/rules/molotow.md."""
    assert DECK.size == 36
    for n, each in ((4, 9), (3, 12)):
        hands = deal(rng.game_key(1, 2), 0, n)
        assert [count(h) for h in hands] == [each] * n
        assert mask_of(c for h in hands for c in range(36) if h >> c & 1) == DECK.full
    assert MolotowRules.preset("mittlere").players == 3
    with pytest.raises(ValueError, match="molotow rules are for 4 players .*mittlere or players=3"):
        cardsim.simulate("molotow", "molotow", players=3)
    with pytest.raises(ValueError, match="players"):
        MolotowRules(players=5)


def test_MJ2_plain_order_and_points():
    """Rule MJ-2 of docs/rules/molotow.md."""
    order = T("♠A ♠K ♠O ♠U ♠10 ♠9 ♠8 ♠7 ♠6")
    for high, low in zip(order, order[1:]):
        assert beats(high, low, NO_TRUMP) and not beats(low, high, NO_TRUMP)
        assert beats(high, low, HEARTS)
    assert [points(c, HEARTS) for c in order] == [11, 4, 3, 2, 10, 0, 0, 0, 0]


def test_MJ3_trump_order_and_points():
    """Rule MJ-3 of docs/rules/molotow.md."""
    order = T("♥U ♥9 ♥A ♥K ♥O ♥10 ♥8 ♥7 ♥6")
    for high, low in zip(order, order[1:]):
        assert beats(high, low, HEARTS) and not beats(low, high, HEARTS)
    assert [points(c, HEARTS) for c in order] == [20, 14, 11, 4, 3, 10, 0, 0, 0]


def test_MJ4_trumpless_eights_last_trick_and_final_trump_valuation():
    """Rule MJ-4 of docs/rules/molotow.md."""
    everything = [DECK.full, 0, 0, 0]
    assert hand_points(everything, NO_TRUMP, 0, 5) == [157, 0, 0, 0]
    assert points(C("♣8"), NO_TRUMP) == 8 and points(C("♣8"), CLUBS) == 0
    # [decision] cards taken before trump was set are valued under the final trump
    taken = [H("♥U ♥9"), H("♠8"), 0, 0]
    assert hand_points(taken, HEARTS, 1, 5) == [34, 5, 0, 0]
    assert hand_points(taken, NO_TRUMP, 1, 5) == [2, 13, 0, 0]
    for t in range(5):
        assert sum(hand_points([DECK.full >> 18, DECK.full & ~(DECK.full >> 18), 0], t, 2, 5)) == 157


# ----------------------------------------------------------------------------- deal and play

def test_MJ5_packets_of_three_counter_clockwise_deal_passes_right():
    """Rule MJ-5 of docs/rules/molotow.md."""
    key = rng.game_key(3, 4)
    for h in (0, 1, 5):
        order = rng.permutation(key, rng.Stream.DEAL, 36, h)
        hands = deal(key, h, 4)
        dealer = h % 4
        assert hands[(dealer + 1) % 4] >> order[0] & 1 and hands[(dealer + 1) % 4] >> order[2] & 1
        assert hands[(dealer + 2) % 4] >> order[3] & 1 and hands[dealer] >> order[11] & 1
        assert hands[(dealer + 1) % 4] >> order[12] & 1
    table = hands_table(SEED, seed=3, games=1)
    assert table.dealer.tolist() == [h % 4 for h in range(12)]


def test_MJ6_dealers_right_leads_first_then_the_trick_winner():
    """Rule MJ-6 of docs/rules/molotow.md."""
    log: list[Decision] = []
    game = play_game(SEED, 4, 9, 0, ("greedy",) * 4, log)
    assert [d.seat for d in log if d.turn % 36 == 0] == [(h + 1) % 4 for h in range(12)]
    leads = [d for d in log if d.trick == () and d.turn % 36]
    assert len(leads) == 12 * 8
    for d in leads:  # d.trump: the trump state after the previous trick, as MJ-12 needs it
        previous = log[d.turn - 4:d.turn]
        trick = [p.card for p in previous]
        assert d.seat == previous[trick.index(best_card(trick, d.trump))].seat
    assert legal("♠6 ♥A ♦U", "", HEARTS) == H("♠6 ♥A ♦U")
    assert game.record["turns"] == 12 * 36


def test_MJ7_follow_suit_if_able_else_any_card():
    """Rule MJ-7 of docs/rules/molotow.md."""
    assert legal("♠6 ♠A ♥7 ♦9", "♠K", NO_TRUMP) == H("♠6 ♠A")
    assert legal("♥7 ♦9 ♣6", "♠K", NO_TRUMP) == H("♥7 ♦9 ♣6")
    assert legal("♠6 ♥7 ♦9", "♦K", DIAMONDS) == H("♦9")  # trump led: follow with a trump


def test_MJ8_first_off_suit_card_sets_trump_and_counts_as_trump_in_its_trick():
    """Rule MJ-8 of docs/rules/molotow.md."""
    trick = T("♠K")
    assert sets_trump(C("♥6"), trick, NO_TRUMP)
    assert not sets_trump(C("♠6"), trick, NO_TRUMP) and not sets_trump(C("♥6"), trick, CLUBS)
    assert not sets_trump(C("♥6"), [], NO_TRUMP)  # a lead never sets trump
    # ♥6 set trump in this trick: it beats the led ♠A, and the next player faces MJ-10
    assert best_card(T("♠K ♥6 ♠A"), HEARTS) == C("♥6")
    assert legal("♥7 ♣A ♣6", "♠K ♥6", HEARTS) == H("♥7")
    st, params = position_state(H("♥6 ♣A"), T("♠K"), NO_TRUMP, leader=1, trick_no=3)  # seat 2 to play
    compiled.apply(st[0], params, C("♥6"))
    s = st[0]
    assert (s["trump"], s["trump_trick"], s["setter"], s["best"], s["best_seat"]) == (HEARTS, 3, 2, C("♥6"), 2)


def test_MJ9_trump_allowed_even_when_able_to_follow():
    """Rule MJ-9 of docs/rules/molotow.md."""
    assert legal("♠6 ♠A ♥7 ♦9", "♠K", HEARTS) == H("♠6 ♠A ♥7")


@pytest.mark.parametrize("undertrump, can_follow, cannot_follow, only_trumps", [
    ("seed", "♠6 ♦9", "♦6", "♦6 ♦7"),
    ("forbidden", "♠6 ♦9", "♥7 ♥A", "♦6 ♦7"),
    ("allowed", "♠6 ♦6 ♦9", "♦6 ♥7 ♥A", "♦6 ♦7"),
])
def test_MJ10_undertrump_three_readings(undertrump, can_follow, cannot_follow, only_trumps):
    """Rule MJ-10 of docs/rules/molotow.md."""
    trick = "♠K ♦10"  # spades led, trump diamonds, a trump already in the trick
    assert legal("♠6 ♦6 ♦9 ♥A", trick, DIAMONDS, undertrump) == H(can_follow)
    assert legal("♦6 ♥7 ♥A", trick, DIAMONDS, undertrump) == H(cannot_follow)
    assert legal("♦6 ♦7", trick, DIAMONDS, undertrump) == H(only_trumps)
    assert legal("♥7 ♥A", trick, DIAMONDS, undertrump) == H("♥7 ♥A")  # no trump, no suit: anything
    assert legal("♠6 ♦6 ♥A", "♠K ♠A", DIAMONDS, undertrump) == H("♠6 ♦6")  # no trump in the trick yet


def test_MJ11_the_buur_is_never_forced():
    """Rule MJ-11 of docs/rules/molotow.md."""
    assert legal("♦U ♠6 ♥7", "♦K", DIAMONDS) == H("♠6 ♦U ♥7")               # only trump: keep it back
    assert legal("♦U ♦6 ♠6", "♦K", DIAMONDS) == H("♦6 ♦U")                  # other trumps must follow
    assert legal("♦U ♦6 ♥A", "♠K ♦9", DIAMONDS) == H("♦6 ♦U")               # not forced to overtrump
    assert legal("♦U ♥A ♥7", "♠K ♦9", DIAMONDS) == H("♥7 ♥A ♦U")            # nor its only legal card
    assert legal("♦U", "♠K ♦9", DIAMONDS) == H("♦U")                        # a last card is a last card
    assert legal("♦U ♠6 ♥7", "♦K", DIAMONDS, "forbidden") == H("♠6 ♦U ♥7")


def test_MJ12_highest_trump_else_highest_of_led_suit():
    """Rule MJ-12 of docs/rules/molotow.md."""
    assert best_card(T("♠10 ♠U ♥A ♠9"), CLUBS) == C("♠U")              # U above 10 in plain order
    assert best_card(T("♠10 ♥A ♣6 ♠A"), CLUBS) == C("♣6")
    assert best_card(T("♠10 ♣6 ♣U ♣9"), CLUBS) == C("♣U")
    assert best_card(T("♠10 ♥A ♦A"), NO_TRUMP) == C("♠10")


# ----------------------------------------------------------------------------- scoring

@pytest.mark.parametrize("rules", BIG_HAND)
def test_MJ13_single_highest_and_lowest_stick_middle_two_potato(rules):
    """Rule MJ-13 of docs/rules/molotow.md."""
    assert both_engines_score([40, 30, 50, 37], rules) == ([0, 1, 1, 0], [1, 0, 0, 1])
    assert both_engines_score([40, 30, 47, 40], rules) == ([0, 1, 1, 0], [1, 0, 0, 1])  # tied middle


@pytest.mark.parametrize("rules", BIG_HAND)
def test_MJ14_ties_for_highest_or_lowest(rules):
    """Rule MJ-14 of docs/rules/molotow.md."""
    assert both_engines_score([45, 45, 30, 37], rules) == ([0, 0, 1, 0], [0, 0, 0, 1])
    assert both_engines_score([60, 30, 30, 37], rules) == ([1, 0, 0, 0], [0, 0, 0, 1])
    even = rules.replace(last_trick_bonus=6)  # [decision] 2 + 2 (needs an even total): nobody scores
    assert both_engines_score([49, 49, 30, 30], even) == ([0] * 4, [0] * 4)


@pytest.mark.parametrize("rules", BIG_HAND)
def test_MJ15_three_way_tie_fourth_sticks_highest_draw_potatoes(rules):
    """Rule MJ-15 of docs/rules/molotow.md."""
    for pts, fourth in (([40, 39, 39, 39], 0), ([39, 39, 40, 39], 2), ([37, 40, 40, 40], 0)):
        tied = [s for s in range(4) if s != fourth]
        assert score_hand(pts, rules, lambda t: t[1]) == ([int(s == fourth) for s in range(4)],
                                                          [int(s == tied[1]) for s in range(4)])
        for key in range(30):
            seat, attempts = tie_draw(key, 3, tied)
            last = [c % 9 for c in attempts[-1]]
            assert last.count(max(last)) == 1 and seat == tied[last.index(max(last))]
            assert all(len(set(a)) == 3 for a in attempts)
            assert all([c % 9 for c in a].count(max(c % 9 for c in a)) > 1 for a in attempts[:-1])
            got, lost = both_engines_score(pts, rules, hand_no=3, key=key)
            assert lost == [int(s == seat) for s in range(4)] and got[fourth] == 1
    seats = np.array([compiled.tie_draw(np.uint64(k), 7, 0b1101) for k in range(2000)])
    assert seats.tolist() == [tie_draw(k, 7, [0, 2, 3])[0] for k in range(2000)]
    assert abs(np.mean(seats == 0) - 1 / 3) < 0.05


@pytest.mark.parametrize("rules", BIG_HAND)
def test_MJ16_100_to_156_points_three_potatoes(rules):
    """Rule MJ-16 of docs/rules/molotow.md."""
    others = 3 if rules.big_hand == "seed" else 1
    for pts in ([100, 20, 20, 17], [14, 156, 0, 0], [17, 20, 20, 100]):
        big = pts.index(max(pts))
        assert both_engines_score(pts, rules) == ([0 if s == big else others for s in range(4)],
                                                  [3 if s == big else 0 for s in range(4)])
    assert both_engines_score([99, 20, 20, 18], rules) == ([1, 0, 0, 1], [0, 1, 1, 0])


@pytest.mark.parametrize("rules", BIG_HAND)
def test_MJ17_all_157_points_three_sticks(rules):
    """Rule MJ-17 of docs/rules/molotow.md."""
    others = 3 if rules.big_hand == "seed" else 1
    assert both_engines_score([0, 0, 157, 0], rules) == ([0, 0, 3, 0], [others, others, 0, others])
    assert both_engines_score([0, 157, 0], rules.replace(players=3)) == ([0, 3, 0], [others, 0, others])


@pytest.mark.parametrize("rules", [r.replace(players=3) for r in BIG_HAND])
def test_MJ18_three_players(rules):
    """Rule MJ-18 of docs/rules/molotow.md."""
    others = 3 if rules.big_hand == "seed" else 1
    assert both_engines_score([60, 50, 47], rules) == ([1, 0, 1], [0, 1, 0])
    assert both_engines_score([60, 60, 37], rules) == ([0, 0, 1], [0, 0, 0])
    assert both_engines_score([77, 40, 40], rules) == ([1, 0, 0], [0, 0, 0])
    assert both_engines_score([27, 120, 10], rules) == ([others, 0, others], [0, 3, 0])
    bonus1 = rules.replace(last_trick_bonus=1)  # 153 points: a three-way tie scores nothing
    assert score_hand([51, 51, 51], bonus1, never_scored) == ([0, 0, 0], [0, 0, 0])
    assert both_engines_score([51, 51, 51], bonus1) == ([0, 0, 0], [0, 0, 0])


def test_MJ19_game_of_hands_score_is_sticks_minus_potatoes_shared_win():
    """Rule MJ-19 of docs/rules/molotow.md."""
    df = cardsim.simulate("molotow", SEED.replace(hands=5), players=4, games=200, seed=2, policy="greedy")
    assert (df.turns == 5 * 36).all()
    table = hands_table(SEED.replace(hands=5), seed=2, games=200, policy="greedy")
    assert len(table) == 5 * 200
    for s in range(4):
        assert (df[f"score_{s}"] == df[f"sticks_{s}"] - df[f"potatoes_{s}"]).all()
        assert (df[f"sticks_{s}"].values == table.groupby("game")[f"sticks_{s}"].sum().values).all()
    scores = df[[f"score_{s}" for s in range(4)]].to_numpy()
    best = scores == scores.max(axis=1, keepdims=True)
    assert (df.winners == (best * [1, 2, 4, 8]).sum(axis=1)).all()
    shared = best.sum(axis=1) > 1
    assert shared.any() and (df.winner[shared] == -1).all()
    assert (df.winner[~shared] == best[~shared].argmax(axis=1)).all()
