"""Moska ``mc``'s parameters beyond its worlds: ``search_stock``, ``beliefs=reads`` (reads.py) and the ``oracle``.

The reads are what greedy's choices say of its hand: both engines read alike (the compiled twins equal
``reads.py``; the states' ``barred`` are compared in test_mc.py), a read uses only what the table sees,
the reads are true of every seat that plays greedy, and a world meets them as far as the cards go. The
``oracle`` is ``mc`` whose worlds are the true state: where the view leaves nothing hidden it decides as
``mc`` does, elsewhere what it decides depends on the hidden cards (it is not a fair player).
"""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import jit
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.search import search_call, unfair_note
from cardsim.games.moska import compiled, reads
from cardsim.games.moska.compiled_policies import SEARCH_STOCK, WORLDS, READS, TRUE_STATE, UNIFORM, table
from cardsim.games.moska.policies import MC_EXTRA, parse_policy
from cardsim.games.moska.seating import make_policy
from cardsim.games.moska.rules import MoskaRules

from .states import Game, hidden_cards_dealt_again
from .strategies import mc_setups, setups

MASK = st.integers(0, (1 << 52) - 1)


# --- parameters ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, match", [
    ("mc(search_stock=-1)", "moska policy mc: search_stock=-1 must be an integer from 0 to 52, None or all"),
    ("mc(search_stock=53)", "search_stock=53 must be an integer from 0 to 52, None or all"),
    ("mc(search_stock=some)", "search_stock='some' must be an integer"),
    ("mc(search_stock=True)", "search_stock=True must be an integer"),
    ("mc(beliefs=psychic)", "moska policy mc: beliefs='psychic' must be one of uniform, reads"),
    ("oracle(depth=2)", "moska policy oracle has no parameter 'depth'; known: determinizations, base, search_stock, "
                        "beliefs"),
    ("oracle(determinizations=0)", "moska policy oracle: determinizations=0 must be an integer from 1 to 1024"),
])
def test_the_new_parameters_are_checked_with_one_line(text, match):
    for call in (lambda: make_policy(text), lambda: cardsim.simulate("moska", players=3, games=2, policy=text)):
        with pytest.raises(ValueError, match=match.replace("(", r"\(")) as err:
            call()
        assert "\n" not in str(err.value)


def test_the_table_rows_of_the_new_parameters():
    rows = table(("mc", "mc(search_stock=all)", "mc(search_stock=None)", "mc(search_stock=3, beliefs=reads)",
                  "oracle", "oracle(beliefs=reads)", "greedy"))
    assert rows[:, SEARCH_STOCK].tolist() == [8, 52, 52, 3, 8, 8, 0]
    assert rows[:, WORLDS].tolist() == [UNIFORM, UNIFORM, UNIFORM, READS, TRUE_STATE, TRUE_STATE, UNIFORM]
    assert (table(("mc",)) == table(("mc(search_stock=8, beliefs=uniform)",))).all()


@pytest.mark.parametrize("text, said", [
    ("mc(determinizations=48)", "mc(determinizations=48, base='greedy')"),
    ("mc(search_stock=8, beliefs=uniform)", "mc(determinizations=32, base='greedy')"),
    ("mc(beliefs=reads, search_stock=all, base=learned(model=moska_4p_g1))",
     """mc(determinizations=32, base="learned(model='moska_4p_g1')", search_stock='all', beliefs='reads')"""),
    ("oracle(search_stock=3)", "oracle(determinizations=32, base='greedy', search_stock=3)"),
])
def test_a_search_reads_back_as_its_policy_string_without_its_defaults(text, said):
    """``search_call``, the string a trained model's provenance names its teacher by."""
    assert search_call(parse_policy(text)[1], MC_EXTRA) == said
    assert parse_policy(said) == parse_policy(text)


@pytest.mark.parametrize("stock, early", [("all", True), ("0", False)])
def test_search_stock_is_where_the_search_begins(stock, early):
    """``search_stock=all`` searches while the stock is full; ``search_stock=0`` only once it is empty: a
    search deals worlds into its scratch."""
    g = Game(MoskaRules(), 4, 1, 5, (f"mc(search_stock={stock})",) * 4)
    searched_early = False
    while compiled.to_act(g.s) >= 0:
        worlds, stock_left = g.work["worlds"].tobytes(), compiled.stock_left(g.s)
        g.step()
        if stock_left > 0 and g.work["worlds"].tobytes() != worlds:
            searched_early = True
    assert searched_early == early


# --- the reads ----------------------------------------------------------------------------

@given(st.integers(0, 3), MASK, st.integers(0, 51), st.integers(-1, 51), MASK, st.integers(0, 60), st.integers(1, 8))
def test_the_compiled_reads_are_the_words_of_reads_py(trump, cards, attack, killer, allowed, stock, room):
    one = cards & -cards
    for opening in (cards, one):
        assert int(compiled.read_opening(np.uint64(opening), trump)) == reads.opening(opening, trump)
    killers_of = int(compiled.KILL[trump, attack])
    assert (int(compiled.read_kill(attack, killer, np.uint64(killers_of), trump, stock))
            == reads.kill(attack, killer, killers_of, trump, stock))
    for added in (cards & allowed, cards & allowed & 0x1FF1FF1FF1FF, 0):
        assert (int(compiled.read_addition(np.uint64(added), np.uint64(allowed), room, trump, stock))
                == reads.addition(added, allowed, room, trump, stock))


def test_a_seat_that_adds_nothing_holds_nothing_greedy_would_add():
    """M-11: with the stock not empty greedy adds its lowest low plain cards of the allowed ranks; adding none
    says it holds none, adding one of three places says it holds no other (trumps and J..A are not read)."""
    fives = F.hand("♣5 ♦5 ♥5 ♠5")
    assert reads.addition(0, fives, 3, 3, 10) == F.hand("♣5 ♦5 ♥5")
    assert reads.addition(F.hand("♦5"), fives, 3, 3, 10) == F.hand("♣5 ♥5")
    assert reads.addition(F.hand("♣5 ♦5"), fives, 2, 3, 10) == 0  # the room was full: ♥5 may be held
    assert reads.addition(F.hand("♠5"), fives, 3, 3, 10) == 0  # a trump added: not greedy's, not read
    kings = F.hand("♣K ♦K ♥K ♠K")
    assert reads.addition(0, kings, 3, 3, 10) == 0 and reads.addition(0, kings, 3, 3, 0) == F.hand("♣K ♦K ♥K")


def test_a_defender_who_kills_with_a_trump_or_picks_up_says_what_it_lacks():
    """M-10: killing ♦7 with the trump ♠3 says no ♦8..♦A and no ♠2; leaving it unkilled while the stock lasts
    says no ♦8..♦A and no trump 2..T; with the stock empty, no killer at all."""
    trump, a = 3, F.parse("♦7")
    k = int(compiled.KILL[trump, a])
    diamonds = F.hand("♦8 ♦9 ♦T ♦J ♦Q ♦K ♦A")
    assert reads.kill(a, F.parse("♠3"), k, trump, 5) == diamonds | F.hand("♠2")
    assert reads.kill(a, F.parse("♦9"), k, trump, 5) == F.hand("♦8")
    assert reads.kill(a, -1, k, trump, 5) == diamonds | F.hand("♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠T")
    assert reads.kill(a, -1, k, trump, 0) == k
    assert reads.opening(F.hand("♥4"), trump) == F.hand("♣2 ♦2 ♥2 ♣3 ♦3 ♥3 ♣4 ♦4")
    assert reads.opening(F.hand("♠4"), trump) == ((1 << 52) - 1) & ~F.suit_mask(trump) | F.hand("♠2 ♠3")
    assert reads.opening(F.hand("♥4 ♦4"), trump) == 0


@given(setups())
def test_the_reads_are_true_of_every_seat_that_plays_greedy(cell):
    """With reads kept, a greedy seat never holds an unshown card the table has read it does not hold."""
    rules, players, _, seed, game = cell
    seats = ("mc(determinizations=2, beliefs=reads)",) + ("greedy",) * (players - 1)
    g = Game(rules, players, seed, game, seats)
    assert g.s["reads"]
    while compiled.to_act(g.s) >= 0:
        for q in range(1, players):
            assert int(g.s["barred"][q]) & int(g.s["hands"][q]) & ~int(compiled.shown(g.s, q)) == 0, q
        g.step()


def test_reads_are_read_in_most_games():
    """Not vacuous: greedy seats' choices bar cards in the games above."""
    barred = 0
    for game in range(20):
        g = Game(MoskaRules(), 4, 3, game, ("mc(determinizations=2, beliefs=reads)",) + ("greedy",) * 3)
        while compiled.to_act(g.s) >= 0:
            barred += sum(bin(int(b)).count("1") for b in g.s["barred"])
            g.step()
    assert barred > 1000


@given(mc_setups(), st.data())
def test_a_read_and_a_world_depend_only_on_what_the_seat_sees(cell, data):
    """A read uses only the decision and the public table: the hidden cards dealt again, the same read."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    g.s["reads"] = True
    gen = np.random.default_rng(game)
    for _ in range(data.draw(st.integers(0, 100))):
        seat = compiled.to_act(g.s)
        if seat < 0:
            return
        other = hidden_cards_dealt_again(g.s, g.p, seat, players, gen)
        compiled.choose(g.s, g.p, g.policies, g.move[0], g.work)
        assert compiled.read(g.s, g.p, g.move[0]) == compiled.read(other[0], g.p, g.move[0])
        compiled.apply(g.s, g.p, g.move[0])


@given(setups(), st.data())
def test_a_world_meets_the_reads_as_far_as_the_cards_go(cell, data):
    """Seat by seat, a world gives a hand a barred card only when fewer unbarred hidden cards are left than
    it needs; the rest of the world is as with uniform beliefs (test_mc.py)."""
    rules, players, _, seed, game = cell
    seats = ("mc(determinizations=2, beliefs=reads)",) * players
    g = Game(rules, players, seed, game, seats)
    for _ in range(data.draw(st.integers(0, 150))):
        if compiled.to_act(g.s) < 0:
            return
        g.step()
    seat = compiled.to_act(g.s)
    if seat < 0:
        return
    w, s = g.work, g.s
    n = compiled.hidden_cards(s, g.p, seat, w)
    hidden = sum(1 << int(c) for c in w["hidden"][:n])
    for j in range(4):
        w["worlds"][0] = s
        world = w["worlds"][0]
        compiled.determinize(world, g.p, seat, np.uint64(jit.world_key(s["key"], s["turns"], j)), n, w)
        dealt = 0
        for q in range(players):
            if q == seat:
                continue
            mine = int(world["hands"][q]) & ~int(compiled.shown(s, q))
            free = hidden & ~dealt & ~int(s["barred"][q])
            need = bin(mine).count("1")
            assert bin(mine & int(s["barred"][q])).count("1") == max(0, need - bin(free).count("1")), q
            dealt |= mine


def test_with_no_reads_the_worlds_are_the_uniform_ones():
    """``beliefs=reads`` with nothing read yet deals the worlds of ``beliefs=uniform``: the same first decisions."""
    a = Game(MoskaRules(), 4, 2, 7, ("mc(search_stock=all, beliefs=reads)",) + ("greedy",) * 3)
    b = Game(MoskaRules(), 4, 2, 7, ("mc(search_stock=all)",) + ("greedy",) * 3)
    b.s["reads"] = True  # keep the reads in both; only the seat's beliefs differ
    while compiled.to_act(a.s) >= 0 and not a.s["barred"].any():
        a.step()
        b.step()
        assert a.state.tobytes() == b.state.tobytes()


# --- the oracle ---------------------------------------------------------------------------

@given(st.integers(0, 10**6), st.sampled_from(["greedy", "random", "learned"]))
def test_where_nothing_is_hidden_the_oracle_decides_as_mc(game, base):
    """Two players with the stock empty: the seat's view pins the other hand, so ``mc``'s worlds are the true
    state and the oracle (the same search on it) makes the same decisions (over ``greedy`` and ``learned``,
    which draw nothing, in one world instead of ``mc``'s three alike)."""
    rules = MoskaRules(hand_size=9)
    g = Game(rules, 2, 5, game, ("greedy", "greedy"))
    while compiled.to_act(g.s) >= 0 and compiled.stock_left(g.s) > 0:
        g.step()
    mc, oracle = table((f"mc(determinizations=3, base={base})",) * 2), table((f"oracle(determinizations=3, base={base})",) * 2)
    a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
    while compiled.to_act(g.s) >= 0:
        compiled.choose(g.s, g.p, mc, a[0], g.work)
        compiled.choose(g.s, g.p, oracle, b[0], g.work)
        assert a.tobytes() == b.tobytes()
        compiled.apply(g.s, g.p, a[0])


def test_the_oracle_sees_the_hidden_cards():
    """Dealing the hidden cards again changes some of its decisions (never ``mc``'s: test_mc.py)."""
    changed = 0
    gen = np.random.default_rng(1)
    for game in range(10):
        g = Game(MoskaRules(), 3, 4, game, ("oracle(search_stock=all)",) * 3)
        a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
        while compiled.to_act(g.s) >= 0:
            other = hidden_cards_dealt_again(g.s, g.p, g.s["seat"], 3, gen)
            compiled.choose(g.s, g.p, g.policies, a[0], g.work)
            compiled.choose(other[0], g.p, g.policies, b[0], g.work)
            changed += a.tobytes() != b.tobytes()
            compiled.apply(g.s, g.p, a[0])
    assert changed > 0


def test_oracle_games_are_deterministic_and_labelled_unfair():
    seats = ["oracle", "greedy", "mc", "random"]
    first = cardsim.simulate("moska", players=4, games=5, seed=2, policy=seats)
    pd.testing.assert_frame_equal(first, cardsim.simulate("moska", players=4, games=5, seed=2, policy=seats))
    assert "not a fair player" in unfair_note(seats) and unfair_note(["mc", "greedy"]) == ""
