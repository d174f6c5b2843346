"""Molotow Jass ``mc`` (MC.md): its speed per core and its strength against ``greedy`` at the 4-player table.

Speed, in CPU seconds of this process (``time.process_time``), so per core:
- ms per ``mc(determinizations=D)`` decision: games with one ``mc`` seat among three ``greedy`` less the same
  games all ``greedy``, over the ``mc`` seat's 108 cards a game (9 a hand, 12 hands); the share of them with a
  single legal card (played without a play-out) is counted on a sample of games;
- ``mc`` self-play: games/s and hands/s (a game is 12 hands).

Strength: one ``mc`` seat among three ``greedy``, rotated over the 4 seats (the same deals for every seating):
per game, the ``mc`` seat's score (sticks minus potatoes, MJ-19) less the mean of the three ``greedy`` seats',
and less that seat's score in the same game all ``greedy`` (paired); means with 95% intervals.

    .venv/bin/python benchmarks/bench_molotow_mc.py                   # 1,000 games a seating, D = 32
    .venv/bin/python benchmarks/bench_molotow_mc.py --determinizations 4 32 128 --n-jobs 2
    .venv/bin/python benchmarks/bench_molotow_mc.py --quick           # a smoke run
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import cardsim
from cardsim.core import rng
from cardsim.games.molotow import compiled as C

SEATS = 4
CARDS_A_GAME = 108
"""Cards one seat plays in a 4-player game of 12 hands."""


def cpu(policy: list[str] | str, games: int, seed: int) -> float:
    """CPU seconds of this process for games ``0 .. games-1`` (4 players, default rules)."""
    start = time.process_time()
    cardsim.simulate("molotow", players=SEATS, games=games, seed=seed, policy=policy)
    return time.process_time() - start


def forced_share(policy: str, games: int, seed: int) -> float:
    """The share of seat 0's decisions with a single legal card, ``policy`` in seat 0 among ``greedy``."""
    params = C.make_params(cardsim.rules("molotow"), SEATS)
    table, work, state = C.policy_table((policy, "greedy", "greedy", "greedy")), C.new_work(), C.new_state()
    s = state[0]
    forced = total = 0
    for game in range(games):
        C.new_game(s, params, np.uint64(rng.game_key(seed, game)))
        while not C.game_over(s, params):
            if C.to_act(s) == 0:
                total += 1
                forced += bin(int(C.legal_cards(s, params))).count("1") == 1
            C.apply(s, params, C.choose(s, params, table, work[0]))
    return forced / total


def interval(x: np.ndarray) -> str:
    return f"{x.mean():+.2f} ± {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.2f}"


def strength(policy: str, games: int, seed: int, n_jobs: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game of every seating: the mc seat's score less the greedy seats' mean, and less its all-greedy score."""
    kw = dict(players=SEATS, games=games, seed=seed, n_jobs=n_jobs)
    score = [f"score_{s}" for s in range(SEATS)]
    greedy = cardsim.simulate("molotow", policy="greedy", **kw)[score].to_numpy()
    vs_table, paired = [], []
    for seat in range(SEATS):
        seats = ["greedy"] * SEATS
        seats[seat] = policy
        scores = cardsim.simulate("molotow", policy=seats, **kw)[score].to_numpy()
        mine = scores[:, seat]
        vs_table.append(mine - (scores.sum(axis=1) - mine) / (SEATS - 1))
        paired.append(mine - greedy[:, seat])
    return np.concatenate(vs_table), np.concatenate(paired)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--determinizations", type=int, nargs="+", default=[32])
    p.add_argument("--games", type=int, default=1000, help="strength: games a seating (4 seatings)")
    p.add_argument("--speed-games", type=int, default=200, help="games with one mc seat, timed")
    p.add_argument("--self-play-games", type=int, default=50, help="mc self-play games, timed")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n-jobs", type=int, default=1, help="processes for the strength games (not timed)")
    p.add_argument("--quick", action="store_true", help="a few seconds: small counts")
    args = p.parse_args()
    if args.quick:
        args.games, args.speed_games, args.self_play_games = 50, 20, 4
    cardsim.simulate("molotow", players=SEATS, games=1, policy="mc(determinizations=1)")  # compile: not timed
    print("molotow mc, 4 players, default rules; speed per core (CPU seconds of this process)")
    greedy = cpu("greedy", args.speed_games, args.seed)
    for d in args.determinizations:
        policy = f"mc(determinizations={d})"
        one = cpu([policy, "greedy", "greedy", "greedy"], args.speed_games, args.seed)
        ms = 1000 * (one - greedy) / (args.speed_games * CARDS_A_GAME)
        share = forced_share(policy, min(args.speed_games, 20), args.seed)
        self_play = cpu(policy, args.self_play_games, args.seed)
        print(f"{policy}: {ms:.3f} ms a decision ({args.speed_games} games, one mc seat; {share:.0%} of its "
              f"decisions have one legal card, {ms / (1 - share):.3f} ms a searched one); self-play "
              f"{args.self_play_games / self_play:.2f} games/s = {12 * args.self_play_games / self_play:.1f} "
              f"hands/s", flush=True)
    print(f"strength: one mc seat among three greedy, rotated over the 4 seats, {args.games:,} games a seating; "
          f"score = sticks - potatoes per 12-hand game, mean ± 95% interval")
    for d in args.determinizations:
        policy = f"mc(determinizations={d})"
        start = time.perf_counter()
        vs_table, paired = strength(policy, args.games, args.seed, args.n_jobs)
        print(f"{policy}: mc - greedy at the table {interval(vs_table)}; mc - greedy in its seat, same deals "
              f"{interval(paired)}  ({len(vs_table):,} games, {time.perf_counter() - start:.0f} s wall)", flush=True)


if __name__ == "__main__":
    main()
