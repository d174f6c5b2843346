"""The compiled engine's explicit state: equal to the reference engine's table after every
decision, legal decisions only, policies that see their view only, states that copy and
play out to the same records."""
import numpy as np
import pandas as pd
from hypothesis import assume, given
from hypothesis import strategies as st

import cardsim
from cardsim.core import jit, rng
from cardsim.core.records import finish_strings
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija import seating
from cardsim.games import spec
from cardsim.games.musta_maija.cards import card_list, mask

from .states import joined, redealt, table_view, view
from .strategies import setups

GAME = spec("musta_maija")
WORK = C.new_work()[0]
"""Scratch for ``choose`` and ``play_out``."""

RECORD_COLUMNS = ("turns", "truncated", "loser", "rounds", "first_out", "finish_order", "black_maria_holder",
                  "trump_suit", "trump_declared_turn")


def new_game(rules, players: int, seed: int, game: int, codes: np.ndarray | None = None):
    """A dealt compiled game: (state, move, params); with the policy table ``codes`` it keeps the reads as
    ``run_games`` does (``compiled_policies.reads_of``)."""
    state, m = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    p = C.make_params(rules, players)[0]
    scratch = np.zeros(C.MAX_CARDS, np.uint64), np.zeros(C.MAX_CARDS, np.int64), np.zeros(C.MAX_CARDS, np.int64), np.zeros(jit.BUCKETS + 1, np.int64)
    C.deal(state[0], p, np.uint64(rng.game_key(seed, game)), *scratch)
    state[0]["reads"] = codes is not None and cpol.reads_of(codes)
    return state, m, p


def record_of(s: np.void, game: int) -> dict:
    """The record of a finished state, as the reference writes it."""
    out = np.zeros(len(C.RECORD), np.int64)
    C.record(s, out)
    r = dict(zip(C.RECORD, out.tolist()))
    finish = r.pop("finish")
    r["truncated"], r["first_out"] = bool(r["truncated"]), finish % 16 - 1
    r["finish_order"] = finish_strings(np.array([finish]), int(s["players"]))[0]
    return {"game": game, **{k: r[k] for k in RECORD_COLUMNS}}


@given(setups(mc=True))
def test_the_state_equals_the_reference_table_after_every_decision_and_every_decision_is_legal(setup):
    """Each compiled decision (``mc`` seats' too) is legal (``is_legal``), cards are conserved, what is
    ``known`` is held, and hands, stock, table, discard, trump, the turned card, what is known,
    counters and the finish order equal the reference's."""
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    codes = cpol.table(seats)
    state, m, p = new_game(rules, players, seed, 0, codes)
    s = state[0]
    every = mask(card_list(players))
    t = None
    for i, t in enumerate(seating.play_states(rules, players, seed, 0, seats)):
        if i:
            assert C.to_act(s) >= 0
            C.choose(s, p, codes, m[0], WORK)
            assert C.is_legal(s, p, m[0])
            C.apply(s, p, m[0])
        assert view(s) == table_view(t)
        parts = [joined(*s["hands"][q]) for q in range(players)] + [
            mask(view(s)["stock"]), joined(*s["table"]), joined(*s["discard"])]
        assert sum(parts) == every
        for q in range(players):
            assert joined(*s["known"][q]) & ~joined(*s["hands"][q]) == 0
    assert C.to_act(s) == -1 and record_of(s, 0) == ref.record(t, 0)


@given(setups(max_players=5, mc=True), st.integers(0, 60))
def test_a_copy_played_out_leaves_the_original_unchanged_and_gives_the_straight_through_record(setup, stop):
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    codes = cpol.table(seats)
    state, m, p = new_game(rules, players, seed, 7, codes)
    for _ in range(stop):
        if C.to_act(state[0]) < 0:
            break
        C.choose(state[0], p, codes, m[0], WORK)
        C.apply(state[0], p, m[0])
    before = state.copy()
    copy = np.zeros(1, C.STATE)
    C.copy_state(copy, state[0])
    C.play_out(copy[0], p, codes, m[0], WORK)
    assert state.tobytes() == before.tobytes()
    straight = cardsim.replay("musta_maija", rules, players=players, seed=seed, game=7, policy=policy).record
    assert record_of(copy[0], 7) == straight


def test_playing_out_from_every_decision_gives_the_straight_through_record():
    for preset, players, policy in (("musta_maija", 4, "random"), ("house", 6, "greedy"),
                                    ("black_trump", 3, "random"), ("turned", 8, "greedy")):
        rules = cardsim.rules("musta_maija", preset)
        seats = (policy,) * players
        codes = cpol.table(seats)
        straight = cardsim.simulate("musta_maija", rules, players=players, seed=5, games=1, first_game=3,
                                    policy=policy).iloc[0].to_dict()
        state, m, p = new_game(rules, players, 5, 3)
        decisions = 0
        while True:
            copy = np.zeros(1, C.STATE)
            C.copy_state(copy, state[0])
            C.play_out(copy[0], p, codes, np.zeros(1, C.MOVE)[0], WORK)
            assert record_of(copy[0], 3) == straight
            if C.to_act(state[0]) < 0:
                break
            C.choose(state[0], p, codes, m[0], WORK)
            C.apply(state[0], p, m[0])
            decisions += 1
        assert decisions == straight["turns"] > 20


@given(setups(mc=True), st.integers(0, 40), st.integers(0, 2**64 - 1))
def test_a_policy_decides_from_its_view_only(setup, stop, shuffle_key):
    """The information-set test (docs/design.md#the-mc-policy): two states that differ only in hidden cards (other hands'
    unknown cards, the stock's order, the cards dealt or drawn before) give the seat to act the same
    decision, ``mc`` seats included."""
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    codes = cpol.table(seats)
    state, m, p = new_game(rules, players, seed, 1, codes)
    for _ in range(stop):
        if C.to_act(state[0]) >= 0:
            C.choose(state[0], p, codes, m[0], WORK)
            C.apply(state[0], p, m[0])
    seat = C.to_act(state[0])
    assume(seat >= 0)
    other = redealt(state, seat, shuffle_key)
    s = other[0]
    m2 = np.zeros(1, C.MOVE)
    C.choose(state[0], p, codes, m[0], WORK)
    C.choose(s, p, codes, m2[0], WORK)
    assert m.tobytes() == m2.tobytes()


def test_records_do_not_depend_on_jobs_or_chunks():
    kw = dict(players=4, games=300, seed=2**64 - 1, policy=["random", "greedy", "greedy", "random"])
    one = cardsim.simulate("musta_maija", **kw)
    for split in (dict(chunk_size=1), dict(chunk_size=37, n_jobs=2), dict(chunk_size=300, n_jobs=2)):
        pd.testing.assert_frame_equal(one, cardsim.simulate("musta_maija", **split, **kw))
    assert (one.game == np.arange(300)).all()
    kw = dict(players=4, games=40, seed=3, policy=["random", "mc(determinizations=4)", "greedy", "greedy"])
    one = cardsim.simulate("musta_maija", **kw)
    for split in (dict(chunk_size=1), dict(chunk_size=7, n_jobs=2)):
        pd.testing.assert_frame_equal(one, cardsim.simulate("musta_maija", **split, **kw))
