"""What every worker process of a run does first: die with its parent, leave Ctrl-C (and the
warning of a model playing under other rules) to it.

``start`` runs in each loky worker (its ``initializer``) and in each process of a local Dask
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

import warnings

from cardsim.core.models import OtherRules
from cardsim.core.processes import die_with_parent

__all__ = ["dask_setup", "ready", "start"]


def start(parent: int | None = None) -> None:
    """A worker's first act (a loky ``initializer``; ``parent``: the pid expected as parent): die with the
    parent, and leave the warning that a model plays under other rules than it was trained for to the parent,
    which says it once per model (``manifest.untuned``) instead of once per worker and table."""
    die_with_parent(parent)
    warnings.simplefilter("ignore", OtherRules)


def ready() -> None:
    """Import what every task needs (``cardsim.api``: numpy, pandas, numba, the games' registry): the
    first task a loky worker is given, so that it starts up while its parent is still busy."""
    import cardsim.api  # noqa: F401


def dask_setup(worker) -> None:  # noqa: ARG001 - Dask's preload hook
    """Dask calls this in each worker process of a local cluster (``preload=[__name__]``)."""
    start()
