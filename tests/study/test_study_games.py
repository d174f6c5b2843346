"""The study layer on the real games: the shipped Moska experiment end to end (small),
and records that do not depend on the engine that made them."""
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from cardsim.cli import main
from cardsim.study import verify_study
from cardsim.study.folder import storage
from cardsim.study.run.runner import simulate
from cardsim.study.plan.spec import load
from cardsim.study.report.stats import summarize

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.mark.long
def test_the_shipped_moska_experiment_runs_and_verifies(tmp_path, capsys):
    out = tmp_path / "moska"
    assert main(["run", str(EXPERIMENTS / "moska_variants.toml"), "--games", "3", "--out", str(out), "--quiet"]) == 0
    games = storage.read_games(out)
    assert len(games) == 5 * 5 * 2 * 3 and set(games.variant) == {"moska", "turamoska", "turamoska_nocap",
                                                                    "pyhaselka", "taraki"}
    assert len(pd.read_csv(out / "summary.csv")) == 50
    assert {f"{kind}_{p}.png" for kind in ("loser_by_seat", "length", "paired", "means", "fairness")
            for p in ("random", "greedy")} == {
        p.name for p in out.glob("*.png")}
    v = verify_study(out, sample=1, seed=4, redraw=False)  # the plots are re-drawn in test_study_verify.py
    assert v.ok and v.cells == 50 and v.source == "games.parquet"


@pytest.mark.parametrize("file, games", [("molotow_rules.toml", 6), ("moska_variants.toml", 3)])
def test_records_do_not_depend_on_the_engine(tmp_path, file, games):
    study = load(EXPERIMENTS / file).with_games(games)
    vector, reference = simulate(study), simulate(replace(study, engine="reference"))
    (tmp_path / "v").mkdir(), (tmp_path / "r").mkdir()
    assert storage.write_games(vector, tmp_path / "v") == storage.write_games(reference, tmp_path / "r")


def test_a_winner_game_is_summarised_by_winner_seat():
    study = replace(load(EXPERIMENTS / "molotow_rules.toml").with_games(5), policies=("greedy",))
    s = summarize(simulate(study), study.game, study.baseline)
    assert list(s.variant) == ["seed", "swiss", "seed_no_undertrump"]
    rates = s[[f"winner_rate_{seat}" for seat in range(4)]].sum(axis=1) + s.winner_none / s.games
    assert (rates + s.truncated / s.games).round(9).eq(1).all()
