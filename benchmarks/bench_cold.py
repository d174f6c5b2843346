"""The wait of a first game: a fresh process, an empty numba cache, one game of each game (issue 29).

For each game, a new Python process with ``NUMBA_CACHE_DIR`` an empty folder imports cardsim
and plays one game (``--policy``, default ``greedy``: the entry point without ``mc``); then a
second process plays it again from the cache that the first one wrote. Printed per game: the
wall seconds of each process (start-up and import included, as a user waits them), the CPU
seconds it used (its own and its children's, from ``resource``), and the load (``uptime``)
before and after: on a shared machine the CPU seconds are the figure to read.

    python benchmarks/bench_cold.py                      # every game, greedy
    python benchmarks/bench_cold.py moska --policy mc    # the entry point with mc
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

GAMES = ("moska", "musta_maija", "uno", "molotow")
FIRST_GAME = "import cardsim; cardsim.simulate({game!r}, players={players}, games=1, policy={policy!r})"
PLAYERS = {"moska": 4, "musta_maija": 4, "uno": 4, "molotow": 4}


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def timed(code: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -c code`` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(done.stderr)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--policy", default="greedy", help="the policy of every seat (default greedy)")
    args = parser.parse_args()
    print(f"load before: {load()}")
    print(f"{'game':12} {'policy':8} {'cold wall s':>11} {'cold CPU s':>10} {'cached wall s':>13} {'cached CPU s':>12}")
    for game in args.games:
        with tempfile.TemporaryDirectory(prefix="cardsim-cold-") as folder:
            env = os.environ | {"NUMBA_CACHE_DIR": folder}
            code = FIRST_GAME.format(game=game, players=PLAYERS[game], policy=args.policy)
            cold = timed(code, env)
            cached = timed(code, env)
        print(f"{game:12} {args.policy:8} {cold[0]:11.1f} {cold[1]:10.1f} {cached[0]:13.1f} {cached[1]:12.1f}",
              flush=True)
    print(f"load after:  {load()}")


if __name__ == "__main__":
    main()
