"""The study plots' hand-made layout (``report/layout.py``): drawn from committed tables of every
kind (named variants at 2-6 players, a factorial's effects, a sweep along a skill ladder), no text
is cut off at the figure's edge, no two texts of the frame overlap, and no panel's labels reach into
another panel."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest

from cardsim.study.folder import manifest as claims
from cardsim.study.folder import storage
from cardsim.study.report import plots
from cardsim.study.report import summary as report

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _frame_texts(fig) -> list[tuple[object, matplotlib.text.Text]]:
    """(owner, text) for the figure's title, each panel's title, axis labels and tick labels, and the
    legend's texts: the owner is the panel, or None for the figure's own."""
    out = [(None, fig._suptitle)] if fig.get_suptitle() else []
    for legend in fig.legends:
        out += [(None, t) for t in [*legend.get_texts(), legend.get_title()] if t.get_text()]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts = [ax.title, ax.xaxis.label, ax.yaxis.label]
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            texts += [tick.label1 for tick in axis.get_major_ticks()
                      if tick.label1.get_visible() and lo - 1e-9 <= tick.get_loc() <= hi + 1e-9]
        out += [(ax, t) for t in texts if t.get_text() and t.get_visible()]
    return out


def _check(fig, name: str) -> None:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    texts = [(owner, t, t.get_window_extent(renderer)) for owner, t in _frame_texts(fig)]
    for _, t, box in texts:
        assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1 and page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1, \
            f"{name}: {t.get_text()!r} is cut off at the figure's edge"
    for (_, a, box_a), (_, b, box_b) in combinations(texts, 2):
        assert not box_a.shrunk(0.95, 0.9).overlaps(box_b.shrunk(0.95, 0.9)), \
            f"{name}: {a.get_text()!r} overlaps {b.get_text()!r}"
    panels = [ax for ax in fig.axes if ax.get_visible()]
    for owner, t, box in texts:
        for ax in panels:
            if ax is not owner:
                assert not ax.bbox.shrunk(0.99, 0.99).overlaps(box), f"{name}: {t.get_text()!r} reaches into a panel"


@pytest.mark.parametrize("study", ["moska_variants", "moska_knobs", "skill_musta_maija", "uno_house_rules"])
def test_no_text_is_cut_off_or_overlapped(study, tmp_path, monkeypatch):
    folder = RESULTS / study
    study_ = claims.study_of(storage.read_manifest(folder), folder / storage.MANIFEST)
    summary = storage.parse_summary((folder / storage.SUMMARY).read_text(encoding="utf-8"))
    effects = (report.parse_effects((folder / report.EFFECTS).read_text(encoding="utf-8"))
               if (folder / report.EFFECTS).exists() else None)
    checked = []

    def draw_and_check(path, draw, args):
        with matplotlib.rc_context(plots.STYLE):
            fig = draw(*args)
            _check(fig, path.name)
        plt.close(fig)
        checked.append(path.name)

    monkeypatch.setattr(plots, "_draw_file", draw_and_check)
    plots.render(summary, None, report.study_measures(study_), study_.baseline, tmp_path, report.unpaired(study_),
                 study_.design, effects)
    assert checked


def test_a_length_the_rules_fix_is_one_step_in_the_middle_and_said_in_words():
    """Molotow's games all last 432 turns: the ECDF is one step at 432 in the middle of its panel (not a
    line on the panel's edge that nobody sees), and the panel says so."""
    import numpy as np
    import pandas as pd

    rows = pd.DataFrame({"variant": ["seed", "swiss", "seed", "swiss"], "players": [4, 4, 3, 3]})
    bins = [{"variant": v, "players": n, "policy": "mc", "measure": "turns", "left": left, "right": left + 1,
             "density": 1.0} for v in ("seed", "swiss") for n, left in ((4, 431.5), (3, 323.5))]
    bins += [{"variant": "seed", "players": 4, "policy": "mc", "measure": "hands", "left": 0.5, "right": 30.5,
              "density": 1 / 30}]
    fig = plots.length_ecdf(rows, pd.DataFrame(bins), ("turns", "hands"), "molotow", {"seed": "C0", "swiss": "C1"})
    for ax, value in zip(fig.axes, (324, 432)):
        assert ax.get_xlim() == (value - 2, value + 2)
        assert [t.get_text() for t in ax.texts] == [f"every finished game: {value} turns"]
        for line in ax.get_lines():  # 0 before the value, 1 from it on
            assert line.get_drawstyle() == "steps-post"
            assert np.array_equal(line.get_xdata(), [value - 2, value, value + 2])
            assert np.array_equal(line.get_ydata(), [0, 1, 1])
    _check(fig, "fixed length")
    plt.close(fig)


def test_the_ecdf_stops_where_the_bin_of_the_longest_games_begins():
    """A few games thousands of turns long (``stats.TAIL``'s last bin) do not squeeze the rest into the
    panel's first pixels: the x axis ends where that bin begins."""
    import numpy as np
    import pandas as pd

    from cardsim.study.report.stats import length_histograms

    turns = np.concatenate([np.repeat(np.arange(20, 60), 25), [7_000, 7_500, 7_900]])
    games = pd.DataFrame({"variant": "a", "players": 4, "policy": "mc", "turns": turns, "truncated": False})
    fig = plots.length_ecdf(pd.DataFrame({"variant": ["a"], "players": [4]}), length_histograms(games, ["turns"]),
                            ("turns",), "musta_maija", {"a": "C0"})
    assert fig.axes[0].get_xlim() == (19.5, 59.5)
    _check(fig, "tail")
    plt.close(fig)
