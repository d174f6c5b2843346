"""Musta-Maija ``mc`` (MC.md): milliseconds per decision, self-play games/s, and strength — the
loss rate of one ``mc`` seat among greedy seats, rotated over every seat, with its 95% interval
(parity is 1/players; the target at 4 players is <= 15%).

    .venv/bin/python benchmarks/bench_musta_maija_mc.py                       # 4 players, the defaults
    .venv/bin/python benchmarks/bench_musta_maija_mc.py --quick               # a few seconds
    .venv/bin/python benchmarks/bench_musta_maija_mc.py --determinizations 8 32 128 --strength-games 1000

Per decision: every decision of greedy self-play games is decided again by ``mc`` on the compiled
state (``compiled.choose``), timed alone. Decisions and self-play are timed in CPU seconds of this
one-core process (``time.process_time``), so that other work on a shared machine does not inflate
them; the strength column's seconds are wall-clock. Never an assertion — read the numbers.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import cardsim
from cardsim.core import rng
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol


def positions(rules, players: int, games: int, seed: int) -> list[np.ndarray]:
    """The state before every decision of ``games`` greedy self-play games."""
    p = C.make_params(rules, players)[0]
    codes, work = cpol.table(("greedy",) * players), C.new_work()[0]
    state, m = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    out = []
    for g in range(games):
        C.deal(state[0], p, np.uint64(rng.game_key(seed, g)), work["u"], work["order"], work["tmp"])
        while C.to_act(state[0]) >= 0:
            out.append(state.copy())
            C.choose(state[0], p, codes, m[0], work)
            C.apply(state[0], p, m[0])
    return out


def per_decision(rules, players: int, states: list[np.ndarray], policy: str) -> tuple[float, float]:
    """(ms per decision, mean candidates) of ``policy`` over the states."""
    p = C.make_params(rules, players)[0]
    table, work, m = cpol.table((policy,) * players), C.new_work()[0], np.zeros(1, C.MOVE)
    C.choose(states[0][0], p, table, m[0], work)  # compiled before timing
    candidates = sum(C.candidates(s[0], p, work) for s in states) / len(states)
    start = time.process_time()
    for s in states:
        C.choose(s[0], p, table, m[0], work)
    return (time.process_time() - start) / len(states) * 1e3, candidates


def strength(rules, players: int, policy: str, games: int, seed: int) -> tuple[float, float, float]:
    """(loss rate, its 95% half-width, seconds) of one ``policy`` seat among greedy, ``games`` per seat."""
    lost, start = 0, time.perf_counter()
    for seat in range(players):
        seats = ["greedy"] * players
        seats[seat] = policy
        df = cardsim.simulate("musta_maija", rules, players=players, games=games, seed=seed + seat, policy=seats)
        lost += int((df.loser == seat).sum())
    n = games * players
    rate = lost / n
    return rate, 1.96 * np.sqrt(rate * (1 - rate) / n), time.perf_counter() - start


def main() -> None:
    doc = __doc__
    a = argparse.ArgumentParser(description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=doc)
    a.add_argument("--rules", default="musta_maija", help="a preset or string form")
    a.add_argument("--players", type=int, default=4)
    a.add_argument("--determinizations", type=int, nargs="+", default=[32])
    a.add_argument("--base", default="greedy")
    a.add_argument("--position-games", type=int, default=100, help="greedy games whose decisions are timed")
    a.add_argument("--self-play-games", type=int, default=100, help="mc self-play games timed")
    a.add_argument("--strength-games", type=int, default=1500, help="games per seat of one mc among greedy")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--quick", action="store_true", help="a few seconds: 1/10 of every count")
    args = a.parse_args()
    if args.quick:
        args.position_games, args.self_play_games, args.strength_games = 10, 10, 150
    rules, n = cardsim.rules("musta_maija", args.rules), args.players
    cardsim.simulate("musta_maija", rules, players=n, games=1, policy="mc(determinizations=1)")  # compile once
    states = positions(rules, n, args.position_games, args.seed)
    print(f"musta_maija mc, {args.rules}, {n} players, base {args.base}; {len(states):,} decisions of "
          f"{args.position_games} greedy games timed one by one; one core")
    print(f"{'worlds':>6} {'CPU ms/dec':>11} {'candidates':>10} {'self-play g/CPU-s':>17} "
          f"{'loss among greedy':>17} {'±95%':>6} {'games':>6} {'s':>5}")
    for d in args.determinizations:
        policy = f"mc(determinizations={d}, base={args.base})"
        ms, cands = per_decision(rules, n, states, policy)
        start = time.process_time()
        cardsim.simulate("musta_maija", rules, players=n, games=args.self_play_games, seed=args.seed, policy=policy)
        self_play = args.self_play_games / (time.process_time() - start)
        loss, half, seconds = strength(rules, n, policy, args.strength_games, 100 * args.seed)
        print(f"{d:>6} {ms:>11.3f} {cands:>10.1f} {self_play:>17.1f} {loss:>17.3f} {half:>6.3f} "
              f"{args.strength_games * n:>6} {seconds:>5.0f}", flush=True)


if __name__ == "__main__":
    main()
