"""The Moska policies do what their docstrings say, draw by draw (the compiled twin relies on it)."""
import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardsim.core import rng
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.cards import cards_of, count
from cardsim.games.moska import reference as R
from cardsim.games.moska.policies import GreedyPolicy, RandomPolicy, View, make_policy

HEARTS = 2


def view(hand, turn=0, trump=HEARTS, stock_left=10, room=6, key=12345):
    return View(key=key, turn=turn, seat=1, hand=F.hand(hand) if isinstance(hand, str) else hand, trump=trump,
                stock_left=stock_left, room=room)


def d(v, k):
    return rng.draw(v.key, rng.Stream.POLICY, v.turn, k)


def test_a_policy_sees_only_its_own_hand_and_the_public_table():
    """``random`` and ``greedy`` read these fields only; ``game`` is for ``mc``, which hands it to the compiled
    search (test_mc: that search reads only the seat's view); it takes no part in comparisons."""
    assert [f.name for f in dataclasses.fields(View)] == ["key", "turn", "seat", "hand", "trump", "stock_left",
                                                          "room", "game"]
    assert not {f.name: f for f in dataclasses.fields(View)}["game"].compare


@given(st.integers(1, 2**52 - 1), st.integers(0, 10_000), st.integers(1, 8))
def test_random_open_follows_its_specification(hand, turn, room):
    v = view(hand, turn, room=room)
    got = RandomPolicy().open(v)
    assert R.is_legal_opening(got, hand, room)
    groups = [r for r in range(13) if count(hand & F.rank_mask(r)) >= 2]
    if groups and room >= 2 and rng.below(d(v, 0), 2) == 0:
        r0 = groups[rng.below(d(v, 1), len(groups))]
        assert got & F.rank_mask(r0)
        for r in groups:
            if r != r0 and rng.below(d(v, 2 + r), 2) == 1:
                assert not got & F.rank_mask(r)
    else:
        assert got == 1 << list(cards_of(hand))[rng.below(d(v, 1), count(hand))]


def test_random_kills_three_times_in_four_with_a_drawn_killer():
    a, killers = F.parse("♠6"), F.hand("♠7 ♠9 ♥2")
    picks = [RandomPolicy().kill(view("", turn=t), a, killers) for t in range(4000)]
    assert abs(picks.count(-1) / 4000 - 0.25) < 0.03
    for t in range(50):
        v = view("", turn=t)
        if rng.below(d(v, a), 4) != 0:
            assert picks[t] == list(cards_of(killers))[rng.below(d(v, 64 + a), 3)]


def test_random_self_attack_and_add_and_give_back_use_their_draws():
    v = view("", turn=7)
    c, ks = F.parse("♦7"), F.hand("♦9 ♦J")
    expected = -1 if rng.below(d(v, 128 + c), 2) else list(cards_of(ks))[rng.below(d(v, 192 + c), 2)]
    assert RandomPolicy().self_attack(v, c, ks) == expected
    cands = F.hand("♣6 ♦6 ♥6 ♠6 ♣9")
    for room in (1, 2, 6):
        chosen, want = RandomPolicy().add(v, cands, room), 0
        for card in cards_of(cands):
            if count(want) < room and rng.below(d(v, card), 2) == 0:
                want |= 1 << card
        assert chosen == want and count(chosen) <= room
    back = RandomPolicy().give_back(v, cands, 2)
    assert count(back) == 2 and sorted(cards_of(back)) == sorted(sorted(cards_of(cands),
                                                                        key=lambda k: (d(v, k), k))[:2])


@pytest.mark.parametrize("hand, room, opening", [
    ("♣3 ♦3 ♠9 ♥2 ♥4 ♣Q ♦Q", 6, "♣3 ♦3"),  # low non-trump group; the Q pair is kept
    ("♣3 ♦3 ♠3 ♣5 ♦5 ♥7", 4, "♣3 ♦3 ♠3"),  # groups in ascending rank while they fit (5-5 would be 5)
    ("♣3 ♦3 ♣5 ♦5", 4, "♣3 ♦3 ♣5 ♦5"),
    ("♣3 ♦3 ♠7", 1, "♣3"),  # no room for a group: the lowest non-trump
    ("♣Q ♦Q ♠5 ♥2", 6, "♠5"),
    ("♥9 ♥3", 6, "♥3"),  # only trumps: the lowest
])
def test_greedy_opens_low_non_trump_groups(hand, room, opening):
    assert GreedyPolicy().open(view(hand, room=room)) == F.hand(opening)


def test_greedy_kills_cheaply_and_keeps_high_trumps_while_the_stock_lasts():
    g = GreedyPolicy()
    assert g.kill(view(""), F.parse("♠6"), F.hand("♠9 ♠7 ♥2")) == F.parse("♠7")
    assert g.kill(view(""), F.parse("♠6"), F.hand("♥4 ♥Q")) == F.parse("♥4")
    assert g.kill(view(""), F.parse("♠6"), F.hand("♥J ♥Q")) == -1
    assert g.kill(view("", stock_left=0), F.parse("♠6"), F.hand("♥J ♥Q")) == F.parse("♥J")
    assert g.kill(view(""), F.parse("♥6"), F.hand("♥J ♥Q")) == F.parse("♥J")  # a trump attack is killed
    assert g.self_attack(view(""), F.parse("♦7"), F.hand("♦9 ♥2")) == F.parse("♦9")
    assert g.self_attack(view(""), F.parse("♦7"), F.hand("♥2")) == -1
    assert g.self_attack(view(""), F.parse("♥7"), F.hand("♥9")) == -1


def test_greedy_adds_low_non_trumps_and_sends_back_its_highest_cards():
    g, cands = GreedyPolicy(), F.hand("♣6 ♥6 ♠6 ♣Q ♦Q ♥Q")
    assert g.add(view(""), cands, 6) == F.hand("♣6 ♠6")
    assert g.add(view("", stock_left=0), cands, 6) == F.hand("♣6 ♠6 ♣Q ♦Q")
    assert g.add(view("", stock_left=0), cands, 3) == F.hand("♣6 ♣Q ♦Q")  # lowest codes
    assert g.give_back(view(""), cands, 2) == F.hand("♥Q ♥6")  # trumps first
    assert g.give_back(view(""), F.hand("♣6 ♠6 ♣Q ♦Q"), 2) == F.hand("♦Q ♣Q")


def test_policy_strings():
    assert isinstance(make_policy("random"), RandomPolicy) and isinstance(make_policy("greedy()"), GreedyPolicy)
    with pytest.raises(ValueError, match="unknown moska policy 'smart'; known policies: random, greedy"):
        make_policy("smart")
    with pytest.raises(ValueError, match="moska policy 'greedy' takes no parameters but forbid, got bluff"):
        make_policy("greedy(bluff=0.1)")
