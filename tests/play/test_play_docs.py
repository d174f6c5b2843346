"""docs/play.md runs as written: its Python examples execute (from the repository root), its player
is ``examples/keep_trumps.py`` word for word, its study file loads; and that player decides from its
seat's view only (re-dealing what the seat cannot see leaves its choice unchanged)."""
import random
import re
from pathlib import Path

import pytest

import cardsim
from cardsim.play.user import load
from cardsim.study.plan.spec import load as load_study
from tests.play.stepping import redealt, world_key

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "keep_trumps.py"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, flags=re.DOTALL)


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_the_page_shows_the_example_player_as_it_is():
    assert EXAMPLE.read_text(encoding="utf-8") in blocks("python")


def test_the_pages_python_runs(at_root, capsys):
    for code in blocks("python"):
        exec(compile(code, "docs/play.md", "exec"), {"__name__": "docs_play"})  # noqa: S102 - the page's own code
    out = capsys.readouterr().out
    assert "<cardsim moska game, 4 players, decision 0, seat 1 to act>" in out
    assert "keep_trumps in seat 0 loses" in out


def test_the_pages_study_file_loads(at_root, tmp_path):
    (toml,) = blocks("toml")
    path = tmp_path / "keep_trumps.toml"
    path.write_text(toml)
    study = load_study(path)
    assert study.cells()[0].seats[0] == "examples/keep_trumps.py:keep_trumps"


def test_keep_trumps_decides_from_its_view_only(at_root):
    keep_trumps = load("examples/keep_trumps.py:keep_trumps").target
    r = random.Random(3)
    for index in range(4):
        g = cardsim.new_game("moska", "turamoska", players=4, seed=2, game_index=index)
        while not g.is_over:
            seat = g.to_act
            choice = keep_trumps(g.view(seat), g.legal())
            world = redealt(g, seat, world_key(g.turn))
            assert keep_trumps(world.view(seat), world.legal()) == choice
            g.apply(choice if r.random() < 0.5 else r.randrange(len(g.legal())))
