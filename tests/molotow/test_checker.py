"""The independent checker (checker.py, written from docs/rules/molotow.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
from collections import Counter

import pytest

import cardsim

from .checker import check, suit
from replay_reading import CheckError

CELLS = [(preset, r.players) for preset, r in cardsim.presets("molotow").items()]
VARIANTS = [("molotow(undertrump='allowed', big_hand='one_each', last_trick_bonus=8, hands=3)", 4),
            ("molotow(max_turns=50)", 4), ("mittlere(max_turns=77)", 3)]


@pytest.mark.parametrize("rules, players, games", [(*c, 100) for c in CELLS] + [(*v, 10) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, players, games):
    """A few hundred games of each preset (both policies) pass the checker."""
    knobs = cardsim.rules("molotow", rules).to_dict()
    actions = Counter()
    for policy in ("random", "greedy"):
        for game in range(games):
            t = cardsim.replay("molotow", rules, players=players, seed=21, game=game, policy=policy)
            check(t.events, t.record, knobs, players)
            actions.update(t.events.action)
    assert {"deal", "play", "trump", "take", "score", "final"} <= set(actions)
    assert "truncated" in actions or "max_turns" not in rules


def test_three_way_ties_are_drawn_and_pass_the_checker():
    """MJ-15: hands with a three-way tie (found among many games) pass, with their tie draws."""
    knobs = cardsim.rules("molotow", "molotow").to_dict()
    df = cardsim.simulate("molotow", "molotow", players=4, games=1000, seed=21, policy="greedy")  # about 1 in 500
    games = df.game[df.hands_tie3 > 0].head(3).tolist()
    assert games
    for game in games:
        t = cardsim.replay("molotow", "molotow", players=4, seed=21, game=game, policy="greedy")
        assert (t.events.action == "tie_draw").any()
        check(t.events, t.record, knobs, 4)


# ---------------------------------------------------------------- tampered events are caught

def game(index=0, rules="molotow", players=4):
    t = cardsim.replay("molotow", rules, players=players, seed=21, game=index)
    return t.events.copy(), dict(t.record), cardsim.rules("molotow", rules).to_dict(), players


def fails(events, record, knobs, players, message):
    with pytest.raises(CheckError, match=message):
        check(events, record, knobs, players)


def test_the_untampered_game_passes():
    check(*game())


def test_a_duplicated_card_is_caught():
    events, record, knobs, players = game()
    seat0, seat1 = (events.cards[i].split() for i in (0, 1))
    events.loc[1, "cards"] = " ".join([seat0[0], *seat1[1:]])
    fails(events, record, knobs, players, "cards lost or duplicated")


def test_an_illegal_card_is_caught():
    """MJ-7: a card of another suit swapped in for a card that followed suit in the first trick."""
    events, record, knobs, players = game()
    plays = events.index[events.action == "play"][:4]
    led = suit(events.cards[plays[0]])
    for i in plays[1:]:
        dealt = events.cards[(events.action == "deal") & (events.seat == events.seat[i])].iloc[0].split()
        other = [c for c in dealt if suit(c) != led]
        if suit(events.cards[i]) == led and other:
            events.loc[i, "cards"] = other[0]
            return fails(events, record, knobs, players, f"{other[0]} may not be played")
    pytest.fail("nobody followed suit in the first trick")


def test_a_trick_given_to_the_wrong_seat_is_caught():
    events, record, knobs, players = game()
    take = events.index[events.action == "take"][0]
    events.loc[take, "seat"] = (events.seat[take] + 1) % players
    fails(events, record, knobs, players, "expected seat")


def test_a_wrong_decision_count_or_score_is_caught():
    events, record, knobs, players = game()
    record["turns"] -= 1
    fails(events, record, knobs, players, "record turns")
    events, record, knobs, players = game()
    score = events.index[events.action == "score"][0]
    events.loc[score, "sticks"] += 1
    fails(events, record, knobs, players, "column sticks")
    events, record, knobs, players = game()
    record["potatoes_2"] += 1
    fails(events, record, knobs, players, "record potatoes_2")
