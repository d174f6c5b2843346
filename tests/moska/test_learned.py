"""The Moska ``learned`` policy (docs/design.md#learned-players): model files, decisions, both engines alike,
information sets, the fit and ``cardsim train`` (bad model files and
parameters, alike in every game: tests/test_learned_models.py).
"""
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim import cli
from cardsim.core import models
from cardsim.core.learned import lanes, score
from cardsim.core.records import frame
from cardsim.core.rules import format_call, normal_call
from cardsim.games.moska import GAME, compiled
from cardsim.games.moska import learned_features as features
from cardsim.games.moska.compiled_policies import GREEDY, LEARNED, WEIGHTS, table
from cardsim.games.moska.learned import load_model
from cardsim.games.moska.policies import DEFAULT_MODEL, SEARCH_STOCK
from cardsim.games.moska.seating import LearnedPolicy, make_policy
from cardsim.games.moska.rules import MoskaRules
from cardsim.learn import fit as fitting
from cardsim.learn.train import train

from learned_models import ModelFiles, check_committed_families, learned, trained_network

from .states import Game, assert_same_decision, hidden_cards_dealt_again
from .strategies import setups

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")

FILES = ModelFiles("moska", features)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    return FILES.folder(tmp_path_factory)


def records(engine, rules, players, seed, games, seats) -> pd.DataFrame:
    if engine == "reference":
        return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    return frame(compiled.simulate(rules, players, seed, np.asarray(games), seats), GAME.columns)


# --- model files and parameters ------------------------------------------------------------

def test_a_model_round_trips_with_its_digest_and_fixed_point_weights(tmp_path):
    w = np.random.default_rng(1).normal(size=(features.BLOCKS, features.N))
    path = FILES.write(tmp_path / "m.json", w)
    model = load_model(str(path))
    assert model.digest == models.digest(json.loads(path.read_text())) and model.digest.startswith("sha256:")
    blocks = model.weights.reshape(features.BLOCKS, features.WIDTH)
    assert np.allclose(blocks[:, :features.N], w, rtol=1e-5) and not blocks[:, features.N:].any()  # no units
    row = table((learned(path),))[0]
    fixed = np.round(model.weights * features.SCALE).astype(np.int64)
    laid_out = lanes(fixed, features.N)  # the table's layout: the lanes, then the open blocks folded
    assert row[0] == 3 and (row[WEIGHTS:] == np.concatenate([laid_out, features.fold(laid_out)])).all()


def test_the_committed_models_load_and_name_their_provenance():
    assert DEFAULT_MODEL in models.names("moska")
    check_committed_families("moska", "moska", {"moska_4p", "moska_4p_net", "moska_4p_net_agg"}, load_model)
    assert isinstance(make_policy("learned"), LearnedPolicy)


def test_mc_over_a_learned_base_has_one_spelling():
    text = normal_call("mc(determinizations=4, base=learned(model=moska_4p_g1))")
    assert text == normal_call(text) == "mc(base='learned(model=moska_4p_g1)', determinizations=4)"
    row = table((text,))[0]
    assert (row[1], row[2]) == (4, 3) and (row[WEIGHTS:] == table(("learned(model=moska_4p_g1)",))[0][WEIGHTS:]).all()


# --- decisions --------------------------------------------------------------------------------

def test_a_model_of_zero_weights_plays_greedy(models_dir):
    """Every score ties, and a tie goes to the first candidate, greedy's."""
    seats = (learned(models_dir / "zero.json"), "greedy", "random", "greedy")
    a = records("compiled", MoskaRules(), 4, 5, np.arange(200), seats)
    b = records("compiled", MoskaRules(), 4, 5, np.arange(200), ("greedy", "greedy", "random", "greedy"))
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("model", ["r1.json", "n0.json"])
def test_a_learned_decision_is_the_best_scored_candidate(models_dir, model):
    """At every decision of a game: the move is a candidate whose score (``core.learned.score``: a linear
    model, a network, of the model file's weights: the engine's table holds them laid out for
    ``core.learned.score_lanes``) no other candidate beats, the first such; and it is legal (``Game.step``)."""
    seats = (learned(models_dir / model),) * 4
    g = Game(MoskaRules(), 4, 3, 8, seats)
    weights, w = load_model(str(models_dir / model)).fixed_point(features.SCALE), compiled.new_work()[0]
    x = np.zeros(features.N, np.int64)
    for _ in range(300):
        if compiled.to_act(g.s) < 0:
            break
        n = compiled.decision_candidates(g.s, g.p, w["play"])
        scores = []
        for i in range(n):
            compiled.candidate_features(g.s, g.p, w["play"][i], i == 0, *compiled.decision_masks(g.s, g.p), x)
            scores.append(score(weights, compiled.block_of(g.s, g.p), x, features.N))
        compiled.choose(g.s, g.p, g.policies, g.move[0], g.work)
        assert g.move[0]["cards"] == w["play"][int(np.argmax(scores))]["cards"]
        g.step()


SEATS = st.sampled_from(["random", "greedy", "L0", "L1", "N0", "ML2", "MRL2", "MN0"])
"""Seat policies, ``L0``, ``L1``: ``learned`` with the random models r0, r1; ``N0``: with the random network
n0; ``ML2``: ``mc`` with 2 worlds over ``learned`` with r2; ``MRL2``: the same searching the whole game with
``beliefs=reads``; ``MN0``: ``mc`` with 2 worlds over the network."""


@pytest.mark.parametrize("base", ["greedy", "learned"])
def test_mc_plays_its_bases_decision_before_its_search_window(models_dir, base):
    """``mc`` with its default window (the stock at most ``SEARCH_STOCK`` cards): before it, the decision
    is its base's when the base is ``learned`` (the network n0 here), else greedy's, at every decision of a
    game of four such seats; from then on a candidate of the search (``decision_candidates``)."""
    search = f"mc(determinizations=2, base={learned(models_dir / 'n0.json') if base == 'learned' else 'greedy'})"
    g = Game(MoskaRules(), 4, 3, 8, (search,) * 4)
    row, w = g.policies[0], compiled.new_work()[0]
    plain, searched = np.zeros(1, compiled.MOVE), 0
    for _ in range(400):
        if compiled.to_act(g.s) < 0:
            break
        compiled.choose(g.s, g.p, g.policies, g.move[0], g.work)
        if compiled.stock_left(g.s) > SEARCH_STOCK:
            compiled.decide(g.s, g.p, LEARNED if base == "learned" else GREEDY, row, plain[0], w)
            assert g.move[0]["cards"] == plain[0]["cards"]
            assert (g.move[0]["killer"] == plain[0]["killer"]).all()
        else:
            n = compiled.decision_candidates(g.s, g.p, w["play"])
            assert any(g.move[0]["cards"] == w["play"][i]["cards"] for i in range(n))
            searched += 1
        g.step()
    assert compiled.to_act(g.s) < 0 and searched > 0


@st.composite
def learned_setups(draw):
    """``setups`` with at least one ``learned`` seat (or ``mc`` over a learned base)."""
    rules, players, seats, seed, game = draw(setups())
    seats = list(seats)
    for seat in draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True)):
        seats[seat] = draw(SEATS)
    return rules, players, seats, seed, game


def with_models(seats, d) -> tuple[str, ...]:
    """The policy strings of ``SEATS``'s names, with the models of ``models_dir``."""
    names = {"L0": learned(d / "r0.json"), "L1": learned(d / "r1.json"), "N0": learned(d / "n0.json"),
             "MN0": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "n0.json")})),
             "ML2": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "r2.json")})),
             "MRL2": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "r2.json"),
                                                    "search_stock": "all", "beliefs": "reads"}))}
    return tuple(names.get(s, s) for s in seats)


@settings(max_examples=25)
@given(learned_setups())
def test_learned_games_are_the_same_on_both_engines(models_dir, cell):
    rules, players, seats, seed, first = cell
    seats = with_models(seats, models_dir)
    games = np.arange(first, first + 3)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@pytest.mark.parametrize("preset", ["moska", "turamoska", "taraki"])
def test_the_committed_model_plays_alike_on_both_engines_and_warns_under_other_rules(preset):
    rules = MoskaRules.preset(preset)
    seats = ("learned", "greedy", "mc(determinizations=4, base=learned)", "random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pd.testing.assert_frame_equal(records("reference", rules, 4, 11, np.arange(12), seats),
                                      records("compiled", rules, 4, 11, np.arange(12), seats))
    said = {str(w.message) for w in caught}
    assert said == (set() if preset == "moska" else
                    {f"{DEFAULT_MODEL}.json: a model trained for moska at 4 players plays {preset} at 4 players"})


@pytest.mark.parametrize("preset", ["moska", "turamoska"])
def test_the_searches_over_the_committed_model_play_alike_on_both_engines(preset):
    """``oracle`` and ``mc(beliefs=reads)`` over a ``learned`` base (docs/design.md): the same records."""
    rules = MoskaRules.preset(preset)
    seats = ("oracle(determinizations=2, base=learned)", "mc(determinizations=2, base=learned, beliefs=reads)",
             "learned", "greedy")
    pd.testing.assert_frame_equal(records("reference", rules, 4, 3, np.arange(6), seats),
                                  records("compiled", rules, 4, 3, np.arange(6), seats))


@settings(max_examples=25)
@given(learned_setups())
def test_a_learned_decision_depends_only_on_the_deciding_seats_view(models_dir, cell):
    """At every decision, the cards the seat cannot see dealt again: the same decision (and every decision
    legal)."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, with_models(seats, models_dir))
    gen = np.random.default_rng(game)
    a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
    for _ in range(150):
        seat = compiled.to_act(g.s)
        if seat < 0:
            break
        assert_same_decision(g, hidden_cards_dealt_again(g.s, g.p, seat, players, gen), a, b)
        g.step()


# --- the fit and training ----------------------------------------------------------------------

def test_the_fit_learns_the_teachers_choice_from_a_feature():
    """Positions of 3..6 candidates where the teacher prefers the highest feature 1 (feature 0 is noise):
    the fitted block picks the teacher's best in every position, positions with one total are left out."""
    gen = np.random.default_rng(0)
    count = gen.integers(3, 7, size=400)
    x = gen.integers(0, 10, size=(count.sum(), 2))
    y = np.where(np.arange(count.sum()) < count[0], 5, 3 * x[:, 1])
    w, summary = fitting.fit_block(count, x, y)
    assert w[1] > 0 and abs(w[0]) < w[1] / 10
    keep, t = fitting.targets(count, y)
    assert not keep[0] and keep[1:].all() and np.isclose(t.sum(), len(count))
    assert summary["positions"] == 399 and summary["teacher_agreement"] == 1.0


def test_the_network_fit_learns_an_interaction_the_linear_fit_cannot():
    """The teacher prefers a candidate with exactly one of features 0 and 1 (feature 2 is noise): no linear
    score ranks both (1, 0) and (0, 1) above (0, 0) and (1, 1), a network of 2 units does. Its block, applied
    to the raw features in the float network's form, picks the teacher's best."""
    gen = np.random.default_rng(1)
    count = np.full(600, 4)
    x = np.concatenate([gen.integers(0, 2, size=(2400, 2)), gen.integers(0, 5, size=(2400, 1))], axis=1)
    y = x[:, 0] ^ x[:, 1]
    _, linear = fitting.fit_block(count, x, y)
    row, network = fitting.fit_network_block(count, x, y, hidden=2, seed=0)
    assert linear["teacher_agreement"] < 0.9 and network["teacher_agreement"] == 1.0 and network["units"] == 2
    n = x.shape[1]
    units = row[n:].reshape(-1, n + 2)
    assert not units[2:].any()  # the units past ``hidden`` stay zero
    z = x @ row[:n] + np.maximum(x @ units[:, :n].T + units[:, n], 0.0) @ units[:, n + 1]
    start = np.arange(0, 2400, 4)
    best = np.repeat(np.maximum.reduceat(y, start), 4)
    picked = np.repeat(np.maximum.reduceat(z, start), 4) == z
    informative = np.repeat(np.maximum.reduceat(y, start) > np.minimum.reduceat(y, start), 4)
    assert (y[picked & informative] == best[picked & informative]).all()


def test_a_network_fit_of_few_positions_is_linear():
    gen = np.random.default_rng(2)
    count = np.full(50, 3)
    x = gen.integers(0, 9, size=(150, 2))
    row, summary = fitting.fit_network_block(count, x, x[:, 0], hidden=4, seed=0)
    assert summary["units"] == 0 and not row[2:].any() and row[0] > 0


@pytest.mark.long
def test_train_fits_a_network_with_hidden_units(tmp_path):
    """``--hidden 2`` (``trained_network``: the file's width and units, another ``--hidden`` refused): the file
    loads and plays."""
    path = trained_network("moska", features, tmp_path)
    games = records("compiled", MoskaRules(), 4, 1, np.arange(20), (learned(path), "greedy", "greedy", "greedy"))
    assert len(games) == 20


@pytest.mark.long
def test_train_is_deterministic_resumable_and_checks_its_arguments(tmp_path):
    args = dict(players=3, generations=2, positions=40, teacher="mc(determinizations=2)", seed=5, every=4,
                progress=False)
    a = train("moska", "turamoska", out=tmp_path / "a", **args)
    b = train("moska", "turamoska", out=tmp_path / "b", jobs=2, **args)
    assert [p.name for p in a] == ["turamoska_3p_g1.json", "turamoska_3p_g2.json"]
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    g2 = json.loads(a[1].read_text())
    assert g2["parent"] == json.loads(a[0].read_text())["digest"]
    assert g2["teacher"] == "mc(determinizations=2, base='learned(model=turamoska_3p_g1)')"
    first = a[0].stat().st_mtime_ns
    a[1].unlink()
    assert train("moska", "turamoska", out=tmp_path / "a", **args) == a
    assert a[0].stat().st_mtime_ns == first and a[1].read_bytes() == b[1].read_bytes()
    with pytest.raises(ValueError, match="turamoska_3p_g1.json: trained with seed=5, not 6"):
        train("moska", "turamoska", out=tmp_path / "a", **(args | {"seed": 6}))


@pytest.mark.parametrize("argv, match", [
    (["train", "chess", "--out", "x"], "cardsim train: 'chess' has no learned policy; games with one: molotow, moska, musta_maija, uno"),
    (["train", "moska", "--teacher", "greedy", "--out", "x"], "--teacher: expected an mc(...) policy string"),
    (["train", "moska", "--positions", "0", "--out", "x"], "--positions must be an integer >= 1, not 0"),
    (["train", "moska", "--hidden", "5", "--out", "x"], "--hidden must be an integer from 0 to 4, not 5"),
])
def test_train_rejects_bad_arguments_with_one_line(tmp_path, capsys, monkeypatch, argv, match):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and match in err and not (tmp_path / "x").exists()


def test_a_studys_manifest_names_the_digest_of_every_model_it_plays():
    """The claims ``cardsim verify`` checks: the models by name with their digests (``learned`` alone is the
    default model, ``mc``'s base counts); a study without a learned seat claims none."""
    from cardsim.study.folder import manifest
    from cardsim.study.ladder.run import ladder_study

    study = ladder_study("moska", policies=["greedy", "learned(model=moska_4p_g1)", "mc(base=learned)"], games=4,
                         seed=1)
    digest = {name: load_model(name).digest
              for name in ("moska_4p_g1", DEFAULT_MODEL)}
    assert manifest.claims(study)["models"] == digest
    assert "models" not in manifest.claims(ladder_study("moska", policies=["greedy", "random"], games=4, seed=1))


def test_a_model_whose_weights_do_not_fit_the_scorer_is_refused_naming_its_file(tmp_path):
    """The table multiplies in 32 bits (``core.learned.lanes``): a weight of 40,000 is one line naming the file."""
    w = np.zeros((features.BLOCKS, features.N))
    w[2, 3] = 40000.0
    path = FILES.write(tmp_path / "big.json", w)
    with pytest.raises(ValueError, match=r"big\.json: weights must lie within ±16,384"):
        table((learned(path),))
