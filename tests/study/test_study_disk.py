"""The disk a run needs, estimated before any game (``disk``): within 2x of the folder it writes.

Three sizes of the fake game's study (the reference engine: many small pieces) and the
quick-start study on the compiled engine (large pieces, real records): the folder's
estimate is within a factor 2 of its size, and the estimate of the most the run holds at
once is at least what it held when its pieces and ``games.parquet`` were both on disk.
"""
from pathlib import Path

import pytest

from cardsim.study import run_study
from cardsim.study.run import disk
from cardsim.study.folder import pieces
from cardsim.study.plan.spec import load

ROOT = Path(__file__).resolve().parents[2]


def _run_and_measure(path: Path, games: int, out: Path, monkeypatch) -> tuple[int, int]:
    """The folder's size and the most its run held at once (the pieces and games.parquet, at assembly)."""
    held = []
    assemble = pieces.assemble

    def measured(part, tasks, **kwargs):
        assemble(part, tasks, **kwargs)
        held.append(sum(p.stat().st_size for p in part.rglob("*") if p.is_file()))
    monkeypatch.setattr(pieces, "assemble", measured)
    monkeypatch.setattr(pieces.shutil, "rmtree", _after(pieces.shutil.rmtree, held))
    run_study(path, games=games, out=out)
    return sum(p.stat().st_size for p in out.iterdir()), max(held)


def _after(rmtree, held):
    """``shutil.rmtree`` that first adds the size of the pieces it is about to remove to the last measure."""
    def remove(path, *args, **kwargs):
        path = Path(path)
        if path.name == pieces.PIECES and path.is_dir():
            held.append(sum(p.stat().st_size for p in path.parent.rglob("*") if p.is_file()))
        return rmtree(path, *args, **kwargs)
    return remove


@pytest.mark.parametrize("games", [40, 400, pytest.param(4000, marks=pytest.mark.slow)])
def test_the_estimate_is_within_2x_of_the_folder_a_fake_study_writes(write_study, tmp_path, monkeypatch, games):
    study = write_study()
    size, held = _run_and_measure(study, games, tmp_path / "R", monkeypatch)
    estimate = disk.folder_bytes(load(study).with_games(games))
    assert size / 2 <= estimate <= 2 * size, (estimate, size)
    assert disk.run_bytes(load(study).with_games(games)) >= held


@pytest.mark.parametrize("games", [200, 2000, 20000])
def test_the_estimate_is_within_2x_of_the_quickstart_folder(tmp_path, monkeypatch, games):
    path = ROOT / "experiments" / "quickstart.toml"
    size, held = _run_and_measure(path, games, tmp_path / "R", monkeypatch)
    estimate = disk.folder_bytes(load(path).with_games(games))
    assert size / 2 <= estimate <= 2 * size, (estimate, size)
    assert disk.run_bytes(load(path).with_games(games)) >= held

