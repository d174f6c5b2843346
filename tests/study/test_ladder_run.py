"""`cardsim ladder` end to end: Moska random vs greedy at 4 players, a few hundred games per
seating; its tables against the games played one seating at a time, the same deals in
every seating, verify on the folder (and tampering caught), report, other games' measures,
the [ladder] table of a study file, and bad input as one line."""
import dataclasses
import json
import re
import shutil
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.study import verify_study
from cardsim.study.ladder import files as ladder_files
from cardsim.study.folder import manifest as claims
from cardsim.study.folder import storage
from cardsim.study.ladder.run import ladder_study, read
from cardsim.study.pipeline import run_ladder
from cardsim.study.plan.seatings import seatings
from cardsim.study.plan.spec import load
from cardsim.study.report.html import render_ladder
from cardsim.study.report.stats import wilson
from fakegame import edit

GAMES = 300
ARGS = ["ladder", "moska", "--policies", "random,greedy", "--players", "4", "--games", str(GAMES), "--seed", "5",
        "--quiet"]


@pytest.fixture(scope="module")
def moska(tmp_path_factory):
    """The Moska ladder of ``ARGS`` (its folder and tables), shared by the module: copy it before changing it."""
    return run_ladder("moska", policies="random,greedy", players=4, games=GAMES, seed=5,
                      out=tmp_path_factory.mktemp("ladder") / "moska")


@pytest.fixture
def moska_copy(moska, tmp_path):
    return shutil.copytree(moska.folder, tmp_path / "copy")


def test_the_command_prints_the_tables_and_writes_the_folder(moska, tmp_path, capsys):
    assert main([*ARGS, "--out", str(tmp_path / "again")]) == 0
    out = capsys.readouterr().out
    assert out == moska.text + f"wrote {tmp_path / 'again'}: ladder.csv, ratings.csv, ladder.txt, ladder.png, " \
                               "summary.csv, games.parquet, sample.csv, manifest.json\n"
    assert out.startswith(f"moska moska, 4 players, {GAMES} games per seating, 8 seatings (pairs), seed 5\n")
    for name in ("ladder.csv", "ratings.csv", "ladder.txt", "ladder.png", "summary.csv", "sample.csv"):
        assert (tmp_path / "again" / name).read_bytes() == (moska.folder / name).read_bytes(), name
    manifest = json.loads((moska.folder / "manifest.json").read_text())
    assert manifest["outputs"] == ["summary.csv", "ladder.csv", "ratings.csv", "ladder.txt", "ladder.png"]
    assert set(manifest["files"]) == {*manifest["outputs"], "sample.csv"}
    assert manifest["study"]["ladder"] == {"policies": ["random", "greedy"], "seatings": "pairs"}
    assert manifest["study_file"] is None
    assert manifest["command"] == ["cardsim", "ladder", "moska", "moska", "--policies", "random,greedy", "--players",
                                   "4", "--games", str(GAMES), "--seed", "5", "--seatings", "pairs", "--out",
                                   str(moska.folder)]


def test_the_table_is_the_games_of_each_seating_counted_by_hand(moska):
    losses = Counter()  # (policy, among or "(all)") -> [seats lost, seat-games]
    seat_games = Counter()
    for seats in seatings(["random", "greedy"], 4):
        loser = cardsim.simulate("moska", players=4, games=GAMES, seed=5, policy=list(seats)).loser.to_numpy()
        (alone,) = [p for p in set(seats) if seats.count(p) == 1]
        (among,) = set(seats) - {alone}
        for s, p in enumerate(seats):
            lost = int((loser == s).sum())
            losses[p, "(all)"] += lost
            seat_games[p, "(all)"] += GAMES
            key = (alone, among) if p == alone else (alone, among, "among")
            losses[key] += lost
            seat_games[key] += GAMES
    t = moska.table.set_index(["policy", "among"])
    for (a, b) in (("random", "greedy"), ("greedy", "random")):
        row = t.loc[a, b]
        k, n = losses[a, b], seat_games[a, b]
        assert n == 4 * GAMES and row.seat_games == n
        assert (row.value, row.lo, row.hi) == pytest.approx((k / n, *wilson(k, n)), abs=1e-6)
        k, n = losses[a, b, "among"], seat_games[a, b, "among"]
        assert row.among_value == pytest.approx(k / n, abs=1e-6) and n == 12 * GAMES
    for p in ("random", "greedy"):
        assert t.loc[p, "(all)"].value == pytest.approx(losses[p, "(all)"] / seat_games[p, "(all)"], abs=1e-6)
    # greedy is far stronger than random: it loses much less than a quarter of its games among three random
    assert t.loc["greedy", "random"].hi < 0.15
    r = moska.ratings.set_index("policy")
    assert r.loc["random"].tolist()[:3] == [0, 0, 0] and r.loc["greedy", "lo"] > 200


def test_every_policy_sits_in_every_seat_equally_often_on_the_same_deals(moska):
    manifest = json.loads((moska.folder / "manifest.json").read_text())
    seats = [tuple(c["seats"]) for c in manifest["cells"]]
    assert seats == seatings(["random", "greedy"], 4) and len(seats) == 4 * 2 * 1
    assert set(Counter((p, s) for row in seats for s, p in enumerate(row)).values()) == {4}
    for game in (0, 7, GAMES - 1):  # the replay's deal events: the same cards to the same seats in every seating
        replays = (cardsim.replay("moska", players=4, seed=5, game=game, policy=list(s)) for s in seats)
        deals = {tuple(r.events.loc[r.events.action == "deal", ["seat", "cards"]].itertuples(index=False))
                 for r in replays}
        assert len(deals) == 1 and len(next(iter(deals))) == 4


def test_verify_passes_with_the_records_and_as_committed(moska, moska_copy, capsys):
    assert main(["verify", str(moska.folder)]) == 0
    (moska_copy / "games.parquet").unlink()
    v = verify_study(moska_copy)
    assert v.ok, v.mismatches
    assert any("ladder.csv, ratings.csv, ladder.txt and ladder.png not recomputed" in n for n in v.notes)


@pytest.mark.parametrize("with_records", [True, False], ids=["with games.parquet", "committed"])
@pytest.mark.parametrize("name", ["ladder.csv", "ratings.csv", "ladder.txt"])
def test_an_edited_ladder_file_is_caught(moska_copy, name, with_records):
    text = (moska_copy / name).read_text()
    (moska_copy / name).write_text(text.replace("0.0", "0.1", 1) if "0.0" in text else text + " ")
    if not with_records:
        (moska_copy / "games.parquet").unlink()
    v = verify_study(moska_copy)
    assert f"{name}: changed since the run (its sha256 is not the manifest's)" in v.mismatches
    if with_records:
        assert f"{name}: not the ladder its games.parquet gives" in v.mismatches


def test_a_ladder_file_edited_with_its_digest_is_caught_by_recomputing_or_by_its_own_intervals(moska_copy):
    table = pd.read_csv(moska_copy / "ladder.csv")
    table.loc[0, "value"] += 0.01
    (moska_copy / "ladder.csv").write_text(table.to_csv(index=False, float_format="%.6g", lineterminator="\n"))
    manifest = json.loads((moska_copy / "manifest.json").read_text())
    manifest["files"]["ladder.csv"] = storage.file_digest(moska_copy / "ladder.csv")
    (moska_copy / "manifest.json").write_text(json.dumps(claims.sealed(manifest)))
    assert "ladder.csv: not the ladder its games.parquet gives" in verify_study(moska_copy).mismatches
    (moska_copy / "games.parquet").unlink()
    assert any(line.startswith("ladder.csv: random among greedy: ") and "is no Wilson interval of 1200 seat-games"
               in line for line in verify_study(moska_copy).mismatches)


def test_a_ladder_figure_replaced_with_its_digest_is_caught_by_drawing_it_again(moska_copy):
    png = bytearray((moska_copy / "ladder.png").read_bytes())
    png[-20] ^= 1
    (moska_copy / "ladder.png").write_bytes(bytes(png))
    manifest = json.loads((moska_copy / "manifest.json").read_text())
    manifest["files"]["ladder.png"] = storage.file_digest(moska_copy / "ladder.png")
    (moska_copy / "manifest.json").write_text(json.dumps(claims.sealed(manifest)))
    assert verify_study(moska_copy).mismatches == ["ladder.png: not the figure its games.parquet draws"]


def test_report_writes_the_same_ladder_files(moska_copy, capsys):
    before = {n: (moska_copy / n).read_bytes() for n in ladder_files.FILES}
    assert main(["report", str(moska_copy)]) == 0
    assert {n: (moska_copy / n).read_bytes() for n in ladder_files.FILES} == before
    assert read(moska_copy).text == (moska_copy / "ladder.txt").read_text()


def test_replicate_plays_the_ladder_again_on_the_next_seed_and_tabulates_its_ratings(moska, moska_copy, capsys):
    """``cardsim replicate`` on a ladder: the same ladder on the next seed in ``fresh/``, and each rating against
    the pinned first policy corrected and compared with the original's (``replication.csv``)."""
    from cardsim.study import replication

    assert main(["replicate", str(moska_copy), "--quiet"]) == 0
    place = moska_copy.parent / "copy_replication"
    assert capsys.readouterr().out == (f"replicated {moska_copy} on fresh deals: 1 replicated, 0 not replicated, "
                                       f"0 underpowered, 0 no finding; wrote {place}: replication.csv, fresh/\n")
    fresh = read(place / replication.FRESH)
    again = run_ladder("moska", policies="random,greedy", players=4, games=GAMES, seed=6, out=place / "again")
    pd.testing.assert_frame_equal(fresh.ratings, again.ratings)
    table = replication.read(place / replication.TABLE)
    assert table[["effect", "policy", "reference", "measure", "verdict"]].values.tolist() == [
        ["rating", "greedy", "random", "elo", "replicated"]]
    assert table.estimate[0] == pytest.approx(moska.ratings.rating[1])
    assert table.fresh_estimate[0] == pytest.approx(again.ratings.rating[1])
    assert verify_study(place / replication.FRESH).ok


def test_ladder_replicate_plays_it_and_then_replicates_it(tmp_path, capsys):
    assert main([*ARGS, "--out", str(tmp_path / "l"), "--games", "60", "--replicate"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith(f"wrote {tmp_path / 'l'}: ladder.csv")
    assert out[-1].startswith(f"replicated {tmp_path / 'l'} on fresh deals: ")
    assert (tmp_path / "l_replication" / "replication.csv").is_file()
    assert read(tmp_path / "l_replication" / "fresh").ratings.policy.tolist() == ["random", "greedy"]


@pytest.mark.parametrize("part", [["--policies", "greedy"], ["--players", "4"]])
def test_a_ladder_is_replicated_whole_and_a_part_is_one_line(moska_copy, capsys, part):
    assert main(["replicate", str(moska_copy), *part, "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cardsim: error: {part[0]}: a ladder is replicated whole (its ratings depend on every policy it seats); "
        "--games plays fewer games a seating")
    assert not (moska_copy.parent / "copy_replication").exists()


def test_another_ladder_into_the_folder_needs_force(moska_copy, capsys):
    argv = ["ladder", "moska", "--policies", "greedy,random", "--games", "20", "--quiet", "--out", str(moska_copy)]
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"cardsim: error: {moska_copy}: holds results of a different study")
    assert main([*argv, "--force"]) == 0


def test_uno_policies_with_commas_inside_and_all_seatings(tmp_path, capsys):
    bluffer = "greedy(bluff=0.5, challenge=0.1)"
    assert main(["ladder", "uno", "--policies", f"random, {bluffer}", "--players", "3", "--games", "40",
                 "--seatings", "all", "--quiet", "--out", str(tmp_path / "uno")]) == 0
    result = read(tmp_path / "uno")
    assert list(result.ratings.policy) == ["random", bluffer]
    assert set(result.table.measure) == {"win rate"}
    manifest = json.loads((tmp_path / "uno" / "manifest.json").read_text())
    assert len(manifest["cells"]) == 2 ** 3 and manifest["cells"][1]["seats"] == ["random", "random", bluffer]
    assert main(["verify", str(tmp_path / "uno")]) == 0


def test_molotow_ranks_by_score(tmp_path):
    result = run_ladder("molotow", policies=["random", "greedy"], players=4, games=30, out=tmp_path / "m")
    t = result.table.set_index(["policy", "among"])
    assert set(result.table.measure) == {"mean score"}
    # each deal's mean over its 4 rotations: A's score alone among B, by hand from the records
    scores = np.zeros(30)
    for seat in range(4):
        seats = ["random"] * 4
        seats[seat] = "greedy"
        df = cardsim.simulate("molotow", players=4, games=30, policy=seats)
        scores += df[f"score_{seat}"].to_numpy() / 4
    assert t.loc["greedy", "random"].value == pytest.approx(scores.mean(), abs=1e-5)
    assert "mean score of A in one seat" in result.text


LADDER_FILE = """\
name = "fake_ladder"
game = "fakegame"
seed = 3
games = 10
players = 3
baseline = "plain"

[ladder]
policies = ["random", "greedy()"]

[variants.plain]
preset = "plain"
"""


def test_a_study_file_can_hold_a_ladder(write_study, tmp_path, capsys):
    """... and ``cardsim run`` of it prints what ``cardsim ladder`` prints: the tables, then the files."""
    study = load(write_study(LADDER_FILE))
    assert study.ladder.policies == ("random", "greedy") and study.ladder.seatings == "pairs"
    assert [c.seats for c in study.cells()] == seatings(["random", "greedy"], 3)
    assert type(study).from_dict(json.loads(json.dumps(study.to_dict()))) == study
    capsys.readouterr()
    assert main(["run", str(write_study(LADDER_FILE)), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert read(tmp_path / "out").ratings.policy.tolist() == ["random", "greedy"]
    assert capsys.readouterr().out == read(tmp_path / "out").text + (
        f"wrote {tmp_path / 'out'}: ladder.csv, ratings.csv, ladder.txt, ladder.png, summary.csv, games.parquet, "
        "sample.csv, manifest.json\n")
    assert verify_study(tmp_path / "out").ok


@pytest.mark.parametrize("edits, message", [
    ({"players = 3": "players = [2, 3]"}, "players: a ladder is played at one player count, not [2, 3]"),
    ({'[variants.plain]': '[variants.short]\npreset = "short"\n[variants.plain]'}, "variants: a ladder plays one "
                                                                                   "variant, not 2"),
    ({'policies = ["random", "greedy()"]': 'policies = ["random"]'}, "ladder.policies: expected a list of two or "
                                                                      "more policies, not ['random']"),
    ({"[ladder]": '[ladder]\nseatings = "some"'}, "ladder.seatings: expected one of pairs, all, not 'some'"),
    ({"[ladder]": "[ladder]\nanchor = 1"}, "ladder.anchor: unknown key; a ladder has policies and seatings"),
    ({"[ladder]": 'policies = [["random", "greedy", "greedy"]]\n[ladder]'},
     "policies: not the pairs seatings of the ladder's policies ['random', 'greedy'] at 3 players"),
])
def test_a_bad_ladder_table_is_one_line(write_study, edits, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        load(write_study(edit(LADDER_FILE, **edits)))


@pytest.mark.parametrize("argv, message", [
    (["--policies", "random"], "--policies: expected two or more policies separated by commas, not 'random'"),
    (["--policies", "random,greedy()  ,greedy"], "cardsim ladder: ladder.policies[2]: 'greedy' is "
                                                 "ladder.policies[1] (greedy) again; expected distinct policies"),
    (["--policies", "random,gredy"], "cardsim ladder: ladder.policies[1]: unknown moska policy 'gredy'; "
                                     "known policies: random, greedy"),
    (["--policies", "random,greedy", "--players", "1"], "cardsim ladder: players: variant moska: moska is played "
                                                        "by 2 to "),
    (["--policies", "random,greedy", "--games", "0"], "--games: expected an integer >= 1 and < 2**63, not 0"),
    (["--policies", "random,greedy", "--seed", "-1"], "--seed: expected an integer >= 0 and < 2**64, not -1"),
    (["--policies", "random,greedy", "--seatings", "some"], "argument --seatings: invalid choice: 'some'"),
    (["turamoska(attack_cap=0)", "--policies", "random,greedy"], "moska knob attack_cap=0 is invalid"),
    (["--games", "10"], "the following arguments are required: --policies"),
])
def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["ladder", "moska", *argv, "--out", "x", "--quiet"])
    except SystemExit as stop:  # what argparse refuses
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_api_builds_the_same_study_as_a_list_or_a_string():
    a = ladder_study("uno", policies="random,greedy(challenge=0.5, bluff=0.1)", players=3, games=10)
    b = ladder_study("uno", policies=["random", "greedy(bluff=0.1, challenge=0.5)"], players=3, games=10)
    assert a == b and a.ladder.policies[1] == "greedy(bluff=0.1, challenge=0.5)"
    assert a.name == "ladder_uno" and list(a.variants) == ["official"]


def test_report_without_records_names_the_ladder_command_that_re_creates_them(moska_copy, capsys):
    (moska_copy / "games.parquet").unlink()
    assert main(["report", str(moska_copy)]) == 2
    assert capsys.readouterr().err == (
        f"cardsim: error: {moska_copy}: no games.parquet (the full records are not committed); re-create them with "
        f"`cardsim ladder moska moska --policies random,greedy --players 4 --games {GAMES} --seed 5 --seatings pairs "
        f"--out {moska_copy}`\n")


def test_a_ladder_of_generations_writes_its_steps_and_verify_recomputes_them(tmp_path):
    policies = "greedy,learned(model=moska_4p_g1),learned(model=moska_4p_g2)"
    result = run_ladder("moska", policies=policies, players=4, games=40, seed=3, out=tmp_path / "g")
    steps = pd.read_csv(tmp_path / "g" / ladder_files.STEPS)
    assert steps[["generation", "previous_generation", "policy", "previous"]].values.tolist() == [
        [2, 1, "learned(model='moska_4p_g2')", "learned(model='moska_4p_g1')"]]
    assert "generation steps" in result.text and "    g2 less g1: " in result.text
    assert result.steps.values.tolist() == steps.values.tolist()
    assert read(tmp_path / "g").steps.values.tolist() == steps.values.tolist()
    manifest = json.loads((tmp_path / "g" / "manifest.json").read_text())
    assert manifest["format"] == 5 and ladder_files.STEPS in manifest["outputs"]
    assert ladder_files.STEPS in manifest["files"]
    assert main(["verify", str(tmp_path / "g")]) == 0
    edited = steps.assign(step=steps.step + 1)
    (tmp_path / "g" / ladder_files.STEPS).write_text(edited.to_csv(index=False, lineterminator="\n"))
    assert verify_study(tmp_path / "g").mismatches == [
        "steps.csv: changed since the run (its sha256 is not the manifest's)",
        "steps.csv: not the ladder its games.parquet gives"]


def test_a_ladders_report_html_shows_its_ratings_pairs_and_figure_not_each_seating(moska_copy, capsys):
    """``cardsim report FOLDER --html`` on a ladder: its own tables (ratings, A among B, each policy over all its
    seats) and ``ladder.png``, in Chromium; not the per-seating tables of a study page (a ladder's cells are
    seatings, not policies)."""
    from chromium import Browser
    from test_study_html import _facts, _png_size

    assert main(["report", str(moska_copy), "--html"]) == 0
    ladder = read(moska_copy)
    with Browser() as page:
        page.open(moska_copy / "report.html")
        facts = _facts(page)
    assert {k: v for k, v in facts["tables"].items() if k not in ("provenance", "headline")} == {
        "ratings": 2, "among": 2, "overall": 2, "rules": 1}
    assert [(alt, complete) for alt, complete, *_ in facts["images"]] == [("ladder.png", True)]
    assert tuple(facts["images"][0][2:]) == _png_size((moska_copy / "ladder.png").read_bytes())
    assert facts["outside"] == [] and facts["scripts"] == 0
    text = (moska_copy / "report.html").read_text()
    assert "Findings at a glance" not in text and "greedy,random,random,random" not in text
    assert f"{ladder.ratings.rating[1]:+.1f} <span class=\"ci\">[{ladder.ratings.lo[1]:+.1f}, " in text
    steps = pd.DataFrame([("learned(model='x_g*')", 2, 1, "learned(model='x_g2')", "learned(model='x_g1')", 3.3,
                           1.5, 5.0, "climbs")], columns=ladder.steps.columns)
    page = render_ladder(json.loads((moska_copy / "manifest.json").read_text()), dataclasses.replace(ladder, steps=steps),
                         [], "cardsim ladder ...")
    assert "<table id=\"steps\">" in page and "g2 less g1" in page and "+3.3 <span class=\"ci\">[+1.5, +5.0]" in page
