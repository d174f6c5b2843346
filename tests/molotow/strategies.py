"""Hypothesis strategies shared by the Molotow tests: rules, players, policies, positions."""
import random

from hypothesis import strategies as st

from cardsim.games.molotow.cards import NO_TRUMP, UNDER
from cardsim.games.molotow.rules import BIG_HAND, UNDERTRUMP, MolotowRules


@st.composite
def rules_and_players(draw, max_hands: int = 3):
    """Random knobs (few hands, to keep the reference engine quick), the matching player count."""
    players = draw(st.sampled_from([3, 4]))
    hands = draw(st.integers(1, max_hands))
    max_turns = draw(st.one_of(st.none(), st.integers(1, hands * 36 + 5)))
    rules = MolotowRules(players=players, undertrump=draw(st.sampled_from(UNDERTRUMP)),
                         big_hand=draw(st.sampled_from(BIG_HAND)), hands=hands,
                         last_trick_bonus=draw(st.sampled_from([5, 5, 0, 1, 6, 47])), max_turns=max_turns)
    return rules, players


MC_POLICIES = ["mc(determinizations=3)", "mc(determinizations=2, base=random)"]
"""``mc`` with few worlds: the same code as 32, at test speed."""


def policies(players: int):
    """Self-play by name, or a mixed list of one policy per seat; ``mc`` among them."""
    name = st.sampled_from(["random", "greedy", "random", "greedy", *MC_POLICIES])
    return st.one_of(name, st.lists(name, min_size=players, max_size=players))


def random_position(r: random.Random) -> tuple[int, list[int], int, str]:
    """A consistent position: a hand, a trick of 0..3 other cards, the trump state it implies.

    Most cards come from two suits (the led one and a trump) and the hand is often void
    in the led suit or holds the Buur, so that following, overtrumping, undertrumping
    and the Buur exception (MJ-7…MJ-11) come up often.
    """
    suits = r.sample(range(4), 4)
    focus = r.sample([c for c in range(36) if c // 9 in suits[:2]], 18)
    others = r.sample([c for c in range(36) if c // 9 in suits[2:]], r.randint(0, 4))
    trick = focus[:r.randint(0, 3)]
    rest = focus[len(trick):]
    if trick and r.random() < 0.5:
        rest = [c for c in rest if c // 9 != trick[0] // 9]
    hand = sum(1 << c for c in rest[:r.randint(0, 9)] + others) or 1 << rest[-1]
    trump = r.choice([suits[0], suits[1], suits[2], NO_TRUMP])
    off_suit = [c for c in trick[1:] if c // 9 != trick[0] // 9]
    if trump == NO_TRUMP and off_suit:
        trump = off_suit[0] // 9  # MJ-8: the first off-suit card set it
    buur = 9 * trump + UNDER
    if trump != NO_TRUMP and buur not in trick and r.random() < 0.5:
        hand |= 1 << buur
    return hand, trick, trump, r.choice(UNDERTRUMP)


positions = st.randoms(use_true_random=False).map(random_position)
