"""Hypothesis strategies shared by the Moska tests: every knob, 2–8 players, seat policies (``mc`` too)."""
from hypothesis import strategies as st

from cardsim.games.moska.rules import MoskaRules

POLICY = st.sampled_from(["random", "greedy"])
RULES = st.builds(
    MoskaRules,
    continuation=st.sampled_from(["attack", "attack_and_kill"]),
    attack_cap=st.one_of(st.none(), st.integers(1, 8)),
    cap_to_defender_hand=st.booleans(),
    cap_mode=st.sampled_from(["round", "unkilled"]),
    trump_two_swap=st.booleans(),
    defender_self_attack=st.booleans(),
    defender_closes=st.booleans(),
    excess_return=st.sampled_from(["defender", "attacker", "last"]),
    hand_size=st.integers(1, 9),
    max_turns=st.sampled_from([10_000, 10_000, 10_000, 40, 400]),
    repetition=st.booleans(),
)


@st.composite
def setups(draw):
    """(rules, players, seat policies, seed, game) with M-3 respected."""
    rules = draw(RULES)
    players = draw(st.integers(2, min(8, 51 // rules.hand_size)))
    policy = draw(st.one_of(POLICY, st.lists(POLICY, min_size=players, max_size=players)))
    seats = (policy,) * players if isinstance(policy, str) else tuple(policy)
    return rules, players, seats, draw(st.integers(0, 2**32)), draw(st.integers(0, 10**6))


SEARCH_STOCK = st.sampled_from(["", ", search_stock=all", ", search_stock=None", ", search_stock=0",
                                ", search_stock=20", ", search_stock=52"])
BELIEFS = st.sampled_from(["", ", beliefs=uniform", ", beliefs=reads"])
MC = st.builds("mc(determinizations={}, base={}{}{})".format, st.integers(1, 4), st.sampled_from(["random", "greedy"]),
               SEARCH_STOCK, BELIEFS)
"""``mc`` with few worlds (tests stay quick), either base policy, any ``search_stock``, either ``beliefs``."""
ORACLE = st.builds("oracle(determinizations={}, base={}{})".format, st.integers(1, 4),
                   st.sampled_from(["random", "greedy"]), SEARCH_STOCK)


@st.composite
def mc_setups(draw, unfair: bool = False):
    """``setups`` with at least one ``mc`` seat (``unfair``: or ``oracle`` seat) among ``random`` and ``greedy``
    seats."""
    rules, players, seats, seed, game = draw(setups())
    seats = list(seats)
    for seat in draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True)):
        seats[seat] = draw(st.one_of(MC, ORACLE) if unfair else MC)
    return rules, players, tuple(seats), seed, game
