"""Where a study run's time goes (issue 29): simulate, then each part of writing the folder.

Runs ``cardsim run STUDY --games N --jobs J`` in this process (into a temporary folder,
the engine warmed first so no compile is counted) and times each phase of
``commands._run`` by wrapping the functions it calls:

- simulate: playing the tasks and keeping their records (the workers, ``pieces.keep``, the
  summary's columns);
- assemble: the pieces streamed into ``games.parquet`` (and, where it is computed while
  writing, the records digest); with ``--jobs`` > 1 this process assembles while other
  processes draw the plots, so assemble, digest and sample count inside plot;
- digest: ``storage.parquet_digest``, a second read of ``games.parquet`` (0 once the digest is
  computed while writing);
- sample: reading the sampled games and writing ``sample.csv``;
- summarise: ``report.compute`` (summary, histograms, effects);
- plot: ``plots.render`` (matplotlib);
- rest: summary and manifest files, file digests, the swap.

``write`` is everything after simulate; the issue's target is write <= 25% of simulate.
Several ``--games`` values run one after another (each its own folder).

    python benchmarks/bench_phases.py                         # the main job: --games 10000 --jobs 2
    python benchmarks/bench_phases.py --games 10000 20000     # and a 1M-game run (50 cells x 20,000)
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

import cardsim
from cardsim.study import pipeline as commands
from cardsim.study.folder import pieces
from cardsim.study.report import plots
from cardsim.study.report import summary as report
from cardsim.study.folder import storage
from cardsim.study.plan.spec import load
from throughput import cpu_seconds, psutil

SPENT: dict[str, float] = defaultdict(float)
CPU: dict[str, float] = defaultdict(float)
"""CPU seconds of each phase: this process's (``time.process_time``) and its ended children's (the plots'
processes), and for simulate its workers' too."""
ACTIVE: list[str] = []
"""The phase being timed: a wrapped function called inside another (``read_games`` inside
``report.compute``) counts in the outer one."""


WORKERS: dict[int, float] = {}
"""The workers' CPU seconds when the last task came back, by pid: counted in simulate already."""


def reaped_cpu() -> float:
    """CPU seconds of this process's children that have ended: the processes that drew the plots
    (``plots.render`` with jobs > 1) end, and are reaped, inside the plot phase. The run's workers exit
    once the last task is back and are reaped in whichever phase is on then: their CPU, counted in
    simulate, is taken out again (a worker no longer among the children has been reaped)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    alive = {child.pid for child in psutil.Process().children(recursive=True)} if psutil else set(WORKERS)
    return usage.ru_utime + usage.ru_stime - sum(cpu for pid, cpu in WORKERS.items() if pid not in alive)


def timed(phase: str, fn: Callable) -> Callable:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if ACTIVE:
            return fn(*args, **kwargs)
        ACTIVE.append(phase)
        start, cpu = time.perf_counter(), time.process_time() + reaped_cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[phase] += time.perf_counter() - start
            CPU[phase] += time.process_time() + reaped_cpu() - cpu
            ACTIVE.pop()
    return wrapper


def timed_stream(fn: Callable) -> Callable:
    """The records' generator, its time (and its consumer's: keeping the pieces) as ``simulate``."""
    def wrapper(*args: Any, **kwargs: Any) -> Iterator:
        start, before = time.perf_counter(), cpu_seconds()
        try:
            yield from fn(*args, **kwargs)
        finally:
            SPENT["simulate"] += time.perf_counter() - start
            after = cpu_seconds()  # the workers are still up: their CPU so far is the simulation's
            CPU["simulate"] += sum(t - before.get(pid, 0.0) for pid, t in after.items())
            WORKERS.update({pid: t for pid, t in after.items() if pid})
    return wrapper


@contextmanager
def instrumented() -> Iterator[None]:
    """Wrap the phase functions where ``commands`` and ``report`` look them up; restore them after."""
    patches = [(commands, "stream", timed_stream(commands.stream)),
               (pieces, "assemble", timed("assemble", pieces.assemble)),
               (storage, "parquet_digest", timed("digest", storage.parquet_digest)),
               (storage, "read_games", timed("sample", storage.read_games)),
               (storage, "write_sample", timed("sample", storage.write_sample)),
               (report, "compute", timed("summarise", report.compute)),
               (plots, "render", timed("plot", plots.render))]
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    for module, name, fn in patches:
        setattr(module, name, fn)
    try:
        yield
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)


def load_line() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(study_file: str, games: int, jobs: int) -> tuple[dict[str, float], dict[str, float]]:
    """Wall and CPU seconds by phase (``total``: the whole run; ``main``: this process's CPU)."""
    SPENT.clear()
    CPU.clear()
    WORKERS.clear()
    with tempfile.TemporaryDirectory(prefix="cardsim-phases-") as tmp:
        start, cpu = time.perf_counter(), time.process_time()
        with instrumented():
            commands.run_study(study_file, games=games, jobs=jobs, out=Path(tmp) / "out", note=lambda line: None)
        return (dict(SPENT) | {"total": time.perf_counter() - start},
                dict(CPU) | {"main": time.process_time() - cpu})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--study", default="experiments/moska_variants.toml")
    parser.add_argument("--games", type=int, nargs="+", default=[10_000], help="games per cell (default 10000)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    study = load(args.study)
    cell = study.cells()[0]
    cardsim.simulate(study.game, study.variants[cell.variant], players=cell.players, games=1,
                     policy=list(cell.seats))  # compile or load the engine: no compile in any phase
    phases = ("assemble", "digest", "sample", "summarise", "plot")
    for games in args.games:
        print(f"load before: {load_line()}")
        wall, cpu = run(args.study, games, args.jobs)
        rows = games * len(study.cells())
        write = wall["total"] - wall["simulate"]
        print(f"{study.name}: {len(study.cells())} cells x {games:,} games = {rows:,} games, --jobs {args.jobs}")
        print(f"  {'phase':10} {'wall s':>8} {'CPU s':>8}")
        print(f"  {'simulate':10} {wall['simulate']:8.2f} {cpu['simulate']:8.2f}   (CPU: this process and its "
              f"{args.jobs} workers)")
        for phase in phases:
            print(f"  {phase:10} {wall.get(phase, 0.0):8.2f} {cpu.get(phase, 0.0):8.2f}")
        rest = write - sum(wall.get(p, 0.0) for p in phases)
        print(f"  {'rest':10} {rest:8.2f}")
        written_cpu = sum(cpu.get(p, 0.0) for p in phases)
        quiet = written_cpu - cpu.get("plot", 0.0) + cpu.get("plot", 0.0) / args.jobs
        print(f"  write      {write:8.2f} s wall = {write / wall['simulate']:.0%} of simulate's wall (target <= 25%)")
        print(f"  on a quiet machine (simulate ~ its CPU / {args.jobs} jobs, the plots ~ theirs / {args.jobs}, the "
              f"rest of writing ~ its CPU): the timed write phases {written_cpu:.2f} CPU-s, ~{quiet:.2f} s = "
              f"{quiet / (cpu['simulate'] / args.jobs):.0%} of simulate's {cpu['simulate'] / args.jobs:.2f} s")
        print(f"  total      {wall['total']:8.2f} s wall; {rows / wall['simulate']:,.0f} games/s simulating")
        print(f"load after:  {load_line()}")

if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
