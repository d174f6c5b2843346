"""SIGTERM answered like Ctrl-C, and the one line a stopped run ends with.

A run killed by ``kill`` (SIGTERM: a scheduler's time limit, a container stopping)
keeps its records as a Ctrl-C does, so it must say so as Ctrl-C does: ``terminated``
raises ``Terminated`` (a ``KeyboardInterrupt``) where Python delivers the signal, and
every handler of Ctrl-C handles it. The command line ends with exit status 143
(128 + SIGTERM, what a shell reports for a process the signal killed), Ctrl-C with 130.
A full disk (``ENOSPC``, also when pyarrow puts it only in its message) is said in
words, with what to do.
"""
from __future__ import annotations

import errno
import os
import re
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

from cardsim.study.plan.spec import RunStopped

SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals a run answers by stopping with one line."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised as Ctrl-C raises ``KeyboardInterrupt``."""


class RunTerminated(RunStopped):
    """A run or report stopped by SIGTERM (exit status 143); its message says what was kept."""

    def __init__(self, message: str) -> None:
        super().__init__(message, interrupted=True)


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises ``Terminated`` (in the main thread; elsewhere Python delivers none)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stopped(stop: KeyboardInterrupt, kept: str) -> RunStopped:
    """The ``RunStopped`` of a run stopped by Ctrl-C or SIGTERM: ``kept`` says what it left."""
    if isinstance(stop, Terminated):
        return RunTerminated(f"terminated (SIGTERM): {kept}")
    return RunStopped(f"interrupted: {kept}", interrupted=True)


def status(stop: RunStopped) -> int:
    """The exit status of a stopped run: 143 (SIGTERM), 130 (Ctrl-C) or 2 (an error of the system)."""
    return 128 + signal.SIGTERM if isinstance(stop, RunTerminated) else 130 if stop.interrupted else 2


@contextmanager
def deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the block runs (a swap: a few renames), then deliver the first
    one caught. (Outside the main thread Python delivers no signal.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        raise Terminated if caught[0] == signal.SIGTERM else KeyboardInterrupt


_NO_SPACE = re.compile(rf"\[errno {errno.ENOSPC}\]|no space left on device", re.IGNORECASE)


def full_disk(err: OSError) -> bool:
    """Whether ``err`` is a full disk (pyarrow says so only in its message)."""
    return err.errno == errno.ENOSPC or bool(_NO_SPACE.search(str(err)))


def os_error(err: OSError) -> str:
    """An error of the system in words: a full disk said as such, else the file and the system's reason."""
    where = f"{err.filename}: " if err.filename else ""
    if full_disk(err):
        return f"{where}the disk is full ({os.strerror(errno.ENOSPC)})"
    return f"{where}{err.strerror or err}"
