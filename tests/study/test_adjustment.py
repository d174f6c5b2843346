"""Cross-fitted regression adjustment (cardsim.study.report.adjustment) on constructed cases, and the deal
features it reads (cardsim.games.<game>.features) against the reference engines' deals."""
import numpy as np
import pytest

from cardsim.core import rng
from cardsim.games.moska import features as moska_features, reference as moska
from cardsim.games.moska.rules import MoskaRules
from cardsim.games.musta_maija import features as mm_features, reference as musta_maija
from cardsim.games.musta_maija.cards import BLACK_MARIA, DIAMONDS, JACK, cards, rank, suit
from cardsim.games.musta_maija.rules import MustaMaijaRules
from cardsim.study.report.adjustment import cross_fitted


def _case(rng_, n: int, theta: float):
    """A contrast of mean ``theta`` driven non-linearly by features like a deal's card counts
    (binomial(6, 1/4): mean 1.5, E[x**2] = 3.375), whose mean is known; noise of mean 0.1."""
    x = rng_.binomial(6, 0.25, (n, 3)).astype(float)
    noise = rng_.choice([-1.0, 0.0, 1.0], n, p=[0.2, 0.5, 0.3])
    d = theta + 0.3 * (x[:, 0] ** 2 - 3.375) - 0.2 * (x[:, 1] - 1.5) + noise - 0.1
    return d, x


def test_the_cross_fitted_estimate_is_unbiased_at_a_few_dozen_games():
    """4,000 studies of 40 games each: the mean estimate is the effect within 4 standard errors,
    though no linear model is right here (the contrast is quadratic in a feature)."""
    gen, theta = np.random.default_rng(3), 0.25
    est = np.array([cross_fitted(*_case(gen, 40, theta), mu=np.full(3, 1.5))[0] for _ in range(4000)])
    assert abs(est.mean() - theta) < 4 * est.std(ddof=1) / np.sqrt(len(est))


def test_the_adjusted_interval_covers_the_effect():
    gen, theta = np.random.default_rng(6), 0.25
    runs = [cross_fitted(*_case(gen, 400, theta), mu=np.full(3, 1.5)) for _ in range(2000)]
    covered = np.mean([lo <= theta <= hi for _, lo, hi, _ in runs])
    assert 0.93 <= covered <= 0.97


def test_the_factor_is_the_variance_saved_and_near_one_for_features_that_predict_nothing():
    gen = np.random.default_rng(4)
    d, x = _case(gen, 20000, 0.1)
    est, lo, hi, factor = cross_fitted(d, x, mu=np.full(3, 1.5))
    raw_half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert factor > 1.5 and (hi - lo) / 2 == pytest.approx(raw_half / np.sqrt(factor), rel=0.01)
    noise = gen.normal(size=(20000, 3))
    assert cross_fitted(d, noise, mu=np.zeros(3))[3] == pytest.approx(1.0, abs=0.01)
    with_mu_noise = cross_fitted(d, x, mu=np.full(3, 1.5), mu_cov=np.eye(3) * 1e-3)
    assert with_mu_noise[3] < factor  # an estimated centre costs variance


@pytest.mark.parametrize("players", [2, 4, 7])
def test_moska_features_are_those_of_the_reference_deal(players):
    rules = MoskaRules.preset("moska")
    x = moska_features.deal_features(rules, players, 99, np.arange(20))
    for g in range(20):
        s = moska.deal(rules, players, rng.game_key(99, g))
        two = 1 << (13 * s.trump)
        want = [v for h in s.hands for v in (bin(h & (0x1FFF << (13 * s.trump))).count("1"),
                                             sum(c % 13 >= 9 for c in range(52) if h >> c & 1), bool(h & two))]
        assert list(x[g]) == want


@pytest.mark.parametrize("players", [3, 4, 8])
def test_musta_maija_features_are_those_of_the_reference_deal(players):
    rules = MustaMaijaRules.preset("musta_maija")
    x = mm_features.deal_features(rules, players, 5, np.arange(20))
    for g in range(20):
        t = musta_maija.deal(rules, players, rng.game_key(5, g))
        want = []
        for h in t.hands:
            held = cards(h)
            kq = [{suit(c) for c in held if rank(c) == r} for r in (11, 10)]
            want += [sum(rank(c) >= JACK for c in held), sum(suit(c) == DIAMONDS for c in held),
                     len(kq[0] & kq[1]), BLACK_MARIA in held]
        assert list(x[g]) == want


def test_a_studys_contrasts_and_cells_adjusted_on_the_deal(tmp_path):
    """A small Moska study: every variant's paired shift (raw as in summary.csv) and every cell's own
    rates, each with its adjusted interval and factor; the factors summarised per table."""
    import pandas as pd

    from cardsim.study import run_study
    from cardsim.study.folder import storage
    from cardsim.study.report.adjustment import factors, table
    from cardsim.study.folder.manifest import study_of

    path = tmp_path / "study.toml"
    path.write_text('name = "small"\ngame = "moska"\nseed = 3\ngames = 400\nplayers = [4]\npolicies = ["greedy"]\n'
                    'baseline = "moska"\n[variants.moska]\npreset = "moska"\n[variants.turamoska]\n'
                    'preset = "turamoska"\n')
    folder = run_study(path, out=tmp_path / "out")
    study = study_of(storage.read_manifest(folder), folder / storage.MANIFEST)
    adjusted = table(study, folder)
    summary = pd.read_csv(folder / "summary.csv").set_index("variant")
    shift = adjusted.loc[(adjusted.effect == "variant") & (adjusted.measure == "loser_rate_2")].iloc[0]
    assert shift.estimate == pytest.approx(summary.loc["turamoska", "loser_diff_2"], abs=1e-6)
    assert shift.adjusted_lo < shift.adjusted < shift.adjusted_hi and np.isfinite(shift.factor)
    assert set(adjusted.loc[adjusted.effect == "rate", "level"]) == {"moska", "turamoska"}
    summary_rows = factors(adjusted)
    assert set(summary_rows.table) == {"contrasts", "cells"} and set(summary_rows.family) == {"seat", "length"}
    assert (summary_rows["saved"] == 1 - 1 / summary_rows["median"]).all()


@pytest.mark.parametrize("players", [2, 4, 7])
def test_uno_features_are_those_of_the_reference_deal(players):
    """The first hand's cards as the reference engine deals them (its ``deal`` events), counted."""
    import cardsim
    from cardsim.games.uno import features as uno_features
    from cardsim.games.uno.cards import parse

    for preset in ("official", "deck_2018"):
        rules = cardsim.rules("uno", preset)
        x = uno_features.deal_features(rules, players, 11, np.arange(8))
        for g in range(8):
            events = cardsim.replay("uno", rules, players=players, seed=11, game=g, policy="random").events
            deals = events.loc[(events.action == "deal") & (events.hand == 0)].sort_values("seat")
            want = []
            for text in deals.cards:
                kinds = [parse(w) for w in text.split()]
                coloured = [k for k in kinds if k < 52]
                want += [kinds.count(53), sum(k >= 52 and k != 53 for k in kinds),
                         sum(k % 13 == 12 for k in coloured), sum(k % 13 in (10, 11) for k in coloured),
                         len({k // 13 for k in coloured})]
            assert list(x[g]) == want


@pytest.mark.parametrize("players", [3, 4])
def test_molotow_features_are_those_of_the_reference_deals(players):
    """Every hand's cards as ``reference.deal`` deals them, counted and summed over the game's hands."""
    import cardsim
    from cardsim.games.molotow import features as molotow_features, reference as molotow
    from cardsim.games.molotow.cards import PLAIN_POINTS

    rules = cardsim.rules("molotow", "mittlere" if players == 3 else "molotow")
    x = molotow_features.deal_features(rules, players, 7, np.arange(6))
    for g in range(6):
        want = np.zeros(4 * players)
        for hand in range(rules.hands):
            for s, mask in enumerate(molotow.deal(rng.game_key(7, g), hand, players)):
                held = [c for c in range(36) if mask >> c & 1]
                want[4 * s:4 * s + 4] += [sum(PLAIN_POINTS[c % 9] for c in held), sum(c % 9 == 8 for c in held),
                                          sum(c % 9 in (3, 5) for c in held),
                                          max(sum(c // 9 == u for c in held) for u in range(4))]
        assert list(x[g]) == list(want)
