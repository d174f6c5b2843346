"""The ``rl`` extra: import its libraries with one clear line when they are missing."""
from __future__ import annotations

import importlib
from types import ModuleType

EXTRA = "rl"


def require(module: str, package: str, feature: str) -> ModuleType:
    """``module`` imported, or ImportError naming ``feature``, the package and the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(f"{feature} needs {package} (cardsim's {EXTRA!r} extra): "
                          f"pip install \"cardsim[{EXTRA}]\"") from error
