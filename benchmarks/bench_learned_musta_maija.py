"""Musta-Maija ``learned`` (issue 22): games per CPU-second of ``learned`` and ``greedy`` self-play.

    PYTHONPATH=. python benchmarks/bench_learned_musta_maija.py --games 20000 --rounds 5
    PYTHONPATH=. python benchmarks/bench_learned_musta_maija.py --rules "musta_maija(repetition=True)"

Both in this process, one after the other in each round (median and range over ``--rounds`` rounds), and
their ratio (issue 22's target: ``learned`` at least 1/4 of ``greedy``'s speed). Strength is the ladder's
(results/ladder_musta_maija_learned). ``--rules``: the rules played (by default the preset; with the repetition
rule, MM-18, the games that cycle to ``max_turns`` stop after a few dozen decisions). The load (``uptime``) is
printed: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import cardsim


def rate(rules: str, policy: str, games: int, seed: int) -> float:
    start = time.process_time()
    cardsim.simulate("musta_maija", rules, players=4, games=games, seed=seed, policy=policy)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--learned", default="learned", help="the learned policy string timed")
    parser.add_argument("--rules", default="musta_maija", help="the rules played")
    args = parser.parse_args()
    print("load:", os.popen("uptime").read().strip(), "| rules:", args.rules)
    policies = ("greedy", args.learned)
    for p in policies:
        cardsim.simulate("musta_maija", args.rules, players=4, games=20, seed=1, policy=p)  # compile or load once
    rates: dict[str, list[float]] = {p: [] for p in policies}
    for r in range(args.rounds):
        for p in policies:
            rates[p].append(rate(args.rules, p, args.games, 100 + r))
    for p, got in rates.items():
        print(f"{p:20} {statistics.median(got):10,.0f} games/CPU-s (range {min(got):,.0f} .. {max(got):,.0f})")
    print(f"learned / greedy speed: {statistics.median(rates[args.learned]) / statistics.median(rates['greedy']):.3f}")
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
