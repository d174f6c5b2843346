"""Bad model files and bad ``learned`` parameters, alike in every game (docs/ladder.md#learned-players): one line
naming the file or the parameter and what is wrong, exit 2 from the command line, nothing written. The games'
own tests (tests/<game>/test_learned.py) check what their models decide."""
import importlib
import re

import numpy as np
import pytest

import cardsim
from cardsim import cli

from learned_models import ModelFiles, learned, spoilt

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")

GAMES = ("moska", "musta_maija", "uno", "molotow")
OTHER = {"moska": "uno", "musta_maija": "moska", "uno": "moska", "molotow": "moska"}
"""A game whose model files a game's reader must refuse."""
OTHER_MODEL = {"moska": "official_4p_g1", "musta_maija": "moska_4p_g1", "uno": "molotow_4p_g1",
               "molotow": "moska_4p_g1"}
"""A committed model of another game: no model of this one."""
OTHER_RULES = {"moska": ("turamoska", 4, "moska"), "musta_maija": ("house", 4, "musta_maija"),
               "uno": ("stacking", 3, "official"), "molotow": ("swiss", 4, "molotow")}
"""Rules a test model claims to be trained for, the players it then sits at, and the game's default rules."""


def _features(game: str):
    return importlib.import_module(f"cardsim.games.{game}.learned_features")


@pytest.mark.parametrize("game, spoil, match", [(g, *s) for g in GAMES for s in spoilt(g, OTHER[g], _features(g))])
def test_a_bad_model_file_is_one_line_naming_the_file_and_exit_2(game, spoil, match, tmp_path, capsys):
    path = ModelFiles(game, _features(game)).random(tmp_path / "bad.json", 0)
    spoil(path)
    for engine in ("compiled", "reference"):
        for policy in (learned(path), f"mc(base={learned(path)!r})"):
            with pytest.raises(ValueError, match=re.escape(match)) as err:
                cardsim.simulate(game, players=4, games=1, policy=policy, engine=engine)
            assert str(path) in str(err.value) and "\n" not in str(err.value)
    out = tmp_path / "out"
    assert cli.main(["ladder", game, "--policies", f"greedy,{learned(path)}", "--games", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and match in err and not out.exists()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text, match", [
    ("learned(depth=2)", "{game} policy learned has no parameter 'depth'; known: model"),
    ("learned(bluff=0.1)", "{game} policy learned has no parameter 'bluff'; known: model"),
    ("learned(model=3)", "{game} policy learned: model=3 must be a model name"),
    ("learned(model=nobody)", "nobody.json: no such {game} model (committed models: "),
    ("mc(base=learned(model=nobody))", "nobody.json: no such {game} model"),
    ("learned(model={other})", "{other}.json: no such {game} model"),
])
def test_learned_parameters_are_checked_with_one_line(game, text, match):
    other = OTHER_MODEL[game]
    with pytest.raises(ValueError, match=re.escape(match.format(game=game, other=other))) as err:
        cardsim.simulate(game, players=4, games=1, policy=text.format(other=other))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("game", GAMES)
def test_a_model_of_other_rules_plays_with_a_warning(game, tmp_path):
    rules, players, default = OTHER_RULES[game]
    files = ModelFiles(game, _features(game))
    path = files.write(tmp_path / "t.json", np.zeros(files.shape), rules=rules)
    with pytest.warns(UserWarning, match=f"t.json: a model trained for {rules} at 4 players plays {default} at "
                                         f"{players}"):
        cardsim.simulate(game, players=players, games=1, policy=learned(path))
