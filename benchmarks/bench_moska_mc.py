"""Moska ``mc``: its speed (ms per decision, self-play games/s) and its strength (loss rates), on one core.

    .venv/bin/python benchmarks/bench_moska_mc.py                    # speed, strength, worlds trade-off
    .venv/bin/python benchmarks/bench_moska_mc.py --quick            # a minute
    .venv/bin/python benchmarks/bench_moska_mc.py --games 5000 --worlds 16 32 64 128

Speed: games with one ``mc`` seat among ``greedy`` seats, rotated over the seats, timed per
CPU-second of this process (``time.process_time``; the machine may be shared); the same games
with four ``greedy`` seats are timed too, and the difference is the ``mc`` seat's. It is shared
out over all the seat's decisions (those with one candidate cost no play-out: before
``compiled.SEARCH_STOCK``, or where the candidates coincide) and over the searched ones alone
(counted on the state API, the same games decision for decision). Self-play: four ``mc`` seats.

Strength (issue 16): one ``mc`` seat among three ``greedy`` at 4 players, default rules,
rotated over the four seats (``--games`` per seating, the same deals in each): its loss rate
with a 95% interval (parity 25%; target <= 15%); and ``greedy`` among three ``random``. With
``--worlds``, the loss rate and the time per decision for each number of worlds. The
compiled engine is warmed first (compiling or loading the cache is not counted).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numba import njit

from cardsim.core import jit
from cardsim.games.moska import compiled as C
from cardsim.games.moska import compiled_policies as pol
from cardsim.games.moska.rules import MoskaRules

PLAYERS = 4


def seatings(policy: str, others: str) -> list[tuple[str, ...]]:
    """``policy`` in each seat in turn, ``others`` in the rest."""
    return [tuple(policy if q == seat else others for q in range(PLAYERS)) for seat in range(PLAYERS)]


def cpu_seconds(play) -> float:
    start = time.process_time()
    play()
    return time.process_time() - start


@njit(cache=True)
def count_decisions(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, seat: int,
                    w: np.void, scratch: np.void) -> tuple[int, int]:
    """Play ``games`` on the state API (``w``, ``scratch``: ``WORK`` records): (decisions of ``seat``, of them
    with more than one candidate)."""
    state, move = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    s, m = state[0], move[0]
    decisions = searched = 0
    for i in range(len(games)):
        C.deal(s, p, jit.game_key(seed, games[i]), w.u, w.perm)
        while s.phase != C.OVER:
            if s.seat == seat:
                decisions += 1
                if C.candidates(s, p, scratch) > 1:
                    searched += 1
            C.choose(s, p, policies, m, w)
            C.apply(s, p, m)
    return decisions, searched


def speed(rules: MoskaRules, mc: str, games: int, seed: int) -> tuple[float, float, float]:
    """(ms per decision of the ``mc`` seat, ms per searched decision, ``mc`` games/s with one ``mc`` seat)."""
    params, ids = C.make_params(rules, PLAYERS)[0], np.arange(games, dtype=np.int64)
    mc_seconds = decisions = searched = 0
    for seat, seats in enumerate(seatings(mc, "greedy")):
        mc_seconds += cpu_seconds(lambda: C.simulate(rules, PLAYERS, seed, ids, seats))
        mc_seconds -= cpu_seconds(lambda: C.simulate(rules, PLAYERS, seed, ids, ("greedy",) * PLAYERS))
        d, n = count_decisions(params, pol.table(seats), np.uint64(seed), ids, seat, C.new_work()[0],
                               C.new_work()[0])
        decisions, searched = decisions + d, searched + n
    return 1000 * mc_seconds / decisions, 1000 * mc_seconds / max(1, searched), searched / decisions


def loss_rate(rules: MoskaRules, policy: str, others: str, games: int, seed: int) -> tuple[float, float, float]:
    """(loss rate of ``policy`` in seatings with ``others``, half-width of its 95% interval, games/s per CPU-s)."""
    lost, seconds = 0, 0.0
    for seat, seats in enumerate(seatings(policy, others)):
        start = time.process_time()
        loser = C.simulate(rules, PLAYERS, seed, np.arange(games, dtype=np.int64), seats)["loser"]
        seconds += time.process_time() - start
        lost += int(np.count_nonzero(loser == seat))
    n = PLAYERS * games
    rate = lost / n
    return rate, 1.96 * math.sqrt(rate * (1 - rate) / n), n / seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=5000, help="games per seating of the strength runs (4 seatings)")
    p.add_argument("--speed-games", type=int, default=500, help="games per seating of the speed runs")
    p.add_argument("--self-play-games", type=int, default=200, help="games of mc self-play")
    p.add_argument("--worlds", type=int, nargs="*", default=[8, 16, 32, 64, 128],
                   help="numbers of worlds of the trade-off table (none: skip it)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--quick", action="store_true", help="about a minute: small runs, no trade-off table")
    args = p.parse_args()
    if args.quick:
        args.games, args.speed_games, args.self_play_games, args.worlds = 500, 100, 20, []
    rules = MoskaRules()
    C.simulate(rules, PLAYERS, 0, np.arange(2), ("mc",) * PLAYERS)  # compile or load the cache first
    count_decisions(C.make_params(rules, PLAYERS)[0], pol.table(("mc",) * PLAYERS), np.uint64(0), np.arange(1),
                    0, C.new_work()[0], C.new_work()[0])
    print(f"moska, {PLAYERS} players, default rules, one core (time.process_time); seed {args.seed}")

    per_decision, per_search, share = speed(rules, "mc", args.speed_games, args.seed)
    print(f"mc(determinizations=32): {per_decision:.3f} ms per decision of its seat, {per_search:.3f} ms per searched "
          f"decision ({share:.0%} of its decisions have more than one candidate)", flush=True)
    ids = np.arange(args.self_play_games, dtype=np.int64)
    seconds = cpu_seconds(lambda: C.simulate(rules, PLAYERS, args.seed, ids, ("mc",) * PLAYERS))
    print(f"mc self-play: {args.self_play_games / seconds:,.1f} games/s", flush=True)

    for policy, others in (("mc", "greedy"), ("greedy", "random")):
        rate, half, gps = loss_rate(rules, policy, others, args.games, args.seed)
        print(f"{policy} among three {others}: loses {rate:.2%} ± {half:.2%} of {PLAYERS * args.games:,} games "
              f"(parity 25%; {gps:,.0f} games/s)", flush=True)

    if args.worlds:
        print(f"{'worlds':>6} {'mc loses':>16} {'ms/decision':>12} {'ms/searched':>12}")
    for d in args.worlds:
        mc = f"mc(determinizations={d})"
        rate, half, _ = loss_rate(rules, mc, "greedy", args.games, args.seed)
        per_decision, per_search, _ = speed(rules, mc, args.speed_games, args.seed)
        print(f"{d:>6} {rate:>9.2%} ± {half:.2%} {per_decision:>12.3f} {per_search:>12.3f}", flush=True)


if __name__ == "__main__":
    main()
