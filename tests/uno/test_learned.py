"""The Uno ``learned`` policy (docs/design.md#learned-players; ``policies.py`` says it in words): model files,
choices, both engines alike, information sets, warnings and ``cardsim train uno`` (bad model files and
parameters, alike in every game: tests/test_learned_models.py).
"""
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.core import models
from cardsim.core.learned import score
from cardsim.core.rules import format_call, normal_call
from cardsim.games.uno import GAME
from cardsim.games.uno import compiled as C
from cardsim.games.uno import learned_features as features
from cardsim.games.uno.cards import K
from cardsim.games.uno.learned import load_model
from cardsim.games.uno.policies import DEFAULT_MODEL, parse_policy
from cardsim.games.uno.rules import UnoRules
from cardsim.learn.train import train

from learned_models import ModelFiles, check_committed_families, learned

from .test_compiled import start
from .test_mc import view_twin
from .test_properties import tables

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")

FILES = ModelFiles("uno", features)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    return FILES.folder(tmp_path_factory)


# ---------------------------------------------------------------- model files and parameters

def test_a_model_round_trips_into_the_policy_table_in_fixed_point(tmp_path):
    w = np.random.default_rng(1).normal(size=(features.BLOCKS, features.N))
    path = FILES.write(tmp_path / "m.json", w)
    model = load_model(str(path))
    blocks = model.weights.reshape(features.BLOCKS, features.WIDTH)
    assert np.allclose(blocks[:, :features.N], w, rtol=1e-5) and not blocks[:, features.N:].any()  # no units
    row = C.policy_of((learned(path, forbid="bluff"),))[0]
    assert row[C.CODE] == C.LEARNED and row[C.FORBID] == 4 and len(row) == C.ROW
    assert (row[C.WEIGHTS:] == np.round(model.weights * features.SCALE)).all()
    search = C.policy_of((normal_call(format_call("mc", {"determinizations": 3, "base": learned(path)})),))[0]
    assert (search[C.CODE], search[C.DETERMINIZATIONS], search[C.BASE]) == (C.MC, 3, C.LEARNED)
    assert (search[C.WEIGHTS:] == row[C.WEIGHTS:]).all()


def test_the_committed_models_load_and_name_their_provenance():
    assert DEFAULT_MODEL in models.names("uno")
    check_committed_families("uno", "official", {"official_4p"}, load_model)
    assert parse_policy("learned").model == DEFAULT_MODEL


# ---------------------------------------------------------------- choices

def test_a_model_of_zero_weights_plays_greedy(models_dir):
    """Every score ties and a tie goes to the first candidate, greedy's choice at its default bluff and
    challenge (drawn with the decision's draws): the records of greedy."""
    for rules in ("official", "stacking", "deck_2018(custom_wild='swap_hands')"):
        seats = [learned(models_dir / "zero.json"), "greedy", "random", "greedy"]
        a = cardsim.simulate("uno", rules, players=4, games=300, seed=5, policy=seats)
        b = cardsim.simulate("uno", rules, players=4, games=300, seed=5, policy=["greedy", "greedy", "random", "greedy"])
        pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("model", ["r1.json", "n0.json"])
def test_a_learned_choice_is_the_first_best_scored_candidate(models_dir, model):
    """At every choice of a few games: the choice is a candidate (``mc``'s, greedy's first) whose score
    (``core.learned.score``: a linear model, a network) no other beats, the first such, and it is legal."""
    rules = UnoRules.preset("deck_2018")
    for game in range(4):
        _, state, params, table, w = start(rules, 4, 3, game, (learned(models_dir / model),) * 4)
        s, weights, x = state[0], table[0, C.WEIGHTS:], np.zeros(features.N, np.int64)
        legal, unseen, options = np.zeros(K + 1, np.int64), np.zeros(4, np.int64), np.zeros(K + 1, np.int64)
        kinds = set()
        while s["phase"] != C.OVER:
            m = C.candidates(s, 0, w, options)
            features.unseen_colours(s, w["copies"], unseen)
            scores = []
            for i in range(m):
                features.describe(s, options[i], i == 0, unseen, x)
                scores.append(score(weights, features.block_of(s), x, features.N))
            choice = C.decide(s, params, table, w)
            assert choice == options[int(np.argmax(scores))]
            assert choice in legal[:C.legal_decisions(s, legal)]
            kinds.add(int(s["phase"]))
            C.apply(s, choice, params, w)
        assert {C.CARD, C.COLOUR} <= kinds


def test_features_say_what_the_candidate_is():
    """A hand-made position: Y5 Y9 YS G5 W held on R5 (red); the features of each card and of each colour."""
    from cardsim.games.uno import reference as ref
    from cardsim.games.uno.cards import parse

    r = ref.make_state(3, ["R1", "Y5 Y9 YS G5 W", "R2 R3"], "R5", pile="B1 B2", discard="R7 Y7")
    s = C.state_from(r)[0]
    w = C.new_work(UnoRules())[0]
    unseen, x = np.zeros(4, np.int64), np.zeros(features.N, np.int64)
    features.unseen_colours(s, w["copies"], unseen)
    assert unseen.tolist() == [25 - 1 - 1, 25 - 1 - 3, 25 - 1, 25]  # R7 under R5 on top; Y7 under, Y5 Y9 YS held
    features.describe(s, parse("Y5"), False, unseen, x)
    f = dict(zip(features.NAMES, x.tolist()))
    assert (f["number"], f["switch"], f["colour_held"], f["colour_unseen"], f["follow"], f["points"]) == \
        (5, 1, 2, 21, 2 + 1 + 1, 5)  # Y9 YS left, G5 follows a 5, W
    features.describe(s, parse("W"), True, unseen, x)
    f = dict(zip(features.NAMES, x.tolist()))
    assert (f["greedy"], f["wild"], f["colour_held"], f["wilds_left"], f["points"]) == (1, 1, 3, 0, 50)
    assert features.block_of(s) == features.KINDS.index("card") * features.STAGES + 1  # seat 0 holds 1 card


def seat_strategy(d):
    names = [learned(d / "r0.json"), learned(d / "r1.json", forbid="challenge"), learned(d / "n0.json"),
             normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "n0.json")})),
             normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "r2.json")})),
             normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "r0.json"),
                                            "forbid": "stack+bluff"})),
             "greedy(forbid=bluff)", "random"]
    return st.sampled_from(names)


@st.composite
def learned_tables(draw, d):
    """``tables()`` with one or more seats playing ``learned`` (or ``mc`` over a learned base)."""
    rules, players, policy = draw(tables(max_players=6))
    seats = list(GAME.seat_policies(policy, players))
    for p in draw(st.sets(st.integers(0, players - 1), min_size=1)):
        seats[p] = draw(seat_strategy(d))
    return rules, players, seats


@settings(max_examples=30, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), first=st.integers(0, 10**9))
def test_learned_games_are_the_same_on_both_engines(models_dir, data, seed, first):
    rules, players, seats = data.draw(learned_tables(models_dir))
    kw = dict(players=players, games=3, seed=seed, policy=seats, first_game=first)
    pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                  cardsim.simulate("uno", rules, engine="reference", **kw))


@settings(max_examples=30, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1), game=st.integers(0, 10**6))
def test_a_learned_choice_depends_only_on_the_deciding_seats_view(models_dir, data, seed, game):
    """At every choice of a ``learned`` seat, the cards it cannot see dealt again (the other hands beyond what
    it was shown, the pile's order, whether a waiting Wild Draw Four was a bluff): the same choice."""
    rules, players, _ = data.draw(tables(max_players=6))
    seats = [data.draw(st.sampled_from([learned(models_dir / "r0.json"), learned(models_dir / "r2.json",
                                                                                  forbid="stack+challenge")]))
             for _ in range(players)]
    _, state, params, table, w = start(rules, players, seed, game, seats)
    gen, s, decided = np.random.default_rng(game), state[0], 0
    while s["phase"] != C.OVER:
        choice = C.decide(s, params, table, w)
        assert C.decide(view_twin(state, gen)[0], params, table, w) == choice
        C.apply(s, choice, params, w)
        decided += 1
    assert decided > 0


def test_the_committed_model_plays_alike_on_both_engines_and_warns_under_other_rules():
    seats = ("learned", "greedy", "mc(determinizations=3, base=learned)", "random")
    for preset in ("official", "stacking"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            kw = dict(players=4, games=8, seed=11, policy=seats)
            pd.testing.assert_frame_equal(cardsim.simulate("uno", preset, engine="reference", **kw),
                                          cardsim.simulate("uno", preset, engine="compiled", **kw))
        said = {str(w.message) for w in caught}
        assert said == (set() if preset == "official" else
                        {f"{DEFAULT_MODEL}.json: a model trained for official at 4 players plays stacking at 4 "
                         "players"})


# ---------------------------------------------------------------- training

@pytest.mark.long
def test_train_uno_is_deterministic_and_resumable(tmp_path):
    args = dict(players=3, generations=2, positions=30, teacher="mc(determinizations=2)", seed=5, every=2,
                progress=False)
    a = train("uno", "stacking", out=tmp_path / "a", **args)
    b = train("uno", "stacking", out=tmp_path / "b", jobs=2, **args)
    assert [p.name for p in a] == ["stacking_3p_g1.json", "stacking_3p_g2.json"]
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    g1, g2 = (json.loads(p.read_text()) for p in a)
    assert g2["parent"] == g1["digest"] and g1["teacher"] == "mc(determinizations=2, base='greedy')"
    assert g2["teacher"] == "mc(determinizations=2, base='learned(model=stacking_3p_g1)')"
    a[1].unlink()
    assert train("uno", "stacking", out=tmp_path / "a", **args) == a and a[1].read_bytes() == b[1].read_bytes()


def test_a_studys_manifest_names_the_digest_of_every_uno_model_it_plays():
    from cardsim.study.folder import manifest
    from cardsim.study.ladder.run import ladder_study

    names = sorted(models.names("uno"))
    study = ladder_study("uno", policies=["greedy", f"learned(model={names[0]})", "mc(base=learned)"], games=4,
                         seed=1)
    digest = {name: load_model(name).digest
              for name in (names[0], DEFAULT_MODEL)}
    assert manifest.claims(study)["models"] == digest
