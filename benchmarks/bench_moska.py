"""Moska throughput: games/s of the reference and vector engines and their ratio for each
player count and policy, measured in the same run; the vector engine's time and memory at scale.

    .venv/bin/python benchmarks/bench_moska.py               # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_moska.py --quick       # a few seconds
    .venv/bin/python benchmarks/bench_moska.py --games 2000 --vector-games 100000 --rules turamoska
    .venv/bin/python benchmarks/bench_moska.py --at-scale 1000000 --jobs 2 --policies greedy   # time, memory
    .venv/bin/python benchmarks/bench_moska.py --stream 1000000 --policies greedy   # memory: compare sizes
"""
from __future__ import annotations

import resource
import time

import numpy as np

import cardsim
from cardsim.api import CHUNK
from cardsim.games import spec
from throughput import compare, parser


def peak_mib() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process and of its largest child (joblib workers, alive or not)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    try:  # workers still alive (loky keeps them): their high-water mark, Linux only
        import psutil

        for proc in psutil.Process().children(recursive=True):
            with open(f"/proc/{proc.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        child = max(child, int(line.split()[1]) / 1024)
    except (ImportError, OSError):
        pass
    return own, child


def vector_at_scale(rules: str, players: int, policy: str, games: int, jobs: int, seed: int) -> None:
    """The vector engine through ``cardsim.simulate`` with ``n_jobs``: time and peak memory."""
    start = time.perf_counter()
    df = cardsim.simulate("moska", rules, players=players, games=games, seed=seed, policy=policy, n_jobs=jobs)
    wall = time.perf_counter() - start
    own, child = peak_mib()
    print(f"vector {games:,} games {players}p {policy}, n_jobs={jobs}: {wall:.1f} s ({games / wall:,.0f} games/s), "
          f"peak memory {own:,.0f} MiB (largest worker {child:,.0f} MiB); {len(df):,} rows")


def vector_streamed(rules: str, players: int, policy: str, games: int, seed: int) -> None:
    """Games streamed chunk by chunk through the vector engine, keeping only loser counts (peak memory)."""
    g = spec("moska")
    r = cardsim.rules("moska", rules)
    seats = g.seat_policies(policy, players)
    losers = np.zeros(players + 1, dtype=np.int64)
    start = time.perf_counter()
    for first in range(0, games, CHUNK):
        cols = g.vector(r, players, seed, np.arange(first, min(first + CHUNK, games), dtype=np.int64), seats)
        losers += np.bincount(cols["loser"] + 1, minlength=players + 1)
    wall = time.perf_counter() - start
    print(f"vector streamed {games:,} games {players}p {policy}: {wall:.1f} s, peak memory {peak_mib()[0]:,.0f} MiB; "
          f"losers by seat (-1 first) {losers.tolist()}")


def main() -> None:
    p = parser(__doc__, rules="moska", players=(2, 4, 6), games=1000, vector_games=50_000)
    p.add_argument("--at-scale", type=int, metavar="N",
                   help="only: N vector games at 4 players through cardsim.simulate with --jobs (time, memory)")
    p.add_argument("--stream", type=int, metavar="N",
                   help="only: N vector games at 4 players streamed chunk by chunk (peak memory)")
    args = p.parse_args()
    if not (args.at_scale or args.stream):
        compare("moska", args)
    for policy in args.policies:
        if args.at_scale:
            vector_at_scale(args.rules, 4, policy, args.at_scale, args.jobs, args.seed)
        elif args.stream:
            vector_streamed(args.rules, 4, policy, args.stream, args.seed)


if __name__ == "__main__":
    main()
