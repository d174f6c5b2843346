"""Is the Moska network's stall at generation 3 the teacher's noise (issue 22)? Generation 3 trained again.

``moska_4p_net_g3`` was fitted to 128,000 positions of generation 2's self-play, each candidate labelled by
``mc(determinizations=48)`` over generation 2's play-outs, and plays level with generation 2. This trains
generation 3 again on the same positions (the same key, ``rng.mix(20261201, 3)``, as ``cardsim train``
gives generation 3), labelled with ``--worlds`` worlds instead, with the same fit (4 rectified units a
block), and seats it alone among three generation 2 seats, and the committed generation 3 the same way
(``--games`` games, the seat rotated, the same deals): if less noisy labels were what the fit lacked, the
relabelled generation would beat generation 2. The model is written to ``--out`` (not committed).

``--soft BETA`` fits soft targets instead of the teacher's best candidates: a position's target probabilities
are ``softmax(BETA * totals)`` of the teacher's totals (the play-outs a candidate did not lose), so a candidate
one play-out short of the best keeps ``exp(-BETA)`` of its weight instead of none. With ``--worlds 48`` the
labels are the committed generation 3's, so the two fits differ only in their targets.

    PYTHONPATH=. python benchmarks/relabel_moska_net.py --worlds 96 --jobs 2 --out /tmp/moska_4p_net_g3_w96.json
    PYTHONPATH=. python benchmarks/relabel_moska_net.py --worlds 48 --soft 0.5 --jobs 2 --out /tmp/g3_soft.json
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

import cardsim
from cardsim.core import models, rng
from cardsim.core.rules import parse_call
from cardsim.core.search import parse_mc, search_call
from cardsim.games.moska import learned_features as features
from cardsim.games.moska import policies
from cardsim.learn import fit as fitting
from cardsim.learn import train
from cardsim.study.report.stats import wilson

from bench_learned import loss_rate

ROOT = Path(__file__).resolve().parents[1]
G2 = ROOT / "cardsim" / "models" / "moska" / "moska_4p_net_g2.json"
SEED, POSITIONS, HIDDEN = 20261201, 128_000, 4
"""The committed generation 3's seed, positions and units (its model file's provenance)."""


def soft_targets(beta: float):
    """``fit.targets`` with soft targets: per position ``softmax(beta * y)`` over its candidates."""
    def targets(count: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        start = np.concatenate(([0], np.cumsum(count)[:-1]))
        best, worst = np.maximum.reduceat(y, start), np.minimum.reduceat(y, start)
        weight = np.exp(beta * (y - np.repeat(best, count)).astype(np.float64))
        return best > worst, weight / np.repeat(np.add.reduceat(weight, start), count)
    return targets


def relabelled(worlds: int, jobs: int, out: Path, soft: float | None) -> None:
    """Generation 3 from ``G2``'s positions, labelled by ``mc`` with ``worlds`` worlds over its play-outs, fitted
    to the teacher's best candidates or (``soft``) to the soft targets of ``soft_targets``."""
    call, params = parse_call(f"mc(determinizations={worlds})")
    search = parse_mc("moska", params, policies.BASES, call, policies.MC_EXTRA)
    teacher = search_call(search, policies.MC_EXTRA, base=train.learned_call(G2))
    rules = cardsim.rules("moska", None)
    start = time.perf_counter()
    with tqdm(total=POSITIONS, desc=f"positions labelled by {worlds} worlds", unit="pos") as bar:
        data = train.positions_of("moska", rules, 4, int(rng.mix(SEED, 3)), train.learned_call(G2), teacher,
                                  POSITIONS, jobs, train.EVERY, bar)
    if soft is not None:
        fitting.targets = soft_targets(soft)  # the one change to the fit: what it imitates
    weights, summary = fitting.fit(data, features.BLOCKS, hidden=HIDDEN)
    said = search_call(search, policies.MC_EXTRA, base="learned(model=moska_4p_net_g2)")
    parent = json.loads(G2.read_text(encoding="utf-8"))["digest"]
    models.write(out, models.content("moska", weights,
                                     train.provenance("moska", rules.describe(), 4, SEED, said, 3, POSITIONS, parent),
                                     train.fit_record("moska", data, summary, HIDDEN, train.EVERY)))
    print(f"trained in {time.perf_counter() - start:.0f} s wall: {out}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=96)
    parser.add_argument("--games", type=int, default=16_000)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--soft", type=float, default=None, help="fit softmax(SOFT * totals), not the best")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    print("load:", os.popen("uptime").read().strip())
    if not args.out.exists():
        relabelled(args.worlds, args.jobs, args.out, args.soft)
    g2 = "learned(model=moska_4p_net_g2)"
    for policy in (f"learned(model='{args.out}')", "learned(model=moska_4p_net_g3)"):
        lost, _ = loss_rate(policy, args.games, args.seed, args.jobs, others=g2)
        lo, hi = wilson(lost, args.games)
        print(f"{policy:50} alone among three g2: loses {lost / args.games:.2%} [{lo:.2%}, {hi:.2%}] of "
              f"{args.games:,} games (parity 25%)", flush=True)
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
