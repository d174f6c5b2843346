"""The study layer: run variant comparisons from a TOML study file, write and re-check results.

A study walks one way through its stages, each a subpackage with one job: ``plan`` (the
study file read into a ``Study``, its cells), ``run`` (the cells' tasks played into
records), ``folder`` (the records kept, the folder's files and manifest, the swap that
replaces a folder all or nothing), ``report`` (summary, effects, plots, ``report.html``)
and ``ladder`` (a ladder's tables, ratings and figure). ``pipeline`` walks a study through
them (``cardsim run | report``), ``verify`` checks a folder against what it claims,
``compare`` and ``replication`` serve ``cardsim compare | replicate``. The names below are
imported on first use, so that a worker process importing ``cardsim.study.run.workers``
starts quickly.
"""
from __future__ import annotations

from importlib import import_module

_EXPORTS = {"Study": "plan.spec", "StudyError": "plan.spec", "load": "plan.spec", "report_study": "pipeline",
            "run_study": "pipeline", "run_ladder": "pipeline", "verify_study": "verify"}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f"cardsim.study.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'cardsim.study' has no attribute {name!r}")
