"""What every worker process of a run does first: die with its parent, leave Ctrl-C to it.

Run in each loky worker (its ``initializer``) and in each process of a local Dask
cluster (a Dask ``preload``: ``dask_setup``). On Linux the worker asks the kernel for
SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), so a run killed outright (SIGKILL,
out of memory) leaves no worker behind; elsewhere only an orderly end stops them. It
ignores SIGINT: Ctrl-C reaches the whole process group, and the parent alone answers it
(one line) and stops its workers. This module imports nothing of the study layer, so
that a worker starts quickly; ``ready`` is a worker's first task when a run starts its
workers ahead of the games (``Execution``), so that they import the engines while the
parent still prepares.
"""
from __future__ import annotations

from cardsim.core.processes import die_with_parent

__all__ = ["dask_setup", "die_with_parent", "ready"]


def ready() -> None:
    """Import what every task needs (``cardsim.api``: numpy, pandas, numba, the games' registry): the
    first task a loky worker is given, so that it starts up while its parent is still busy."""
    import cardsim.api  # noqa: F401


def dask_setup(worker) -> None:  # noqa: ARG001 - Dask's preload hook
    """Dask calls this in each worker process of a local cluster (``preload=[__name__]``)."""
    die_with_parent()
