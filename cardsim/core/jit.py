"""What every compiled (numba) engine shares: the keyed RNG, bit tricks on card masks, compilation.

The functions here are ``@njit`` twins of ``core/rng.py`` and ``core/cards.py``: the same
numbers and the same cards, tested equal. They allocate nothing, so they could also be
compiled for a GPU (numba's CUDA target, one thread per game).

numba pitfalls this module exists to absorb, once:
- mixing ``uint64`` and ``int64`` silently gives ``float64`` (or ``int64``): every mask
  constant is a ``np.uint64`` and every shift count is cast with ``U(...)`` first;
- numba 0.68 has neither ``np.bitwise_count`` nor ``int.bit_count``: ``popcount`` is the
  classic SWAR bit count;
- control flow cannot use exceptions: engines use flags and return codes instead.

Compiled code is cached on disk (``cache=True``): beside the package when it is writable,
else in numba's user-wide cache folder (or ``NUMBA_CACHE_DIR``), so a read-only install
works. ``first_call`` says on stderr how long a cold compile took.
"""
from __future__ import annotations

import sys
import time
from collections import namedtuple
from typing import Any, Sequence

import numba
import numpy as np
from numba.core import types

from cardsim.core import rng



def njit(*args: Any, **options: Any) -> Any:
    """numba's ``njit``, compiling less (every compiled module decorates with it):

    - no C callback wrapper per function (nothing here takes a compiled function's address);
    - one machine code per argument types: numba types a constant argument (``advance(s, p, BEGIN_ROUND)``)
      as a literal and compiles a copy of the callee for each constant; here a call from compiled code
      is typed with the arguments' plain types (the callee is the same code, not a copy per constant).
    """
    options.setdefault("no_cfunc_wrapper", True)
    decorate = numba.njit(**options)

    def make(fn: Any) -> Any:
        dispatcher = decorate(fn)
        typed = dispatcher.get_call_template

        def get_call_template(args: tuple, kws: dict) -> Any:
            return typed(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return dispatcher

    return make(args[0]) if args and callable(args[0]) else make


U = np.uint64
"""Cast before shifting or mixing: ``U(1) << U(c)``."""
ZERO = np.uint64(0)
ONE = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S1, _S2, _S4, _S8, _S16, _S27, _S30, _S31, _S56 = (np.uint64(s) for s in (1, 2, 4, 8, 16, 27, 30, 31, 56))
_H1 = np.uint64(0x5555555555555555)
_H2 = np.uint64(0x3333333333333333)
_H4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)

# Streams of core/rng.py's ``Stream`` (numba cannot read an IntEnum): DEAL, POLICY, RESHUFFLE, EXTRA, SEARCH.
DEAL, POLICY, RESHUFFLE, EXTRA, SEARCH = 1, 2, 3, 4, 5


# --- the keyed counter RNG (core/rng.py) ---------------------------------------------------

@njit(cache=True)
def fmix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def fold(h: np.uint64, word: int) -> np.uint64:
    """``rng.mix(h, word)``: fold one word into a key."""
    return fmix(h ^ fmix(U(word) + _GOLDEN))


WORDS = rng.word_mixes(1024)
"""The inner half of ``fold(h, i)`` for the small counters a game folds in most (card positions, decision
counters): ``fold(h, i) == fmix(h ^ WORDS[i])``, one mix instead of two."""


@njit(cache=True)
def fold_count(h: np.uint64, i: int) -> np.uint64:
    """``fold(h, i)`` for a counter ``i >= 0``, from ``WORDS`` when it holds ``i``."""
    return fmix(h ^ WORDS[i]) if i < len(WORDS) else fold(h, i)


@njit(cache=True)
def game_key(seed: int, game: int) -> np.uint64:
    """``rng.game_key(seed, game)``."""
    return fold(U(seed), game)


@njit(cache=True)
def draw(key: np.uint64, stream: int, counter: int, k: int) -> np.uint64:
    """``rng.draw(key, stream, counter, k)``: draw ``k`` at ``counter`` of ``stream``."""
    return fold(fold(fold(key, stream), counter), k)


@njit(cache=True)
def world_key(key: np.uint64, turn: int, j: int) -> np.uint64:
    """``rng.world_key(key, turn, j)``: world ``j`` of a search at decision ``turn``."""
    return draw(key, SEARCH, turn, j)


@njit(cache=True)
def below(u: np.uint64, n: int) -> int:
    """``rng.below(u, n)``: ``u % n`` as an int (``n >= 1``)."""
    return np.int64(u % U(n))


BUCKETS = 128
"""Words of ``argsort_draws``'s ``count`` scratch (callers give it ``BUCKETS + 1`` int64)."""
_BUCKET_BITS = 9
_BUCKET_SHIFT = np.uint64(64 - _BUCKET_BITS)
_BUCKET_WORDS = (1 << _BUCKET_BITS) // 8
"""``argsort_draws`` buckets a draw by its top 9 bits: 512 byte counters, 8 a word, in the first 64 of ``count``."""
MAX_DRAWS = 255
"""The most draws ``argsort_draws`` sorts: its counters are bytes."""


@njit(cache=True)
def argsort_draws(u: np.ndarray, n: int, out: np.ndarray, count: np.ndarray) -> None:
    """``out[:n]``: the indices of ``u[:n]`` sorted by ``(u[i], i)`` (``n <= MAX_DRAWS``), without allocating.

    The indices are placed in index order into 512 buckets by their draw's top bits (a counting sort on
    byte counters in ``count``, their starts summed 8 at a time), then insertion-sorted, stable: keyed draws
    are uniform, so an index moves only within its bucket, and few move (~n steps, not ~n²/4; the largest
    draw placed so far tells which, without reading back what was placed).
    """
    counters = count.view(np.uint8)
    for w in range(_BUCKET_WORDS):
        count[w] = 0
    for i in range(n):
        counters[np.int64(u[i] >> _BUCKET_SHIFT)] += 1
    start = ZERO  # the buckets before this word hold ``start`` draws
    for w in range(_BUCKET_WORDS):
        x = U(count[w])
        through = x * _H01  # byte k: the draws of the word's buckets 0..k (below 256: no carry)
        count[w] = np.int64(through - x + start * _H01)
        start += through >> _S56
    for i in range(n):
        b = np.int64(u[i] >> _BUCKET_SHIFT)
        out[counters[b]] = i
        counters[b] += 1
    last = ZERO  # the largest draw placed so far
    for i in range(n):
        x = out[i]
        if u[x] < last:
            j = i
            while j > 0 and u[out[j - 1]] > u[x]:
                out[j] = out[j - 1]
                j -= 1
            out[j] = x
        else:
            last = u[x]


@njit(cache=True)
def permutation_into(key: np.uint64, stream: int, counter: int, n: int, u: np.ndarray, out: np.ndarray,
                     count: np.ndarray) -> None:
    """``rng.permutation(key, stream, n, counter)`` written into ``out[:n]`` (``n <= MAX_DRAWS``; ``u``: ``n``
    uint64 and ``count``: ``BUCKETS + 1`` int64 of scratch): the stable argsort of ``n`` keyed draws by
    ``argsort_draws``, in ~n steps and without allocating."""
    base = fold(fold(key, stream), counter)
    for i in range(n):  # draw i is ``fold_count(base, i)``, n within ``WORDS``: one mix each, side by side
        u[i] = fmix(base ^ WORDS[i])
    argsort_draws(u, n, out, count)

# --- card masks (core/cards.py) ------------------------------------------------------------

@njit(cache=True)
def bit(card: int) -> np.uint64:
    """The mask of one card."""
    return ONE << U(card)


@njit(cache=True)
def has(mask: np.uint64, card: int) -> bool:
    return (mask >> U(card)) & ONE != ZERO


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    """Cards in a mask (SWAR bit count)."""
    x = x - ((x >> _S1) & _H1)
    x = (x & _H2) + ((x >> _S2) & _H2)
    x = (x + (x >> _S4)) & _H4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True)
def lowest(x: np.uint64) -> int:
    """Code of the lowest card of a mask, -1 when empty."""
    if x == ZERO:
        return -1
    return popcount((x & (~x + ONE)) - ONE)


@njit(cache=True)
def highest(x: np.uint64) -> int:
    """Code of the highest card of a mask, -1 when empty."""
    x |= x >> _S1
    x |= x >> _S2
    x |= x >> _S4
    x |= x >> _S8
    x |= x >> _S16
    x |= x >> U(32)
    return popcount(x) - 1


@njit(cache=True)
def drop_lowest(x: np.uint64) -> np.uint64:
    """The mask without its lowest card."""
    return x & (x - ONE)


@njit(cache=True)
def ith_lowest(x: np.uint64, i: int) -> int:
    """The card of index ``i`` (from 0) of the mask in ascending code (``policies.ith_lowest``)."""
    for _ in range(i):
        x = drop_lowest(x)
    return lowest(x)


@njit(cache=True)
def n_lowest(x: np.uint64, n: int) -> np.uint64:
    """The ``n`` lowest-code cards of a mask (all when it has fewer)."""
    out = ZERO
    for _ in range(n):
        if x == ZERO:
            break
        low = x & (~x + ONE)
        out |= low
        x ^= low
    return out


# --- search ---------------------------------------------------------------------------------

@njit(cache=True)
def argmax_first(values: np.ndarray, n: int) -> int:
    """The index of the largest of ``values[:n]`` (``n >= 1``), ties to the lowest index."""
    best = 0
    for i in range(1, n):
        if values[i] > values[best]:
            best = i
    return best


# --- records -------------------------------------------------------------------------------

def positions(columns: Sequence[str]) -> tuple:
    """The position of each of a record row's ``columns`` as a named tuple, so that a compiled engine
    writes a row by column name (``row[AT.turns] = s.turns``): numba reads a global named tuple as
    constants, so the machine code is that of ``row[0]``."""
    return namedtuple("Positions", columns)(*range(len(columns)))


# --- compilation ---------------------------------------------------------------------------

def first_call(dispatcher: Any, label: str, *args: Any) -> Any:
    """Call a compiled entry point; on its first call in this process, say on stderr how long a
    cold compile took (a cached load says nothing: it takes about a second)."""
    if dispatcher.signatures:
        return dispatcher(*args)
    start = time.perf_counter()
    out = dispatcher(*args)
    if dispatcher.stats.cache_misses:
        print(f"cardsim: compiled the {label} engine in {time.perf_counter() - start:.1f} s "
              f"(once; cached in {dispatcher.stats.cache_path})", file=sys.stderr)
    return out
