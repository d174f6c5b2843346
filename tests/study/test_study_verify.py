"""verify checks everything a study folder claims: every tampering below is caught.

Each case edits a copy of a finished folder (with games.parquet, and without it as a
committed folder is) and expects the difference verify reports, exit status 1 in the
command line; a manifest that cannot be checked at all is one line, exit status 2.
"""
import json
import shutil

import matplotlib
import pandas as pd
import pytest

from cardsim.cli import main
from cardsim.study import verify_study
from cardsim.study.folder import manifest as claims
from cardsim.study.folder import storage


def _manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


def _set_manifest(folder, change, seal=True):
    """Edit the manifest as a careful forger would: its seal computed again (``seal=False``: left as it was),
    so that each edit is caught by the check it is aimed at."""
    manifest = _manifest(folder)
    change(manifest)
    (folder / "manifest.json").write_text(json.dumps(claims.sealed(manifest) if seal else manifest))


def _edit_only(change):
    """An edit to the manifest's fields, its seal left as the run wrote it."""
    return lambda f: _set_manifest(f, change, seal=False)


EDITED = "manifest.json: edited after the run (its seal is not the sha256 of its fields; informational ones included)"


def _edit_summary(folder):
    summary = (folder / "summary.csv").read_text().splitlines(keepends=True)
    cells = summary[1].split(",")
    head = summary[0].split(",")
    i = head.index("loser_rate_0")
    cells[i] = str(round(float(cells[i]) + 0.025, 6))
    (folder / "summary.csv").write_text("".join([summary[0], ",".join(cells), *summary[2:]]))


def _swap_png(folder):
    shutil.copy(folder / "loser_by_seat_random.png", folder / "paired_random.png")


def _knob(manifest):
    manifest["rules"]["sturdy"]["knobs"]["dealer_lives"] = 3


TAMPERING = {  # what was done -> (the edit, a line verify must report)
    "summary.csv edited": (_edit_summary, "summary.csv: changed since the run (its sha256 is not the manifest's)"),
    "summary.csv deleted": (lambda f: (f / "summary.csv").unlink(), "summary.csv: missing (the manifest lists it)"),
    "a plot replaced": (_swap_png, "paired_random.png: changed since the run (its sha256 is not the manifest's)"),
    "a plot deleted": (lambda f: (f / "length_random.png").unlink(),
                       "length_random.png: missing (the manifest lists it)"),
    "sample.csv deleted": (lambda f: (f / "sample.csv").unlink(), "sample.csv: missing (the manifest lists it)"),
    "study.games": (lambda f: _set_manifest(f, lambda m: m["study"].update(games=39)),
                    "manifest.json: records.rows is not the study's (360; the study gives 351)"),
    "records.rows": (lambda f: _set_manifest(f, lambda m: m["records"].update(rows=350)),
                     "manifest.json: records.rows is not the study's (350; the study gives 360)"),
    "engine": (lambda f: _set_manifest(f, lambda m: m.update(engine="compiled")),
               "manifest.json: engine is not the study's ('compiled'; the study gives 'reference')"),
    "cells": (lambda f: _set_manifest(f, lambda m: m["cells"].pop()), "manifest.json: cells is not the study's"),
    "sample.games": (lambda f: _set_manifest(f, lambda m: m["sample"]["games"].__setitem__(3, 5)),
                     "manifest.json: sample.games is not the study's"),
    "sample.rows": (lambda f: _set_manifest(f, lambda m: m["sample"].update(rows=9)),
                    "manifest.json: sample.rows is not the study's (9; the study gives 225)"),
    "seed": (lambda f: _set_manifest(f, lambda m: m.update(seed=12)),
             "manifest.json: seed is not the study's (12; the study gives 11)"),
    "rules knobs": (lambda f: _set_manifest(f, _knob), "manifest.json: rules is not the study's"),
    "rules describe": (lambda f: _set_manifest(f, lambda m: m["rules"]["plain"].update(describe="short")),
                       "manifest.json: rules is not the study's"),
    "outputs": (lambda f: _set_manifest(f, lambda m: m["outputs"].pop()), "manifest.json: outputs is not the study's"),
    "files": (lambda f: _set_manifest(f, lambda m: m["files"].pop("length_random.png")),
              "manifest.json: files does not list the sample, the summary and every plot"),
    "study.seed": (lambda f: _set_manifest(f, lambda m: m["study"].update(seed=12)),
                   "manifest.json: seed is not the study's (11; the study gives 12)"),
    "study.variants": (lambda f: _set_manifest(f, lambda m: m["study"]["variants"]["sturdy"].update(dealer_lives=1)),
                       "manifest.json: rules is not the study's"),
    # issue 28 item 5: what nothing derives again, and what the folder holds beside the study
    "a stray file added": (lambda f: (f / "notes.txt").write_text("mine"),
                           "notes.txt: foreign (the manifest does not list it)"),
    "a folder added": (lambda f: (f / "extra").mkdir(), "extra: foreign (not a file: a study folder holds files only)"),
    "a link added": (lambda f: (f / "more.png").symlink_to(f / "paired_random.png"),
                     "more.png: foreign (not a file: a study folder holds files only)"),
    "study.description": (_edit_only(lambda m: m["study"].update(description="a forged finding")), EDITED),
    "study.name": (_edit_only(lambda m: m["study"].update(name="another")), EDITED),
    "created": (_edit_only(lambda m: m.update(created="2020-01-01T00:00:00+00:00")), EDITED),
    "machine": (_edit_only(lambda m: m["machine"].update(node="elsewhere")), EDITED),
    "command": (_edit_only(lambda m: m.update(command=["cardsim", "run", "other.toml"])), EDITED),
    "timings": (_edit_only(lambda m: m["timings"].update(games_per_s=1e9)), EDITED),
    "seal": (_edit_only(lambda m: m.update(seal="0" * 64)), EDITED),
    "informational": (lambda f: _set_manifest(f, lambda m: m["informational"].remove("created")),
                      "manifest.json: informational is not study.name, study.description, study_file, command, "
                      "cwd, run, package, machine, execution, timings, created, reported"),
}


@pytest.mark.parametrize("with_records", [True, False], ids=["with games.parquet", "committed"])
@pytest.mark.parametrize("what", list(TAMPERING))
def test_every_tampering_is_caught(finished_copy, capsys, what, with_records):
    if not with_records:
        (finished_copy / "games.parquet").unlink()
    edit, line = TAMPERING[what]
    edit(finished_copy)
    with pytest.raises(SystemExit) as status:
        main(["verify", str(finished_copy)])
    assert status.value.code == 1
    out = capsys.readouterr().out
    assert f"MISMATCH {line}" in out and out.rstrip().endswith(": DIFFERENT"), out


def test_a_study_variant_edited_with_its_readable_rules_is_caught_by_the_re_run(finished_copy):
    def consistent(m):
        m["study"]["variants"]["sturdy"]["dealer_lives"] = 1
        m["rules"]["sturdy"] = {"describe": "plain(dealer_lives=1)", "knobs": m["study"]["variants"]["sturdy"]}
    _set_manifest(finished_copy, consistent)
    v = verify_study(finished_copy, redraw=False)
    assert not v.ok and all(m.startswith("variant=sturdy") or m.startswith("summary.csv") for m in v.mismatches)
    assert any(m.startswith("variant=sturdy, players=") and " stored " in m for m in v.mismatches)


def test_a_summary_edited_with_its_digest_is_caught_by_the_records_or_by_its_own_intervals(finished_copy):
    _edit_summary(finished_copy)
    _set_manifest(finished_copy, lambda m: m["files"].update({"summary.csv": storage.file_digest(
        finished_copy / "summary.csv")}))
    v = verify_study(finished_copy, redraw=False)
    assert [m for m in v.mismatches if m.startswith("summary.csv: variant=plain, players=2, policy=random: "
                                                    "loser_rate_0 ")]
    (finished_copy / "games.parquet").unlink()
    v = verify_study(finished_copy, redraw=False)
    assert v.mismatches == ["summary.csv: ('plain', 2, 'random'): seat 0: rate "
                            f"{pd.read_csv(finished_copy / 'summary.csv').loser_rate_0[0]} ["
                            f"{pd.read_csv(finished_copy / 'summary.csv').loser_lo_0[0]}, "
                            f"{pd.read_csv(finished_copy / 'summary.csv').loser_hi_0[0]}] is no Wilson interval of "
                            "40 games",
                            "summary.csv: ('plain', 2, 'random'): the outcome rates, no-outcome and truncated games "
                            "sum to 1.025000"]


@pytest.mark.parametrize("with_records", [True, False], ids=["with games.parquet", "committed"])
def test_a_plot_replaced_with_its_digest_is_caught_by_drawing_it_again(finished_copy, with_records):
    if not with_records:
        (finished_copy / "games.parquet").unlink()
    _swap_png(finished_copy)
    _set_manifest(finished_copy, lambda m: m["files"].update({"paired_random.png": storage.file_digest(
        finished_copy / "paired_random.png")}))
    v = verify_study(finished_copy)
    source = "records" if with_records else "summary.csv"
    assert v.mismatches == [f"paired_random.png: not the plot its {source} draw"]
    assert ("length plots not re-drawn: they need games.parquet" in v.notes) is not with_records


def test_plots_drawn_by_another_matplotlib_are_not_redrawn_and_verify_says_so(finished_copy):
    _set_manifest(finished_copy, lambda m: m["machine"].update(matplotlib="2.0.0"))
    v = verify_study(finished_copy)
    assert v.ok and (f"plots not re-drawn: drawn by matplotlib 2.0.0, this is {matplotlib.__version__} "
                     "(their sha256 is checked)") in v.notes


def test_the_plots_of_a_fresh_study_draw_again_byte_for_byte(finished_copy):
    v = verify_study(finished_copy)
    assert v.ok and not [n for n in v.notes if "plots" in n]


def test_games_parquet_deleted_is_said(finished_copy, capsys):
    (finished_copy / "games.parquet").unlink()
    assert main(["verify", str(finished_copy)]) == 0
    out = capsys.readouterr().out
    assert "note: no games.parquet (the full records are not committed)" in out
    assert "re-run against sample.csv" in out


def test_a_corrupt_parquet_is_one_line_naming_the_file(finished_copy, capsys):
    path = finished_copy / "games.parquet"
    path.write_bytes(path.read_bytes()[:-100])
    v = verify_study(finished_copy, redraw=False)
    assert f"{path}: unreadable parquet (" in v.mismatches[0] and v.source == "sample.csv"
    assert main(["report", str(finished_copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"cardsim: error: {path}: unreadable parquet (")


@pytest.mark.parametrize("change, message", [
    (lambda m: m.pop("records"), "records: missing; not a complete cardsim manifest"),
    (lambda m: m.update(records=[1, 2]), "records: expected a table, not [1, 2]"),
    (lambda m: m["records"].pop("rows"), "records.rows: missing; not a complete cardsim manifest"),
    (lambda m: m["sample"].update(games="all"), "sample.games: expected a list, not 'all'"),
    (lambda m: m.update(study=[]), "study: expected a table, not []"),
    (lambda m: m["study"].pop("seed"), "seed: missing; a study needs name"),
    (lambda m: m.update(cells=None), "cells: expected a list, not None"),
    (lambda m: m.update(format=7), "format: 7; this cardsim reads formats 2, 3, 4, 5: re-run the study"),
    (lambda m: m.pop("seal"), "seal: missing; not a complete cardsim manifest"),
    (lambda m: m.update(informational="all"), "informational: expected a list, not 'all'"),
])
def test_a_manifest_that_cannot_be_checked_is_one_line(finished_copy, capsys, change, message):
    _set_manifest(finished_copy, change, seal=False)
    assert main(["verify", str(finished_copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardsim: error: ") and message in err, err


def test_a_manifest_that_is_not_json_is_one_line(finished_copy, capsys):
    (finished_copy / "manifest.json").write_bytes(b"\xff{not json")
    assert main(["verify", str(finished_copy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "manifest.json: unreadable manifest (" in err


def test_by_default_every_sampled_game_is_re_run_and_a_sample_seed_fixes_a_smaller_draw(finished_copy):
    assert verify_study(finished_copy, redraw=False).games == storage.sample_games(40).tolist()
    a, b = (verify_study(finished_copy, sample=7, seed=5, redraw=False) for _ in range(2))
    assert a.games == b.games and a.seed == 5 and len(a.games) == 7
    draws = {tuple(verify_study(finished_copy, sample=7, seed=s, redraw=False).games) for s in range(4)}
    assert len(draws) > 1  # the seed decides
    free = verify_study(finished_copy, sample=7, redraw=False)
    again = verify_study(finished_copy, sample=7, seed=free.seed, redraw=False)
    assert free.seed is not None and again.games == free.games


def test_a_changed_sample_row_is_always_caught(finished_copy):
    """Every sampled game is re-run: no luck of the draw (the issue found 6 catches in 8)."""
    (finished_copy / "games.parquet").unlink()
    sample = pd.read_csv(finished_copy / "sample.csv", dtype={"variant": "str", "policy": "str"})
    row = sample.index[(sample.variant == "plain") & (sample.game == 13)][0]
    sample.loc[row, "turns"] += 1
    sample.to_csv(finished_copy / "sample.csv", index=False, lineterminator="\n")
    v = verify_study(finished_copy, redraw=False)
    assert any(m.startswith("variant=plain, players=2, policy=random, game=13: turns stored ") for m in v.mismatches)


def test_a_manifest_listing_something_else_than_file_names_is_one_line(finished_copy, capsys):
    _set_manifest(finished_copy, lambda m: m["outputs"].append(3))
    assert main(["verify", str(finished_copy)]) == 2
    assert "outputs: expected file names (and their sha256 in files)" in capsys.readouterr().err


def test_a_manifest_sealed_again_after_an_informational_edit_passes_and_the_field_is_listed_as_the_runs_word(
        finished_copy):
    """The limit of the seal: a description edited and sealed again is not found (nothing derives it);
    the manifest says which fields are of that kind."""
    _set_manifest(finished_copy, lambda m: m["study"].update(description="edited and sealed"))
    assert verify_study(finished_copy, redraw=False).ok
    assert "study.description" in _manifest(finished_copy)["informational"]


def test_a_folder_written_before_a_knob_existed_verifies_when_the_knob_is_at_its_default(finished_copy):
    """Records stay (docs/design.md): a knob missing from the manifest is read at its default, which plays as
    before it existed (the committed Moska and Musta-Maija folders predate ``repetition``). A variant that
    sets it otherwise (``sturdy``: ``dealer_lives = 2``) is a difference when it is missing."""
    def before_dealer_lives(*variants):
        def change(m):
            for v in variants:
                del m["rules"][v]["knobs"]["dealer_lives"]
        return change
    _set_manifest(finished_copy, before_dealer_lives("plain", "unlimited_short"))
    assert verify_study(finished_copy, redraw=False).ok
    _set_manifest(finished_copy, before_dealer_lives("sturdy"))
    assert [m for m in verify_study(finished_copy, redraw=False).mismatches
            if m.startswith("manifest.json: rules is not the study's")]


def test_an_earlier_format_is_verified_unsealed_with_a_note(finished_copy):
    def format_3(m):
        m.update(format=3)
        del m["seal"], m["informational"]
    _set_manifest(finished_copy, format_3, seal=False)
    v = verify_study(finished_copy, redraw=False)
    assert v.ok and any(n.startswith("format 3 manifest (an earlier cardsim): not sealed, so an edit to a field "
                                     "nothing derives again (study.name, study.description,") for n in v.notes)


@pytest.mark.parametrize("with_records", [True, False], ids=["with games.parquet", "committed"])
def test_report_html_is_rendered_again_and_a_forged_page_is_caught(finished_copy, capsys, with_records):
    if not with_records:
        (finished_copy / "games.parquet").unlink()
    assert main(["report", "--html", str(finished_copy)]) == 0
    before = sorted(p.name for p in finished_copy.iterdir())
    assert verify_study(finished_copy, redraw=False).ok
    page = finished_copy / "report.html"
    page.write_text(page.read_text().replace("the fake game under three variants", "a forged finding"))
    assert verify_study(finished_copy, redraw=False).mismatches == [
        f"report.html: not the page this folder's files render (write it again with `cardsim report --html "
        f"{finished_copy}`)"]
    assert sorted(p.name for p in finished_copy.iterdir()) == before


def test_a_file_an_interrupted_write_left_is_a_note_not_a_difference(finished_copy):
    (finished_copy / "report.html.tmp-4242").write_text("<html>half")
    v = verify_study(finished_copy, redraw=False)
    assert v.ok and ("report.html.tmp-4242: left half-written by an interrupted process, not a file of the study "
                     "(remove it)") in v.notes


def test_a_run_replaces_a_folder_holding_its_report_page(finished_copy, write_study, capsys):
    assert main(["report", "--html", str(finished_copy)]) == 0
    assert main(["run", str(write_study()), "--out", str(finished_copy), "--quiet"]) == 0
    assert not (finished_copy / "report.html").exists() and verify_study(finished_copy, redraw=False).ok


def test_the_command_line_draws_the_plots_again_only_with_redraw(finished_copy, capsys):
    _swap_png(finished_copy)
    _set_manifest(finished_copy, lambda m: m["files"].update({"paired_random.png": storage.file_digest(
        finished_copy / "paired_random.png")}))
    assert main(["verify", str(finished_copy)]) == 0
    assert "note: plots not re-drawn (their sha256 is checked; --redraw draws them again" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["verify", str(finished_copy), "--redraw"])
    assert "MISMATCH paired_random.png: not the plot its records draw" in capsys.readouterr().out
