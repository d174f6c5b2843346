"""Your own player, end to end: a policy from a file seats like a built-in one in ``simulate``,
``replay``, a study file run through the CLI (``cardsim run``, then ``cardsim verify``) and
``cardsim ladder``; its records equal the step API's; manifests name it (module, qualified name,
sha256 of the file); and an illegal decision, an exception or a hang stops the run with one line
(seat, game, decision, the replay command), exit 2, the study folder as it was."""
import json
from pathlib import Path

import pytest

import cardsim
from cardsim.cli import main
from cardsim.play.user import UserPolicy
from tests.play import policies

HERE = "tests/play/policies.py"


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def stepped(game, rules, players, seed, games, seats):
    """The records the public step API gives, game by game: ``seats`` are built-in names or the players
    of ``policies`` (a fresh one per seat, reset before each game, as the protocol says)."""
    players_of = {q: getattr(policies, s.split(":")[1])() if s.split(":")[1] == "Counter" else
                  getattr(policies, s.split(":")[1]) for q, s in enumerate(seats) if ":" in s}
    rows = []
    for index in range(games):
        for q, player in players_of.items():
            if hasattr(player, "reset"):
                player.reset(q, index)
        g = cardsim.new_game(game, rules, players=players, seed=seed, game_index=index, policies=seats)
        while not g.is_over:
            player = players_of.get(g.to_act)
            if player is None:
                g.apply(g.policy_decision())
            else:
                g.apply((player.decide if hasattr(player, "decide") else player)(g.view(g.to_act), g.legal()))
        rows.append(g.record())
    return rows


@pytest.mark.parametrize("game, rules, players", [("moska", "turamoska", 3), ("musta_maija", "house", 4),
                                                   ("uno", "official", 3), ("molotow", "molotow", 4)])
def test_a_file_policy_seats_like_a_built_in_one_and_gives_the_step_apis_records(game, rules, players):
    seats = ["greedy", f"{HERE}:first", f"{HERE}:Counter"] + ["random"] * (players - 3)
    df = cardsim.simulate(game, rules, players=players, games=6, seed=4, policy=seats)
    assert df.to_dict("records") == stepped(game, rules, players, 4, 6, seats)
    direct = cardsim.simulate(game, rules, players=players, games=6, seed=4,
                              policy=["greedy", policies.first, policies.Counter] + ["random"] * (players - 3))
    assert direct.equals(df)
    assert cardsim.simulate(game, rules, players=players, games=6, seed=4, policy=seats, chunk_size=2).equals(df)
    replay = cardsim.replay(game, rules, players=players, seed=4, game=5, policy=seats)
    assert replay.record == df.iloc[5].to_dict() and replay.lines()[0].split()[:2] == ["0", "seat"]


def test_a_user_policy_is_named_by_module_qualified_name_and_digest():
    seats = cardsim.api.spec("uno").seat_policies(["greedy", f"{HERE}:first", policies.Counter], 3)
    assert seats[:2] == ("greedy", f"{HERE}:first")
    assert isinstance(seats[2], UserPolicy) and seats[2].spec == "tests.play.policies:Counter"
    from cardsim.play.user import load
    p = load(f"{HERE}:Counter(timeout=2.5)")
    assert (p.module, p.qualname, p.file, p.timeout) == ("policies", "Counter", HERE, 2.5)
    assert len(p.sha256) == 64 and p.spec == f"{HERE}:Counter(timeout=2.5)"


@pytest.mark.parametrize("spec, message", [
    ("tests/play/nothing.py:first", "no file tests/play/nothing.py"),
    (f"{HERE}:nobody", "has no nobody"),
    ("no_such_module_here:first", "cannot import module no_such_module_here"),
    (f"{HERE}:first(timeout=0)", "the one option is timeout=SECONDS"),
    (f"{HERE}:first(speed=2)", "the one option is timeout=SECONDS"),
    (f"{HERE}:NOT_A_POLICY", "neither callable nor has decide"),
    (f"{HERE}:BadlyPatient", "its timeout attribute must be seconds above 0"),
])
def test_a_bad_policy_name_is_one_clear_line(spec, message):
    with pytest.raises(ValueError, match=message):
        cardsim.simulate("molotow", players=4, games=1, policy=["greedy", spec, "greedy", "greedy"])


STUDY = """
name = "{name}"
game = "uno"
seed = 9
games = 4
players = 3
policies = [["greedy", "{policy}", "random"]]

[variants.official]
preset = "official"
"""


def write_study(tmp_path, name, policy):
    path = tmp_path / f"{name}.toml"
    path.write_text(STUDY.format(name=name, policy=policy))
    return path


def test_a_study_with_a_file_policy_runs_verifies_and_names_it(tmp_path, capsys):
    out = tmp_path / "mine"
    code, _, err = cli(capsys, "run", write_study(tmp_path, "mine", f"{HERE}:Counter"), "--out", out, "--quiet")
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    (named,) = manifest["user_policies"]
    assert named["spec"] == f"{HERE}:Counter" and named["qualname"] == "Counter" and named["module"] == "policies"
    assert named["sha256"] == __import__("hashlib").sha256(Path(HERE).read_bytes()).hexdigest()
    code, verdict, err = cli(capsys, "verify", out)
    assert code == 0, verdict + err
    assert cli(capsys, "report", out, "--html")[0] == 0
    page = (out / "report.html").read_text()
    assert f"user policy {HERE}:Counter" in page and named["sha256"] in page


def test_a_module_policy_is_named_by_its_path_from_where_it_is_imported():
    """Not by this checkout's absolute path: a study seating it verifies in another checkout."""
    from cardsim.play.user import load
    named = load("tests.play.policies:Counter").provenance()
    assert named["module"] == "tests.play.policies" and named["file"] == "tests/play/policies.py"
    assert named["sha256"] == __import__("hashlib").sha256(Path(HERE).read_bytes()).hexdigest()


def test_a_policy_may_declare_its_own_time_limit_and_its_name_may_still_override_it():
    from cardsim.play.user import from_object, load
    assert load(f"{HERE}:Patient").timeout == 0.4 and load(f"{HERE}:Patient").spec == f"{HERE}:Patient"
    assert load(f"{HERE}:Patient(timeout=3)").timeout == 3.0
    assert from_object(policies.Patient).timeout == 0.4 and from_object(policies.Counter).timeout == 10.0


@pytest.mark.parametrize("bad, what", [("Illegal", "returned 9, not a legal decision"),
                                       ("Raises", "raised RuntimeError: my policy broke"),
                                       ("Patient", "did not decide within 0.4 s"),
                                       ("Hangs(timeout=0.3)", "did not decide within 0.3 s")])
def test_a_failing_policy_stops_the_run_with_one_line_and_the_folder_kept(tmp_path, capsys, bad, what):
    out = tmp_path / "kept"
    assert cli(capsys, "run", write_study(tmp_path, "kept", f"{HERE}:first"), "--out", out, "--quiet")[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    code, _, err = cli(capsys, "run", write_study(tmp_path, "kept", f"{HERE}:{bad}"), "--out", out, "--quiet",
                       "--force")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"seat 1 policy {HERE}:{bad} {what}" in err and "uno game 1, decision 3" in err
    command = err.split("see it: ")[1].strip()
    assert command.startswith("cardsim replay uno official --players 3 --seed 9 --game 1 --policy ")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert cli(capsys, "verify", out)[0] == 0
    import shlex
    code, shown, err = cli(capsys, *shlex.split(command)[1:])
    assert code == 0 and "3  seat 1 fails:" in shown and what in shown


def test_a_changed_policy_file_fails_verify(tmp_path, capsys):
    mine = tmp_path / "mine.py"
    mine.write_text("def decide(view, legal):\n    return 0\n")
    spec = f"{mine}:decide"
    out = tmp_path / "study"
    assert cli(capsys, "run", write_study(tmp_path, "study", spec), "--out", out, "--quiet")[0] == 0
    mine.write_text("def decide(view, legal):\n    return len(legal) - 1\n")
    with pytest.raises(SystemExit) as stop:
        main(["verify", str(out)])
    assert stop.value.code == 1 and "MISMATCH manifest.json: user_policies" in capsys.readouterr().out


def test_a_ladder_seats_a_file_policy(tmp_path, capsys):
    code, out, err = cli(capsys, "ladder", "molotow", "molotow", "--policies", f"random,{HERE}:first", "--players",
                         4, "--games", 3, "--out", tmp_path / "ladder", "--quiet")
    assert code == 0, err
    assert f"{HERE}:first" in out


def test_compare_seats_a_file_policy(tmp_path, capsys):
    code, out, err = cli(capsys, "compare", "molotow", "molotow", "swiss", "--policy",
                         f"greedy,{HERE}:first,greedy,{HERE}:Counter", "--games", 3, "--out", tmp_path / "cmp",
                         "--quiet")
    assert code == 0, err
    assert f"greedy,{HERE}:first,greedy,{HERE}:Counter" in out


def test_a_study_still_checks_the_built_in_seats_beside_a_users(tmp_path, capsys):
    path = write_study(tmp_path, "bad", f"{HERE}:first").read_text().replace('"greedy"', '"mc(determinizations=0)"')
    (tmp_path / "bad.toml").write_text(path)
    code, _, err = cli(capsys, "run", tmp_path / "bad.toml", "--out", tmp_path / "bad", "--quiet")
    assert code == 2 and "policies[0]" in err and "determinizations" in err


def test_records_with_a_user_seat_do_not_depend_on_workers_or_chunks():
    seats = ["greedy", f"{HERE}:Counter", "random"]
    alone = cardsim.simulate("uno", players=3, games=6, seed=2, policy=seats)
    assert cardsim.simulate("uno", players=3, games=6, seed=2, policy=seats, n_jobs=2, chunk_size=2).equals(alone)
    with pytest.raises(ValueError, match=f"seat 1 policy {HERE}:Raises raised RuntimeError"):
        cardsim.simulate("uno", players=3, games=6, seed=2, policy=["greedy", f"{HERE}:Raises", "random"], n_jobs=2,
                         chunk_size=2)


def test_a_numpy_integer_is_an_index():
    seats = ["greedy", f"{HERE}:numpy_index", "random", "random"]
    df = cardsim.simulate("molotow", players=4, games=2, seed=3, policy=seats)
    assert df.to_dict("records") == stepped("molotow", None, 4, 3, 2, seats)


def test_a_module_in_the_working_directory_is_found(tmp_path, monkeypatch):
    """The ``cardsim`` script does not put the working directory on ``sys.path``; a policy module there
    is found all the same."""
    import sys
    (tmp_path / "my_player_here.py").write_text("def decide(view, legal):\n    return 0\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    from cardsim.play.user import load
    assert load("my_player_here:decide").qualname == "decide"
    assert str(tmp_path) in sys.path
