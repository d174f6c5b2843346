"""What a run computes from its records while it writes ``games.parquet`` (issue 29): the records digest,
the sample and the summary's columns, equal to what reading the file back gives."""
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


def test_the_sample_and_the_summary_columns_kept_while_writing_read_as_the_file_does(tmp_path):
    records = _records()
    games = storage.sample_games(len(records))
    sample, columns = storage.SampleRows(games), storage.Columns(["variant", "players", "policy", "game", "loser"])
    _write(records, tmp_path, [sample, columns])
    pd.testing.assert_frame_equal(sample.frame(), storage.read_games(tmp_path, games=games))
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
def test_a_run_keeps_the_summary_columns_only_up_to_summary_rows(finished, monkeypatch, limit, kept):
    from cardsim.study import pipeline as commands

    study = load(finished.parent / "study.toml")
    monkeypatch.setattr(report, "SUMMARY_ROWS", limit)
    watchers = commands._watchers(finished, study)
    assert any(isinstance(w, storage.Columns) for w in watchers) == kept
