"""``learned(model=auto)`` (cardsim/learn/auto.py): each cell is played by a model trained for its own rules and
player count, trained once, kept by its key, named with its digest in a study's manifest.

Most tests train with a stand-in for ``cardsim.learn.train.train`` that writes a model of random weights with
the provenance a real training would give (``fake_train``), so they check the keying, caching, resolution and
the manifest without the minutes a real training takes; one ``long`` test trains for real, on few positions.
"""
import json
import warnings

import numpy as np
import pytest

import cardsim
from cardsim.core import models
from cardsim.games.musta_maija import learned_features as features
from cardsim.learn import auto, train as training


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """``auto`` models kept under ``tmp_path``; the trainings made, by rules and players."""
    monkeypatch.setenv(auto.VARIABLE, str(tmp_path / "models"))
    monkeypatch.setattr(auto, "SHIPPED", tmp_path / "shipped")  # none shipped: every cell's model is trained here
    made = []

    def fake_train(game, rules, *, players, generations, out, name, seed, **_):
        made.append((rules, players))
        content = models.content(game, np.random.default_rng(len(made)).normal(size=(features.BLOCKS, features.N)), {
            "rules": rules, "players": players, "seed": seed, "teacher": auto.RECIPE["teacher"], "generation": 1,
            "parent": None, "positions": 1, "feature_version": features.VERSION, "features": list(features.NAMES),
            "blocks": features.block_names(), "libraries": {}}, {})
        path = out / f"{name}_g{generations}.json"
        models.write(path, content)
        return [path]

    monkeypatch.setattr(training, "train", fake_train)
    return made


SEATS = ["learned(model=auto)", "greedy", "mc(determinizations=2, base=learned(model=auto))", "random"]


@pytest.mark.parametrize("text, plays", [
    ("learned(model=auto)", True), ("learned(model='auto')", True), ("mc(base=learned(model=auto))", True),
    ("mc(base='learned(model=auto, forbid=declare)')", True), ("learned", False), ("greedy", False),
    ("learned(model=musta_maija_4p_g1)", False), ("mc(base=learned)", False), ("mc(base=greedy)", False)])
def test_a_seat_plays_auto_only_where_learned_names_it(text, plays):
    assert auto.plays_auto(text) is plays


def test_the_first_use_trains_the_cells_model_once_and_plays_it_as_its_file(kept):
    r = cardsim.rules("musta_maija", "diamonds")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a model trained for the cell's own rules: no "other rules" warning
        a = cardsim.simulate("musta_maija", r, players=4, games=30, seed=3, policy=SEATS)
        b = cardsim.simulate("musta_maija", r, players=4, games=30, seed=3, policy=SEATS, engine="reference")
    assert kept == [(r.describe(), 4)]  # trained once, for both calls and both engines
    path = auto.path_of("musta_maija", r, 4)
    named = [s.replace("auto", repr(str(path))) for s in SEATS]
    direct = cardsim.simulate("musta_maija", r, players=4, games=30, seed=3, policy=named)
    assert a.equals(b) and a.equals(direct)


def test_every_rule_variant_and_player_count_has_its_own_model(kept):
    cells = [(cardsim.rules("musta_maija", p), n) for p in ("musta_maija", "diamonds") for n in (3, 4)]
    for r, n in cells:
        cardsim.simulate("musta_maija", r, players=n, games=2, policy="learned(model=auto)")
    assert kept == [(r.describe(), n) for r, n in cells]
    assert len({auto.path_of("musta_maija", r, n) for r, n in cells}) == 4
    assert auto.key("musta_maija", *cells[0]) == auto.key("musta_maija", cardsim.rules("musta_maija"), 3)


STUDY = """
name = "auto"
game = "musta_maija"
seed = 5
games = 40
players = 4
baseline = "musta_maija"
policies = ["greedy", "learned(model=auto)"]

[variants.musta_maija]
preset = "musta_maija"

[variants.diamonds]
preset = "diamonds"
"""


def test_a_study_names_each_cells_model_digest_and_verifies(kept, tmp_path):
    from cardsim.study import run_study, verify_study

    path = tmp_path / "auto.toml"
    path.write_text(STUDY)
    folder = run_study(path, out=tmp_path / "out")
    manifest = json.loads((folder / "manifest.json").read_text())
    digests = {auto.label(cardsim.rules("musta_maija", v), 4):
               json.loads(auto.path_of("musta_maija", cardsim.rules("musta_maija", v), 4).read_text())["digest"]
               for v in ("musta_maija", "diamonds")}
    assert manifest["models"] == digests and len(set(digests.values())) == 2
    assert verify_study(folder, redraw=False).ok
    assert len(kept) == 2


def test_a_study_whose_model_another_training_would_give_differently_fails_verify(kept, tmp_path):
    """The manifest's digests are claims: a kept model that is not the one the study played is caught, in one
    line naming the cell's model and where to get the study's own."""
    from cardsim.study import run_study, verify_study

    path = tmp_path / "auto.toml"
    path.write_text(STUDY)
    folder = run_study(path, out=tmp_path / "out")
    r = cardsim.rules("musta_maija", "diamonds")
    model = auto.path_of("musta_maija", r, 4)
    body = json.loads(model.read_text())
    body["weights"][0][0] += 1.0
    models.write(model, models.content("musta_maija", np.array(body["weights"]),
                                       {k: body[k] for k in models.PROVENANCE if k != "game"}, {}))
    checked = verify_study(folder, redraw=False)
    lines = [m for m in checked.mismatches if m.startswith("manifest.json: model")]
    assert not checked.ok and len(lines) == 1 and "auto: " in lines[0] and "diamonds" in lines[0]
    assert f"copy ${auto.VARIABLE}/musta_maija/ from where the study ran" in lines[0] and "\n" not in lines[0]


def test_a_changed_model_is_one_line_per_model_saying_what_to_do():
    """``verify``'s line for a model whose digest here is not the manifest's: an ``auto`` model says where to get
    the study's own (a fit can differ between machines), a named one that its file changed; a manifest naming
    other models than the study plays is one line for them all."""
    from cardsim.study.folder.manifest import _models_differ

    held = {"auto: moska at 4 players": "sha256:" + "a" * 64, "moska_4p_g1": "sha256:" + "b" * 64}
    here = {"auto: moska at 4 players": "sha256:" + "c" * 64, "moska_4p_g1": "sha256:" + "d" * 64}
    lines = _models_differ(held, here, "moska")
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert "'auto: moska at 4 players' is sha256:cccccccccccc… here, not the study's sha256:aaaaaaaaaaaa…" in lines[0]
    assert "copy $CARDSIM_MODELS/moska/ from where the study ran" in lines[0]
    assert "'moska_4p_g1'" in lines[1] and "the model file changed since the run" in lines[1]
    assert _models_differ(held, held, "moska") == []
    assert _models_differ(held, {"moska_4p_g1": held["moska_4p_g1"]}, "moska") == [
        "manifest.json: models is not the study's "
        f"({str(held)[:57]}...; the study gives {str({'moska_4p_g1': held['moska_4p_g1']})[:57]}...)"]


@pytest.mark.long
def test_an_auto_model_is_trained_for_the_cells_rules_and_players(tmp_path, monkeypatch):
    monkeypatch.setenv(auto.VARIABLE, str(tmp_path))
    monkeypatch.setattr(auto, "SHIPPED", tmp_path / "shipped")
    monkeypatch.setattr(auto, "RECIPE", auto.RECIPE | {"positions": 40})
    r = cardsim.rules("musta_maija", "diamonds")
    cardsim.simulate("musta_maija", r, players=3, games=2, policy="learned(model=auto)")
    body = json.loads(auto.path_of("musta_maija", r, 3).read_text())
    assert (body["rules"], body["players"], body["positions"], body["seed"], body["generation"]) == \
        (r.describe(), 3, 40, auto.RECIPE["seed"], 1)
    assert body["teacher"].startswith("mc(determinizations=32")


def test_the_step_api_and_replay_play_the_cells_own_model(kept):
    from tests.play.stepping import reference_record, step_by_policy

    r = cardsim.rules("musta_maija", "diamonds")
    for index in range(4):
        assert step_by_policy("musta_maija", r, 4, 3, index, SEATS) == reference_record("musta_maija", r, 4, 3, index, SEATS)
    assert kept == [(r.describe(), 4)]


def test_a_model_named_auto_outside_a_cell_is_one_line():
    from cardsim.games.musta_maija.learned import load_model

    with pytest.raises(ValueError, match=r"learned\(model=auto\) is each cell's own model") as err:
        load_model("auto")
    assert "\n" not in str(err.value)


def test_two_threads_needing_one_model_train_it_once(kept, monkeypatch):
    """The lock beside a model (``auto._locked``, filelock) lets one of two callers train it; the other waits
    for it and finds the model. The stand-in training is slowed so that the second caller arrives while the
    first is training."""
    import threading
    import time

    fake = training.train

    def slow_train(*args, **kwargs):
        time.sleep(0.3)
        return fake(*args, **kwargs)

    monkeypatch.setattr(training, "train", slow_train)
    r = cardsim.rules("musta_maija", None)
    callers = [threading.Thread(target=auto.ensure, args=("musta_maija", r, 4, ["learned(model=auto)"]))
               for _ in range(2)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert kept == [(r.describe(), 4)] and auto.path_of("musta_maija", r, 4).is_file()


def test_a_models_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(auto.VARIABLE, str(blocked))
    with pytest.raises(ValueError, match=r"cannot keep learned\(model=auto\) models there.*set CARDSIM_MODELS") as err:
        cardsim.simulate("musta_maija", players=3, games=1, policy="learned(model=auto)")  # none shipped
    assert "\n" not in str(err.value)


SHIPPED = sorted(auto.SHIPPED.glob("*/auto/*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[f"{p.parent.parent.name}-{p.stem}" for p in SHIPPED])
def test_a_shipped_model_is_the_one_its_key_names(path):
    """The package ships the committed studies' auto models under their keys: each loads, and is the model
    ``path_of`` finds for the rules and players it was trained for."""
    game = path.parent.parent.name
    body = json.loads(path.read_text())
    from importlib import import_module

    import_module(f"cardsim.games.{game}.learned").load_model(str(path))
    assert auto.path_of(game, cardsim.rules(game, body["rules"]), body["players"]) == path
    assert body["seed"] == auto.RECIPE["seed"] and body["positions"] == auto.RECIPE["positions"]


def test_every_auto_model_a_committed_study_names_ships_in_the_package():
    """A model trained again on another machine can differ in its last bits (the fit's floating point follows
    the CPU's kernels, docs/ladder.md), so the committed studies verify exactly only against the models they
    played: each ``auto`` digest a committed manifest names is the digest of a shipped model."""
    from pathlib import Path

    shipped = {json.loads(p.read_text())["digest"] for p in SHIPPED}
    results = Path(__file__).resolve().parents[1] / "results"
    named = {(m.parent.name, label): digest for m in results.glob("*/manifest.json")
             for label, digest in json.loads(m.read_text()).get("models", {}).items() if label.startswith("auto: ")}
    assert named and {k: d for k, d in named.items() if d not in shipped} == {}


def test_a_shipped_model_is_played_without_training(tmp_path, monkeypatch):
    monkeypatch.setenv(auto.VARIABLE, str(tmp_path / "empty"))
    monkeypatch.setattr(training, "train", lambda *a, **k: pytest.fail("a shipped model was trained again"))
    cardsim.simulate("musta_maija", "diamonds", players=4, games=3, policy="learned(model=auto)")
    assert not (tmp_path / "empty").exists()
