"""Where numba keeps the compiled engines: beside the package, or in a user cache folder when that is read-only.

numba writes the machine code of every ``cache=True`` function into the ``__pycache__`` folder
beside its source. A system-wide or read-only install cannot be written there, so
``configure`` (run by ``import cardsim``, before any engine module is imported) points numba
at ``<user cache>/cardsim/numba`` instead (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux,
``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows). ``NUMBA_CACHE_DIR``, when set,
wins: it is the user's own choice. numba reads that variable when it is imported, so
``configure`` sets it in the environment, and in numba's config as well when numba was
imported first. Beside the package, ``configure`` also drops numba's cache files once any module
holding compiled code has changed (``drop_stale``). This module imports nothing of numba's.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``cardsim`` package folder."""
VARIABLE = "NUMBA_CACHE_DIR"
COMPILED = ("core", "games", "envs", "play")
"""The package folders whose modules hold ``cache=True`` functions (each calls into the others')."""
STAMP = "cardsim-compiled-sources.stamp"
"""In the package's ``__pycache__``: ``sources_stamp`` when the cache files beside the modules were last
known to be current."""


def compiled_folders() -> list[Path]:
    """The package folders holding compiled modules: ``core`` (``jit.py``) and each game's."""
    games = PACKAGE / "games"
    return [PACKAGE / "core", *sorted(p for p in games.iterdir() if p.is_dir() and p.name != "__pycache__")]


def writable(folder: Path) -> bool:
    """Whether numba can keep a cache beside the modules of ``folder``: its ``__pycache__`` can be made
    and written (numba's own test, which also holds for root, whom file modes do not stop)."""
    return _can_write(folder / "__pycache__")


def _can_write(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a file can be written into it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def user_folder() -> Path:
    """``<user cache>/cardsim/numba``: this user's cache folder for cardsim's compiled code."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "cardsim" / "numba"


def configure() -> Path | None:
    """Point numba at ``user_folder()`` when a compiled module's folder cannot hold its cache and
    ``NUMBA_CACHE_DIR`` is unset; return the folder numba is told to use (None: beside the package,
    or numba's own choice when the user folder cannot be written either)."""
    if os.environ.get(VARIABLE):
        return Path(os.environ[VARIABLE])
    if all(writable(f) for f in compiled_folders()):
        drop_stale()
        return None
    folder = user_folder()
    if not _can_write(folder):
        return None
    os.environ[VARIABLE] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: its config has read the environment already
        numba_config.CACHE_DIR = str(folder)
    return folder


def sources_stamp() -> str:
    """A digest of the path, size and modification time of every module in ``COMPILED``."""
    digest = hashlib.sha256()
    for path in sorted(p for folder in COMPILED for p in (PACKAGE / folder).rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(PACKAGE).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def drop_stale() -> bool:
    """Remove numba's cache files beside the modules of ``COMPILED`` when any of those modules changed since
    they were last known current (``STAMP``); return whether it did. numba checks a cached function against
    its own file only, so a caller in another module (LLVM inlines across modules) would go on running
    the machine code of a callee that was edited since (numba#1833). Dropping every file costs one
    compile of what is used next; a missing stamp counts as a change. A process that loads a file
    removed meanwhile compiles it again (numba reads a missing data file as a cache miss)."""
    stamp, current = PACKAGE / "__pycache__" / STAMP, sources_stamp()
    try:
        if stamp.read_text(encoding="ascii") == current:
            return False
    except OSError:
        pass
    for folder in COMPILED:
        for path in (PACKAGE / folder).rglob("*.nb[ic]"):
            if path.parent.name == "__pycache__":
                path.unlink(missing_ok=True)
    written = stamp.with_name(f"{STAMP}.{os.getpid()}")
    try:
        stamp.parent.mkdir(exist_ok=True)
        written.write_text(current, encoding="ascii")
        os.replace(written, stamp)
    except OSError:  # the next process checks again
        written.unlink(missing_ok=True)
    return True
