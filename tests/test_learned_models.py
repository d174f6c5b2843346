"""Bad model files and bad ``learned`` parameters, alike in every game
(docs/ladder.md#learned-players-training-models-generations): one line
naming the file or the parameter and what is wrong, exit 2 from the command line, nothing written. The games'
own tests (tests/<game>/test_learned.py) check what their models decide."""
import importlib
import re
import warnings

import numpy as np
import pytest

import cardsim
from cardsim import cli
from cardsim.core import models

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


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_study_says_once_per_model_which_tables_it_plays_untuned(jobs, tmp_path, capfd):
    """A study whose cells play a model under other rules says so in one note per model, before the games,
    naming every such table; no warning per cell, step or worker follows (``core.models.OtherRules``)."""
    from cardsim.study import run_study

    study = tmp_path / "s.toml"
    study.write_text('name = "s"\ngame = "moska"\nseed = 1\ngames = 6\nplayers = [3, 4]\n'
                     'policies = ["learned(model=moska_4p_g1)", "mc(base=\'learned(model=moska_4p_g2)\', '
                     'determinizations=2)", "greedy"]\nbaseline = "moska"\n'
                     '[variants.moska]\npreset = "moska"\n[variants.taraki]\npreset = "taraki"\n')
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        run_study(study, jobs=jobs, out=tmp_path / "out", note=notes.append)
    assert notes == [f"moska_4p_g{k}.json: a model trained for moska at 4 players plays 3 other tables: moska at 3 "
                     "players, taraki at 3 players, taraki at 4 players" for k in (1, 2)]
    assert not [w for w in seen if issubclass(w.category, models.OtherRules)]
    assert "a model trained for" not in capfd.readouterr().err


def test_untuned_names_no_table_a_model_was_trained_for():
    assert models.untuned("moska", [("moska", 4, ["learned(model=moska_4p_g1)", "greedy"])], "moska_4p_g3") == []
    assert models.untuned("moska", [("moska", 5, ["learned", "learned"])], "moska_4p_g3") == [
        "moska_4p_g3.json: a model trained for moska at 4 players plays 1 other table: moska at 5 players"]
    six = [(f"moska(attack_cap={k})", 4, ["learned"]) for k in range(1, 7)]
    assert models.untuned("moska", six, "moska_4p_g3") == [
        "moska_4p_g3.json: a model trained for moska at 4 players plays 6 other tables: moska(attack_cap=1) at 4 "
        "players, moska(attack_cap=2) at 4 players, moska(attack_cap=3) at 4 players, moska(attack_cap=4) at 4 "
        "players and 2 more"]


# --- networks: every game's blocks have room for rectified units (core/learned.py) ----------------------

def test_every_game_s_blocks_have_room_for_units():
    from cardsim.core import learned as core

    assert all(_features(g).WIDTH == core.width(_features(g).N) for g in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_network_scores_in_fixed_point_what_its_float_network_scores(game, tmp_path):
    """The compiled score of a random network over random features: ``SCALE`` times the float network
    ``x @ v + sum_h w2_h * max(0, x @ W1_h + b_h)``, to the rounding of the fixed point (a unit with output
    weight 0 adds nothing); and a linear model's score, its block dotted with the features exactly."""
    from cardsim.core import learned as core

    f = _features(game)
    files = ModelFiles(game, f)
    network = files.load(files.network(tmp_path / "n.json", 3))
    linear = files.load(files.random(tmp_path / "r.json", 3))
    gen = np.random.default_rng(7)
    n, active = f.N, 0
    for _ in range(200):
        block = int(gen.integers(f.BLOCKS))
        x = gen.integers(0, 4, size=n).astype(np.int64)
        row = network.weights.reshape(f.BLOCKS, f.WIDTH)[block]
        units = row[n:].reshape(core.HIDDEN, n + 2)
        pre = units[:, :n] @ x + units[:, n]
        active += int((pre > 0).sum())
        want = row[:n] @ x + units[:, n + 1] @ np.maximum(pre, 0.0)
        got = core.score(network.fixed_point(core.SCALE), block, x, n) / core.SCALE
        assert abs(got - want) <= 1e-3 * (1 + np.abs(row).sum() * x.sum())
        plain = linear.fixed_point(core.SCALE).reshape(f.BLOCKS, f.WIDTH)[block]
        assert core.score(linear.fixed_point(core.SCALE), block, x, n) == int(plain[:n] @ x)
    assert active > 100  # the units were exercised on both sides of zero
