"""The shared part of ``benchmarks/bench_<game>_mc.py``: their options, the seatings of one policy among
others, CPU time per decision, and 95% intervals.

Speed is timed in CPU seconds of this one process (``time.process_time``), so that other work on a shared
machine does not inflate it; the compiled engine is warmed before any timing (``throughput.warm_up`` prints
the compile time on its own line). Strength runs may use ``--jobs`` processes and are timed by the wall clock.
"""
from __future__ import annotations

import argparse
import math
import time
from typing import Callable, Sequence

import numpy as np


def parser(doc: str, *, games: int, speed_games: int, self_play_games: int, determinizations: Sequence[int],
           seed: int = 1) -> argparse.ArgumentParser:
    """The options every ``bench_<game>_mc.py`` shares, with the game's defaults."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=doc)
    p.add_argument("--determinizations", type=int, nargs="+", default=list(determinizations),
                   help="worlds of each mc policy measured")
    p.add_argument("--games", type=int, default=games, help="strength: games per seating (the mc seat in each seat)")
    p.add_argument("--speed-games", type=int, default=speed_games, help="speed: games whose decisions are timed")
    p.add_argument("--self-play-games", type=int, default=self_play_games, help="speed: mc self-play games timed")
    p.add_argument("--jobs", type=int, default=1, help="n_jobs of the strength games (the speed runs use one)")
    p.add_argument("--seed", type=int, default=seed)
    p.add_argument("--quick", action="store_true", help="a few seconds: small counts")
    return p


def shrink(args: argparse.Namespace, *, games: int, speed_games: int, self_play_games: int) -> None:
    """``--quick``: these counts instead."""
    if args.quick:
        args.games, args.speed_games, args.self_play_games = games, speed_games, self_play_games


def mc(determinizations: int, **params: str) -> str:
    """The policy string of ``mc`` with this many worlds (and other parameters)."""
    return "mc(" + ", ".join([f"determinizations={determinizations}"] + [f"{k}={v}" for k, v in params.items()]) + ")"


def seatings(policy: str, others: str, players: int) -> list[list[str]]:
    """``policy`` in each seat in turn, ``others`` in the rest."""
    return [[policy if q == seat else others for q in range(players)] for seat in range(players)]


def cpu(play: Callable[[], object]) -> float:
    """CPU seconds of this process for ``play()``."""
    start = time.process_time()
    play()
    return time.process_time() - start


def ms_per_call(call: Callable[[object], object], items: Sequence[object]) -> float:
    """CPU milliseconds per ``call(item)`` over ``items``, the first call made once more, untimed, before."""
    def run() -> None:
        for item in items:
            call(item)

    call(items[0])
    return 1000 * cpu(run) / len(items)


def proportion(hits: int, n: int) -> str:
    """``hits / n`` with the half-width of its normal 95% interval."""
    rate = hits / n
    return f"{rate:.2%} ± {1.96 * math.sqrt(rate * (1 - rate) / n):.2%}"


def mean(x: np.ndarray) -> str:
    """The mean of ``x`` with the half-width of its normal 95% interval."""
    return f"{x.mean():+.2f} ± {1.96 * x.std(ddof=1) / math.sqrt(len(x)):.2f}"
