"""Restricted play in Uno (issue 27, COMMON ``forbid=`` convention): ``forbid=stack`` (U-11), ``challenge``
(U-14) and ``bluff`` (U-13) for every policy: the options named with their rules, unknown ones refused in one
line, a forbidden option never taken while another choice is legal, and both engines alike."""
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.games.uno import GAME
from cardsim.games.uno import compiled as C
from cardsim.games.uno.cards import DRAW_TWO, WD4, K
from cardsim.games.uno.policies import parse_policy
from cardsim.games.uno.rules import OPTIONS

from .test_compiled import start
from .test_properties import tables

FORBIDDING = ("random(forbid=stack)", "greedy(forbid=challenge)", "greedy(bluff=1, forbid=bluff)",
              "random(challenge=1, forbid=stack+challenge+bluff)", "mc(determinizations=2, forbid=stack+challenge)",
              "mc(determinizations=2, base=random, forbid=bluff)")


def test_the_options_are_the_games_with_their_rules():
    assert GAME.options is OPTIONS and list(OPTIONS) == ["stack", "challenge", "bluff"]
    for option, rule in zip(OPTIONS, ("U-11", "U-14", "U-13")):
        assert OPTIONS[option].startswith(rule + ":")
    assert parse_policy("greedy(forbid=stack+bluff)").forbid == 1 | 4 == parse_policy("greedy(forbid='bluff+stack')").forbid


@pytest.mark.parametrize("text, policy", [("greedy(forbid=swap)", "greedy"), ("mc(forbid=stack+trump)", "mc"),
                                          ("learned(forbid=draw)", "learned"), ("random(forbid=3)", "random")])
def test_an_unknown_option_is_one_line_naming_the_policy_the_option_and_the_known_ones(text, policy):
    with pytest.raises(ValueError) as err:
        cardsim.simulate("uno", players=3, games=1, policy=text)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"uno policy {policy}: forbid=")
    assert re.search(r"is no option of uno; known: stack, challenge, bluff$", message)


def test_U14_a_seat_forbidden_to_challenge_never_does():
    seats = ["greedy(challenge=1, forbid=challenge)", "random(challenge=1, forbid=challenge)",
             "mc(determinizations=2, forbid=challenge)", "learned(forbid=challenge)"]
    assert cardsim.simulate("uno", players=4, games=300, seed=1, policy=seats).challenges.sum() == 0
    assert cardsim.simulate("uno", players=4, games=300, seed=1, policy=[s.replace(", forbid=challenge", "")
                                                                          .replace("(forbid=challenge)", "")
                                                                          for s in seats]).challenges.sum() > 0


def test_U13_a_seat_forbidden_to_bluff_is_never_caught():
    """Only a bluff is a successful challenge: with every seat forbidden to bluff, none is."""
    bluffing = ["greedy(bluff=1, challenge=1)"] * 4
    assert cardsim.simulate("uno", players=4, games=300, seed=2, policy=bluffing).successful_challenges.sum() > 0
    honest = [p.replace(")", ", forbid=bluff)") for p in bluffing]
    assert cardsim.simulate("uno", players=4, games=300, seed=2, policy=honest).successful_challenges.sum() == 0


def test_a_forbid_the_rules_do_not_offer_is_a_no_op():
    """Without stacking (U-11 off) ``forbid=stack`` changes no choice; without challenges, ``forbid=challenge``."""
    for rules, option in (("official", "stack"), ("official(wd4_challenge=False)", "challenge")):
        for policy in ("greedy", "random", "mc(determinizations=2)"):
            kw = dict(players=3, games=20, seed=4)
            forbidden = policy[:-1] + f", forbid={option})" if "(" in policy else f"{policy}(forbid={option})"
            pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, policy=forbidden, **kw),
                                          cardsim.simulate("uno", rules, policy=policy, **kw))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), game=st.integers(0, 10**6))
def test_a_forbidden_option_is_never_chosen_while_another_is_legal(data, seed, game):
    """Every choice of every seat (random, greedy, mc, learned, forbidden what they may be) over whole games:
    legal, and never a forbidden stack, challenge or bluff; the candidates of a forbidding seat hold none."""
    rules, players, _ = data.draw(tables(max_players=6))
    seats = [data.draw(st.sampled_from(FORBIDDING + ("learned(forbid=stack+challenge+bluff)", "greedy(bluff=1)")))
             for _ in range(players)]
    _, state, params, table, w = start(rules, players, seed, game, seats)
    s, legal, options = state[0], np.zeros(K + 1, np.int64), np.zeros(K + 1, np.int64)
    while s["phase"] != C.OVER:
        p = s["current"]
        forbid = table[p, C.FORBID]
        n = C.legal_decisions(s, legal)
        choice = C.decide(s, params, table, w)
        assert choice in legal[:n]
        m = C.candidates(s, forbid, w, options)
        assert not any(C.forbidden(s, p, o, forbid) for o in options[:m])
        if forbid & 1 and s["phase"] == C.STACK:
            assert choice == C.TAKE
        if forbid & 2 and s["phase"] == C.CHALLENGE:
            assert choice == 0
        if forbid & 4 and s["phase"] == C.CARD and choice == WD4:
            assert C.wd4_is_legal(s, p)
        C.apply(s, choice, params, w)


def test_U11_a_seat_forbidden_to_stack_takes_the_total():
    from .engines import Compiled

    for policy in ("greedy(forbid=stack)", "random(forbid=stack)", "mc(determinizations=2, forbid=stack)",
                   "learned(forbid=stack)"):
        v = Compiled.make_state(3, ["R1 R2", "B+2 G+2 R5", "Y1 Y2"], "Y+2", rules=cardsim.rules("uno", "stacking"),
                                policy=policy, pile=" ".join(["B1"] * 8))
        v.pending_draw = 2
        assert v.s["phase"] == C.STACK and C.decide(v.s, v.params, v.policy, v.work) == C.TAKE, policy
        unforbidden = policy.replace(", forbid=stack", "").replace("(forbid=stack)", "")
        if unforbidden == "greedy":
            table = C.policy_of((unforbidden,) * 3)
            assert C.decide(v.s, v.params, table, v.work) in (DRAW_TWO + 13 * 3, DRAW_TWO + 13 * 2)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), first=st.integers(0, 10**9))
def test_forbidding_seats_play_alike_on_both_engines(data, seed, first):
    rules, players, policy = data.draw(tables(max_players=6))
    seats = list(GAME.seat_policies(policy, players))
    for p in data.draw(st.sets(st.integers(0, players - 1), min_size=1)):
        seats[p] = data.draw(st.sampled_from(FORBIDDING))
    kw = dict(players=players, games=3, seed=seed, policy=seats, first_game=first)
    pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                  cardsim.simulate("uno", rules, engine="reference", **kw))
