"""The independent checker (checker.py, written from docs/rules/musta_maija.md, importing nothing
of cardsim) re-plays the events of games of every preset and finds them legal, every card in
one place and the record right; and it fails on tampered events."""
import pytest

import cardsim

from .checker import check
from checking import Checker

PRESETS = tuple(cardsim.presets("musta_maija"))
VARIANTS = ("turned(max_turns=40)", "black_trump(trump='turned', refill='to_hand_size')")
SEEN = {"musta_maija": {"declare", "out", "pick_up", "discard"}, "turned": {"turn", "reshuffle"},
        VARIANTS[0]: {"truncated"}}
CHECKER = Checker("musta_maija", check, seed=8, rules="musta_maija")


@pytest.mark.parametrize("rules, games", [(p, 40) for p in PRESETS] + [(v, 10) for v in VARIANTS])
def test_the_checker_passes_every_preset(rules, games):
    """A few hundred games of each preset (both policies; 2, 4 and 7 players: 7 plays two decks) pass."""
    actions = CHECKER.actions(rules, games, players=(2, 4, 7))
    assert SEEN.get(rules, set()) <= set(actions)


# ---------------------------------------------------------------- tampered events are caught

def test_the_untampered_game_passes():
    CHECKER.tamper().passes()


def test_a_duplicated_card_is_caught():
    CHECKER.duplicated_card_is_caught("{card} is not in the deck")


def test_a_card_that_does_not_beat_is_caught():
    """MM-10: a beater swapped for a lower card of the attack card's suit."""
    g = CHECKER.tamper()
    events = g.events
    for i in events.index[(events.action == "beat") & (events.cards != "")]:
        card = events.on[i]
        lower = next((c for c in ("♣2", "♦2", "♥2", "♠2") if c[0] == card[0] and c != card), None)
        if lower and events.cards[i][0] == card[0]:
            events.loc[i, "cards"] = lower
            return g.fails(f"{lower} does not beat {card}|{lower} is not in")
    pytest.fail("no beat in suit")


def test_a_defender_who_could_beat_everything_but_did_not_is_caught():
    """MM-10 (must_beat='all_if_possible'): a one-card attack that was beaten, turned into 'beats nothing'."""
    g = CHECKER.tamper()
    events = g.events
    for i in events.index[events.action == "attack"]:
        beats = events.index[(events.action == "beat") & (events.decision == events.decision[i] + 1)]
        if len(events.cards[i].split()) == 1 and len(beats) == 1 and events.cards[beats[0]]:
            events.loc[beats[0], ["cards", "on"]] = ["", ""]
            return g.fails("can beat every attack card and must")
    pytest.fail("no beaten one-card attack")


def test_an_attack_out_of_turn_is_caught():
    CHECKER.wrong_seat_is_caught("attack", 1)


def test_a_wrong_decision_count_or_loser_is_caught():
    CHECKER.wrong_record_is_caught("turns")
    CHECKER.wrong_record_is_caught("loser", seat=True)
