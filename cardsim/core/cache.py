"""Where numba keeps the compiled engines: beside the package, or in a user cache folder when that is read-only.

numba writes the machine code of every ``cache=True`` function into the ``__pycache__`` folder
beside its source. A system-wide or read-only install cannot be written there, so
``configure`` (run by ``import cardsim``, before any engine module is imported) points numba
at ``<user cache>/cardsim/numba`` instead (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux,
``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows). ``NUMBA_CACHE_DIR``, when set,
wins: it is the user's own choice. numba reads that variable when it is imported, so
``configure`` sets it in the environment, and in numba's config as well when numba was
imported first. This module imports nothing of numba's.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``cardsim`` package folder."""
VARIABLE = "NUMBA_CACHE_DIR"


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
        return None
    folder = user_folder()
    if not _can_write(folder):
        return None
    os.environ[VARIABLE] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported first: its config has read the environment already
        numba_config.CACHE_DIR = str(folder)
    return folder
