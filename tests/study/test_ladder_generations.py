"""A ladder's model generations: which policies are generations of a learned model, the figure's
ratings-over-generations panel (a ladder seating them gets it, one without does not), and each generation's step
over the one before with its interval (``Report.steps``)."""
import itertools

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from cardsim.study.ladder import plot as ladder_plot
from cardsim.study.ladder import rating
from cardsim.study.ladder import tables as ladder_tables
from cardsim.study.ladder.tables import Measure, Report, Tally

G = [f"learned(model='moska_4p_g{k}')" for k in (1, 2, 10)]


def test_generations_are_grouped_by_family_in_generation_order():
    mc = "mc(base=\"learned(model='moska_4p_g2')\", determinizations=32)"
    families = ladder_tables.generations(["greedy", G[2], G[0], mc, "learned", "learned(model=runs/x_g3.json)", G[1]])
    assert families == {"learned(model='moska_4p_g*')": [(1, G[0]), (2, G[1]), (10, G[2])],
                        "mc(base=\"learned(model='moska_4p_g*')\", determinizations=32)": [(2, mc)],
                        "learned(model=runs/x_g*.json)": [(3, "learned(model=runs/x_g3.json)")]}
    assert ladder_tables.generations(["greedy", "random", "learned", "mc(determinizations=32)"]) == {}


def report(policies: list[str]) -> Report:
    k = len(policies)
    rating = np.arange(k) * 10.0
    ratings = pd.DataFrame({"policy": policies, "rating": rating, "lo": rating - 5, "hi": rating + 5,
                            "wins": 10, "losses": 10})
    rows = [{"policy": a, "among": b, "measure": "loss rate", "seat_games": 100, "value": 0.25, "lo": 0.2,
             "hi": 0.3, "among_value": 0.25, "among_lo": 0.2, "among_hi": 0.3}
            for a in policies for b in policies if a != b]
    return Report(pd.DataFrame(rows), ratings, Measure("loser"), 4, 100, k * (k - 1) * 4, 0.25, 100, 0)


def test_a_ladder_of_generations_draws_the_panel_and_another_does_not(tmp_path, monkeypatch):
    drawn = []
    real = ladder_plot._generations
    monkeypatch.setattr(ladder_plot, "_generations", lambda ax, r, families: drawn.append(families) or
                        real(ax, r, families))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    ladder_plot.render(report(["greedy", *G]), "with", tmp_path / "a")
    ladder_plot.render(report(["greedy", "random", "learned"]), "without", tmp_path / "b")
    assert drawn == [{"learned(model='moska_4p_g*')": [(1, G[0]), (2, G[1]), (10, G[2])]}]
    wide = matplotlib.image.imread(tmp_path / "a" / ladder_plot.FILE).shape[1]
    assert wide > matplotlib.image.imread(tmp_path / "b" / ladder_plot.FILE).shape[1] + 400


def _tally(policies: list[str], strength: dict[str, float], deals: int = 400) -> Tally:
    """A two-seat ladder of ``policies`` (every ordered pair, each seat in turn) whose loser is drawn by strength."""
    gen = np.random.default_rng(7)
    tally = Tally(tuple(policies), 2, deals, Measure("loser"))
    for a, b in itertools.permutations(policies, 2):
        p_first_loses = 1 / (1 + np.exp(strength[a] - strength[b]))
        loser = (gen.random(deals) >= p_first_loses).astype(int)  # seat 0 (a) loses with p_first_loses
        tally.add((a, b), pd.DataFrame({"game": np.arange(deals), "truncated": False, "loser": loser}))
    return tally


def test_each_step_is_the_difference_of_two_ratings_with_its_interval_from_the_same_resamples():
    """``Report.steps`` against the difference refitted with the earlier generation pinned at 0 (what
    ``benchmarks/ladder_steps.py`` did): the same point and interval, since a difference of two strengths does not
    depend on which policy is pinned."""
    policies = ["greedy", G[0], "random", G[1], G[2]]
    tally = _tally(policies, {"greedy": 0, G[0]: 0.3, "random": -0.5, G[1]: 0.32, G[2]: 0.9})
    report = tally.report(resamples=200)
    assert list(report.steps.columns) == list(ladder_tables.STEP_COLUMNS)
    assert list(zip(report.steps.generation, report.steps.previous_generation, report.steps.policy,
                    report.steps.previous)) == [(2, 1, G[1], G[0]), (10, 2, G[2], G[1])]
    for row in report.steps.itertuples():
        j = policies.index(row.previous)
        i = policies.index(row.policy)
        point = rating.elo(rating.fit(tally.wins.sum(0), anchor=j))[i]
        lo, hi = rating.interval(rating.elo(rating.bootstrap(tally.wins, anchor=j, resamples=200)))
        assert row.step == pytest.approx(point, abs=1e-4)
        assert (row.lo, row.hi) == pytest.approx((lo[i], hi[i]), abs=1e-3)
        assert row.verdict == ladder_tables.verdict(row.lo, row.hi)
    assert report.steps.verdict.tolist() == ["no difference detected", "climbs"]  # 0.02 apart, then 0.58
    assert ladder_tables.verdict(-3, -1) == "falls"
    text = ladder_tables.format_report(report, "title")
    assert "generation steps" in text and "    g10 less g2: " in text
    assert "generation steps" not in ladder_tables.format_report(report, "title", steps=False)


def test_a_ladder_without_two_generations_of_one_family_has_no_steps():
    report = _tally(["greedy", G[0], "random"], {"greedy": 0, G[0]: 0.3, "random": -0.5}).report(resamples=50)
    assert report.steps.empty and "generation steps" not in ladder_tables.format_report(report, "title")


def test_a_ladders_claims_are_its_ratings_and_steps_corrected_as_one_family():
    """What ``cardsim replicate`` compares of a ladder: each rating against the pinned first policy and each
    generation step, every interval the bootstrap's, corrected together (Holm over the ladder's claims)."""
    from cardsim.study.report import multiplicity

    policies = ["greedy", G[0], "random", G[1], G[2]]
    report = _tally(policies, {"greedy": 0, G[0]: 0.3, "random": -0.5, G[1]: 0.32, G[2]: 0.9}).report(resamples=200)
    table = ladder_tables.contrasts(report.ratings, report.steps, 400)
    assert list(table.columns) == list(ladder_tables.CONTRAST_COLUMNS)
    assert list(zip(table.effect, table.policy, table.reference)) == [
        ("rating", G[0], "greedy"), ("rating", "random", "greedy"), ("rating", G[1], "greedy"),
        ("rating", G[2], "greedy"), ("step", G[1], G[0]), ("step", G[2], G[1])]
    assert table.estimate.tolist() == [*report.ratings.rating[1:], *report.steps.step]
    assert table.lo.tolist() == [*report.ratings.lo[1:], *report.steps.lo] and (table.games == 400).all()
    adjusted = multiplicity.adjust(table)
    assert adjusted.survives.tolist() == [True, True, True, True, False, True]  # the step of 0.02 is not found
    assert (adjusted.p_holm >= adjusted.p).all() and (adjusted.sim_hi - adjusted.sim_lo > table.hi - table.lo).all()
