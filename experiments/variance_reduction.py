"""How many games regression adjustment on the deal saves: the variance reduction factor of each table.

For each study folder (with its ``games.parquet``), every contrast raw and cross-fitted-adjusted on
the deal's features (``cardsim.study.report.adjustment``), summarised per table (players, policy, family):
the median factor over its contrasts, its range, and the share of games the median saves.

    python experiments/variance_reduction.py /tmp/vr/quickstart /tmp/vr/musta_maija_variants
    python experiments/variance_reduction.py FOLDER --contrasts     # every contrast, not just the tables
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from cardsim.study.report import adjustment
from cardsim.study.folder import manifest
from cardsim.study.folder import storage


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--contrasts", action="store_true", help="print every contrast's factor too")
    args = parser.parse_args(argv)
    pd.set_option("display.width", 200)
    for folder in args.folders:
        study = manifest.study_of(storage.read_manifest(folder), folder / storage.MANIFEST)
        started = time.process_time()
        table = adjustment.table(study, folder)
        print(f"### {study.name} ({folder}, {study.games:,} games per cell; "
              f"{time.process_time() - started:.1f} CPU-s)\n")
        print(adjustment.factors(table).to_string(index=False, float_format=lambda v: f"{v:.3f}"), "\n")
        if args.contrasts:
            print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"), "\n")


if __name__ == "__main__":
    main()
