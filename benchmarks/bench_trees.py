"""Two checkouts of cardsim on the same games: is any engine slower than before (issue 26)?

Each figure is the CPU seconds of compiled self-play at 4 players (``--policy``, default ``greedy``), in a process of its
own with one tree on ``PYTHONPATH`` (a warm-up game first, so compiling or loading the cache is
not timed), the two trees alternating for ``--rounds`` rounds. Printed per game: the median and
range of each tree and the median ratio this tree / the other (below 1: this tree is faster), and
the load before and after (the machine is shared: the ratios are the figures to read).

    git worktree add /tmp/before ce282d1      # the tree to compare against
    python benchmarks/bench_trees.py /tmp/before --rounds 5
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
GAMES = {"moska": 200_000, "musta_maija": 100_000, "uno": 200_000, "molotow": 20_000}
"""Games per timed call: about a CPU-second each."""
CHILD = """
import sys, time
import cardsim
game, games, policy, tree = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
assert cardsim.__file__.startswith(tree), f"imported {cardsim.__file__}, not the tree {tree}"
cardsim.simulate(game, None, players=4, games=50, seed=1, policy=policy)
start = time.process_time()
cardsim.simulate(game, None, players=4, games=games, seed=2, policy=policy)
print(time.process_time() - start)
"""


def cpu_seconds(tree: Path, game: str, games: int, policy: str) -> float:
    env = os.environ | {"PYTHONPATH": str(tree)}
    # cwd=tree: ``python -c`` puts its working folder ahead of PYTHONPATH, so a child started from inside
    # another checkout would import that one
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(games), policy, str(tree)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a git worktree of an older commit)")
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"the games to time (default: all of {', '.join(GAMES)})")
    parser.add_argument("--policy", default="greedy", help="every seat's policy (default greedy)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="games per call, as a share of the defaults")
    args = parser.parse_args()
    args.games = args.games or list(GAMES)
    if unknown := [g for g in args.games if g not in GAMES]:
        parser.error(f"GAME: {', '.join(unknown)} unknown; one of {', '.join(GAMES)}")
    if not (args.other / "cardsim" / "__init__.py").is_file():
        parser.error(f"{args.other}: not a cardsim checkout (no cardsim/__init__.py)")
    trees = {"this": HERE, "other": args.other.resolve()}
    print("load before:", load())
    times = {(g, t): [] for g in args.games for t in trees}
    for _ in range(args.rounds):
        for game in args.games:
            for name, tree in trees.items():
                times[game, name].append(cpu_seconds(tree, game, max(1, int(GAMES[game] * args.scale)), args.policy))
    print("load after: ", load())
    print(f"{'game':12} {'this CPU s [range]':>26} {'other CPU s [range]':>26} {'this / other':>13}")
    for game in args.games:
        this, other = np.array(times[game, "this"]), np.array(times[game, "other"])
        cell = [f"{np.median(x):.3f} [{x.min():.3f} .. {x.max():.3f}]" for x in (this, other)]
        print(f"{game:12} {cell[0]:>26} {cell[1]:>26} {np.median(this / other):13.3f}")


if __name__ == "__main__":
    main()
