"""Why does a generation fall below the one it learned from? Fits of a second generation from different positions,
each judged head to head against the first (issue 22; docs/ladder.md, "A gate on the committed recipes").

The committed recipe's second generation imitates ``mc`` over generation 1's play-outs on positions of
generation 1's self-play (``D2``); generation 1 imitated ``mc`` over ``greedy``'s on ``greedy``'s positions
(``D1``). This fits, with the committed recipe's arguments (``--seed`` and ``--positions`` as the committed
models were trained, keys ``mix(seed, 1)`` and ``mix(seed, 2)``): ``D2`` alone (the committed recipe), ``D1``
and ``D2`` together (``cardsim train --aggregate``), and as controls for the doubled data, twice the positions
of ``D2`` alone and of ``D1`` alone. Each is rated against generation 1 by the gate (``gate.judge``: every
seating of the two, ``--games`` deals, Elo with a 95% bootstrap interval).

    PYTHONPATH=. python benchmarks/aggregate_controls.py                 # Molotow (about 2 minutes, --jobs 2)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import cardsim
from cardsim.core import models, rng
from cardsim.learn import gate
from cardsim.learn import train as training
from cardsim.learn.fit import fit
from tqdm import tqdm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="molotow")
    parser.add_argument("--model", default="molotow_4p_g1", help="the first generation, a committed model")
    parser.add_argument("--positions", type=int, default=30000)
    parser.add_argument("--worlds", type=int, default=128, help="the teacher's determinizations")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--games", type=int, default=2000, help="the gate's deals")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    features = training.game_modules(args.game)[0]
    rules = cardsim.rules(args.game, None)
    first = models.path_of(args.game, args.model)
    g1 = training.learned_call(first)
    teacher = f"mc(determinizations={args.worlds})"
    over_g1 = f'mc(determinizations={args.worlds}, base="{g1}")'
    bar = tqdm(disable=True)

    def positions(generation: int, play: str, label: str, n: int):
        return training.positions_of(args.game, rules, 4, int(rng.mix(args.seed, generation)), play, label, n,
                                     args.jobs, training.EVERY, bar)

    d1 = positions(1, "greedy", teacher, args.positions)
    d2 = positions(2, g1, over_g1, args.positions)
    fits = {"D2 alone (the committed recipe)": d2, "D1 and D2 (--aggregate)": training.joined([d1, d2]),
            "D2 alone, twice the positions": positions(2, g1, over_g1, 2 * args.positions),
            "D1 alone, twice the positions": positions(1, "greedy", teacher, 2 * args.positions)}
    provenance = {k: v for k, v in json.loads(first.read_text()).items() if k in models.PROVENANCE and k != "game"}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in fits.items():
            weights, summary = fit(data, features.BLOCKS)
            path = Path(tmp) / f"{len(name)}_g2.json"
            models.write(path, models.content(args.game, weights, provenance,
                                              training.fit_record(args.game, data, summary, 0, training.EVERY)))
            verdict = gate.judge(args.game, rules, 4, g1, training.learned_call(path), args.games, 99)
            print(f"{name:36} {len(data['count']):>7,} positions: {verdict} over {args.model}", flush=True)
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
