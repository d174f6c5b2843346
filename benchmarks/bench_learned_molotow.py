"""Molotow ``learned`` (issue 22): speed against ``greedy``, and strength alone among three ``greedy`` seats.

    PYTHONPATH=. python benchmarks/bench_learned_molotow.py --games 2000 --policies "learned,mc"

Speed: games per CPU-second of ``learned`` self-play and of ``greedy`` self-play in this process (median and
range over ``--rounds`` rounds, the two interleaved so that the load hits both alike), and their ratio (issue
22's target: ``learned`` >= 1/4 of ``greedy``). Strength: each policy in one seat among three ``greedy``
seats, the seat rotated over the 4 seats (``--games`` in all, the same deals for every policy): its score
(sticks minus potatoes) less the mean of the other seats', with a 95% t interval over games. The load
(``uptime``) is printed: the machine is shared.

    PYTHONPATH=. python benchmarks/bench_learned_molotow.py --gaps experiments/ladder_molotow_learned.toml

``--gaps STUDY``: instead, from the ladder's records (``games.parquet`` of its folder), every policy's rating
less ``mc``'s, with the 95% bootstrap interval of the difference (the ladder's own deals and resamples).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import cardsim
from cardsim.core.rules import split_calls


def rate(policy: str, games: int, seed: int) -> float:
    start = time.process_time()
    cardsim.simulate("molotow", players=4, games=games, seed=seed, policy=policy)
    return games / (time.process_time() - start)


def edge(policy: str, games: int, seed: int) -> np.ndarray:
    """Per game: ``policy``'s score less the mean of the three ``greedy`` seats' (``games // 4`` per seat)."""
    out = []
    for seat in range(4):
        seats = ["greedy"] * 4
        seats[seat] = policy
        df = cardsim.simulate("molotow", players=4, games=games // 4, seed=seed, policy=seats)
        others = np.mean([df[f"score_{q}"].to_numpy() for q in range(4) if q != seat], axis=0)
        out.append(df[f"score_{seat}"].to_numpy() - others)
    return np.concatenate(out)


def gaps(study_file: str, reference: str = "mc") -> None:
    """Each policy's Bradley-Terry rating less ``reference``'s (Elo scale), 95% bootstrap interval over deals."""
    from ladder_steps import against, tally_of

    for p, (x, a, b) in against(tally_of(study_file), reference).items():
        print(f"{p:45} {x:+7.1f} [{a:+7.1f}, {b:+7.1f}] Elo against {reference}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--speed-games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--learned", default="learned", help="the learned policy string timed for speed")
    parser.add_argument("--policies", default="learned", help="the policies rated, separated by commas")
    parser.add_argument("--gaps", metavar="STUDY", help="a ladder study file: its ratings less mc's, then stop")
    args = parser.parse_args()
    if args.gaps:
        return gaps(args.gaps)
    print("load:", os.popen("uptime").read().strip())
    rates: dict[str, list[float]] = {"greedy": [], args.learned: []}
    for p in rates:
        rate(p, 20, 1)                                           # compile or load once
    for r in range(args.rounds):
        for p in rates:
            rates[p].append(rate(p, args.speed_games, 100 + r))
    for p, r in rates.items():
        print(f"{p:30} {statistics.median(r):10,.0f} games/CPU-s (range {min(r):,.0f} .. {max(r):,.0f})")
    ratios = [a / b for a, b in zip(rates[args.learned], rates["greedy"])]
    print(f"learned / greedy speed: median {statistics.median(ratios):.3f} (range {min(ratios):.3f} .. "
          f"{max(ratios):.3f})")
    for policy in split_calls(args.policies):
        start = time.perf_counter()
        d = edge(policy, args.games, args.seed)
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
        print(f"{policy:40} score - greedy seats {d.mean():+.3f} [{d.mean() - half:+.3f}, {d.mean() + half:+.3f}] "
              f"over {len(d):,} games ({time.perf_counter() - start:.0f} s)")
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
