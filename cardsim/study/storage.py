"""A study's folder on disk: atomic writes, ``games.parquet``, ``manifest.json``, hashes.

Every file is written to a temporary name in the same folder and renamed into
place (``os.replace``), so a killed run never leaves a half-written file under its
real name. ``manifest.json`` is written last: a folder is a complete study exactly
when it has one. Nothing here simulates or computes statistics.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from cardsim.study.spec import StudyError

GAMES = "games.parquet"
SUMMARY = "summary.csv"
MANIFEST = "manifest.json"


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary path beside ``path``, then rename it to ``path``."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_games(games: pd.DataFrame, folder: Path) -> str:
    """Write ``games.parquet``; return the sha256 of its bytes."""
    atomic_write(folder / GAMES, lambda p: games.to_parquet(p, index=False, engine="pyarrow"))
    return sha256(folder / GAMES)


def read_games(folder: Path) -> pd.DataFrame:
    return pd.read_parquet(folder / GAMES, engine="pyarrow")


def write_summary(summary: pd.DataFrame, folder: Path) -> None:
    atomic_write(folder / SUMMARY, lambda p: summary.to_csv(p, index=False, float_format="%.6g"))


def write_manifest(manifest: dict[str, Any], folder: Path) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=True, allow_nan=False) + "\n"
    atomic_write(folder / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a complete study folder; a ``StudyError`` when there is none."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StudyError(str(folder), None, f"no {MANIFEST}: not a complete study folder") from None
    except (OSError, ValueError) as err:
        raise StudyError(str(path), None, f"unreadable manifest ({err})") from None
    if not isinstance(manifest, dict) or "study" not in manifest:
        raise StudyError(str(path), "study", "missing; not a cardsim manifest")
    if not (folder / GAMES).exists():
        raise StudyError(str(folder), None, f"no {GAMES} beside the manifest")
    return manifest


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_folder(folder: Path, study: dict[str, Any], force: bool) -> None:
    """Refuse (unless ``force``) a folder whose manifest holds another study; writes nothing."""
    path = folder / MANIFEST
    study = json.loads(json.dumps(study))  # as a manifest holds it: lists, not tuples
    if path.exists() and not force:
        try:
            held = json.loads(path.read_text(encoding="utf-8")).get("study")
        except (OSError, ValueError, AttributeError):
            held = None
        if held != study:
            name = held.get("name", "?") if isinstance(held, dict) else "an unreadable study"
            raise StudyError(str(folder), None, f"holds results of a different study ({name}); "
                             "use --force to overwrite or --out to choose another folder")


def open_folder(folder: Path) -> None:
    """Create the folder and remove its old manifest before any new file lands beside it,
    so that new records never sit beside an old manifest if the run is killed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST).unlink(missing_ok=True)
