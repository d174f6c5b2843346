"""Replication on fresh deals: ``cardsim replicate FOLDER [--seed S] [--out DIR]``.

A study's finding is quoted only once it holds on deals it has not seen. ``replicate``
re-runs the study of ``FOLDER`` with another seed, every other setting equal (its games per
cell included, also for a run stepped to a precision), into ``DIR/fresh`` (a study folder
like any other; ``DIR`` defaults to ``FOLDER_replication`` beside ``FOLDER``), and writes
``DIR/replication.csv``: each contrast (``effects.csv``'s effects for a sweep or factorial; a
ladder's ratings against its first policy and its generation steps, their intervals read as
normal from the bootstrap's; else ``summary.csv``'s paired shifts against the baseline) in both
runs, each corrected for many comparisons in its own run (``multiplicity``), with a verdict
(``VERDICTS``):

- ``no finding``: the original does not survive correction: there is nothing to replicate;
- ``replicated``: the fresh run's contrast survives too, with the same sign;
- ``underpowered``: the fresh run's contrast does not survive, and the fresh run had less
  than ``POWER`` (80%) chance to find an effect of the original's size (``power``): a miss
  then says little;
- ``not replicated``: otherwise (the fresh contrast survives with the other sign, or it
  does not survive although the fresh run would have found an effect of the original's
  size at least 4 times in 5).

The default seed is the original's plus 1: game keys hash the seed, so its deals share
nothing with the original's.

Where the full study costs too much to run again, ``--players``, ``--policies`` and
``--games`` replicate a part of it: only those cells, at that many games (a ladder: only
``--games``, since each rating depends on the whole company). The table then
holds only the contrasts of those cells; each run is corrected within what it holds (the
fresh run's families are smaller, so its correction is milder), and fewer games make
``underpowered`` likelier, never a false ``replicated``.
"""
from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from scipy import special

from cardsim.core.game import SEED_LIMIT
from cardsim.study.folder import place as folders
from cardsim.study.folder import manifest as claims
from cardsim.study.report import multiplicity
from cardsim.study.report import summary as report
from cardsim.study.report.stats import LEVEL
from cardsim.study.folder import storage
from cardsim.study.ladder import run as ladders
from cardsim.study.ladder import tables as ladder_tables
from cardsim.study.plan.spec import Study, StudyError

TABLE, FRESH = storage.REPLICATION, storage.FRESH
REPORT = "report.html"
"""The replication's page, written on request (``cardsim report FOLDER_replication --html``)."""
VERDICTS = ("replicated", "not replicated", "underpowered", "no finding")
POWER = 0.8
"""A fresh run that misses a contrast counts against it only if it would have found an effect of the
original's size with at least this chance; below, the miss is ``underpowered``. (An effect exactly at
the fresh run's simultaneous half-width is found half the time.)"""
LABELS = ("variant", "players", "policy", "effect", "knob", "level", "reference", "knob_b", "level_b",
          "reference_b", "measure")
"""The columns that name a contrast (those a table holds)."""
SHOWN = ("estimate", "lo", "hi", "p_holm", "sim_lo", "sim_hi", "survives")


def contrasts(folder: Path, study: Study) -> pd.DataFrame:
    """A study folder's contrasts, corrected (``multiplicity``): its effects (a sweep or factorial;
    a table written before the corrections is corrected here), a ladder's ratings and generation steps
    (``ladder.tables.contrasts``, one family), or its paired shifts and, where games end in ties, the
    changes of the tie rate (``multiplicity.variant_table``)."""
    if study.ladder is not None:
        ladder = ladders.read(folder)
        return multiplicity.adjust(ladder_tables.contrasts(ladder.ratings, ladder.steps, study.games), study.alpha)
    if study.design is not None:
        effects = report.parse_effects((folder / report.EFFECTS).read_text(encoding="utf-8"),
                                       str(folder / report.EFFECTS))
        if "p_holm" not in effects:
            effects = multiplicity.adjust(effects, study.alpha)
        return effects
    summary = storage.parse_summary((folder / storage.SUMMARY).read_text(encoding="utf-8"),
                                    str(folder / storage.SUMMARY))
    return multiplicity.variant_table(summary, study.baseline, study.alpha)


def power(effect, lo, hi, sim_lo, sim_hi, level: float = LEVEL) -> np.ndarray:
    """The chance that a run whose contrast has the ``level`` interval ``[lo, hi]`` and the simultaneous
    interval ``[sim_lo, sim_hi]`` finds a true effect of size ``effect``: that its estimate clears the
    simultaneous half-width ``h`` on the effect's side, ``Phi((|effect| - h) / se)``, the standard error
    read from the interval (normal: a run holds thousands of games). Holm's step-down is at least as
    lenient as the simultaneous interval, so this is a lower bound."""
    effect, lo, hi, sim_lo, sim_hi = (np.asarray(x, dtype=float) for x in (effect, lo, hi, sim_lo, sim_hi))
    se = (hi - lo) / (2 * special.ndtri(0.5 + level / 2))
    margin = np.abs(effect) - (sim_hi - sim_lo) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        chance = special.ndtr(margin / se)
    return np.where(se > 0, chance, (margin > 0).astype(float))  # a contrast the same in every game


def verdicts(original: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """Each contrast of ``fresh`` beside the same one of ``original`` (``fresh_`` columns), with the
    fresh run's ``power`` for an effect of the original's size and the verdict."""
    keys = [c for c in LABELS if c in original.columns]
    a = original[[*keys, *SHOWN]]
    b = fresh[[*keys, *SHOWN]].rename(columns={c: f"fresh_{c}" for c in SHOWN})
    both = a.merge(b, on=keys, how="inner", validate="one_to_one")  # a part replicated: its contrasts only
    same = np.sign(both.estimate) == np.sign(both.fresh_estimate)
    chance = power(both.estimate, both.fresh_lo, both.fresh_hi, both.fresh_sim_lo, both.fresh_sim_hi)
    fresh_survives = both.fresh_survives.astype(bool)
    verdict = np.where(~both.survives.astype(bool), "no finding",
                       np.where(fresh_survives & same, "replicated",
                                np.where(~fresh_survives & (chance < POWER), "underpowered", "not replicated")))
    return both.assign(fresh_power=chance, verdict=verdict)


def fresh_seed(study: Study) -> int:
    return (study.seed + 1) % SEED_LIMIT


def replicate(folder: str | Path, *, seed: int | None = None, out: str | Path | None = None, jobs: int = 1,
              backend: str = "loky", scheduler: str | None = None, force: bool = False, progress: bool = False,
              resume: bool = False, note: Callable[[str], None] | None = None, players: list[int] | None = None,
              policies: list[str] | None = None, games: int | None = None) -> tuple[Path, pd.DataFrame]:
    """Replicate the study of ``folder`` on the fresh deals of ``seed``; return the replication
    folder and its table (also written as ``TABLE`` there). ``players``, ``policies`` (cell labels,
    as the study's ``policy`` column spells them) and ``games``: replicate only part of it."""
    from cardsim.study.pipeline import note_on_stderr, run_loaded

    folder = Path(folder)
    study = _study(folder)
    if study.ladder is not None and (players or policies):
        raise ValueError(f"--{'players' if players else 'policies'}: a ladder is replicated whole (its ratings "
                         "depend on every policy it seats); --games plays fewer games a seating")
    seed = fresh_seed(study) if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"--seed: expected an integer 0 .. 2**64 - 1, not {seed!r}")
    if seed == study.seed:
        raise ValueError(f"--seed {seed}: the study's own seed; a replication needs fresh deals")
    place = Path(out) if out is not None else folder.parent / f"{folder.name}_replication"
    folders.check_parent(place.absolute().parent, f"--out {place}")
    place.mkdir(exist_ok=True)
    fresh = _part(replace(study, seed=seed, replicate=False), players, policies, games)
    argv = ["cardsim", "replicate", str(folder), "--seed", str(seed), *(["--out", str(out)] if out else []),
            *(["--players", *map(str, players)] if players else []), *(["--policies", *policies] if policies else []),
            *(["--games", str(games)] if games else [])]
    run_loaded(fresh, None, argv, jobs=jobs, out=place / FRESH, backend=backend, scheduler=scheduler,
               force=force, progress=progress, resume=resume, note=note or note_on_stderr)
    return place, tabulate(folder, place, argv)


def tabulate(folder: Path, place: Path, argv: list[str]) -> pd.DataFrame:
    """Write ``place/TABLE`` from the study of ``folder`` and its fresh run ``place/FRESH`` (headed by
    ``argv``, the command that made it); return the table."""
    run = place / FRESH
    study, fresh, table = _study(folder), _study(run), expected(folder, run)
    storage.atomic_write(place / TABLE, lambda p: p.write_text(
        f"# {shlex.join(argv)}: {study.name} (seed {study.seed}) against {run} (seed {fresh.seed}), "
        f"alpha {study.alpha}\n" + table.to_csv(index=False, float_format="%.6g", lineterminator="\n"),
        encoding="utf-8"))
    return table


def _part(study: Study, players: list[int] | None, policies: list[str] | None, games: int | None) -> Study:
    """The study restricted to some of its player counts and policies, at ``games`` games per cell."""
    from cardsim.study.plan.spec import policy_label

    if players:
        unknown = [n for n in players if n not in study.players]
        if unknown:
            raise ValueError(f"--players {unknown[0]}: not a player count of the study ({list(study.players)})")
        study = replace(study, players=tuple(n for n in study.players if n in players))
    if policies:
        labels = [policy_label(p) for p in study.policies]
        unknown = [p for p in policies if p not in labels]
        if unknown:
            raise ValueError(f"--policies {unknown[0]}: not a policy of the study ({', '.join(labels)})")
        study = replace(study, policies=tuple(p for p, label in zip(study.policies, labels) if label in policies))
        if study.skill is not None:
            study = replace(study, skill=None)  # the rungs are the study's policies: a part is no ladder
    if not study.cells():
        raise ValueError("--players and --policies leave no cell of the study to replicate")
    return study if games is None else study.with_games(games)


def expected(original: Path, fresh: Path) -> pd.DataFrame:
    """The table today's verdict rule makes of the study folder ``original`` and its fresh run ``fresh``: a
    profile's tested figures (``cardsim.profile.command.replicated``), else the study's or ladder's contrasts."""
    from cardsim.profile import command as profiles, files as profile_files  # a profile replicates through here

    if (original / profile_files.TABLE).is_file():
        return profiles.replicated(profiles.read(original), profiles.read(fresh))
    return verdicts(contrasts(original, _study(original)), contrasts(fresh, _study(fresh)))


def _study(folder: Path) -> Study:
    """The study of a finished folder, from its manifest."""
    return claims.study_of(storage.read_manifest(folder), folder / storage.MANIFEST)


def differences(place: Path) -> list[str]:
    """What ``cardsim verify`` finds wrong with the table of the replication folder ``place``: its rows, verdicts
    and numbers against ``expected`` of the original beside it (``FOLDER`` of ``FOLDER_replication``, where
    ``replicate`` puts it by default) and of ``place/FRESH``; a ``StudyError`` without that original."""
    original = _original(place)
    if original == place or not (original / storage.MANIFEST).is_file():
        raise StudyError(str(place), None, f"its original study is not beside it ({original}): {TABLE} is checked "
                         f"against the original and {FRESH}/; verify {place / FRESH} alone")
    today, table = expected(original, place / FRESH), read(place / TABLE)
    keys = [c for c in LABELS if c in today.columns]
    labels = lambda t: t[keys].fillna("").astype(str).values.tolist()  # noqa: E731 (an empty label is NaN once read)
    if labels(table) != labels(today):
        return [f"{TABLE}: not the contrasts of {original} and {FRESH}/ (rows or labels differ)"]
    found = [f"{TABLE} line {i + 3}: verdict {a!r}, today's rule gives {b!r}"  # after the command and the header
             for i, (a, b) in enumerate(zip(table.verdict, today.verdict)) if a != b]
    if (place / REPORT).is_file() and (place / REPORT).read_text(encoding="utf-8") != page(place):
        found.append(f"{REPORT}: not the page its {TABLE} renders (`cardsim report {place} --html` writes it again)")
    numbers = [c for c in today.columns if c not in keys and c != "verdict" and c in table.columns]
    for c in numbers:
        a, b = table[c].to_numpy(float), today[c].to_numpy(float)
        off = ~(np.isclose(a, b, rtol=1e-5, atol=1e-12) | (np.isnan(a) & np.isnan(b)))
        found += [f"{TABLE} line {i + 3}: {c} {a[i]:.6g}, its runs give {b[i]:.6g}" for i in np.flatnonzero(off)]
    return found


def write_report(place: Path) -> Path:
    """Write ``place/REPORT``, the replication's page (``report.html.render_replication``); return its path."""
    storage.atomic_write(place / REPORT, lambda p: p.write_text(page(place), encoding="utf-8"))
    return place / REPORT


def page(place: Path) -> str:
    """The replication page of the folder ``place``, from its ``TABLE`` alone."""
    from cardsim.study.report import html

    table = read(place / TABLE)
    command = (place / TABLE).read_text(encoding="utf-8").split("\n", 1)[0].removeprefix("# ")
    return html.render_replication(_original(place).name, command, table,
                                   [c for c in LABELS if c in table.columns])


def _original(place: Path) -> Path:
    """The study folder beside the replication folder ``place`` whose replication it is by ``replicate``'s default
    name (``FOLDER`` of ``FOLDER_replication``); ``place`` itself for another name."""
    return place.parent / place.name.removesuffix("_replication")


def read(path: str | Path) -> pd.DataFrame:
    """A ``replication.csv`` (its first line, the command, skipped)."""
    return pd.read_csv(path, comment=None, skiprows=1, keep_default_na=False, na_values=[""],
                       dtype={c: "str" for c in LABELS if c not in ("players",)})


def counts(table: pd.DataFrame) -> str:
    """One line: how many contrasts got each verdict."""
    return ", ".join(f"{int((table.verdict == v).sum())} {v}" for v in VERDICTS)
