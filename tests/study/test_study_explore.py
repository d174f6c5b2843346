"""The notebooks' helpers on a finished fake study: finding results/<name> from inside the
project, the headline, the interval tables, the interesting game and a trimmed trace."""
import shutil

import pandas as pd
import pytest

from cardsim.study.folder import storage
from cardsim.study.report.explore import (headline, most, open_study, outcome_table, paired_table, project_root, show,
                                   trimmed)
from cardsim.study.plan.spec import StudyError


@pytest.fixture
def project(finished, tmp_path):
    """A project folder: experiments/ and results/fake_study/ (without games.parquet, as committed)."""
    (tmp_path / "experiments").mkdir()
    shutil.copytree(finished, tmp_path / "results" / "fake_study", ignore=shutil.ignore_patterns(storage.GAMES))
    (tmp_path / "notebooks").mkdir()
    return tmp_path


def test_a_study_is_found_from_a_subfolder_and_a_missing_one_names_the_command(project):
    assert project_root(project / "notebooks") == project
    folder, manifest, summary = open_study("fake_study", project / "notebooks")
    assert folder == project / "results" / "fake_study" and manifest["seed"] == 11 and len(summary) == 9
    with pytest.raises(StudyError, match="no manifest.json: the study has not been run here; "
                                         r"run `cardsim run experiments/other.toml` in the project folder"):
        open_study("other", project)
    with pytest.raises(FileNotFoundError, match="no experiments/ folder"):
        project_root(project.parent)


def test_the_headline_says_what_how_big_and_from_which_seed(project):
    _, manifest, _ = open_study("fake_study", project)
    h = headline(manifest)
    assert (h["games per cell"], h["cells"], h["games"], h["seed"]) == ("40", 9, "360", 11)
    assert h["variants"] == "plain, sturdy, unlimited_short" and h["policies"] == "random, greedy,random,random"


def test_the_tables_show_each_rate_and_difference_with_its_interval(project):
    _, _, summary = open_study("fake_study", project)
    rates = outcome_table(summary)
    assert rates.shape == (9, 3) and rates.columns.name == "loser rate"
    r = summary.iloc[0]
    assert rates.iloc[0]["seat 0"] == f"{r.loser_rate_0:.3f} [{r.loser_lo_0:.3f}, {r.loser_hi_0:.3f}]"
    assert rates.loc[("plain", 2, "random"), "seat 2"] == ""  # no seat 2 at 2 players
    diffs = paired_table(summary, "plain")
    assert "plain" not in diffs.index.get_level_values("variant") and len(diffs) == 6
    assert list(diffs.columns) == ["seat 0", "seat 1", "seat 2", "mean turns", "mean rounds"]
    d = summary.iloc[3]
    assert diffs.iloc[0]["mean turns"] == f"{d.turns_diff:+.3f} [{d.turns_diff_lo:+.3f}, {d.turns_diff_hi:+.3f}]"


def test_the_interesting_game_is_finished_largest_first_lowest_index_on_ties():
    batch = pd.DataFrame({"game": [0, 1, 2, 3], "turns": [9, 7, 9, 12], "hands": [1, 2, 2, 0],
                          "truncated": [False, False, False, True]})
    assert most(batch, ["turns"]).game == 0
    assert most(batch, ["turns", "hands"]).game == 2
    assert most(batch, ["hands"]).game == 1
    with pytest.raises(ValueError, match="no finished game"):
        most(batch.loc[batch.truncated], ["turns"])


def test_a_long_trace_keeps_its_first_and_last_lines():
    text = "\n".join(f"move {i}" for i in range(100))
    assert trimmed(text, 2, 3).splitlines() == ["move 0", "move 1", "... 95 lines ...", "move 97", "move 98",
                                                "move 99"]
    assert trimmed("a\nb", 2, 3) == "a\nb"


def test_a_folder_shown_in_a_notebook_holds_its_tables_and_every_plot(project):
    shown = show("fake_study", project)
    page = shown._repr_html_()
    plots = [n for n in shown.manifest["outputs"] if n.endswith(".png")]
    assert [p.name for p in shown.plots()] == plots and plots
    assert page.count("data:image/png;base64,") == len(plots)
    assert all(f"alt=\"{n}\"" in page for n in plots)
    assert "Outcome rate by seat" in page and "Paired differences against" in page
    assert outcome_table(shown.summary).iloc[0, 0] in page
