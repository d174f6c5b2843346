"""`cardsim run | verify | report` end to end on the fake game: the outputs, byte-identical
records whatever the jobs or backend, verify catching a changed row, report reproducing
summary.csv, refusals with exit status 2 and nothing written, and a run killed half way."""
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.study import report_study, run_study, verify_study
from cardsim.study import storage
from cardsim.study.runner import simulate
from cardsim.study.spec import Study, load
from cardsim.study.stats import CELL

HERE = Path(__file__).resolve().parent


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
    assert manifest["records"] == {"file": "games.parquet", "rows": len(games), "sha256": storage.sha256(out / storage.GAMES)}
    assert manifest["package"]["version"] == cardsim.__version__ and manifest["package"]["git"]["revision"]
    assert {"simulate_s", "write_s", "games_per_s"} <= set(manifest["timings"]) and manifest["machine"]["cpus"]
    assert {c["policy"] for c in manifest["cells"]} == {"random", "greedy,random,random"}
    for name in manifest["outputs"]:
        assert (out / name).stat().st_size > 0
    assert sorted(p.name for p in out.glob("*.png")) == sorted(n for n in manifest["outputs"] if n.endswith(".png"))
    assert {"loser_by_seat_random.png", "length_random.png", "paired_greedy-random-random.png"} <= set(manifest["outputs"])
    assert not list(out.glob("*.tmp*"))


def test_the_progress_bar_counts_games_per_second(write_study, capsys):
    simulate(load(write_study(**{"games = 40": "games = 5"})), progress=True)
    assert "games/s" in capsys.readouterr().err


def test_default_folder_is_results_slash_study_name(write_study, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(write_study()), "--games", "3", "--quiet"]) == 0
    assert (tmp_path / "results" / "fake_study" / "manifest.json").exists()


def test_same_records_with_jobs_1_jobs_2_and_dask(finished, write_study, tmp_path, dask_scheduler):
    path, one = write_study(), finished
    assert main(["run", str(path), "--jobs", "2", "--out", str(tmp_path / "two"), "--quiet"]) == 0
    assert main(["run", str(path), "--backend", "dask", "--scheduler", dask_scheduler,
                 "--out", str(tmp_path / "dask"), "--quiet"]) == 0
    for other in ("two", "dask"):
        assert _bytes(one, "games.parquet") == _bytes(tmp_path / other, "games.parquet")
        assert _bytes(one, "summary.csv") == _bytes(tmp_path / other, "summary.csv")


def test_dask_without_a_scheduler_starts_a_local_cluster(write_study, tmp_path):
    study = load(write_study(**{"games = 40": "games = 6"}))
    pd.testing.assert_frame_equal(simulate(study, jobs=2, backend="dask"), simulate(study))


def test_game_i_is_always_game_i_the_first_k_games_are_the_study_of_k(write_study):
    study = load(write_study())
    whole, first = simulate(study), simulate(study.with_games(15))
    pd.testing.assert_frame_equal(whole.loc[whole.game < 15].reset_index(drop=True), first)
    some = simulate(study, games=[3, 17, 39])
    pd.testing.assert_frame_equal(whole.loc[whole.game.isin([3, 17, 39])].reset_index(drop=True), some)


def test_report_reproduces_summary_and_plots_from_the_records(finished_copy):
    out = finished_copy
    summary = _bytes(out, "summary.csv")
    plots = sorted(p.name for p in out.glob("*.png"))
    for p in [out / "summary.csv", *out.glob("*.png")]:
        p.unlink()
    assert main(["report", str(out)]) == 0
    assert _bytes(out, "summary.csv") == summary
    assert sorted(p.name for p in out.glob("*.png")) == plots


def test_verify_passes_on_a_fresh_study_and_catches_a_changed_row(finished_copy, capsys):
    out = finished_copy
    assert verify_study(out, sample=5).ok
    assert main(["verify", str(out), "--sample", "40"]) == 0
    assert "40 game indices x 9 cells re-run: identical" in capsys.readouterr().out

    games = storage.read_games(out)
    row = games.index[(games.variant == "sturdy") & (games.players == 3) & (games.game == 21)][0]
    games.loc[row, "loser"] = (games.loc[row, "loser"] + 1) % 3
    digest = storage.write_games(games, out)
    v = verify_study(out, sample=40)
    assert not v.ok and not v.sha256_ok  # the file no longer matches the manifest
    manifest = json.loads(_bytes(out, "manifest.json"))
    manifest["records"]["sha256"] = digest  # a consistent forgery: only the re-run can tell
    storage.write_manifest(manifest, out)
    v = verify_study(out, sample=40)
    assert v.sha256_ok and v.mismatches == [f"variant=sturdy, players=3, policy=random, game=21: loser stored "
                                            f"{games.loc[row, 'loser']} re-run {(games.loc[row, 'loser'] + 2) % 3}"]
    with pytest.raises(SystemExit) as exit_status:
        main(["verify", str(out), "--sample", "40"])
    assert exit_status.value.code == 1
    assert "MISMATCH variant=sturdy, players=3" in capsys.readouterr().out


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


@pytest.mark.parametrize("edits, args, message", [
    ({}, ["--games", "0"], "--games: expected an integer >= 1, not 0"),
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


@pytest.mark.parametrize("earlier_run", [False, True])
def test_a_run_killed_half_way_leaves_nothing_that_looks_complete(finished, write_study, tmp_path, earlier_run):
    out = tmp_path / "out"
    if earlier_run:
        shutil.copytree(finished, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()} if earlier_run else {}
    big = write_study(name="big.toml", **{"games = 40": "games = 1000000"})
    proc = subprocess.Popen([sys.executable, str(HERE / "fakegame.py"), "run", str(big), "--out", str(out),
                             "--force"], stderr=subprocess.PIPE)
    try:
        proc.stderr.read(40)  # the progress bar is up: the games are being played
        time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    after = {p.name: p.read_bytes() for p in out.iterdir()} if out.exists() else {}
    assert after == before  # nothing new: the earlier study is intact, or there is nothing at all
    if earlier_run:
        assert verify_study(out, sample=3).ok


@pytest.mark.parametrize("fail_at", ["write_games", "write_summary", "write_manifest"])
def test_a_run_that_dies_while_writing_leaves_no_manifest(finished_copy, write_study, monkeypatch, fail_at):
    def die(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(storage, fail_at, die)
    with pytest.raises(KeyboardInterrupt):
        run_study(write_study(**{"seed = 11": "seed = 12"}), out=finished_copy, force=True)
    assert not (finished_copy / "manifest.json").exists()
    with pytest.raises(ValueError, match="no manifest.json: not a complete study folder"):
        report_study(finished_copy)
