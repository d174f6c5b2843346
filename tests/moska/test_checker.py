"""The independent checker (checker.py, written from docs/rules/moska.md, importing nothing of
cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
import pytest

import cardsim

from .checker import check
from checking import Checker, dealt

PRESETS = tuple(cardsim.presets("moska"))
VARIANTS = ("moska(excess_return='last', cap_mode='unkilled')", "taraki(cap_mode='unkilled', attack_cap=None)",
            "turamoska(excess_return='attacker', hand_size=7)", "taraki(max_turns=40)")
SEEN = {"moska": {"swap", "give_back", "take_back", "add", "pick_up", "out", "lose"}, "taraki": {"self_attack"},
        VARIANTS[0]: {"take_back"}, VARIANTS[3]: {"truncated"}}
CHECKER = Checker("moska", check, seed=4, rules="moska")


@pytest.mark.parametrize("rules, games", [(p, 35) for p in PRESETS] + [(v, 8) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, games):
    """A few hundred games of each preset (both policies; 2, 4 and 6 players) pass the checker."""
    actions = CHECKER.actions(rules, games, players=(2, 4, 6))
    assert SEEN.get(rules, set()) <= set(actions)


def test_a_partial_take_back_of_the_last_over_player_passes_the_checker():
    """M-12 with excess_return='last': the one adder who takes back part of their cards chooses (a rare game)."""
    rules = "moska(excess_return='last')"
    t = cardsim.replay("moska", rules, players=5, seed=4, game=125, policy="random")
    assert (t.events.action == "give_back").any()
    check(t.events, t.record, cardsim.rules("moska", rules).to_dict(), 5)


# ---------------------------------------------------------------- tampered events are caught

def test_the_untampered_game_passes():
    CHECKER.tamper().passes()


def test_a_duplicated_card_is_caught():
    CHECKER.duplicated_card_is_caught("{card} is not in the deck")


def test_an_illegal_kill_is_caught():
    """M-10: a killer swapped for the 2 of the attack card's suit (lower than any card it could kill)."""
    g = CHECKER.tamper()
    events = g.events
    kill = events.index[(events.action == "kill") & (events.cards != "") & (events.on.str[1] != "2")][0]
    two = events.on[kill][0] + "2"
    events.loc[kill, "cards"] = two
    g.fails(f"{two} does not kill|{two} is not in")


def test_an_addition_of_a_rank_not_on_the_table_is_caught():
    """M-11: an added card swapped for a card of the adder's hand of another rank."""
    g = CHECKER.tamper(rules="taraki")
    events = g.events
    for i in events.index[(events.action == "add") & (events.cards != "")]:
        ranks = {c[1] for c in events.cards[i].split()}
        other = [c for c in dealt(events, events.seat[i]) if c[1] not in ranks]
        if other:
            events.loc[i, "cards"] = other[0]
            return g.fails("allowed ranks|is not in")
    pytest.fail("no addition")


def test_a_missing_decision_is_caught():
    """A seat that 'adds nothing' left out of an addition step: the decisions no longer add up."""
    g = CHECKER.tamper()
    nothing = g.events.index[(g.events.action == "add") & (g.events.cards == "")][0]
    g.events = g.events.drop(index=nothing).reset_index(drop=True)
    later = g.events.index >= nothing
    g.events.loc[later & g.events.decision.notna(), "decision"] -= 1
    g.fails("expected add")


def test_a_wrong_decision_count_or_loser_is_caught():
    CHECKER.wrong_record_is_caught("turns")
    CHECKER.wrong_record_is_caught("loser", seat=True)
    g = CHECKER.tamper()
    first_round = g.events.index[g.events.action == "round"][0]
    g.events.loc[first_round, "target"] = 3
    g.fails("the next seat in is 2")
