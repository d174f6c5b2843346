"""Where in a Moska game is a player's strength (issue 22)? Each player limited to one stage of the game.

Needs ``benchmarks/moska_stage_split.diff`` applied (in a clone: ``git apply benchmarks/moska_stage_split.diff``):
it lets ``MOSKA_LEARNED_STAGE`` limit ``learned`` to a stage (``greedy``'s decision elsewhere) and
``MOSKA_SEARCH_STAGE`` limit ``mc``'s search to one (its base's decision elsewhere). A stage: ``all``,
``stock>N``, ``stock<=N`` or ``last2`` (the stock empty and two seats in play: a game of perfect
information, every hidden card is the other seat's). Each row runs ``bench_learned.py`` in a fresh process
(the stage is read when the engine compiles, so each setting gets its own numba cache): the player alone
among three ``greedy`` seats, the seat rotated, the same deals for every row, its loss rate with a 95%
Wilson interval.

    PYTHONPATH=. python benchmarks/moska_stages.py --games 16000 --seed 777 --jobs 2
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

NET = "learned(model=moska_4p_net_g2)"
ROWS = (  # (what the row measures, the player, MOSKA_LEARNED_STAGE, MOSKA_SEARCH_STAGE)
    ("greedy, the whole game", "greedy", "all", "all"),
    ("learned, the whole game", NET, "all", "all"),
    ("learned while the stock holds more than 8", NET, "stock>8", "all"),
    ("learned once the stock holds 16 or fewer", NET, "stock<=16", "all"),
    ("learned once the stock holds 8 or fewer", NET, "stock<=8", "all"),
    ("learned once the stock is empty", NET, "stock<=0", "all"),
    ("learned in the last two seats' game", NET, "last2", "all"),
    ("mc, searching from 8 cards in the stock (default)", "mc", "all", "all"),
    ("mc, searching once the stock is empty", "mc(search_stock=0)", "all", "all"),
    ("mc, searching the last two seats' game", "mc(search_stock=0)", "all", "last2"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from cardsim.games.moska import compiled
    if not hasattr(compiled, "in_stage"):
        print("benchmarks/moska_stages.py: apply benchmarks/moska_stage_split.diff first (in a clone)", file=sys.stderr)
        sys.exit(2)
    bench = Path(__file__).with_name("bench_learned.py")
    print(f"Moska, 4 players, one seat among three greedy, {args.games:,} games, seed {args.seed}")
    with tempfile.TemporaryDirectory() as caches:
        for i, (what, player, learned_stage, search_stage) in enumerate(ROWS):
            env = dict(os.environ, MOSKA_LEARNED_STAGE=learned_stage, MOSKA_SEARCH_STAGE=search_stage,
                       NUMBA_CACHE_DIR=f"{caches}/{i}")
            out = subprocess.run([sys.executable, str(bench), "--games", str(args.games), "--seed", str(args.seed),
                                  "--jobs", str(args.jobs), "--rounds", "1", "--speed-games", "100",
                                  "--learned", "greedy", "--policies", player],
                                 env=env, capture_output=True, text=True, check=True).stdout
            rate = re.search(r"loses (\S+ \[.*?\])", out).group(1)
            print(f"{what:<52} {rate}", flush=True)
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
