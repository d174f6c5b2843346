"""Musta-Maija throughput: games/s of the reference and vector engines and their ratio, for
each player count and policy, measured in the same run.

    .venv/bin/python benchmarks/bench_musta_maija.py             # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_musta_maija.py --quick     # a few seconds
    .venv/bin/python benchmarks/bench_musta_maija.py --games 500 --vector-games 100000 --rules black_trump
"""
from __future__ import annotations

import argparse
import time

import cardsim


def games_per_second(engine: str, rules: str, players: int, policy: str, games: int, seed: int) -> float:
    start = time.perf_counter()
    cardsim.simulate("musta_maija", rules, players=players, games=games, seed=seed, policy=policy, engine=engine)
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per reference-engine measurement")
    parser.add_argument("--vector-games", type=int, default=50_000, help="games per vector-engine measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"])
    parser.add_argument("--rules", default="musta_maija", help="a preset or string form")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="50 reference and 5,000 vector games")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.vector_games = 50, 5_000
    print(f"musta_maija {args.rules}: games/s (reference {args.games} games, vector {args.vector_games} games)")
    print(f"{'players':>7} {'policy':>8} {'reference':>10} {'vector':>10} {'ratio':>7}")
    for players in args.players:
        for policy in args.policies:
            ref = games_per_second("reference", args.rules, players, policy, args.games, args.seed)
            vec = games_per_second("vector", args.rules, players, policy, args.vector_games, args.seed)
            print(f"{players:>7} {policy:>8} {ref:>10.0f} {vec:>10.0f} {vec / ref:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
