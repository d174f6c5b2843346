"""Fixtures of the study-layer tests: the fake game, study files, a Dask cluster."""
import shutil
from pathlib import Path

import pytest

import fakegame
from fakegame import STUDY, edit


@pytest.fixture(scope="module")
def fake():
    """The fake game, registered for the tests of one module only."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        fakegame.install(monkeypatch)
        yield fakegame.GAME


@pytest.fixture(scope="module")
def finished(fake, tmp_path_factory):
    """A folder holding a complete run of ``STUDY``, shared by a module: copy it before changing it."""
    from cardsim.study import run_study

    path = tmp_path_factory.mktemp("finished") / "study.toml"
    path.write_text(STUDY)
    return run_study(path, out=path.parent / "out")


@pytest.fixture
def finished_copy(finished, tmp_path):
    """A private copy of the ``finished`` folder."""
    return Path(shutil.copytree(finished, tmp_path / "out"))


@pytest.fixture
def write_study(tmp_path, fake):
    """``write_study(text=STUDY, old=new, ...)`` → path of a study file, with text replacements."""
    def write(text: str = STUDY, name: str = "study.toml", **edits: str) -> Path:
        path = tmp_path / name
        path.write_text(edit(text, **edits))
        return path
    return write


@pytest.fixture(scope="module")
def dask_scheduler():
    """The address of a local Dask cluster of 2 worker processes, closed after the module."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:  # both workers in before a test asks how many there are (a loaded machine)
            client.wait_for_workers(2, timeout=300)
        yield cluster.scheduler_address
