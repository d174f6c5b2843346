"""Moska ``mc``: its speed (CPU ms per decision, self-play games/s) and its strength (loss rates).

    .venv/bin/python benchmarks/bench_moska_mc.py                    # speed, strength, worlds trade-off
    .venv/bin/python benchmarks/bench_moska_mc.py --quick            # a few seconds, no trade-off table
    .venv/bin/python benchmarks/bench_moska_mc.py --games 5000 --determinizations 16 32 64 128 --jobs 2

Speed: games with one ``mc`` seat among ``greedy`` seats, rotated over the seats, timed per
CPU-second of this process (``time.process_time``; the machine may be shared); the same games
with four ``greedy`` seats are timed too, and the difference is the ``mc`` seat's. It is shared
out over all the seat's decisions (those with one candidate cost no play-out: before
``mc(search_stock=...)``, or where the candidates coincide) and over the searched ones alone
(counted on the state API, the same games decision for decision). Self-play: four ``mc`` seats.

Strength (issue 16): one ``mc`` seat among three ``greedy`` at 4 players, default rules,
rotated over the four seats (``--games`` per seating, the same deals in each, ``--jobs``
processes): its loss rate with a 95% interval (parity 25%; target <= 15%); and ``greedy``
among three ``random``. With ``--determinizations`` (worlds), the loss rate and the time per
decision for each number of worlds. The compiled engine is warmed first (its compile time is
printed apart).
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

import cardsim
from cardsim.core import jit
from cardsim.games.moska import compiled as C
from cardsim.games.moska import compiled_policies as pol
from cardsim.games.moska.rules import MoskaRules
from mc_bench import cpu, mc, parser, proportion, seatings, shrink
from throughput import warm_up

PLAYERS = 4


@njit(cache=True)
def count_decisions(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, seat: int,
                    w: np.void, scratch: np.void) -> tuple[int, int]:
    """Play ``games`` on the state API (``w``, ``scratch``: ``WORK`` records): (decisions of ``seat``, of them
    with more than one candidate)."""
    state, move = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    s, m = state[0], move[0]
    decisions = searched = 0
    for i in range(len(games)):
        C.deal(s, p, jit.game_key(seed, games[i]), w.u, w.perm, w.count)
        s.reads = pol.reads_of(policies)
        while s.phase != C.OVER:
            if s.seat == seat:
                decisions += 1
                if C.candidates(s, p, scratch, policies[seat, pol.SEARCH_STOCK]) > 1:
                    searched += 1
            C.choose(s, p, policies, m, w)
            C.apply(s, p, m)
    return decisions, searched


def speed(rules: MoskaRules, policy: str, games: int, seed: int) -> tuple[float, float, float]:
    """(ms per decision of the ``policy`` seat, ms per searched decision, the share searched)."""
    params, ids = C.make_params(rules, PLAYERS)[0], np.arange(games, dtype=np.int64)
    mc_seconds = decisions = searched = 0
    for seat, seats in enumerate(seatings(policy, "greedy", PLAYERS)):
        mc_seconds += cpu(lambda: C.simulate(rules, PLAYERS, seed, ids, tuple(seats)))
        mc_seconds -= cpu(lambda: C.simulate(rules, PLAYERS, seed, ids, ("greedy",) * PLAYERS))
        d, n = count_decisions(params, pol.table(tuple(seats)), np.uint64(seed), ids, seat, C.new_work()[0],
                               C.new_work()[0])
        decisions, searched = decisions + d, searched + n
    return 1000 * mc_seconds / decisions, 1000 * mc_seconds / max(1, searched), searched / decisions


def losses(rules: MoskaRules, policy: str, others: str, games: int, seed: int, jobs: int) -> str:
    """The loss rate of ``policy`` in seatings with ``others`` with its 95% interval, and the wall seconds."""
    lost, start = 0, time.perf_counter()
    for seat, seats in enumerate(seatings(policy, others, PLAYERS)):
        df = cardsim.simulate("moska", rules, players=PLAYERS, games=games, seed=seed, policy=seats, n_jobs=jobs)
        lost += int((df.loser == seat).sum())
    return f"{proportion(lost, PLAYERS * games):>16} ({time.perf_counter() - start:.0f} s wall)"


def main() -> None:
    p = parser(__doc__, games=5000, speed_games=500, self_play_games=200, determinizations=[8, 16, 32, 64, 128],
               seed=7)
    args = p.parse_args()
    shrink(args, games=50, speed_games=10, self_play_games=4)
    if args.quick:
        args.determinizations = []
    rules = MoskaRules()
    print(f"moska, {PLAYERS} players, default rules; speed per CPU-second of one process; seed {args.seed}")
    warm_up("moska", rules, PLAYERS, mc(1))
    count_decisions(C.make_params(rules, PLAYERS)[0], pol.table(("mc",) * PLAYERS), np.uint64(0), np.arange(1),
                    0, C.new_work()[0], C.new_work()[0])

    per_decision, per_search, share = speed(rules, "mc", args.speed_games, args.seed)
    print(f"mc(determinizations=32): {per_decision:.3f} ms per decision of its seat, {per_search:.3f} ms per searched "
          f"decision ({share:.0%} of its decisions have more than one candidate)", flush=True)
    ids = np.arange(args.self_play_games, dtype=np.int64)
    seconds = cpu(lambda: C.simulate(rules, PLAYERS, args.seed, ids, ("mc",) * PLAYERS))
    print(f"mc self-play: {args.self_play_games / seconds:,.1f} games/s", flush=True)

    print(f"strength: {args.games:,} games per seating (n_jobs={args.jobs}), parity 25%")
    for policy, others in (("mc", "greedy"), ("greedy", "random")):
        print(f"{policy} among three {others}: loses {losses(rules, policy, others, args.games, args.seed, args.jobs)}",
              flush=True)

    if args.determinizations:
        print(f"{'worlds':>6} {'mc loses':>16} {'ms/decision':>12} {'ms/searched':>12}")
    for d in args.determinizations:
        per_decision, per_search, _ = speed(rules, mc(d), args.speed_games, args.seed)
        print(f"{d:>6} {losses(rules, mc(d), 'greedy', args.games, args.seed, args.jobs)} {per_decision:>12.3f}"
              f" {per_search:>12.3f}", flush=True)


if __name__ == "__main__":
    main()
