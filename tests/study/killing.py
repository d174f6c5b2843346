"""Run the cardsim command line until a named pause point (``cardsim.study.testhooks``), then kill it.

``paused(argv, point, tmp)`` forks this test process (the fake game installed, nothing to
import again), runs ``cli.main(argv)`` in the child with ``CARDSIM_TEST_PAUSE`` set, and
returns once the child waits at ``point``: the test then kills it exactly there, never
"about then". ``process(argv, point, tmp)`` does the same with a fresh interpreter
(``python fakegame.py ...``), for tests that need real worker processes of a real run.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
WAIT_S = 120
"""The most a child may take to reach its pause point (a deadline, not a timing assumption)."""


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
            return self.popen.wait(timeout=WAIT_S)
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

    @property
    def text(self) -> str:
        return self.output.read_text(errors="replace")


def paused(argv: list[str], point: str, tmp: Path, env: dict[str, str] | None = None) -> Child:
    """A forked child running ``cardsim argv``, waiting at ``point`` (e.g. ``"plot#2"``)."""
    marker, output = _files(tmp)
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            os.environ.update(env or {})
            os.environ["CARDSIM_TEST_PAUSE"] = f"{point}:{marker}"
            sys.stdout = sys.stderr = open(output, "w", buffering=1)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            from cardsim import cli

            code = cli.main(argv)
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


def process(argv: list[str], point: str, tmp: Path, env: dict[str, str] | None = None) -> Child:
    """``python fakegame.py argv`` (a fresh interpreter), waiting at ``point``."""
    marker, output = _files(tmp)
    with open(output, "w") as out:
        popen = subprocess.Popen([sys.executable, str(HERE / "fakegame.py"), *argv], stdout=out, stderr=out,
                                 env={**os.environ, **(env or {}), "CARDSIM_TEST_PAUSE": f"{point}:{marker}"})
    child = Child(popen.pid, output, popen)
    _await(child, marker)
    return child


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
