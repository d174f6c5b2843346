"""``jit.argsort_draws`` and ``jit.permutation_into`` (issue 29: byte counters, 512 buckets) give what they gave
before, for every ``n`` they take: the stable argsort of the draws, ``rng.permutation``, and the bucket sort they
replaced (kept here alone, as the oracle)."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from cardsim.core import jit, rng

u64 = st.integers(0, 2**64 - 1)
draw_lists = st.lists(u64, min_size=1, max_size=jit.MAX_DRAWS)


@njit(cache=True)
def argsort_before_issue_29(u, n, out, count):
    """``argsort_draws`` as it was: 128 buckets of int64 counters, then an insertion sort."""
    count[:] = 0
    for i in range(n):
        count[np.int64(u[i] >> np.uint64(57)) + 1] += 1
    for b in range(128):
        count[b + 1] += count[b]
    for i in range(n):
        b = np.int64(u[i] >> np.uint64(57))
        out[count[b]] = i
        count[b] += 1
    for i in range(1, n):
        x = out[i]
        j = i
        while j > 0 and u[out[j - 1]] > u[x]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = x


def argsorts(u):
    """``argsort_draws`` of ``u`` and the oracle's, each with fresh scratch (``count`` as callers give it)."""
    new, old = np.full(len(u), -1, np.int64), np.full(len(u), -1, np.int64)
    jit.argsort_draws(u, len(u), new, np.full(jit.BUCKETS + 1, 7, np.int64))
    argsort_before_issue_29(u, len(u), old, np.zeros(129, np.int64))
    return new.tolist(), old.tolist()


@given(draw_lists, st.integers(0, 63))
def test_argsort_draws_equals_the_sort_it_replaced(draws, shift):
    """Shifted right, many draws are equal and crowd few buckets: ties keep index order, deep moves happen."""
    u = np.array(draws, dtype=np.uint64) >> np.uint64(shift)
    new, old = argsorts(u)
    assert new == old == np.argsort(u, kind="stable").tolist()


@given(draw_lists, st.integers(0, 511))
def test_argsort_draws_sorts_one_crowded_bucket(draws, bucket):
    """Every draw in the same one of the 512 buckets: the insertion sort does all the work."""
    u = (np.array(draws, dtype=np.uint64) >> np.uint64(9)) | (np.uint64(bucket) << np.uint64(55))
    new, old = argsorts(u)
    assert new == old == np.argsort(u, kind="stable").tolist()


@given(u64, st.integers(1, 5), st.integers(0, 2**20), st.integers(1, jit.MAX_DRAWS))
def test_permutation_into_equals_rng_permutation_up_to_max_draws(key, stream, counter, n):
    u, out, count = np.zeros(n, np.uint64), np.zeros(n, np.int64), np.zeros(jit.BUCKETS + 1, np.int64)
    jit.permutation_into(np.uint64(key), stream, counter, n, u, out, count)
    assert out.tolist() == rng.permutation(key, stream, n, counter)
    assert u.tolist() == [rng.draw(key, stream, counter, i) for i in range(n)]


def test_argsort_of_no_draws_writes_nothing():
    out = np.full(3, -1, np.int64)
    jit.argsort_draws(np.zeros(3, np.uint64), 0, out, np.zeros(jit.BUCKETS + 1, np.int64))
    assert out.tolist() == [-1, -1, -1]
