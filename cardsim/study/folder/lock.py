"""One writer per study folder: a lock file beside the folder, held with ``flock``.

``cardsim run`` and ``cardsim report`` hold the lock exclusively from the moment the
run is validated until the new folder is swapped in; ``cardsim verify`` holds it
shared (any number of readers, no writer). The lock file ``.<name>.lock`` sits beside
the folder (not in it: the folder itself is swapped) and holds the writer's process
id and host, for the message a second writer gets.

The operating system holds the lock (``flock``), so it dies with its holder: a killed
run leaves a lock file that no process holds, and the next writer takes it over, with
a note naming the process that left it. A lock file is removed when its exclusive
holder releases it, or by its last reader unless a killed writer left its record in
it; a process that meanwhile locked the unlinked file notices (the path no longer
names its file) and starts again.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from cardsim.study.plan.spec import StudyError


class Locked(StudyError):
    """The folder is locked by another process (one line: who, since when)."""


@contextmanager
def hold(lock: Path, folder: Path, *, exclusive: bool = True,
         note: Callable[[str], None] = lambda line: None) -> Iterator[None]:
    """Hold ``lock`` (the lock file of ``folder``) for the ``with`` block; ``Locked`` when taken.

    A shared holder on a read-only file system, where the lock file cannot be created,
    holds nothing: no writer can work there either.
    """
    fd = _acquire(lock, folder, exclusive, note)
    try:
        yield
    finally:
        if fd is not None:
            _release(lock, fd, exclusive)


def _acquire(lock: Path, folder: Path, exclusive: bool, note: Callable[[str], None]) -> int | None:
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            if exclusive or err.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise
            if not lock.exists():
                return None
            fd = os.open(lock, os.O_RDONLY)
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            who = (f"cardsim process {holder.get('pid')} on {holder.get('host')} since {holder.get('since')}"
                   if holder else "a cardsim verify")
            raise Locked(str(folder), None, f"in use by {who}; wait until it ends (one writer per folder)") from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, lock):
            break
        os.close(fd)  # we locked a file its holder had just removed: take the new one
    if exclusive:
        left = _read(fd)
        if left:
            note(f"took over the lock of {folder} left by cardsim process {left.get('pid')} on {left.get('host')} "
                 f"(since {left.get('since')}; killed: it no longer holds it)")
        _write(fd, {"pid": os.getpid(), "host": socket.gethostname(), "since": _now()})
    return fd


def _release(lock: Path, fd: int, exclusive: bool) -> None:
    try:
        if not exclusive:
            if _read(fd):  # a killed writer's record: left for the next writer to take over, with its note
                return
            try:  # the last reader removes the file; a writer or another reader may hold it still
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return
        if _same_file(fd, lock):
            lock.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only lock file of a reader, or one removed already: nothing to clean
    finally:
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _read(fd: int) -> dict:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        data = json.loads(text) if text.strip() else {}
    except (OSError, ValueError):
        return {"pid": "?", "host": "?", "since": "?"}
    return data if isinstance(data, dict) else {}


def _write(fd: int, holder: dict) -> None:
    data = json.dumps(holder).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")
