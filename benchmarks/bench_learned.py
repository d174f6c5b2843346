"""Moska ``learned`` (issue 22): speed and strength among three ``greedy`` seats, seats rotated.

    PYTHONPATH=. python benchmarks/bench_learned.py --games 8000 --jobs 2 --policies "learned,mc(base=learned)"

Speed: games per CPU-second of ``learned`` self-play and of ``greedy`` self-play in this process (median and
range over ``--rounds`` rounds, the two interleaved), and their ratio. Strength: each policy in one seat among
three ``greedy`` seats, the seat rotated over the 4 seats (``--games`` in all, the same deals for every policy), its
loss rate with a 95% Wilson interval (issue 22's targets: ``learned`` <= 15.3%, ``mc(32)``'s; ``mc(base=learned)``
at 32 worlds <= 11%). ``--others mc`` seats ``mc`` instead of ``greedy`` in the three other seats (the
policies rated head to head against the strongest searcher). The load (``uptime``) is printed: the machine
is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import cardsim
from cardsim.core.rules import split_calls
from cardsim.study.report.stats import wilson
from seat_among import loss_rate  # this folder: the script's own, first on the path


def throughput(policies: tuple[str, ...], games: int, rounds: int) -> dict[str, list[float]]:
    """Games per CPU-second of each policy's self-play, the policies interleaved in every round (so that the
    load hits them alike)."""
    for policy in policies:
        cardsim.simulate("moska", players=4, games=20, seed=1, policy=policy)  # compile or load once
    rates: dict[str, list[float]] = {p: [] for p in policies}
    for r in range(rounds):
        for policy in policies:
            start = time.process_time()
            cardsim.simulate("moska", players=4, games=games, seed=100 + r, policy=policy)
            rates[policy].append(games / (time.process_time() - start))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--speed-games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the strength runs (one per seat)")
    parser.add_argument("--learned", default="learned", help="the learned policy string timed for speed")
    parser.add_argument("--policies", default="learned", help="the policies rated, separated by commas")
    parser.add_argument("--others", default="greedy", help="the policy of the three other seats")
    args = parser.parse_args()
    print("load:", os.popen("uptime").read().strip())
    rates = throughput(("greedy", args.learned), args.speed_games, args.rounds)
    for p, r in rates.items():
        print(f"{p:30} {statistics.median(r):10,.0f} games/CPU-s (range {min(r):,.0f} .. {max(r):,.0f})")
    ratio = statistics.median(rates[args.learned]) / statistics.median(rates["greedy"])
    print(f"learned / greedy speed: {ratio:.3f}")
    for policy in split_calls(args.policies):
        start = time.perf_counter()
        lost, n = loss_rate("moska", policy, args.others, 4, args.games, args.seed, args.jobs)
        lo, hi = wilson(lost, n)
        print(f"{policy:40} loses {lost / n:6.2%} [{lo:6.2%}, {hi:6.2%}] of {n:,} games among 3 {args.others} "
              f"({time.perf_counter() - start:.0f} s)")
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
