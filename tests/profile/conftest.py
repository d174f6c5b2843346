"""Fixtures of the profile tests: the constructed game, and one profile of its three variants."""
import pytest

import tinygame


@pytest.fixture(scope="module")
def tiny():
    """The constructed game, registered for the tests of one module only."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        tinygame.install(monkeypatch)
        yield tinygame.GAME
