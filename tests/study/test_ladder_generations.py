"""The ladder figure's ratings-over-generations panel (``ladder_plot``): which policies are generations of a
learned model, and that a ladder seating them gets the panel (and one without does not)."""
import matplotlib.image
import numpy as np
import pandas as pd

from cardsim.study.ladder import plot as ladder_plot
from cardsim.study.ladder.tables import Measure, Report

G = [f"learned(model='moska_4p_g{k}')" for k in (1, 2, 10)]


def test_generations_are_grouped_by_family_in_generation_order():
    mc = "mc(base=\"learned(model='moska_4p_g2')\", determinizations=32)"
    families = ladder_plot.generations(["greedy", G[2], G[0], mc, "learned", "learned(model=runs/x_g3.json)", G[1]])
    assert families == {"learned(model='moska_4p_g*')": [(1, G[0]), (2, G[1]), (10, G[2])],
                        "mc(base=\"learned(model='moska_4p_g*')\", determinizations=32)": [(2, mc)],
                        "learned(model=runs/x_g*.json)": [(3, "learned(model=runs/x_g3.json)")]}
    assert ladder_plot.generations(["greedy", "random", "learned", "mc(determinizations=32)"]) == {}


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
