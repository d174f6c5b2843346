"""Skill ladders in a study (``[skill] rungs``; cardsim.study.report.skill): every effect at every rung on the same
deals, the top two rungs' paired difference, the verdicts and the plot, on the fake game."""
import numpy as np
import pandas as pd
import pytest
from fakegame import STUDY, edit

from cardsim.study import run_study, verify_study
from cardsim.study.folder import storage
from cardsim.study.report.skill import FILE, verdict
from cardsim.study.plan.spec import StudyError, load
from cardsim.study.report.stats import paired_mean

SKILL = """\
name = "fake_skill"
game = "fakegame"
seed = 5
games = 300
players = [3]
engine = "compiled"
alpha = 0.01

[skill]
rungs = ["random", "greedy"]
margin = 2.0

[factorial]
base = "plain"
[factorial.knobs]
dealer_lives = [0, 2]
"""


@pytest.mark.parametrize("lo, hi, expected", [
    (-0.004, 0.003, "settled at the top"), (0.001, 0.02, "still moving"), (-0.03, -0.01, "still moving"),
    (-0.03, 0.01, "undetermined"), (np.nan, np.nan, "undetermined")])
def test_the_verdict_of_the_top_two_rungs(lo, hi, expected):
    assert verdict(lo, hi, 0.005) == expected


def test_a_skill_study_plays_every_rung_on_the_same_deals_and_compares_the_top_two(fake, tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(SKILL)
    study = load(path)
    assert study.policies == ("random", "greedy") and study.alpha == 0.01 and study.skill.margin == 2.0
    folder = run_study(path, out=tmp_path / "out")
    assert {FILE, "skill_3p.png"} <= set(storage.read_manifest(folder)["outputs"])
    table = pd.read_csv(folder / FILE, keep_default_na=False, na_values=[""])
    games = storage.read_games(folder)
    effects = pd.read_csv(folder / "effects.csv")
    assert set(effects.policy) == {"random", "greedy"} and effects.survives.dtype == bool
    row = table.loc[(table.knob == "dealer_lives") & (table.measure == "loser_rate_0")].iloc[0]
    y = {(v, p): (g.sort_values("game").loser.to_numpy() == 0).astype(float)
         for (v, p), g in games.groupby(["variant", "policy"])}
    top = y[("dealer_lives=2", "greedy")] - y[("dealer_lives=0", "greedy")]
    second = y[("dealer_lives=2", "random")] - y[("dealer_lives=0", "random")]
    assert (row.top, row.second) == ("greedy", "random")
    assert (row.difference, row.difference_lo, row.difference_hi) == pytest.approx(paired_mean(top - second), rel=1e-5)
    assert (row.top_estimate, row.top_lo, row.top_hi) == pytest.approx(paired_mean(top), rel=1e-5)
    assert row.verdict == verdict(row.difference_lo, row.difference_hi, 0.02)
    assert verify_study(folder).ok


def test_a_variant_study_ladder_compares_each_variant_with_the_baseline(fake, tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(edit(STUDY, **{'policies = ["random", ["greedy", "random", "random"]]\n': "",
                                   "players = [2, 3]": "players = [2]"}) + '\n[skill]\nrungs = ["random", "greedy"]\n')
    folder = run_study(path, out=path.parent / "out")
    table = pd.read_csv(folder / FILE, keep_default_na=False, na_values=[""])
    assert set(table.level) == {"sturdy", "unlimited_short"} and set(table.reference) == {"plain"}
    assert (folder / "skill_2p.png").stat().st_size > 0


@pytest.mark.parametrize("edit, message", [
    ({'rungs = ["random", "greedy"]': 'rungs = ["greedy"]'}, "skill.rungs: expected a list of two or more"),
    ({'rungs = ["random", "greedy"]': 'rungs = ["random", "random"]'}, "skill.rungs: policies.1.: 'random' is"),
    ({"margin = 2.0": "margin = 0"}, "skill.margin: expected a positive number"),
    ({"margin = 2.0": "margin = 2.0\nsteps = 3"}, "skill.steps: unknown key"),
    ({"alpha = 0.01": "alpha = 1.5"}, "alpha: expected a level between 0 and 1"),
    ({'engine = "compiled"': 'engine = "compiled"\npolicies = ["greedy"]'}, "policies: not the skill rungs"),
])
def test_a_bad_skill_table_is_one_line_naming_its_key(fake, tmp_path, edit, message):
    text = SKILL
    for old, new in edit.items():
        text = text.replace(old, new)
    path = tmp_path / "study.toml"
    path.write_text(text)
    with pytest.raises(StudyError, match=message):
        load(path)
