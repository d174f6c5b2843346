"""How long a study's plots take to draw and write: this cardsim's ``plots.render`` against an earlier
one's, on the committed folders' own tables, in one process, one right after the other.

Issue 29 measured the write phase of a 1,000,000-game study at 104 s of ``savefig`` for 8
figures; a study's write phase should be at most 25% of its simulation time. Each round draws
every plot that ``summary.csv`` and ``effects.csv`` draw (the length figure needs
``games.parquet``, which is not committed) into a temporary folder. Printed per folder: CPU
seconds of this process (``time.process_time``) per round, median and range over the rounds,
the earlier code's the same way, their ratio, and the folder's own simulation time from its
manifest; then the load (``uptime``). Never an assertion — read the numbers.

    python benchmarks/bench_plots.py --earlier /path/to/earlier/cardsim/study/report/plots.py
    python benchmarks/bench_plots.py --jobs 2 --rounds 3 moska_variants   # one process against two, wall seconds
    python benchmarks/bench_plots.py --floor 10 moska_variants             # and matplotlib's floor per figure

``--floor N`` also draws N bare figures of 1 and of 4 panels (5 series of 6 points with error bars a panel,
a title, an axis label, a grid, one legend; matplotlib's defaults, no layout of ours) and prints the CPU
seconds of one: what matplotlib costs a figure of that shape at the least, whatever cardsim draws in it.
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from cardsim.study.report import plots
from cardsim.study.report import summary as report
from cardsim.study.folder import storage
from cardsim.study.folder import manifest as claims

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("moska_variants", "uno_house_rules", "moska_knobs", "musta_maija_knobs")


def _load(path: Path):
    spec = importlib.util.spec_from_file_location("earlier_plots", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _round(module, folder: Path, jobs: int = 1) -> tuple[float, int, float]:
    """CPU seconds (this process's and its ended children's: the drawing processes), plots, wall seconds."""
    manifest = storage.read_manifest(folder)
    study = claims.study_of(manifest, folder / storage.MANIFEST)
    summary = storage.parse_summary((folder / storage.SUMMARY).read_text(encoding="utf-8"))
    effects = (report.parse_effects((folder / report.EFFECTS).read_text(encoding="utf-8"))
               if (folder / report.EFFECTS).exists() else None)
    with tempfile.TemporaryDirectory() as tmp:
        start, wall = _cpu(), time.perf_counter()
        written = module.render(summary, None, report.study_measures(study), study.baseline, Path(tmp),
                                report.unpaired(study), study.design, effects, **({"jobs": jobs} if jobs > 1 else {}))
        spent, wall = _cpu() - start, time.perf_counter() - wall
    plt.close("all")
    return spent, len(written), wall


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _bare(panels: int) -> None:
    """One bare figure of ``panels`` panels (``--floor``), drawn and written as a PNG in memory."""
    gen = np.random.default_rng(panels)
    fig, axes = plt.subplots(1, panels, figsize=(3.2 * panels, 3.2), squeeze=False)
    for ax in axes[0]:
        for series in range(5):
            ax.errorbar(np.arange(6) + series * 0.1, gen.random(6), yerr=0.05, fmt="o", ms=3)
        ax.set_title("panel")
        ax.set_xlabel("seat")
        ax.grid(True, alpha=0.3)
    fig.legend(["a", "b", "c", "d", "e"], loc="upper center", ncols=5)
    fig.savefig(io.BytesIO(), format="png", dpi=plots.DPI)
    plt.close(fig)


def _floor(n: int) -> None:
    """``--floor``: CPU seconds of one bare figure of 1 and of 4 panels, median and range over ``n``."""
    _bare(1)
    for panels in (1, 4):
        spent = []
        for _ in range(n):
            start = time.process_time()
            _bare(panels)
            spent.append(time.process_time() - start)
        print(f"matplotlib's floor, a bare figure of {panels} panel{'s' * (panels > 1)}: CPU s {_spread(spent)}",
              flush=True)


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f} .. {max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--earlier", type=Path, help="an earlier cardsim's cardsim/study/report/plots.py to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1,
                        help="also draw with this many processes (render's jobs), alternating with one, and "
                             "compare the wall seconds")
    parser.add_argument("--floor", type=int, default=0, metavar="N",
                        help="also draw N bare figures of 1 and of 4 panels: matplotlib's least cost of a figure")
    parser.add_argument("folders", nargs="*", default=FOLDERS, help="folders under results/")
    args = parser.parse_args()
    earlier = _load(args.earlier) if args.earlier else None
    for name in args.folders:
        folder = ROOT / "results" / name
        simulate = storage.read_manifest(folder)["timings"]["simulate_s"]
        now = [_round(plots, folder) for _ in range(args.rounds)]
        line = (f"{name}: {now[0][1]} plots, CPU s per round median {statistics.median(t for t, _, _ in now):.2f} "
                f"(range {min(t for t, _, _ in now):.2f}-{max(t for t, _, _ in now):.2f})")
        if earlier is not None:
            then = [_round(earlier, folder) for _ in range(args.rounds)]
            line += (f"; earlier {then[0][1]} plots, median {statistics.median(t for t, _, _ in then):.2f} "
                     f"(range {min(t for t, _, _ in then):.2f}-{max(t for t, _, _ in then):.2f}), ratio "
                     f"{statistics.median(t for t, _, _ in then) / statistics.median(t for t, _, _ in now):.2f}x")
        print(line + f"; the study simulated for {simulate:,.0f} s", flush=True)
        if args.jobs > 1:
            one, many = [], []
            for _ in range(args.rounds):  # alternating, so both see the same load
                one.append(_round(plots, folder))
                many.append(_round(plots, folder, args.jobs))
            print(f"  wall s, 1 process: {_spread([w for _, _, w in one])}; {args.jobs} processes: "
                  f"{_spread([w for _, _, w in many])}; ratio {statistics.median(w for _, _, w in one) / statistics.median(w for _, _, w in many):.2f}x; "
                  f"CPU s {_spread([t for t, _, _ in one])} and {_spread([t for t, _, _ in many])}", flush=True)
    if args.floor:
        _floor(args.floor)
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), f"({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
