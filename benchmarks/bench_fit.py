"""Moska ``learned`` (issue 22): how much of the teacher's choice each model class learns, on held-out positions.

    PYTHONPATH=. python benchmarks/bench_fit.py --positions 128000 --held-out 8000 --jobs 2

Training positions: self-play of ``greedy`` at a 4-player table labelled by ``mc(determinizations=48)``
over the whole game (``cardsim train``'s first generation, seed 20261201). Held-out positions: other games
(seed 777), labelled twice, by the same teacher and by ``mc(determinizations=512)``, the reference. A
policy's **regret** at a position is the reference's not-losing rate of its best candidate minus that of
the candidate the policy picks; printed is the mean over the held-out positions (lower is better) for
``greedy`` (the first candidate), the fitted linear scorer, networks of 1, 2 and 4 rectified units per
block (``cardsim train --hidden``) and the 48-world teacher itself. The reference is noisy too (512 worlds),
so a regret of 0 is out of reach; the differences between the rows are what the benchmark measures.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from tqdm import tqdm

import cardsim
from cardsim.core import learned, rng
from cardsim.games.moska import learned_features as features
from cardsim.learn.fit import fit
from cardsim.learn.train import positions_of


def positions(seed: int, wanted: int, teacher: str, jobs: int) -> dict[str, np.ndarray]:
    with tqdm(total=wanted, disable=True) as bar:
        return positions_of("moska", cardsim.rules("moska"), 4, int(rng.mix(seed, 1)), "greedy", teacher, wanted,
                            jobs, 8, bar)


def scores(weights: np.ndarray, held: dict[str, np.ndarray]) -> np.ndarray:
    """The fixed-point score of every held-out candidate, as the engine computes it."""
    table = np.round(np.pad(weights, ((0, 0), (0, features.WIDTH - weights.shape[1]))) * learned.SCALE)
    table = table.astype(np.int64).reshape(-1)
    blocks = np.repeat(held["block"], held["count"])
    return np.array([learned.score(table, b, x, features.N) for b, x in zip(blocks, held["x"])], dtype=np.float64)


def regret(picked_by: np.ndarray, held: dict[str, np.ndarray], worlds: int) -> float:
    """Mean over positions of the reference's best total minus the total of the first candidate that
    ``picked_by`` scores highest, per world."""
    count, y = held["count"], held["y"].astype(np.float64)
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    pick = np.array([a + int(np.argmax(picked_by[a:a + n])) for a, n in zip(start, count)])
    return float(np.mean(np.maximum.reduceat(y, start) - y[pick]) / worlds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=128000)
    parser.add_argument("--held-out", type=int, default=8000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    train = positions(20261201, args.positions, "mc(determinizations=48)", args.jobs)
    teacher = positions(777, args.held_out, "mc(determinizations=48)", args.jobs)
    held = positions(777, args.held_out, "mc(determinizations=512)", args.jobs)
    assert (teacher["x"] == held["x"]).all()  # the same positions, labelled twice
    print(f"{args.positions:,} training positions, {args.held_out:,} held out ({time.perf_counter() - start:.0f} s)")
    first = np.zeros(len(held["y"]))
    first[np.concatenate(([0], np.cumsum(held["count"])[:-1]))] = 1.0
    print(f"{'greedy':28} regret {regret(first, held, 512):.4f}")
    for hidden in (0, 1, 2, 4):
        start = time.perf_counter()
        weights, _ = fit(train, features.BLOCKS, hidden=hidden)
        name = "linear" if hidden == 0 else f"network, {hidden} unit{'s' * (hidden > 1)}"
        print(f"{name:28} regret {regret(scores(weights, held), held, 512):.4f} "
              f"(fit {time.perf_counter() - start:.0f} s)")
    print(f"{'teacher mc(48)':28} regret {regret(teacher['y'].astype(np.float64), held, 512):.4f}")


if __name__ == "__main__":
    main()
