"""The Moska ``mc`` policy (docs/design.md#the-mc-policy): parameters, information sets, legality, play-outs, both engines alike.

The information-set test deals the cards the deciding seat cannot see again at every decision of
games with ``mc`` seats: the decision and the worlds ``mc`` deals are the same. The reference
engine's ``mc`` decides on ``compiled.state_from`` of its position: that state is checked equal to
the compiled engine's at every decision, and ``mc`` games give the same records on both engines
and in ``cardsim.replay``.
"""
import functools
import operator

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import jit
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.records import frame
from cardsim.games.moska import GAME, compiled, reference
from cardsim.games.moska.compiled_policies import table
from cardsim.games.moska.policies import SEARCH_STOCK, GreedyPolicy, RandomPolicy
from cardsim.games.moska.seating import MonteCarloPolicy, make_policy
from cardsim.games.moska.rules import MoskaRules

from .states import INVARIANTS, Game, assert_same_decision, hidden_cards_dealt_again
from .strategies import mc_setups, setups


def records(engine, rules, players, seed, games, seats) -> pd.DataFrame:
    if engine == "reference":
        return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    return frame(compiled.simulate(rules, players, seed, np.asarray(games), seats), GAME.columns)


# --- parameters ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, match", [
    ("mc(depth=3)", "moska policy mc has no parameter 'depth'; known: determinizations, base"),
    ("mc(determinizations=0)", "moska policy mc: determinizations=0 must be an integer from 1 to 1024"),
    ("mc(determinizations=1025)", "determinizations=1025 must be an integer from 1 to 1024"),
    ("mc(base=mc)", "moska policy mc: base='mc' must be one of random, greedy"),
    ("mc(base=smart)", "base='smart' must be one of random, greedy"),
])
def test_mc_parameters_are_checked_with_one_line(text, match):
    for call in (lambda: make_policy(text), lambda: cardsim.simulate("moska", players=3, games=2, policy=text),
                 lambda: cardsim.simulate("moska", players=3, games=2, policy=text, engine="reference")):
        with pytest.raises(ValueError, match=match.replace("(", r"\(")) as err:
            call()
        assert "\n" not in str(err.value)


def test_mc_alone_means_its_defaults():
    """``mc`` = ``mc()`` = ``mc(determinizations=32, base=greedy)``: the same policy, the same games."""
    assert isinstance(make_policy("mc()"), MonteCarloPolicy)
    assert make_policy("mc").search == make_policy("mc()").search == make_policy("mc(base='greedy')").search
    assert (make_policy("mc").search.determinizations, make_policy("mc").search.base) == (32, "greedy")
    assert (table(("mc",)) == table(("mc(determinizations=32, base=greedy)",))).all()
    got = [records("compiled", MoskaRules(), 4, 3, np.arange(20), (text, "greedy", "random", "greedy"))
           for text in ("mc", "mc()", "mc(determinizations=32, base=greedy)")]
    pd.testing.assert_frame_equal(got[0], got[1])
    pd.testing.assert_frame_equal(got[0], got[2])
    assert "mc" in GAME.policies


# --- decisions ----------------------------------------------------------------------------

def last_trick(mc: str):
    """2 players, trump ♠, stock empty, every other card discarded: seat 0 opens holding ♠A ♦2, seat 1 holds ♦5.
    Greedy opens ♦2: seat 1 kills it, goes out, and seat 0 is left with ♠A (loses). Opening ♠A wins: seat 1
    cannot kill it and picks it up; seat 0 then opens ♦2 and goes out."""
    g = Game(MoskaRules(), 2, 0, 0, (mc, "greedy"))
    s = g.s
    hands = (F.hand("♠A ♦2"), F.hand("♦5"))
    s["hands"][0], s["hands"][1] = hands
    s["known"][:] = 0
    s["discard"] = ((1 << 52) - 1) & ~(hands[0] | hands[1])
    s["drawn"] = s["stock_size"]
    s["trump"], s["turned"] = 3, F.parse("♠7")
    s["attacker"], s["defender"], s["start_hand"], s["phase"], s["seat"] = 0, 1, 1, compiled.OPEN, 0
    s["out"] = s["finish"] = s["n_out"] = 0
    return g


@pytest.mark.parametrize("mc", ["mc", "mc(determinizations=1)", "mc(base=random)"])
def test_mc_finds_the_opening_that_does_not_lose_where_greedy_loses(mc):
    greedy = last_trick("greedy")
    greedy.play_out()
    assert greedy.s["loser"] == 0
    g = last_trick(mc)
    g.step()
    assert int(g.s["attack"]) == F.hand("♠A")
    g.play_out()
    assert g.s["loser"] == 1


def test_one_candidate_is_taken_without_a_play_out():
    """While the stock holds more than ``search_stock`` (8 by default) cards ``mc`` over ``greedy`` plays greedy's
    decision and deals no world (its scratch is untouched); later, with several candidates, it does."""
    g = Game(MoskaRules(), 4, 1, 5, ("mc",) * 4)
    greedy = Game(MoskaRules(), 4, 1, 5, ("greedy",) * 4)
    searched = 0
    while compiled.to_act(g.s) >= 0:
        worlds, scores = g.work["worlds"].tobytes(), g.work["score"].tobytes()
        early = compiled.stock_left(g.s) > SEARCH_STOCK
        n = 1 if early else compiled.decision_candidates(g.s, g.p, compiled.new_work()[0]["candidates"])
        compiled.choose(g.s, g.p, g.policies, g.move[0], g.work)
        if n == 1:
            assert g.work["worlds"].tobytes() == worlds and g.work["score"].tobytes() == scores
            compiled.choose(g.s, g.p, greedy.policies, greedy.move[0], g.work)
            assert greedy.move[0]["cards"] == g.move[0]["cards"]
        else:
            searched += 1
            assert g.work["worlds"].tobytes() != worlds
        compiled.apply(g.s, g.p, g.move[0])
    assert searched > 0


@given(mc_setups(unfair=True))
def test_mc_decisions_are_legal_and_the_rules_invariants_hold(cell):
    """benchmarks/invariants_moska.py's checked loop (M-8 … M-14 legality, card conservation, results) with
    ``mc`` seats."""
    rules, players, seats, seed, first = cell
    counts = INVARIANTS.check_games(rules, players, seed, np.arange(first, first + 6), seats)
    assert counts["games"] == 6 and counts["decisions"] > 0
    assert {k: counts[k] for k in INVARIANTS.VIOLATIONS if counts[k]} == {}


# --- information sets -----------------------------------------------------------------------

@given(mc_setups())
def test_an_mc_decision_and_its_worlds_depend_only_on_the_deciding_seats_view(cell):
    """At every decision of games with ``mc`` seats, the cards the seat cannot see dealt again: the same
    hidden cards, the same worlds (byte for byte), the same decision of every seat's policy."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    gen = np.random.default_rng(game)
    a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
    wa, wb = compiled.new_work()[0], compiled.new_work()[0]
    for _ in range(150):
        seat = compiled.to_act(g.s)
        if seat < 0:
            break
        other = hidden_cards_dealt_again(g.s, g.p, seat, players, gen)
        n = compiled.hidden_cards(g.s, g.p, seat, wa)
        assert compiled.hidden_cards(other[0], g.p, seat, wb) == n
        assert (wa["hidden"][:n] == wb["hidden"][:n]).all()
        for j in range(2):
            key = np.uint64(jit.world_key(g.s["key"], g.s["turns"], j))
            wa["worlds"][0], wb["worlds"][0] = g.s, other[0]
            compiled.determinize(wa["worlds"][0], g.p, seat, key, n, wa)
            compiled.determinize(wb["worlds"][0], g.p, seat, key, n, wb)
            assert wa["worlds"][0].tobytes() == wb["worlds"][0].tobytes()
        assert_same_decision(g, other, a, b)
        g.step()


@given(setups(), st.data())
def test_a_world_keeps_the_view_and_deals_the_hidden_cards(cell, data):
    """A world is a state the seat could be in: its own hand, the shown cards, every hand size, the table,
    the discard, the stock's size and last card unchanged; all 52 cards in one place each, the others'
    unshown cards and the stock's drawn from the hidden cards; the trump 2 in the stock while M-6 says
    it must be."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    for _ in range(data.draw(st.integers(0, 120))):
        if compiled.to_act(g.s) < 0:
            return
        g.step()
    seat = compiled.to_act(g.s)
    if seat < 0:
        return
    w, s = g.work, g.s
    n = compiled.hidden_cards(s, g.p, seat, w)
    hidden = sum(1 << int(c) for c in w["hidden"][:n])
    two = int(s["trump"]) * 13
    for j in range(8):
        w["worlds"][0] = s
        world = w["worlds"][0]
        compiled.determinize(world, g.p, seat, np.uint64(jit.world_key(s["key"], s["turns"], j)), n, w)
        assert world["hands"][seat] == s["hands"][seat] and world["key"] == jit.world_key(s["key"], s["turns"], j)
        for q in range(players):
            assert bin(int(world["hands"][q])).count("1") == bin(int(s["hands"][q])).count("1")
            assert int(world["hands"][q]) & int(compiled.shown(s, q)) == int(compiled.shown(s, q))
            if q != seat:
                assert int(world["hands"][q]) & ~int(compiled.shown(s, q)) & ~hidden == 0
        stock = [int(c) for c in world["stock"][world["drawn"]:world["stock_size"]]]
        assert all(hidden >> c & 1 or c == two for c in stock[:-1])
        assert world["stock"][world["stock_size"] - 1] == s["stock"][s["stock_size"] - 1]
        places = [int(world["hands"][q]) for q in range(players)] + [1 << c for c in stock]
        places += [int(world["discard"]), int(world["attack"]), int(world["kills"])]
        assert sum(bin(m).count("1") for m in places) == 52 and functools.reduce(operator.or_, places) == (1 << 52) - 1
        if compiled.trump_two_in_stock(s, g.p, seat):
            assert two in stock[:-1] and not hidden >> two & 1
        for name in ("discard", "attack", "unkilled", "kills", "known", "added", "phase", "seat", "turns"):
            assert np.array_equal(world[name], s[name]), name


# --- the reference engine's positions --------------------------------------------------------

class Recorder:
    """A seat's policy that also records ``state_from`` of the reference game at each decision's first call."""

    def __init__(self, policy, states: dict):
        self.policy, self.states = policy, states

    def _seen(self, v, kind):
        if v.turn not in self.states:
            self.states[v.turn] = compiled.state_from(v.game, kind, v.seat)[0]

    def open(self, v):
        self._seen(v, "open")
        return self.policy.open(v)

    def kill(self, v, a, killers):
        self._seen(v, "defend")
        return self.policy.kill(v, a, killers)

    def self_attack(self, v, c, killers):
        self._seen(v, "defend")
        return self.policy.self_attack(v, c, killers)

    def add(self, v, cands, room):
        self._seen(v, "add")
        return self.policy.add(v, cands, room)

    def give_back(self, v, cards, e):
        self._seen(v, "give_back")
        return self.policy.give_back(v, cards, e)


SAME_FIELDS = ("key", "trump", "turned", "discard", "attack", "unkilled", "kills", "start_hand", "gone", "attacker",
               "defender", "phase", "seat", "out", "finish", "n_out", "turns", "rounds", "swaps", "overplays",
               "pickups", "self_attacks", "reads")


@given(setups(), st.booleans())
def test_state_from_a_reference_game_is_the_compiled_state_at_every_decision(cell, reads):
    """``state_from`` (the reference ``mc``'s position) equals the compiled engine's state wherever the reference
    asks a policy: hands, known cards (picked up, taken back, swapped, drawn last), the stock left, the
    table, the addition step, the counters, and (kept with ``reads``) the reads of every seat."""
    rules, players, seats, seed, game = cell
    states: dict = {}
    policies = [Recorder({"random": RandomPolicy, "greedy": GreedyPolicy}[p](), states) for p in seats]
    s = reference.deal(rules, players, jit.game_key(np.uint64(seed), game))
    s.reads = reads
    reference.swap_after_deal(s)
    reference.run(s, policies)
    g = Game(rules, players, seed, game, seats)
    g.s["reads"] = reads
    while compiled.to_act(g.s) >= 0:
        turn = int(g.s["turns"])
        if turn in states:
            want, got = g.s, states.pop(turn)
            for name in SAME_FIELDS:
                assert want[name] == got[name], (turn, name)
            assert (want["hands"] == got["hands"]).all() and (want["known"] == got["known"]).all(), turn
            assert (want["added"] == got["added"]).all() and (want["barred"] == got["barred"]).all(), turn
            left = int(want["stock_size"] - want["drawn"])
            assert got["stock_size"] == left
            assert (want["stock"][want["drawn"]:want["stock_size"]] == got["stock"][:left]).all()
            if want["phase"] in (compiled.ADD, compiled.GIVE_BACK):
                for name in ("step_room", "step_allowed", "adder") if want["phase"] == compiled.ADD else ("excess",):
                    assert want[name] == got[name], (turn, name)
        g.step()
    assert not states


@given(mc_setups(unfair=True))
def test_mc_games_are_the_same_on_both_engines(cell):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 3)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@pytest.mark.parametrize("preset", ["moska", "turamoska", "pyhaselka", "taraki"])
def test_a_few_hundred_mc_games_are_the_same_on_both_engines(preset):
    """One ``mc`` seat (the default 32 worlds) among ``greedy`` and ``random`` seats, rotated: 4 x 64 games."""
    rules = MoskaRules.preset(preset)
    for k, seats in enumerate((("mc", "greedy", "greedy", "greedy"), ("greedy", "random", "mc", "random"),
                               ("mc(base=random)", "greedy", "mc(determinizations=8)"))):
        games = np.arange(k * 100, k * 100 + (24 if len(seats) == 4 else 16))
        pd.testing.assert_frame_equal(records("reference", rules, len(seats), 21, games, seats),
                                      records("compiled", rules, len(seats), 21, games, seats))


def test_mc_replays_equal_the_batch_rows():
    seats = ["greedy", "mc", "random", "mc(determinizations=4, base=random)"]
    batch = cardsim.simulate("moska", "turamoska", players=4, games=6, seed=9, policy=seats)
    for g in range(6):
        replay = cardsim.replay("moska", "turamoska", players=4, seed=9, game=g, policy=seats)
        assert frame([replay.record], GAME.columns).iloc[0].to_dict() == batch.iloc[g].to_dict()


# --- the state API with mc seats ------------------------------------------------------------

@given(mc_setups(unfair=True), st.data())
def test_with_mc_seats_a_copy_plays_out_alone_and_any_decision_plays_out_to_the_straight_record(cell, data):
    rules, players, seats, seed, game = cell
    straight = Game(rules, players, seed, game, seats)
    record = straight.record(straight.play_out())
    g = Game(rules, players, seed, game, seats)
    for _ in range(data.draw(st.integers(0, int(record["turns"])))):
        g.step()
    before = g.state.copy()
    copy = np.zeros(1, compiled.STATE)
    compiled.copy_state(copy, g.s)
    assert g.record(g.play_out(copy)) == record
    assert g.state.tobytes() == before.tobytes()
