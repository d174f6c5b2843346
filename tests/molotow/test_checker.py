"""The independent checker (checker.py, written from docs/rules/molotow.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
import pytest

import cardsim

from .checker import check, suit
from checking import Checker, dealt

CELLS = [(preset, r.players) for preset, r in cardsim.presets("molotow").items()]
VARIANTS = [("molotow(undertrump='allowed', big_hand='one_each', last_trick_bonus=8, hands=3)", 4),
            ("molotow(max_turns=50)", 4), ("mittlere(max_turns=77)", 3)]
CHECKER = Checker("molotow", check, seed=21, rules="molotow")


@pytest.mark.parametrize("rules, players, games", [(*c, 100) for c in CELLS] + [(*v, 10) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, players, games):
    """A few hundred games of each preset (both policies) pass the checker."""
    actions = CHECKER.actions(rules, games, players=(players,))
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

def test_the_untampered_game_passes():
    CHECKER.tamper().passes()


def test_a_duplicated_card_is_caught():
    CHECKER.duplicated_card_is_caught("cards lost or duplicated")


def test_an_illegal_card_is_caught():
    """MJ-7: a card of another suit swapped in for a card that followed suit in the first trick."""
    g = CHECKER.tamper()
    events = g.events
    plays = events.index[events.action == "play"][:4]
    led = suit(events.cards[plays[0]])
    for i in plays[1:]:
        other = [c for c in dealt(events, events.seat[i]) if suit(c) != led]
        if suit(events.cards[i]) == led and other:
            events.loc[i, "cards"] = other[0]
            return g.fails(f"{other[0]} may not be played")
    pytest.fail("nobody followed suit in the first trick")


def test_a_trick_given_to_the_wrong_seat_is_caught():
    CHECKER.wrong_seat_is_caught("take")


def test_a_wrong_decision_count_or_score_is_caught():
    CHECKER.wrong_record_is_caught("turns", -1)
    g = CHECKER.tamper()
    score = g.events.index[g.events.action == "score"][0]
    g.events.loc[score, "sticks"] += 1
    g.fails("column sticks")
    CHECKER.wrong_record_is_caught("potatoes_2")
