"""Hypothesis strategies shared by the Musta-Maija tests."""
from hypothesis import strategies as st

from cardsim.games.musta_maija.rules import MustaMaijaRules


MC_SEATS = ("mc(determinizations=2)", "mc(determinizations=3, base=random)", "mc(determinizations=1)",
            "mc(determinizations=2, beliefs=reads)")
"""``mc`` seats cheap enough for property tests (the default 32 worlds are measured in benchmarks/)."""


@st.composite
def setups(draw, max_players=8, mc=False):
    """Random knobs, player count, per-seat policies and seed that the rules accept; with ``mc``, mixed
    seats may be ``mc`` seats too."""
    players = draw(st.integers(2, max_players))
    knobs = dict(trump=draw(st.sampled_from(["marriage", "diamonds", "turned"])),
                 black_maria=draw(st.sampled_from(["unbeatable", "highest_trump"])),
                 hand_size=draw(st.integers(1, 9)),
                 refill=draw(st.sampled_from(["played", "to_hand_size"])),
                 must_beat=draw(st.sampled_from(["all_if_possible", "free"])),
                 max_turns=draw(st.sampled_from([1, 2, 7, 40, 10_000])),
                 repetition=draw(st.booleans()))  # MM-18
    rules = MustaMaijaRules(**knobs)
    try:
        rules.check_players(players)
    except ValueError:
        rules = rules.replace(hand_size=5)
    seats = draw(st.sampled_from(["random", "greedy", "mixed"]))
    pool = ["random", "greedy", *(MC_SEATS if mc else ())]
    policy = [draw(st.sampled_from(pool)) for _ in range(players)] if seats == "mixed" else seats
    return rules, players, policy, draw(st.integers(0, 2**64 - 1))
