"""Steps per second of the step API (``cardsim.new_game``) for random play, per game, beside the
compiled engine's own loop in the same process.

Three rows per game (its default preset, 4 players):

- ``step, random index``: each step lists ``legal()`` in full and applies a uniformly random
  index (Python's ``random``, seeded): what a user's policy loop or an RL environment does;
- ``step, policy_decision``: each step asks the seat's built-in ``random`` policy (compiled) for its
  decision and applies it: what a game with a user seat costs at the built-in seats;
- ``compiled engine``: ``cardsim.simulate`` with ``random`` seats, decisions (the records' ``turns``)
  per second: the batch loop the step API wraps.

Rates are steps (decisions applied) per second of wall time and per CPU-second of this process,
the median and range over ``--rounds`` rounds; the load (``uptime``) is printed first. Uno's steps
are choices (a decision can be several: ``cardsim/play/uno.py``), so its step rows count choices.
Never an assertion — read the numbers.

    /work/main/.venv/bin/python benchmarks/bench_step.py              # 3 rounds of 2 s per row
    /work/main/.venv/bin/python benchmarks/bench_step.py --quick      # 1 round of 0.5 s
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import cardsim

GAMES = (("moska", "moska"), ("musta_maija", "musta_maija"), ("uno", "official"), ("molotow", "molotow"))


def step_random(game: str, rules: str, seconds: float, seed: int) -> int:
    """Random-index steps for about ``seconds``; how many were taken."""
    r, steps, index = random.Random(seed), 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        g = cardsim.new_game(game, rules, players=4, seed=seed, game_index=index)
        while not g.is_over:
            g.apply(r.randrange(len(g.legal())))
            steps += 1
        index += 1
    return steps


def step_policy(game: str, rules: str, seconds: float, seed: int) -> int:
    """``policy_decision`` steps (built-in ``random`` seats) for about ``seconds``; how many were taken."""
    steps, index = 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        g = cardsim.new_game(game, rules, players=4, seed=seed, game_index=index, policies="random")
        while not g.is_over:
            g.apply(g.policy_decision())
            steps += 1
        index += 1
    return steps


def compiled(game: str, rules: str, seconds: float, seed: int) -> int:
    """Decisions of the compiled engine's loop in batches of games for about ``seconds``."""
    steps, first, batch = 0, 0, 2000
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        steps += int(cardsim.simulate(game, rules, players=4, games=batch, seed=seed, first_game=first).turns.sum())
        first += batch
    return steps


def measure(play, game: str, rules: str, seconds: float, rounds: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for k in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        n = play(game, rules, seconds, seed=k + 1)
        walls.append(n / (time.perf_counter() - wall))
        cpus.append(n / max(time.process_time() - cpu, 1e-9))
    return walls, cpus


def cell(rates: list[float]) -> str:
    return f"{statistics.median(rates):>12,.0f} [{min(rates):,.0f}, {max(rates):,.0f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per round and row (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per row (default 3)")
    ap.add_argument("--quick", action="store_true", help="1 round of 0.5 s")
    ap.add_argument("--games", nargs="+", default=[g for g, _ in GAMES], help="games to measure (default all)")
    args = ap.parse_args()
    seconds, rounds = (0.5, 1) if args.quick else (args.seconds, args.rounds)
    print(f"load: {os.popen('uptime').read().strip()}")
    print(f"{'game':12} {'row':24} {'steps/s wall, median [range]':>34} {'steps per CPU-s, median [range]':>36}")
    for game, rules in GAMES:
        if game not in args.games:
            continue
        for fn in (step_random, step_policy, compiled):  # warm: numba's cache, the first game
            fn(game, rules, 0.01, seed=0)
        results = {}
        for label, fn in (("step, random index", step_random), ("step, policy_decision", step_policy),
                          ("compiled engine", compiled)):
            results[label] = measure(fn, game, rules, seconds, rounds)
            walls, cpus = results[label]
            print(f"{game:12} {label:24} {cell(walls):>34} {cell(cpus):>36}", flush=True)
        ratio = statistics.median(results["compiled engine"][1]) / statistics.median(results["step, random index"][1])
        print(f"{game:12} {'compiled / step (CPU)':24} {ratio:>21.0f}x", flush=True)


if __name__ == "__main__":
    main()
