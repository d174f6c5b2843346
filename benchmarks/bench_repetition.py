"""The repetition rule's cost (M-23, MM-18, issue 28): games per CPU-second with the knob off and on.

    PYTHONPATH=. python benchmarks/bench_repetition.py --rounds 3

For Moska and Musta-Maija at 4 players, ``greedy`` and ``mc(determinizations=32)`` self-play, each with
``repetition`` off and on, alternated in this process, ``--rounds`` rounds on fresh seeds: the median games
per CPU-second and the ratio on/off. With the knob on a game that cycles stops after a few dozen
decisions; what is measured here is the bookkeeping in the games it does not stop (``mc``'s play-outs
begin many rounds once the stock is out). The load (``uptime``) is printed: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import cardsim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--greedy-games", type=int, default=20000)
    parser.add_argument("--mc-games", type=int, default=300)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("load:", os.popen("uptime").read().strip())
    for game in ("moska", "musta_maija"):
        for policy, n in (("greedy", args.greedy_games), ("mc(determinizations=32)", args.mc_games)):
            rules = {"off": game, "on": f"{game}(repetition=True)"}
            for r in rules.values():
                cardsim.simulate(game, r, players=4, games=5, seed=1, policy=policy)  # compile or load once
            rates: dict[str, list[float]] = {"off": [], "on": []}
            for k in range(args.rounds):
                for key, r in rules.items():
                    start = time.process_time()
                    cardsim.simulate(game, r, players=4, games=n, seed=50 + k, policy=policy)
                    rates[key].append(n / (time.process_time() - start))
            off, on = (statistics.median(rates[k]) for k in ("off", "on"))
            print(f"{game:12} {policy:24} off {off:10,.0f}  on {on:10,.0f} games/CPU-s  on/off {on / off:.3f}",
                  flush=True)
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
