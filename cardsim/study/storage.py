"""A study's folder on disk: atomic writes, ``games.parquet``, ``sample.csv``, ``manifest.json``, digests.

Every file is written to a temporary name in the same folder and renamed into
place (``os.replace``), so a killed run never leaves a half-written file under its
real name. ``games.parquet`` is written chunk by chunk as the games are played
(``stream_games``), so playing a study holds only the chunks in flight; a run killed then
leaves at most its ``games.parquet.tmp-<pid>``, which the next run into the folder
removes. ``manifest.json`` is written last: a folder is a complete study exactly
when it has one. ``games.parquet`` is too large to commit; ``sample.csv`` (the rows of
a few game indices spread over the study, text that diffs) is what a committed
folder keeps to be verified. Nothing here simulates or computes statistics.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.study.spec import StudyError

GAMES = "games.parquet"
SAMPLE = "sample.csv"
SUMMARY = "summary.csv"
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 2
"""2: records and sample checked by ``records_digest`` (1: the sha256 of the parquet file's bytes)."""
SAMPLE_GAMES = 25
"""Game indices per cell kept in ``sample.csv``."""
DIGEST = ("sha256 of 'cardsim-records-v1', the row count, then per column in order: its name, its dtype "
          "('<i8', '|b1', ... or 'utf-8') and its values (little-endian bytes, or UTF-8 strings each "
          "followed by NUL), every text field followed by NUL")
"""``records_digest`` in words, as the manifest states it: a digest another program can recompute."""
_STRINGS = 1 << 16
"""Strings hashed per block: a digest of millions of rows never joins them all at once."""
ROW_GROUP = 1 << 18
"""Rows per parquet row group: large enough to compress well, small enough to read one at a time."""


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp)`` on a temporary path beside ``path``, then rename it to ``path``."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def records_digest(records: pd.DataFrame) -> str:
    """The canonical digest of a table of records (``DIGEST``): the same rows, columns and
    dtypes give the same digest whatever wrote or read them (parquet, CSV, pandas version)."""
    return _digest(len(records), ((name, [records[name]]) for name in records.columns))


def parquet_digest(path: Path) -> str:
    """``records_digest`` of a parquet file's records, read one column of one row group at a
    time: the digest of a study larger than memory."""
    f = pq.ParquetFile(path)
    groups = range(f.num_row_groups)
    return _digest(f.metadata.num_rows, ((name, (f.read_row_group(i, columns=[name]).column(0).to_pandas()
                                                 for i in groups)) for name in f.schema_arrow.names))


def _digest(rows: int, columns) -> str:
    """``DIGEST`` of ``rows`` rows given as (name, that column's consecutive pieces) per column."""
    h = hashlib.sha256(f"cardsim-records-v1\0{rows}\0".encode())
    for name, pieces in columns:
        head = None
        for col in pieces:
            text = pd.api.types.is_string_dtype(col.dtype) or col.dtype == object
            if head is None:
                dtype = None if text else np.dtype(col.dtype).newbyteorder("<")
                head = f"{name}\0{'utf-8' if text else dtype.str}\0"
                h.update(head.encode())
            if text:
                values = col.astype(str).tolist()
                for i in range(0, len(values), _STRINGS):
                    h.update("".join(v + "\0" for v in values[i:i + _STRINGS]).encode("utf-8"))
            else:
                h.update(np.ascontiguousarray(col.to_numpy(), dtype=dtype).tobytes())
    return h.hexdigest()


def sample_games(games: int, k: int = SAMPLE_GAMES) -> np.ndarray:
    """``k`` game indices spread evenly over ``0 .. games - 1``, the first and the last among them:
    ``i * (games - 1) // (k - 1)`` for ``i = 0 .. k - 1`` (integers only: the same on every machine)."""
    k = min(k, games)
    return np.arange(k, dtype=np.int64) * (games - 1) // max(k - 1, 1)


def write_games(games: pd.DataFrame, folder: Path) -> str:
    """Write ``games.parquet`` from one table; return the records' digest."""
    return stream_games([games], folder)


def stream_games(parts: Iterable[pd.DataFrame], folder: Path, *,
                 before_rename: Callable[[], None] = lambda: None) -> str:
    """Write ``games.parquet`` from consecutive tables of records as they come; return the digest.

    The rows go to a temporary file beside it (a killed run's leftover is removed first);
    ``before_rename()`` is called once they are all there (``run_study`` removes the old
    manifest at that moment, so old records never sit beside a manifest of new ones).
    """
    path = folder / GAMES
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(f"{GAMES}.tmp-*"):
        stale.unlink()

    def write(tmp: Path) -> None:
        writer, pending = None, []
        try:
            for part in parts:
                table = pa.Table.from_pandas(part, preserve_index=False,
                                             schema=None if writer is None else writer.schema)
                if writer is None:
                    writer = pq.ParquetWriter(tmp, table.schema)
                pending.append(table)
                if sum(len(t) for t in pending) >= ROW_GROUP:
                    _write_row_group(writer, pending)
                    pending = []
            if writer is None:
                raise ValueError("no records to write")
            if pending:
                _write_row_group(writer, pending)
        finally:
            if writer is not None:
                writer.close()
        before_rename()

    atomic_write(path, write)
    return parquet_digest(path)


def _write_row_group(writer: pq.ParquetWriter, tables: list[pa.Table]) -> None:
    table = pa.concat_tables(tables)
    writer.write_table(table, row_group_size=len(table))


def read_games(folder: Path, games: Iterable[int] | None = None, where: dict[str, Any] | None = None,
               columns: list[str] | None = None) -> pd.DataFrame:
    """The study's records: all of them, only the game indices ``games``, only the rows whose
    columns equal ``where``'s values, only ``columns``, or any of these together. A
    ``StudyError`` naming what to do when there are none."""
    if not (folder / GAMES).exists():
        raise StudyError(str(folder), None, f"no {GAMES} (the full records are not committed); "
                         "re-create them with `cardsim run` on the study file of the manifest")
    filters = [(k, "==", v) for k, v in (where or {}).items()]
    if games is not None:
        filters.append(("game", "in", [int(i) for i in games]))
    return pd.read_parquet(folder / GAMES, engine="pyarrow", filters=filters or None, columns=columns)


def write_sample(sample: pd.DataFrame, folder: Path) -> str:
    """Write ``sample.csv`` (plain text, one row per sampled game and cell); return its records' digest."""
    atomic_write(folder / SAMPLE, lambda p: sample.to_csv(p, index=False, lineterminator="\n"))
    return records_digest(sample)


def read_sample(folder: Path, dtypes: dict[str, str]) -> pd.DataFrame:
    """``sample.csv`` with the records' dtypes (``dtypes``: column -> dtype, in order)."""
    try:
        sample = pd.read_csv(folder / SAMPLE, dtype=dtypes, na_filter=False)
    except FileNotFoundError:
        raise StudyError(str(folder), None, f"no {SAMPLE} beside the manifest") from None
    except ValueError as err:
        raise StudyError(str(folder / SAMPLE), None, f"unreadable sample ({err})") from None
    if list(sample.columns) != list(dtypes):
        raise StudyError(str(folder / SAMPLE), None, f"expected the columns {', '.join(dtypes)}")
    return sample


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
    if manifest.get("format") != MANIFEST_FORMAT:
        raise StudyError(str(path), "format", f"{manifest.get('format')!r}; this cardsim reads format "
                         f"{MANIFEST_FORMAT}: re-run the study")
    return manifest


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
    """Remove the folder's old manifest before any new file lands under its real name,
    so that new records never sit beside an old manifest if the run is killed."""
    (folder / MANIFEST).unlink(missing_ok=True)
