"""Replication on fresh deals (cardsim.study.replication, ``cardsim replicate``): verdicts on fixed
tables, and small studies of the fake game re-run with another seed."""
import json
import shutil

import pandas as pd
import pytest
from scipy import stats

from cardsim import cli
from cardsim.study import run_study
from cardsim.study.folder import storage
from cardsim.study.replication import FRESH, TABLE, power, read, replicate, verdicts
from cardsim.study.plan.spec import StudyError

FACTORIAL = """\
name = "fake_factorial"
game = "fakegame"
seed = 11
games = 400
players = [3]
policies = ["random"]
engine = "compiled"

[factorial]
base = "plain"
[factorial.knobs]
lives = [2, 3]
dealer_lives = [0, 3]
"""


def _row(estimate, half, survives, sim=None):
    sim = 2 * half if sim is None else sim
    return {"players": 4, "policy": "mc", "measure": "loser_rate_1", "estimate": estimate, "lo": estimate - half,
            "hi": estimate + half, "p_holm": 0.01 if survives else 0.5, "sim_lo": estimate - sim,
            "sim_hi": estimate + sim, "survives": survives}


@pytest.mark.parametrize("original, fresh, verdict", [
    (_row(0.02, 0.005, True), _row(0.015, 0.005, True), "replicated"),
    (_row(0.02, 0.005, True), _row(-0.015, 0.005, True), "not replicated"),  # surviving, the other sign
    (_row(0.02, 0.005, True), _row(0.001, 0.005, False), "not replicated"),  # could have resolved 0.02
    (_row(0.02, 0.005, True), _row(0.01, 0.015, False), "underpowered"),  # half-width 0.03 >= 0.02
    # the simultaneous half-width just under the effect: found about half the time, so a miss is no evidence
    (_row(0.02, 0.005, True), _row(0.002, 0.0098, False, sim=0.0196), "underpowered"),
    # the Molotow case: 1.32 pp, an 8,000-game replication's simultaneous half-width 1.30 pp
    (_row(0.0132, 0.0061, True), _row(0.0011, 0.0065, False, sim=0.0130), "underpowered"),
    (_row(-0.0063, 0.0043, False), _row(0.0106, 0.011, False), "no finding"),  # the trump-two swap
])
def test_the_verdict_of_a_contrast(original, fresh, verdict):
    keys = {"knob": "trump_two_swap", "level": "False"}
    table = verdicts(pd.DataFrame([original | keys]), pd.DataFrame([fresh | keys]))
    assert table.verdict.tolist() == [verdict]
    assert table.fresh_estimate.iloc[0] == fresh["estimate"]


@pytest.mark.parametrize("effect, half, sim", [(0.02, 0.005, 0.01), (0.02, 0.0098, 0.0196), (-0.013, 0.004, 0.009),
                                               (0.001, 0.002, 0.004)])
def test_the_power_of_a_fresh_run_is_its_chance_to_clear_the_simultaneous_interval(effect, half, sim):
    """Against scipy.stats.norm: an estimate drawn around the original's effect with the fresh run's
    standard error exceeds the simultaneous half-width on the effect's side."""
    se = half / stats.norm.ppf(0.975)
    expected = stats.norm.sf(sim, loc=abs(effect), scale=se)
    assert power(effect, 0.0 - half, half, -sim, sim) == pytest.approx(expected, rel=1e-9)
    assert power(0.0, -half, half, -sim, sim) < 0.5 < power(sim * 1.01, -half, half, -sim, sim)
    assert power(effect, 0.0, 0.0, 0.0, 0.0) == (1.0 if effect else 0.0)  # a contrast the same in every game


def test_a_factorial_replicates_on_fresh_deals_into_its_own_folder(fake, tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL)
    original = run_study(path, out=tmp_path / "out")
    place, table = replicate(original, out=tmp_path / "rep")
    fresh = json.loads((place / FRESH / storage.MANIFEST).read_text())["study"]
    held = json.loads((original / storage.MANIFEST).read_text())["study"]
    assert fresh == held | {"seed": 12}  # every setting but the seed
    effects = pd.read_csv(original / "effects.csv")
    assert len(table) == len(effects) and {"p_holm", "q_bh", "sim_lo", "sim_hi", "survives"} <= set(effects)
    on_dealer = table.loc[(table.knob == "dealer_lives") & (table.effect == "main")].set_index("measure")
    assert on_dealer.verdict["loser_rate_0"] == "replicated"  # 3 extra lives: the dealer loses far more often
    assert on_dealer.estimate["loser_rate_0"] != on_dealer.fresh_estimate["loser_rate_0"]  # other deals
    assert read(place / TABLE).verdict.tolist() == table.verdict.tolist()


def test_replicate_true_in_the_study_file_replicates_after_the_run(fake, tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL.replace('engine = "compiled"', 'engine = "compiled"\nreplicate = true'))
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert (tmp_path / "out_replication" / TABLE).is_file()
    assert "replicated" in capsys.readouterr().out.splitlines()[-1]
    place = tmp_path / "out_replication"
    assert cli.main(["report", str(place)]) == 2  # the replication's folder is no study
    assert capsys.readouterr().err == (f"cardsim: error: {place}: no manifest.json: a replication (replication.csv); "
                                       f"its fresh run is the study folder {place / FRESH}\n")


def test_verify_checks_a_replication_its_fresh_run_and_its_table_recomputed_from_both_runs(fake, tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL)
    original = run_study(path, out=tmp_path / "out")
    place, table = replicate(original, out=tmp_path / "out_replication")
    assert cli.main(["verify", str(place), "--sample", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(
        "manifest, files and summary checked (fresh/), and replication.csv recomputed from both runs: identical")
    lines = (place / TABLE).read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.endswith(",replicated"))
    lines[row] = lines[row].removesuffix("replicated") + "underpowered"  # an edited verdict
    (place / TABLE).write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit) as status:
        cli.main(["verify", str(place), "--sample", "1"])
    assert status.value.code == 1
    out = capsys.readouterr().out
    assert f"MISMATCH replication.csv line {row + 1}: verdict 'underpowered', today's rule gives 'replicated'" in out
    assert out.splitlines()[-1].endswith(": DIFFERENT")
    moved = shutil.move(place, tmp_path / "elsewhere")
    assert cli.main(["verify", str(moved)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cardsim: error: {moved}: its original study is not beside it ({tmp_path / 'elsewhere'}): "
        f"replication.csv is checked against the original and fresh/; verify {moved / FRESH} alone")


def test_a_replication_needs_another_seed_and_a_study_with_contrasts(fake, tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL)
    original = run_study(path, out=tmp_path / "out")
    assert cli.main(["replicate", str(original), "--seed", "11"]) == 2
    assert capsys.readouterr().err.strip() == ("cardsim: error: --seed 11: the study's own seed; a replication "
                                               "needs fresh deals")
    assert not (tmp_path / "out_replication").exists()
    with pytest.raises(StudyError, match="no manifest|manifest"):
        replicate(tmp_path / "nowhere")


def test_a_part_of_a_study_replicates_at_fewer_games(fake, tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL.replace("players = [3]", "players = [2, 3]").replace(
        'policies = ["random"]', 'policies = ["random", "greedy"]'))
    original = run_study(path, out=tmp_path / "out")
    place, table = replicate(original, out=tmp_path / "rep", players=[3], policies=["greedy"], games=200)
    fresh = json.loads((place / FRESH / storage.MANIFEST).read_text())["study"]
    assert (fresh["players"], fresh["policies"], fresh["games"]) == ([3], ["greedy"], 200)
    assert set(zip(table.players, table.policy)) == {(3, "greedy")}
    assert cli.main(["replicate", str(original), "--players", "5", "--out", str(tmp_path / "r2")]) == 2
    assert capsys.readouterr().err.strip() == ("cardsim: error: --players 5: not a player count of the study "
                                               "([2, 3])")


def test_a_study_with_ties_replicates_its_tie_rates_too():
    """Molotow's claims are about shared wins (``winner_none``): the replication table holds each variant's
    change of the tie rate, so such a claim can be replicated (the committed Molotow replications)."""
    from pathlib import Path

    results = Path(__file__).resolve().parents[2] / "results"
    table = read(results / "molotow_rules_replication" / TABLE)
    ties = table.loc[table.measure == "winner_none"]
    assert len(ties) == 4 and set(ties.policy) == {"random", "greedy"}
    swiss = ties.loc[(ties.variant == "swiss") & (ties.policy == "greedy")].iloc[0]
    assert swiss.verdict == "replicated" and swiss.estimate > 0 and swiss.fresh_estimate > 0


def test_a_replications_page_shows_every_contrast_with_its_verdict(fake, tmp_path, capsys):
    """``cardsim report FOLDER_replication --html``: one self-contained page of ``replication.csv`` (in Chromium),
    which ``verify`` then holds to its table."""
    from chromium import Browser
    from test_study_html import _facts

    path = tmp_path / "study.toml"
    path.write_text(FACTORIAL)
    place, table = replicate(run_study(path, out=tmp_path / "out"), out=tmp_path / "out_replication")
    assert cli.main(["report", str(place), "--html"]) == 0
    assert capsys.readouterr().out == f"wrote {place / 'report.html'}\n"
    with Browser() as page:
        page.open(place / "report.html")
        facts = _facts(page)
        counts = page.evaluate("document.getElementById('verdicts').textContent")
    assert facts["tables"] == {"replication": len(table)} and facts["outside"] == [] and facts["scripts"] == 0
    assert facts["command"].startswith("cardsim replicate ")
    assert all(f"{n} {v}" in counts for v, n in table.verdict.value_counts().items())
    assert cli.main(["verify", str(place), "--sample", "1"]) == 0
    capsys.readouterr()
    (place / "report.html").write_text((place / "report.html").read_text().replace("replicated", "confirmed", 1))
    with pytest.raises(SystemExit):
        cli.main(["verify", str(place), "--sample", "1"])
    assert "MISMATCH report.html: not the page its replication.csv renders" in capsys.readouterr().out
