"""One seat of each policy among three (``--players`` − 1) seats of another, seats rotated: its loss rate.

    PYTHONPATH=. python benchmarks/seat_among.py musta_maija --others learned --games 8000 --jobs 2 \\
        --policies "greedy,mc(determinizations=4),mc(determinizations=8),learned"

The order of a skill ladder's rungs (``experiments/skill_<game>.toml``): each policy in seat 0, 1, 2, 3 in
turn (``--games`` // 4 each, the same deals for every policy), the loss rate with a 95% Wilson interval.
Policies are separated by commas, as ``cardsim`` reads a list of them (``core.rules.split_calls``: a comma inside
a policy's parentheses stays). ``loss_rate`` is what ``bench_learned.py`` rates Moska's players with. The load
(``uptime``) is printed.
"""
from __future__ import annotations

import argparse
import os
import time

from joblib import Parallel, delayed

import cardsim
from cardsim.core.rules import split_calls
from cardsim.study.report.stats import wilson


def seat_losses(game: str, policy: str, others: str, seat: int, players: int, games: int, seed: int) -> int:
    seats = [others] * players
    seats[seat] = policy
    return int((cardsim.simulate(game, players=players, games=games, seed=seed, policy=seats).loser == seat).sum())


def loss_rate(game: str, policy: str, others: str, players: int, games: int, seed: int, jobs: int
              ) -> tuple[int, int]:
    """Losses of ``policy`` in seat 0, 1, ... in turn among ``others`` (``games // players`` each, the same deals),
    and the games played."""
    per_seat = games // players
    lost = Parallel(n_jobs=jobs)(delayed(seat_losses)(game, policy, others, seat, players, per_seat, seed)
                                 for seat in range(players))
    return sum(lost), per_seat * players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--others", default="greedy", help="the policy of the other seats")
    parser.add_argument("--policies", required=True, help="the policies rated, separated by commas")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=20261212)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print("load:", os.popen("uptime").read().strip())
    for policy in split_calls(args.policies):
        start = time.perf_counter()
        lost, n = loss_rate(args.game, policy, args.others, args.players, args.games, args.seed, args.jobs)
        lo, hi = wilson(lost, n)
        print(f"{policy:45} loses {lost / n:6.2%} [{lo:6.2%}, {hi:6.2%}] of {n:,} among {args.others} "
              f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
