"""The workers of a run (``cardsim.study.run.execution``): loky workers start when the ``with`` block is
entered, before any task, so that they import the engines while the parent still prepares the run; once
the last task is back, ``release()`` lets them exit while the parent writes (issue 29: the main job's wait)."""
import time

import psutil
import pytest

from cardsim.study.run.execution import Execution, cores

pytestmark = pytest.mark.skipif(cores() < 2, reason="two worker processes need two cores")


def _workers() -> list[psutil.Process]:
    """This process's loky workers (not loky's resource tracker)."""
    return [p for p in psutil.Process().children() if "loky" in " ".join(p.cmdline())
            and "resource_tracker" not in " ".join(p.cmdline())]


def _started(n: int) -> list[psutil.Process]:
    """The workers once there are ``n`` of them, or after 30 s."""
    for _ in range(300):
        workers = _workers()
        if len(workers) >= n:
            return workers
        time.sleep(0.1)
    return _workers()


def test_loky_workers_start_on_entering_before_any_task_and_exit_on_release():
    before = {p.pid for p in _workers()}
    with Execution(2) as execution:
        workers = [p for p in _started(2 + len(before)) if p.pid not in before]
        assert len(workers) == 2, "entering the block starts one worker per job"
        assert list(execution.map(pow, [(2, i) for i in range(6)])) == [1, 2, 4, 8, 16, 32]
        execution.release()
        gone, alive = psutil.wait_procs(workers, timeout=60)
        assert not alive, "released workers exit while the parent goes on"
        execution.release()  # a second release, and the block's end, have nothing left to do


def test_one_job_runs_in_this_process_and_starts_no_worker():
    before = {p.pid for p in _workers()}
    with Execution(1) as execution:
        assert list(execution.map(pow, [(3, 2)])) == [9]
        assert {p.pid for p in _workers()} == before
