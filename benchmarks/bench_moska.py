"""Moska throughput: games/s of the reference engine (and of the vector engine, with the ratio,
once ``GAME.vector`` exists) for each player count and policy, measured in the same run.

    .venv/bin/python benchmarks/bench_moska.py               # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_moska.py --quick       # a few seconds
    .venv/bin/python benchmarks/bench_moska.py --games 2000 --vector-games 100000 --rules turamoska
"""
from __future__ import annotations

import argparse
import time

import cardsim
from cardsim.games import spec


def games_per_second(engine: str, rules: str, players: int, policy: str, games: int, seed: int) -> float:
    start = time.perf_counter()
    cardsim.simulate("moska", rules, players=players, games=games, seed=seed, policy=policy, engine=engine)
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per reference-engine measurement")
    parser.add_argument("--vector-games", type=int, default=50_000, help="games per vector-engine measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"])
    parser.add_argument("--rules", default="moska", help="a preset or string form")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 reference and 5,000 vector games")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.vector_games = 100, 5_000
    vector = spec("moska").vector is not None
    print(f"moska {args.rules}: games/s (reference {args.games} games"
          + (f", vector {args.vector_games} games)" if vector else "; no vector engine yet)"))
    print(f"{'players':>7} {'policy':>8} {'reference':>10}" + (f" {'vector':>10} {'ratio':>7}" if vector else ""))
    for players in args.players:
        for policy in args.policies:
            ref = games_per_second("reference", args.rules, players, policy, args.games, args.seed)
            line = f"{players:>7} {policy:>8} {ref:>10.0f}"
            if vector:
                vec = games_per_second("vector", args.rules, players, policy, args.vector_games, args.seed)
                line += f" {vec:>10.0f} {vec / ref:>7.1f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
