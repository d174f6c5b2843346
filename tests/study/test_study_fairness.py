"""Fairness of a cell: the spread of its seat rates and the total-variation distance from the
uniform, with exact intervals (simultaneous Clopper-Pearson intervals, projected: stats.fairness)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import linprog

from cardsim.study.report.stats import _tv_range, clopper_pearson, fairness


def test_point_estimates_worked_by_hand():
    # 4 seats, 100 games, 10 without an outcome seat: rates .30 .20 .25 .15, K = 90
    f = fairness([30, 20, 25, 15], 100)
    assert f["spread"] == pytest.approx(0.30 - 0.15)
    assert f["tv"] == pytest.approx(0.5 * (abs(30 / 90 - 1 / 4) + abs(20 / 90 - 1 / 4) + abs(25 / 90 - 1 / 4)
                                           + abs(15 / 90 - 1 / 4)))


def test_intervals_worked_by_hand_from_clopper_pearson_values():
    # 2 seats at level 0.90: Bonferroni makes each seat's interval a 95% one.
    # Clopper-Pearson 95%: 5/10 [0.187086, 0.812914], 3/10 [0.066740, 0.652453], 5/8 [0.244863, 0.914767]
    assert clopper_pearson(5, 10) == pytest.approx((0.187086, 0.812914), abs=1e-6)
    assert clopper_pearson(3, 10) == pytest.approx((0.066740, 0.652453), abs=1e-6)
    f = fairness([5, 3], 10, level=0.90)
    # spread: rates .5 and .3; the intervals overlap (least 0), most 0.812914 - 0.066740
    assert (f["spread"], f["spread_lo"]) == (pytest.approx(0.2), 0)
    assert f["spread_hi"] == pytest.approx(0.812914 - 0.066740, abs=1e-6)
    # tv: shares 5/8 and 3/8 (K = 8); with two seats tv = |q0 - 1/2|, q0 in [0.244863, 0.914767] holds 1/2
    assert (f["tv"], f["tv_lo"], f["tv_hi"]) == pytest.approx((0.125, 0, 0.914767 - 0.5), abs=1e-6)


def test_a_perfectly_fair_cell_has_intervals_from_zero():
    for games in (100, 1_000_000):
        f = fairness([games // 4] * 4, games)
        assert (f["spread"], f["spread_lo"], f["tv"], f["tv_lo"]) == (0, 0, 0, 0)
        assert 0 < f["spread_hi"] < 0.25 and 0 < f["tv_hi"] < 0.25
    # at a million games the spread of equal seats is within 0.22 pp
    assert fairness([250_000] * 4, 1_000_000)["spread_hi"] == pytest.approx(0.00216, abs=1e-5)


def test_a_cell_always_lost_by_one_seat():
    f = fairness([0, 7, 0], 7)
    # Clopper-Pearson at 1 - 0.05/3: 7 of 7 from (0.05/6) ** (1/7), 0 of 7 up to 1 - that
    lo = (0.05 / 6) ** (1 / 7)
    assert (f["spread"], f["spread_lo"], f["spread_hi"]) == pytest.approx((1, lo - (1 - lo), 1))
    assert (f["tv"], f["tv_hi"]) == pytest.approx((2 / 3, 2 / 3))


def test_no_outcome_at_all_has_a_spread_but_no_tv():
    f = fairness([0, 0], 5)
    assert f["spread"] == 0 and f["spread_lo"] == 0 and f["spread_hi"] > 0
    assert all(np.isnan(f[k]) for k in ("tv", "tv_lo", "tv_hi"))


@pytest.mark.parametrize("rates", [[0.25] * 4, [0.4, 0.3, 0.2, 0.05], [0.5, 0.5]])
def test_the_intervals_cover_the_truth_in_at_least_95_percent_of_studies(rates):
    """Coverage by simulation: 400 cells of 300 games drawn from known rates (a fair game
    included, where a bootstrap percentile interval would almost never hold 0)."""
    generator = np.random.default_rng(17)
    p = np.array(rates)
    true_spread = p.max() - p.min()
    q = p / p.sum()
    true_tv = 0.5 * np.abs(q - 1 / len(p)).sum()
    covered = np.zeros(2)
    for _ in range(400):
        k = generator.multinomial(300, [*p, 1 - p.sum()])[:-1]
        f = fairness(k, 300)
        covered += [f["spread_lo"] <= true_spread <= f["spread_hi"], f["tv_lo"] <= true_tv + 1e-12 <= f["tv_hi"] + 2e-12]
    assert (covered / 400 >= 0.95).all()


@given(st.lists(st.floats(0.01, 0.6), min_size=2, max_size=5), st.lists(st.floats(0, 0.2), min_size=5, max_size=5),
       st.lists(st.floats(0, 0.2), min_size=5, max_size=5))
@settings(max_examples=60, deadline=None)
def test_the_tv_range_is_the_least_and_most_over_the_box_and_the_simplex(raw, below, above):
    """Against brute force: the most at a vertex of {lo <= q <= hi, sum q = 1} (a convex
    function's maximum over a polytope), the least by a linear program."""
    n = len(raw)
    q = np.array(raw) / sum(raw)
    lo, hi = np.clip(q - below[:n], 0, 1), np.clip(q + above[:n], 0, 1)
    least, most = _tv_range(lo, hi)
    u = 1 / n
    vertices = []
    for free in range(n):
        others = [s for s in range(n) if s != free]
        for ends in itertools.product((0, 1), repeat=n - 1):
            v = np.empty(n)
            v[others] = [hi[s] if e else lo[s] for s, e in zip(others, ends)]
            v[free] = 1 - v[others].sum()
            if lo[free] - 1e-12 <= v[free] <= hi[free] + 1e-12:
                vertices.append(0.5 * np.abs(v - u).sum())
    assert most == pytest.approx(max(vertices), abs=1e-9)
    # min sum t / 2 with t >= q - u, t >= u - q, lo <= q <= hi, sum q = 1; variables (q, t)
    eye = np.eye(n)
    lp = linprog(np.r_[np.zeros(n), np.full(n, 0.5)], A_ub=np.block([[eye, -eye], [-eye, -eye]]),
                 b_ub=np.r_[np.full(n, u), np.full(n, -u)], A_eq=np.r_[np.ones(n), np.zeros(n)][None, :], b_eq=[1],
                 bounds=[*zip(lo, hi), *[(0, None)] * n])
    assert lp.status == 0 and least == pytest.approx(lp.fun, abs=1e-7)


@given(st.lists(st.integers(0, 50), min_size=2, max_size=8), st.integers(0, 30))
@settings(max_examples=40, deadline=None)
def test_intervals_hold_the_estimate_and_stay_in_range(counts, none):
    games = sum(counts) + none
    if games == 0:
        return
    f = fairness(counts, games)
    assert 0 <= f["spread_lo"] <= f["spread"] <= f["spread_hi"] <= 1
    if sum(counts):
        assert 0 <= f["tv_lo"] <= f["tv"] + 1e-12 and f["tv"] <= f["tv_hi"] + 1e-12
        assert f["tv_hi"] <= 1 - 1 / len(counts) + 1e-12


@pytest.mark.parametrize("counts, games", [([3], 3), ([2, 2], 3), ([-1, 2], 3), ([1, 1], 0)])
def test_impossible_counts_are_refused(counts, games):
    with pytest.raises(ValueError, match="fairness needs >= 2 seat counts summing to at most games >= 1"):
        fairness(counts, games)
