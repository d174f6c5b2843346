"""The deal's share of a game, and what the linear-time deal saved (issue 29, item 4).

Every engine deals with ``jit.permutation_into``: the stable argsort of one keyed draw per
position, by a bucket pass (~n steps). Until December 2026 Moska and Musta-Maija sorted the same
draws by insertion (~n²/4 steps; ``insertion_into`` below, kept here as the baseline): the
permutation is the same, so no record and no committed study changed. A keyed Fisher–Yates
shuffle from the same keyed RNG (``fisher_yates_into`` below: position ``i = n-1 .. 1`` swaps with
``below(fold_count(base, i), i + 1)``) is O(n) too but deals other cards (a protocol change),
so it is measured only. Printed, one process, alternating rounds (median and range of
``--rounds``): CPU ns per permutation of each kind for 52 and 108 cards, ns per ``greedy``
Moska game at 4 players (``compiled.run_plain``, today's deal), and what the game saves against
the insertion sort (the game minus the bucket pass plus the insertion sort: one deal a game).

    python benchmarks/bench_deal.py --rounds 5
"""
from __future__ import annotations

import argparse
import subprocess
import time

import numpy as np

import cardsim
from cardsim.core import jit
from cardsim.core.jit import below, fold, fold_count, njit
from cardsim.games.moska import compiled, compiled_policies as pol


@njit(cache=True)
def fisher_yates_into(key: np.uint64, stream: int, counter: int, n: int, out: np.ndarray) -> None:
    """A keyed Fisher–Yates shuffle of ``0 .. n-1`` into ``out[:n]``: one draw per position but the first."""
    base = fold(fold(key, stream), counter)
    for i in range(n):
        out[i] = i
    for i in range(n - 1, 0, -1):
        j = below(fold_count(base, i), i + 1)
        out[i], out[j] = out[j], out[i]


@njit(cache=True)
def insertion_into(key: np.uint64, stream: int, counter: int, n: int, u: np.ndarray, out: np.ndarray) -> None:
    """The deal Moska and Musta-Maija used before: the same argsort, by insertion (~n²/4 steps)."""
    base = fold(fold(key, stream), counter)
    for i in range(n):
        u[i] = fold_count(base, i)
        j = i
        while j > 0 and u[out[j - 1]] > u[i]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i


@njit(cache=True)
def insertion_deals(seed: np.uint64, deals: int, n: int, u: np.ndarray, out: np.ndarray) -> int:
    """``deals`` permutations by insertion; a checksum so that nothing is optimised away."""
    check = 0
    for g in range(deals):
        insertion_into(jit.game_key(seed, g), jit.DEAL, 0, n, u, out)
        check += out[0]
    return check


@njit(cache=True)
def bucket_deals(seed: np.uint64, deals: int, n: int, u: np.ndarray, out: np.ndarray, count: np.ndarray) -> int:
    """``deals`` permutations by today's deal, ``jit.permutation_into``."""
    check = 0
    for g in range(deals):
        jit.permutation_into(jit.game_key(seed, g), jit.DEAL, 0, n, u, out, count)
        check += out[0]
    return check


@njit(cache=True)
def fisher_yates_deals(seed: np.uint64, deals: int, n: int, out: np.ndarray) -> int:
    """``deals`` keyed Fisher–Yates shuffles."""
    check = 0
    for g in range(deals):
        fisher_yates_into(jit.game_key(seed, g), jit.DEAL, 0, n, out)
        check += out[0]
    return check


def cpu_ns(fn, count: int) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) / count * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=100_000, help="greedy Moska games per round")
    args = parser.parse_args()
    seed = np.uint64(20261129)
    u, out = np.zeros(112, np.uint64), np.zeros(112, np.int64)
    count = np.zeros(jit.BUCKETS + 1, np.int64)
    rules = cardsim.rules("moska")
    params, table = compiled.make_params(rules, 4)[0], pol.table(("greedy",) * 4)
    games = np.arange(args.games, dtype=np.int64)
    record = np.zeros((args.games, len(compiled.RECORD_FIELDS)), dtype=np.int64)
    work = compiled.new_work()[0]
    kinds = {
        "insertion 52 (before)": lambda: insertion_deals(seed, args.deals, 52, u, out),
        "bucket 52 (today)": lambda: bucket_deals(seed, args.deals, 52, u, out, count),
        "fisher-yates 52": lambda: fisher_yates_deals(seed, args.deals, 52, out),
        "bucket 108 (today)": lambda: bucket_deals(seed, args.deals, 108, u, out, count),
        "fisher-yates 108": lambda: fisher_yates_deals(seed, args.deals, 108, out),
    }
    for fn in kinds.values():  # compile (or load) outside the timing
        fn()
    compiled.run_plain(params, table, seed, games[:10], record[:10], work)
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    times: dict[str, list[float]] = {k: [] for k in [*kinds, "greedy moska game, 4 players"]}
    for _ in range(args.rounds):
        for name, fn in kinds.items():
            times[name].append(cpu_ns(fn, args.deals))
        times["greedy moska game, 4 players"].append(
            cpu_ns(lambda: compiled.run_plain(params, table, seed, games, record, work), args.games))
    print(f"{'what':32} {'median ns':>10} {'range ns':>18}   (CPU time, {args.rounds} alternating rounds)")
    for name, ns in times.items():
        print(f"{name:32} {np.median(ns):10.1f} {min(ns):8.1f} .. {max(ns):7.1f}")
    game = np.median(times["greedy moska game, 4 players"])
    before, today = np.median(times["insertion 52 (before)"]), np.median(times["bucket 52 (today)"])
    fy = np.median(times["fisher-yates 52"])
    then = game - today + before
    print(f"the 52-card permutation is {today / game:.1%} of a greedy 4-player Moska game today "
          f"({before / then:.1%} with the insertion sort); the bucket pass saves {1 - game / then:.1%} of the game's "
          f"time ({then / game:.2f}x the games per CPU-s; item 4's bar: >= 15%); a keyed Fisher–Yates would save "
          f"another {(today - fy) / game:.1%}")


if __name__ == "__main__":
    main()
