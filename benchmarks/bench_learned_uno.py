"""Uno ``learned`` (issue 22): speed against ``greedy`` and strength among three ``greedy`` seats, seats rotated.

    PYTHONPATH=. python benchmarks/bench_learned_uno.py --games 40000 --policies "learned(model=official_4p_g1),learned"

Speed: games per CPU-second of ``learned`` self-play and of ``greedy`` self-play in this process (median and
range over ``--rounds`` rounds, interleaved), and their ratio (issue 22's target: >= 1/4). Strength: each policy in
one seat among three ``greedy`` seats, the seat rotated over the 4 seats (``--games`` in all, the same deals
for every policy), its win rate with a 95% Wilson interval (every seat on average: 25%). The load (``uptime``)
is printed before and after: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import cardsim
from cardsim.core.rules import split_calls
from cardsim.study.report.stats import wilson


def rate(policy: str, games: int, seed: int) -> float:
    start = time.process_time()
    cardsim.simulate("uno", players=4, games=games, seed=seed, policy=policy)
    return games / (time.process_time() - start)


def wins(policy: str, games: int, seed: int) -> tuple[int, int]:
    """Wins of ``policy`` in seat 0, 1, 2, 3 among ``greedy`` (``games // 4`` each, the same deals)."""
    per_seat, won = games // 4, 0
    for seat in range(4):
        seats = ["greedy"] * 4
        seats[seat] = policy
        won += int((cardsim.simulate("uno", players=4, games=per_seat, seed=seed, policy=seats).winner == seat).sum())
    return won, per_seat * 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--speed-games", type=int, default=50000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--learned", default="learned", help="the learned policy string timed for speed")
    parser.add_argument("--policies", default="learned", help="the policies rated, separated by commas")
    args = parser.parse_args()
    print("load:", os.popen("uptime").read().strip())
    timed = ("greedy", args.learned)
    for p in timed:
        cardsim.simulate("uno", players=4, games=20, seed=1, policy=p)  # compile or load once
    rates: dict[str, list[float]] = {p: [] for p in timed}
    for r in range(args.rounds):
        for p in timed:
            rates[p].append(rate(p, args.speed_games, 100 + r))
    for p, r in rates.items():
        print(f"{p:30} {statistics.median(r):10,.0f} games/CPU-s (range {min(r):,.0f} .. {max(r):,.0f})")
    ratio = statistics.median(rates[args.learned]) / statistics.median(rates["greedy"])
    print(f"learned / greedy speed: {ratio:.3f}")
    for policy in split_calls(args.policies):
        start = time.perf_counter()
        won, n = wins(policy, args.games, args.seed)
        lo, hi = wilson(won, n)
        print(f"{policy:40} wins {won / n:6.2%} [{lo:6.2%}, {hi:6.2%}] of {n:,} games among 3 greedy "
              f"({time.perf_counter() - start:.0f} s)")
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
