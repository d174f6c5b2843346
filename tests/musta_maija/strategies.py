"""Hypothesis strategies shared by the Musta-Maija tests."""
from hypothesis import strategies as st

from cardsim.games.musta_maija.rules import MustaMaijaRules


@st.composite
def setups(draw, max_players=8):
    """Random knobs, player count, per-seat policies and seed that the rules accept."""
    players = draw(st.integers(2, max_players))
    knobs = dict(trump=draw(st.sampled_from(["marriage", "diamonds", "turned"])),
                 black_maria=draw(st.sampled_from(["unbeatable", "highest_trump"])),
                 hand_size=draw(st.integers(1, 9)),
                 refill=draw(st.sampled_from(["played", "to_hand_size"])),
                 must_beat=draw(st.sampled_from(["all_if_possible", "free"])),
                 max_turns=draw(st.sampled_from([1, 2, 7, 40, 10_000])))
    rules = MustaMaijaRules(**knobs)
    try:
        rules.check_players(players)
    except ValueError:
        rules = rules.replace(hand_size=5)
    seats = draw(st.sampled_from(["random", "greedy", "mixed"]))
    policy = [draw(st.sampled_from(["random", "greedy"])) for _ in range(players)] if seats == "mixed" else seats
    return rules, players, policy, draw(st.integers(0, 2**64 - 1))
