"""docs/training.md runs as written: every Python block executes."""
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

pytestmark = pytest.mark.rl
PAGE = (Path(__file__).resolve().parents[2] / "docs" / "training.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)


def test_the_page_has_its_examples():
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_a_python_block_runs(i):
    exec(compile(BLOCKS[i], f"docs/training.md block {i}", "exec"), {"__name__": "docs_training"})
