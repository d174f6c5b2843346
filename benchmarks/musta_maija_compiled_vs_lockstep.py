"""Compiled vs numpy lockstep Musta-Maija engine, one process, CPU seconds (games per CPU-second =
per core): the measurement made before the lockstep engine was removed (it exists at this commit
only). Both engines play the same games in chunks of 20,000 (the API's chunk); the compiled engine
is compiled (or loaded) before timing.

    .venv/bin/python benchmarks/musta_maija_compiled_vs_lockstep.py                 # house, 4 players
    .venv/bin/python benchmarks/musta_maija_compiled_vs_lockstep.py --rules musta_maija --games 100000
"""
from __future__ import annotations

import argparse
import importlib
import time

import numpy as np

import cardsim
from cardsim.games.musta_maija import compiled

lockstep = importlib.import_module("cardsim.games.musta_maija.vector")


def rate(engine, rules, players: int, seats: tuple[str, ...], games: int) -> float:
    """Games per CPU-second of ``engine(rules, players, seed, games, seats)`` over chunks of 20,000."""
    start = time.process_time()
    for first in range(0, games, 20_000):
        engine(rules, players, 1, np.arange(first, min(first + 20_000, games)), seats)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200_000, help="compiled games per row (lockstep: a fifth)")
    args = parser.parse_args()
    rules = cardsim.rules("musta_maija", args.rules)
    compiled.simulate(rules, args.players, 1, np.arange(2), ("random",) * args.players)
    print(f"musta_maija {args.rules}, {args.players} players, games per CPU-second")
    for policy in ("random", "greedy"):
        seats = (policy,) * args.players
        fast = rate(compiled.simulate, rules, args.players, seats, args.games)
        slow = rate(lockstep.vector, rules, args.players, seats, args.games // 5)
        print(f"{policy:>6}: compiled {fast:>9,.0f}  lockstep {slow:>8,.0f}  ratio {fast / slow:.1f}", flush=True)


if __name__ == "__main__":
    main()
