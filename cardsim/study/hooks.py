"""The study layer's test seams: the points where a test may stop a run, an injected dependency.

A run, ``report`` and ``verify``'s recovery take a ``Hooks`` object (``run_study(hooks=...)``,
``run_loaded``, ``report_study``, ``cli.main``) and hand it forward, stage to stage; by default
``NONE``, whose every point does nothing. Nothing reads the environment. The kill tests
(``tests/study/killing.py``) pass their own, which waits at one named point until the test has
killed the process there (a SIGKILL or SIGINT exactly at that point, never "about then"), to
prove that a study folder is never half-written.

The points, in the order a run meets them: ``locked`` (the folder's lock taken), ``piece`` (after
each chunk of records is kept), ``assemble``, ``row group`` (after each row group of
``games.parquet`` is written, the file still under its temporary name), ``digest``, ``sample``,
``plot`` (before each plot), ``manifest``, ``swap.ready`` (the new study complete beside the
folder), ``swap.exchanged`` or, swapping by two renames, ``swap.aside`` (the folder absent), and
``swap.cleanup`` (the old study left to remove).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hooks:
    """No-op seams; a test subclasses ``pause``. ``two_renames``: swap a folder by two renames, as on
    a system that cannot exchange two names atomically, so that path is tested on Linux too."""

    two_renames: bool = False

    def pause(self, point: str) -> None:
        """Called at each named point of a run (the module docstring lists them); does nothing here."""


NONE = Hooks()
"""The hooks of every run that is not a test's."""
