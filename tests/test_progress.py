"""The progress bar in a Jupyter kernel without ipywidgets: text, and no ``TqdmWarning`` (issue 28 item 9)."""
import importlib
import sys
import types
import warnings

import pytest
from tqdm.std import TqdmWarning, tqdm

from cardsim.core import progress


@pytest.fixture
def kernel_without_ipywidgets(monkeypatch):
    """This process as a Jupyter kernel (what ``tqdm.auto`` looks for) in which ipywidgets cannot be imported."""
    class ZMQInteractiveShell:  # the shell of a Jupyter kernel, by the name tqdm looks at
        pass
    monkeypatch.setitem(sys.modules, "ipykernel.zmqshell", types.ModuleType("ipykernel.zmqshell"))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=ZMQInteractiveShell))
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    for name in ("tqdm.auto", "tqdm.autonotebook", "tqdm.notebook"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_tqdm_auto_warns_in_such_a_kernel(kernel_without_ipywidgets):
    with pytest.warns(TqdmWarning, match="IProgress not found"):
        importlib.import_module("tqdm.auto")


def test_the_bar_there_is_text_and_warns_nothing(kernel_without_ipywidgets):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with progress.bar(total=3, disable=True) as bar:
            bar.update(3)
    assert type(bar) is tqdm
