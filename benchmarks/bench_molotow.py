"""Molotow Jass throughput: hands/s (and games/s) of the vector and reference engines, and their ratio.

Both engines are timed in the same run on the same games (``time.perf_counter``), for
each player count and policy. A game is ``hands`` hands (12 by default).

    .venv/bin/python benchmarks/bench_molotow.py            # 20,000 vector / 200 reference games
    .venv/bin/python benchmarks/bench_molotow.py --quick    # a smoke run
"""
from __future__ import annotations

import argparse
import time

import cardsim


def rate(engine: str, rules: str, players: int, policy: str, games: int) -> tuple[float, float]:
    """(games/s, hands/s) of one engine on games 0..games-1."""
    start = time.perf_counter()
    cardsim.simulate("molotow", rules, players=players, games=games, seed=1, policy=policy, engine=engine)
    seconds = time.perf_counter() - start
    hands = cardsim.rules("molotow", rules).hands
    return games / seconds, games * hands / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vector-games", type=int, default=20_000)
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="2,000 vector and 20 reference games")
    args = parser.parse_args()
    vector_games, reference_games = (2_000, 20) if args.quick else (args.vector_games, args.reference_games)
    print(f"{'table':9} {'policy':7} {'vector hands/s':>15} {'reference hands/s':>18} {'ratio':>7}"
          f" {'vector games/s':>15} {'reference games/s':>18}")
    for rules, players in (("molotow", 4), ("mittlere", 3)):
        for policy in ("random", "greedy"):
            vg, vh = rate("vector", rules, players, policy, vector_games)
            rg, rh = rate("reference", rules, players, policy, reference_games)
            print(f"{players} players {policy:7} {vh:15,.0f} {rh:18,.0f} {vh / rh:7.0f} {vg:15,.0f} {rg:18,.0f}")


if __name__ == "__main__":
    main()
