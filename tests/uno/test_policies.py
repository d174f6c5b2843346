"""Policies: the words of the policies.py docstring, checked on both twins."""
import numpy as np

from cardsim.core import rng
from cardsim.games.uno import policies as pol
from cardsim.games.uno import reference as ref
from cardsim.games.uno.cards import CANDIDATE_REAL, CANDIDATES, K, WD4_COLUMN, counts_of, name, parse
from cardsim.games.uno.reference import make_state


def test_random_is_uniform_over_the_legal_cards_copies_counted():
    hand = counts_of("R5 R5 R7 W B1")
    legal = [k in (parse("R5"), parse("R7"), parse("W")) for k in range(K)]
    u = rng.draw(rng.game_key(1, np.arange(40_000, dtype=np.uint64)), rng.Stream.POLICY, 0)
    picks = [pol.random_card(hand, legal, int(x)) for x in u[:4000]]
    freq = {k: picks.count(k) / len(picks) for k in set(picks)}
    assert set(freq) == {parse("R5"), parse("R7"), parse("W")}
    assert abs(freq[parse("R5")] - 0.5) < 0.03 and abs(freq[parse("W")] - 0.25) < 0.03
    colours = np.bincount(pol.np_random_colour(u), minlength=4) / len(u)
    assert np.all(np.abs(colours - 0.25) < 0.01)


def _np_choice(hand, colour, top, u, greedy):
    """The numpy twin on the candidate columns, for one hand."""
    cand, real = CANDIDATES[colour, top], CANDIDATE_REAL[colour, top]
    held = np.array(hand)[cand][:, None]
    legal = (held > 0) & real[:, None]
    counts = np.array([pol.colour_counts(hand)])
    legal[WD4_COLUMN, 0] &= not counts[0, colour] > 0
    if greedy:
        col = pol.np_greedy_card(counts, legal, np.array([colour]), np.array([top]))[0]
    else:
        col = pol.np_random_card(held, legal, np.array([u], dtype=np.uint64))[0]
    return -1 if col < 0 else int(cand[col])


def test_twins_choose_the_same_card():
    gen = np.random.default_rng(0)
    for i in range(300):
        hand = [0] * K
        for k in gen.integers(0, 54, size=gen.integers(1, 12)):
            hand[k] += 1
        top = int(gen.integers(0, 54))
        colour = int(gen.integers(0, 4)) if top >= 52 else top // 13
        s = make_state(2, ["R1", ""], name(top), colour="RYGB"[colour])
        s.hands[1] = hand
        legal = ref.legal_cards(s, 1)
        u = rng.draw(7, rng.Stream.POLICY, i, 2)
        assert pol.random_card(hand, legal, u) == _np_choice(hand, colour, top, u, greedy=False)
        assert pol.greedy_card(hand, legal, colour, top) == _np_choice(hand, colour, top, u, greedy=True)


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
