"""The command line: `cardsim list [GAME]`, `cardsim replay`, and one stderr line + exit 2 on bad input;
no traceback when the output pipe closes early."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import cardsim
from cardsim.cli import main

REPLAY = ["replay", "moska", "taraki", "--players", "4", "--seed", "1", "--game", "0"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_game(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and not err
    assert [line.split()[0] for line in out.splitlines()] == list(cardsim.GAMES)


def test_list_moska_shows_presets_knobs_and_policies(capsys):
    code, out, err = run(capsys, "list", "moska")
    assert code == 0 and not err
    assert out.startswith("moska: 2-8 players")
    for word in ("turamoska", "pyhaselka", "taraki", "attack_cap", "excess_return", "max_turns",
                 "policies: random, greedy"):
        assert word in out


@pytest.mark.parametrize("game", cardsim.games.BUILT_IN)
def test_list_game_cites_the_rules_file_of_the_project(capsys, game):
    """Issue 13: the normative rules are docs/rules/<game>.md, in the repository."""
    code, out, err = run(capsys, "list", game)
    assert code == 0 and f"docs/rules/{game}.md" in out.splitlines()[0]
    assert (Path(__file__).resolve().parents[1] / "docs" / "rules" / f"{game}.md").is_file()


def test_replay_prints_the_game_move_by_move(capsys):
    """A header that re-creates the game, every decision with its number, every card drawn."""
    code, out, err = run(capsys, *REPLAY)
    assert code == 0 and not err
    t = cardsim.replay("moska", "taraki", players=4, seed=1, game=0)
    lines = out.splitlines()
    assert lines[0] == "moska taraki · 4 players · seed 1 · game 0 · policy random at every seat"
    assert lines[1] == "re-create: cardsim replay moska taraki --players 4 --seed 1 --game 0 --policy random"
    assert out.strip() == str(t)
    numbers = {int(line.split()[0]) for line in lines[3:-1] if line.split()[0].isdigit()}
    assert numbers == set(range(t.record["turns"]))
    drawn = [c for line in lines if " draws " in line for c in line.split(" draws ")[1].split(" (stock")[0].split()]
    assert sorted(drawn) == sorted(" ".join(t.events.cards[t.events.action == "draw"]).split())
    code, mixed, _ = run(capsys, *REPLAY, "--policy", "greedy,random,greedy,random")
    assert code == 0 and mixed != out
    assert mixed.splitlines()[1].endswith("--policy greedy,random,greedy,random")


def test_replay_formats_csv_and_json(capsys):
    t = cardsim.replay("moska", "taraki", players=4, seed=1, game=0)
    code, out, _ = run(capsys, *REPLAY, "--format", "csv")
    table = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert code == 0 and list(table.columns) == list(t.events.columns) and len(table) == len(t.events)
    assert table.cards.tolist() == t.events.cards.tolist()
    code, out, _ = run(capsys, *REPLAY, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["record"] == t.record and doc["command"].startswith("cardsim replay moska taraki")
    assert [e["action"] for e in doc["events"]] == t.events.action.tolist()


@pytest.mark.parametrize("argv, message", [
    (["list", "durak"], "unknown game 'durak'; known games: molotow, moska, musta_maija, uno"),
    (["replay", "durak", "moska", "--game", "0"], "unknown game 'durak'"),
    (["replay", "moska", "tarakii", "--game", "0"], "unknown moska preset 'tarakii'; known presets: moska"),
    (["replay", "moska", "moska(no_such_knob=1)", "--game", "0"], "unknown moska knob 'no_such_knob'"),
    (["replay", "moska", "moska(attack_cap=0)", "--game", "0"], "moska knob attack_cap=0 is invalid"),
    (["replay", "moska", "moska(attack_cap='six')", "--game", "0"], "moska knob attack_cap='six' is invalid"),
    (["replay", "moska", "moska(attack_cap=", "--game", "0"], "cannot read"),
    (["replay", "moska", "moska", "--players", "1", "--game", "0"], "moska is played by 2 to 8 players, not 1"),
    (["replay", "moska", "moska", "--players", "9", "--game", "0"], "moska is played by 2 to 8 players, not 9"),
    (["replay", "moska", "moska(hand_size=7)", "--players", "8", "--game", "0"], "8 players x hand_size 7"),
    (["replay", "moska", "moska", "--game", "-1"], "game must be an integer >= 0 and < 2**63, not -1"),
    (["replay", "moska", "moska", "--game", str(2**63)], f"game must be an integer >= 0 and < 2**63, not {2**63}"),
    (["replay", "moska", "moska", "--seed", "-3", "--game", "0"], "seed must be an integer >= 0 and < 2**64, not -3"),
    (["replay", "moska", "moska", "--seed", str(2**64), "--game", "0"],
     f"seed must be an integer >= 0 and < 2**64, not {2**64}"),
    (["replay", "uno", "official", "--game", "0", "--policy", "greedy(bluff=0.1, bluff=0.5)"],
     "cannot read 'greedy(bluff=0.1, bluff=0.5)': bluff is given twice"),
    (["replay", "moska", "moska(attack_cap=3, attack_cap=4)", "--game", "0"],
     "cannot read 'moska(attack_cap=3, attack_cap=4)': attack_cap is given twice"),
    (["replay", "moska", "moska", "--policy", "smart", "--game", "0"], "unknown moska policy 'smart'"),
    (["replay", "moska", "moska", "--players", "two", "--game", "0"], "invalid int value: 'two'"),
    (["replay", "moska", "moska"], "the following arguments are required: --game"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse errors
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("cardsim: error: ") and message in err


def test_the_installed_command_exits_2_with_one_line():
    done = subprocess.run([sys.executable, "-m", "cardsim.cli", "list", "durak"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"cardsim: error: unknown game 'durak'; known games: {', '.join(cardsim.GAMES)}\n"


STUDY = """name = "tiny"
game = "moska"
seed = 1
games = 4
players = [2]
policies = ["greedy"]
baseline = "moska"

[variants.moska]
preset = "moska"
"""


@pytest.mark.parametrize("extra, argv, message", [
    ("", ["--games", "-1"], "--games: expected an integer >= 1 and < 2**63, not -1"),
    ("\n[variants.odd]\npreset = \"moska\"\nattack_capp = 3\n", [], "variants.odd: unknown moska knob 'attack_capp'"),
    ("\n[variants.odd]\npreset = \"taraky\"\n", [], "unknown moska preset 'taraky'"),
])
def test_run_refuses_bad_moska_studies_with_one_line(capsys, tmp_path, extra, argv, message):
    study = tmp_path / "tiny.toml"
    study.write_text(STUDY + extra)
    code, out, err = run(capsys, "run", str(study), "--out", str(tmp_path / "out"), *argv)
    assert code == 2 and not out and err.count("\n") == 1 and message in err
    assert not (tmp_path / "out").exists()


def test_replay_takes_a_policy_with_parameters_and_one_per_seat(capsys):
    """The README's Uno policy string holds a comma inside its parentheses: it is one policy."""
    code, one, err = run(capsys, "replay", "uno", "official", "--players", "2", "--game", "0", "--policy",
                         "greedy(bluff=0.1, challenge=0.5)")
    assert code == 0 and not err
    assert one.strip() == str(cardsim.replay("uno", "official", players=2, game=0,
                                             policy="greedy(bluff=0.1, challenge=0.5)"))
    code, seats, err = run(capsys, "replay", "uno", "official", "--players", "2", "--game", "0", "--policy",
                           "greedy(bluff=0.1, challenge=0.5),random")
    assert code == 0 and not err
    assert seats.strip() == str(cardsim.replay("uno", "official", players=2, game=0,
                                               policy=["greedy(bluff=0.1, challenge=0.5)", "random"]))


def test_replay_takes_the_largest_seed_as_simulate_does(capsys):
    code, out, err = run(capsys, *REPLAY[:-4], "--seed", str(2**64 - 1), "--game", "3")
    assert code == 0 and not err
    row = cardsim.simulate("moska", "taraki", players=4, seed=2**64 - 1, first_game=3, games=1, policy="random")
    assert f"loser={row.loser[0]}," in out


def test_a_closed_pipe_ends_the_output_quietly():
    """`cardsim list molotow | head -5`: no traceback. Here the reader is gone before the first line."""
    child = subprocess.Popen([sys.executable, "-m", "cardsim.cli", "list", "molotow"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    child.stdout.close()
    assert child.wait(timeout=120) == 141
    assert child.stderr.read() == b""
    done = subprocess.run(f"{sys.executable} -m cardsim.cli list molotow | head -5", shell=True, capture_output=True,
                          text=True)
    assert done.stderr == "" and len(done.stdout.splitlines()) == 5


def test_compare_prints_the_paired_table(capsys):
    code, out, err = run(capsys, "compare", "moska", "moska", "moska(trump_two_swap=False)", "--players", "4",
                         "--games", "300", "--quiet")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0].startswith("moska, 4 players, policy greedy, 300 games per variant: loser rate by seat in %")
    assert lines[1].split() == ["variant", "seat", "0", "seat", "1", "seat", "2", "seat", "3", "mean", "turns",
                                "mean", "rounds", "spread", "TV"]
    assert lines[2].startswith("moska ") and lines[3].startswith("moska(trump_two_swap=False) ")
    assert lines[4].startswith("  Δ ") and len(lines) == 5
    # the numbers are those of the games: seat 0's rate of the baseline
    games = cardsim.simulate("moska", "moska", players=4, games=300, seed=0, policy="greedy")
    assert lines[2].split()[1] == f"{100 * (games.loser == 0).mean():.2f}"


def test_compare_out_writes_a_study_folder_that_verifies(capsys, tmp_path):
    from cardsim.study import verify_study

    argv = ["compare", "uno", "official", "stacking", "--players", "3", "--games", "50", "--policy", "random",
            "greedy", "--out", str(tmp_path / "c"), "--quiet"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.rstrip().endswith(f"wrote {tmp_path / 'c'}: games.parquet, sample.csv, summary.csv, "
                                               "plots, manifest.json")
    assert "uno, 3 players, policy random" in out and "uno, 3 players, policy greedy" in out
    manifest = json.loads((tmp_path / "c" / "manifest.json").read_text())
    assert manifest["command"] == ["cardsim", *argv] and manifest["study_file"] is None
    assert manifest["study"]["baseline"] == "official" and verify_study(tmp_path / "c").ok


@pytest.mark.parametrize("rules, message", [
    (["moska", "moska(attack_cap=0)"], "compare: rules 'moska(attack_cap=0)': moska knob attack_cap=0 is invalid"),
    (["moska", "moska(attack_cap="], "compare: rules 'moska(attack_cap=': cannot read 'moska(attack_cap='"),
    (["moska", "tarakii"], "compare: rules 'tarakii': unknown moska preset 'tarakii'"),
    (["moska", "moska(attack_capp=3)"], "compare: rules 'moska(attack_capp=3)': unknown moska knob 'attack_capp'"),
    (["moska"], "compare: RULES: expected at least two rules to compare"),
    (["moska", "moska"], "compare: RULES: 'moska' is given twice"),
])
def test_compare_refuses_bad_rules_with_one_line_and_exit_2(capsys, tmp_path, rules, message):
    code, out, err = run(capsys, "compare", "moska", *rules, "--games", "10", "--out", str(tmp_path / "o"))
    assert code == 2 and not out and err.count("\n") == 1 and message in err
    assert not (tmp_path / "o").exists()


def test_the_installed_compare_exits_2_with_one_line_on_a_bad_rules_string():
    done = subprocess.run([sys.executable, "-m", "cardsim.cli", "compare", "moska", "moska",
                           "moska(trump_two_swap=Flase)"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith("cardsim: error: compare: rules 'moska(trump_two_swap=Flase)': ")
