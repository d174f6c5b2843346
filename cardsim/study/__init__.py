"""The study layer: run variant comparisons from a TOML study file, write and re-check results.

``spec`` reads study files (``design`` expands a sweep or factorial into variants),
``runner`` plays the games (``execution`` runs the tasks, ``workers`` sets up each worker
process; ``stepping`` plays on to a precision, by ``precision``'s rule), ``stats``
summarises them (with each cell's fairness), ``effects`` measures a design's knobs,
``plots`` draws them, ``htmlreport`` writes ``report.html``, ``compare`` serves
``cardsim compare``, ``storage`` owns the files of a folder, ``pieces`` the records of a run in
progress, ``folder`` and ``lock`` the folder itself (one writer, replaced all or
nothing), ``disk`` the space a run needs, ``signals`` how a stopped run ends, ``manifest``
what a folder claims, ``report`` its summary and plots,
``verify`` checks it, ``commands`` ties them together. The names below are imported on
first use, so that a worker process importing ``cardsim.study.workers`` starts quickly.
"""
from __future__ import annotations

from importlib import import_module

_EXPORTS = {"Study": "spec", "StudyError": "spec", "load": "spec", "report_study": "commands",
            "run_study": "commands", "verify_study": "verify"}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f"cardsim.study.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'cardsim.study' has no attribute {name!r}")
