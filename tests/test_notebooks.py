"""Every notebook in notebooks/ runs top to bottom without error in a real Jupyter kernel
(nbclient), at reduced size (``CARDSIM_NOTEBOOK_GAMES=300``), from the notebooks/ folder.
The notebooks are committed without outputs; they need the committed results/ folders."""
import sys
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import RESOURCES, get_kernel_dict
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


class ThisPython(KernelSpecManager):
    """Kernel specs that always start ipykernel on the Python running the tests.

    A named kernel ("python3") is looked up in the user's and the system's Jupyter
    folders first, where another Python (without cardsim) may be installed under that
    name; building the spec from ``sys.executable`` needs no ``ipykernel install`` and no
    change to CI.
    """

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(resource_dir=RESOURCES, **get_kernel_dict())


def test_the_kernel_is_this_python():
    assert ThisPython().get_kernel_spec("python3").argv[0] == sys.executable


def test_every_notebook_is_committed_without_outputs():
    assert {p.stem for p in PATHS} >= {"moska", "musta_maija", "uno", "molotow", "reproduce"}
    for path in PATHS:
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert not [c for c in code if c.outputs or c.execution_count], f"{path.name} holds outputs"


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_a_notebook_runs_top_to_bottom(path, monkeypatch):
    monkeypatch.setenv("CARDSIM_NOTEBOOK_GAMES", "300")  # the kernel inherits the environment
    nb = nbformat.read(path, as_version=4)
    km = KernelManager(kernel_name="python3", kernel_spec_manager=ThisPython())
    NotebookClient(nb, km=km, timeout=300, resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    assert all(o.get("output_type") != "error" for c in nb.cells for o in c.get("outputs", []))
