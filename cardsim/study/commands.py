"""``run_study`` and ``report_study``: what ``cardsim run | report`` call (``verify_study`` is in ``verify``).

A run checks everything it can before it writes anything: the study file (policies
included), the job count and the Dask scheduler, the out folder (``folder.out_folder``),
the free disk space. Then it takes the folder's lock, finishes a swap a killed run left
half-done, and refuses a folder holding another study (without ``force``) or files that
are not a study's. It plays the tasks into ``.R.part`` (``pieces``: ``resume`` continues
a killed run there), assembles ``games.parquet``, writes the sample, summary, plots and
manifest beside it, and swaps the whole folder in (``folder.swap_in``). Ctrl-C, a full
disk or any other OS error stops it with one line saying what was kept (``RunStopped``):
the folder then still holds its earlier study, unchanged.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import matplotlib

import cardsim
from cardsim.study import folder as folders, ladder_files, lock, manifest as claims, pieces, report, storage, testhooks
from cardsim.study.execution import Execution
from cardsim.study.report import record_dtypes  # noqa: F401 - notebooks/reproduce.ipynb imports it from here
from cardsim.study.runner import CHUNK, Tasks, engine_for, stream
from cardsim.study.spec import RunStopped, Study, StudyError, load


def note_on_stderr(line: str) -> None:
    print(f"cardsim: note: {line}", file=sys.stderr)


def run_study(path: str | Path, *, games: int | None = None, jobs: int = 1, out: str | Path | None = None,
              backend: str = "loky", scheduler: str | None = None, force: bool = False, progress: bool = False,
              resume: bool = False, note: Callable[[str], None] = note_on_stderr) -> Path:
    """Run the study file ``path`` into its folder (default ``results/<name>``); return the folder."""
    study = load(path)
    if games is not None:
        study = study.with_games(games)
    return run_checked(study, study_file=str(path), command=_command(path, games, out), jobs=jobs, out=out,
                       backend=backend, scheduler=scheduler, force=force, progress=progress, resume=resume, note=note)


def run_checked(study: Study, *, study_file: str | None, command: str, jobs: int = 1, out: str | Path | None = None,
                backend: str = "loky", scheduler: str | None = None, force: bool = False, progress: bool = False,
                resume: bool = False, note: Callable[[str], None] = note_on_stderr) -> Path:
    """Run a checked ``study`` (read from ``study_file``, or built by ``cardsim ladder``: None) into its
    folder; ``command`` is the command line that re-creates it, which the manifest keeps and a stopped
    run names (with ``--resume``)."""
    with Execution(jobs, backend, scheduler, note=note) as execution:
        place = folders.out_folder(out, study.name)
        folders.check_space(place, study.games * len(study.cells()) * len(report.record_dtypes(study)))
        with lock.hold(place.lock, place.folder, note=note):
            for line in folders.recover(place):
                note(line)
            _check_replaceable(place, study, force)
            swapped: list[bool] = []
            try:
                _run(study, place, execution, study_file, command, resume, note, progress, swapped)
            except KeyboardInterrupt:
                raise RunStopped(f"interrupted: {_kept(place, command, swapped)}", interrupted=True) from None
            except OSError as err:
                raise RunStopped(f"{_os_error(err)}: {_kept(place, command, swapped)}", interrupted=False) from None
    return place.folder


def _run(study: Study, place: folders.Place, execution: Execution, study_file: str | None, command: str,
         resume: bool, note: Callable[[str], None], progress: bool, swapped: list[bool]) -> None:
    """Play, assemble, summarise, draw, write the manifest, swap; ``swapped`` gets True once the folder is new."""
    testhooks.pause("locked")
    revision = _git_revision()
    engine, tasks = engine_for(study), Tasks(study)
    identity = {"study": study.to_dict(), "engine": engine, "chunk": CHUNK[engine]}
    if place.part.exists() and not resume:
        note(f"removed the records kept by an interrupted run in {place.part.name} (--resume continues one)")
    kept = pieces.start(place.part, identity, resume)
    if resume and kept:
        note(f"resuming: {len(kept)} of {len(tasks)} chunks of records were kept")
    started = time.perf_counter()
    if not pieces.assembled(place.part):
        for task, records in stream(study, execution, skip=kept, progress=progress):
            pieces.keep(place.part, task, records)
            testhooks.pause("piece")
        testhooks.pause("assemble")
        pieces.assemble(place.part, len(tasks))
    simulated = time.perf_counter()
    testhooks.pause("digest")
    digest = storage.parquet_digest(place.part / storage.GAMES)
    sample = storage.read_games(place.part, games=storage.sample_games(study.games))
    testhooks.pause("sample")
    sample_digest = storage.write_sample(sample, place.part)
    summary, histograms = report.compute(study, place.part)
    outputs = report.write(study, place.part, storage.parse_summary(storage.summary_csv(summary)), histograms)
    rows = study.games * len(study.cells())
    timings = {"simulate_s": round(simulated - started, 3), "write_s": round(time.perf_counter() - simulated, 3),
               "games_per_s": round(rows / max(simulated - started, 1e-9), 1)}
    run = uuid.uuid4().hex
    testhooks.pause("manifest")
    storage.write_manifest(claims.build(
        study, run=run, study_file=study_file, command=command, outputs=outputs, files=_digests(place.part, outputs),
        records={"rows": rows, "digest": digest},
        sample={"rows": len(sample), "games": storage.sample_games(study.games).tolist(), "digest": sample_digest},
        execution=execution.describe() | {"resumed_chunks": len(kept)}, timings=timings, git=revision), place.part)
    pieces.finish(place.part)
    with _deferred_interrupt(lambda: swapped.append(True)):
        folders.swap_in(place, run)


def report_study(folder: str | Path, note: Callable[[str], None] = note_on_stderr) -> list[str]:
    """Re-render ``summary.csv`` and the plots from ``games.parquet``; return the files written.

    The folder is replaced all or nothing, like a run's: the records and sample are linked
    (or copied) into a new folder beside it, the summary, plots and manifest written there,
    and the new folder swapped in.
    """
    place = folders.Place(Path(folder).absolute())
    with lock.hold(place.lock, place.folder, note=note):
        for line in folders.recover(place):
            note(line)
        manifest = storage.read_manifest(place.folder)
        study = claims.study_of(manifest, place.folder / storage.MANIFEST)
        if not (place.folder / storage.GAMES).exists():
            raise StudyError(str(folder), None, f"no {storage.GAMES} (the full records are not committed); "
                             f"re-create them with `{_recreate(manifest, study, folder)}`")
        if place.part.exists():
            raise StudyError(str(place.part), None, "an interrupted run's records are kept there: resume it "
                             "(cardsim run ... --resume) or remove that folder first")
        try:
            return _report(study, manifest, place)
        except KeyboardInterrupt:
            shutil.rmtree(place.part, ignore_errors=True)
            raise RunStopped(f"interrupted: {folder} unchanged", interrupted=True) from None
        except OSError as err:
            shutil.rmtree(place.part, ignore_errors=True)
            raise RunStopped(f"{_os_error(err)}: {folder} unchanged", interrupted=False) from None


def _report(study: Study, manifest: dict[str, Any], place: folders.Place) -> list[str]:
    place.part.mkdir()
    for name in (storage.GAMES, storage.SAMPLE):
        if (place.folder / name).exists():
            _link(place.folder / name, place.part / name)
    summary, histograms = report.compute(study, place.folder)  # the same records: errors name the folder's file
    outputs = report.write(study, place.part, storage.parse_summary(storage.summary_csv(summary)), histograms)
    run = uuid.uuid4().hex
    machine = manifest["machine"] if isinstance(manifest.get("machine"), dict) else {}
    storage.write_manifest(manifest | {
        "format": storage.MANIFEST_FORMAT, "run": run, "outputs": outputs, "files": _digests(place.part, outputs),
        "machine": machine | {"matplotlib": matplotlib.__version__},
        "reported": datetime.now(timezone.utc).isoformat(timespec="seconds")}, place.part)
    with _deferred_interrupt(lambda: None):
        folders.swap_in(place, run)
    return outputs


def _check_replaceable(place: folders.Place, study: Study, force: bool) -> None:
    """Refuse (unless ``force``) a folder whose manifest holds another study, and always one holding
    files that are not a study's."""
    held, listed = None, []
    if (place.folder / storage.MANIFEST).exists():
        try:
            old = storage.read_manifest(place.folder)
            held = old.get("study")
            listed = [n for n in old.get("outputs", []) if isinstance(n, str)]
        except StudyError:
            held = None
    folders.check_contents(place, listed)
    if place.folder.exists() and any(place.folder.iterdir()) and not force:
        if held != claims.claims(study)["study"]:
            name = held.get("name", "?") if isinstance(held, dict) else "no readable study"
            raise StudyError(str(place.folder), None, f"holds results of a different study ({name}); "
                             "use --force to overwrite or --out to choose another folder")


def _kept(place: folders.Place, command: str, swapped: list[bool]) -> str:
    """What a stopped run leaves, in words, and how to go on."""
    if swapped:
        return f"after the run had finished: {place.folder} holds the new study"
    done = (place.folder / storage.MANIFEST).exists()
    there = f"{place.folder} " + ("still holds its earlier study, unchanged" if done else "was not written")
    if pieces.assembled(place.part):
        return f"{there}; all records are kept in {place.part}: finish with `{command} --resume`"
    n = len(pieces.kept(place.part))
    if n:
        return f"{there}; {n} chunks of records are kept in {place.part}: continue with `{command} --resume`"
    return there


def _recreate(manifest: dict[str, Any], study: Study, folder: str | Path) -> str:
    """The command that re-creates a folder's records: ``cardsim ladder ...`` or ``cardsim run STUDY_FILE ...``."""
    if study.ladder is not None:
        return ladder_files.command(study, folder)
    return f"cardsim run {manifest.get('study_file', 'STUDY')} --games {study.games} --out {folder}"


def _command(path: str | Path, games: int | None, out: str | Path | None) -> str:
    return (f"cardsim run {path}" + (f" --games {games}" if games is not None else "")
            + (f" --out {out}" if out is not None else ""))


def _os_error(err: OSError) -> str:
    where = f"{err.filename}: " if err.filename else ""
    return f"{where}{err.strerror or err}"


def _digests(folder: Path, outputs: list[str]) -> dict[str, str]:
    return {name: storage.file_digest(folder / name) for name in [*outputs, storage.SAMPLE]}


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextmanager
def _deferred_interrupt(done: Callable[[], None]) -> Iterator[None]:
    """Hold Ctrl-C back while the folder is swapped (a few renames), call ``done`` once the block
    has finished, then deliver it. (Outside the main thread Python delivers no signal.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        done()
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
        done()
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _git_revision() -> dict[str, Any] | None:
    """The package's git revision and whether its tree had changes; None outside a checkout."""
    here = Path(cardsim.__file__).parent
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if rev.returncode != 0:
        return None
    return {"revision": rev.stdout.strip(), "dirty": bool(dirty.stdout.strip())}
