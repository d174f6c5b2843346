"""What a long run tells its user as it goes: a note on stderr, and the progress bar (tqdm's notebook
widget where ipywidgets is installed, else text).

``tqdm.auto`` warns (``TqdmWarning: IProgress not found``) when it is imported in a Jupyter
kernel without ipywidgets, which the ``notebooks`` extra installs; a text bar says the
same without the warning.
"""
from __future__ import annotations

import sys
from importlib.util import find_spec


def note_on_stderr(line: str) -> None:
    """A run's note (a capped job count, a resume, what was left out): one line on stderr."""
    print(f"cardsim: note: {line}", file=sys.stderr)


def bar(**options):
    """A ``tqdm`` bar with ``options``: the notebook's where it can be drawn, else the text one."""
    if find_spec("ipywidgets") is None:
        from tqdm.std import tqdm
    else:
        from tqdm.auto import tqdm
    return tqdm(**options)
