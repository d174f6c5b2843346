"""Musta-Maija ``mc`` (MC.md): CPU milliseconds per decision, self-play games/s, and strength — the
loss rate of one ``mc`` seat among greedy seats, rotated over every seat, with its 95% interval
(parity is 1/players; the target at 4 players is <= 15%).

    .venv/bin/python benchmarks/bench_musta_maija_mc.py                       # 4 players, the defaults
    .venv/bin/python benchmarks/bench_musta_maija_mc.py --quick               # a few seconds
    .venv/bin/python benchmarks/bench_musta_maija_mc.py --determinizations 8 32 128 --games 1000 --jobs 2

Per decision: every decision of ``--speed-games`` greedy self-play games is decided again by ``mc`` on the
compiled state (``compiled.choose``), timed alone. Decisions and self-play are timed in CPU seconds of this
one-core process (``time.process_time``), so that other work on a shared machine does not inflate them; the
strength column's seconds are wall-clock (``--games`` per seating, ``--jobs`` processes). Never an
assertion — read the numbers.
"""
from __future__ import annotations

import time

import numpy as np

import cardsim
from cardsim.core import rng
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from mc_bench import cpu, mc, ms_per_call, parser, proportion, seatings, shrink
from throughput import warm_up


def positions(rules, players: int, games: int, seed: int) -> list[np.ndarray]:
    """The state before every decision of ``games`` greedy self-play games."""
    p = C.make_params(rules, players)[0]
    codes, work = cpol.table(("greedy",) * players), C.new_work()[0]
    state, m = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    out = []
    for g in range(games):
        C.deal(state[0], p, np.uint64(rng.game_key(seed, g)), work["u"], work["order"], work["tmp"], work["count"])
        while C.to_act(state[0]) >= 0:
            out.append(state.copy())
            C.choose(state[0], p, codes, m[0], work)
            C.apply(state[0], p, m[0])
    return out


def per_decision(rules, players: int, states: list[np.ndarray], policy: str) -> tuple[float, float]:
    """(CPU ms per decision, mean candidates) of ``policy`` over the states."""
    p = C.make_params(rules, players)[0]
    table, work, m = cpol.table((policy,) * players), C.new_work()[0], np.zeros(1, C.MOVE)
    candidates = sum(C.candidates(s[0], p, work) for s in states) / len(states)
    return ms_per_call(lambda s: C.choose(s[0], p, table, m[0], work), states), candidates


def strength(rules, players: int, policy: str, games: int, seed: int, jobs: int) -> tuple[str, float]:
    """(loss rate with its 95% interval, wall seconds) of one ``policy`` seat among greedy, ``games`` per seat."""
    lost, start = 0, time.perf_counter()
    for seat, seats in enumerate(seatings(policy, "greedy", players)):
        df = cardsim.simulate("musta_maija", rules, players=players, games=games, seed=seed + seat, policy=seats,
                              n_jobs=jobs)
        lost += int((df.loser == seat).sum())
    return proportion(lost, games * players), time.perf_counter() - start


def main() -> None:
    a = parser(__doc__, games=1500, speed_games=100, self_play_games=100, determinizations=[32])
    a.add_argument("--rules", default="musta_maija", help="a preset or string form")
    a.add_argument("--players", type=int, default=4)
    a.add_argument("--base", default="greedy", help="the policy of the mc play-outs")
    args = a.parse_args()
    shrink(args, games=30, speed_games=5, self_play_games=5)
    rules, n = cardsim.rules("musta_maija", args.rules), args.players
    print(f"musta_maija mc, {args.rules}, {n} players, base {args.base}; speed per CPU-second of one process")
    warm_up("musta_maija", rules, n, mc(1))
    states = positions(rules, n, args.speed_games, args.seed)
    print(f"{len(states):,} decisions of {args.speed_games} greedy games timed one by one; strength "
          f"{args.games:,} games per seating (n_jobs={args.jobs})")
    print(f"{'worlds':>6} {'CPU ms/dec':>11} {'candidates':>10} {'self-play g/CPU-s':>17} "
          f"{'loss among greedy':>17} {'games':>6} {'s':>5}")
    for d in args.determinizations:
        policy = mc(d, base=args.base)
        ms, cands = per_decision(rules, n, states, policy)
        self_play = args.self_play_games / cpu(lambda: cardsim.simulate(
            "musta_maija", rules, players=n, games=args.self_play_games, seed=args.seed, policy=policy))
        loss, seconds = strength(rules, n, policy, args.games, 100 * args.seed, args.jobs)
        print(f"{d:>6} {ms:>11.3f} {cands:>10.1f} {self_play:>17.1f} {loss:>17} {args.games * n:>6} {seconds:>5.0f}",
              flush=True)


if __name__ == "__main__":
    main()
