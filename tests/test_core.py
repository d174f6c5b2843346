"""The shared core: the keyed RNG (Python ints = numpy arrays), card bitmasks, rules objects, column tables,
the learned features' shared scorer."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardsim.core import learned, rng
from cardsim.core.cards import FRENCH52, JASS36, cards_of, mask_of, np_count, np_highest, np_lowest
from cardsim.core.records import Column, columns, finish_strings

u64 = st.integers(0, 2**64 - 1)


@given(u64, u64, st.lists(st.integers(0, 2**40), min_size=1, max_size=4))
def test_rng_python_ints_equal_numpy_arrays(seed, game, words):
    key = rng.game_key(seed, game)
    key_np = rng.game_key(np.array([seed], dtype=np.uint64), np.array([game], dtype=np.uint64))
    assert int(key_np[0]) == key
    assert int(rng.mix(key_np, *words)[0]) == rng.mix(key, *words)


def test_rng_known_values_are_stable():
    # pinned so that a change of the mixer (which would change every published study) is seen
    assert rng.game_key(0, 0) == rng.game_key(0, 0)
    assert rng.game_key(7, 812_339) != rng.game_key(7, 812_340)
    assert rng.mix(0) == 0 and rng.mix(5) == 5  # no words: the key itself


def test_rng_draws_look_uniform():
    keys = rng.game_key(np.uint64(3), np.arange(200_000, dtype=np.uint64))
    x = rng.below(rng.draw(keys, rng.Stream.POLICY, 0), 6)
    freq = np.bincount(x, minlength=6) / len(x)
    assert np.all(np.abs(freq - 1 / 6) < 0.005)


@given(u64, st.integers(1, 60))
def test_permutation_python_equals_numpy(key, n):
    p_py = rng.permutation(key, rng.Stream.DEAL, n)
    p_np = rng.permutation(np.array([key], dtype=np.uint64), rng.Stream.DEAL, n)[0]
    assert sorted(p_py) == list(range(n))
    assert p_py == p_np.tolist()


def test_permutation_is_uniform_in_position():
    keys = rng.game_key(np.uint64(11), np.arange(60_000, dtype=np.uint64))
    perms = rng.permutation(keys, rng.Stream.DEAL, 4)
    freq = np.array([np.bincount(perms[:, j], minlength=4) for j in range(4)]) / len(keys)
    assert np.all(np.abs(freq - 0.25) < 0.01)


@given(st.integers(0, 2**52 - 1))
def test_bitmask_helpers_agree(mask):
    cards = list(cards_of(mask))
    assert mask_of(cards) == mask
    arr = np.array([mask], dtype=np.uint64)
    assert np_count(arr)[0] == len(cards)
    assert np_lowest(arr)[0] == (cards[0] if cards else -1)
    assert np_highest(arr)[0] == (cards[-1] if cards else -1)


def test_card_names_round_trip():
    for deck in (FRENCH52, JASS36):
        for c in range(deck.size):
            assert deck.parse(deck.name(c)) == c
    assert FRENCH52.hand("♠6 ♦6") == FRENCH52.hand("S6 D6")
    assert FRENCH52.name(FRENCH52.card(3, 12)) == "♠A"


@given(u64, u64, st.integers(0, 2**20), st.integers(0, 2**20), st.integers(1, 110))
def test_compiled_rng_equals_python_rng(seed, game, counter, k, n):
    """core/jit.py's numba twins draw the same numbers and permutations as core/rng.py."""
    from cardsim.core import jit

    key = rng.game_key(seed, game)
    assert int(jit.game_key(np.uint64(seed), np.uint64(game))) == key
    assert int(jit.draw(np.uint64(key), rng.Stream.POLICY, counter, k)) == rng.draw(key, rng.Stream.POLICY, counter, k)
    assert jit.below(np.uint64(key), n) == rng.below(key, n)
    u, out = np.zeros(n, np.uint64), np.zeros(n, np.int64)
    count = np.zeros(jit.BUCKETS + 1, np.int64)
    jit.permutation_into(np.uint64(key), rng.Stream.DEAL, counter, n, u, out, count)
    assert out.tolist() == rng.permutation(key, rng.Stream.DEAL, n, counter)
    for i in (counter % 1100, counter):  # within the table of counters' mixes and beyond it
        assert int(jit.fold_count(np.uint64(key), i)) == rng.mix(key, i)


@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=120), st.integers(0, 63))
def test_argsort_draws_is_a_stable_argsort(draws, shift):
    """Ties (equal draws) keep index order, whatever the draws' spread over the buckets."""
    from cardsim.core import jit

    u = np.array(draws, dtype=np.uint64) >> np.uint64(shift)  # shifted right: many equal draws, few buckets
    out, count = np.zeros(len(u), np.int64), np.zeros(jit.BUCKETS + 1, np.int64)
    jit.argsort_draws(u, len(u), out, count)
    assert out.tolist() == np.argsort(u, kind="stable").tolist()


@given(st.integers(0, 2**64 - 1), st.integers(0, 63))
def test_compiled_bit_helpers_equal_python(mask, i):
    from cardsim.core import jit
    from cardsim.core.cards import count, highest, lowest

    m = np.uint64(mask)
    assert jit.popcount(m) == count(mask)
    assert jit.lowest(m) == (lowest(mask) if mask else -1)
    assert jit.highest(m) == highest(mask)
    cards = list(cards_of(mask))
    assert jit.ith_lowest(m, i) == (cards[i] if i < len(cards) else -1)
    assert int(jit.n_lowest(m, i)) == mask_of(cards[:i])


@given(st.lists(st.permutations(range(8)).flatmap(lambda p: st.integers(0, 8).map(lambda n: p[:n])), max_size=20))
def test_finish_strings_unpack_the_packed_finish_orders(orders):
    packed = np.array([sum((seat + 1) << 4 * j for j, seat in enumerate(o)) for o in orders], dtype=np.int64)
    assert list(finish_strings(packed, 8)) == [",".join(map(str, o)) for o in orders]


@given(u64, st.integers(0, 2**40), st.integers(0, 1023))
def test_world_keys_are_the_search_stream_in_both_twins(key, turn, j):
    """A world key is ``draw(key, SEARCH, turn, j)``: a stream of its own, the same number in numba."""
    from cardsim.core import jit

    assert jit.SEARCH == rng.Stream.SEARCH == 5 and len({int(s) for s in rng.Stream}) == len(rng.Stream)
    w = rng.world_key(key, turn, j)
    assert w == rng.draw(key, rng.Stream.SEARCH, turn, j) != rng.draw(key, rng.Stream.POLICY, turn, j)
    assert int(jit.world_key(np.uint64(key), turn, j)) == w


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=60))
def test_argmax_first_takes_the_lowest_index_of_the_largest(values):
    from cardsim.core import jit

    a = np.array(values + [99], dtype=np.int64)  # beyond n: never looked at
    assert jit.argmax_first(a, len(values)) == values.index(max(values))


def test_mc_parameters_defaults_and_one_line_errors():
    from cardsim.core.rules import parse_call
    from cardsim.core.search import MonteCarlo, parse_mc

    def mc(text):
        return parse_mc("uno", parse_call(text)[1], ("random", "greedy"))

    assert mc("mc") == mc("mc()") == mc("mc(determinizations=32, base=greedy)") == MonteCarlo(32, "greedy")
    assert mc("mc(base='random', determinizations=1)") == mc("mc(base=random, determinizations=1)") == \
        MonteCarlo(1, "random")
    assert mc("mc(determinizations=1024)").determinizations == 1024
    for text, message in (("mc(depth=3)", "uno policy mc has no parameter 'depth'; known: determinizations, base"),
                          ("mc(determinizations=0)", "determinizations=0 must be an integer from 1 to 1024"),
                          ("mc(determinizations=1025)", "determinizations=1025 must be"),
                          ("mc(determinizations=2.0)", "determinizations=2.0 must be"),
                          ("mc(determinizations=True)", "determinizations=True must be"),
                          ("mc(base=mc)", "base='mc' must be one of random, greedy"),
                          ("mc(base=3)", "base=3 must be one of random, greedy")):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
            mc(text)
        assert "\n" not in str(err.value)
    assert parse_call("mc(base=learned(model=x))") == ("mc", {"base": "learned(model=x)"})  # a call is its text
    assert mc("mc(base=greedy())") == MonteCarlo(32, "greedy")
    with pytest.raises(ValueError, match=r"base='greedy\(1\)' must be one of random, greedy"):
        mc("mc(base=greedy(1))")


def test_a_column_table_reads_as_the_columns_written_out():
    """``columns``: name, dtype, doc per line; an indented line goes on with the doc; ``{s}`` a column per seat."""
    table = columns("""
        winner     int64  the seat that won; -1 when
                          truncated
        points_{s}  Int64  points of seat {s} (X-1)
        done       bool   whether it ended
    """, range(2))
    assert table == (Column("winner", "int64", "the seat that won; -1 when truncated"),
                     Column("points_0", "Int64", "points of seat 0 (X-1)"),
                     Column("points_1", "Int64", "points of seat 1 (X-1)"), Column("done", "bool", "whether it ended"))


@given(st.lists(st.integers(-2**20, 2**20), min_size=6, max_size=6), st.integers(0, 1),
       st.lists(st.integers(-50, 50), min_size=3, max_size=3))
def test_a_candidate_score_is_its_block_of_weights_dotted_with_its_features(weights, block, features):
    """A linear model: each block's ``N`` weights, its units left at zero (a network's units:
    tests/test_learned_models.py)."""
    width = learned.width(3)
    w, f = np.zeros(2 * width, np.int64), np.array(features, np.int64)
    for b in range(2):
        w[b * width:b * width + 3] = weights[3 * b:3 * b + 3]
    assert learned.score(w, block, f, 3) == int(np.array(weights[3 * block:3 * block + 3]) @ f)


def test_the_stock_stages_of_the_shedding_games():
    late = learned.LATE_STOCK
    assert [learned.stock_stage(k, 3) for k in (20, late + 1, late, 1, 0)] == [0, 0, 1, 1, 2]
    assert learned.stock_stage(0, 2) == 3 and learned.stock_stage(5, 2) == 1


WITHIN_LANES = st.integers(-learned.LANE_LIMIT + 1, learned.LANE_LIMIT - 1)


@given(st.lists(WITHIN_LANES, min_size=2 * learned.width(3), max_size=2 * learned.width(3)), st.integers(0, 1),
       st.lists(st.integers(0, 400), min_size=3, max_size=3), st.booleans())
def test_a_score_from_the_lanes_layout_is_the_score(weights, block, features, linear):
    """``lanes`` lays out the same numbers (a network's units, or a linear model's zeros) and ``score_lanes`` of
    them, multiplying in 32 bits, is ``score`` up to the largest weights ``lanes`` takes."""
    w, f = np.array(weights, np.int64), np.array(features, np.int64)
    if linear:
        w.reshape(2, -1)[:, 3:] = 0
    assert learned.score_lanes(learned.lanes(w, 3), block, f, 3) == learned.score(w, block, f, 3)


def test_weights_beyond_32_bits_are_refused_by_the_lanes_layout():
    w = np.zeros(learned.width(3), np.int64)
    w[5] = -learned.LANE_LIMIT
    with pytest.raises(ValueError, match="weights must lie within ±16,384"):
        learned.lanes(w, 3)
