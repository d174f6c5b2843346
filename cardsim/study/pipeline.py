"""The pipeline: ``run_study``, ``run_ladder`` and ``report_study``, what ``cardsim run | ladder | report`` call
(``verify_study`` is in ``verify``).

A run is one ``Run`` object handed forward from stage to stage, never called back: the plan
(``plan``: the study, its tasks), play (``run``: the tasks into the pieces of ``.R.part``, the
summary's columns kept as they come: ``Played``), commit (``report``: summary, plots, drawn while
``games.parquet`` is assembled and sampled; ``folder``: manifest, swap).

A run checks everything it can before it writes anything: the study file (policies
included), the job count and the Dask scheduler, the out folder (``folder.out_folder``),
the free disk space. Then it takes the folder's lock, finishes a swap a killed run left
half-done, and refuses a folder holding another study (without ``force``) or files that
are not a study's. It plays the tasks into ``.R.part`` (``pieces``: ``resume`` continues
a killed run there), summarises them, assembles ``games.parquet`` and writes the sample
while other processes draw the plots, writes the manifest, and swaps the whole folder in
(``folder.swap_in``). Ctrl-C, SIGTERM (``signals``), a full disk or any other OS error
stops it with one line saying what was kept and the command that resumes (``RunStopped``):
the folder then still holds its earlier study, unchanged. The disk it needs is estimated first (``disk``).
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time
import uuid
import warnings
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

import matplotlib

import cardsim
from cardsim.core.models import OtherRules
from cardsim.core.progress import note_on_stderr
from cardsim.core.rules import Rules
from cardsim.study.folder import place as folders
from cardsim.study.ladder import files as ladder_files, run as ladders
from cardsim.study.folder import lock
from cardsim.study.folder import manifest as claims
from cardsim.study.folder import pieces
from cardsim.study.run import precision as rule
from cardsim.study.run import disk
from cardsim.study.report import summary as report
from cardsim.study.run import signals
from cardsim.study.run import stepping
from cardsim.study.folder import storage
from cardsim.study.hooks import NONE, Hooks
from cardsim.study.run.execution import Execution
from cardsim.study.report.summary import record_dtypes  # noqa: F401 - notebooks/reproduce.ipynb imports it from here
from cardsim.study.plan.tasks import CHUNK, Tasks, engine_for
from cardsim.study.run.runner import stream
from cardsim.study.plan.spec import RunStopped, Study, StudyError, load


STEPS = "steps.json"
"""In ``.R.part``: the steps a run stepped to a precision took (a resume after assembling reads them)."""


def run_study(path: str | Path, *, games: int | None = None, jobs: int = 1, out: str | Path | None = None,
              backend: str = "loky", scheduler: str | None = None, force: bool = False, progress: bool = False,
              resume: bool = False, precision: float | None = None, max_games: int | None = None,
              precision_of: str = "rates", note: Callable[[str], None] = note_on_stderr, hooks: Hooks = NONE,
              execution: Execution | None = None) -> Path:
    """Run the study file ``path`` into its folder (default ``results/<name>``); return the folder.

    With ``precision`` (percentage points) the study's games are the first step of a run that
    plays on until every seat rate's 95% half-width is within it (``precision_of="contrasts"``: every
    seat contrast's against the baseline), or ``max_games`` games per cell (``precision``'s rule;
    default ``precision.MAX_GAMES``). ``hooks``: a test's seams (``cardsim.study.hooks``).
    ``execution``: workers the caller started already (entered; ``jobs``, ``backend`` and ``scheduler`` are
    then theirs), so that they start up while this module and the study are read (``cardsim run``)."""
    study = load(path)
    if games is not None:
        study = study.with_games(games)
    if precision is not None and max_games is None:
        max_games = rule.MAX_GAMES
    return run_loaded(study, str(path), _command(path, games, out, precision, max_games, precision_of), jobs=jobs,
                      out=out, backend=backend, scheduler=scheduler, force=force, progress=progress, resume=resume,
                      precision=precision, max_games=max_games, precision_of=precision_of, note=note, hooks=hooks,
                      execution=execution)


def run_ladder(game: str, rules: str | Rules | None = None, *, policies: str | Sequence[str], players: int = 4,
               games: int = ladders.GAMES, seed: int = 0, seatings: str = "pairs", engine: str = "compiled", jobs: int = 1,
               out: str | Path | None = None, backend: str = "loky", scheduler: str | None = None,
               force: bool = False, progress: bool = False, resume: bool = False,
               note: Callable[[str], None] = note_on_stderr) -> ladders.LadderResult:
    """``cardsim ladder``: play the ladder of ``policies`` (``ladder.run.ladder_study``) and write its folder
    (default ``results/ladder_<game>``); return its tables.

    ``LadderResult.text`` is what ``cardsim ladder`` prints (the folder's ``ladder.txt``).
    """
    study = ladders.ladder_study(game, rules, policies=policies, players=players, games=games, seed=seed,
                         seatings=seatings, engine=engine)
    folder = run_loaded(study, None, ladder_files.command(study, out), jobs=jobs, out=out, backend=backend,
                        scheduler=scheduler, force=force, progress=progress, resume=resume, note=note)
    return ladders.read(folder)


@dataclass(frozen=True)
class Stepped:
    """A run stepped to a precision (``precision``'s rule): the widest 95% half-width it asks (``pp``,
    percentage points) of the seat rates or the seat contrasts (``of``), the games per cell it may reach
    (``max_games``) and its first step (``first``)."""

    pp: float
    max_games: int
    first: int
    of: str = "rates"

    def asked(self) -> dict[str, Any]:
        """What was asked, as the kept records' identity and the manifest hold it (``of`` only where it is not
        the rates: a folder stepped to the rates' precision before there was a choice is the same study)."""
        return {"pp": self.pp, "max_games": self.max_games, "first": self.first,
                **({"of": self.of} if self.of != "rates" else {})}

    def claims(self, steps: list[dict[str, float]]) -> dict[str, Any]:
        """The manifest's ``precision``: what was asked, the rule, the ``steps`` taken and whether it was reached."""
        return self.asked() | {"rule": rule.OF[self.of], "steps": steps,
                               "reached": steps[-1]["widest_half_width_pp"] <= self.pp}


@dataclass(frozen=True)
class Run:
    """One run of a study, handed forward from stage to stage: what it plays (``study``), where it goes
    (``place``), how (``execution``), what re-creates it (``study_file``, ``argv``), whether it continues
    a killed run (``resume``), the precision it is stepped to (``stepped``), what it says (``note``,
    ``progress``), a test's seams (``hooks``) and its id (``id``: the manifest's ``run``)."""

    study: Study
    place: folders.Place
    execution: Execution
    study_file: str | None
    argv: list[str]
    resume: bool
    stepped: Stepped | None
    note: Callable[[str], None]
    progress: bool
    hooks: Hooks
    id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True)
class Played:
    """What playing hands on to the commit: the study as played (stepped to a precision: at the games it
    reached), the chunks a resume found kept, the order of the pieces in ``games.parquet`` (``order``: the
    tasks, or how many), the columns the summary reads if they were kept as the pieces were (``columns``;
    None: read back from ``games.parquet``), the seconds it took and, for a run stepped to a precision, the
    manifest's ``precision``."""

    study: Study
    kept: set[int]
    order: int | list[int]
    columns: Any
    seconds: float
    precision: dict[str, Any] | None


def run_loaded(study: Study, study_file: str | None, argv: list[str], *, jobs: int = 1,
               out: str | Path | None = None, backend: str = "loky", scheduler: str | None = None,
               force: bool = False, progress: bool = False, resume: bool = False, precision: float | None = None,
               max_games: int | None = None, precision_of: str = "rates", note: Callable[[str], None] = note_on_stderr,
               hooks: Hooks = NONE, execution: Execution | None = None) -> Path:
    """Run a study already read (from ``study_file``, or made by ``cardsim compare``: None) as
    ``run_study`` does; ``argv``: the command line that re-creates it, kept in the manifest."""
    if precision is not None:
        max_games = rule.MAX_GAMES if max_games is None else max_games
        rule.check(precision, max_games, study.games, precision_of, len(study.variants))
    elif max_games is not None or precision_of != "rates":
        raise ValueError(f"{'--max-games bounds' if max_games is not None else '--precision-of names'} a "
                         "--precision run: give --precision too")
    stepped = None if precision is None else Stepped(precision, max_games, study.games, precision_of)
    if study.design is not None and study.design.skipped:
        note(f"left out {len(study.design.skipped)} combinations that cannot be played (skip_unplayable): "
             + "; ".join(study.design.skipped))
    with nullcontext(execution) if execution is not None else Execution(jobs, backend, scheduler,
                                                                         note=note) as execution:
        place = folders.out_folder(out, study.name)
        disk.check(place, study)
        with lock.hold(place.lock, place.folder, note=note):
            for line in folders.recover(place, hooks):
                note(line)
            _check_replaceable(place, study, force, stepped)
            command = shlex.join([*argv, *(["--force"] if force and "--force" not in argv else [])])
            run = Run(study, place, execution, study_file, argv, resume, stepped, note, progress, hooks)
            try:
                with signals.terminated_as_interrupt():
                    _run(run)
            except KeyboardInterrupt as stop:
                raise signals.stopped(stop, _kept(run, command)) from None
            except OSError as err:
                kept = _kept(run, command, "make room, then " if signals.full_disk(err) else "")
                raise RunStopped(f"{signals.os_error(err)}: {kept}", interrupted=False) from None
    return place.folder


def _run(run: Run) -> None:
    """The stages of a run, each handed what the one before made: play (into pieces), then commit
    (summary; plots drawn while ``games.parquet`` is assembled and sampled; manifest; the swap)."""
    run.hooks.pause("locked")
    revision = _git_revision()
    _commit(run, _play(run), revision)


def _play(run: Run) -> Played:
    """Play the tasks not kept (stepped to a precision: step by step) into ``.R.part``'s pieces, keeping the
    columns the summary reads as each piece is kept (a run from the start, up to ``report.SUMMARY_ROWS``
    records); a resume that finds ``games.parquet`` assembled plays nothing."""
    study, place, stepped = run.study, run.place, run.stepped
    engine, tasks = engine_for(study), Tasks(study)
    identity = {"study": study.to_dict(), "engine": engine, "chunk": CHUNK[engine],
                **({"stepped": stepped.asked()} if stepped else {})}
    if place.part.exists() and not run.resume:
        run.note(f"removed the records kept by an interrupted run in {place.part.name} (--resume continues one)")
    kept = pieces.start(place.part, identity, run.resume)
    if run.resume and kept:
        run.note(f"resuming: {len(kept)} of {len(tasks)} chunks of records were kept")
    for line in claims.untuned(study):
        run.note(line)
    started = time.perf_counter()
    with warnings.catch_warnings():  # said once above; the workers silence it too (``workers.start``)
        warnings.simplefilter("ignore", OtherRules)
        columns, order = (None, len(tasks)) if pieces.assembled(place.part) else _play_tasks(run, tasks, kept)
    precision = None
    if stepped is not None:  # the steps taken, also when a resume finds games.parquet assembled
        steps = json.loads((place.part / STEPS).read_text(encoding="utf-8"))
        study, precision = study.with_games(steps[-1]["games"]), stepped.claims(steps)
    return Played(study, kept, order, None if columns is None else columns.frame(),
                  time.perf_counter() - started, precision)


def _play_tasks(run: Run, tasks: Tasks, kept) -> tuple[storage.Columns | None, int | list[int]]:
    """Play the tasks not ``kept`` into the pieces (stepped: step by step); return the summary's columns when
    they were kept as the pieces came (a run from the start) and the order of the games (stepped: the
    steps')."""
    study, place, stepped, hooks = run.study, run.place, run.stepped, run.hooks
    order: int | list[int] = len(tasks)
    columns = None
    if stepped is None:
        if not kept and study.games * len(study.cells()) <= report.SUMMARY_ROWS:
            columns = storage.Columns(report.summary_columns(study))
        for task, records in stream(study, run.execution, skip=kept, progress=run.progress):
            table = pieces.keep(place.part, task, records)
            if columns is not None:
                columns.add(task, table)
            hooks.pause("piece")
    else:
        reached = stepping.play(study, place.part, run.execution, stepped.pp, stepped.max_games,
                                progress=run.progress, kept=kept, after_piece=lambda: hooks.pause("piece"),
                                of=stepped.of)
        storage.atomic_write(place.part / STEPS, lambda p: p.write_text(json.dumps(reached.steps), "utf-8"))
        order = reached.order
    run.execution.release()  # every game is played: the workers exit while this process writes
    return columns, order


def _commit(run: Run, played: Played, revision: dict[str, Any] | None) -> None:
    """Summarise the records, draw them while ``games.parquet`` is assembled, digested and sampled
    (``_records``; first, where the summary reads the records back from it), write the manifest, swap the
    folder in."""
    study, place, hooks = played.study, run.place, run.hooks
    written = time.perf_counter()
    records: tuple[str, Any, str] | None = None

    def assemble() -> None:  # once
        nonlocal records
        records = records or _records(run, played)

    if played.columns is None:
        assemble()
    summary, histograms, effects = report.as_read(*report.compute(study, place.part, played.columns))
    outputs = report.write(study, place.part, summary, histograms, effects, hooks,
                           jobs=run.execution.jobs if run.execution.scheduler is None else 1,  # this machine's cores
                           meanwhile=assemble)
    digest, sample, sample_digest = records
    rows = study.games * len(study.cells())
    timings = {"simulate_s": round(played.seconds, 3), "write_s": round(time.perf_counter() - written, 3),
               "games_per_s": round(rows / max(played.seconds, 1e-9), 1)}
    hooks.pause("manifest")
    storage.write_manifest(claims.build(
        study, run=run.id, study_file=run.study_file, outputs=outputs, files=_digests(place.part, outputs),
        records={"rows": rows, "digest": digest},
        sample={"rows": len(sample), "games": storage.sample_games(study.games).tolist(), "digest": sample_digest},
        execution=run.execution.describe() | {"resumed_chunks": len(played.kept)}, timings=timings, git=revision,
        command=run.argv, precision=played.precision), place.part)
    pieces.finish(place.part)
    (place.part / STEPS).unlink(missing_ok=True)
    with signals.deferred():
        folders.swap_in(place, run.id, hooks)


def _records(run: Run, played: Played) -> tuple[str, Any, str]:
    """``games.parquet`` assembled from the pieces, its digest and the sampled rows computed as it is written,
    ``sample.csv`` written; where a resumed run finds it assembled already, the digest and sample read back
    from it. Returns the records' digest, the sample and its digest."""
    part, hooks = run.place.part, run.hooks
    watched = None
    if not pieces.assembled(part):
        hooks.pause("assemble")
        watched = (storage.RecordsDigest(part), storage.SampleRows(storage.sample_games(played.study.games)))
        pieces.assemble(part, played.order, watch=watched, hooks=hooks)
    hooks.pause("digest")
    if watched is not None:
        digest, sample = watched[0].hexdigest(), watched[1].frame()
    else:
        digest = storage.parquet_digest(part / storage.GAMES)
        sample = storage.read_games(part, games=storage.sample_games(played.study.games))
    hooks.pause("sample")
    return digest, sample, storage.write_sample(sample, part)


def report_study(folder: str | Path, note: Callable[[str], None] = note_on_stderr, hooks: Hooks = NONE) -> list[str]:
    """Re-render ``summary.csv`` and the plots from ``games.parquet``; return the files written.

    The folder is replaced all or nothing, like a run's: the records and sample are linked
    (or copied) into a new folder beside it, the summary, plots and manifest written there,
    and the new folder swapped in.
    """
    place = folders.Place(Path(folder).absolute())
    with lock.hold(place.lock, place.folder, note=note):
        for line in folders.recover(place, hooks):
            note(line)
        manifest = storage.read_manifest(place.folder)
        study = claims.study_of(manifest, place.folder / storage.MANIFEST, played=False)
        if not (place.folder / storage.GAMES).exists():
            raise StudyError(str(folder), None, f"no {storage.GAMES} (the full records are not committed); "
                             f"re-create them with `{_recreate(manifest, study, folder)}`")
        if place.part.exists():
            raise StudyError(str(place.part), None, "an interrupted run's records are kept there: resume it "
                             "(cardsim run ... --resume) or remove that folder first")
        try:
            with signals.terminated_as_interrupt():
                return _report(study, manifest, place, hooks)
        except KeyboardInterrupt as stop:
            shutil.rmtree(place.part, ignore_errors=True)
            raise signals.stopped(stop, f"{folder} unchanged") from None
        except OSError as err:
            shutil.rmtree(place.part, ignore_errors=True)
            raise RunStopped(f"{signals.os_error(err)}: {folder} unchanged", interrupted=False) from None


def _report(study: Study, manifest: dict[str, Any], place: folders.Place, hooks: Hooks) -> list[str]:
    place.part.mkdir()
    for name in (storage.GAMES, storage.SAMPLE):
        if (place.folder / name).exists():
            _link(place.folder / name, place.part / name)
    # the same records: errors name the folder's file
    summary, histograms, effects = report.as_read(*report.compute(study, place.folder))
    outputs = report.write(study, place.part, summary, histograms, effects, hooks)
    run = uuid.uuid4().hex
    machine = manifest["machine"] if isinstance(manifest.get("machine"), dict) else {}
    storage.write_manifest(claims.sealed(manifest | {
        "format": storage.MANIFEST_FORMAT, "run": run, "outputs": outputs, "files": _digests(place.part, outputs),
        "machine": machine | {"matplotlib": matplotlib.__version__},
        "reported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "informational": list(claims.INFORMATIONAL)}), place.part)
    with signals.deferred():
        folders.swap_in(place, run, hooks)
    return outputs


def _check_replaceable(place: folders.Place, study: Study, force: bool, stepped: Stepped | None) -> None:
    """Refuse (unless ``force``) a folder whose manifest holds another study, and always one holding
    files that are not a study's. A run stepped to a precision is the same study as a folder's
    that the same precision (of the same measure), bound and first step reached, whatever its number of games."""
    held, listed, old = None, [], {}
    if (place.folder / storage.MANIFEST).exists():
        try:
            old = storage.read_manifest(place.folder)
            held = old.get("study")
            listed = [n for n in old.get("outputs", []) if isinstance(n, str)]
        except StudyError:
            held = None
    folders.check_contents(place, listed)
    if place.folder.exists() and any(place.folder.iterdir()) and not force:
        held = claims.held_study(held, study)  # a knob added since the folder was written: at its default
        same = held == claims.claims(study)["study"]
        if stepped is not None:
            reached = held.get("games") if isinstance(held, dict) else None
            same = (isinstance(reached, int) and not isinstance(reached, bool) and reached >= study.games
                    and held == claims.claims(study.with_games(reached))["study"]
                    and {k: (old.get("precision") or {}).get(k) for k in stepped.asked()} == stepped.asked()
                    and (old.get("precision") or {}).get("of", "rates") == stepped.of)
        if not same:
            name = held.get("name", "?") if isinstance(held, dict) else "no readable study"
            raise StudyError(str(place.folder), None, f"holds results of a different study ({name}); "
                             "use --force to overwrite or --out to choose another folder")


def _kept(run: Run, command: str, first: str = "") -> str:
    """What a stopped run leaves, in words, and how to go on (``first``: what to do before that)."""
    place = run.place
    if folders.manifest_run(place.folder) == run.id:  # swapped in
        return f"after the run had finished: {place.folder} holds the new study"
    done = (place.folder / storage.MANIFEST).exists()
    there = f"{place.folder} " + ("still holds its earlier study, unchanged" if done else "was not written")
    if pieces.assembled(place.part):
        return f"{there}; all records are kept in {place.part}: {first}finish with `{command} --resume`"
    n = len(pieces.kept(place.part))
    if n:
        return f"{there}; {n} chunks of records are kept in {place.part}: {first}continue with `{command} --resume`"
    return there + (f"; no records were kept: {first}run `{command}` again" if first else "")


def _recreate(manifest: dict[str, Any], study: Study, folder: str | Path) -> str:
    """The command that re-creates a folder's records: ``cardsim ladder ...`` or ``cardsim run STUDY_FILE ...``."""
    if study.ladder is not None:
        return shlex.join(ladder_files.command(study, folder))
    study_file = manifest.get("study_file") or "STUDY"
    if isinstance(manifest.get("cwd"), str) and study_file != "STUDY":  # the run's own folder, wherever this runs
        study_file = os.path.join(manifest["cwd"], study_file)
    return shlex.join(["cardsim", "run", study_file, "--games", str(study.games), "--out", str(folder)])


def _command(path: str | Path, games: int | None, out: str | Path | None, precision: float | None = None,
             max_games: int | None = None, precision_of: str = "rates") -> list[str]:
    """The command line of this run (what re-creates its study)."""
    return ["cardsim", "run", str(path), *(["--games", str(games)] if games is not None else []),
            *(["--precision", f"{precision:g}", "--max-games", str(max_games)] if precision is not None else []),
            *(["--precision-of", precision_of] if precision_of != "rates" else []),
            *(["--out", str(out)] if out is not None else [])]


def _digests(folder: Path, outputs: list[str]) -> dict[str, str]:
    return {name: storage.file_digest(folder / name) for name in [*outputs, storage.SAMPLE]}


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


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
