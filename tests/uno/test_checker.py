"""The independent checker (checker.py, written from docs/rules/uno.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
from collections import Counter

import pytest

import cardsim

from .checker import check, colour, symbol
from replay_reading import CheckError

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


def replays(rules, games_per_cell, players=(2, 4, 10), policies=("random", "greedy")):
    for n in players:
        for policy in policies:
            for game in range(games_per_cell):
                yield n, cardsim.replay("uno", rules, players=n, seed=13, game=game, policy=policy)


@pytest.mark.parametrize("rules, games", [(p, 40) for p in PRESETS] + [(v, 10) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, games):
    """A few hundred games of each preset (both policies, 2, 4 and 10 players) pass the checker."""
    knobs = cardsim.rules("uno", rules).to_dict()
    actions = Counter()
    for players, t in replays(rules, games):
        check(t.events, t.record, knobs, players)
        actions.update(t.events.action)
    assert SEEN.get(rules, set()) <= set(actions)


def test_a_mixed_table_and_a_match_pass_the_checker():
    knobs = cardsim.rules("uno", "official(target_score=100)").to_dict()
    for game in range(10):
        t = cardsim.replay("uno", "official(target_score=100)", players=3, seed=5, game=game,
                           policy=["greedy(bluff=0.5, challenge=1)", "random(bluff=1)", "random(challenge=0.5)"])
        check(t.events, t.record, knobs, 3)


# ---------------------------------------------------------------- tampered events are caught

def game(index=0, rules="official", players=4):
    t = cardsim.replay("uno", rules, players=players, seed=13, game=index)
    return t.events.copy(), dict(t.record), cardsim.rules("uno", rules).to_dict(), players


def fails(events, record, knobs, players, message):
    with pytest.raises(CheckError, match=message):
        check(events, record, knobs, players)


def test_the_untampered_game_passes():
    check(*game())


def test_a_duplicated_card_is_caught():
    """The single R0/Y0/G0/B0 of a deal given to a second seat as well."""
    for index in range(50):
        events, record, knobs, players = game(index)
        deals = events.index[events.action == "deal"]
        zero = next((c for c in events.cards[deals[1]].split() if c[1:] == "0"), None)
        if zero:
            first = events.cards[deals[0]].split()
            events.loc[deals[0], "cards"] = " ".join([zero, *first[1:]])
            return fails(events, record, knobs, players, f"{zero} is not in the draw pile")
    pytest.fail("no deal with a 0 card in 50 games")


def test_an_illegal_play_is_caught():
    """The first play of a game swapped for a card of the same hand that matches neither colour nor symbol."""
    for index in range(50):
        events, record, knobs, players = game(index)
        first = events.index[events.decision.notna()][0]
        if events.action[first] != "play" or events.cards[first] in ("W", "W+4", "SH", "CW"):
            continue
        top = events.top[first - 1]
        hand = events.cards[(events.action == "deal") & (events.seat == events.seat[first])].iloc[0].split()
        wrong = [c for c in hand if colour(c) and colour(c) != colour(top) and symbol(c) != symbol(top)]
        if wrong:
            events.loc[first, "cards"] = wrong[0]
            return fails(events, record, knobs, players, f"{wrong[0]} may not be played on {top}")
    pytest.fail("no suitable first play in 50 games")


def test_a_lost_card_is_caught():
    events, record, knobs, players = game()
    penalty = events.index[events.action.isin(["penalty", "draw"])][0]
    events = events.drop(index=penalty).reset_index(drop=True)
    fails(events, record, knobs, players, "column hand_sizes|expected|drew")


def test_a_wrong_decision_count_is_caught():
    events, record, knobs, players = game()
    record["turns"] += 1
    fails(events, record, knobs, players, "record turns")
    events, record, knobs, players = game()
    later = events.decision.notna() & (events.decision >= 5)
    events.loc[later, "decision"] += 1  # a decision number skipped
    fails(events, record, knobs, players, "expected decision number 5, found 6")


def test_a_wrong_state_column_is_caught():
    events, record, knobs, players = game()
    events.loc[10, "stock"] += 1
    fails(events, record, knobs, players, "column stock")
