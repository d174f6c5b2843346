"""The independent checker (checker.py, written from docs/rules/uno.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
import pytest

import cardsim

from .checker import check, colour, symbol
from checking import Checker, dealt

PRESETS = tuple(cardsim.presets("uno"))
VARIANTS = ("deck_2018(custom_wild='swap_hands')", "deck_2018(custom_wild='everyone_draws_one', stack_draw_two=True)",
            "official(wd4_challenge=False)", "official(target_score=200)", "official(max_turns=30)")
SEEN = {  # actions each run must contain, so that the check covers the rules they stand for
    "official": {"reshuffle", "challenge", "no_challenge", "penalty", "draw", "colour"},
    "stacking": {"no_stack"},
    "deck_2018": {"shuffle"},
    "draw_until_playable": {"draw"},
    VARIANTS[0]: {"swap"},
    VARIANTS[4]: {"truncated"},
}
CHECKER = Checker("uno", check, seed=13, rules="official")


@pytest.mark.parametrize("rules, games", [(p, 40) for p in PRESETS] + [(v, 10) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, games):
    """A few hundred games of each preset (both policies, 2, 4 and 10 players) pass the checker."""
    actions = CHECKER.actions(rules, games, players=(2, 4, 10))
    assert SEEN.get(rules, set()) <= set(actions)


def test_a_mixed_table_and_a_match_pass_the_checker():
    knobs = cardsim.rules("uno", "official(target_score=100)").to_dict()
    for game in range(10):
        t = cardsim.replay("uno", "official(target_score=100)", players=3, seed=5, game=game,
                           policy=["greedy(bluff=0.5, challenge=1)", "random(bluff=1)", "random(challenge=0.5)"])
        check(t.events, t.record, knobs, 3)


# ---------------------------------------------------------------- tampered events are caught

def test_the_untampered_game_passes():
    CHECKER.tamper().passes()


def test_a_duplicated_card_is_caught():
    """The single R0/Y0/G0/B0 of a deal given to a second seat as well."""
    for index in range(50):
        g = CHECKER.tamper(index)
        events = g.events
        deals = events.index[events.action == "deal"]
        zero = next((c for c in events.cards[deals[1]].split() if c[1:] == "0"), None)
        if zero:
            first = events.cards[deals[0]].split()
            events.loc[deals[0], "cards"] = " ".join([zero, *first[1:]])
            return g.fails(f"{zero} is not in the draw pile")
    pytest.fail("no deal with a 0 card in 50 games")


def test_an_illegal_play_is_caught():
    """The first play of a game swapped for a card of the same hand that matches neither colour nor symbol."""
    for index in range(50):
        g = CHECKER.tamper(index)
        events = g.events
        first = events.index[events.decision.notna()][0]
        if events.action[first] != "play" or events.cards[first] in ("W", "W+4", "SH", "CW"):
            continue
        top = events.top[first - 1]
        wrong = [c for c in dealt(events, events.seat[first])
                 if colour(c) and colour(c) != colour(top) and symbol(c) != symbol(top)]
        if wrong:
            events.loc[first, "cards"] = wrong[0]
            return g.fails(f"{wrong[0]} may not be played on {top}")
    pytest.fail("no suitable first play in 50 games")


def test_a_lost_card_is_caught():
    g = CHECKER.tamper()
    penalty = g.events.index[g.events.action.isin(["penalty", "draw"])][0]
    g.events = g.events.drop(index=penalty).reset_index(drop=True)
    g.fails("column hand_sizes|expected|drew")


def test_a_wrong_decision_count_is_caught():
    CHECKER.wrong_record_is_caught("turns")
    g = CHECKER.tamper()
    later = g.events.decision.notna() & (g.events.decision >= 5)
    g.events.loc[later, "decision"] += 1  # a decision number skipped
    g.fails("expected decision number 5, found 6")


def test_a_wrong_state_column_is_caught():
    g = CHECKER.tamper()
    g.events.loc[10, "stock"] += 1
    g.fails("column stock")
