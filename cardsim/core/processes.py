"""A child process that dies with its parent and leaves Ctrl-C to it (run workers, plot drawers).

On Linux the child asks the kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), so a
process killed outright (SIGKILL, out of memory) leaves no child behind; elsewhere only an orderly
end stops them. It ignores SIGINT: Ctrl-C reaches the whole process group, and the parent alone
answers it.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


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
