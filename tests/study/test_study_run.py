"""`cardsim run | verify | report` end to end on the fake game: the outputs, byte-identical
records whatever the jobs or backend, verify catching a changed row (from games.parquet,
or from sample.csv when the parquet is gone), report reproducing summary.csv, refusals
with exit status 2 and nothing written, and a run that dies leaving the earlier study intact.
(Kills at chosen points: test_study_kill.py; the folder and its lock: test_study_folder.py;
every tampering verify catches: test_study_verify.py.)"""
import io
import json
from pathlib import Path

import numba
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import scipy

import cardsim
import cardsim.games
from cardsim.cli import main
from cardsim.study import report_study, run_study, verify_study
from cardsim.study.folder import manifest as claims
from cardsim.study.report import plots
from cardsim.study.folder import storage
from cardsim.study.report.summary import record_dtypes
from cardsim.study.run.runner import simulate
from cardsim.study.plan.spec import RunStopped, Study, load
from cardsim.study.report.stats import CELL, summarize


def _bytes(folder: Path, name: str) -> bytes:
    return (folder / name).read_bytes()


def test_run_writes_records_summary_plots_and_manifest(finished):
    out = finished
    study = load(out.parent / "study.toml")
    games = storage.read_games(out)
    assert list(games.columns[:3]) == list(CELL)
    assert len(games) == len(study.cells()) * study.games
    for cell in study.cells()[:3]:
        rows = games.loc[(games.variant == cell.variant) & (games.players == cell.players)
                         & (games.policy == cell.policy)].drop(columns=list(CELL)).reset_index(drop=True)
        alone = cardsim.simulate("fakegame", study.variants[cell.variant], players=cell.players, games=study.games,
                                 seed=study.seed, policy=list(cell.seats))
        pd.testing.assert_frame_equal(rows, alone, check_dtype=True)
    manifest = json.loads(_bytes(out, "manifest.json"))
    assert Study.from_dict(manifest["study"]) == study
    assert manifest["seed"] == 11 and manifest["engine"] == "reference"
    assert manifest["rules"]["unlimited_short"]["knobs"] == study.variants["unlimited_short"].to_dict()
    assert manifest["records"] == {"file": "games.parquet", "rows": len(games), "digest": storage.records_digest(games)}
    assert manifest["format"] == 5 and manifest["digest"] == storage.DIGEST and len(manifest["run"]) == 32
    assert manifest["files"] == {name: storage.file_digest(out / name) for name in [*manifest["outputs"], "sample.csv"]}
    assert manifest["execution"] == {"backend": "loky", "jobs": 1, "scheduler": None, "resumed_chunks": 0}
    assert manifest["package"]["version"] == cardsim.__version__ and manifest["package"]["git"]["revision"]
    assert {"simulate_s", "write_s", "games_per_s"} <= set(manifest["timings"]) and manifest["machine"]["cpus"]
    assert manifest["machine"]["numba"] == numba.__version__ and manifest["machine"]["scipy"] == scipy.__version__
    assert manifest["package"]["protocol"] == {"fakegame": cardsim.games.spec("fakegame").protocol}
    assert {c["policy"] for c in manifest["cells"]} == {"random", "greedy,random,random"}
    for name in manifest["outputs"]:
        assert (out / name).stat().st_size > 0
    assert sorted(p.name for p in out.glob("*.png")) == sorted(n for n in manifest["outputs"] if n.endswith(".png"))
    assert {"loser_by_seat_random.png", "length_random.png", "paired_greedy-random-random.png"} <= set(manifest["outputs"])
    assert sorted(p.name for p in out.iterdir()) == sorted([*manifest["outputs"], "games.parquet", "sample.csv",
                                                            "manifest.json"])
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == []  # no lock, part or leftover


def test_the_progress_bar_counts_games_per_second(write_study, capsys):
    simulate(load(write_study(**{"games = 40": "games = 5"})), progress=True)
    assert "games/s" in capsys.readouterr().err


def test_default_folder_is_results_slash_study_name(write_study, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(write_study()), "--games", "3", "--quiet"]) == 0
    assert (tmp_path / "results" / "fake_study" / "manifest.json").exists()


@pytest.mark.long
def test_same_records_with_jobs_1_jobs_2_and_dask(finished, write_study, tmp_path, dask_scheduler):
    path, one = write_study(), finished
    assert main(["run", str(path), "--jobs", "2", "--out", str(tmp_path / "two"), "--quiet"]) == 0
    assert main(["run", str(path), "--backend", "dask", "--scheduler", dask_scheduler,
                 "--out", str(tmp_path / "dask"), "--quiet"]) == 0
    for other in ("two", "dask"):
        assert _bytes(one, "games.parquet") == _bytes(tmp_path / other, "games.parquet")
        assert _bytes(one, "summary.csv") == _bytes(tmp_path / other, "summary.csv")
    pngs = sorted(p.name for p in one.glob("*.png"))
    assert pngs and [_bytes(one, n) for n in pngs] == [_bytes(tmp_path / "two", n) for n in pngs]  # 2 drawing


def test_plots_drawn_in_two_processes_are_the_bytes_drawn_in_one(finished, tmp_path, monkeypatch):
    from cardsim.study.report import summary as report

    study = load(finished.parent / "study.toml")
    summary = storage.parse_summary((finished / "summary.csv").read_text())
    m = report.study_measures(study)
    files = {}
    for jobs in (1, 2):
        (tmp_path / str(jobs)).mkdir()
        files[jobs] = plots.render(summary, None, m, study.baseline, tmp_path / str(jobs), jobs=jobs)
        assert sorted(p.name for p in (tmp_path / str(jobs)).iterdir()) == sorted(files[jobs])
    assert files[1] == files[2] and len(files[1]) > 2
    assert [_bytes(tmp_path / "1", n) for n in files[1]] == [_bytes(tmp_path / "2", n) for n in files[2]]
    monkeypatch.setattr(plots, "DPI", -1)  # inherited by the forked processes: their error reaches this one
    (tmp_path / "bad").mkdir()
    with pytest.raises(ValueError):
        plots.render(summary, None, m, study.baseline, tmp_path / "bad", jobs=2)
    assert list((tmp_path / "bad").iterdir()) == []


def test_dask_without_a_scheduler_starts_a_local_cluster(write_study, tmp_path):
    study = load(write_study(**{"games = 40": "games = 6"}))
    pd.testing.assert_frame_equal(simulate(study, jobs=2, backend="dask"), simulate(study))


def test_game_i_is_always_game_i_the_first_k_games_are_the_study_of_k(write_study):
    study = load(write_study())
    whole, first = simulate(study), simulate(study.with_games(15))
    pd.testing.assert_frame_equal(whole.loc[whole.game < 15].reset_index(drop=True), first)
    some = simulate(study, games=[3, 17, 39])
    pd.testing.assert_frame_equal(whole.loc[whole.game.isin([3, 17, 39])].reset_index(drop=True), some)


def test_the_summary_read_group_by_group_equals_the_summary_of_all_records_at_once(finished):
    """The run summarises one (players, policy) group of games.parquet at a time; the rows
    and their order are those of ``summarize`` on the whole table."""
    study = load(finished.parent / "study.toml")
    whole = summarize(storage.read_games(finished), study.game, study.baseline)
    written = pd.read_csv(finished / "summary.csv")
    pd.testing.assert_frame_equal(written, whole, check_dtype=False, rtol=1e-5)


def test_records_streamed_in_many_row_groups_read_back_and_digest_as_one_table(finished, tmp_path, monkeypatch):
    games = storage.read_games(finished)
    monkeypatch.setattr(storage, "ROW_GROUP", 50)
    parts = [pa.Table.from_pandas(games.iloc[i:i + 17], preserve_index=False) for i in range(0, len(games), 17)]
    storage.write_parquet(parts, tmp_path / "games.parquet")
    groups = pq.ParquetFile(tmp_path / "games.parquet")
    assert [groups.metadata.row_group(i).num_rows for i in range(groups.num_row_groups)] == (
        [50] * (len(games) // 50) + [len(games) % 50])  # the same file however the rows came
    digest = storage.parquet_digest(tmp_path / "games.parquet")
    assert digest == storage.records_digest(games) == storage.parquet_digest(finished / "games.parquet")
    pd.testing.assert_frame_equal(storage.read_games(tmp_path), games)
    some = storage.read_games(tmp_path, games=[3, 5], where={"players": 3, "policy": "random"})
    pd.testing.assert_frame_equal(some, games.loc[games.game.isin([3, 5]) & (games.players == 3)
                                                  & (games.policy == "random")].reset_index(drop=True))


def test_report_reproduces_summary_and_plots_from_the_records(finished_copy):
    out = finished_copy
    summary = _bytes(out, "summary.csv")
    plots = sorted(p.name for p in out.glob("*.png"))
    for p in [out / "summary.csv", *out.glob("*.png")]:
        p.unlink()
    assert main(["report", str(out)]) == 0
    assert _bytes(out, "summary.csv") == summary
    assert sorted(p.name for p in out.glob("*.png")) == plots


def test_report_keeps_the_variants_in_study_file_order_though_the_manifest_sorts_its_keys(write_study, tmp_path):
    path = write_study(**{"[variants.sturdy]": "[variants.b_sturdy]"})
    out = run_study(path, out=tmp_path / "out")
    summary = _bytes(out, "summary.csv")
    assert pd.read_csv(out / "summary.csv").variant.unique().tolist() == ["plain", "b_sturdy", "unlimited_short"]
    report_study(out)
    assert _bytes(out, "summary.csv") == summary
    assert verify_study(out, sample=3, redraw=False).ok


def test_verify_passes_on_a_fresh_study_and_catches_a_changed_row(finished_copy, capsys):
    out = finished_copy
    assert main(["verify", str(out), "--sample", "40", "--sample-seed", "3"]) == 0
    assert ("40 game indices (--sample-seed 3) x 9 cells re-run against games.parquet, manifest, files and summary "
            "checked: identical") in capsys.readouterr().out

    games = storage.read_games(out)
    row = games.index[(games.variant == "sturdy") & (games.players == 3) & (games.game == 20)][0]
    games.loc[row, "loser"] = (games.loc[row, "loser"] + 1) % 3
    digest = storage.write_games(games, out)
    v = verify_study(out, sample=40, redraw=False)
    assert not v.ok and "games.parquet: the records' digest differs from the manifest" in v.mismatches
    manifest = json.loads(_bytes(out, "manifest.json"))
    manifest["records"]["digest"] = digest  # a consistent forgery: the summary and the re-run tell
    storage.write_manifest(claims.sealed(manifest), out)
    v = verify_study(out, sample=40, redraw=False)
    assert v.mismatches[-1] == (f"variant=sturdy, players=3, policy=random, game=20: loser stored "
                                f"{games.loc[row, 'loser']} re-run {(games.loc[row, 'loser'] + 2) % 3}")
    assert v.mismatches[0].startswith("summary.csv: variant=sturdy, players=3, policy=random: loser_rate_")
    with pytest.raises(SystemExit) as exit_status:
        main(["verify", str(out), "--sample", "40"])
    assert exit_status.value.code == 1
    assert "MISMATCH variant=sturdy, players=3" in capsys.readouterr().out


def test_the_sample_holds_25_spread_games_of_every_cell_first_and_last_included(finished):
    assert storage.sample_games(40).tolist() == [0, 1, 3, 4, 6, 8, 9, 11, 13, 14, 16, 17, 19, 21, 22, 24, 26,
                                                 27, 29, 30, 32, 34, 35, 37, 39]
    assert storage.sample_games(3).tolist() == [0, 1, 2] and storage.sample_games(1).tolist() == [0]
    assert storage.sample_games(2_000_000)[[0, -1]].tolist() == [0, 1_999_999]
    games, manifest = storage.read_games(finished), json.loads(_bytes(finished, "manifest.json"))
    sample = storage.read_sample(finished, record_dtypes(load(finished.parent / "study.toml")))
    expected = games.loc[games.game.isin(storage.sample_games(40))].reset_index(drop=True)
    pd.testing.assert_frame_equal(sample, expected, check_dtype=False)
    assert manifest["sample"] == {"file": "sample.csv", "rows": 9 * 25, "games": storage.sample_games(40).tolist(),
                                  "digest": storage.records_digest(expected)}
    assert storage.records_digest(sample) == manifest["sample"]["digest"]  # CSV text reads back to the same records


def test_the_records_digest_is_of_the_values_not_of_the_file(finished):
    games = storage.read_games(finished)
    digest = storage.records_digest(games)
    assert digest == storage.records_digest(games.astype({"variant": object, "policy": object}))
    assert digest == storage.records_digest(pd.read_csv(io.StringIO(games.to_csv(index=False)), na_filter=False,
                                                        dtype={"variant": "str", "policy": "str"}))
    assert digest != storage.records_digest(games.astype({"turns": "int32"}))
    assert digest != storage.records_digest(games[list(games.columns[::-1])])
    assert digest != storage.records_digest(games.iloc[:-1])
    assert digest != storage.records_digest(games.replace({"variant": {"plain": "plain "}}))


def test_verify_without_games_parquet_re_runs_the_sample_and_catches_a_changed_row(finished_copy, capsys):
    out = finished_copy
    (out / "games.parquet").unlink()
    v = verify_study(out, redraw=False)
    assert v.ok and v.source == "sample.csv" and v.games == storage.sample_games(40).tolist() and v.seed is None
    assert any(n.startswith("no games.parquet (the full records are not committed)") for n in v.notes)
    assert main(["verify", str(out), "--sample", "3"]) == 0
    out_text = capsys.readouterr().out
    assert "note: no games.parquet" in out_text
    assert "x 9 cells re-run against sample.csv, manifest, files and summary checked: identical" in out_text

    text = _bytes(out, "sample.csv").decode()
    lines = text.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if line.startswith("sturdy,3,random,39,"))
    changed = lines[i].split(",")
    changed[4] = str(int(changed[4]) + 1)  # the turns of the last game
    (out / "sample.csv").write_text("".join(lines[:i] + [",".join(changed)] + lines[i + 1:]))
    v = verify_study(out, redraw=False)
    assert v.mismatches == ["sample.csv: changed since the run (its sha256 is not the manifest's)",
                            "sample.csv: the records' digest differs from the manifest",
                            f"variant=sturdy, players=3, policy=random, game=39: turns stored "
                            f"{changed[4]} re-run {int(changed[4]) - 1}"]
    with pytest.raises(SystemExit):
        main(["verify", str(out)])
    assert "MISMATCH sample.csv: the records' digest differs" in capsys.readouterr().out


def test_report_without_games_parquet_says_so_in_one_line(finished, finished_copy, capsys):
    (finished_copy / "games.parquet").unlink()
    assert main(["report", str(finished_copy)]) == 2
    study_file = finished.parent / "study.toml"
    assert capsys.readouterr().err == (f"cardsim: error: {finished_copy}: no games.parquet (the full records are "
                                       f"not committed); re-create them with `cardsim run {study_file} --games 40 "
                                       f"--out {finished_copy}`\n")


def test_the_re_create_command_of_a_run_from_a_relative_path_works_from_anywhere(write_study, tmp_path, monkeypatch,
                                                                                 capsys):
    """Issue 28 item 9: the manifest keeps the command as typed and the folder it was typed in (``cwd``)."""
    study = write_study()
    monkeypatch.chdir(study.parent)
    out = run_study(study.name, out="R")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["command"] == ["cardsim", "run", "study.toml", "--out", "R"] and manifest["cwd"] == str(tmp_path)
    (out / "games.parquet").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["report", str(out)]) == 2
    assert f"re-create them with `cardsim run {study} --games 40 --out {out}`" in capsys.readouterr().err


def test_verify_finds_a_folder_without_records_or_sample_different_and_refuses_an_old_manifest(finished_copy):
    (finished_copy / "games.parquet").unlink()
    (finished_copy / "sample.csv").unlink()
    v = verify_study(finished_copy, redraw=False)
    assert v.mismatches == ["sample.csv: missing (the manifest lists it)",
                            "neither games.parquet nor sample.csv: no stored rows to compare re-run games with"]
    manifest = json.loads(_bytes(finished_copy, "manifest.json"))
    storage.write_manifest(manifest | {"format": 1}, finished_copy)
    with pytest.raises(ValueError, match="format: 1; this cardsim reads formats 2, 3, 4, 5: re-run the study"):
        verify_study(finished_copy)


def test_a_folder_holding_another_study_is_refused_without_force(finished_copy, write_study, capsys):
    out = finished_copy
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    other = write_study(name="other.toml", **{"seed = 11": "seed = 12"})
    assert main(["run", str(other), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"cardsim: error: {out}: holds results of a different study (fake_study); "
                   "use --force to overwrite or --out to choose another folder")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert main(["run", str(other), "--out", str(out), "--quiet", "--force"]) == 0
    assert json.loads(_bytes(out, "manifest.json"))["seed"] == 12
    assert main(["run", str(other), "--out", str(out), "--quiet"]) == 0  # the same study may run again
    assert main(["run", str(other), "--out", str(out), "--quiet", "--games", "3"]) == 2  # fewer games: another one


def test_a_folder_written_before_a_knob_existed_holds_the_same_study(finished_copy, write_study):
    """Records stay (docs/design.md): a folder whose manifest predates a knob (``dealer_lives`` left out where it
    is at its default) holds the same study, so it runs again without ``--force``; where a variant sets the knob
    otherwise, it is another study."""
    manifest = json.loads(_bytes(finished_copy, "manifest.json"))
    for variant in ("plain", "unlimited_short"):
        del manifest["study"]["variants"][variant]["dealer_lives"]
    storage.write_manifest(claims.sealed(manifest), finished_copy)
    assert claims.describes(manifest, load(write_study()))
    assert main(["run", str(write_study()), "--out", str(finished_copy), "--quiet"]) == 0
    manifest = json.loads(_bytes(finished_copy, "manifest.json"))
    del manifest["study"]["variants"]["sturdy"]["dealer_lives"]
    assert not claims.describes(manifest, load(write_study()))


@pytest.mark.parametrize("edits, args, message", [
    ({}, ["--games", "0"], "--games: expected an integer >= 1 and < 2**63, not 0"),
    ({}, ["--jobs", "0"], "--jobs must be a positive integer or -1 (all cores), not 0"),
    ({}, ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    ({"seed = 11": "seed = 11\nsed = 3"}, [], "study.toml: sed: unknown key; allowed keys: name,"),
    ({"baseline = \"plain\"": "baseline = \"sturdy_dealer\""}, [], "study.toml: baseline: 'sturdy_dealer' is not a variant"),
    ({"preset = \"plain\"": "preset = \"plian\""}, [], "study.toml: variants.plain.preset: unknown fakegame preset 'plian'"),
    ({"max_turns = \"None\"": "max_turns = 0"}, [], "study.toml: variants.unlimited_short: fakegame knob max_turns=0"),
    ({"name = ": "name = [\n"}, [], "study.toml: not valid TOML"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(write_study, tmp_path, capsys, edits, args, message):
    out = tmp_path / "out"
    assert main(["run", str(write_study(**edits)), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardsim: error: ") and message in err
    assert not out.exists()


def test_a_missing_study_file_or_folder_is_one_line(tmp_path, capsys):
    assert main(["run", str(tmp_path / "none.toml")]) == 2
    assert main(["verify", str(tmp_path)]) == 2
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"cardsim: error: {tmp_path / 'none.toml'}: no such study file",
                   f"cardsim: error: {tmp_path}: no manifest.json: not a complete study folder",
                   f"cardsim: error: {tmp_path}: no manifest.json: not a complete study folder"]
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_leaves_no_file(tmp_path):
    def half(p: Path) -> None:
        p.write_text("half of it")
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        storage.atomic_write(tmp_path / "games.parquet", half)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("module, fail_at", [
    (storage, "_write_row_group"), (storage.RecordsDigest, "hexdigest"), (storage, "write_sample"),
    (storage, "write_summary"), (storage, "write_manifest"), (plots, "forest"),
])
def test_a_run_that_dies_anywhere_leaves_the_earlier_study_intact(finished_copy, write_study, monkeypatch,
                                                                   module, fail_at):
    """(In process; killed processes: test_study_kill.py.)"""
    before = {p.name: p.read_bytes() for p in finished_copy.iterdir()}

    def die(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(module, fail_at, die)
    with pytest.raises(RunStopped, match=f"interrupted: {finished_copy} still holds its earlier study, unchanged"):
        run_study(write_study(**{"seed = 11": "seed = 12"}), out=finished_copy, force=True)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in finished_copy.iterdir()} == before
    assert verify_study(finished_copy, sample=3, redraw=False).ok
    with pytest.raises(ValueError, match="the interrupted run kept there is of another study"):
        run_study(write_study(), out=finished_copy, resume=True)


def test_a_variant_with_another_deck_is_marked_unpaired_in_the_difference_plot(finished):
    from cardsim.study.report import summary as report
    from cardsim.study.report.plots import forest

    study = load(finished.parent / "study.toml")
    summary = storage.parse_summary((finished / "summary.csv").read_text())
    rows = summary.loc[(summary.policy == "random") & (summary.variant != "plain")]
    m = report.study_measures(study)
    paired = forest(rows, m, "plain", "tag", {"sturdy": "C1", "unlimited_short": "C2"}, ())
    unpaired = forest(rows, m, "plain", "tag", {"sturdy": "C1", "unlimited_short": "C2"}, ("sturdy",))
    labels = {t.get_text().split("  ", 1)[1] for t in unpaired.axes[0].get_yticklabels()}
    assert labels == {"sturdy (unpaired: another deck)", "unlimited_short"}
    assert unpaired._suptitle.get_text().startswith("difference (paired where the deck is the same) against plain")
    assert paired._suptitle.get_text().startswith("paired difference against plain")
    assert report.unpaired(study) == ()  # the fake game's knobs keep the deck
