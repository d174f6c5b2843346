"""MJ-4 at scale: with 4 players no hand is trumpless (9 cards of a suit never fill 4-card tricks), so the
first off-suit card always sets trump; every hand's points total 152 + the last trick's bonus. Plays
1,000,000 hands (by default) on the compiled engine, one row per hand (``hands_table``), both policies,
and prints the hands, the exceptions and the time; at the 3-player table trumpless hands do happen.

    .venv/bin/python benchmarks/molotow_trumpless.py                 # 1,000,000 four-player hands
    .venv/bin/python benchmarks/molotow_trumpless.py --hands 24000
"""
from __future__ import annotations

import argparse
import time

import cardsim
from cardsim.games.molotow import hands_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="four-player hands in all, half per policy")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    hands_table("molotow", games=1)                              # compile or load the cache: not timed
    total = exceptions = 0
    start = time.perf_counter()
    for policy in ("random", "greedy"):
        games = -(-args.hands // 24)
        table = hands_table("molotow", players=4, seed=args.seed, games=games, policy=policy)
        points = table[[f"points_{s}" for s in range(4)]].sum(axis=1)
        trumpless = int((table.trump == -1).sum())
        wrong_total = int((points != cardsim.rules("molotow").total_points).sum())
        print(f"4 players {policy:>6}: {len(table):,} hands, {trumpless} trumpless, {wrong_total} not totalling "
              f"157 points", flush=True)
        total, exceptions = total + len(table), exceptions + trumpless + wrong_total
    wall = time.perf_counter() - start
    three = hands_table("mittlere", seed=args.seed, games=1000, policy="random")
    print(f"total: {total:,} four-player hands, {exceptions} exceptions, {wall:.1f} s ({total / wall:,.0f} hands/s, "
          f"one process); for contrast, 3 players: {int((three.trump == -1).sum())} trumpless of {len(three):,}")
    return int(exceptions > 0)


if __name__ == "__main__":
    raise SystemExit(main())
