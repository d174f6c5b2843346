"""The stopping rule of `cardsim run --precision`: the widest Wilson half-width and the next
number of games, against values worked by hand."""
import pytest

from cardsim.study.run.precision import (
    CONTRAST_RULE, RULE, check, next_games, widest_contrast_half_width, widest_half_width,
)
from cardsim.study.report.stats import wilson


def test_the_widest_half_width_is_over_every_seat_of_every_cell_in_percentage_points():
    # 81 of 263 has the Wilson interval [0.255293, 0.366215]: half-width 5.5461 pp
    assert widest_half_width([[81, 182]], 263) == pytest.approx(100 * (0.366215 - 0.255293) / 2, abs=1e-4)
    lo, hi = wilson(500, 1000)
    assert widest_half_width([[100, 900], [500, 500], [0, 0]], 1000) == pytest.approx(100 * (hi - lo) / 2)


@pytest.mark.parametrize("games, widest, n", [
    (1000, 0.40, 4000),   # 1000 * (0.4 / 0.2)**2 = 4000: a multiple of n_0 already
    (1000, 0.30, 3000),   # 1000 * 2.25 = 2250, up to the next multiple of 1000
    (4000, 0.2001, 5000),  # 4004: rounded up to 5000
    (1000, 0.2 * (1 + 1e-15), 2000),  # a hair above: still one more step of n_0, never the same n
    (3000, 0.9, 10_000),  # 3000 * 20.25 = 60,750: capped by max_games
])
def test_the_next_step_is_where_the_widest_half_width_would_reach_the_precision(games, widest, n):
    assert next_games(games, widest, precision=0.2, first=1000, max_games=10_000) == n


def test_the_run_stops_at_the_precision_or_at_max_games():
    assert next_games(4000, 0.2, precision=0.2, first=1000, max_games=10_000) is None
    assert next_games(4000, 0.19, precision=0.2, first=1000, max_games=10_000) is None
    assert next_games(10_000, 0.5, precision=0.2, first=1000, max_games=10_000) is None


def test_the_widest_contrast_half_width_is_the_paired_t_interval_of_every_seat_against_the_baseline():
    """Seat s's contrast: the mean of (here == s) - (there == s) game by game, Student t 95%, in pp."""
    from scipy import stats

    from cardsim.study.plan.spec import Cell

    rng = np.random.default_rng(3)
    there = rng.integers(-1, 3, 500)
    here = np.where(rng.random(500) < 0.8, there, rng.integers(0, 3, 500))  # the same outcome in most games
    widest = 0.0
    for s in range(3):
        d = (here == s).astype(float) - (there == s)
        widest = max(widest, 100 * stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
    cells = [Cell("base", 3, "mc", ("mc",) * 3), Cell("rule", 3, "mc", ("mc",) * 3)]
    assert widest_contrast_half_width("base", cells, [there, here]) == pytest.approx(widest, rel=1e-12)
    assert widest_contrast_half_width("base", cells, [there, there]) == 0  # a rule that changes no game: no spread
    assert widest_contrast_half_width("base", cells, [there[:1], here[:1]]) == np.inf  # one game: no interval yet


@pytest.mark.parametrize("precision, max_games, message", [
    (0, 100, "--precision must be a number of percentage points > 0 and < 100, not 0"),
    (-0.1, 100, "--precision must be"), (float("nan"), 100, "--precision must be"), (True, 100, "--precision must be"),
    (0.1, 5, "--max-games must be an integer >= the study's games (10), not 5"),
    (0.1, 2.5, "--max-games must be an integer >= the study's games (10), not 2.5"),
])
def test_bad_precision_or_bound_is_one_line(precision, max_games, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check(precision, max_games, first=10)


def test_a_precision_of_something_else_or_of_contrasts_without_a_second_variant_is_one_line():
    with pytest.raises(ValueError, match="--precision-of must be one of rates, contrasts, not 'seats'"):
        check(1.0, 100, first=10, of="seats")
    with pytest.raises(ValueError, match="needs a study of two or more variants: there is no contrast"):
        check(1.0, 100, first=10, of="contrasts", variants=1)


# --- the rule end to end: `cardsim run --precision` on the fake game ---------------------------------------

import json  # noqa: E402
import math  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.cli import main  # noqa: E402
from cardsim.study import run_study, verify_study  # noqa: E402
from cardsim.study.hooks import Hooks  # noqa: E402
from cardsim.study.run.runner import simulate  # noqa: E402
from cardsim.study.plan.spec import RunStopped, load  # noqa: E402


def _expected_steps(study, precision, max_games):
    """The rule of the module docstring of cardsim.study.run.precision, worked out here from plain records."""
    first, n, steps = study.games, study.games, []
    while True:
        records = simulate(study.with_games(n))
        widest = 0.0
        for (_, players, _), cell in records.groupby(["variant", "players", "policy"], sort=False):
            for s in range(players):
                lo, hi = wilson((cell.loser == s).sum(), len(cell))
                widest = max(widest, 100 * float(hi - lo) / 2)
        steps.append((n, widest))
        if widest <= precision or n >= max_games:
            return steps
        n = min(max_games, max(n + first, first * math.ceil(n * (widest / precision) ** 2 / first)))


@pytest.mark.long
def test_a_precision_run_stops_at_the_rule_s_n_and_is_the_study_of_n_games(write_study, tmp_path, capsys):
    path = write_study(**{"games = 40": "games = 30"})
    expected = _expected_steps(load(path), 6.0, 1_000_000)
    assert [n for n, _ in expected] == [30, 240, 270]  # a projected step, then one more of n_0
    assert main(["run", str(path), "--precision", "6", "--out", str(tmp_path / "a"), "--quiet"]) == 0
    n = expected[-1][0]
    assert capsys.readouterr().out.strip().endswith(
        f"precision ±6 pp reached at {n:,} games per cell (widest 95% half-width ±{expected[-1][1]:.3f} pp, "
        f"{len(expected)} steps)")
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    steps = manifest["precision"]["steps"]
    assert [s["games"] for s in steps] == [n for n, _ in expected]
    assert [s["widest_half_width_pp"] for s in steps] == pytest.approx([h for _, h in expected], rel=1e-12)
    assert manifest["precision"] | {"steps": None} == {"pp": 6.0, "max_games": 1_000_000, "first": 30, "rule": RULE,
                                                       "steps": None, "reached": True}
    assert manifest["study"]["games"] == n and manifest["command"][-4:] == ["--max-games", "1000000", "--out",
                                                                            str(tmp_path / "a")]
    # the same command gives the same n, and the study is the one --games n plays
    run_study(path, precision=6, out=tmp_path / "b")
    run_study(path, games=n, out=tmp_path / "c")
    for other in ("b", "c"):
        assert json.loads((tmp_path / other / "manifest.json").read_text())["records"] == manifest["records"]
        assert (tmp_path / other / "summary.csv").read_bytes() == (tmp_path / "a" / "summary.csv").read_bytes()
    assert verify_study(tmp_path / "a").ok
    # running it again into its folder is the same study; another precision is another one
    assert main(["run", str(path), "--precision", "6", "--out", str(tmp_path / "a"), "--quiet"]) == 0
    assert main(["run", str(path), "--precision", "7", "--out", str(tmp_path / "a"), "--quiet"]) == 2
    assert "holds results of a different study" in capsys.readouterr().err


def test_a_precision_run_stops_at_max_games_and_says_it_fell_short(write_study, tmp_path, capsys):
    path = write_study(**{"games = 40": "games = 20"})
    assert main(["run", str(path), "--precision", "1", "--max-games", "50", "--out", str(tmp_path / "o"),
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "precision ±1 pp NOT reached (stopped at --max-games 50) at 50 games per cell" in out
    stepped = json.loads((tmp_path / "o" / "manifest.json").read_text())["precision"]
    assert [s["games"] for s in stepped["steps"]] == [20, 50] and stepped["reached"] is False  # projected far, capped
    assert verify_study(tmp_path / "o").ok


@pytest.mark.parametrize("of, pp, stop, cut", [
    ("rates", 8, 5, "--precision 8 --max-games 1000000 --out"),
    ("contrasts", 12, 10, "--precision 12 --max-games 1000000 --precision-of contrasts --out"),  # in step 2
])
def test_an_interrupted_precision_run_resumes_to_the_same_records_and_steps(write_study, tmp_path, of, pp, stop, cut):
    """A killed run resumes to the records and steps of an uninterrupted one: the pieces it kept count in the
    resumed one's steps (their seat counts, or for contrasts each game's outcome, read back)."""
    path = write_study(**{"games = 40": "games = 30"})
    whole = run_study(path, precision=pp, precision_of=of, out=tmp_path / "whole")
    seen = []

    class StopAtAPiece(Hooks):
        def pause(self, point):
            seen.append(point)
            if seen.count("piece") == stop:
                raise KeyboardInterrupt
    with pytest.raises(RunStopped, match=f"{cut} .* --resume"):
        run_study(path, precision=pp, precision_of=of, out=tmp_path / "cut", hooks=StopAtAPiece())
    resumed = run_study(path, precision=pp, precision_of=of, out=tmp_path / "cut", resume=True)
    manifest, first = (json.loads((f / "manifest.json").read_text()) for f in (resumed, whole))
    assert manifest["records"] == first["records"] and manifest["precision"] == first["precision"]
    assert manifest["execution"]["resumed_chunks"] > 0
    assert sorted(p.name for p in resumed.iterdir()) == sorted(p.name for p in whole.iterdir())


@pytest.mark.parametrize("argv, message", [
    (["--max-games", "100"], "--max-games bounds a --precision run: give --precision too"),
    (["--precision-of", "contrasts"], "--precision-of names a --precision run: give --precision too"),
    (["--precision", "0"], "--precision must be a number of percentage points > 0 and < 100, not 0.0"),
    (["--precision", "1", "--max-games", "10"], "--max-games must be an integer >= the study's games (40), not 10"),
])
def test_bad_precision_arguments_are_one_line_and_write_nothing(write_study, tmp_path, capsys, argv, message):
    assert main(["run", str(write_study()), "--out", str(tmp_path / "o"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and not (tmp_path / "o").exists()


def test_verify_re_walks_the_steps_of_a_precision_run(write_study, tmp_path):
    out = run_study(write_study(**{"games = 40": "games = 30"}), precision=8, out=tmp_path / "o")
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["precision"]["steps"][0]["widest_half_width_pp"] = 7.9  # would have stopped at once
    (out / "manifest.json").write_text(json.dumps(manifest))
    v = verify_study(out, redraw=False)
    assert any(m.startswith("manifest.json: precision.steps ") for m in v.mismatches)
    assert any(m.startswith("manifest.json: precision: after 30 games the widest half-width is ") for m in v.mismatches)
    (out / "games.parquet").unlink()
    manifest["precision"]["steps"][0]["widest_half_width_pp"] = json.loads(
        (tmp_path / "o" / "manifest.json").read_text())["precision"]["steps"][0]["widest_half_width_pp"]
    manifest["precision"]["steps"][-1]["widest_half_width_pp"] = 1.0
    manifest["precision"]["reached"] = True
    (out / "manifest.json").write_text(json.dumps(manifest))
    v = verify_study(out, redraw=False)
    assert any(m.startswith("manifest.json: precision: the last widest half-width 1.0 pp is not summary.csv's")
               for m in v.mismatches)
    assert np.isfinite(manifest["precision"]["pp"])


def _expected_contrast_steps(study, precision, max_games):
    """``--precision-of contrasts``' rule worked out here: each cell's seat indicator less its baseline cell's,
    game by game, a Student t interval (scipy's)."""
    from scipy import stats

    first, n, steps = study.games, study.games, []
    while True:
        records = simulate(study.with_games(n))
        widest = 0.0
        for (variant, players, policy), cell in records.groupby(["variant", "players", "policy"], sort=False):
            base = records.loc[(records.variant == study.baseline) & (records.players == players)
                               & (records.policy == policy)]
            for s in range(players):
                d = (cell.loser.to_numpy() == s).astype(float) - (base.loser.to_numpy() == s)
                if variant != study.baseline:
                    widest = max(widest, 100 * stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
        steps.append((n, widest))
        if widest <= precision or n >= max_games:
            return steps
        n = min(max_games, max(n + first, first * math.ceil(n * (widest / precision) ** 2 / first)))


def test_a_run_to_a_precision_of_contrasts_stops_at_its_rule_s_n_and_verifies(write_study, tmp_path, capsys):
    """``--precision-of contrasts``: the steps worked out from plain records, the manifest's rule and ``of``,
    the last step's width read back from ``summary.csv``'s paired intervals, ``verify`` with and without
    ``games.parquet``, and a folder stepped to the rates' precision is another study."""
    path = write_study(**{"games = 40": "games = 30"})
    expected = _expected_contrast_steps(load(path), 12.0, 1_000_000)
    assert len(expected) > 1 and expected[-1][1] <= 12.0
    out = tmp_path / "a"
    assert main(["run", str(path), "--precision", "12", "--precision-of", "contrasts", "--out", str(out),
                 "--quiet"]) == 0
    n = expected[-1][0]
    assert capsys.readouterr().out.strip().endswith(
        f"precision ±12 pp reached at {n:,} games per cell (widest 95% half-width of a seat contrast "
        f"±{expected[-1][1]:.3f} pp, {len(expected)} steps)")
    manifest = json.loads((out / "manifest.json").read_text())
    stepped = manifest["precision"]
    assert [s["games"] for s in stepped["steps"]] == [n for n, _ in expected]
    assert [s["widest_half_width_pp"] for s in stepped["steps"]] == pytest.approx([h for _, h in expected], rel=1e-9)
    assert stepped["of"] == "contrasts" and stepped["rule"] == CONTRAST_RULE and stepped["reached"] is True
    assert manifest["command"][-6:-2] == ["--max-games", "1000000", "--precision-of", "contrasts"]
    summary = pd.read_csv(out / "summary.csv")
    shown = max(100 * (r[f"loser_diff_hi_{s}"] - r[f"loser_diff_lo_{s}"]) / 2
                for _, r in summary.loc[summary.variant != "plain"].iterrows() for s in range(r.players))
    assert shown == pytest.approx(expected[-1][1], rel=1e-5)
    assert verify_study(out).ok
    from cardsim.study.report.html import write_report

    page = write_report(out).read_text()
    assert "until every seat contrast (a cell's seat rate less its baseline cell's" in page
    assert "pp per seat contrast reached in" in page
    (out / "report.html").unlink()
    assert main(["run", str(path), "--precision", "12", "--out", str(out), "--quiet"]) == 2  # of the rates
    assert "holds results of a different study" in capsys.readouterr().err
    manifest["precision"]["steps"][-1]["widest_half_width_pp"] = 11.0
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "games.parquet").unlink()
    v = verify_study(out, redraw=False)
    assert any(m.startswith("manifest.json: precision: the last widest half-width 11.0 pp is not summary.csv's")
               for m in v.mismatches)
