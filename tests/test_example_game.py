"""The front door for a new game, proven with examples/eights: a separate distribution that registers through
the ``cardsim.games`` entry-point group passes ``cardsim.testing.check_game`` and runs a study from the CLI.

CI installs it (``pip install -e examples/eights``, .ci/run); elsewhere the test says how to."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardsim
from cardsim.games import spec
from cardsim.testing import check_game

EXAMPLE = Path(__file__).parents[1] / "examples" / "eights"
if "eights" not in cardsim.GAMES:
    if os.environ.get("CI"):
        pytest.fail("CI must install the example game: pip install -e examples/eights", pytrace=False)
    pytest.skip("the example game is not installed: pip install -e examples/eights", allow_module_level=True)

from cardsim_eights.checker import check  # noqa: E402  (installed with the example)


def test_the_example_is_found_through_its_entry_point_not_built_in():
    assert "eights" in cardsim.GAMES and "eights" not in cardsim.games.BUILT_IN
    assert spec("eights").name == "eights"


def test_the_example_passes_the_conformance_suite():
    check_game(spec("eights"), checker=check)


def test_its_checker_catches_a_broken_rule():
    """The example's own checker is not a rubber stamp: an illegal play and a wrong count fail it."""
    t = cardsim.replay("eights", "plain", players=3, seed=2, game=0, policy="greedy")
    knobs = cardsim.rules("eights", "plain").to_dict()
    check(t.events, t.record, knobs, 3)
    assert t._repr_html_() is None and str(t)  # no pictures of its table: Jupyter shows the text
    with pytest.raises(AssertionError, match="the record's counts"):
        check(t.events, {**t.record, "draws": t.record["draws"] + 1}, knobs, 3)
    events = t.events.copy()
    first = events.index[events.action == "play"][0]
    starter = events.cards[events.action == "starter"].iloc[0]
    held = next(c for c in events.cards[events.action == "deal"].str.cat(sep=" ").split()
                if c[0] != starter[0] and c[1] != starter[1] and c[1] != "8")
    events.loc[first, "cards"] = held
    with pytest.raises(AssertionError, match="does not play on|comes twice|hand sizes"):
        check(events, t.record, knobs, 3)


@pytest.mark.long
def test_a_study_of_the_example_runs_from_the_command_line_and_verifies(tmp_path):
    out = tmp_path / "eights_wild"
    study = EXAMPLE / "eights_study.toml"
    run = [sys.executable, "-m", "cardsim.cli"]
    done = subprocess.run([*run, "run", str(study), "--games", "300", "--out", str(out)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    summary = (out / "summary.csv").read_text()
    assert "wild" in summary and "plain" in summary
    done = subprocess.run([*run, "verify", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
