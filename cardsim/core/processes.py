"""A child process that dies with its parent and leaves Ctrl-C to it (run workers, plot drawers).

On Linux the child asks the kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), so a
process killed outright (SIGKILL, out of memory) leaves no child behind; elsewhere only an orderly
end stops them. It ignores SIGINT: Ctrl-C reaches the whole process group, and the parent alone
answers it. A forked child inherits its parent's signal handlers too: forked under ``stop_signals_blocked``,
it receives no stop signal before it has set its own (``unblock_stop_signals``).
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
from contextlib import contextmanager
from typing import Iterator

_PR_SET_PDEATHSIG = 1
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run (Ctrl-C, ``kill``)."""


@contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """Within the block this thread holds SIGINT and SIGTERM back (they stay pending and arrive after it), so
    that a process forked in it starts with them blocked: a parent's handler it inherits cannot run before the
    child has set its own. Threads started in the block keep them blocked (signals reach the main thread)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def unblock_stop_signals() -> None:
    """A child forked under ``stop_signals_blocked``, its handlers set: let SIGINT and SIGTERM in."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def die_with_parent(parent: int | None = None) -> None:
    """Be killed when the parent process dies; ignore SIGINT. ``parent``: the pid expected as parent
    (a parent that died before this call is noticed: the worker then exits at once)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread of the worker: Ctrl-C is not delivered to it anyway
        pass
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)
