"""The compiled engine's state API: the state (what each seat was shown included) equals the reference
engine's after every decision; a copied state plays out to the game's own record and leaves the
original alone; a policy decides from its seat's view; what a seat has been shown (U-14, U-15, U-16);
records do not depend on jobs or chunk sizes."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.games.uno import GAME
from cardsim.games.uno import compiled as C
from cardsim.games.uno import reference as ref
from cardsim.games.uno import seating
from cardsim.games.uno.cards import K, SHUFFLE, WD4, names, parse
from cardsim.games.uno.reference import Fixed
from cardsim.games.uno.rules import UnoRules

from .engines import Compiled
from .test_properties import tables


def start(rules, players, seed, game, policy):
    """Game ``game`` dealt on both engines: (reference state, compiled state, params, policy table, work). The
    compiled table reads the choices (as with an ``mc`` seat; it changes no record) so that the reads compare."""
    seats = GAME.seat_policies(policy, players)
    r = seating.new_state(rules, players, seed, game, seats)
    ref.deal(r, 0)
    state = np.zeros(1, C.STATE)
    params, table, work = C.params_of(rules), C.policy_of(seats), C.new_work(rules)[0]
    C.new_game(state[0], params, players, np.uint64(r.key), work)
    state[0]["reads"] = True
    return r, state, params, table, work


def decide(s, params, table, work):
    """The compiled choices of one decision (until the turn counter moves or the game ends)."""
    turns = s["turns"]
    while s["phase"] != C.OVER and s["turns"] == turns:
        C.apply(s, C.decide(s, params, table, work), params, work)


def assert_same_position(r, s):
    """Everything the reference state holds, in the compiled state (whose next decision has begun)."""
    players = r.players
    assert s["hands"][:players].tolist() == r.hands
    assert s["size"][:players].tolist() == [sum(h) for h in r.hands]
    assert s["colours"][:players].tolist() == [[sum(h[c * 13:c * 13 + 13]) for c in range(4)] for h in r.hands]
    assert s["pile"][s["ptr"]:s["end"]].tolist() == r.pile
    assert s["discard"].tolist() == r.discard and s["under"] == sum(r.discard)
    assert (s["top"], s["colour"], s["direction"], s["current"]) == (r.top, r.colour, r.direction, r.current)
    assert (s["pending"], bool(s["challenge_open"])) == (r.pending_draw, r.challenge_open)
    if r.challenge_open:
        assert (bool(s["wd4_bluffed"]), s["wd4_player"], s["wd4_colour"]) == \
            (r.wd4_bluffed, r.wd4_player, r.wd4_colour)
    assert s["shown"][:players, :players].tolist() == r.shown  # what each seat knows of each hand
    assert s["shown_total"][:players].tolist() == [sum(map(sum, known)) for known in r.shown]
    for q, layers in enumerate(r.barred):  # what the table has read of each hand
        assert s["layers"][q] == len(layers)
        assert s["barred"][q, :len(layers)].tolist() == [mask for mask, _ in layers]
        assert s["barred_cards"][q, :len(layers)].tolist() == [cards for _, cards in layers]
    assert (s["turns"] - 1, s["hand_turns"] - 1) == (r.turns, r.hand_turns)
    assert (s["cards_drawn"], s["reshuffles"], s["challenges"], s["successes"]) == \
        (r.cards_drawn, r.reshuffles, r.challenges, r.successful_challenges)


@given(tables(), st.integers(0, 2**64 - 1), st.integers(0, 10**6))
def test_state_equals_the_reference_state_after_every_decision(table, seed, game):
    """The first hand of a game, decision by decision, on random knobs, players, seats and seeds."""
    rules, players, policy = table
    r, state, params, table_, work = start(rules, players, seed, game, policy)
    s = state[0]
    assert_same_position(r, s)
    while r.hand_winner < 0 and r.hand_turns < rules.max_turns:
        ref.decide(r)
        decide(s, params, table_, work)
        if s["phase"] == C.OVER or s["hand_no"] > 0:  # the hand is over (won or truncated)
            assert r.hand_winner >= 0 or (r.hand_turns >= rules.max_turns and s["truncated"])
            break
        assert_same_position(r, s)


def record(s):
    out = np.zeros((1, len(C.RECORD)), dtype=np.int64)
    C.record_into(s, out, 0)
    return out[0].tolist()


@pytest.mark.parametrize("rules, players, policy", [
    ("official", 4, "random"),
    ("stacking(target_score=150)", 3, ["greedy", "random(bluff=0.5, challenge=1)", "greedy(bluff=1)"]),
    ("deck_2018(custom_wild='swap_hands', draw_rule='until_playable')", 5, "greedy(bluff=0.3)"),
    ("deck_2018(custom_wild='everyone_draws_one', wd4_challenge=False)", 2, "random"),
    ("official(max_turns=30)", 6, "greedy"),
    ("official", 3, ["mc(determinizations=4)", "greedy", "random"]),
    ("stacking(deck='2018', custom_wild='swap_hands', target_score=100)", 4,
     ["greedy", "mc(determinizations=3, base=random)", "random(bluff=0.5)", "mc(determinizations=2)"]),
])
def test_playing_out_a_copy_from_any_choice_gives_the_game_and_leaves_the_original(rules, players, policy):
    """At every choice of a game (``mc`` seats too): a copy played out ends with the record of the game
    played straight through (the batch row), and the original state is unchanged, byte for byte."""
    rules = cardsim.rules("uno", rules)
    seats = GAME.seat_policies(policy, players)
    row = cardsim.simulate("uno", rules, players=players, games=1, first_game=5, seed=8, policy=seats)
    expected = [row[c].iloc[0] for c in C.RECORD]
    _, state, params, table, work = start(rules, players, 8, 5, seats)
    s, copy = state[0], np.zeros(1, C.STATE)
    choices = 0
    while True:
        C.copy_state(copy, state)
        before = state.tobytes()
        C.play_out(copy[0], params, table, work)
        assert record(copy[0]) == expected and state.tobytes() == before
        if s["phase"] == C.OVER:
            break
        C.apply(s, C.decide(s, params, table, work), params, work)
        choices += 1
    assert choices >= s["turns"] > 0


@given(tables(max_players=6), st.integers(0, 2**32), st.integers(0, 10**6))
def test_a_policy_chooses_among_the_legal_decisions_from_its_view(table, seed, game):
    """``choose`` returns one of ``legal_decisions``, and the same choice when the cards hidden from the
    deciding seat (other hands and the pile, less what it was shown) are dealt otherwise, sizes kept."""
    rules, players, policy = table
    _, state, params, table_, work = start(rules, players, seed, game, policy)
    s, other = state[0], np.zeros(1, C.STATE)
    options = np.zeros(K + 1, dtype=np.int64)
    gen = np.random.default_rng(game)
    while s["phase"] != C.OVER:
        choice = C.choose(s, table_)
        assert choice in options[:C.legal_decisions(s, options)].tolist()
        C.copy_state(other, state)
        redeal_hidden(other[0], s["current"], gen)
        assert C.choose(other[0], table_) == choice
        C.apply(s, choice, params, work)


def redeal_hidden(s, viewer, gen):
    """The cards ``viewer`` cannot see (in other hands beyond what it was shown, in the pile) dealt anew."""
    players = s["players"]
    hidden = []
    for p in range(players):
        if p != viewer:
            unseen = s["hands"][p] - s["shown"][p, viewer]
            hidden += [k for k in range(K) for _ in range(unseen[k])]
            s["hands"][p] = s["shown"][p, viewer]
    hidden += s["pile"][s["ptr"]:s["end"]].tolist()
    hidden = gen.permutation(hidden).tolist()
    for p in range(players):
        if p != viewer:
            for _ in range(s["size"][p] - s["hands"][p].sum()):
                s["hands"][p, hidden.pop()] += 1
            C.count_colours(s, p)
    s["pile"][s["ptr"]:s["end"]] = hidden


# ---------------------------------------------------------------- what a seat has been shown

def shown(v, holder, viewer):
    return names(v.s["shown"][holder, viewer])


def test_U14_a_challenge_shows_the_hand_to_the_challenger_only():
    """Rule U-14 of docs/rules/uno.md: the player who played the Wild Draw Four shows their hand to
    the challenger; that knowledge shrinks as those cards are played, not as unknown cards are drawn."""
    v = Compiled.make_state(4, ["R1", "R5 W+4 G7 G8", "Y1 Y2", "R1"], "R3", pile=" ".join(["B1"] * 8),
                            policy="greedy(challenge=1)")
    Compiled.play_card(v, WD4, Fixed(colour="Y"))
    Compiled.decide(v)  # P2 challenges and catches the bluff: P1 draws 4
    assert shown(v, 1, 2) == "R5 G7 G8" and shown(v, 1, 0) == shown(v, 1, 3) == "-"
    assert v.s["shown_total"][1] == 3 and names(v.hands[1]) == "R5 G7 G8 B1 B1 B1 B1"
    v.s["current"] = 1
    Compiled.play_card(v, parse("G7"), Fixed())
    assert shown(v, 1, 2) == "R5 G8" and v.s["shown_total"][1] == 2


def test_U15_shuffle_hands_and_a_new_deal_forget_what_was_shown():
    """Rule U-15 of docs/rules/uno.md: nobody knows where the shuffled cards went."""
    v = Compiled.make_state(3, ["R1 R2", "SH G5 G6 G7", "B1 B2"], "R3", rules=UnoRules(deck="2018"))
    C.show_hand(v.s, 0, 1)
    assert shown(v, 0, 1) == "R1 R2"
    Compiled.play_card(v, SHUFFLE, Fixed(colour="B"))
    assert not v.s["shown"].any() and not v.s["shown_total"].any()
    C.show_hand(v.s, 2, 0)
    C.deal(v.s, v.params, v.work)
    assert not v.s["shown"].any() and not v.s["shown_total"].any()


def test_U16_after_a_swap_each_knows_the_hand_they_gave_and_knowledge_follows_the_hand():
    """Rule U-16 of docs/rules/uno.md (swap_hands)."""
    v = Compiled.make_state(4, ["R1 B4", "CW R5 R6", "Y1 Y2 Y3", "G1"], "G3",
                            rules=UnoRules(deck="2018", custom_wild="swap_hands"))
    C.show_hand(v.s, 2, 3)  # P3 had seen P2's hand
    Compiled.play_card(v, parse("CW"), Fixed(colour="Y", target=2))
    assert names(v.hands[1]) == "Y1 Y2 Y3" and names(v.hands[2]) == "R5 R6"
    assert shown(v, 2, 1) == "R5 R6" and shown(v, 1, 2) == "Y1 Y2 Y3"  # what each gave away
    assert shown(v, 1, 3) == "Y1 Y2 Y3" and shown(v, 2, 3) == "-"  # P3's knowledge moved with the hand
    assert shown(v, 1, 1) == shown(v, 2, 2) == "-"
    assert v.s["shown_total"][:4].tolist() == [0, 6, 2, 0]


# ---------------------------------------------------------------- records and jobs

def test_records_do_not_depend_on_jobs_or_chunk_sizes():
    r = cardsim.rules("uno", "stacking(deck='2018', custom_wild='swap_hands', target_score=100)")
    kw = dict(players=5, games=60, seed=3, policy=["greedy", "random", "greedy(bluff=1)", "random", "greedy"])
    one = cardsim.simulate("uno", r, **kw)
    pd.testing.assert_frame_equal(one, cardsim.simulate("uno", r, n_jobs=2, chunk_size=7, **kw))
    pd.testing.assert_frame_equal(one, cardsim.simulate("uno", r, chunk_size=1, **kw))
