"""The progress bar of a long run: tqdm's notebook widget where ipywidgets is installed, else text.

``tqdm.auto`` warns (``TqdmWarning: IProgress not found``) when it is imported in a Jupyter
kernel without ipywidgets, which the ``notebooks`` extra installs; a text bar says the
same without the warning.
"""
from __future__ import annotations

from importlib.util import find_spec


def bar(**options):
    """A ``tqdm`` bar with ``options``: the notebook's where it can be drawn, else the text one."""
    if find_spec("ipywidgets") is None:
        from tqdm.std import tqdm
    else:
        from tqdm.auto import tqdm
    return tqdm(**options)
