"""Molotow Jass ``mc`` (MC.md): its speed per CPU-second and its strength against ``greedy`` at the 4-player table.

Speed, in CPU seconds of this process (``time.process_time``), so per core:
- ms per ``mc(determinizations=D)`` decision: games with one ``mc`` seat among three ``greedy`` less the same
  games all ``greedy`` (``--speed-games`` each), over the ``mc`` seat's 108 cards a game (9 a hand, 12 hands);
  the share of them with a single legal card (played without a play-out) is counted on up to 20 of those games;
- ``mc`` self-play: games/s and hands/s (a game is 12 hands).

Strength: one ``mc`` seat among three ``greedy``, rotated over the 4 seats (``--games`` per seating, the same deals
for every seating, ``--jobs`` processes):
per game, the ``mc`` seat's score (sticks minus potatoes, MJ-19) less the mean of the three ``greedy`` seats',
and less that seat's score in the same game all ``greedy`` (paired); means with 95% intervals.

    .venv/bin/python benchmarks/bench_molotow_mc.py                   # 1,000 games a seating, D = 32
    .venv/bin/python benchmarks/bench_molotow_mc.py --determinizations 4 32 128 --jobs 2
    .venv/bin/python benchmarks/bench_molotow_mc.py --quick           # a few seconds
"""
from __future__ import annotations

import time

import numpy as np

import cardsim
from cardsim.core import rng
from cardsim.games.molotow import compiled as C
from mc_bench import cpu, mc, mean, parser, seatings, shrink
from throughput import warm_up

SEATS = 4
CARDS_A_GAME = 108
"""Cards one seat plays in a 4-player game of 12 hands."""


def seconds(policy: list[str] | str, games: int, seed: int) -> float:
    """CPU seconds of this process for games ``0 .. games-1`` (4 players, default rules)."""
    return cpu(lambda: cardsim.simulate("molotow", players=SEATS, games=games, seed=seed, policy=policy))


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


def strength(policy: str, games: int, seed: int, n_jobs: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game of every seating: the mc seat's score less the greedy seats' mean, and less its all-greedy score."""
    kw = dict(players=SEATS, games=games, seed=seed, n_jobs=n_jobs)
    score = [f"score_{s}" for s in range(SEATS)]
    greedy = cardsim.simulate("molotow", policy="greedy", **kw)[score].to_numpy()
    vs_table, paired = [], []
    for seat, seats in enumerate(seatings(policy, "greedy", SEATS)):
        scores = cardsim.simulate("molotow", policy=seats, **kw)[score].to_numpy()
        mine = scores[:, seat]
        vs_table.append(mine - (scores.sum(axis=1) - mine) / (SEATS - 1))
        paired.append(mine - greedy[:, seat])
    return np.concatenate(vs_table), np.concatenate(paired)


def main() -> None:
    p = parser(__doc__, games=1000, speed_games=200, self_play_games=50, determinizations=[32])
    args = p.parse_args()
    shrink(args, games=20, speed_games=10, self_play_games=2)
    print("molotow mc, 4 players, default rules; speed per CPU-second of one process")
    warm_up("molotow", "molotow", SEATS, mc(1))
    greedy = seconds("greedy", args.speed_games, args.seed)
    for d in args.determinizations:
        policy = mc(d)
        one = seconds([policy, "greedy", "greedy", "greedy"], args.speed_games, args.seed)
        ms = 1000 * (one - greedy) / (args.speed_games * CARDS_A_GAME)
        share = forced_share(policy, min(args.speed_games, 20), args.seed)
        self_play = seconds(policy, args.self_play_games, args.seed)
        print(f"{policy}: {ms:.3f} ms a decision ({args.speed_games} games, one mc seat; {share:.0%} of its "
              f"decisions have one legal card, {ms / (1 - share):.3f} ms a searched one); self-play "
              f"{args.self_play_games / self_play:.2f} games/s = {12 * args.self_play_games / self_play:.1f} "
              f"hands/s", flush=True)
    print(f"strength: one mc seat among three greedy, rotated over the 4 seats, {args.games:,} games a seating "
          f"(n_jobs={args.jobs}); score = sticks - potatoes per 12-hand game, mean ± 95% interval")
    for d in args.determinizations:
        policy = mc(d)
        start = time.perf_counter()
        vs_table, paired = strength(policy, args.games, args.seed, args.jobs)
        print(f"{policy}: mc - greedy at the table {mean(vs_table)}; mc - greedy in its seat, same deals "
              f"{mean(paired)}  ({len(vs_table):,} games, {time.perf_counter() - start:.0f} s wall)", flush=True)


if __name__ == "__main__":
    main()
