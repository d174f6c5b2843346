"""Do a ladder's generations climb? Each generation's rating less the previous one's, with its interval (issue 22).

A ladder's ``ratings.csv`` gives every rating against its first policy (``greedy``), each with its own
interval; two of those intervals may overlap while the difference of the two ratings is still clear of 0,
because both move together from resample to resample. A ladder run since manifest format 5 writes each
generation's step with its interval itself (``steps.csv``, and in ``ladder.txt``: ``ladder.tables.Report.steps``);
this script prints the same steps for any ladder whose records are at hand, an earlier one's included, from its
folder's ``games.parquet`` (not committed: run the study first), and with ``--against`` every rating less one
policy's, from the same bootstrap re-anchored. A step whose interval lies above 0 is a climb; one across 0 is
no difference detected; one below 0 a fall.

    cardsim run experiments/ladder_musta_maija_generations.toml --jobs 2
    PYTHONPATH=. python benchmarks/ladder_steps.py experiments/ladder_musta_maija_generations.toml
    PYTHONPATH=. python benchmarks/ladder_steps.py STUDY --against mc     # every rating less mc's instead
"""
from __future__ import annotations

import argparse
from pathlib import Path

from cardsim.core.rules import normal_call
from cardsim.study.ladder import files as ladder_files, rating
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
    steps = tally.report().steps
    if steps.empty:
        parser.exit(2, f"{args.study}: no two generations of one model among its policies\n")
    for family, rows in steps.groupby("family", sort=False):
        print(family)
        for x in rows.itertuples():
            print(f"  g{x.generation} less g{x.previous_generation}: {x.step:+6.1f} Elo [{x.lo:+6.1f}, "
                  f"{x.hi:+6.1f}]  {x.verdict}")


if __name__ == "__main__":
    main()
