"""The package as a user meets it: ``python -m cardsim``, its metadata (licence, classifiers,
``py.typed``), the short ``repr`` of rules."""
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cardsim
from cardsim.games import BUILT_IN, GAMES, spec

ROOT = Path(__file__).resolve().parents[1]


def test_python_m_cardsim_is_the_command_line():
    done = subprocess.run([sys.executable, "-m", "cardsim", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == f"cardsim {cardsim.__version__}"
    listed = subprocess.run([sys.executable, "-m", "cardsim", "list"], capture_output=True, text=True, cwd=ROOT)
    assert listed.returncode == 0 and all(g in listed.stdout for g in GAMES)


def test_the_package_declares_a_licence_classifiers_and_its_types():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project["project"]
    assert meta["license"] == {"text": "MIT"} and "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "License :: OSI Approved :: MIT License" in meta["classifiers"] and "Typing :: Typed" in meta["classifiers"]
    assert (ROOT / "cardsim" / "py.typed").is_file()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["cardsim"]


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_repr_of_rules_is_their_string_form(game):
    rules = spec(game).rules
    for name, preset in rules.presets().items():
        assert repr(preset) == name == preset.describe()
        assert rules.parse(repr(preset)) == preset
    knob, value = next((k, s.choices[-1]) for k, s in rules.knobs().items() if s.choices)
    changed = rules.preset(rules.DEFAULT_PRESET).replace(**{knob: value})
    assert repr(changed) == changed.describe() and rules.parse(repr(changed)) == changed
    assert repr([changed]) == f"[{changed.describe()}]"


def test_moska_rules_read_as_the_readme_writes_them():
    assert repr(cardsim.rules("moska", "turamoska", attack_cap=None)) == "turamoska(attack_cap=None)"

