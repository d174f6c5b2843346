"""Sweep and factorial study files end to end: they run, verify, and write effects.csv, which
is checked against the contrasts computed by hand from the records of a small fixed study;
verify catches an edited effect or fairness value; the study file's errors are one line."""
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from cardsim.cli import main
from cardsim.study import run_study, verify_study
from cardsim.study.folder import manifest as claims
from cardsim.study.folder import storage
from cardsim.study.plan.spec import Study, StudyError, load
from cardsim.study.report.stats import fairness
from fakegame import STUDY

HEAD = STUDY.split("[variants.plain]")[0].replace('baseline = "plain"\n', "")
FACTORIAL = HEAD.replace("games = 40", "games = 30") + """
[factorial]
base = "plain"
[factorial.knobs]
lives = [2, 3]
dealer_lives = [0, 1]
"""
SWEEP = HEAD + """
[sweep]
base = "sturdy_dealer"
knob = "dealer_lives"
values = [0, 1, 3]
"""


@pytest.fixture(scope="module")
def factorial(fake, tmp_path_factory):
    path = tmp_path_factory.mktemp("factorial") / "factorial.toml"
    path.write_text(FACTORIAL)
    return run_study(path, out=path.parent / "out")


@pytest.fixture(scope="module")
def sweep(fake, tmp_path_factory):
    path = tmp_path_factory.mktemp("sweep") / "sweep.toml"
    path.write_text(SWEEP)
    return run_study(path, out=path.parent / "out")


def _t_interval(d):
    d = np.asarray(d, dtype=float)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return d.mean(), d.mean() - half, d.mean() + half


def test_effects_csv_of_a_small_factorial_is_the_contrasts_worked_out_from_its_records(factorial):
    games = storage.read_games(factorial)
    effects = pd.read_csv(factorial / "effects.csv", keep_default_na=False, na_values={"estimate": [""]},
                          dtype={"level": str, "level_b": str, "reference": str, "reference_b": str})
    cells = games.groupby(["variant", "players", "policy"], sort=False)
    expected = []
    for (players, policy), _ in games.groupby(["players", "policy"], sort=False):
        def y(lives, dealer, measure):
            cell = cells.get_group((f"lives={lives},dealer_lives={dealer}", players, policy)).sort_values("game")
            if measure.startswith("loser_rate_"):
                return (cell.loser.to_numpy() == int(measure[-1])).astype(float)
            return cell[measure.removesuffix("_mean")].to_numpy(float)  # no game of the fake study is truncated

        measures = [*(f"loser_rate_{s}" for s in range(players)), "turns_mean", "rounds_mean"]
        per_game = {("main", "lives", "3", "", ""): lambda m: (y(3, 0, m) - y(2, 0, m) + y(3, 1, m) - y(2, 1, m)) / 2,
                    ("main", "dealer_lives", "1", "", ""): lambda m: (y(2, 1, m) - y(2, 0, m) + y(3, 1, m)
                                                                      - y(3, 0, m)) / 2,
                    ("interaction", "lives", "3", "dealer_lives", "1"): lambda m: (y(3, 1, m) - y(3, 0, m)
                                                                                   - y(2, 1, m) + y(2, 0, m))}
        for key, contrast in per_game.items():
            for m in measures:
                d = contrast(m)
                mean, lo, hi = _t_interval(d) if d.std() > 0 else (d.mean(),) * 3
                expected.append((players, policy, *key, m, mean, lo, hi, len(d)))
    got = list(effects[["players", "policy", "effect", "knob", "level", "knob_b", "level_b", "measure", "estimate",
                        "lo", "hi", "games"]].itertuples(index=False, name=None))
    assert [g[:8] for g in got] == [e[:8] for e in expected]
    for g, e in zip(got, expected):
        assert g[8:11] == pytest.approx(e[8:11], rel=1e-5, abs=1e-9), g[:8]
        assert g[11] == e[11] == 30
    assert set(effects.combinations) == {2, 1} and effects.paired.all()


def test_a_factorial_runs_verifies_and_draws_effects_and_fairness_instead_of_figures_by_variant(factorial):
    manifest = json.loads((factorial / "manifest.json").read_text())
    assert manifest["outputs"] == ["summary.csv", "effects.csv", "fairness_random.png", "effects_random.png",
                                   "fairness_greedy-random-random.png", "effects_greedy-random-random.png"]
    assert manifest["study"]["design"] == {"kind": "factorial", "base": "plain", "skip_unplayable": False,
                                           "knobs": [["lives", [2, 3]], ["dealer_lives", [0, 1]]]}
    assert manifest["study"]["baseline"] == "lives=2,dealer_lives=0"
    assert verify_study(factorial).ok


@pytest.mark.long
def test_a_sweep_runs_and_verifies_with_and_without_its_records(sweep, tmp_path):
    manifest = json.loads((sweep / "manifest.json").read_text())
    assert {"knob_random.png", "effects_random.png", "fairness_random.png", "loser_by_seat_random.png",
            "effects.csv"} <= set(manifest["outputs"])
    assert list(dict.fromkeys(c["variant"] for c in manifest["cells"])) == [
        "dealer_lives=2", "dealer_lives=0", "dealer_lives=1", "dealer_lives=3"]
    assert verify_study(sweep).ok
    committed = tmp_path / "committed"
    committed.mkdir()
    for f in sweep.iterdir():
        if f.name != "games.parquet":
            (committed / f.name).write_bytes(f.read_bytes())
    v = verify_study(committed)
    assert v.ok and any(n.startswith("effects.csv: its intervals are not recomputed") for n in v.notes)


def test_summary_holds_each_cells_fairness(sweep):
    games, summary = storage.read_games(sweep), pd.read_csv(sweep / "summary.csv")
    for _, row in summary.iterrows():
        cell = games.loc[(games.variant == row.variant) & (games.players == row.players)
                         & (games.policy == row.policy)]
        f = fairness([(cell.loser == s).sum() for s in range(row.players)], len(cell))
        assert [row[f"loser_{k}"] for k in f] == pytest.approx(list(f.values()), rel=1e-5)


def _rewrite(folder, name, change, manifest=True):
    path = folder / name
    path.write_text(change(path.read_text()))
    if manifest:
        m = json.loads((folder / "manifest.json").read_text())
        m["files"][name] = storage.file_digest(path)
        (folder / "manifest.json").write_text(json.dumps(claims.sealed(m)))


def _bump_second_row_estimate(text):
    lines = text.splitlines(keepends=True)
    head = lines[0].split(",")
    row = lines[2].split(",")
    i = head.index("estimate")
    row[i] = str(float(row[i]) + 0.05)
    row[head.index("hi")] = str(float(row[head.index("hi")]) + 0.05)
    return "".join([lines[0], lines[1], ",".join(row), *lines[3:]])


@pytest.mark.parametrize("with_records", [True, False], ids=["with games.parquet", "committed"])
def test_an_effect_edited_with_its_digest_is_caught(factorial, tmp_path, with_records):
    out = tmp_path / "out"
    out.mkdir()
    for f in factorial.iterdir():
        if with_records or f.name != "games.parquet":
            (out / f.name).write_bytes(f.read_bytes())
    _rewrite(out, "effects.csv", _bump_second_row_estimate)
    v = verify_study(out, redraw=False)
    assert [m for m in v.mismatches if m.startswith("effects.csv: row 3 (2 players, random, lives=3, loser_rate_1): ")]
    assert any("from games.parquet" in m for m in v.mismatches) is with_records
    assert any("is not the contrast of summary.csv's rates" in m for m in v.mismatches) is not with_records


def test_a_fairness_value_edited_with_its_digest_is_caught_without_the_records(sweep, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for f in sweep.iterdir():
        if f.name != "games.parquet":
            (out / f.name).write_bytes(f.read_bytes())

    def edit(text):
        summary = pd.read_csv(out / "summary.csv")
        summary.loc[0, "loser_tv_hi"] += 0.01
        return storage.summary_csv(summary)
    _rewrite(out, "summary.csv", edit)
    v = verify_study(out, redraw=False)
    assert "summary.csv: ('dealer_lives=2', 2, 'random'): the fairness columns are not those of its seat rates" \
        in v.mismatches


def test_a_manifest_design_that_does_not_give_its_variants_is_one_line(factorial, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    for f in factorial.iterdir():
        (out / f.name).write_bytes(f.read_bytes())
    m = json.loads((out / "manifest.json").read_text())
    m["study"]["design"]["knobs"][1][1] = [0, 2]
    (out / "manifest.json").write_text(json.dumps(m))
    assert main(["verify", str(out)]) == 2
    assert capsys.readouterr().err.strip().endswith("design: its variants are not the study's variants")


def test_the_manifest_round_trip_of_a_design_keeps_the_knob_order(write_study):
    study = load(write_study(FACTORIAL))
    again = Study.from_dict(json.loads(json.dumps(study.to_dict(), sort_keys=True)))
    assert again == study and list(again.variants) == list(study.variants)
    assert again.design.knobs == ("lives", "dealer_lives")


@pytest.mark.parametrize("text, message", [
    (FACTORIAL + '\n[variants.plain]\npreset = "plain"\n', "factorial: expected exactly one of variants, sweep, "
                                                           "factorial"),
    (HEAD, "variants: expected exactly one of variants, sweep, factorial"),
    (FACTORIAL.replace("seed = 11", 'seed = 11\nbaseline = "plain"'),
     "baseline: a factorial's baseline is its base; leave baseline out"),
    (FACTORIAL.replace("lives = [2, 3]", "lifes = [2, 3]"), "factorial.knobs.lifes: unknown fakegame knob 'lifes'"),
    (SWEEP.replace("values = [0, 1, 3]", "values = [0, 10]"),
     "sweep.values[1]: fakegame knob dealer_lives=10 is invalid"),
    (SWEEP.replace("players = [2, 3]", "players = [2, 9]"), "players: fakegame is played by 2 to 6 players, not 9"),
    (SWEEP.replace('base = "sturdy_dealer"', 'base = "sturdy"'), "sweep.base: unknown fakegame preset 'sturdy'"),
])
def test_bad_designs_in_a_study_file_are_one_line(write_study, text, message):
    path = write_study(text)
    with pytest.raises(StudyError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: {message}") and "\n" not in str(err.value)


def test_report_re_renders_the_effects_byte_for_byte(factorial, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for f in factorial.iterdir():
        (out / f.name).write_bytes(f.read_bytes())
    before = {name: (out / name).read_bytes() for name in ("effects.csv", "summary.csv", "effects_random.png")}
    (out / "effects.csv").unlink()
    assert main(["report", str(out)]) == 0
    assert {name: (out / name).read_bytes() for name in before} == before
    assert verify_study(out).ok
