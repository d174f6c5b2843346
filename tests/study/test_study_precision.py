"""The stopping rule of `cardsim run --precision`: the widest Wilson half-width and the next
number of games, against values worked by hand."""
import pytest

from cardsim.study.precision import check, next_games, widest_half_width
from cardsim.study.stats import wilson


def test_the_widest_half_width_is_over_every_seat_of_every_cell_in_percentage_points():
    # 81 of 263 has the Wilson interval [0.255293, 0.366215]: half-width 5.5461 pp
    assert widest_half_width([[81, 182]], 263) == pytest.approx(100 * (0.366215 - 0.255293) / 2, abs=1e-4)
    lo, hi = wilson(500, 1000)
    assert widest_half_width([[100, 900], [500, 500], [0, 0]], 1000) == pytest.approx(100 * (hi - lo) / 2)


@pytest.mark.parametrize("games, widest, n", [
    (1000, 0.40, 4000),   # 1000 * (0.4 / 0.2)**2 = 4000: a multiple of n_0 already
    (1000, 0.30, 3000),   # 1000 * 2.25 = 2250, up to the next multiple of 1000
    (4000, 0.2001, 5000),  # 4004: rounded up to 5000
    (1000, 0.2 * (1 + 1e-15), 2000),  # a hair above: still one more step of n_0, never the same n
    (3000, 0.9, 10_000),  # 3000 * 20.25 = 60,750: capped by max_games
])
def test_the_next_step_is_where_the_widest_half_width_would_reach_the_precision(games, widest, n):
    assert next_games(games, widest, precision=0.2, first=1000, max_games=10_000) == n


def test_the_run_stops_at_the_precision_or_at_max_games():
    assert next_games(4000, 0.2, precision=0.2, first=1000, max_games=10_000) is None
    assert next_games(4000, 0.19, precision=0.2, first=1000, max_games=10_000) is None
    assert next_games(10_000, 0.5, precision=0.2, first=1000, max_games=10_000) is None


@pytest.mark.parametrize("precision, max_games, message", [
    (0, 100, "--precision must be a number of percentage points > 0 and < 100, not 0"),
    (-0.1, 100, "--precision must be"), (float("nan"), 100, "--precision must be"), (True, 100, "--precision must be"),
    (0.1, 5, "--max-games must be an integer >= the study's games (10), not 5"),
    (0.1, 2.5, "--max-games must be an integer >= the study's games (10), not 2.5"),
])
def test_bad_precision_or_bound_is_one_line(precision, max_games, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check(precision, max_games, first=10)
