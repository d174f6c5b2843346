"""Bradley–Terry ratings: the fit against closed forms, when it does not exist, and the
bootstrap over deals covering a known strength."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from cardsim.study.ladder import rating


def test_two_policies_have_the_closed_form_log_odds():
    # with two policies the likelihood is binomial: theta_1 - theta_0 = log(W_10 / W_01)
    wins = np.array([[0, 30], [70, 0]])
    assert rating.fit(wins) == pytest.approx([0, np.log(70 / 30)], abs=1e-9)
    assert rating.fit(wins, anchor=1) == pytest.approx([-np.log(70 / 30), 0], abs=1e-9)
    # Elo: 400 log10(7 / 3) = 400 x 0.3679768 = 147.1907 points
    assert rating.elo(rating.fit(wins))[1] == pytest.approx(400 * np.log10(70 / 30), abs=1e-7)
    assert rating.elo(rating.fit(wins))[1] == pytest.approx(147.1907, abs=1e-4)


def test_two_near_equal_policies_on_many_games_are_rated_where_the_trust_region_stalls():
    """``cardsim train --gate`` met it (two Uno generations, 20,000 deals): scipy's trust region stopped with
    a gradient of 1.1e-8, and the fit raised; Newton's steps on the exact gradient finish it."""
    wins = np.array([[0, 181192.0], [179729.0, 0]])
    assert rating.fit(wins) == pytest.approx([0, np.log(179729 / 181192)], abs=1e-9)
    assert rating.fit(wins, start=np.array([0.0, 0.01])) == pytest.approx([0, np.log(179729 / 181192)], abs=1e-9)


def test_half_wins_from_ties_count_as_fractions():
    assert rating.fit(np.array([[0, 2.5], [7.5, 0]]))[1] == pytest.approx(np.log(3), abs=1e-9)


@given(st.lists(st.floats(-2, 2), min_size=3, max_size=5),
       st.lists(st.integers(1, 50), min_size=25, max_size=25))
def test_outcomes_exactly_as_the_model_expects_give_back_its_strengths(theta, sizes):
    # W_ij = n_ij P(i beats j) makes the score equations sum_j W_ij - n_ij P_ij = 0 hold at theta
    theta = np.array(theta) - theta[0]
    k = len(theta)
    n = np.array(sizes[:k * k], dtype=float).reshape(k, k)
    n = n + n.T
    wins = n / (1 + np.exp(theta[None, :] - theta[:, None]))
    assert rating.fit(wins) == pytest.approx(theta, abs=1e-6)


def test_three_policies_by_hand():
    # a beats b 2-1 and b beats c 2-1, a and c never meet: a chain, so theta_b - theta_a = log(1/2)
    # and theta_c - theta_b = log(1/2) exactly (each pair's own binomial MLE)
    wins = np.array([[0, 2, 0], [1, 0, 2], [0, 1, 0]])
    assert rating.fit(wins) == pytest.approx([0, -np.log(2), -2 * np.log(2)], abs=1e-8)


def test_a_policy_that_never_lost_has_no_rating():
    wins = np.array([[0, 5, 3], [0, 0, 2], [0, 1, 0]])  # policy 0 won every comparison
    assert not rating.rateable(wins)
    with pytest.raises(rating.RatingUndefined, match="won, or lost, every comparison"):
        rating.fit(wins)
    assert not rating.rateable(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]))  # c never played
    assert rating.rateable(np.array([[0, 1], [1, 0]]))


def test_bad_win_matrices_are_refused():
    with pytest.raises(ValueError, match="square matrix"):
        rating.fit(np.array([[0, 1, 2]]))
    with pytest.raises(ValueError, match="square matrix"):
        rating.fit(np.array([[0, -1], [1, 0]]))


def test_the_bootstrap_is_reproducible_and_marks_undefined_resamples():
    deals = np.zeros((4, 2, 2))
    deals[[0, 1], 1, 0] = 1
    deals[2, 0, 1] = 1  # policy 0 won one deal of four
    a = rating.bootstrap(deals, resamples=200, seed=3)
    assert np.array_equal(a, rating.bootstrap(deals, resamples=200, seed=3), equal_nan=True)
    assert not np.array_equal(a, rating.bootstrap(deals, resamples=200, seed=4), equal_nan=True)
    assert (a[:, 0] == 0).sum() + np.isnan(a[:, 0]).sum() == 200
    # a resample without deal 2 (or without deals 0 and 1) has no maximum: (3/4)^4 + (1/4)^4 of them
    assert np.isnan(a[:, 1]).mean() == pytest.approx(0.75 ** 4 + 0.25 ** 4, abs=0.08)
    lo, hi = rating.interval(a)
    assert np.isnan(lo).all() and np.isnan(hi).all()


def _luce_loser_ladder(rng: np.random.Generator, theta: np.ndarray, players: int, deals: int) -> np.ndarray:
    """Per-deal win matrices of a "pairs" ladder whose loser is drawn with P(seat s) ∝ exp(-theta[policy of s]).

    Given that one of two seats lost, the other won with probability sigmoid(theta_i - theta_j):
    the pairwise outcomes follow Bradley–Terry with strengths ``theta``, correlated within a game.
    """
    k = len(theta)
    seated = np.array([[a if s == seat else b for s in range(players)]
                       for a in range(k) for b in range(k) if a != b for seat in range(players)])
    # Gumbel-max: the loser of each (deal, seating) with P(s) ∝ exp(-theta[seated[., s]])
    loser = np.argmax(-theta[seated][None] + rng.gumbel(size=(deals, len(seated), players)), axis=2)
    out = np.zeros((deals, k, k))
    g = np.arange(deals)[:, None]
    lost = seated[np.arange(len(seated)), loser]  # (deals, seatings): the losing policy
    for s in range(players):
        won = seated[:, s][None, :].repeat(deals, 0)
        other = won != lost
        np.add.at(out, (np.broadcast_to(g, won.shape)[other], won[other], lost[other]), 1)
    return out


@pytest.mark.long
def test_bootstrap_intervals_cover_a_known_strength():
    # 3 policies, 4 seats, strengths 0, 0.6, -0.4 (Elo 0, 104, -69): the 95% interval of each
    # difference covers the truth in about 95% of 60 simulated ladders of 60 deals (100 resamples each)
    theta = np.array([0.0, 0.6, -0.4])
    truth = rating.elo(theta)
    rng = np.random.default_rng(1)
    covered, width = np.zeros(3), []
    runs = 60
    for r in range(runs):
        deals = _luce_loser_ladder(rng, theta, 4, 60)
        lo, hi = rating.interval(rating.elo(rating.bootstrap(deals, resamples=100, seed=r)))
        covered += (lo <= truth) & (truth <= hi)
        width.append(hi - lo)
    assert covered[0] == runs  # the anchor is pinned at 0
    assert 52 <= covered[1] <= runs and 52 <= covered[2] <= runs, covered  # expected 57, sd 1.7
    assert 20 < np.mean(width, axis=0)[1] < 120, np.mean(width, axis=0)  # and not uselessly wide
