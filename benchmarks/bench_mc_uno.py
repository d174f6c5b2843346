"""Uno ``mc`` (MC.md): milliseconds per decision, self-play hands/s, and strength — the win rate of one
``mc`` seat among ``greedy`` ones, rotated over the seats, beside greedy's own rate on the same deals.

    .venv/bin/python benchmarks/bench_mc_uno.py                        # 4 players, official, D = 32
    .venv/bin/python benchmarks/bench_mc_uno.py --determinizations 32 128 --games 20000 --jobs 2
    .venv/bin/python benchmarks/bench_mc_uno.py --quick

Speed, one process: ``search`` (one ``mc`` choice) timed on positions of greedy games where the mc
seat would choose (``ms/choice``: every choice; ``ms/search``: those with more than one candidate), and
``mc`` self-play (every seat) as hands/s and milliseconds per protocol decision (a decision is one or
more choices, the record's ``turns``). Strength: ``--games`` games per row, a quarter with the mc seat
in each seat (``first_game`` apart, so every seat sees other deals); the 95% interval is the normal
one. Wall-clock ``time.perf_counter``; never an assertion — read the numbers.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import cardsim
from cardsim.core import jit
from cardsim.games.uno import compiled as C


def positions(rules, players: int, games: int, seed: int) -> list[np.ndarray]:
    """Every choice of seat ``game % players`` in greedy games, as compiled states."""
    params, table, work = C.params_of(rules), C.policy_of(("greedy",) * players), C.new_work(rules)[0]
    out = []
    for g in range(games):
        state = np.zeros(1, C.STATE)
        s = state[0]
        C.new_game(s, params, players, np.uint64(jit.game_key(np.uint64(seed), np.uint64(g))), work)
        while s["phase"] != C.OVER:
            if s["current"] == g % players:
                out.append(state.copy())
            C.apply(s, C.choose(s, table), params, work)
    return out


def search_speed(rules, players: int, determinizations: int, seed: int, games: int) -> str:
    states = positions(rules, players, games, seed)
    params, work = C.params_of(rules), C.new_work(rules)[0]
    policy = C.policy_of((f"mc(determinizations={determinizations})",) * players)
    C.search(states[0][0], params, policy, work)  # compile or load, untimed
    searched = sum(C.candidates(s[0], work) > 1 for s in states)
    start = time.perf_counter()
    for s in states:
        C.search(s[0], params, policy, work)
    seconds = time.perf_counter() - start
    return (f"{1000 * seconds / len(states):>10.3f} {1000 * seconds / max(searched, 1):>10.3f}"
            f" {len(states):>8,} {searched / len(states):>8.0%}")


def self_play(rules, players: int, determinizations: int, seed: int, games: int, jobs: int) -> str:
    start = time.perf_counter()
    df = cardsim.simulate("uno", rules, players=players, games=games, seed=seed, n_jobs=jobs,
                          policy=f"mc(determinizations={determinizations})")
    seconds = time.perf_counter() - start
    return f"{df.hands.sum() / seconds:>10,.1f} {1000 * seconds / df.turns.sum():>10.3f}"


def win_rate(rules, players: int, policy: str, seed: int, games: int, jobs: int) -> tuple[float, float]:
    """(rate, 95% half-width) of ``policy`` in one seat among greedy ones, games split over the seats."""
    per_seat, wins = games // players, 0
    for p in range(players):
        seats = ["greedy"] * players
        seats[p] = policy
        df = cardsim.simulate("uno", rules, players=players, games=per_seat, seed=seed, policy=seats,
                              first_game=p * per_seat, n_jobs=jobs)
        wins += int((df.winner == p).sum())
    n = per_seat * players
    rate = wins / n
    return rate, 1.96 * (rate * (1 - rate) / n) ** 0.5


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="official")
    p.add_argument("--players", type=int, nargs="+", default=[4])
    p.add_argument("--determinizations", type=int, nargs="+", default=[32])
    p.add_argument("--games", type=int, default=20_000, help="games per strength row (split over the seats)")
    p.add_argument("--speed-games", type=int, default=200, help="greedy games whose positions are searched")
    p.add_argument("--self-play-games", type=int, default=200, help="mc self-play games per speed row")
    p.add_argument("--jobs", type=int, default=1, help="n_jobs of the strength and self-play runs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="a few seconds: 1/20 of every count")
    args = p.parse_args()
    if args.quick:
        args.games, args.speed_games, args.self_play_games = (max(n // 20, 8) for n in
                                                              (args.games, args.speed_games, args.self_play_games))
    rules = cardsim.rules("uno", args.rules)
    cardsim.simulate("uno", rules, players=2, games=2, seed=0, policy="mc")  # compile or load once, untimed
    print(f"uno mc, {args.rules}: speed on one core; self-play {args.self_play_games:,} games (n_jobs={args.jobs})")
    print(f"{'players':>7} {'D':>5} {'ms/choice':>10} {'ms/search':>10} {'choices':>8} {'searched':>8}"
          f" {'selfplay h/s':>10} {'ms/decision':>10}")
    for players in args.players:
        for d in args.determinizations:
            print(f"{players:>7} {d:>5} {search_speed(rules, players, d, args.seed, args.speed_games)}"
                  f" {self_play(rules, players, d, args.seed, args.self_play_games, args.jobs)}", flush=True)
    print(f"\nstrength: one seat among greedy, {args.games:,} games per row rotated over the seats, 95% intervals")
    print(f"{'players':>7} {'policy':>26} {'win rate':>17} {'parity':>7}")
    for players in args.players:
        for policy in ["greedy"] + [f"mc(determinizations={d})" for d in args.determinizations]:
            rate, half = win_rate(rules, players, policy, args.seed, args.games, args.jobs)
            print(f"{players:>7} {policy:>26} {rate:>9.2%} ± {half:.2%} {1 / players:>7.1%}", flush=True)


if __name__ == "__main__":
    main()
