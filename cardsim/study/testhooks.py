"""Test-only hooks of the study layer, inert unless a ``CARDSIM_TEST_*`` variable is set.

The tests kill a run (SIGKILL, SIGINT) at chosen points to prove that a study folder
is never half-written, and they must kill it at that point, not "about then":

- ``pause(point)`` is called at each named point of a run (``"piece"`` after each
  chunk of records is kept, ``"plot"`` before each plot, ``"swap.exchanged"``, ...).
  With ``CARDSIM_TEST_PAUSE="plot#2:/tmp/paused"`` the second ``"plot"`` writes the
  process id into ``/tmp/paused`` and then waits until it is killed (or interrupted:
  a SIGINT raises ``KeyboardInterrupt`` there, as Ctrl-C would), or until the file
  ``/tmp/paused.go`` exists (the test did something meanwhile, e.g. killed a worker).
- ``CARDSIM_TEST_SWAP=rename`` makes ``folder`` swap by two renames, as on a system
  without an atomic exchange of two folders, so that path is tested too.

The variables are read at each call, not at import, so a forked test process may set them.
"""
from __future__ import annotations

import os
import time

_seen: dict[str, int] = {}


def pause(point: str) -> None:
    """Wait here forever when ``CARDSIM_TEST_PAUSE`` names this point (and this occurrence)."""
    spec = os.environ.get("CARDSIM_TEST_PAUSE")
    if not spec:
        return
    where, path = spec.split(":", 1)
    name, _, nth = where.partition("#")
    if name != point:
        return
    _seen[point] = _seen.get(point, 0) + 1
    if _seen[point] != int(nth or 1):
        return
    with open(path + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".tmp", path)
    while not os.path.exists(path + ".go"):
        time.sleep(0.02)


def swap_by_rename() -> bool:
    """Whether a test asked for the two-rename swap (``CARDSIM_TEST_SWAP=rename``)."""
    return os.environ.get("CARDSIM_TEST_SWAP") == "rename"
