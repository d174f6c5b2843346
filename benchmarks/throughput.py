"""Throughput of a game's two engines, measured in one process: the shared part of
``benchmarks/bench_<game>.py``.

A row is one (rules, players, policy) cell. The reference engine plays games ``0 .. games-1``
and right after it the compiled engine plays games ``0 .. compiled_games-1`` (the same seed:
the reference's games and more), both through ``cardsim.simulate``. Before any timing, one
untimed game of the compiled engine compiles it or loads numba's cache; that time is printed
on its own line (``compile (cold or cached): X s``) and is in no rate. Rates are games (and,
where a game has several hands, hands) per second of wall time (``time.perf_counter``) and per
CPU-second of this process and its live joblib workers (with ``psutil`` installed; else of this process
alone, exact at ``--jobs 1``). Never an assertion — read the numbers.
"""
from __future__ import annotations

import argparse
import importlib.util
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import cardsim

try:
    import psutil
except ImportError:  # not a cardsim dependency: then CPU seconds are this process's alone
    psutil = None


def cpu_seconds() -> dict[int, float]:
    """CPU seconds so far of this process (``time.process_time``) and of each live child (the joblib workers, user
    + system), by pid (without ``psutil``: this process's alone)."""
    seconds = {0: time.process_time()}
    if psutil is None:
        return seconds
    for proc in psutil.Process().children(recursive=True):
        try:
            seconds[proc.pid] = sum(proc.cpu_times()[:2])
        except psutil.Error:  # a worker that ended meanwhile
            pass
    return seconds


def timed(play: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its workers) of ``play()``."""
    wall, before = time.perf_counter(), cpu_seconds()
    play()
    wall, after = time.perf_counter() - wall, cpu_seconds()
    return wall, sum(s - before.get(pid, 0.0) for pid, s in after.items())


def warm_up(game: str, rules: str, players: int, policy: str | Sequence[str]) -> None:
    """Play one untimed game on the compiled engine (compile it, or load numba's cache) and print how long."""
    wall, _ = timed(lambda: cardsim.simulate(game, rules, players=players, games=1, policy=policy, engine="compiled"))
    print(f"compile (cold or cached): {wall:.1f} s", flush=True)


def peer_missing(module: str, package: str, flag: str, install: str) -> bool:
    """True, after one line naming the ``package`` to install, where a peer's ``module`` is not importable here."""
    if importlib.util.find_spec(module) is not None:
        return False
    print(f"{flag} needs the {package} package in this environment (not a cardsim dependency): {install}", flush=True)
    return True


@dataclass(frozen=True)
class Rate:
    """One engine's throughput in one cell."""

    games: float
    """games per second of wall time"""
    games_cpu: float
    """games per CPU-second"""
    hands: float
    """hands per second of wall time"""
    hands_cpu: float
    """hands per CPU-second"""


def rate(game: str, engine: str, rules: str, players: int, policy: str, games: int, seed: int = 1,
         jobs: int = 1) -> Rate:
    """The throughput of one engine playing games ``0 .. games-1``."""
    out = {}
    wall, cpu = timed(lambda: out.setdefault("df", cardsim.simulate(
        game, rules, players=players, games=games, seed=seed, policy=policy, engine=engine, n_jobs=jobs)))
    df = out["df"]
    hands = int(df.hands.sum()) if "hands" in df else games * getattr(cardsim.rules(game, rules), "hands", 1)
    return Rate(games / wall, games / cpu, hands / wall, hands / cpu)


def parser(doc: str, *, rules: str | None, players: Sequence[int], games: int,
           compiled_games: int) -> argparse.ArgumentParser:
    """The options every ``bench_<game>.py`` shares, with the game's defaults; without ``rules``, no ``--rules``
    and ``--players`` (the script names its rows)."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=doc)
    p.add_argument("--games", type=int, default=games, help="games per reference-engine measurement")
    p.add_argument("--compiled-games", type=int, default=compiled_games,
                   help="games per compiled-engine measurement")
    if rules is not None:
        p.add_argument("--players", type=int, nargs="+", default=list(players))
        p.add_argument("--rules", default=rules, help="a preset or string form")
    p.add_argument("--policies", nargs="+", default=["random", "greedy"])
    p.add_argument("--jobs", type=int, default=1, help="n_jobs of the compiled engine (the reference runs on one)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="a few seconds: 1/10 of the reference and compiled games")
    return p


def shrink(args: argparse.Namespace) -> None:
    """``--quick``: a tenth of the games of both engines (at least 10 and 1,000)."""
    if args.quick:
        args.games, args.compiled_games = max(10, args.games // 10), max(1000, args.compiled_games // 10)


def compare(game: str, args: argparse.Namespace, cells: Sequence[tuple[str, int]] | None = None,
            hands: bool = False) -> dict[tuple[str, int, str], Rate]:
    """Print one row per cell and policy: reference and compiled games/s, their ratio, the same per CPU-second,
    and with ``hands`` hands/s of both; return the compiled engine's rates by (rules, players, policy)."""
    shrink(args)
    cells = cells or [(args.rules, n) for n in args.players]
    print(f"{game}: reference {args.games:,} games, then compiled {args.compiled_games:,} games "
          f"(n_jobs={args.jobs}) per row, seed {args.seed}")
    if psutil is None and args.jobs != 1:
        print("per CPU-second: this process only, not its workers (pip install psutil to count them)")
    warm_up(game, cells[0][0], cells[0][1], args.policies[0])
    print(f"{'rules':>22} {'players':>7} {'policy':>8} {'reference g/s':>14} {'compiled g/s':>13} {'ratio':>6}"
          f" {'reference g/CPU-s':>18} {'compiled g/CPU-s':>17} {'ratio':>6}"
          + (f" {'reference h/s':>14} {'compiled h/s':>13}" if hands else ""))
    compiled = {}
    for rules, players in cells:
        for policy in args.policies:
            ref = rate(game, "reference", rules, players, policy, args.games, args.seed)
            com = rate(game, "compiled", rules, players, policy, args.compiled_games, args.seed, args.jobs)
            compiled[rules, players, policy] = com
            print(f"{rules:>22} {players:>7} {policy:>8} {ref.games:>14,.0f} {com.games:>13,.0f}"
                  f" {com.games / ref.games:>6.0f} {ref.games_cpu:>18,.0f} {com.games_cpu:>17,.0f}"
                  f" {com.games_cpu / ref.games_cpu:>6.0f}"
                  + (f" {ref.hands:>14,.0f} {com.hands:>13,.0f}" if hands else ""), flush=True)
    return compiled
