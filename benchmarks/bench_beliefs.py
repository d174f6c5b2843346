"""What ``mc``'s beliefs and its ``search_stock`` are worth: strength and CPU cost of one searching seat.

    .venv/bin/python benchmarks/bench_beliefs.py                       # Moska, 2,000 games per seating
    .venv/bin/python benchmarks/bench_beliefs.py --games 50 --policies mc oracle   # a quick look
    .venv/bin/python benchmarks/bench_beliefs.py --game musta_maija --policies mc "mc(beliefs=reads)"

One policy seat among ``greedy`` seats (4 players, default rules), rotated over the seats, ``--games``
per seating (8,000 games in all by default), the same deals for every policy (one seed). Per policy:
its loss rate with its 95% Wilson interval (parity 25%), the CPU seconds per 1,000 games of this one
process (``time.process_time``; all four seats, the three ``greedy`` ones cost almost nothing), and
the paired difference of its loss rate from the first policy's, game for game on the same deals, with
its normal 95% interval. Strength per CPU-second is the last two read together: percentage points
gained (below parity) per CPU-second per 1,000 games. ``oracle`` sees every hand: not a fair player,
a bound on what the hidden cards are worth. Prints the command and the machine's load (``uptime``).
"""
from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time

import numpy as np

import cardsim
from cardsim.core.search import unfair_note
from cardsim.study.report.stats import wilson

PLAYERS = 4
DEFAULT = ("mc", "mc(search_stock=all)", "mc(beliefs=reads)", "mc(beliefs=reads, search_stock=all)", "oracle",
           "oracle(search_stock=all)")


def lost(game: str, policy: str, games: int, seed: int) -> tuple[np.ndarray, float]:
    """Whether the ``policy`` seat lost each game (seatings one after another, the same deals in each), and
    the CPU seconds it took."""
    out, start = [], time.process_time()
    for seat in range(PLAYERS):
        seats = ["greedy"] * PLAYERS
        seats[seat] = policy
        df = cardsim.simulate(game, players=PLAYERS, games=games, seed=seed, policy=seats)
        out.append((df.loser if "loser" in df else df.winner) == seat)
    return np.concatenate(out), time.process_time() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="moska")
    p.add_argument("--policies", nargs="+", default=list(DEFAULT))
    p.add_argument("--games", type=int, default=2000, help="games per seating (4 seatings)")
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    print("command:", " ".join([sys.executable.rsplit("/", 1)[-1], *sys.argv]))
    print("load before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    cardsim.simulate(args.game, players=PLAYERS, games=1, policy=["mc", "greedy", "greedy", "greedy"])  # compile
    outcome = "loses" if args.game != "uno" else "wins"
    print(f"{args.game}, {PLAYERS} players, default rules, one seat among three greedy, rotated, "
          f"{PLAYERS * args.games:,} games, seed {args.seed} (parity 25%)")
    print(f"{'policy':<40} {outcome + ' [95% Wilson]':>24} {'CPU s/1000 games':>17} {'vs first (paired)':>20}"
          f" {'pp/CPU-s per 1000':>18}")
    first = None
    for policy in args.policies:
        x, seconds = lost(args.game, policy, args.games, args.seed)
        n, k = len(x), int(x.sum())
        lo, hi = wilson(k, n)
        per = 1000 * seconds / n
        diff = ""
        if first is None:
            first = x
        else:
            d = x.astype(float) - first
            diff = f"{100 * d.mean():+.2f} ± {196 * d.std(ddof=1) / math.sqrt(n):.2f} pp"
        gain = (25 - 100 * k / n) / per if per > 0 else float("nan")
        print(f"{policy:<40} {k / n:>7.2%} [{float(lo):.2%}, {float(hi):.2%}] {per:>17.2f} {diff:>20} {gain:>18.3f}",
              flush=True)
    note = unfair_note(args.policies)
    if note:
        print(note)
    print("load after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
