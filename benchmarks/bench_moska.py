"""Moska throughput: games/s of the reference and compiled engines and their ratio, wall and per
CPU-second, for each player count and policy, the two engines one right after the other in one process
(the compiled engine warmed first: its compile time is printed apart); the compiled engine's time and
memory at scale; its cold-compile and warm-start times in fresh processes.

    .venv/bin/python benchmarks/bench_moska.py               # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_moska.py --quick       # a few seconds
    .venv/bin/python benchmarks/bench_moska.py --players 4 --games 2000 --compiled-games 500000
    .venv/bin/python benchmarks/bench_moska.py --at-scale 1000000 --jobs 2 --policies random   # time, memory
    .venv/bin/python benchmarks/bench_moska.py --stream 10000000 --policies random   # memory: compare sizes
    .venv/bin/python benchmarks/bench_moska.py --compile-times   # cold compile and warm start, fresh processes

The numpy lockstep engine this replaced was measured against the compiled one, in one process,
before its removal: ``git checkout a691dd7 && python benchmarks/bench_moska.py --lockstep``.

How the rows are timed: ``benchmarks/throughput.py``.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

import cardsim
from cardsim.api import CHUNK
from cardsim.games import spec
from throughput import compare, parser, timed, warm_up


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


def at_scale(rules: str, players: int, policy: str, games: int, jobs: int, seed: int) -> None:
    """The compiled engine through ``cardsim.simulate`` with ``n_jobs``: time and peak memory, twice: the
    first run starts the workers (they load the compiled code from the cache; joblib keeps them for the
    next runs of this process), the second finds them warm. The
    CPU seconds of this process and its workers, over ``jobs``, is the wall time on ``jobs`` free cores."""
    warm_up("moska", rules, players, policy)
    for run in ("first", "again"):
        wall, cpu = timed(lambda: cardsim.simulate("moska", rules, players=players, games=games, seed=seed,
                                                   policy=policy, n_jobs=jobs))
        own, child = peak_mib()
        print(f"compiled {games:,} games {players}p {policy}, n_jobs={jobs}, {run}: {wall:.2f} s "
              f"({games / wall:,.0f} games/s); CPU {cpu:.1f} s, {cpu / jobs:.2f} s per core; peak memory "
              f"{own:,.0f} MiB (largest worker {child:,.0f} MiB)", flush=True)


def streamed(rules: str, players: int, policy: str, games: int, seed: int) -> None:
    """Games streamed chunk by chunk through the compiled engine, keeping only loser counts (peak memory)."""
    g = spec("moska")
    r = cardsim.rules("moska", rules)
    seats = g.seat_policies(policy, players)
    losers = np.zeros(players + 1, dtype=np.int64)
    warm_up("moska", rules, players, policy)
    start = time.perf_counter()
    for first in range(0, games, CHUNK):
        cols = g.compiled(r, players, seed, np.arange(first, min(first + CHUNK, games), dtype=np.int64), seats)
        losers += np.bincount(cols["loser"] + 1, minlength=players + 1)
    wall = time.perf_counter() - start
    print(f"compiled streamed {games:,} games {players}p {policy}: {wall:.1f} s, peak memory {peak_mib()[0]:,.0f} "
          f"MiB; losers by seat (-1 first) {losers.tolist()}")


FIRST_GAME = ("import time; start = time.perf_counter(); import cardsim; imported = time.perf_counter(); "
              "cardsim.simulate('moska', players=4, games=1); print(imported - start, time.perf_counter() - imported)")


def compile_times() -> None:
    """A fresh process playing one game with an empty numba cache (cold compile), then again (warm start)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold (compiles)", "warm (loads the cache)"):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", FIRST_GAME], env=env, capture_output=True, text=True,
                                 check=True)
            total = time.perf_counter() - start
            imported, first = map(float, out.stdout.split())
            print(f"{label}: process {total:.1f} s, import cardsim {imported:.1f} s, first game {first:.1f} s; "
                  f"stderr: {out.stderr.strip() or '-'}")


def main() -> None:
    p = parser(__doc__, rules="moska", players=(2, 4, 6), games=1000, compiled_games=200_000)
    p.add_argument("--at-scale", type=int, metavar="N",
                   help="only: N compiled games at 4 players through cardsim.simulate with --jobs (time, memory)")
    p.add_argument("--stream", type=int, metavar="N",
                   help="only: N compiled games at 4 players streamed chunk by chunk (peak memory)")
    p.add_argument("--compile-times", action="store_true", help="only: cold-compile and warm-start times")
    args = p.parse_args()
    if args.compile_times:
        compile_times()
        return
    if not (args.at_scale or args.stream):
        compare("moska", args)
    for policy in args.policies:
        if args.at_scale:
            at_scale(args.rules, 4, policy, args.at_scale, args.jobs, args.seed)
        elif args.stream:
            streamed(args.rules, 4, policy, args.stream, args.seed)


if __name__ == "__main__":
    main()
