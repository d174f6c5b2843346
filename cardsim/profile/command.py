"""``run_profile``: what ``cardsim profile GAME VARIANT...`` calls — build the profile's study, run it.

The study (``profile_study``) has one variant per rules string (named by it; the first is the
baseline), the given player counts and a ``[profile]`` section; it is checked like a study file
and run by the study layer into ``results/profile_<game>`` unless ``out`` says otherwise. With
``replicate`` the same profile is run again on fresh deals (``replication.fresh_seed``) into
``<out>_replication/fresh``, and ``<out>_replication/replication.csv`` holds every tested figure
of both runs with its verdict (``cardsim.study.replication.verdicts``).
"""
from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd

from cardsim import api
from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, integer_expected
from cardsim.profile import files, table as tables
from cardsim.study import replication
from cardsim.study.folder import storage
from cardsim.study.pipeline import note_on_stderr, run_loaded
from cardsim.study.plan.spec import Study, StudyError

WHERE = "cardsim profile"
GAMES = 20_000


def profile_study(game: str, rules: Sequence[str], *, players: Sequence[int] = (4,), games: int = GAMES,
                  seed: int = 0, policy: str | None = None, ladder: Sequence[str] | None = None,
                  options: Sequence[str] | None = None, replays: int | None = None,
                  engine: str = "compiled") -> Study:
    """The study of a profile of the variants ``rules`` (``ValueError``, one line, for anything that cannot run)."""
    for option, value, least, limit in (("--games", games, 1, GAME_LIMIT), ("--seed", seed, 0, SEED_LIMIT)):
        expected = integer_expected(value, least, limit)
        if expected:
            raise ValueError(f"{option}: expected {expected}, not {value!r}")
    variants = {}
    for text in rules or [None]:
        r = api.rules(game, text)
        name = r.describe() if text is None else text.strip()
        if name in variants:
            raise StudyError(WHERE, "VARIANT", f"{text!r} is given twice")
        variants[name] = r.to_dict()
    section = {k: v for k, v in (("policy", policy), ("ladder", None if ladder is None else list(ladder)),
                                 ("options", None if options is None else list(options)),
                                 ("replays", replays)) if v is not None}
    return Study.from_dict({"name": f"profile_{game}", "description": f"balance profile of {game}: "
                            + ", ".join(variants), "game": game, "seed": seed, "games": games,
                            "players": list(players), "variants": variants, "baseline": next(iter(variants)),
                            "engine": engine, "profile": section}, where=WHERE)


def command(study: Study, out: str | Path | None, replicate: bool = False) -> list[str]:
    """The ``cardsim profile`` command line that re-creates the folder, word by word."""
    p = study.profile
    return ["cardsim", "profile", study.game, *study.variants, "--players", *map(str, study.players),
            "--games", str(study.games), "--seed", str(study.seed), "--policy", p.policy,
            "--ladder", ",".join(p.ladder), "--options", ",".join(p.options), "--replays", str(p.replays),
            *(["--engine", study.engine] if study.engine != "compiled" else []),
            *(["--out", str(out)] if out is not None else []), *(["--replicate"] if replicate else [])]


def run_profile(study: Study, *, out: str | Path | None = None, jobs: int = 1, force: bool = False,
                progress: bool = False, resume: bool = False, replicate: bool = False,
                argv: list[str] | None = None, note: Callable[[str], None] = note_on_stderr) -> Path:
    """Run the profile ``study`` (``profile_study``, or a study file with ``[profile]``); return its folder."""
    argv = argv or command(study, out, replicate)
    folder = run_loaded(study, None, argv, jobs=jobs, out=out, force=force, progress=progress, resume=resume,
                        note=note)
    if replicate:
        place = folder.parent / f"{folder.name}_replication"
        place.mkdir(exist_ok=True)
        fresh = run_loaded(replace(study, seed=replication.fresh_seed(study)), None, argv, jobs=jobs,
                           out=place / replication.FRESH, force=force, progress=progress, note=note)
        table = replicated(read(folder), read(fresh))
        storage.atomic_write(place / replication.TABLE, lambda p: p.write_text(
            f"# {shlex.join(argv)}: {folder} (seed {study.seed}) against {fresh} "
            f"(seed {replication.fresh_seed(study)})\n" + tables.csv_text(table), encoding="utf-8"))
    return folder


def read(folder: str | Path) -> pd.DataFrame:
    """A profile folder's ``profile.csv``."""
    return tables.parse((Path(folder) / files.TABLE).read_text(encoding="utf-8"))


def replicated(original: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """Every tested figure of both runs with its verdict; estimates and intervals are taken from their
    null (a luck share's 1), so that a verdict's "same sign" is "the same side of no effect"."""
    def shifted(t: pd.DataFrame) -> pd.DataFrame:
        t = t.loc[t.null.notna()].copy()
        for c in ("estimate", "lo", "hi", "sim_lo", "sim_hi"):
            t[c] = t[c] - t.null
        return t

    return replication.verdicts(shifted(original), shifted(fresh))
