"""The statistics of summary.csv against known values, and the outcome/length mapping."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from cardsim.core.records import COMMON, SHEDDING
from cardsim.study.report.stats import length_histograms, measures, paired_mean, summarize, wilson


def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (lo, hi) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    lo, hi = wilson(0, 10)  # the interval of an observed zero starts at exactly 0
    assert lo == 0 and hi == pytest.approx(0.277533, abs=1e-6)
    lo, hi = wilson(np.array([81]), np.array([263]))  # worked by hand: centre 0.310754, half 0.055461
    assert (lo[0], hi[0]) == pytest.approx((0.255293, 0.366215), abs=1e-5)


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_estimate_inside_zero_one(kn):
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def test_paired_difference_known_value():
    # differences 0, 1, 0, 1: mean 1/2, sd sqrt(1/3), t(0.975, 3) = 3.182446
    mean, lo, hi = paired_mean(np.array([0, 1, 0, 1]))
    half = 3.182446 * np.sqrt(1 / 3) / 2
    assert (mean, lo, hi) == pytest.approx((0.5, 0.5 - half, 0.5 + half), abs=1e-6)


@given(st.integers(-5, 5), st.integers(2, 50))
def test_a_constant_paired_difference_has_a_zero_width_interval(c, n):
    assert paired_mean(np.full(n, c)) == pytest.approx((c, c, c))


def test_outcome_and_length_columns_are_found_by_name():
    shedding = [c.name for c in COMMON + SHEDDING]
    assert measures(shedding) == measures(["game", "turns", "truncated", "loser", "rounds"])
    assert measures(shedding).outcome == "loser" and measures(shedding).lengths == ("turns", "rounds")
    uno = ["game", "turns", "truncated", "winner", "points"]
    assert (measures(uno).outcome, measures(uno).lengths) == ("winner", ("turns",))
    molotow = ["game", "turns", "truncated", "winner", "score_0", "score_1"]
    assert measures(molotow).outcome == "winner"
    with pytest.raises(ValueError, match="no outcome column; expected one of loser, winner"):
        measures(["game", "turns", "truncated"])


def _cell(variant, losers, turns, truncated=(False,) * 4):
    return pd.DataFrame({"variant": variant, "players": 2, "policy": "p", "game": range(4), "turns": turns,
                         "truncated": list(truncated), "loser": losers})


def test_summary_of_a_hand_built_pair_of_cells():
    base = _cell("a", [0, 1, 0, 1], [10, 20, 30, 40])
    other = _cell("b", [0, 0, -1, 1], [12, 20, 99, 41], truncated=(False, False, True, False))
    s = summarize(pd.concat([base, other], ignore_index=True), "fakegame", baseline="a").set_index("variant")
    assert list(s.index) == ["a", "b"]
    b = s.loc["b"]
    assert (b.games, b.truncated, b.loser_none) == (4, 1, 0)
    assert (b.loser_rate_0, b.loser_rate_1) == (0.5, 0.25)
    assert (b.loser_lo_0, b.loser_hi_0) == pytest.approx(wilson(2, 4))
    # finished games only: 12, 20, 41
    assert (b.turns_mean, b.turns_median) == (pytest.approx(73 / 3), 20)
    assert b.turns_p95 == pytest.approx(np.percentile([12, 20, 41], 95))
    # paired, per game: seat 0 indicators b - a = 0, 1, -1, 0; seat 1: 0, -1, 0, 0
    assert (b.loser_diff_0, b.loser_diff_lo_0, b.loser_diff_hi_0) == pytest.approx(paired_mean([0, 1, -1, 0]))
    assert b.loser_diff_1 == -0.25
    # lengths paired over games finished in both cells: 12-10, 20-20, 41-40
    assert (b.turns_diff, b.turns_diff_lo, b.turns_diff_hi) == pytest.approx(paired_mean([2, 0, 1]))
    a = s.loc["a"]
    assert (a.loser_diff_0, a.loser_diff_lo_0, a.loser_diff_hi_0, a.turns_diff) == (0, 0, 0, 0)


def test_summary_leaves_seats_beyond_the_player_count_empty():
    three = _cell("a", [2, 1, 0, 2], [5, 5, 5, 5]).assign(players=3)
    s = summarize(pd.concat([_cell("a", [0, 1, 0, 1], [1, 2, 3, 4]), three], ignore_index=True), "g", "a")
    assert np.isnan(s.loser_rate_2[0]) and s.loser_rate_2[1] == 0.5


def test_length_histograms_share_integer_bins_per_group_and_leave_out_truncated_games():
    games = pd.DataFrame({"variant": ["a"] * 4 + ["b"] * 4, "players": 2, "policy": "random",
                          "turns": [1, 2, 2, 99, 3, 3, 3, 4], "truncated": [False] * 3 + [True] + [False] * 4})
    h = length_histograms(games, ["turns"])
    assert h.left.tolist() == [0.5, 1.5, 2.5, 3.5] * 2 and h.right.tolist() == [1.5, 2.5, 3.5, 4.5] * 2
    assert h.density.tolist() == pytest.approx([1 / 3, 2 / 3, 0, 0, 0, 0, 3 / 4, 1 / 4])
    assert h.variant.tolist() == ["a"] * 4 + ["b"] * 4 and set(h.measure) == {"turns"}


def test_length_histograms_have_at_most_40_bins_of_whole_numbers():
    games = pd.DataFrame({"variant": "a", "players": 4, "policy": "greedy", "turns": np.arange(1000),
                          "truncated": False})
    h = length_histograms(games, ["turns"])
    assert len(h) == 40 and (h.right - h.left == 25).all() and h.density.sum() * 25 == pytest.approx(1)


def test_the_longest_half_percent_of_lengths_get_one_bin_so_the_body_keeps_its_resolution():
    """Musta-Maija's mc tables now and then circle for thousands of turns before a game ends: 40 equal bins
    up to the longest would put nearly every game in the first."""
    turns = np.concatenate([np.repeat(np.arange(20, 60), 25), [9_000, 9_500, 10_000]])
    games = pd.DataFrame({"variant": "a", "players": 4, "policy": "mc", "turns": turns, "truncated": False})
    h = length_histograms(games, ["turns"])
    body, tail = h.iloc[:-1], h.iloc[-1]
    assert (body.right - body.left == 1).all() and body.left.iloc[0] == 19.5
    assert tail.left == body.right.iloc[-1] and tail.right == 10_000.5
    assert (h.density * (h.right - h.left)).sum() == pytest.approx(1)
    assert tail.density * (tail.right - tail.left) == pytest.approx(3 / len(turns))
