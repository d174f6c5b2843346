"""Policies: the words of the policies.py docstring, checked on the reference functions, and the
compiled engine's ``choose`` equal to them on random hands, tops and draws."""
import numpy as np
import pytest

from cardsim.core import rng
from cardsim.games.uno import compiled as C
from cardsim.games.uno import policies as pol
from cardsim.games.uno import reference as ref
from cardsim.games.uno.cards import K, WILD, counts_of, name, parse
from cardsim.games.uno.reference import make_state
from cardsim.games.uno.rules import UnoRules


def test_random_is_uniform_over_the_legal_cards_copies_counted():
    hand = counts_of("R5 R5 R7 W B1")
    legal = [k in (parse("R5"), parse("R7"), parse("W")) for k in range(K)]
    u = rng.draw(rng.game_key(1, np.arange(40_000, dtype=np.uint64)), rng.Stream.POLICY, 0)
    picks = [pol.random_card(hand, legal, int(x)) for x in u[:4000]]
    freq = {k: picks.count(k) / len(picks) for k in set(picks)}
    assert set(freq) == {parse("R5"), parse("R7"), parse("W")}
    assert abs(freq[parse("R5")] - 0.5) < 0.03 and abs(freq[parse("W")] - 0.25) < 0.03
    colours = np.bincount([pol.random_colour(int(x)) for x in u], minlength=4) / len(u)
    assert np.all(np.abs(colours - 0.25) < 0.01)


def random_position(gen, players, policy, rules=UnoRules(deck="2018")):
    """A reference position at the start of seat 1's decision: random hands (seat 1's from any kinds,
    W+4 often), a random top and colour."""
    hands = []
    for _ in range(players):
        kinds = gen.integers(0, K, size=gen.integers(1, 12))
        hands.append(" ".join(name(int(k)) for k in kinds))
    top = int(gen.integers(0, 54))
    colour = "RYGB"[int(gen.integers(0, 4))] if top >= WILD else None
    s = make_state(players, hands, name(top), colour=colour, rules=rules, policy=policy,
                   key=int(gen.integers(0, 2**63)))
    s.turns = int(gen.integers(0, 500))
    return s


@pytest.mark.parametrize("policy", ["random", "greedy", "random(bluff=0.5)", "greedy(bluff=0.5, challenge=0.5)"])
def test_compiled_choose_equals_the_reference_policies(policy):
    """Card (bluffs included), colour, Draw Two stack, challenge and swap target: ``compiled.choose``
    on the compiled twin of a position equals the reference policy functions at the same decision."""
    gen = np.random.default_rng(0)
    table = C.policy_of((policy,) * 3)
    p = pol.parse_policy(policy)
    for _ in range(300):
        r = random_position(gen, 3, policy)
        state = C.state_from(r)
        s = state[0]
        r.turns += 1  # reference.decide counts the decision first; state_from has begun it
        hand = r.hands[1]
        assert s["phase"] == C.CARD and C.choose(s, table) == ref.choose_card(r, p)
        chooser = ref.Chooser(r, p)
        for phase, expected in ((C.COLOUR, chooser.colour(1)), (C.TARGET, chooser.target(1)),
                                (C.CHALLENGE, int(pol.chance(r.u(ref.ANSWER_SLOT), p.challenge_cut))),
                                (C.STACK, pol.greedy_stack(hand) if p.greedy else pol.random_stack(hand, r.u(0))),
                                (C.START_COLOUR, pol.greedy_colour(hand) if p.greedy else
                                 pol.random_colour(r.u(ref.START_COLOUR_SLOT)))):
            s["phase"] = phase
            assert C.choose(s, table) == expected, (phase, policy)


def test_greedy_matches_colour_before_number_keeps_wilds_names_its_colour():
    s = make_state(2, ["R1", "B3 R7 W"], "R3")
    assert pol.greedy_card(s.hands[1], ref.legal_cards(s, 1), s.colour, s.top) == parse("R7")
    s = make_state(2, ["R1", "B3 G3 G5 W"], "R3")  # a number in another colour: the colour it holds most of
    assert pol.greedy_card(s.hands[1], ref.legal_cards(s, 1), s.colour, s.top) == parse("G3")
    s = make_state(2, ["R1", "B4 W W+4"], "R3")  # stuck: the W+4 (legal) before the plain Wild
    assert pol.greedy_card(s.hands[1], ref.legal_cards(s, 1), s.colour, s.top) == parse("W+4")
    assert pol.greedy_colour(counts_of("B1 B2 G1 W")) == 3
    assert pol.greedy_colour(counts_of("W")) == 0
    assert pol.greedy_stack(counts_of("R+2 G+2 G1")) == parse("G+2")
    assert pol.greedy_target(0, [3, 5, 2, 2]) == 2
