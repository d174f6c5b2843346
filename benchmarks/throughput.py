"""Throughput of both engines of a game, measured in the same run: the shared part of
``benchmarks/bench_<game>.py``.

A row is one (rules, players, policy) cell: reference and vector games/s, their ratio,
and hands/s where a game has several hands (Uno with ``target_score``: the ``hands``
column; Molotow: ``rules.hands`` per game). Wall-clock ``time.perf_counter``; never an
assertion — read the numbers.
"""
from __future__ import annotations

import argparse
import time
from typing import Sequence

import cardsim


def rate(game: str, engine: str, rules: str, players: int, policy: str, games: int, seed: int = 1,
         jobs: int = 1) -> tuple[float, float]:
    """(games/s, hands/s) of one engine playing games ``0 .. games-1``."""
    start = time.perf_counter()
    df = cardsim.simulate(game, rules, players=players, games=games, seed=seed, policy=policy, engine=engine,
                          n_jobs=jobs)
    seconds = time.perf_counter() - start
    if "hands" in df:
        hands = int(df.hands.sum())
    else:
        hands = games * getattr(cardsim.rules(game, rules), "hands", 1)
    return games / seconds, hands / seconds


def parser(doc: str, *, rules: str, players: Sequence[int], games: int, vector_games: int) -> argparse.ArgumentParser:
    """The options every benchmark shares, with the game's defaults."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=doc)
    p.add_argument("--games", type=int, default=games, help="games per reference-engine measurement")
    p.add_argument("--vector-games", type=int, default=vector_games, help="games per vector-engine measurement")
    p.add_argument("--players", type=int, nargs="+", default=list(players))
    p.add_argument("--policies", nargs="+", default=["random", "greedy"])
    p.add_argument("--rules", default=rules, help="a preset or string form")
    p.add_argument("--jobs", type=int, default=1, help="n_jobs of the vector engine (the reference runs on one)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="a few seconds: 1/10 of the reference and vector games")
    return p


def compare(game: str, args: argparse.Namespace, cells: Sequence[tuple[str, int]] | None = None) -> None:
    """Print one row per cell and policy: reference and vector rates and their ratio."""
    if args.quick:
        args.games, args.vector_games = max(10, args.games // 10), max(1000, args.vector_games // 10)
    cells = cells or [(args.rules, n) for n in args.players]
    print(f"{game}: reference {args.games:,} games, vector {args.vector_games:,} games (n_jobs={args.jobs}) per row")
    print(f"{'rules':>22} {'players':>7} {'policy':>8} {'reference g/s':>14} {'vector g/s':>11} {'ratio':>6}"
          f" {'reference h/s':>14} {'vector h/s':>11}")
    for rules, players in cells:
        for policy in args.policies:
            ref = rate(game, "reference", rules, players, policy, args.games, args.seed)
            vec = rate(game, "vector", rules, players, policy, args.vector_games, args.seed, args.jobs)
            print(f"{rules:>22} {players:>7} {policy:>8} {ref[0]:>14,.0f} {vec[0]:>11,.0f} {vec[0] / ref[0]:>6.1f}"
                  f" {ref[1]:>14,.0f} {vec[1]:>11,.0f}", flush=True)
