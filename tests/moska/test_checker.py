"""The independent checker (checker.py, written from docs/rules/moska.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
from collections import Counter

import pytest

import cardsim

from .checker import check
from replay_reading import CheckError

PRESETS = tuple(cardsim.presets("moska"))
VARIANTS = ("moska(excess_return='last', cap_mode='unkilled')", "taraki(cap_mode='unkilled', attack_cap=None)",
            "turamoska(excess_return='attacker', hand_size=7)", "taraki(max_turns=40)")
SEEN = {"moska": {"swap", "give_back", "take_back", "add", "pick_up", "out", "lose"}, "taraki": {"self_attack"},
        VARIANTS[0]: {"take_back"}, VARIANTS[3]: {"truncated"}}


@pytest.mark.parametrize("rules, games", [(p, 35) for p in PRESETS] + [(v, 8) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, games):
    """A few hundred games of each preset (both policies; 2, 4 and 6 players) pass the checker."""
    knobs = cardsim.rules("moska", rules).to_dict()
    actions = Counter()
    for players in (2, 4, 6):
        for policy in ("random", "greedy"):
            for game in range(games):
                t = cardsim.replay("moska", rules, players=players, seed=4, game=game, policy=policy)
                check(t.events, t.record, knobs, players)
                actions.update(t.events.action)
    assert SEEN.get(rules, set()) <= set(actions)


def test_a_partial_take_back_of_the_last_over_player_passes_the_checker():
    """M-12 with excess_return='last': the one adder who takes back part of their cards chooses (a rare game)."""
    rules = "moska(excess_return='last')"
    t = cardsim.replay("moska", rules, players=5, seed=4, game=125, policy="random")
    assert (t.events.action == "give_back").any()
    check(t.events, t.record, cardsim.rules("moska", rules).to_dict(), 5)


# ---------------------------------------------------------------- tampered events are caught

def game(index=0, rules="moska", players=4):
    t = cardsim.replay("moska", rules, players=players, seed=4, game=index)
    return t.events.copy(), dict(t.record), cardsim.rules("moska", rules).to_dict(), players


def fails(events, record, knobs, players, message):
    with pytest.raises(CheckError, match=message):
        check(events, record, knobs, players)


def test_the_untampered_game_passes():
    check(*game())


def test_a_duplicated_card_is_caught():
    events, record, knobs, players = game()
    seat0, seat1 = (events.cards[i].split() for i in (0, 1))
    events.loc[1, "cards"] = " ".join([seat0[0], *seat1[1:]])
    fails(events, record, knobs, players, f"{seat0[0]} is not in the deck")


def test_an_illegal_kill_is_caught():
    """M-10: a killer swapped for the 2 of the attack card's suit (lower than any card it could kill)."""
    events, record, knobs, players = game()
    kill = events.index[(events.action == "kill") & (events.cards != "") & (events.on.str[1] != "2")][0]
    two = events.on[kill][0] + "2"
    events.loc[kill, "cards"] = two
    fails(events, record, knobs, players, f"{two} does not kill|{two} is not in")


def test_an_addition_of_a_rank_not_on_the_table_is_caught():
    """M-11: an added card swapped for a card of the adder's hand of another rank."""
    events, record, knobs, players = game(rules="taraki")
    for i in events.index[(events.action == "add") & (events.cards != "")]:
        ranks = {c[1] for c in events.cards[i].split()}
        dealt = events.cards[(events.action == "deal") & (events.seat == events.seat[i])].iloc[0].split()
        other = [c for c in dealt if c[1] not in ranks]
        if other:
            events.loc[i, "cards"] = other[0]
            return fails(events, record, knobs, players, "allowed ranks|is not in")
    pytest.fail("no addition")


def test_a_missing_decision_is_caught():
    """A seat that 'adds nothing' left out of an addition step: the decisions no longer add up."""
    events, record, knobs, players = game()
    nothing = events.index[(events.action == "add") & (events.cards == "")][0]
    events = events.drop(index=nothing).reset_index(drop=True)
    later = events.index >= nothing
    events.loc[later & events.decision.notna(), "decision"] -= 1
    fails(events, record, knobs, players, "expected add")


def test_a_wrong_decision_count_or_loser_is_caught():
    events, record, knobs, players = game()
    record["turns"] += 1
    fails(events, record, knobs, players, "record turns")
    events, record, knobs, players = game()
    record["loser"] = (record["loser"] + 1) % players
    fails(events, record, knobs, players, "record loser")
    events, record, knobs, players = game()
    first_round = events.index[events.action == "round"][0]
    events.loc[first_round, "target"] = 3
    fails(events, record, knobs, players, "the next seat in is 2")
