"""The Molotow ``learned`` policy (docs/design.md#the-learned-policy; specified in policies.py): model files, the
scorer's decisions, both engines alike, information sets, training (bad model files and
parameters, alike in every game: tests/test_learned_models.py).
"""
import json
import random
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim import cli
from cardsim.core import models
from cardsim.core.learned import score
from cardsim.core.rules import format_call, normal_call
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow import learned_features as features
from cardsim.games.molotow.policies import DEFAULT_MODEL
from cardsim.games.molotow.rules import MolotowRules
from cardsim.learn.train import train

from learned_models import ModelFiles, check_committed_families, learned, trained_network

from .states import played_to
from .strategies import rules_and_players
from .test_differential import mismatches
from .test_mc import rehide

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")

FILES = ModelFiles("molotow", features)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    return FILES.folder(tmp_path_factory)


# --- model files and parameters ------------------------------------------------------------------

def test_a_model_round_trips_into_the_policy_table_in_fixed_point(tmp_path):
    w = np.random.default_rng(1).normal(size=(features.BLOCKS, features.N))
    path = FILES.write(tmp_path / "m.json", w)
    model = C.load_model(str(path))
    blocks = model.weights.reshape(features.BLOCKS, features.WIDTH)
    assert np.allclose(blocks[:, :features.N], w, rtol=1e-5) and not blocks[:, features.N:].any()  # no units
    row = C.policy_table((learned(path),))[0]
    assert row[C.CODE] == C.LEARNED_CODE and (row[C.WEIGHTS:] == np.round(model.weights * features.SCALE)).all()
    mc = C.policy_table((normal_call(format_call("mc", {"determinizations": 3, "base": learned(path)})),))[0]
    assert (mc[C.CODE], mc[C.DETERMINIZATIONS], mc[C.BASE]) == (C.SEARCH, 3, C.LEARNED_CODE)
    assert (mc[C.WEIGHTS:] == row[C.WEIGHTS:]).all()


def test_the_committed_models_load_and_name_their_provenance():
    assert DEFAULT_MODEL in models.names("molotow")
    check_committed_families("molotow", "molotow", {"molotow_4p", "molotow_4p_agg", "molotow_4p_net_agg"},
                             C.load_model)


# --- decisions ---------------------------------------------------------------------------------------

def test_a_model_of_zero_weights_plays_greedy(models_dir):
    """Every score ties, and a tie goes to the first candidate, greedy's."""
    zero = learned(models_dir / "zero.json")
    a = cardsim.simulate("molotow", games=100, seed=4, policy=[zero, "greedy", "random", zero])
    b = cardsim.simulate("molotow", games=100, seed=4, policy=["greedy", "greedy", "random", "greedy"])
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("model", ["r1.json", "n0.json"])
def test_a_learned_card_is_the_first_best_scored_legal_card(models_dir, model):
    """At each decision of a game: the card played is the legal card whose features (``describe``) score
    highest under the model (``core.learned.score``: a linear model, a network; candidates greedy's first,
    then ascending), the first such."""
    seats = (learned(models_dir / model),) * 4
    rules = MolotowRules()
    st_, params, table = played_to(rules, 4, 3, 0, seats, 0)
    s, w = st_[0], C.new_work()[0]
    weights = table[0, C.WEIGHTS:]
    x = np.zeros(features.N, np.int64)
    scored = 0
    while not C.game_over(s, params):
        seat, legal = C.to_act(s), int(C.legal_cards(s, params))
        first = C.greedy_card(s, np.uint64(legal))
        cards = [first] + [c for c in range(36) if legal >> c & 1 and c != first]
        blk = features.block(4, int(s["trick_len"]), int(s["trick_no"]), int(s["trump"]))
        scores = []
        for i, c in enumerate(cards):
            features.describe(x, s, seat, c, i == 0, rules.last_trick_bonus)
            scores.append(score(weights, blk, x, features.N))
        card = C.choose(s, params, table, w)
        assert card == cards[int(np.argmax(scores))]
        scored += len(cards) > 1
        C.apply(s, params, card)
    assert scored > 100


def test_the_features_of_a_position_say_what_the_card_does():
    """A constructed trick (MJ-9, MJ-12): ♠A led by seat 0, ♠K by seat 1, ♦ trump (set earlier); seat 2 holds
    ♠6 ♦9 ♥10."""
    from cardsim.games.molotow.cards import DECK

    from .states import position_state

    spade6, spade_k, spade_a, diamond9, heart10 = (DECK.card(*c) for c in ((0, 0), (0, 7), (0, 8), (2, 3), (1, 4)))
    st_, _ = position_state(1 << spade6 | 1 << diamond9 | 1 << heart10, [spade_a, spade_k], 2, leader=0, trick_no=1)
    x = np.zeros(features.N, np.int64)

    def of(card):
        features.describe(x, st_[0], 2, card, False, 5)
        return dict(zip(features.NAMES, x.tolist()))

    f = of(diamond9)                                     # the trump 9 (14 points, MJ-3) takes A + K (15)
    assert (f["trump"], f["wins"], f["points"], f["win_points"], f["power"]) == (1, 1, 14, 29, 7)
    assert (f["left_trumps"], f["give_points"], f["sets_trump"]) == (0, 0, 0)
    f = of(spade6)                                       # following with the 6 loses the trick, voids spades
    assert (f["wins"], f["win_points"], f["give_points"], f["void"], f["left_points"]) == (0, 0, 0, 1, 24)


SEATS = st.sampled_from(["random", "greedy", "L0", "L1", "N0", "ML2", "MN0", "OL2"])
"""Seat policies: ``L0``, ``L1``: ``learned`` with the random models r0, r1; ``N0``: with the random network n0;
``ML2``, ``MN0``: ``mc`` with 2 worlds over ``learned`` with r2, with n0; ``OL2``: ``oracle`` with 2 worlds over r2."""


def with_models(seats, d) -> tuple[str, ...]:
    names = {"L0": learned(d / "r0.json"), "L1": learned(d / "r1.json"), "N0": learned(d / "n0.json"),
             "ML2": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "r2.json")})),
             "MN0": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "n0.json")})),
             "OL2": normal_call(format_call("oracle", {"determinizations": 2, "base": learned(d / "r2.json")}))}
    return tuple(names.get(s, s) for s in seats)


@settings(max_examples=20, deadline=None)
@given(rules_and_players(max_hands=2), st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.data())
def test_learned_games_are_the_same_on_both_engines(models_dir, rp, seed, first, data):
    rules, players = rp
    seats = with_models(data.draw(st.lists(SEATS, min_size=players, max_size=players)), models_dir)
    kw = dict(players=players, games=3, seed=seed, policy=list(seats), first_game=first)
    pd.testing.assert_frame_equal(cardsim.simulate("molotow", rules, **kw),
                                  cardsim.simulate("molotow", rules, engine="reference", **kw))


@pytest.mark.parametrize("rules, players", [("molotow", 4), ("swiss", 4), ("mittlere", 3)])
def test_the_committed_model_plays_alike_on_both_engines(rules, players):
    seats = ["learned", "mc(determinizations=3, base=learned)", "greedy", "random"][:players]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert mismatches(rules, players, seats, games=6, seed=9) == 0
    said = {str(w.message) for w in caught}
    assert said == (set() if rules == "molotow" else
                    {f"{DEFAULT_MODEL}.json: a model trained for molotow at 4 players plays {rules} at {players} "
                     "players"})


@pytest.mark.parametrize("rules, players", [("molotow", 4), ("swiss", 4), ("mittlere", 3)])
@pytest.mark.parametrize("model", ["r0", "r1", "n0"])
def test_information_set_learned_decides_alike_when_only_hidden_cards_differ(models_dir, rules, players, model):
    """The same view (hand, cards played and who took them, trick, trump, hand sizes, ruled_out) with the other
    seats' hidden cards swapped between them, the deal's scratch and the policy draws to come scrambled: the
    same card."""
    r = random.Random(3)
    policy = learned(models_dir / f"{model}.json")
    rl = cardsim.rules("molotow", rules)
    changed = 0
    for decision in range(0, 12 * 36, 5):
        state, params, table = played_to(rl, players, 17, decision % 3, (policy,) * players, decision)
        if C.game_over(state[0], params):
            continue
        seat = C.to_act(state[0])
        other = rehide(state, seat, r)
        changed += other[0]["held"].tolist() != state[0]["held"].tolist()
        assert C.choose(other[0], params, table, C.new_work()[0]) == C.choose(state[0], params, table,
                                                                               C.new_work()[0])
    assert changed > 40


# --- training ---------------------------------------------------------------------------------------

def test_train_fits_a_network_with_hidden_units(tmp_path):
    """``--hidden 2`` (``trained_network``: the file's width and units, another ``--hidden`` refused): the file
    plays alike on both engines."""
    path = trained_network("molotow", features, tmp_path)
    kw = dict(players=4, games=4, seed=9, policy=[learned(path), "greedy", learned(path), "random"])
    pd.testing.assert_frame_equal(cardsim.simulate("molotow", **kw),
                                  cardsim.simulate("molotow", engine="reference", **kw))


@pytest.mark.long
def test_train_is_deterministic_resumable_and_checks_its_arguments(tmp_path):
    args = dict(players=3, generations=2, positions=60, teacher="mc(determinizations=2)", seed=5, every=4,
                progress=False)
    a = train("molotow", "mittlere", out=tmp_path / "a", **args)
    b = train("molotow", "mittlere", out=tmp_path / "b", jobs=2, **args)
    assert [p.name for p in a] == ["mittlere_3p_g1.json", "mittlere_3p_g2.json"]
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    g1, g2 = (json.loads(p.read_text()) for p in a)
    assert g2["parent"] == g1["digest"] and g1["game"] == "molotow" and g1["blocks"] == features.block_names()
    assert g2["teacher"] == "mc(determinizations=2, base='learned(model=mittlere_3p_g1)')"
    first = a[0].stat().st_mtime_ns
    a[1].unlink()
    assert train("molotow", "mittlere", out=tmp_path / "a", **args) == a
    assert a[0].stat().st_mtime_ns == first and a[1].read_bytes() == b[1].read_bytes()
    with pytest.raises(ValueError, match="mittlere_3p_g1.json: trained with seed=5, not 6"):
        train("molotow", "mittlere", out=tmp_path / "a", **(args | {"seed": 6}))


@pytest.mark.long
def test_training_positions_are_the_seats_candidates_with_the_teachers_totals():
    """Each position: its block, 2..9 candidates (the legal cards), the first greedy's; totals within the
    worlds' bounds (a hand scores -3..+3 sticks minus potatoes per world)."""
    from cardsim.games.molotow import training

    data = training.label(MolotowRules(), 4, 2, np.arange(3), ("greedy",) * 4, "mc(determinizations=4)", 4)
    count, x, y = data["count"], data["x"], data["y"]
    assert len(count) > 50 and ((count >= 2) & (count <= 9)).all() and count.sum() == len(x) == len(y)
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    assert (x[start, 0] == 1).all() and x[:, 0].sum() == len(count)
    assert (np.abs(y) <= 12).all() and (data["block"] < features.BLOCKS).all()


def test_train_names_molotow_among_the_games_with_a_learned_policy(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["train", "chess", "--out", "x"]) == 2
    assert "games with one: molotow, moska" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_a_studys_manifest_names_the_digest_of_every_molotow_model_it_plays():
    from cardsim.study.folder import manifest
    from cardsim.study.ladder.run import ladder_study

    study = ladder_study("molotow", policies=["greedy", "learned(model=molotow_4p_g1)", "mc(base=learned)"],
                         games=2, seed=1)
    assert manifest.claims(study)["models"] == {name: C.load_model(name).digest
                                                for name in ("molotow_4p_g1", DEFAULT_MODEL)}
