"""What a study folder claims: its ``manifest.json``, made at the end of a run and checked by ``verify``.

The manifest holds the whole study (every variant's rules in full), and much that
follows from it: the seed, the rules again in readable form (``describe`` and the
knobs), the engine, the cells (and what names each user policy they seat), the number of records, the sampled game indices, the
files written. ``build`` derives all of these from the study; ``check`` derives them
again from the manifest's own study and lists every claim that disagrees, so an edit
to any one of them is found. A manifest missing a key or holding a value of the wrong
kind is one ``StudyError`` line (it cannot be checked at all).

What cannot be derived again is **informational** (``INFORMATIONAL``, listed in the
manifest itself): the study's name and description, where and how it was run, when,
on what machine, how fast. These are the run's word, and the report shows them as
such. The **seal** (format 4) covers them and everything else: the sha256 of every
other field (``SEAL``), so an edit to any field after the run is found by ``verify``.
It is a check against edits, not a signature: whoever edits a field on purpose can
compute the seal again, as they can every sha256 of the folder; the records
themselves are checked by re-running games.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import platform
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import matplotlib
import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import scipy

import cardsim
from cardsim import games as registry
from cardsim.api import ALIASES
from cardsim.core import models
from cardsim.learn import auto
from cardsim.play.user import is_user_spec, load
from cardsim.study.folder import storage
from cardsim.study.plan.tasks import engine_for
from cardsim.study.plan.spec import Study, StudyError

_SHAPE = {"study": dict, "seed": int, "rules": dict, "engine": str, "cells": list, "records": dict, "sample": dict,
          "digest": str, "outputs": list}
_SHAPE_3 = {"run": str, "files": dict, "machine": dict}
_SHAPE_4 = {"seal": str, "informational": list}
INFORMATIONAL = ("study.name", "study.description", "study_file", "command", "cwd", "run", "package", "machine",
                 "execution", "timings", "created", "reported")
"""Manifest fields that follow from nothing else in the folder (``cwd``: the folder ``command`` and ``study_file``
are relative to; ``reported``: when ``cardsim report`` re-rendered it): the seal covers them, nothing derives them
again."""
SEAL = ("sha256 of the manifest's JSON without its seal: keys sorted, separators ',' and ':', non-ASCII "
        "characters as they are, UTF-8")
"""The seal in words, as another program can compute it."""
_KINDS = {dict: "a table", list: "a list", str: "a string", int: "an integer"}
_RECORDS = {"file": str, "rows": int, "digest": str}
_SAMPLE = {"file": str, "rows": int, "games": list, "digest": str}


def build(study: Study, *, run: str, study_file: str, outputs: list[str], files: dict[str, str],
          records: dict[str, Any], sample: dict[str, Any], execution: dict[str, Any], timings: dict[str, float],
          git: dict[str, Any] | None, command: list[str] | None = None,
          precision: dict[str, Any] | None = None) -> dict[str, Any]:
    """The manifest of a finished run (``records``: rows and digest; ``sample``: rows, games, digest;
    ``command``: the command line that re-creates it; ``precision``: the stopping rule of a run
    stepped to a precision and the steps it took)."""
    return sealed({
        "format": storage.MANIFEST_FORMAT,
        "run": run,
        **claims(study),
        "study_file": study_file,
        "records": {"file": storage.GAMES, **records},
        "sample": {"file": storage.SAMPLE, **sample},
        "outputs": outputs,
        "files": files,
        "package": {"name": "cardsim", "version": cardsim.__version__, "git": git,
                    "protocol": {study.game: registry.spec(study.game).protocol}},
        "machine": {"node": platform.node(), "platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count(), "numpy": np.__version__, "pandas": pd.__version__,
                    "pyarrow": pa.__version__, "matplotlib": matplotlib.__version__, "numba": numba.__version__,
                    "scipy": scipy.__version__},
        "execution": execution,
        "timings": timings,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **({"command": command, "cwd": os.getcwd()} if command else {}),
        **({"precision": precision} if precision else {}),
        "informational": list(INFORMATIONAL),
    })


def sealed(manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` with its seal (``SEAL``), computed again (a re-rendered folder's manifest changes)."""
    return manifest | {"seal": seal(manifest)}


def seal(manifest: dict[str, Any]) -> str:
    """The sha256 of every field of ``manifest`` but its seal (``SEAL``)."""
    fields = {k: v for k, v in manifest.items() if k != "seal"}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def claims(study: Study) -> dict[str, Any]:
    """Everything the manifest says that follows from the study alone (as JSON holds it)."""
    cells = study.cells()
    played = _models(study, cells)
    return json.loads(json.dumps({
        "study": study.to_dict(),
        "seed": study.seed,
        "rules": {v: {"describe": r.describe(), "knobs": r.to_dict()} for v, r in study.variants.items()},
        "engine": engine_for(study),
        "cells": [{"variant": c.variant, "players": c.players, "policy": c.policy, "seats": list(c.seats)}
                  for c in cells],
        "digest": storage.DIGEST,
        **({"models": played} if played else {}),
        **user_policies(cells),
    }))


def _default_model(game: str) -> str | None:
    """The game's ``learned`` model when none is named; None for a game without models (one plugged in from
    outside the package included)."""
    try:
        return importlib.import_module(f"cardsim.games.{game}.policies").DEFAULT_MODEL
    except (ImportError, AttributeError):
        return None


def _named(seats) -> list[str]:
    """The seat policy strings that name their models (not user policies, not ``learned(model=auto)``)."""
    return [s for s in seats if not is_user_spec(s) and not auto.plays_auto(s)]


def untuned(study: Study) -> list[str]:
    """One line per named model the study plays under other rules or another player count than it was trained
    for (``core.models.untuned``): said once before the games, which then play without the warning."""
    default = _default_model(study.game)
    if default is None:
        return []
    return models.untuned(study.game, [(study.variants[c.variant].describe(), c.players, _named(c.seats))
                                       for c in study.cells()], default)


def _models(study: Study, cells: list) -> dict[str, str]:
    """The digests of the ``learned`` models the cells' seats play, by name, and of each cell's own model where
    a seat plays ``learned(model=auto)`` (``learn.auto.digests``, by cell); none for a game without them, a game
    plugged in from outside the package included; user policies are ``user_policies``'."""
    game = study.game
    default = _default_model(game)
    if default is None:
        return {}
    seats = [s for c in cells for s in c.seats if not is_user_spec(s)]
    named = models.digests(game, dict.fromkeys(_named(seats)), default)
    own = auto.digests(game, [(study.variants[c.variant], c.players, c.seats) for c in cells])
    return dict(sorted((named | own).items()))


def user_policies(cells) -> dict[str, Any]:
    """``{"user_policies": [...]}``, what names each user policy the cells seat (``cardsim.play.user``:
    spec, module, qualified name, file and its sha256, time limit); nothing when there is none, so
    the manifests of studies of built-in policies are as they were."""
    specs = dict.fromkeys(p for c in cells for p in c.seats if is_user_spec(p))
    return {"user_policies": [load(s).provenance() for s in specs]} if specs else {}


def study_of(manifest: dict[str, Any], path: Path, played: bool = True) -> Study:
    """The manifest's study, its variants in the order they were run (the order of its ``cells``: the
    manifest's JSON keeps its keys sorted, and the cell order is the order of the records).
    ``StudyError`` (one line) for a manifest that is not one this version can check. ``played=False``: its
    policies parsed, not played (``Study.from_dict``), for a caller that only draws or re-writes tables."""
    where = str(path)
    fmt = manifest.get("format")
    _shape(where, None, manifest, _SHAPE | (_SHAPE_3 if fmt in (3, 4, 5) else {}) | (_SHAPE_4 if fmt in (4, 5) else {}))
    _shape(where, "records", manifest["records"], _RECORDS)
    _shape(where, "sample", manifest["sample"], _SAMPLE)
    names = [*manifest["outputs"], *manifest.get("files", {}), *manifest.get("files", {}).values()]
    if not all(isinstance(n, str) and n for n in names):
        raise StudyError(where, "outputs", "expected file names (and their sha256 in files)")
    study = Study.from_dict(manifest["study"], where=f"{where}: study", played=played)
    ran = [c.get("variant") if isinstance(c, dict) else None for c in manifest["cells"]]
    order = dict.fromkeys([*(v for v in ran if v in study.variants), *study.variants])
    return replace(study, variants={v: study.variants[v] for v in order})


def check(manifest: dict[str, Any], study: Study, outputs: Callable[[Study, int], list[str]]) -> list[str]:
    """One line per claim of the manifest that its own study does not give; ``outputs``: the files a study
    writes, as a folder of a manifest format holds them (``report.summary.outputs``, handed in by ``verify``:
    the folder checks what it claims, the report says what it writes)."""
    expected = claims(study)
    rows = study.games * len(study.cells())
    sampled = storage.sample_games(study.games).tolist()
    held = manifest | {"engine": ALIASES.get(manifest["engine"], manifest["engine"]),  # "vector" ran "compiled"
                       "rules": _with_later_knobs(manifest["rules"], study)}
    problems = [f"manifest.json: {key} is not the study's ({_short(held.get(key))}; the study gives "
                f"{_short(value)})" for key, value in expected.items()
                if key not in ("study", "models") and held.get(key) != value]
    problems += _models_differ(held.get("models"), expected.get("models"), study.game)
    records, sample = manifest["records"], manifest["sample"]
    for key, have, want in (("records.file", records["file"], storage.GAMES), ("records.rows", records["rows"], rows),
                            ("sample.file", sample["file"], storage.SAMPLE), ("sample.games", sample["games"], sampled),
                            ("sample.rows", sample["rows"], len(sampled) * len(study.cells())),
                            ("outputs", manifest["outputs"], outputs(study, manifest["format"]))):
        if have != want:
            problems.append(f"manifest.json: {key} is not the study's ({_short(have)}; the study gives {_short(want)})")
    if manifest.get("format") in (3, 4, 5) and sorted(manifest["files"]) != sorted([*outputs(study, manifest["format"]),
                                                                                    storage.SAMPLE]):
        problems.append("manifest.json: files does not list the sample, the summary and every plot")
    if manifest.get("format") in (4, 5):
        if manifest["seal"] != seal(manifest):
            problems.append("manifest.json: edited after the run (its seal is not the sha256 of its fields; "
                            "informational ones included)")
        if manifest["informational"] != list(INFORMATIONAL):
            problems.append(f"manifest.json: informational is not {', '.join(INFORMATIONAL)}")
    return problems


def _models_differ(held: Any, here: Any, game: str) -> list[str]:
    """One line per model whose digest here is not the one the manifest names (or one line if the two do not
    name the same models): an ``auto`` model trained again on another machine can differ in its last bits
    (its fit's floating point follows the CPU's kernels, docs/ladder.md), so its line says where to get the
    study's own."""
    if held == here:
        return []
    if not isinstance(held, dict) or not isinstance(here, dict) or sorted(held) != sorted(here):
        return [f"manifest.json: models is not the study's ({_short(held)}; the study gives {_short(here)})"]
    out = []
    for name in sorted(k for k in held if held[k] != here[k]):
        hint = (f"trained again here? a model's fit can differ between machines: copy "
                f"${auto.VARIABLE}/{game}/ from where the study ran" if name.startswith(f"{auto.AUTO}: ")
                else "the model file changed since the run")
        out.append(f"manifest.json: model {name!r} is {str(here[name])[:19]}… here, not the study's "
                   f"{str(held[name])[:19]}… ({hint})")
    return out


def _later_knobs(knobs: Any, rules: Any) -> Any:
    """A variant's knobs as a manifest holds them, with each knob its game gained after the folder was written
    at its default: a new knob's default plays the game as before it (docs/design.md, "Records stay"), so
    the folder's records are those of ``rules`` now. A knob ``rules`` sets otherwise stays missing: a
    difference."""
    if rules is None or not isinstance(knobs, dict):
        return knobs
    defaults = type(rules)().to_dict()
    return knobs | {k: v for k, v in rules.to_dict().items() if k not in knobs and v == defaults[k]}


def _with_later_knobs(rules: Any, study: Study) -> Any:
    """A manifest's ``rules`` with ``_later_knobs`` in every variant's ``knobs``."""
    if not isinstance(rules, dict):
        return rules
    return {name: entry | {"knobs": _later_knobs(entry.get("knobs"), study.variants.get(name))}
            if isinstance(entry, dict) else entry for name, entry in rules.items()}


def held_study(held: Any, study: Study) -> Any:
    """A manifest's ``study`` with ``_later_knobs`` in every variant: what to compare with ``claims(study)``'s."""
    if not isinstance(held, dict) or not isinstance(held.get("variants"), dict):
        return held
    return held | {"variants": {name: _later_knobs(knobs, study.variants.get(name))
                                for name, knobs in held["variants"].items()}}


def describes(manifest: dict[str, Any], study: Study) -> bool:
    """Whether the folder of ``manifest`` holds ``study`` (a knob added since it was written read at its
    default)."""
    return held_study(manifest.get("study"), study) == claims(study)["study"]


def informational(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The fields of ``manifest`` that nothing derives again, as it lists them (earlier formats: ``INFORMATIONAL``)."""
    listed = manifest.get("informational")
    return tuple(listed) if isinstance(listed, list) else INFORMATIONAL


def _shape(where: str, key: str | None, data: object, shape: dict[str, type]) -> None:
    if not isinstance(data, dict):
        raise StudyError(where, key, f"expected a table, not {_short(data)}")
    for name, kind in shape.items():
        full = f"{key}.{name}" if key else name
        if name not in data:
            raise StudyError(where, full, "missing; not a complete cardsim manifest")
        value = data[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise StudyError(where, full, f"expected {_KINDS[kind]}, not {_short(value)}")


def _short(value: object, most: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."
