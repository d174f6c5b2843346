"""The compiled engine's explicit state: the deal, copies, play-outs from any decision, what a seat's view
holds (``choose`` reads nothing else; ``ruled_out`` is exactly what the plays show) and records that do not
depend on jobs or chunks."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.games.molotow import COLUMNS, HAND_COLUMNS
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow.reference import deal, legal_moves
from cardsim.games.molotow.rules import MolotowRules

from .states import played_to, record_of
from .strategies import policies, rules_and_players

ALL = (1 << 36) - 1


def seats_of(policy, players: int) -> tuple[str, ...]:
    return (policy,) * players if isinstance(policy, str) else tuple(policy)


def test_record_columns_are_the_games_columns():
    assert list(C.RECORD) == [c.name for c in COLUMNS]
    assert list(C.HAND_RECORD) == [c.name for c in HAND_COLUMNS]


@given(st.integers(0, 2**64 - 1), st.integers(0, 11), st.sampled_from([3, 4]))
def test_MJ5_compiled_deal_equals_the_reference_deal_and_draws_the_hands_policy_draws(key, hand_no, players):
    """Rule MJ-5 of docs/rules/molotow.md: the compiled deal gives every seat the reference engine's cards."""
    s = C.new_state()[0]
    s["key"], s["players"], s["hand_no"] = key, players, hand_no
    C.deal(s)
    assert s["held"][:players].tolist() == deal(key, hand_no, players)
    assert s["leader"] == (hand_no + 1) % players and s["dealer"] == hand_no % players
    turns = range(36 * hand_no, 36 * hand_no + 36)
    assert s["policy_draws"].tolist() == [rng.draw(key, rng.Stream.POLICY, t, 0) for t in turns]


@given(st.integers(1, 2**36 - 1), st.data())
def test_nth_card_is_the_card_of_that_index_in_ascending_code(mask, data):
    cards = list(cards_of(mask))
    k = data.draw(st.integers(0, len(cards) - 1))
    assert C.nth_card(np.uint64(mask), k) == cards[k]


def test_nth_card_on_every_index_of_full_and_sparse_masks():
    for mask in (ALL, 1, 1 << 35, 0b101 << 30, 0x0F0F0F0F0, 0x8000000FF):
        cards = list(cards_of(mask))
        assert [C.nth_card(np.uint64(mask), k) for k in range(len(cards))] == cards


@pytest.mark.parametrize("high", [0, 1 << 32, 2**64 - 2**33])
def test_rank_draws_is_the_stable_order_even_when_draws_share_their_top_halves(high):
    r = np.random.default_rng(high % 1000)
    for low in ([5, 3, 5, 1, 3], [7, 2**32 - 1, 0, 9, 4]):    # tied draws; equal top halves only
        draws = np.array([high + x for x in low] + (r.integers(0, 2**63, 31, dtype=np.uint64) * 2).tolist(),
                         dtype=np.uint64)
        tops, ranks = np.zeros(36, dtype=np.uint32), np.zeros(36, dtype=np.int32)
        C.rank_draws(draws, tops, ranks)
        order = sorted(range(36), key=lambda i: (int(draws[i]), i))
        assert ranks.tolist() == [order.index(i) for i in range(36)]


@pytest.mark.long
@given(rules_and_players(max_hands=2), st.integers(0, 2**63), st.integers(0, 10**6), st.integers(0, 80), st.data())
def test_playing_out_a_copy_from_any_decision_gives_the_straight_through_record(rp, seed, game, decision, data):
    rules, players = rp
    seats = seats_of(data.draw(policies(players)), players)
    straight = cardsim.simulate("molotow", rules, players=players, games=1, seed=seed, first_game=game, policy=seats)
    st, params, table = played_to(rules, players, seed, game, seats, decision)
    before = st.copy()
    copy = C.new_state()
    C.copy_state(copy, st)
    C.play_out(copy[0], params, table, C.new_work()[0])
    assert st.tobytes() == before.tobytes()                      # the original is unchanged
    assert record_of(copy, params, game) == straight.iloc[0].astype(np.int64).tolist()
    C.play_out(st[0], params, table, C.new_work()[0])            # and the original plays out the same
    assert st.tobytes() == copy.tobytes()


def test_a_mid_game_copy_is_a_separate_game():
    rules = MolotowRules()
    st, params, _ = played_to(rules, 4, 5, 17, ("random",) * 4, 150)
    snapshot = st.copy()
    copy = C.new_state()
    C.copy_state(copy, st)
    assert copy.tobytes() == st.tobytes()
    C.play_out(copy[0], params, C.policy_table(("greedy", "mc(determinizations=2)") * 2),
               C.new_work()[0])                                   # other policies: another ending
    assert st.tobytes() == snapshot.tobytes()
    assert C.game_over(copy[0], params) and not C.game_over(st[0], params)


def hide_differently(st, seat: int, r: np.random.Generator):
    """The same state but for the hidden cards: the other seats' unplayed cards dealt anew among them,
    each keeping its number of cards."""
    other = C.new_state()
    C.copy_state(other, st)
    s = other[0]
    n = s["players"]
    others = [p for p in range(n) if p != seat]
    pool = r.permutation([c for p in others for c in cards_of(int(s["held"][p]))])
    start = 0
    for p in others:
        size = bin(int(s["held"][p])).count("1")
        s["held"][p] = sum(1 << int(c) for c in pool[start:start + size])
        start += size
    return other


@pytest.mark.parametrize("players, policy", [(4, "random"), (4, "greedy"), (3, "greedy"), (3, "random"),
                                             (4, "mc(determinizations=4)"), (3, "mc(determinizations=3, base=random)")])
def test_choose_reads_only_the_seats_view(players, policy):
    """Two states that differ only in the other seats' hidden cards give the same decision (for ``mc``, the
    hidden cards dealt anew even against ``ruled_out``: its worlds read the view, never the hands)."""
    rules = MolotowRules(players=players)
    r = np.random.default_rng(7)
    changed = 0
    for decision in range(0, 12 * 36, 7):
        st, params, table = played_to(rules, players, 3, decision, (policy,) * players, decision)
        seat = C.to_act(st[0])
        other = hide_differently(st, seat, r)
        changed += other.tobytes() != st.tobytes()
        assert C.choose(other[0], params, table, C.new_work()[0]) == C.choose(st[0], params, table, C.new_work()[0])
    assert changed > 50


def check_ruled_out(rules: MolotowRules, players: int, seed: int, game: int, seats: tuple[str, ...]) -> int:
    """Play a game card by card; after each card, ``ruled_out`` holds every hidden card x such that holding
    x as well would have made that card illegal (MJ-7…MJ-11), and no other, and it never meets a seat's
    hand. Returns the number of cards that showed something."""
    params, table, work = C.make_params(rules, players), C.policy_table(seats), C.new_work()
    st = C.new_state()
    s = st[0]
    C.new_game(s, params, np.uint64(rng.game_key(seed, game)))
    showing = 0
    while not C.game_over(s, params):
        seat, hand_no = C.to_act(s), s["hand_no"]
        hand, before = int(s["held"][seat]), int(s["ruled_out"][seat])
        trick = s["trick"][:s["trick_len"]].tolist()
        trump, hidden = int(s["trump"]), ALL & ~hand & ~int(s["played"])
        card = C.choose(s, params, table, work[0])
        C.apply(s, params, card)
        if s["hand_no"] != hand_no:
            continue                                             # the next hand is dealt: a fresh record
        after = int(s["ruled_out"][seat])
        shown = sum(1 << x for x in cards_of(hidden)
                    if not legal_moves(hand | 1 << x, trick, trump, rules.undertrump) >> card & 1)
        assert after & before == before and after & shown == shown
        assert (after & ~before) & hidden & ~shown == 0
        showing += shown & ~before != 0
        for p in range(players):
            assert int(s["ruled_out"][p]) & int(s["held"][p]) == 0
    return showing


@pytest.mark.parametrize("rules, players", [("molotow", 4), ("swiss", 4), ("molotow(undertrump='allowed')", 4),
                                            ("mittlere", 3)])
def test_ruled_out_is_exactly_what_each_card_shows(rules, players):
    """Rules MJ-7, MJ-10 and MJ-11 of docs/rules/molotow.md, as a seat's plays make them public."""
    r = cardsim.rules("molotow", rules)
    shows = [check_ruled_out(r, players, 99, game, seats_of(policy, players))
             for game, policy in enumerate(["random", "greedy", ["random", "greedy", "random", "greedy"][:players]])]
    assert min(shows) > 0


@given(rules_and_players(max_hands=2), st.integers(0, 2**32), st.integers(0, 10**6), st.data())
def test_ruled_out_on_random_knobs(rp, seed, game, data):
    rules, players = rp
    check_ruled_out(rules, players, seed, game, seats_of(data.draw(policies(players)), players))


@pytest.mark.parametrize("policy", ["random", ["greedy", "random", "greedy", "random"],
                                    ["greedy", "mc(determinizations=4)", "random", "mc(determinizations=2, base=random)"]])
def test_records_do_not_depend_on_jobs_or_chunks(policy):
    kw = dict(players=4, games=60, seed=2**64 - 1, policy=policy, first_game=10**9)
    one = cardsim.simulate("molotow", "swiss", **kw)
    pd.testing.assert_frame_equal(one, cardsim.simulate("molotow", "swiss", chunk_size=7, **kw))
    pd.testing.assert_frame_equal(one, cardsim.simulate("molotow", "swiss", chunk_size=13, n_jobs=2, **kw))
    pd.testing.assert_frame_equal(one, cardsim.simulate("molotow", "swiss", engine="vector", **kw))
