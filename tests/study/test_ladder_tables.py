"""The ladder's pure parts: the seatings design, the measure of a record, and both tables
against hand computations on tiny fixed ladders."""
import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from cardsim.study.ladder import rating
from cardsim.study.ladder.tables import ALL, Measure, Tally, format_report, measure_of
from cardsim.study.plan.seatings import seatings
from cardsim.study.report.stats import paired_mean, wilson

POLICIES = ["random", "greedy", "mc(determinizations=32, base=greedy)", "greedy(bluff=0.1, challenge=0.5)"]


def _seat_counts(rows):
    return Counter((p, s) for row in rows for s, p in enumerate(row))


@given(st.integers(2, 4), st.integers(2, 6))
def test_pairs_seat_one_policy_among_another_and_every_policy_in_every_seat_equally_often(k, players):
    policies = POLICIES[:k]
    rows = seatings(policies, players, "pairs")
    assert len(rows) == len(set(rows)) == (players * k * (k - 1) if players > 2 else k * (k - 1))
    for row in rows:  # one seat of A, all the others B
        counts = Counter(row)
        assert len(counts) == 2 and sorted(counts.values()) == [1, players - 1]
    for a, b in itertools.permutations(policies, 2):  # A among B: A in each seat once
        single = [row.index(a) for row in rows if row.count(a) == 1 and set(row) == {a, b}]
        assert sorted(single) == list(range(players))
    counts = _seat_counts(rows)
    assert set(counts.values()) == {len(rows) // k} and len(counts) == k * players


@given(st.integers(2, 3), st.integers(2, 4))
def test_all_is_every_assignment_each_policy_in_each_seat_equally_often(k, players):
    rows = seatings(POLICIES[:k], players, "all")
    assert len(rows) == len(set(rows)) == k ** players
    assert set(_seat_counts(rows).values()) == {k ** (players - 1)}


def test_pairs_order_and_policy_strings_with_commas():
    assert seatings(["a", "b"], 3) == [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a"),
                                       ("b", "a", "a"), ("a", "b", "a"), ("a", "a", "b")]
    assert seatings(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    mc = "mc(determinizations=32, base=greedy)"
    assert seatings(["greedy", mc], 2) == [("greedy", mc), (mc, "greedy")]


@pytest.mark.parametrize("args, message", [
    ((["a"], 4), "at least two distinct policies"),
    ((["a", "a"], 4), "at least two distinct policies"),
    ((["a", "b"], 1), "at least two players"),
    ((["a", "b"], 4, "some"), "unknown seatings 'some'; known seatings: pairs, all"),
])
def test_bad_designs_are_one_line_errors(args, message):
    with pytest.raises(ValueError, match=message):
        seatings(*args)


def test_the_measure_is_found_by_column_name():
    assert measure_of(["game", "turns", "truncated", "loser", "rounds"]) == Measure("loser")
    assert measure_of(["game", "truncated", "winner", "winners", "score_0", "score_1"]) == Measure("score")
    assert measure_of(["game", "truncated", "winner", "points"]) == Measure("winner")
    with pytest.raises(ValueError, match="no loser, score_<seat> or winner column"):
        measure_of(["game", "turns"])


def _loser_records(losers):
    return pd.DataFrame({"game": np.arange(len(losers)), "truncated": [x < 0 for x in losers], "loser": losers})


def test_a_tiny_loser_ladder_by_hand():
    # 2 policies at 3 players, 2 deals: the 6 seatings of "pairs" and who lost each game
    losers = {("a", "b", "b"): [0, 1], ("b", "a", "b"): [0, 2], ("b", "b", "a"): [2, -1],
              ("b", "a", "a"): [1, 0], ("a", "b", "a"): [1, 2], ("a", "a", "b"): [2, 2]}
    assert list(losers) == seatings(["a", "b"], 3)
    tally = Tally(("a", "b"), 3, 2, Measure("loser"))
    for seats, lost in losers.items():
        tally.add(seats, _loser_records(lost))
    report = tally.report(resamples=50)
    t = report.table.set_index(["policy", "among"])
    # a alone: lost game 0 of (a,b,b) and game 0 of (b,b,a): 2 of 6; its b seats lost 3 of 12
    # b alone: lost game 1 of (b,a,a), game 0 of (a,b,a), both of (a,a,b): 4 of 6; a seats 2 of 12
    for (a, b), (k, n, k_among, n_among) in {("a", "b"): (2, 6, 3, 12), ("b", "a"): (4, 6, 2, 12)}.items():
        row = t.loc[a, b]
        assert (row.measure, row.seat_games, row.value) == ("loss rate", n, pytest.approx(k / n))
        assert (row.lo, row.hi) == pytest.approx(wilson(k, n))
        assert (row.among_value, row.among_lo, row.among_hi) == pytest.approx((k_among / n_among,
                                                                               *wilson(k_among, n_among)))
    # over all their seats: a 4 of 18, b 7 of 18; one game of 12 had no loser
    assert t.loc["a", ALL].seat_games == 18 and t.loc["a", ALL].value == pytest.approx(4 / 18)
    assert t.loc["b", ALL].value == pytest.approx(7 / 18) and np.isnan(t.loc["b", ALL].among_value)
    assert report.parity == pytest.approx(11 / 36)
    # pairwise: the loser loses to each seat of the other policy: a beat b 11 times, b beat a 6 times,
    # deal 0: 5 and 5, deal 1: 6 and 1
    assert tally.wins[:, 0, 1].tolist() == [5, 6] and tally.wins[:, 1, 0].tolist() == [5, 1]
    r = report.ratings.set_index("policy")
    assert r.loc["a"].tolist() == [0, 0, 0, 11, 6]
    assert r.loc["b", "rating"] == pytest.approx(400 * np.log10(6 / 11))
    assert (report.deals, report.seatings, report.players) == (2, 6, 3)


def test_a_tiny_score_ladder_by_hand():
    # 2 policies at 2 players, 3 deals; game 2 of (b, a) was truncated
    tally = Tally(("a", "b"), 2, 3, Measure("score"))
    tally.add(("a", "b"), pd.DataFrame({"game": [0, 1, 2], "truncated": False, "score_0": [5, 2, 0],
                                        "score_1": [3, 2, 4]}))
    tally.add(("b", "a"), pd.DataFrame({"game": [2, 0, 1], "truncated": [True, False, False],
                                        "score_0": [9, 1, 3], "score_1": [9, 6, 3]}))
    report = tally.report(resamples=20)
    t = report.table.set_index(["policy", "among"])
    # a per deal (mean over its seatings): 5.5, 2.5, 0; b: 2, 2.5, 4 — t intervals over the 3 deals
    assert t.loc["a", "b"].seat_games == 5 and t.loc["a", "b"].measure == "mean score"
    assert t.loc["a", "b"][["value", "lo", "hi"]].tolist() == pytest.approx(paired_mean([5.5, 2.5, 0]))
    assert t.loc["a", "b"][["among_value", "among_lo", "among_hi"]].tolist() == pytest.approx(
        paired_mean([2, 2.5, 4]))
    assert t.loc["b", "a"][["value", "among_value"]].tolist() == pytest.approx([8.5 / 3, 8 / 3])
    assert t.loc["a", ALL][["value", "lo", "hi"]].tolist() == pytest.approx(paired_mean([5.5, 2.5, 0]))
    # higher score wins, a tie is half to each, a truncated game nothing: a 3, b 2
    r = report.ratings.set_index("policy")
    assert r.loc["a", ["wins", "losses"]].tolist() == [3, 2]
    assert r.loc["b", "rating"] == pytest.approx(400 * np.log10(2 / 3))


def test_a_winner_ladder_counts_wins():
    tally = Tally(("x", "y"), 3, 4, Measure("winner"))
    for seats in seatings(["x", "y"], 3):
        winner = [seats.index("x")] * 3 + [-1]  # x wins every finished game, one game of 4 truncated
        tally.add(seats, pd.DataFrame({"game": range(4), "truncated": [False] * 3 + [True], "winner": winner}))
    report = tally.report(resamples=10)
    t = report.table.set_index(["policy", "among"])
    assert t.loc["x", "y"].value == pytest.approx(3 / 4) and t.loc["x", "y"].among_value == 0
    assert t.loc["y", "x"].value == 0 and t.loc["y", "x"].measure == "win rate"
    # x won every comparison: no maximum, and the text says so
    assert np.isnan(report.ratings.rating.iloc[1]) and report.undefined == 10
    assert "intervals undefined: in 10 of 10 resamples" in format_report(report, "title")


def test_the_tally_refuses_records_of_other_games():
    tally = Tally(("a", "b"), 3, 2, Measure("loser"))
    with pytest.raises(ValueError, match="games 0 to 1 once each"):
        tally.add(("a", "b", "b"), _loser_records([0, 1, 2]))
    with pytest.raises(ValueError, match="2 seat policies given for a ladder of 3 players"):
        tally.add(("a", "b"), _loser_records([0, 1]))


def test_the_text_report_shows_rates_in_percent_and_ratings():
    tally = Tally(("a", "b"), 2, 40, Measure("loser"))
    for seats in seatings(["a", "b"], 2):
        lost = [(g % 3 == 0) == (seats[0] == "a") for g in range(40)]  # a loses a third of its games
        tally.add(seats, _loser_records([0 if x else 1 for x in lost]))
    report = tally.report(resamples=100)
    text = format_report(report, "a title")
    a_among_b = report.table.iloc[0]
    assert a_among_b.value == pytest.approx(14 / 40)
    assert text.splitlines()[0] == "a title"
    assert "35.00% [" in text and "Bradley–Terry on the Elo scale, a = 0" in text
    assert f"{report.ratings.rating.iloc[1]:+8.1f}" in text
    assert report.ratings.rating.iloc[1] == pytest.approx(rating.elo(np.log(14 / 26)))  # b beat a 28 times, a b 52
