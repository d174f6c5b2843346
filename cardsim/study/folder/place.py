"""Where a study folder lives, and how a new study replaces it: all or nothing.

A run never writes into the study folder ``R`` itself. Beside it, in ``R``'s parent:

- ``.R.lock`` — the lock (``lock``): one writer per folder;
- ``.R.part/`` — the new study being written; its records are kept chunk by chunk
  (``pieces``), so a killed run can be resumed (``cardsim run --resume``);
- ``.R.ready-<run>/`` — the new study, complete (its manifest, written last, holds ``run``);
- ``.R.old-<run>/`` — the previous study, swapped out, being removed.

**The swap** (``swap_in``): ``.R.part`` is renamed ``.R.ready-<run>`` once complete; then

- without an ``R``: ``.R.ready-<run>`` is renamed ``R``;
- where the system exchanges two names atomically (Linux ``renameat2`` with
  ``RENAME_EXCHANGE``: ext4, xfs, btrfs, tmpfs, ...): ``.R.ready-<run>`` and ``R`` are
  exchanged, the old study (now ``.R.ready-<run>``) is renamed ``.R.old-<run>`` and removed;
- elsewhere: ``R`` is renamed ``.R.old-<run>``, ``.R.ready-<run>`` is renamed ``R``, the
  old study is removed.

Each rename is atomic and followed by an ``fsync`` of the parent; the new study's files
are synced before its first rename. **What a reader of R sees**: the old complete
study, then the new complete study, never a mix and never a partial file. With the
exchange there is no instant between the two; with two renames there is one, in which
``R`` does not exist (a reader is told "no manifest", nothing worse). A reader that opens
``R``'s files one by one could straddle a swap; ``verify`` and ``report`` hold the lock, so
they never do.

**Checked first** (``out_folder``, before any game): ``R`` is not a mount point (another
file system, or a bind mount: the kernel refuses to rename either, so the swap would
fail after the whole run) and a folder beside it can be created, renamed and removed.

**Recovery** (``recover``; the next run, report or verify calls it under the lock): a
``.R.ready-<run>`` is always complete. When ``R``'s manifest is of that run, the exchange
happened and the leftover holds the old study: removed. Otherwise the killed run had
finished and only its swap was cut short: the swap is completed. A ``.R.old-<run>`` is
removed once ``R`` exists. ``.R.part`` is left for ``--resume``. A ``.R.ready-<run>`` beside a
mount point (an earlier cardsim could not swap it in) is left as it is, with a note.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
import sys
from pathlib import Path

from cardsim.study.hooks import NONE, Hooks

STUDY_FILES = ("manifest.json", "games.parquet", "sample.csv", "summary.csv", "report.html")
"""Files any study folder may hold, beside its plots (``*.png``) and what its manifest lists."""
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


class Place:
    """The study folder ``folder`` and its siblings (lock, part, ready, old)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.parent, self.name = folder.parent, folder.name

    @property
    def lock(self) -> Path:
        return self.parent / f".{self.name}.lock"

    @property
    def part(self) -> Path:
        return self.parent / f".{self.name}.part"

    def ready(self, run: str) -> Path:
        return self.parent / f".{self.name}.ready-{run}"

    def old(self, run: str) -> Path:
        return self.parent / f".{self.name}.old-{run}"

    def leftovers(self, kind: str) -> list[Path]:
        return sorted(self.parent.glob(f".{self.name}.{kind}-*"))


def out_folder(out: str | Path | None, name: str) -> Place:
    """The place of a run's folder: ``out``, or ``results/<name>`` (``results`` is created if
    missing). ``ValueError`` (one line) for a path that cannot be a study folder; writes nothing
    but ``results``."""
    if out is None:
        default = Path("results")
        if not default.exists():
            check_parent(Path(os.path.abspath(default)).parent, "results")
            default.mkdir()
        out = default / name
    if not isinstance(out, (str, Path)) or str(out).strip() == "":
        raise ValueError(f"--out: expected a folder path, not {str(out)!r}")
    folder = Path(os.path.abspath(out))
    if not folder.name:
        raise ValueError(f"--out {out}: not a folder a study can replace")
    if folder.is_symlink():
        raise ValueError(f"--out {out}: a symbolic link; give the folder it points to ({os.path.realpath(folder)})")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {out}: a file, not a folder")
    cwd = Path(os.path.abspath(os.getcwd()))
    if cwd == folder or folder in cwd.parents:
        raise ValueError(f"--out {out}: holds the working folder; a run replaces its folder as a whole")
    if folder.exists() and mount_point(folder):
        raise ValueError(f"--out {out}: a mount point, which cannot be renamed; a run replaces its folder by "
                         f"renaming it: give a folder inside it (e.g. --out {Path(out) / name})")
    check_parent(folder.parent, f"--out {out}")
    check_renames(Place(folder), f"--out {out}")
    return Place(folder)


def mount_point(folder: Path) -> bool:
    """Whether ``folder`` is a mount point: another file system (``os.path.ismount``) or a bind mount
    of a folder of the same one (listed in ``/proc/self/mountinfo``). Either cannot be renamed."""
    if os.path.ismount(folder):
        return True
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    real = os.path.realpath(folder)
    return any(len(f) > 4 and _unescape(f[4]) == real for f in (line.split(" ") for line in lines))


def _unescape(path: str) -> str:
    """A path of ``/proc/self/mountinfo`` (space, tab, newline and backslash are written in octal)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), path)


def check_renames(place: Place, what: str) -> None:
    """``ValueError`` unless a folder beside ``place.folder`` can be created, renamed and removed, as a
    run's swap does (a file system that refuses renaming folders fails here, before any game)."""
    probe = place.parent / f".{place.name}.probe-{os.getpid()}"
    moved = probe.with_name(probe.name + "-renamed")
    try:
        probe.mkdir()
        os.rename(probe, moved)
    except OSError as err:
        raise ValueError(f"{what}: {place.parent} does not let a folder be renamed ({err.strerror or err}); "
                         "a run replaces its folder by renaming: choose a folder on another file system") from None
    finally:
        for path in (probe, moved):
            if path.is_dir():
                path.rmdir()


def check_parent(parent: Path, what: str) -> None:
    """``ValueError`` unless ``parent`` is an existing folder this process may write in."""
    if not parent.exists():
        above = next((p for p in parent.parents if p.exists()), None)
        if above is not None and not above.is_dir():
            raise ValueError(f"{what}: under a file ({above} is not a folder)")
        raise ValueError(f"{what}: its folder {parent} does not exist; create it first")
    if not parent.is_dir():
        raise ValueError(f"{what}: under a file ({parent} is not a folder)")
    if os.statvfs(parent).f_flag & os.ST_RDONLY:
        raise ValueError(f"{what}: {parent} is on a read-only file system")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{what}: {parent} is not writable")


def check_contents(place: Place, listed: list[str]) -> None:
    """``ValueError`` when the folder holds anything but a study's files (``STUDY_FILES``, plots,
    files the old manifest lists in ``listed``, leftovers ``*.tmp-*``): a run replaces the folder
    as a whole and must never remove a file it did not write."""
    if not place.folder.exists():
        return
    allowed = {*STUDY_FILES, *listed}
    foreign = sorted(p.name for p in place.folder.iterdir()
                     if not (p.is_file() and not p.is_symlink()
                             and (p.name in allowed or p.suffix == ".png" or ".tmp-" in p.name)))
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise ValueError(f"{place.folder}: holds files that are not a study's ({shown}); a run replaces the "
                         "folder as a whole: choose another --out")


def manifest_run(folder: Path) -> str | None:
    """The ``run`` of the folder's manifest, or None (none, unreadable, or from before runs had ids)."""
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("run") if isinstance(data, dict) else None


def recover(place: Place, hooks: Hooks = NONE) -> list[str]:
    """Finish or undo what a killed swap left (see the module docstring); return what was done."""
    done = []
    if place.folder.exists() and mount_point(place.folder):  # an earlier cardsim ran into it and could not swap
        return [f"{p.name} beside {place.folder} is a finished run that cannot replace a mount point; left as it "
                f"is (rename it to keep it, e.g. mv {p} {p.parent / p.name.lstrip('.').replace('.ready-', '-')})"
                for p in place.leftovers("ready")]
    for ready in place.leftovers("ready"):
        run = ready.name.rsplit("-", 1)[1]
        if place.folder.exists() and manifest_run(place.folder) == run:
            _remove(ready)
            done.append(f"removed the earlier study left by an interrupted swap ({ready.name})")
        else:
            _swap(ready, place, run, hooks)
            done.append(f"completed the swap of a finished run ({ready.name})")
    for old in place.leftovers("old"):
        if place.folder.exists():
            _remove(old)
            done.append(f"removed the earlier study left by an interrupted swap ({old.name})")
        else:
            os.rename(old, place.folder)
            _sync_dir(place.parent)
            done.append(f"restored the earlier study from {old.name}")
    return done


def swap_in(place: Place, run: str, hooks: Hooks = NONE) -> None:
    """Make the complete study in ``place.part`` (its manifest's ``run`` is ``run``) the folder (``hooks``:
    a test's seams, ``cardsim.study.hooks``)."""
    sync_tree(place.part)
    ready = place.ready(run)
    os.rename(place.part, ready)
    _sync_dir(place.parent)
    hooks.pause("swap.ready")
    _swap(ready, place, run, hooks)


def _swap(ready: Path, place: Place, run: str, hooks: Hooks) -> None:
    if not place.folder.exists():
        os.rename(ready, place.folder)
        _sync_dir(place.parent)
        return
    old = place.old(run)
    if not hooks.two_renames and _exchange(ready, place.folder):
        _sync_dir(place.parent)
        hooks.pause("swap.exchanged")
        os.rename(ready, old)
    else:
        os.rename(place.folder, old)
        _sync_dir(place.parent)
        hooks.pause("swap.aside")
        os.rename(ready, place.folder)
    _sync_dir(place.parent)
    hooks.pause("swap.cleanup")
    _remove(old)


def _exchange(a: Path, b: Path) -> bool:
    """Exchange the names ``a`` and ``b`` atomically; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove(path: Path) -> None:
    shutil.rmtree(path)
    _sync_dir(path.parent)


def sync_tree(folder: Path) -> None:
    """Flush every file of ``folder`` and the folder itself to disk (before it is renamed into place)."""
    for path in folder.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    _sync_dir(folder)


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def discard_part(place: Place) -> None:
    """Remove the kept chunks of an interrupted run (a run without ``--resume``)."""
    if place.part.exists():
        shutil.rmtree(place.part)

