"""Uno throughput: hands/s of the vector and reference engines and their ratio, measured in
the same run (``time.perf_counter``) for each player count and policy. A game is one hand
unless the rules set ``target_score``.

    .venv/bin/python benchmarks/bench_uno.py                 # 2 and 4 players; random, greedy
    .venv/bin/python benchmarks/bench_uno.py --quick         # a few seconds
    .venv/bin/python benchmarks/bench_uno.py --vector-games 200000 --jobs 2 --rules stacking

For scale: rlcard's own Uno game loop plays about 2,000 random 4-player hands/s on a
machine like ours; the target for the vector engine is 25x that.
"""
from __future__ import annotations

import argparse
import time

import cardsim


def hands_per_second(engine: str, rules: str, players: int, policy: str, games: int, seed: int,
                     jobs: int) -> float:
    start = time.perf_counter()
    df = cardsim.simulate("uno", rules, players=players, games=games, seed=seed, policy=policy, engine=engine,
                          n_jobs=jobs)
    return int(df.hands.sum()) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000, help="games per reference-engine measurement")
    parser.add_argument("--vector-games", type=int, default=100_000, help="games per vector-engine measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"])
    parser.add_argument("--rules", default="official", help="a preset or string form")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the vector engine (n_jobs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 reference and 5,000 vector games")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.vector_games = 100, 5_000
    print(f"uno {args.rules}: {args.vector_games:,} vector games (n_jobs={args.jobs}), "
          f"{args.games:,} reference games")
    print(f"{'players':>7} {'policy':8} {'vector hands/s':>15} {'reference hands/s':>18} {'ratio':>7}")
    for players in args.players:
        for policy in args.policies:
            vec = hands_per_second("vector", args.rules, players, policy, args.vector_games, args.seed, args.jobs)
            ref = hands_per_second("reference", args.rules, players, policy, args.games, args.seed, 1)
            print(f"{players:7} {policy:8} {vec:15,.0f} {ref:18,.0f} {vec / ref:7.1f}")


if __name__ == "__main__":
    main()
