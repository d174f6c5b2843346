"""Run the cardsim command line until a named pause point (``cardsim.study.hooks``), then kill it.

``paused(argv, point, tmp)`` forks this test process (the fake game installed, nothing to
import again), runs ``cli.main(argv, hooks=PauseAt(point, marker))`` in the child, and
returns once the child waits at ``point``: the test then kills it exactly there, never
"about then". ``process(argv, point, tmp)`` does the same with a fresh interpreter
(``python fakegame.py --pause POINT:MARKER ...``), for tests that need real worker processes
of a real run.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from cardsim.study.hooks import Hooks

HERE = Path(__file__).resolve().parent
WAIT_S = 120
"""The most a child may take to reach its pause point (a deadline, not a timing assumption)."""


@dataclass(frozen=True)
class PauseAt(Hooks):
    """Hooks that wait at the ``nth`` occurrence of ``point`` ("plot#2": the second plot): write the
    process id into ``marker``, then wait until killed (or interrupted: a SIGINT raises
    ``KeyboardInterrupt`` there, as Ctrl-C would), or until the file ``marker.go`` exists."""

    point: str = ""
    marker: str = ""
    seen: dict = field(default_factory=dict)

    def pause(self, point: str) -> None:
        name, _, nth = self.point.partition("#")
        if name != point:
            return
        self.seen[point] = self.seen.get(point, 0) + 1
        if self.seen[point] != int(nth or 1):
            return
        with open(self.marker + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(self.marker + ".tmp", self.marker)
        while not os.path.exists(self.marker + ".go"):
            time.sleep(0.02)


@dataclass
class Child:
    pid: int
    output: Path
    popen: subprocess.Popen | None = None

    def kill(self, sig: int) -> int:
        """Send ``sig``; return the exit status (negative: killed by that signal)."""
        os.kill(self.pid, sig)
        return self.wait()

    def wait(self) -> int:
        if self.popen is not None:
            try:
                return self.popen.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                self.kill_all()  # no orphan keeps a port or a lock for the tests after this one
                raise
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

    def kill_all(self) -> None:
        """SIGKILL the child and every process below it."""
        try:
            family = psutil.Process(self.pid).children(recursive=True) + [psutil.Process(self.pid)]
        except psutil.NoSuchProcess:
            return
        for p in family:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass

    @property
    def text(self) -> str:
        return self.output.read_text(errors="replace")


def paused(argv: list[str], point: str, tmp: Path, two_renames: bool = False) -> Child:
    """A forked child running ``cardsim argv``, waiting at ``point`` (e.g. ``"plot#2"``); ``two_renames``:
    the folder swapped by two renames (``Hooks.two_renames``)."""
    marker, output = _files(tmp)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            sys.stdout = sys.stderr = open(output, "w", buffering=1)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            from cardsim import cli

            code = cli.main(argv, hooks=PauseAt(two_renames, point, str(marker)))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 98
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            os._exit(code)
    child = Child(pid, output)
    _await(child, marker)
    return child


def process(argv: list[str], point: str, tmp: Path) -> Child:
    """``python fakegame.py argv`` (a fresh interpreter), waiting at ``point``."""
    marker, output = _files(tmp)
    with open(output, "w") as out:
        popen = subprocess.Popen([sys.executable, str(HERE / "fakegame.py"), "--pause", f"{point}:{marker}", *argv],
                                 stdout=out, stderr=out, preexec_fn=_default_signals)
    child = Child(popen.pid, output, popen)
    _await(child, marker)
    return child


def _default_signals() -> None:
    """In the child before it starts: SIGINT and SIGTERM at their defaults, whatever this process left them
    at (an ignored signal stays ignored across ``exec``), so the child answers them as a user's would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _files(tmp: Path) -> tuple[Path, Path]:
    n = len(list(tmp.glob("paused-*")))
    return tmp / f"paused-{n}", tmp / f"output-{n}.txt"


def _await(child: Child, marker: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while not marker.exists():
        done = child.popen.poll() if child.popen is not None else _exited(child.pid)
        if done is not None:
            raise AssertionError(f"the child ended ({done}) before its pause point:\n{child.text}")
        if time.monotonic() > deadline:
            os.kill(child.pid, signal.SIGKILL)
            raise AssertionError(f"the child did not reach its pause point in {WAIT_S} s:\n{child.text}")
        time.sleep(0.02)


def _exited(pid: int) -> int | None:
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else None
