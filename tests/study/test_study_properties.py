"""Properties of the runner on random fake studies: each cell holds games 0..n-1 once,
rows do not depend on chunking or jobs, and every game's outcome is counted once."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from cardsim.study.plan import tasks
from cardsim.study.run import runner
from fakegame import STUDY
from cardsim.study.plan.spec import load
from cardsim.study.report.stats import summarize

studies = st.fixed_dictionaries({
    "seed": st.integers(0, 2**63 - 1),
    "games": st.integers(1, 25),
    "players": st.lists(st.integers(2, 6), min_size=1, max_size=3, unique=True),
    "policies": st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=2, unique=True),
})


@pytest.fixture(scope="module")
def base(fake, tmp_path_factory):
    path = tmp_path_factory.mktemp("base") / "study.toml"
    path.write_text(STUDY)
    return load(path)


@given(knobs=studies, chunk=st.integers(1, 9))
@settings(max_examples=15)
def test_cells_hold_every_game_once_whatever_the_chunking(base, knobs, chunk):
    study = replace(base, seed=knobs["seed"], games=knobs["games"], players=tuple(knobs["players"]),
                    policies=tuple(knobs["policies"]))
    whole = runner.simulate(study)
    with pytest.MonkeyPatch.context() as m:
        m.setitem(tasks.CHUNK, "reference", chunk)
        pd.testing.assert_frame_equal(runner.simulate(study), whole)
    sizes = whole.groupby(["variant", "players", "policy"], sort=False).game.agg(list)
    assert len(sizes) == len(study.cells())
    assert all(g == list(range(study.games)) for g in sizes)
    s = summarize(whole, study.game, study.baseline)
    rates = s.filter(like="loser_rate_").sum(axis=1) + (s.loser_none + s.truncated) / s.games
    assert np.allclose(rates, 1)


@pytest.mark.slow
def test_a_large_study_is_the_same_with_one_or_two_jobs(base, scaled):
    study = base.with_games(scaled(10_000))
    one = runner.simulate(study)
    assert len(one) == len(study.cells()) * study.games
    pd.testing.assert_frame_equal(one, runner.simulate(study, jobs=2))
