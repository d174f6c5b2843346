"""``forbid=OPTION`` for Molotow's policies (restricted play, issue 27; policies.py): the options (MJ-9 trump_instead,
MJ-10 undertrump, MJ-11 keep_buur), the allowed cards on both engines, games alike on both engines, the
information-set test, one-line errors."""
import random
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim import cli
from cardsim.core.cards import cards_of
from cardsim.games.molotow import GAME
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow import reference
from cardsim.games.molotow.cards import DECK, NO_TRUMP
from cardsim.games.molotow.policies import forbid_of
from cardsim.games.molotow.reference import allowed_moves, legal_moves
from cardsim.games.molotow.rules import OPTIONS, MolotowRules

from .states import played_to, position_state
from .strategies import positions, rules_and_players
from .test_mc import rehide

MASKS = st.integers(0, 2 ** len(OPTIONS) - 1)
H = DECK.hand
SPADES, HEARTS, DIAMONDS = 0, 1, 2


def test_the_options_are_the_specs_and_cite_their_rules():
    assert GAME.options is OPTIONS and list(OPTIONS) == ["trump_instead", "undertrump", "keep_buur"]
    assert [re.match(r"MJ-\d+", text).group() for text in OPTIONS.values()] == ["MJ-9", "MJ-10", "MJ-11"]
    assert forbid_of("greedy(forbid=undertrump)") == 2 and forbid_of("mc(forbid=keep_buur+trump_instead)") == 5
    assert forbid_of("random") == 0


@pytest.mark.parametrize("hand, trick, trump, undertrump, forbid, allowed", [
    # MJ-9: holding the led suit, the trump is dropped; void in it, trumping is no option
    ("♠6 ♦9 ♥7", "♠A", DIAMONDS, "seed", "trump_instead", "♠6"),
    ("♦9 ♥7", "♠A", DIAMONDS, "seed", "trump_instead", "♦9 ♥7"),
    # MJ-10 "allowed": the lower trump is dropped; only lower trumps left: played anyway
    ("♦6 ♥7", "♠A ♦K", DIAMONDS, "allowed", "undertrump", "♥7"),
    ("♦6 ♦7", "♠A ♦K", DIAMONDS, "allowed", "undertrump", "♦6 ♦7"),
    # MJ-11: the Buur was the only trump to follow a trump lead: it must be played
    ("♦U ♥7 ♠8", "♦K", DIAMONDS, "seed", "keep_buur", "♦U"),
    ("♦U ♦7 ♠8", "♦K", DIAMONDS, "seed", "keep_buur", "♦U ♦7"),
    ("♦U ♥7 ♠8", "♦K", DIAMONDS, "seed", "undertrump+trump_instead", "♦U ♥7 ♠8"),
])
def test_allowed_cards_in_constructed_tricks(hand, trick, trump, undertrump, forbid, allowed):
    """Rules MJ-9, MJ-10, MJ-11 of docs/rules/molotow.md: what a forbid leaves, on both engines."""
    cards = [DECK.parse(c) for c in trick.split()]
    mask = forbid_of(f"greedy(forbid={forbid})")
    assert allowed_moves(H(hand), cards, trump, undertrump, mask) == H(allowed)
    st_, params = position_state(H(hand), cards, trump, undertrump)
    assert int(C.allowed_cards(st_[0], params, np.uint64(C.legal_cards(st_[0], params)), mask)) == H(allowed)


@settings(max_examples=300)
@given(positions, MASKS)
def test_allowed_cards_are_legal_never_empty_and_alike_on_both_engines(position, forbid):
    hand, trick, trump, undertrump = position
    legal = legal_moves(hand, trick, trump, undertrump)
    allowed = allowed_moves(hand, trick, trump, undertrump, forbid)
    assert allowed and allowed & ~legal == 0
    if forbid == 0 or not trick or trump == NO_TRUMP:
        assert allowed == legal
    st_, params = position_state(hand, trick, trump, undertrump)
    assert int(C.allowed_cards(st_[0], params, np.uint64(C.legal_cards(st_[0], params)), forbid)) == allowed


FORBIDDEN = ["random(forbid=undertrump)", "greedy(forbid=trump_instead)", "greedy(forbid=keep_buur+undertrump)",
             "mc(determinizations=2, forbid=trump_instead+undertrump+keep_buur)",
             "mc(determinizations=2, base=random, forbid=trump_instead)"]


@settings(max_examples=25, deadline=None)
@given(rules_and_players(max_hands=2), st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.data())
def test_forbidding_games_are_the_same_on_both_engines(rp, seed, first, data):
    rules, players = rp
    seats = data.draw(st.lists(st.sampled_from(["random", "greedy", *FORBIDDEN]), min_size=players,
                               max_size=players))
    kw = dict(players=players, games=3, seed=seed, policy=seats, first_game=first)
    pd.testing.assert_frame_equal(cardsim.simulate("molotow", rules, **kw),
                                  cardsim.simulate("molotow", rules, engine="reference", **kw))


@pytest.mark.parametrize("rules, policy", [("molotow(undertrump='allowed')", "greedy(forbid=undertrump)"),
                                           ("molotow", "greedy(forbid=trump_instead)"),
                                           ("molotow", "random(forbid=keep_buur)")])
def test_a_forbidding_seat_never_takes_the_option_while_it_has_another_card(rules, policy):
    """Every card of the restricted seat is allowed (``allowed_moves``); the option was open to it (a card
    of the legal ones was dropped) at some decisions, so the forbid changes the games."""
    rl = cardsim.rules("molotow", rules)
    seats = (policy, "greedy", "random", "greedy")
    restricted = 0
    for game in range(40):
        log: list[reference.Decision] = []
        reference.play_game(rl, 4, 6, game, seats, log)
        for d in log:
            if d.seat == 0:
                allowed = allowed_moves(d.hand, list(d.trick), d.trump, rl.undertrump, forbid_of(policy))
                assert allowed >> d.card & 1
                restricted += allowed != d.legal
    assert restricted > 5
    free = seats[0].split("(")[0]
    a = cardsim.simulate("molotow", rules, games=200, seed=6, policy=list(seats))
    b = cardsim.simulate("molotow", rules, games=200, seed=6, policy=[free, *seats[1:]])
    assert (a != b).any(axis=1).sum() > 10


def test_mc_with_forbid_searches_only_the_allowed_cards():
    """The candidates of ``mc(forbid=...)`` are the allowed cards, its decision one of them."""
    table = C.policy_table(("mc(determinizations=2, forbid=trump_instead)",) * 4)
    st_, params = position_state(H("♠6 ♠7 ♦9 ♦A ♥7"), [DECK.parse("♠A")], DIAMONDS)
    w = C.new_work()[0]
    m = C.search_totals(st_[0], params, table, C.to_act(st_[0]), 2, w)
    assert sorted(w["candidates"][:m].tolist()) == sorted(cards_of(H("♠6 ♠7")))
    assert C.choose(st_[0], params, table, C.new_work()[0]) in cards_of(H("♠6 ♠7"))


@pytest.mark.parametrize("policy", ["greedy(forbid=trump_instead+keep_buur)", "greedy(forbid=undertrump)",
                                    "mc(determinizations=3, forbid=trump_instead)"])
def test_information_set_a_forbidding_policy_decides_alike_when_only_hidden_cards_differ(policy):
    r = random.Random(8)
    rules = MolotowRules(undertrump="allowed")
    changed = 0
    for decision in range(0, 12 * 36, 6):
        state, params, table = played_to(rules, 4, 21, decision % 2, (policy,) * 4, decision)
        seat = C.to_act(state[0])
        other = rehide(state, seat, r)
        changed += other[0]["held"].tolist() != state[0]["held"].tolist()
        assert C.choose(other[0], params, table, C.new_work()[0]) == C.choose(state[0], params, table,
                                                                               C.new_work()[0])
    assert changed > 40


@pytest.mark.parametrize("text, match", [
    ("greedy(forbid=swap)", "molotow policy greedy: forbid='swap' is no option of molotow; known: "
                            "trump_instead, undertrump, keep_buur"),
    ("random(forbid=undertrump+stack)", "molotow policy random: forbid='stack' is no option of molotow"),
    ("mc(forbid=3)", "molotow policy mc: forbid=3 is no option of molotow; known: trump_instead"),
    ("learned(forbid=keep)", "molotow policy learned: forbid='keep' is no option of molotow"),
    ("mc(base=greedy(forbid=undertrump))", "molotow policy mc: base=\"greedy(forbid='undertrump')\" takes no "
                                           "forbid (its play-outs seat every player); put forbid= on mc itself"),
])
def test_an_unknown_option_is_one_line_naming_the_policy_and_the_known_options(tmp_path, capsys, text, match):
    for engine in ("compiled", "reference"):
        with pytest.raises(ValueError, match=re.escape(match)) as err:
            cardsim.simulate("molotow", games=1, policy=["greedy", text, "greedy", "greedy"], engine=engine)
        assert "\n" not in str(err.value)
    out = tmp_path / "out"
    assert cli.main(["ladder", "molotow", "--policies", f"greedy,{text}", "--games", "2", "--out", str(out)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not out.exists()


def test_forbid_has_one_spelling():
    assert cardsim.games.spec("molotow").seat_policies("greedy(forbid=undertrump+trump_instead)", 1) == \
        ("greedy(forbid='undertrump+trump_instead')",)
    np.testing.assert_array_equal(C.policy_table(("greedy(forbid=undertrump+trump_instead)",)),
                                  C.policy_table(("greedy(forbid='undertrump+trump_instead')",)))
