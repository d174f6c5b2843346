"""Bad input to ``cardsim profile`` and to a study file's ``[profile]`` section: one line, exit 2, nothing written."""
import pytest

from cardsim import cli
from cardsim.profile.design import Profile, cells, forbidden
from cardsim.study.plan.spec import StudyError, load

STUDY = """\
name = "tiny_profile"
game = "tinygame"
seed = 1
games = 20
players = 4
engine = "reference"

[variants.plain]
preset = "plain"

[profile]
policy = "greedy"
"""


@pytest.mark.parametrize("args, words", [
    (["--options", "nope"], "profile.options: 'nope'"),
    (["--games", "0"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--policy", "nosuch"], "nosuch"),
    (["--policy", "greedy(forbid=knock)"], "already restricted"),
    (["--ladder", "greedy"], "profile.ladder"),
    (["--replays", "-3"], "profile.replays"),
    (["--players", "9"], "players"),
    (["nosuch_preset", "--quiet"], "nosuch_preset"),
])
def test_bad_input_is_one_line_and_exit_2(tiny, tmp_path, capsys, args, words):
    out = tmp_path / "out"
    status = cli.main(["profile", "tinygame", *args, "--engine", "reference", "--out", str(out),
                       *([] if "--games" in args else ["--games", "5"])])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and words in err, err
    assert not out.exists()


def test_unknown_game_is_one_line(capsys):
    assert cli.main(["profile", "no_such_game"]) == 2
    assert "unknown game 'no_such_game'" in capsys.readouterr().err


def test_a_study_file_profile_section(tiny, tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    study = load(path)
    assert study.profile == Profile("greedy", ("random", "greedy"), ("knock", "top"), 200)
    assert study.policies == cells(study.profile, (4,))
    assert ("greedy(forbid='top')", "greedy", "greedy", "greedy") in study.policies
    path.write_text(STUDY + "colour = 1\n")
    with pytest.raises(StudyError, match=r"profile.colour: unknown key"):
        load(path)
    path.write_text(STUDY.replace('policy = "greedy"', 'policy = "greedy"\noptions = ["knock", "knock"]'))
    with pytest.raises(StudyError, match="profile.options"):
        load(path)


def test_forbidden_keeps_the_one_spelling():
    assert forbidden("mc(determinizations=16)", "swap") == "mc(determinizations=16, forbid='swap')"
    with pytest.raises(ValueError, match="already restricted"):
        forbidden("greedy(forbid='swap')", "top")
