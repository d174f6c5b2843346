"""What a run computes from its records before or while it writes ``games.parquet`` (issue 29): the summary's
columns as each piece is kept, the records digest and the sample as the file is written, each equal to what
reading the file back gives; with two processes the figures are drawn while the file is written."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from cardsim.study.report import summary as report
from cardsim.study.folder import storage
from cardsim.study.plan.spec import load


def _records(n: int = 3_000) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame({
        "variant": rng.choice(["moska", "turamoska_nocap", "ä€ ü", ""], n).astype(object),
        "players": rng.integers(2, 7, n).astype("int64"),
        "policy": rng.choice(["random", "greedy(bluff=0.1, challenge=0.5)"], n).astype(object),
        "game": np.arange(n, dtype="int64"),
        "truncated": rng.random(n) < 0.1,
        "loser": rng.integers(-1, 6, n).astype("int64"),
        "finish_order": rng.choice(["2,0,3", "", "1"], n).astype(object),
    })


def _write(records: pd.DataFrame, folder, watch, rows: int = 331) -> None:
    tables = [pa.Table.from_pandas(records.iloc[i:i + rows], preserve_index=False)
              for i in range(0, len(records), rows)]
    storage.write_parquet(tables, folder / storage.GAMES, watch)


def test_the_digest_computed_while_writing_is_the_records_digest(tmp_path, monkeypatch):
    monkeypatch.setattr(storage, "ROW_GROUP", 1000)
    records = _records()
    digest = storage.RecordsDigest(tmp_path)
    _write(records, tmp_path, [digest])
    assert [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]  # spilled beside the file, column by column
    value = digest.hexdigest()
    assert value == storage.records_digest(records) == storage.parquet_digest(tmp_path / storage.GAMES)
    assert sorted(p.name for p in tmp_path.iterdir()) == [storage.GAMES]  # the spilled columns are gone
    changed = records.replace({"variant": {"": " "}})
    assert storage.records_digest(changed) != value


def test_the_sample_kept_while_writing_reads_as_the_file_does(tmp_path):
    records = _records()
    games = storage.sample_games(len(records))
    sample = storage.SampleRows(games)
    _write(records, tmp_path, [sample])
    pd.testing.assert_frame_equal(sample.frame(), storage.read_games(tmp_path, games=games))


def test_the_summary_columns_kept_piece_by_piece_in_any_order_read_as_the_assembled_file_does(tmp_path):
    """A run keeps the summary's columns as each task's piece is kept (tasks end in any order); in task
    order they are what ``games.parquet``, assembled from the pieces, reads back."""
    records = _records()
    tables = [pa.Table.from_pandas(records.iloc[i:i + 331], preserve_index=False) for i in range(0, len(records), 331)]
    columns = storage.Columns(["variant", "players", "policy", "game", "loser"])
    for task in np.random.default_rng(3).permutation(len(tables)):
        columns.add(int(task), tables[task])
    storage.write_parquet(tables, tmp_path / storage.GAMES)
    pd.testing.assert_frame_equal(columns.frame(), storage.read_games(tmp_path, columns=columns.names))


def test_the_summary_of_the_kept_columns_is_the_summary_of_the_file(finished):
    study = load(finished.parent / "study.toml")
    kept = storage.read_games(finished, columns=report.summary_columns(study))
    from_file, from_kept = report.compute(study, finished), report.compute(study, finished, kept)
    for a, b in zip(from_file, from_kept):
        if a is None:
            assert b is None
        else:
            pd.testing.assert_frame_equal(a, b)
    assert storage.summary_csv(from_kept[0]) == (finished / storage.SUMMARY).read_text(encoding="utf-8")


@pytest.mark.parametrize("limit, kept", [(0, False), (10**9, True)])
def test_a_run_keeps_the_summary_columns_only_up_to_summary_rows(write_study, tmp_path, monkeypatch, limit, kept):
    """Up to ``SUMMARY_ROWS`` records the summary reads the columns kept while playing; beyond, it reads them
    back from ``games.parquet``. Either way the same summary."""
    from cardsim.study import run_study

    given = []
    compute = report.compute

    def seen(study, folder, records=None):
        given.append(records is not None)
        return compute(study, folder, records)
    monkeypatch.setattr(report, "SUMMARY_ROWS", limit)
    monkeypatch.setattr(report, "compute", seen)
    folder = run_study(write_study(), out=tmp_path / "out", jobs=2)
    assert given == [kept]
    monkeypatch.undo()
    assert (folder / storage.SUMMARY).read_bytes() == (run_study(write_study(), out=tmp_path / "again")
                                                       / storage.SUMMARY).read_bytes()


@pytest.mark.parametrize("jobs", [1, 2])
def test_with_two_processes_the_figures_are_drawn_while_games_parquet_is_assembled(write_study, tmp_path, jobs):
    """``--jobs 2``: the drawers are given every figure before this process assembles ``games.parquet``
    (the summary read the columns kept while playing); with one process it assembles first, then draws."""
    from cardsim.study import run_study
    from cardsim.study.hooks import Hooks

    class Seen(Hooks):
        points: list = []

        def pause(self, point):
            self.points.append(point)
    hooks = Seen()
    hooks.points.clear()
    run_study(write_study(), out=tmp_path / "out", jobs=jobs, hooks=hooks)
    points = [p for p in hooks.points if p in ("assemble", "digest", "sample", "plot")]
    plots = points.count("plot")
    assert plots > 1
    if jobs == 2:
        assert points == ["plot"] * plots + ["assemble", "digest", "sample"]
    else:
        assert points == ["assemble", "digest", "sample"] + ["plot"] * plots
