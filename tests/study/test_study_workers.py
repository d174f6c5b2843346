"""Every game's study runs with two worker processes: its tasks pickle (a game's parsed policy strings
travel with them) and the records equal one process's."""
from __future__ import annotations

import pickle
from pathlib import Path

import pandas as pd
import pytest

from cardsim.games.molotow import policies as molotow
from cardsim.games.moska import policies as moska
from cardsim.games.musta_maija import policies as musta_maija
from cardsim.study import pipeline

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.mark.parametrize("strings", [moska.STRINGS, musta_maija.STRINGS, molotow.STRINGS], ids=lambda s: s.game)
def test_policy_strings_pickle_with_a_working_cache(strings):
    again = pickle.loads(pickle.dumps(strings))
    assert again.parse("greedy") == strings.parse("greedy")
    assert again.game == strings.game and again.extra == strings.extra


@pytest.mark.long
@pytest.mark.parametrize("study", ["molotow_rules", "musta_maija_variants", "uno_house_rules", "quickstart"])
def test_two_workers_play_what_one_plays(study, tmp_path):
    folders = {}
    for jobs in (1, 2):
        folders[jobs] = tmp_path / str(jobs)
        pipeline.run_study(EXPERIMENTS / f"{study}.toml", games=40, jobs=jobs, out=folders[jobs], note=lambda line: None)
    one, two = (pd.read_parquet(folders[j] / "games.parquet") for j in (1, 2))
    pd.testing.assert_frame_equal(one, two)
