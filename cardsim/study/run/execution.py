"""Where a run's tasks execute: in this process, in loky worker processes, or on a Dask cluster.

``Execution(jobs, backend, scheduler)`` checks its arguments when made: a job count
above this machine's cores is capped (with a note: more processes than cores only
compete), and a Dask scheduler address is connected at once, so an unreachable
scheduler is one line before anything is written. loky workers start when the
``with`` block is entered, each importing the engines (``workers.ready``) while the
parent goes on preparing the run; ``release()`` lets them go as soon as the last task
is back, so that they exit while the parent writes.

- ``map(fn, calls)`` yields ``fn(*args)`` for each ``args`` in order, with a few tasks in
  flight per worker: memory follows the chunk, not the study.
- Workers die with their parent and leave Ctrl-C to it (``workers``); leaving the
  ``with`` block by an exception (Ctrl-C included) kills them at once.
- On Dask, a worker lost mid-run costs nothing but time: the scheduler runs its tasks
  again elsewhere (up to its ``allowed-failures``), and a task that fails is retried
  ``RETRIES`` times.
- A worker that dies otherwise (killed by the system, out of memory) stops the run with
  ``WorkerLost``, an ``OSError``: one line, and the records kept so far can be resumed.
- ``describe()`` is what really ran, for the manifest: backend, processes or workers
  and threads, scheduler.
"""
from __future__ import annotations

import logging
import os
from collections import deque
from concurrent.futures import BrokenExecutor
from contextlib import ExitStack, contextmanager
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from cardsim.study.run import workers

BACKENDS = ("loky", "dask")
RETRIES = 3
"""Times Dask retries a task that raised (a lost worker's tasks are re-run by the scheduler itself)."""
AHEAD = 2
"""Tasks in flight per worker: enough to keep it busy, few enough to bound memory."""


class WorkerLost(OSError):
    """A worker process died under a task (killed by the system, out of memory, ...)."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Execution:
    """The workers of one run (a context manager); see the module docstring."""

    def __init__(self, jobs: object = 1, backend: str = "loky", scheduler: str | None = None,
                 note: Callable[[str], None] = lambda line: None) -> None:
        if not isinstance(jobs, int) or isinstance(jobs, bool) or (jobs < 1 and jobs != -1):
            raise ValueError(f"--jobs must be a positive integer or -1 (all cores), not {jobs!r}")
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
        if scheduler is not None and backend != "dask":
            raise ValueError("--scheduler needs --backend dask")
        if backend == "dask":
            try:
                import distributed  # noqa: F401
            except ImportError:
                raise ValueError('--backend dask needs Dask: pip install -e ".[dask]"') from None
        if scheduler is not None and not (isinstance(scheduler, str) and scheduler.strip()):
            raise ValueError(f"--scheduler: expected an address such as tcp://10.0.0.5:8786, not {scheduler!r}")
        n = cores()
        if jobs > n and scheduler is None:
            note(f"--jobs {jobs} capped at {n}, the cores of this machine")
        self.jobs = n if jobs == -1 or jobs > n else jobs
        self.backend, self.scheduler = backend, scheduler
        self._stack = ExitStack()
        self._pool = self._client = None

    @property
    def in_process(self) -> bool:
        return self.backend == "loky" and self.jobs == 1

    def __enter__(self) -> Execution:
        if self.scheduler is not None:
            self._connect()
        elif self.backend == "loky" and not self.in_process:
            submit = self._submitter()
            for _ in range(self.jobs):
                submit(workers.ready, ())
        return self

    def release(self) -> None:
        """No task will follow: the loky workers exit now, without this process waiting for them."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def __exit__(self, kind, error, trace) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=kind is None, kill_workers=kind is not None)
            self._pool = None
        if kind is not None:
            logging.getLogger("distributed").setLevel(logging.CRITICAL)  # a cluster stopped mid-run complains
        self._stack.close()
        self._client = None

    def map(self, fn: Callable, calls: Iterable[tuple]) -> Iterator[Any]:
        """``fn(*args)`` for every ``args``, in order."""
        calls = iter(calls)
        if self.in_process:
            for args in calls:
                yield fn(*args)
            return
        submit, pending = self._submitter(), deque()
        try:
            with self._lost_worker():
                pending.extend(submit(fn, args) for args in islice(calls, AHEAD * self._width()))
            while pending:
                with self._lost_worker():
                    result = pending.popleft().result()
                    pending.extend(submit(fn, args) for args in islice(calls, 1))
                yield result
        finally:
            for future in pending:
                future.cancel()

    @contextmanager
    def _lost_worker(self) -> Iterator[None]:
        """Turn the pool's or the cluster's "a worker died" into ``WorkerLost``."""
        lost: tuple[type[BaseException], ...] = (BrokenExecutor,)
        if self.backend == "dask":
            from distributed import KilledWorker

            lost = (KilledWorker,)
        try:
            yield
        except lost as err:
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise WorkerLost(f"a worker process died under a task ({reason})") from None

    def describe(self) -> dict[str, Any]:
        """What ran the tasks (the manifest's ``execution``)."""
        out: dict[str, Any] = {"backend": self.backend, "jobs": self.jobs, "scheduler": self.scheduler}
        if self._client is not None:
            info = self._client.scheduler_info()
            threads = sum(w.get("nthreads", 1) for w in info.get("workers", {}).values())
            out |= {"jobs": threads, "workers": len(info.get("workers", {})), "threads": threads}
        return out

    def _width(self) -> int:
        if self._client is not None:
            return max(1, sum(self._client.nthreads().values()))
        return self.jobs

    def _submitter(self) -> Callable:
        if self.backend == "dask":
            if self._client is None:
                self._start_cluster()
            return lambda fn, args: self._client.submit(fn, *args, pure=False, retries=RETRIES)
        if self._pool is None:
            from joblib.externals.loky import ProcessPoolExecutor

            # loky's resource tracker (a process it starts beside the workers) warns on stderr about the
            # semaphores of workers stopped by Ctrl-C; the run has already said in one line what happened
            os.environ.setdefault("PYTHONWARNINGS", "ignore:resource_tracker:UserWarning")
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=workers.start,
                                             initargs=(os.getpid(),))
        return lambda fn, args: self._pool.submit(fn, *args)

    def _connect(self) -> None:
        from distributed import Client

        try:
            self._client = self._stack.enter_context(Client(self.scheduler, timeout="10s"))
        except (OSError, TimeoutError, ValueError) as err:
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise ValueError(f"cannot reach the Dask scheduler {self.scheduler!r} ({reason})") from None

    def _start_cluster(self) -> None:
        from distributed import Client, LocalCluster

        cluster = self._stack.enter_context(LocalCluster(
            n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=None,
            # no dashboard; the scheduler's HTTP server (health routes) on a free port, not 8787, which a
            # second run at the same time would find taken (a warning in the run's output)
            scheduler_kwargs={"dashboard_address": ":0"},
            silence_logs=logging.ERROR, preload=[workers.__name__]))
        self._client = self._stack.enter_context(Client(cluster))
