"""Do a ladder's generations climb? Each generation's rating less the previous one's, with its interval (issue 22).

A ladder's ``ratings.csv`` gives every rating against its first policy (``greedy``), each with its own
interval; two of those intervals may overlap while the difference of the two ratings is still clear of 0,
because both move together from resample to resample. This script reads a ladder's records
(``games.parquet`` of its folder: run the study first, the file is not committed) and, for each family of
model generations in it (``learned(model=NAME_g1)``, ``_g2``, ...: ``ladder.plot.generations``), prints
generation k + 1's rating less generation k's on the Elo scale with the 95% interval of that difference
from the ladder's own bootstrap over deals (the same resamples, re-anchored at generation k). A step whose
interval lies above 0 is a climb; one across 0 is no difference detected; one below 0 a fall.

    cardsim run experiments/ladder_musta_maija_generations.toml --jobs 2
    PYTHONPATH=. python benchmarks/ladder_steps.py experiments/ladder_musta_maija_generations.toml
    PYTHONPATH=. python benchmarks/ladder_steps.py STUDY --against mc     # every rating less mc's instead
"""
from __future__ import annotations

import argparse
from pathlib import Path

from cardsim.core.rules import normal_call
from cardsim.study.ladder import files as ladder_files, plot, rating
from cardsim.study.ladder.tables import Tally
from cardsim.study.plan import spec


def tally_of(study_file: str, folder: Path | None = None) -> Tally:
    """The ladder's pairwise outcomes, deal by deal, from its folder's records (``results/<name>`` by default)."""
    study = spec.load(study_file)
    return ladder_files.tally(study, folder or Path("results") / study.name)


def against(tally: Tally, reference: str) -> dict[str, tuple[float, float, float]]:
    """Every policy's rating less ``reference``'s: (Elo, 95% low, high) from the ladder's bootstrap."""
    k = tally.policies.index(reference)
    point = rating.elo(rating.fit(tally.wins.sum(0), anchor=k))
    lo, hi = rating.interval(rating.elo(rating.bootstrap(tally.wins, anchor=k)))
    return {p: (float(x), float(a), float(b)) for p, x, a, b in zip(tally.policies, point, lo, hi)}


def verdict(lo: float, hi: float) -> str:
    return "climbs" if lo > 0 else "falls" if hi < 0 else "no difference detected"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", help="a ladder study file (experiments/ladder_*.toml)")
    parser.add_argument("--folder", type=Path, help="its folder (default results/<name>)")
    parser.add_argument("--against", metavar="POLICY", help="print every rating less this policy's instead")
    args = parser.parse_args()
    tally = tally_of(args.study, args.folder)
    if args.against:
        reference = normal_call(args.against)  # the ladder's own spelling: learned(model=x) is learned(model='x')
        if reference not in tally.policies:
            parser.exit(2, f"--against: {args.against!r} is not in the ladder (its policies: "
                           f"{', '.join(tally.policies)})\n")
        for p, (x, lo, hi) in against(tally, reference).items():
            print(f"{p:45} {x:+7.1f} [{lo:+7.1f}, {hi:+7.1f}] Elo against {reference}")
        return
    families = plot.generations(tally.policies)
    if not families:
        parser.exit(2, f"{args.study}: no model generations among its policies\n")
    for family, members in families.items():
        print(family)
        for (k, before), (k1, after) in zip(members, members[1:]):
            x, lo, hi = against(tally, before)[after]
            print(f"  g{k1} less g{k}: {x:+6.1f} Elo [{lo:+6.1f}, {hi:+6.1f}]  {verdict(lo, hi)}")


if __name__ == "__main__":
    main()
