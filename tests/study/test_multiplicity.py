"""Corrections for many comparisons (cardsim.study.report.multiplicity) against scipy and statsmodels on fixed data."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from cardsim.study.report.multiplicity import adjust, family, p_value, paired_table, tie_table, variant_table
from cardsim.study.report.stats import paired_mean


def _contrasts(seed: int = 7, tests: int = 12, games: int = 300) -> tuple[pd.DataFrame, list[np.ndarray]]:
    """Per-game contrasts with a few real effects, summarised as an effects table: seat rates and lengths."""
    rng = np.random.default_rng(seed)
    data, rows = [], []
    for j in range(tests):
        d = rng.normal(0.15 if j % 4 == 0 else 0.0, 1.0, games)
        data.append(d)
        mean, lo, hi = paired_mean(d)
        rows.append({"measure": f"loser_rate_{j % 4}" if j < tests - 3 else "turns_mean", "estimate": mean,
                     "lo": lo, "hi": hi, "games": games})
    return pd.DataFrame(rows), data


def test_p_values_from_the_interval_are_scipys_one_sample_t_test():
    table, data = _contrasts()
    expected = [sps.ttest_1samp(d, 0.0).pvalue for d in data]
    assert np.allclose(p_value(table.estimate, table.lo, table.hi, table.games), expected, rtol=1e-9)


def test_a_contrast_equal_in_every_game_has_p_one_at_zero_and_zero_elsewhere():
    assert list(p_value([0.0, 0.5, 0.1], [0.0, 0.5, np.nan], [0.0, 0.5, np.nan], [10, 10, 1])[:2]) == [1.0, 0.0]
    # a mean of equal terms that rounds to -2.2e-16 with an interval of its rounding is 0, not a finding
    assert p_value([-2.206e-16], [-2.233e-16], [-2.178e-16], [260000])[0] == 1.0
    assert np.isnan(p_value([0.1], [np.nan], [np.nan], [1])).all()


def test_holm_and_bh_are_statsmodels_and_scipys_within_each_family():
    table, data = _contrasts()
    out = adjust(table, alpha=0.05)
    for f in ("seat", "length"):
        rows = [i for i, m in enumerate(table.measure) if family(m) == f]
        p = np.array([sps.ttest_1samp(data[i], 0.0).pvalue for i in rows])
        assert np.allclose(out.p_holm.iloc[rows], multipletests(p, method="holm")[1], rtol=1e-9)
        assert np.allclose(out.q_bh.iloc[rows], sps.false_discovery_control(p, method="bh"), rtol=1e-9)
        assert list(out.survives.iloc[rows]) == list(multipletests(p, alpha=0.05, method="holm")[0])


def test_the_simultaneous_intervals_are_bonferronis_t_intervals_of_the_family():
    table, data = _contrasts()
    out = adjust(table, alpha=0.10)
    seats = [i for i, m in enumerate(table.measure) if family(m) == "seat"]
    for i in seats:
        d = data[i]
        half = sps.t.ppf(1 - 0.10 / len(seats) / 2, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        assert out.sim_lo.iloc[i] == pytest.approx(d.mean() - half, rel=1e-9)
        assert out.sim_hi.iloc[i] == pytest.approx(d.mean() + half, rel=1e-9)
    assert (out.sim_hi - out.sim_lo > out.hi - out.lo).all()


def test_a_lone_significant_contrast_among_many_null_ones_does_not_survive():
    """The issue's case: p = 0.004 among 32 seat effects is no finding after Holm (0.004 x 32 > 0.05)."""
    p = np.r_[0.004, np.linspace(0.2, 0.99, 31)]
    z = sps.norm.isf(p / 2)
    games = 10**9  # t is the normal here
    half = sps.norm.ppf(0.975)
    table = pd.DataFrame({"measure": [f"loser_rate_{i % 4}" for i in range(32)], "estimate": z,
                          "lo": z - half, "hi": z + half, "games": games})
    out = adjust(table)
    assert out.p.iloc[0] == pytest.approx(0.004, rel=1e-6) and out.hi.iloc[0] > 0 and out.lo.iloc[0] > 0
    assert not out.survives.any() and out.p_holm.iloc[0] == pytest.approx(0.128, rel=1e-6)


def test_the_paired_table_reads_every_shift_of_the_summary():
    summary = pd.DataFrame([
        {"variant": "a", "players": 2, "policy": "greedy", "games": 100, "truncated": 0,
         "loser_diff_0": 0.0, "loser_diff_lo_0": 0.0, "loser_diff_hi_0": 0.0, "loser_diff_1": 0.0,
         "loser_diff_lo_1": 0.0, "loser_diff_hi_1": 0.0, "turns_diff": 0.0, "turns_diff_lo": 0.0,
         "turns_diff_hi": 0.0, "loser_rate_0": 0.5},
        {"variant": "b", "players": 2, "policy": "greedy", "games": 100, "truncated": 2,
         "loser_diff_0": 0.2, "loser_diff_lo_0": 0.1, "loser_diff_hi_0": 0.3, "loser_diff_1": -0.2,
         "loser_diff_lo_1": -0.3, "loser_diff_hi_1": -0.1, "turns_diff": 1.0, "turns_diff_lo": -1.0,
         "turns_diff_hi": 3.0, "loser_rate_0": 0.7}])
    out = paired_table(summary, "a")
    assert list(out.measure) == ["loser_rate_0", "loser_rate_1", "turns_mean"]
    assert list(out.games) == [100, 100, 98] and list(out.variant) == ["b"] * 3
    assert out.survives.tolist() == [True, True, False]


def test_the_tie_table_is_a_two_proportion_z_interval_per_variant_adjusted_as_its_own_family():
    """Molotow's shared wins: each variant's change of the tie rate against the baseline, unpaired (the summary
    holds no per-game tie contrast), Holm within the tie family alone; nothing where no game is a tie."""
    summary = pd.DataFrame({"variant": ["base", "swiss", "strict"], "players": 4, "policy": "greedy",
                            "games": [10_000, 10_000, 8_000], "winner_none": [300, 520, 250]})
    table = tie_table(summary, "base")
    assert table.variant.tolist() == ["swiss", "strict"] and set(table.measure) == {"winner_none"}
    p, q, n, m = 520 / 10_000, 300 / 10_000, 10_000, 10_000
    half = sps.norm.ppf(0.975) * np.sqrt(p * (1 - p) / n + q * (1 - q) / m)
    assert table.estimate[0] == pytest.approx(p - q) and table.hi[0] - table.lo[0] == pytest.approx(2 * half)
    z = (table.estimate / ((table.hi - table.lo) / 2 / sps.norm.ppf(0.975))).abs()
    assert table.p.to_numpy() == pytest.approx(2 * sps.norm.sf(z), rel=1e-6)
    assert table.p_holm.to_numpy() == pytest.approx(multipletests(table.p, method="holm")[1])
    assert tie_table(summary.assign(winner_none=0), "base").empty
    assert tie_table(summary.drop(columns="winner_none"), "base").empty


def test_a_variant_table_without_ties_is_the_paired_table_as_it_is():
    """No tie family to add: the paired table unchanged, its columns' types included (concatenating an empty
    tie table had turned them to objects, and a replication's join then lost rows)."""
    from pathlib import Path

    from cardsim.study.folder import storage

    summary = storage.parse_summary((Path(__file__).resolve().parents[2] / "results" / "uno_house_rules_mc"
                                     / "summary.csv").read_text(encoding="utf-8"))
    pd.testing.assert_frame_equal(variant_table(summary, "official"), paired_table(summary, "official"))
    ties = summary.assign(winner_none=[0, 3, 0, 1])
    assert variant_table(ties, "official").measure.tolist()[-3:] == ["winner_none"] * 3
