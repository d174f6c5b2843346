"""``benchmarks/ladder_steps.py --against``: a policy named as the user writes it is found in the ladder's own
spelling; one that is not there is one line naming the ladder's policies, exit 2."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDY = """name = "steps"
game = "moska"
seed = 3
games = 40
players = 3
engine = "compiled"

[ladder]
policies = ["random", "greedy", "learned(model=moska_4p_g1)"]
seatings = "pairs"

[variants.moska]
preset = "moska"
"""


def _steps(study: Path, folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ladder_steps.py"), str(study), "--folder",
                           str(folder), *args], capture_output=True, text=True, cwd=ROOT,
                          env=os.environ | {"PYTHONPATH": str(ROOT)})


def test_against_takes_the_users_spelling_and_names_what_is_not_there(tmp_path):
    study, folder = tmp_path / "steps.toml", tmp_path / "steps"
    study.write_text(STUDY)
    subprocess.run([sys.executable, "-m", "cardsim", "run", str(study), "--out", str(folder), "--quiet"], check=True,
                   cwd=ROOT, capture_output=True)
    found = _steps(study, folder, "--against", "learned(model=moska_4p_g1)")
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert len(lines) == 3 and all(line.endswith("Elo against learned(model='moska_4p_g1')") for line in lines)
    assert "+0.0 [   +0.0,    +0.0]" in lines[2]
    missing = _steps(study, folder, "--against", "mc")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == ("--against: 'mc' is not in the ladder (its policies: random, greedy, "
                              "learned(model='moska_4p_g1'))\n")
