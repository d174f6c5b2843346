"""MM-14 at scale: with one deck and ``black_maria="unbeatable"`` the loser of every finished
game holds the Black Maria. Runs the compiled engine and prints the games and the exceptions.

    .venv/bin/python benchmarks/musta_maija_black_maria.py                 # 1,000,000 games, 2 jobs
    .venv/bin/python benchmarks/musta_maija_black_maria.py --games 20000 --jobs 1
"""
from __future__ import annotations

import argparse
import time

import cardsim


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games in all, split over 2-5 players")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="musta_maija", help="a one-deck rules string with an unbeatable Black Maria")
    parser.add_argument("--jobs", type=int, default=2, help="n_jobs of cardsim.simulate")
    args = parser.parse_args(argv)
    total = exceptions = truncated = 0
    start = time.perf_counter()
    for players in (2, 3, 4, 5):
        for policy in ("random", "greedy"):
            df = cardsim.simulate("musta_maija", args.rules, players=players, games=args.games // 8,
                                  seed=args.seed, policy=policy, n_jobs=args.jobs)
            done = df[~df.truncated]
            bad = int((done.loser != done.black_maria_holder).sum() + (done.loser < 0).sum())
            print(f"{players} players {policy:>6}: {len(df)} games, {len(df) - len(done)} truncated, "
                  f"{bad} exceptions", flush=True)
            total, exceptions, truncated = total + len(df), exceptions + bad, truncated + len(df) - len(done)
    print(f"total: {total} games ({truncated} truncated), {exceptions} exceptions, "
          f"{time.perf_counter() - start:.0f} s")
    return int(exceptions > 0)


if __name__ == "__main__":
    raise SystemExit(main())
