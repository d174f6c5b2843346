"""A Dask worker lost mid-run costs only time: its tasks run again on the other worker, and the
study comes out with the same digest. A real cluster of processes: ``dask scheduler`` and two
``dask worker`` processes; the run waits at a chosen point while a worker holding results is killed."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardsim.study import run_study, verify_study
from cardsim.study.folder import storage
from fakegame import edit
from killing import paused

HERE = Path(__file__).resolve().parent


@pytest.fixture
def cluster(tmp_path):
    """(scheduler address, {worker name: process}) of a scheduler and two single-thread workers."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    dask = str(Path(sys.executable).parent / "dask")
    file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([dask, "scheduler", "--scheduler-file", str(file), "--port", "0",
                               "--dashboard-address", ":0"], env=env, stderr=subprocess.DEVNULL)]
    deadline = time.monotonic() + 120
    while not file.exists():
        assert time.monotonic() < deadline, "the Dask scheduler did not start"
        time.sleep(0.1)
    address = json.loads(file.read_text())["address"]
    workers = {}
    for name in ("w1", "w2"):
        workers[name] = subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-nanny", "--name", name,
                                          "--no-dashboard"], env=env, stderr=subprocess.DEVNULL)
    procs += workers.values()
    from distributed import Client

    with Client(address, timeout="60s") as client:
        client.wait_for_workers(2, timeout=120)
    try:
        yield address, workers
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.mark.long
def test_a_worker_lost_mid_run_is_replaced_and_the_digest_is_the_same(fake, cluster, tmp_path):
    from distributed import Client

    address, workers = cluster
    study = tmp_path / "study.toml"
    study.write_text(edit(**{"games = 40": "games = 2000",
                             'policies = ["random", ["greedy", "random", "random"]]': 'policies = ["random"]'}))
    alone = run_study(study, out=tmp_path / "alone")  # in this process, never interrupted

    out = tmp_path / "R"
    child = paused(["run", str(study), "--out", str(out), "--quiet", "--backend", "dask", "--scheduler", address],
                   "piece#3", tmp_path)
    with Client(address, timeout="60s") as client:
        held = {w["name"]: len(keys) for addr, keys in client.has_what().items()
                for w in [client.scheduler_info()["workers"][addr]]}
        victim = max(held, key=held.get)
        assert held[victim] > 0, held  # the worker killed holds results the run has not fetched yet
        workers[victim].send_signal(signal.SIGKILL)
        workers[victim].wait()
        deadline = time.monotonic() + 120
        while len(client.scheduler_info()["workers"]) != 1:
            assert time.monotonic() < deadline, "the scheduler did not notice the lost worker"
            time.sleep(0.1)
    (tmp_path / "paused-0.go").write_text("")  # the run goes on
    assert child.wait() == 0, child.text
    assert child.text == f"wrote {out}: games.parquet, sample.csv, summary.csv, plots, manifest.json\n"  # no noise
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["records"] == json.loads((alone / "manifest.json").read_text())["records"]
    assert manifest["execution"]["workers"] == 1  # the run ended with the worker lost
    assert (out / "games.parquet").read_bytes() == (alone / "games.parquet").read_bytes()
    assert storage.parquet_digest(out / "games.parquet") == manifest["records"]["digest"]
    assert verify_study(out, redraw=False).ok


def test_a_local_cluster_leaves_port_8787_alone(write_study, tmp_path):
    """A run's own Dask cluster has no dashboard, and its scheduler's HTTP server takes a free port: with 8787
    taken (another cluster, a second run at the same time) the run prints nothing about it."""
    import socket

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    with socket.socket() as taken:
        try:
            taken.bind(("127.0.0.1", 8787))
        except OSError:
            pass  # already taken by something else: the same test
        taken.listen()
        run = subprocess.run([sys.executable, str(HERE / "fakegame.py"), "run", str(write_study()), "--out",
                              str(tmp_path / "R"), "--quiet", "--jobs", "2", "--backend", "dask"],
                             env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stderr == "", run.stderr
