"""Every committed study folder (``results/*/manifest.json``) verifies: a few sampled game
indices of every cell re-run to the committed rows (``sample.csv``, or ``games.parquet``
where it is present) and the digests match the manifest. No folder, no test case. A study seating
OpenSpiel's ISMCTS (``cardsim.envs.ismcts``) needs the rl extra, and its searches cost seconds a game:
it re-runs one sampled game index of every cell, not three."""
import subprocess
from pathlib import Path

import pytest

from cardsim.study import verify_study

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = sorted(p.parent for p in (ROOT / "results").glob("*/manifest.json"))


def _seats_ismcts(folder: Path) -> bool:
    return "cardsim.envs.ismcts:" in (folder / "manifest.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("folder", [pytest.param(f, marks=pytest.mark.rl) if _seats_ismcts(f) else f for f in FOLDERS],
                         ids=[f.name for f in FOLDERS])
def test_a_committed_study_verifies(folder):
    if _seats_ismcts(folder):
        pytest.importorskip("pyspiel")
    v = verify_study(folder, sample=1 if _seats_ismcts(folder) else 3)
    assert v.ok, "\n".join(v.mismatches)


def test_a_committed_study_folder_holds_its_sample_and_no_records():
    """The records are too large to commit; the sample is what ``verify`` needs."""
    tracked = subprocess.run(["git", "ls-files", "results"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert not [p for p in tracked if p.endswith("games.parquet")]
    for folder in {Path(p).parent for p in tracked if p.endswith("manifest.json")}:
        assert f"{folder}/sample.csv" in tracked, f"{folder} has a manifest but no committed sample.csv"


REPLICATIONS = sorted(p.parent for p in (ROOT / "results").glob("*_replication/replication.csv"))


@pytest.mark.parametrize("place", REPLICATIONS, ids=[p.name for p in REPLICATIONS])
def test_a_committed_replication_table_is_its_two_runs_tabulated_today(place):
    """Each ``replication.csv`` holds what today's verdict rule makes of the committed original and fresh
    runs (``cardsim verify``'s check of a replication): a change of the rule (``replication.POWER``) that is not
    written through to the tables fails."""
    from cardsim.study import replication

    assert replication.differences(place) == []
