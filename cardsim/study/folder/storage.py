"""The files of a study folder: ``games.parquet``, ``sample.csv``, ``summary.csv``, ``manifest.json``, digests.

Every file is written under a temporary name beside its real one and renamed into
place (``atomic_write``), so no file is ever half-written under its real name; the
folder as a whole is replaced all or nothing by ``folder``. ``games.parquet`` is too
large to commit; ``sample.csv`` (the rows of a few game indices spread over the
study, text that diffs) is what a committed folder keeps to be verified. The
manifest holds two digests of record *values* (``records_digest``: the same rows give
the same digest whatever wrote them) and the sha256 of every other file it lists
(``file_digest``). Nothing here simulates or computes statistics; every unreadable
file is a ``StudyError`` naming it.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from cardsim.study.hooks import NONE, Hooks
from cardsim.study.plan.spec import StudyError

GAMES = "games.parquet"
SAMPLE = "sample.csv"
SUMMARY = "summary.csv"
MANIFEST = "manifest.json"
REPLICATION, FRESH = "replication.csv", "fresh"
"""A replication's folder (``cardsim.study.replication``): its table, and its fresh run's study folder."""
MANIFEST_FORMAT = 5
"""5: a ladder that seats generations of a learned model writes its generation steps (``steps.csv``, and in
``ladder.txt``); 4: adds the seal (the sha256 of every other field) and the list of informational fields; 3: adds
the run id, the sha256 of every file, the matplotlib version (2: records and sample checked by
``records_digest``; 1: the sha256 of the parquet file's bytes)."""
READS = (2, 3, 4, 5)
"""Manifest formats this version reads (a format 2 folder is verified without its file digests, a format 2
or 3 folder without a seal)."""
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
    h = hashlib.sha256(f"cardsim-records-v1\0{len(records)}\0".encode())
    for name in records.columns:
        col = records[name]
        text = pd.api.types.is_string_dtype(col.dtype) or col.dtype == object
        h.update(f"{name}\0{'utf-8' if text else np.dtype(col.dtype).newbyteorder('<').str}\0".encode())
        for block in _pandas_bytes(col):
            h.update(block)
    return h.hexdigest()


def parquet_digest(path: Path) -> str:
    """``records_digest`` of a parquet file's records, read one column of one row group at a
    time: the digest of a study larger than memory."""
    with _readable(path):
        f = pq.ParquetFile(path)
        groups = range(f.num_row_groups)
        h = hashlib.sha256(f"cardsim-records-v1\0{f.metadata.num_rows}\0".encode())
        for name in f.schema_arrow.names:
            head = None
            for i in groups:
                col = f.read_row_group(i, columns=[name]).column(0)
                if head is None:
                    head = _arrow_head(name, col.type)
                    h.update(head)
                for block in _arrow_bytes(col):
                    h.update(block)
        return h.hexdigest()


class RecordsDigest:
    """``records_digest`` of tables of records given one after another (``write_parquet``'s ``watch``):
    the digest computed while ``games.parquet`` is written, never read back. ``DIGEST`` hashes column
    after column, so each column's bytes go to a temporary file of their own in ``folder`` as the tables
    come (a study larger than memory), and are hashed in column order by ``hexdigest``, which removes them."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.rows = folder, 0
        self._heads: list[bytes] = []
        self._files: list[Any] = []

    def __call__(self, table: pa.Table) -> None:
        if not self._files:  # temporary names: a killed run's leftovers are removed with the others
            self._heads = [_arrow_head(name, t) for name, t in zip(table.schema.names, table.schema.types)]
            self._files = [open(self.folder / f"{GAMES}.column-{i}.tmp-{os.getpid()}", "wb")
                           for i in range(table.num_columns)]
        for f, col in zip(self._files, table.columns):
            for block in _arrow_bytes(col):
                f.write(block)
        self.rows += len(table)

    def hexdigest(self) -> str:
        h = hashlib.sha256(f"cardsim-records-v1\0{self.rows}\0".encode())
        try:
            for head, f in zip(self._heads, self._files):
                f.close()
                h.update(head)
                with open(f.name, "rb") as spilled:
                    for block in iter(lambda: spilled.read(1 << 22), b""):
                        h.update(block)
        finally:
            self.discard()
        return h.hexdigest()

    def discard(self) -> None:
        """Remove the spilled column files (also when the run stops before ``hexdigest``)."""
        for f in self._files:
            f.close()
            Path(f.name).unlink(missing_ok=True)
        self._files = []


class SampleRows:
    """The rows of the game indices ``games`` among tables of records given one after another
    (``write_parquet``'s ``watch``): ``read_games(folder, games=games)`` without reading the file."""

    def __init__(self, games: np.ndarray) -> None:
        self.games = pa.array(np.asarray(games, dtype=np.int64))
        self._parts: list[pa.Table] = []

    def __call__(self, table: pa.Table) -> None:
        self._parts.append(table.filter(pc.is_in(table.column("game"), value_set=self.games)))

    def frame(self) -> pd.DataFrame:
        return pa.concat_tables(self._parts).to_pandas()


class Columns:
    """The columns ``names`` of a run's pieces of records, kept in memory as each is kept (``add``, in any
    order): what the summary reads, without waiting for ``games.parquet`` or reading it back."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self._parts: dict[int, pa.Table] = {}

    def add(self, task: int, table: pa.Table) -> None:
        """Keep the columns of task ``task``'s records (its piece's ``table``)."""
        self._parts[task] = table.select(self.names)

    def frame(self) -> pd.DataFrame:
        """The columns, in task order, as ``read_games(folder, columns=names)`` reads them once the pieces are
        assembled into ``games.parquet``."""
        return pa.concat_tables([self._parts[t] for t in sorted(self._parts)]).to_pandas()


def _arrow_head(name: str, kind: pa.DataType) -> bytes:
    """A column's head in ``DIGEST`` (its name and dtype as pandas reads the column)."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    text = pa.types.is_string(kind) or pa.types.is_large_string(kind)
    return f"{name}\0{'utf-8' if text else np.dtype(kind.to_pandas_dtype()).newbyteorder('<').str}\0".encode()


def _arrow_bytes(col: pa.ChunkedArray | pa.Array) -> Iterator[bytes]:
    """A column's values as ``DIGEST`` hashes them, block by block, straight from arrow's buffers: a
    string column's UTF-8 bytes with a NUL after each value (no Python string per value)."""
    for chunk in col.chunks if isinstance(col, pa.ChunkedArray) else [col]:
        if pa.types.is_dictionary(chunk.type):
            chunk = chunk.dictionary_decode()
        if chunk.null_count:  # records have no nulls; a table that does is hashed as pandas reads it
            yield from _pandas_bytes(chunk.to_pandas())
        elif pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type):
            wide = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
            _, offsets, data = chunk.buffers()
            ends = np.frombuffer(offsets, dtype=wide)[chunk.offset:chunk.offset + len(chunk) + 1].astype(np.int64)
            text = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
            yield np.insert(text[ends[0]:ends[-1]], ends[1:] - ends[0], 0).tobytes()
        else:
            dtype = np.dtype(chunk.type.to_pandas_dtype()).newbyteorder("<")
            yield np.ascontiguousarray(chunk.to_numpy(zero_copy_only=False), dtype=dtype).tobytes()


def _pandas_bytes(col: pd.Series) -> Iterator[bytes]:
    """A pandas column's values as ``DIGEST`` hashes them."""
    if pd.api.types.is_string_dtype(col.dtype) or col.dtype == object:
        values = col.astype(str).tolist()
        for i in range(0, len(values), _STRINGS):
            yield "".join(v + "\0" for v in values[i:i + _STRINGS]).encode("utf-8")
    else:
        yield np.ascontiguousarray(col.to_numpy(), dtype=np.dtype(col.dtype).newbyteorder("<")).tobytes()


def file_digest(path: Path) -> str:
    """The sha256 of a file's bytes (the manifest's ``files``)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@contextmanager
def _readable(path: Path) -> Iterator[None]:
    """Turn a parquet file that cannot be read into one ``StudyError`` line naming it."""
    try:
        yield
    except FileNotFoundError:
        raise StudyError(str(path), None, "missing") from None
    except (OSError, pa.ArrowException, ValueError) as err:
        if isinstance(err, StudyError):
            raise
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise StudyError(str(path), None, f"unreadable parquet ({reason})") from None


def sample_games(games: int, k: int = SAMPLE_GAMES) -> np.ndarray:
    """``k`` game indices spread evenly over ``0 .. games - 1``, the first and the last among them:
    ``i * (games - 1) // (k - 1)`` for ``i = 0 .. k - 1`` (integers only: the same on every machine)."""
    k = min(k, games)
    return np.array([i * (games - 1) // max(k - 1, 1) for i in range(k)], dtype=np.int64)


def write_games(games: pd.DataFrame, folder: Path) -> str:
    """Write ``games.parquet`` from one table; return the records' digest."""
    write_parquet([pa.Table.from_pandas(games, preserve_index=False)], folder / GAMES)
    return parquet_digest(folder / GAMES)


def write_parquet(tables: Iterable[pa.Table], path: Path,
                  watch: Iterable[Callable[[pa.Table], None]] = (), hooks: Hooks = NONE) -> None:
    """Write consecutive tables of records (one schema) to ``path`` as they come, in row groups of
    ``ROW_GROUP`` rows (the same file however the rows were split), under a temporary name first;
    each table is also handed to every ``watch`` (``RecordsDigest``, ``SampleRows``); ``hooks``: a test's
    seams (``cardsim.study.hooks``)."""
    def write(tmp: Path) -> None:
        writer, pending = None, []
        try:
            for table in tables:
                for watcher in watch:
                    watcher(table)
                if writer is None:
                    writer = pq.ParquetWriter(tmp, table.schema)
                pending.append(table)
                while sum(len(t) for t in pending) >= ROW_GROUP:
                    whole = pa.concat_tables(pending)
                    _write_row_group(writer, whole.slice(0, ROW_GROUP), hooks)
                    pending = [whole.slice(ROW_GROUP)]
            if writer is None:
                raise ValueError("no records to write")
            if sum(len(t) for t in pending):
                _write_row_group(writer, pa.concat_tables(pending), hooks)
        finally:
            if writer is not None:
                writer.close()

    atomic_write(path, write)


def _write_row_group(writer: pq.ParquetWriter, table: pa.Table, hooks: Hooks) -> None:
    writer.write_table(table, row_group_size=len(table))
    hooks.pause("row group")


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
    with _readable(folder / GAMES):
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
    except (ValueError, OverflowError, pd.errors.ParserError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise StudyError(str(folder / SAMPLE), None, f"unreadable sample ({reason})") from None
    if list(sample.columns) != list(dtypes):
        raise StudyError(str(folder / SAMPLE), None, f"expected the columns {', '.join(dtypes)}")
    return sample


def summary_csv(summary: pd.DataFrame) -> str:
    """The text of ``summary.csv``: what a run writes and what ``verify`` compares with it."""
    return summary.to_csv(index=False, float_format="%.6g", lineterminator="\n")


def parse_summary(text: str, where: str = SUMMARY) -> pd.DataFrame:
    """The summary table of ``summary.csv``'s text: what the plots are drawn from, so that the
    plots of a folder can be re-drawn from its ``summary.csv`` alone."""
    try:
        return pd.read_csv(io.StringIO(text), dtype={"game": "str", "variant": "str", "policy": "str"},
                           keep_default_na=False, na_values=[""])
    except (ValueError, pd.errors.ParserError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise StudyError(where, None, f"unreadable summary ({reason})") from None


def write_summary(summary: pd.DataFrame, folder: Path) -> None:
    text = summary_csv(summary)
    atomic_write(folder / SUMMARY, lambda p: p.write_text(text, encoding="utf-8", newline=""))


def write_manifest(manifest: dict[str, Any], folder: Path) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=True, allow_nan=False) + "\n"
    atomic_write(folder / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))


def is_replication(folder: Path) -> bool:
    """Whether ``folder`` is a replication's: its ``REPLICATION`` table and fresh run, no manifest of its own."""
    return ((folder / REPLICATION).is_file() and (folder / FRESH / MANIFEST).is_file()
            and not (folder / MANIFEST).is_file())


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a complete study folder; a ``StudyError`` when there is none or it is not one
    this version reads (its contents are checked by ``manifest.check``)."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if is_replication(folder):
            raise StudyError(str(folder), None, f"no {MANIFEST}: a replication ({REPLICATION}); its fresh run is the "
                             f"study folder {folder / FRESH}") from None
        raise StudyError(str(folder), None, f"no {MANIFEST}: not a complete study folder") from None
    except NotADirectoryError:
        raise StudyError(str(folder), None, "a file, not a study folder") from None
    except (OSError, ValueError, RecursionError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise StudyError(str(path), None, f"unreadable manifest ({reason})") from None
    if not isinstance(manifest, dict) or "study" not in manifest:
        raise StudyError(str(path), "study", "missing; not a cardsim manifest")
    if manifest.get("format") not in READS:
        raise StudyError(str(path), "format", f"{manifest.get('format')!r}; this cardsim reads formats "
                         f"{', '.join(map(str, READS))}: re-run the study")
    return manifest
