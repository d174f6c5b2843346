"""Steps per second of cardsim's PettingZoo env for random play, per game, beside RLCard's Uno env
and PettingZoo's own classic card envs, measured in the same process in alternating rounds.

Every row is one agent loop of uniformly random legal actions for about ``--seconds``, then the
next row; rounds repeat the rows in turn (so a busy machine slows all alike). A step is one
``env.step`` (cardsim: one token; a Moska addition of two cards is three steps with its ``END``).

- ``cardsim <game>`` (4 players, the default preset): the PettingZoo AEC loop
  (``agent_iter``, ``last``, a random action of ``obs["action_mask"]``, ``step``);
- ``cardsim uno, 256 tables``: ``cardsim.envs.vector.UnoTables(256)``, the same action ids and
  observations, every table stepped in one compiled call, the random legal actions drawn by numpy for all
  tables at once; a step is one table's;
- ``rlcard uno``: RLCard's own env loop, ``rlcard.make("uno")``: ``reset``, then ``step`` of a
  random ``state["legal_actions"]`` key until ``is_over`` (its fastest documented env loop; its
  bare ``UnoGame`` loop is what ``bench_uno.py --rlcard`` compares the compiled engine against);
- ``pettingzoo <env>``: PettingZoo's classic card envs (``texas_holdem_v4``, ``texas_holdem_no_limit_v6``,
  ``leduc_holdem_v4``) in the same AEC loop as cardsim's.

Rates are steps per second of wall time and per CPU-second of this process, the median and range
over ``--rounds``; the load (``uptime``) before and after. The ratio rows divide cardsim's Uno env, and
the 256 tables, by RLCard's Uno env, per CPU-second, round by round (the issue's target is 10x). Never an assertion — read the numbers.

With ``--ismcts``, instead: the CPU time per decision of OpenSpiel's ISMCTS seat
(``cardsim.envs.ismcts``) at each budget of ``--budgets`` beside ``random``, ``greedy``, ``mc`` (the
compiled default) and ``learned`` (the best generation), seat 0 among ``greedy`` seats, over ``--games`` games per game and policy: what a ladder
with ISMCTS would cost.

    /work/main/.venv/bin/python benchmarks/bench_envs.py              # 3 rounds of 2 s per row
    /work/main/.venv/bin/python benchmarks/bench_envs.py --quick      # 1 round of 0.5 s
    /work/main/.venv/bin/python benchmarks/bench_envs.py --ismcts --budgets 10,100 --games 2

With ``--strength``, instead: how seat 0 does among three ``greedy`` seats (4 players, the default
preset, seed 11, the same deals for every policy) when it is ``greedy``, ``mc`` or ISMCTS at each
budget: Uno's win rate, Moska's loss rate, with Wilson 95% intervals (``--games`` games for the
built-in seats, a quarter of them for ISMCTS at budgets of 100 and more). A probe, not a ladder.

    /work/main/.venv/bin/python benchmarks/bench_envs.py --strength --budgets 10,100 --games 100
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from cardsim.envs.pettingzoo import env as cardsim_env

GAMES = ("moska", "musta_maija", "uno", "molotow")
VECTOR = 256
"""The tables of the ``UnoTables`` row (``cardsim.envs.vector``)."""
CLASSIC = ("texas_holdem_v4", "texas_holdem_no_limit_v6", "leduc_holdem_v4")


def aec_steps(make, seconds: float, seed: int) -> int:
    """Random legal steps of a PettingZoo AEC env for about ``seconds``; how many."""
    rng = np.random.default_rng(seed)
    e = make()
    e.reset(seed=seed)
    steps, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                steps += 1
            e.step(action)
        e.reset()
    return steps


def rlcard_steps(seconds: float, seed: int) -> int:
    """Random legal steps of RLCard's Uno env (``rlcard.make("uno")``) for about ``seconds``; how many."""
    import rlcard

    rng = np.random.default_rng(seed)
    e = rlcard.make("uno", config={"seed": seed})
    steps, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        state, _ = e.reset()
        while not e.is_over():
            legal = list(state["legal_actions"])
            state, _ = e.step(legal[rng.integers(len(legal))])
            steps += 1
    return steps


def vector_steps(tables: int):
    """Random legal steps of ``UnoTables(tables)`` (every table stepped in one compiled call; the random legal
    actions drawn by numpy for all tables at once) for about ``seconds``; how many (tables x calls)."""
    from cardsim.envs.vector import UnoTables

    def run(seconds: float, seed: int) -> int:
        rng = np.random.default_rng(seed)
        t = UnoTables(tables, seed=seed)
        obs, mask, seat = t.reset()
        steps, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            obs, mask, seat, returns, ended = t.step((rng.random(mask.shape) * mask).argmax(1))
            steps += tables
        return steps
    return run


def rows(classic: bool) -> dict[str, object]:
    out = {f"cardsim {g}": (lambda g=g: (lambda s, k: aec_steps(lambda: cardsim_env(g), s, k)))() for g in GAMES}
    out[f"cardsim uno, {VECTOR} tables"] = vector_steps(VECTOR)
    try:
        import rlcard  # noqa: F401

        out["rlcard uno"] = rlcard_steps
    except ImportError:
        print("rlcard is not installed (pip install rlcard): its Uno env is left out")
    if classic:
        from importlib import import_module

        for name in CLASSIC:
            try:
                module = import_module(f"pettingzoo.classic.{name}")
            except ImportError as err:
                print(f"pettingzoo.classic.{name} left out: {err}")
                continue
            out[f"pettingzoo {name}"] = (lambda m=module: (lambda s, k: aec_steps(m.env, s, k)))()
    return out


def per_decision(games: int, budgets: list[int]) -> None:
    """CPU seconds per decision of one seat (seat 0) among ``greedy`` seats, per game, timed at that seat's
    decisions only: the built-in policies by the step API's ``policy_decision``, ISMCTS inside the seat."""
    import cardsim
    from cardsim.envs.ismcts import openspiel_ismcts

    print(f"CPU seconds per decision of seat 0 among greedy seats (4 players, {games} games each)")
    print(f"{'game':<12} {'policy':<14} {'decisions':>9} {'CPU s/decision':>15}")
    for game in GAMES:
        for name in ("random", "greedy", "mc", "learned"):
            calls, cpu = 0, 0.0
            for index in range(games):
                g = cardsim.new_game(game, None, players=4, seed=5, game_index=index,
                                     policies=[name, "greedy", "greedy", "greedy"])
                while not g.is_over:
                    start, mine = time.process_time(), g.to_act == 0
                    i = g.policy_decision()
                    if mine:
                        calls, cpu = calls + 1, cpu + time.process_time() - start
                    g.apply(i)
            print(f"{game:<12} {name:<14} {calls:>9,} {cpu / max(calls, 1):>15.5f}")
        for b in budgets:
            seat = openspiel_ismcts(b)
            timed = type(f"timed_{b}", (seat,), {"calls": 0, "cpu": 0.0})

            def call(self, view, legal, _super=seat.__call__, _cls=timed):
                start = time.process_time()
                try:
                    return _super(self, view, legal)
                finally:
                    _cls.calls += 1
                    _cls.cpu += time.process_time() - start

            timed.__call__ = call
            cardsim.simulate(game, None, players=4, games=games, seed=5, policy=[timed, "greedy", "greedy", "greedy"])
            print(f"{game:<12} {f'ismcts_{b}':<14} {timed.calls:>9,} {timed.cpu / max(timed.calls, 1):>15.5f}")


def strength(games: int, budgets: list[int]) -> None:
    """Seat 0's rate among three greedy seats for greedy, mc and ISMCTS at each budget (same deals)."""
    import cardsim
    from scipy.stats import binomtest

    from cardsim.envs.ismcts import openspiel_ismcts

    measures = {"uno": ("win rate", lambda d: d.winner == 0), "moska": ("loss rate", lambda d: d.loser == 0)}
    print("seat 0 among three greedy seats, 4 players, seed 11 (Wilson 95% intervals)")
    for game, (label, measure) in measures.items():
        seats = [("greedy", "greedy", games), ("mc", "mc", games)]
        seats += [(f"ismcts_{b}", openspiel_ismcts(b), games if b < 100 else max(games // 4, 1)) for b in budgets]
        for name, policy, n in seats:
            cpu = time.process_time()
            df = cardsim.simulate(game, None, players=4, games=n, seed=11, policy=[policy, "greedy", "greedy", "greedy"])
            k = int(measure(df).sum())
            ci = binomtest(k, n).proportion_ci(method="wilson")
            print(f"{game:<6} {name:<11} {label} {k / n:.2f} ({ci.low:.2f}-{ci.high:.2f}) over {n} games, "
                  f"CPU {time.process_time() - cpu:.0f} s")


def cell(rates: list[float]) -> str:
    return f"{statistics.median(rates):>10,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--quick", action="store_true", help="1 round of 0.5 s per row")
    ap.add_argument("--no-classic", action="store_true", help="leave out PettingZoo's classic card envs")
    ap.add_argument("--ismcts", action="store_true", help="CPU time per decision of the ISMCTS seat instead")
    ap.add_argument("--budgets", default="10,100", help="ISMCTS simulations per token, comma-separated")
    ap.add_argument("--games", type=int, default=2, help="games per game and budget with --ismcts or --strength")
    ap.add_argument("--strength", action="store_true", help="seat 0's rate among greedy seats instead")
    args = ap.parse_args()
    if args.strength:
        print("load before:", os.popen("uptime").read().strip())
        strength(args.games, [int(b) for b in args.budgets.split(",")])
        print("load after:", os.popen("uptime").read().strip())
        return
    if args.ismcts:
        print("load before:", os.popen("uptime").read().strip())
        per_decision(args.games, [int(b) for b in args.budgets.split(",")])
        print("load after:", os.popen("uptime").read().strip())
        return
    if args.quick:
        args.rounds, args.seconds = 1, 0.5
    print("load before:", os.popen("uptime").read().strip())
    table = rows(not args.no_classic)
    for run in table.values():  # warm up: numba's cached machine code loaded, imports done
        run(0.2, 0)
    walls = {k: [] for k in table}
    cpus = {k: [] for k in table}
    for r in range(args.rounds):
        names = list(table) if r % 2 == 0 else list(reversed(table))
        for name in names:
            wall, cpu = time.perf_counter(), time.process_time()
            n = table[name](args.seconds, r + 1)
            walls[name].append(n / (time.perf_counter() - wall))
            cpus[name].append(n / max(time.process_time() - cpu, 1e-9))
    print(f"random play, steps/s: median (range) of {args.rounds} rounds of {args.seconds:g} s per row")
    print(f"{'env':<28} {'wall':>24} {'per CPU-second':>24}")
    for name in table:
        print(f"{name:<28} {cell(walls[name]):>24} {cell(cpus[name]):>24}")
    if "rlcard uno" in table:
        for name in ("cardsim uno", f"cardsim uno, {VECTOR} tables"):
            ratio = [a / b for a, b in zip(cpus[name], cpus["rlcard uno"])]
            print(f"{name} / rlcard uno (per CPU-second, round by round): median {statistics.median(ratio):.2f}x, "
                  f"range {min(ratio):.2f}-{max(ratio):.2f}x (target 10x)")
    print("load after:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
