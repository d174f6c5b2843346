"""The Musta-Maija ``learned`` policy (docs/design.md#learned-players; policies.py specifies it): model files,
decisions, both engines alike, information sets and ``cardsim train`` (bad model files and
parameters, alike in every game: tests/test_learned_models.py).
"""
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardsim.core import learned as core
from cardsim.core import models
from cardsim.core.records import frame
from cardsim.core.rules import format_call, normal_call
from cardsim.games import spec
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import learned_features as features
from cardsim.games.musta_maija.cards import BLACK_MARIA, DIAMONDS, card_list, cards, mask, rank, suit, suit_cards
from cardsim.games.musta_maija.policies import DECLARE, DEFAULT_MODEL
from cardsim.games.musta_maija.rules import MustaMaijaRules
from cardsim.learn.train import train

from learned_models import ModelFiles, check_committed_families, learned, trained_network

from .states import redealt
from .strategies import setups
from .test_mc import decide, position

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")
GAME = spec("musta_maija")
FILES = ModelFiles("musta_maija", features)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    return FILES.folder(tmp_path_factory)


def records(engine, rules, players, seed, games, seats) -> pd.DataFrame:
    games = np.asarray(games, dtype=np.int64)
    if engine == "reference":
        return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    return frame(GAME.compiled(rules, players, seed, games, seats), GAME.columns)


# --- model files and parameters ------------------------------------------------------------

def test_a_model_round_trips_with_its_digest_and_fixed_point_weights(tmp_path):
    w = np.random.default_rng(1).normal(size=(features.BLOCKS, features.N))
    path = FILES.write(tmp_path / "m.json", w)
    model = cpol.load_model(str(path))
    assert model.digest == models.digest(json.loads(path.read_text()))
    blocks = model.weights.reshape(features.BLOCKS, features.WIDTH)
    assert np.allclose(blocks[:, :features.N], w, rtol=1e-5) and not blocks[:, features.N:].any()  # no units
    row = cpol.table((learned(path),))[0]
    assert row[cpol.CODE] == cpol.LEARNED and (row[cpol.WEIGHTS:] == np.round(model.weights * features.SCALE)).all()


def test_the_committed_models_load_and_name_their_provenance():
    assert DEFAULT_MODEL in models.names("musta_maija")
    families = {"musta_maija_4p", "musta_maija_4p_agg", "musta_maija_4p_net_agg"}
    check_committed_families("musta_maija", "musta_maija", families, cpol.load_model)


def test_mc_over_a_learned_base_carries_the_weights(models_dir):
    text = normal_call(format_call("mc", {"determinizations": 4, "base": learned(models_dir / "r0.json")}))
    row = cpol.table((text,))[0]
    assert (row[cpol.DETERMINIZATIONS], row[cpol.BASE]) == (4, cpol.LEARNED)
    assert (row[cpol.WEIGHTS:] == cpol.table((learned(models_dir / "r0.json"),))[0][cpol.WEIGHTS:]).all()


# --- decisions --------------------------------------------------------------------------------

def test_a_model_of_zero_weights_plays_greedy(models_dir):
    """Every score ties, and a tie goes to the first candidate, greedy's."""
    seats = (learned(models_dir / "zero.json"), "greedy", "random", "greedy")
    pd.testing.assert_frame_equal(records("compiled", MustaMaijaRules(), 4, 5, np.arange(200), seats),
                                  records("compiled", MustaMaijaRules(), 4, 5, np.arange(200),
                                          ("greedy", "greedy", "random", "greedy")))


@given(setups(), st.integers(0, 80), st.sampled_from(["r1", "n0"]))
@settings(max_examples=40)
def test_a_learned_decision_is_the_best_scored_candidate(models_dir, setup, stop, model):
    """The move is the first candidate whose score (``core.learned.score``: a linear model, a network) no other
    candidate beats, and it is legal."""
    state, p = position(setup, stop)
    assume(C.to_act(state[0]) >= 0)
    text = learned(models_dir / f"{model}.json")
    weights, w = cpol.table((text,))[0][cpol.WEIGHTS:], C.new_work()[0]
    x = np.zeros(features.N, np.int64)
    n = C.decision_candidates(state[0], p, w["play"], 0)
    block = C.block_of(state[0], p)
    scores = []
    for i in range(n):
        C.candidate_features(state[0], p, w["play"][i], i == 0, w, x)
        scores.append(core.score(weights, block, x, features.N))
    m = decide(state, p, text)
    assert m.tobytes() == w["play"][int(np.argmax(scores))].tobytes() and C.is_legal(state[0], p, m[0])


@given(setups(), st.integers(0, 80), st.integers(0, 2**32 - 1), st.integers(1, 2**20), st.sampled_from([0, DECLARE]))
@settings(max_examples=120)
def test_the_engine_s_decision_is_the_first_best_of_the_candidates_written_out(setup, stop, seed, size, forbid):
    """``learned_move`` scores an attack's candidates as it makes them, none written out
    (``compiled_policies.best_attack``; the kept hand weighed only across declarations), weighs a defence's played
    cards only and takes a hand that beats nothing for one candidate: its decision is still the first of
    ``decision_candidates`` whose features dotted with the weights no other candidate beats, for random weights
    of either sign, small ones (ties, a copy of greedy's decision among them) and large (a linear model's: no
    units), with and without ``forbid=declare``."""
    state, p = position(setup, stop)
    assume(C.to_act(state[0]) >= 0)
    s, w = state[0], C.new_work()[0]
    weights = linear(np.random.default_rng(seed).integers(-size, size + 1, features.WEIGHTS))
    base = C.block_of(s, p) * features.WIDTH
    x = np.zeros(features.N, np.int64)
    scores = []
    for i in range(C.decision_candidates(s, p, w["play"], forbid)):
        C.candidate_features(s, p, w["play"][i], i == 0, w, x)
        scores.append(int(weights[base:base + features.N] @ x))
    m = np.zeros(1, C.MOVE)
    C.learned_move(s, p, weights, forbid, m[0], C.new_work()[0])
    assert m.tobytes() == w["play"][int(np.argmax(scores))].tobytes()


@given(setups(), st.integers(0, 80), st.integers(0, 2**32 - 1))
@settings(max_examples=40)
def test_the_engine_s_score_card_by_card_is_the_features_dotted_with_the_weights(setup, stop, seed):
    """``learned_move`` scores a candidate from per-card gains (``card_gains``, ``head_scores``) without writing its
    features out: every candidate's score equals ``candidate_features`` times the weights, exactly, for
    random weights of either sign."""
    state, p = position(setup, stop)
    assume(C.to_act(state[0]) >= 0)
    s, w = state[0], C.new_work()[0]
    weights = linear(np.random.default_rng(seed).integers(-2**20, 2**20, features.WEIGHTS))
    base = C.block_of(s, p) * features.WIDTH
    lo, hi, t_lo, t_hi = s["hands"][s["seat"], 0], s["hands"][s["seat"], 1], s["table"][0], s["table"][1]
    x = np.zeros(features.N, np.int64)
    for i in range(C.decision_candidates(s, p, w["play"], 0)):
        c = w["play"][i]
        C.candidate_features(s, p, c, i == 0, w, x)
        C.card_gains(s, p, weights, base // features.WIDTH, 1, C.trump_of(s, c), w, lo, hi)
        features.head_scores(w["dots"], weights, base // features.WIDTH, 1, w["heads"], w["kept"], i == 0,
                             c["declare"] >= 0, c["cards"][0], c["cards"][1], t_lo & ~c["beaten"][0],
                             t_hi & ~c["beaten"][1], lo, hi)
        got = w["dots"][0]
        assert got == int(weights[base:base + features.N] @ x)


@given(setups(), st.integers(0, 80), st.integers(0, 2**32 - 1), st.integers(0, 2**core.HIDDEN - 1))
@settings(max_examples=60)
def test_a_network_s_score_by_heads_is_its_score_of_the_features(setup, stop, seed, dead):
    """A network's block scores a candidate from each head's card-by-card gains (``card_gains`` of every head,
    ``head_scores``, ``core.learned.from_heads``) without writing its features out: the same integer as
    ``core.learned.score`` of ``candidate_features``, for random weights of either sign, the units in ``dead``
    given output weight 0; and the decision is the first best of them."""
    state, p = position(setup, stop)
    assume(C.to_act(state[0]) >= 0)
    s, w = state[0], C.new_work()[0]
    weights = np.random.default_rng(seed).integers(-2**20, 2**20, features.WEIGHTS)
    block = C.block_of(s, p)
    for j in range(core.HIDDEN):
        if dead >> j & 1:
            weights[core.head(block, features.N, j + 1) + features.N + 1] = 0
    assume(core.has_units(weights, block, features.N))
    lo, hi, t_lo, t_hi = s["hands"][s["seat"], 0], s["hands"][s["seat"], 1], s["table"][0], s["table"][1]
    x = np.zeros(features.N, np.int64)
    scores = []
    n = C.decision_candidates(s, p, w["play"], 0)
    for i in range(n):
        c = w["play"][i]
        C.candidate_features(s, p, c, i == 0, w, x)
        C.card_gains(s, p, weights, block, features.HEADS, C.trump_of(s, c), w, lo, hi)
        features.head_scores(w["dots"], weights, block, features.HEADS, w["heads"], w["kept"], i == 0,
                             c["declare"] >= 0, c["cards"][0], c["cards"][1], t_lo & ~c["beaten"][0],
                             t_hi & ~c["beaten"][1], lo, hi)
        scores.append(core.score(weights, block, x, features.N))
        assert core.from_heads(weights, block, features.N, w["dots"]) == scores[-1]
    m = np.zeros(1, C.MOVE)
    C.learned_move(s, p, weights, 0, m[0], C.new_work()[0])
    if n > 1:
        assert m.tobytes() == w["play"][int(np.argmax(scores))].tobytes()


def linear(weights: np.ndarray) -> np.ndarray:
    """``weights`` (``features.WEIGHTS``) with every block's units zeroed: a linear model's policy-table row."""
    blocks = weights.reshape(features.BLOCKS, features.WIDTH).copy()
    blocks[:, features.N:] = 0
    return blocks.reshape(-1)


def scalar_beaters(card: int, others: int, trump: int) -> int:
    """The cards of ``others`` that beat ``card`` (MM-8, MM-10; the Black Maria beats nothing and nothing beats it,
    MM-2), in the reference's terms."""
    if card == BLACK_MARIA:
        return 0
    return sum(1 for d in cards(others) if d != BLACK_MARIA
               and ((suit(d) == suit(card) and rank(d) > rank(card)) or (suit(d) == trump != suit(card))))


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_features_of_an_attack_read_the_view(seed):
    """The first attack of a deal under diamonds: every candidate's features, counted again from the view in
    the reference's terms (its cards, the cards it cannot place)."""
    state, p = position((MustaMaijaRules(trump="diamonds"), 4, "greedy", seed), 0)
    s, w, x = state[0], C.new_work()[0], np.zeros(features.N, np.int64)
    n = C.decision_candidates(s, p, w["play"], 0)
    hand = C.joined(*s["hands"][s["seat"]])
    others = mask(card_list(4)) & ~hand
    for i in range(n):
        C.candidate_features(s, p, w["play"][i], i == 0, w, x)
        spent = C.joined(*w["play"][i]["cards"])
        left = hand & ~spent
        f = dict(zip(features.NAMES, x))
        assert f["greedy"] == (i == 0) and f["declare"] == 0 and f["picked"] == 0
        assert (f["spent"], f["left"]) == (len(cards(spent)), len(cards(left)))
        assert f["left_trumps"] == len(cards(suit_cards(left, DIAMONDS)))
        assert f["spent_plain_ranks"] == sum(rank(c) for c in cards(spent) if suit(c) != DIAMONDS)
        assert f["beaters"] == sum(scalar_beaters(c, others, DIAMONDS) for c in cards(spent))
        assert f["unbeatable"] == sum(scalar_beaters(c, others, DIAMONDS) == 0 for c in cards(spent))
        assert f["left_unbeatable"] == sum(scalar_beaters(c, others, DIAMONDS) == 0 for c in cards(left))
        assert f["left_suits"] == len({suit(c) for c in cards(left)})


SEATS = st.sampled_from(["random", "greedy", "L0", "L1", "N0", "ML2", "MN0", "OL2"])
"""Seat policies, ``L0``, ``L1``: ``learned`` with the random models r0, r1; ``N0``: with the random network n0;
``ML2``, ``MN0``: ``mc`` with 2 worlds over ``learned`` with r2, with n0; ``OL2``: ``oracle`` with 2 worlds over r2."""


def with_models(seats, d) -> tuple[str, ...]:
    base = learned(d / "r2.json")
    names = {"L0": learned(d / "r0.json"), "L1": learned(d / "r1.json"), "N0": learned(d / "n0.json"),
             "ML2": normal_call(format_call("mc", {"determinizations": 2, "base": base})),
             "MN0": normal_call(format_call("mc", {"determinizations": 2, "base": learned(d / "n0.json")})),
             "OL2": normal_call(format_call("oracle", {"determinizations": 2, "base": base}))}
    return tuple(names.get(s, s) for s in seats)


@st.composite
def learned_setups(draw):
    """``setups`` with at least one ``learned`` seat (or a search over a learned base)."""
    rules, players, policy, seed = draw(setups(max_players=6))
    seats = list(GAME.seat_policies(policy, players))
    for seat in draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True)):
        seats[seat] = draw(SEATS)
    return rules, players, seats, seed, draw(st.integers(0, 10**6))


@settings(max_examples=25, deadline=None)
@given(learned_setups())
def test_learned_games_are_the_same_on_both_engines(models_dir, cell):
    rules, players, seats, seed, first = cell
    seats = with_models(seats, models_dir)
    games = np.arange(first, first + 3)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@settings(max_examples=40, deadline=None)
@given(setups(), st.integers(0, 60), st.integers(0, 2**64 - 1), st.sampled_from(["L0", "L1", "N0", "ML2", "MN0"]))
def test_a_learned_decision_depends_only_on_the_deciding_seats_view(models_dir, setup, stop, shuffle_key, name):
    """The cards the seat cannot see (the other hands' unknown cards, the stock's order, the deck's history)
    dealt again: the same decision."""
    state, p = position(setup, stop)
    seat = C.to_act(state[0])
    assume(seat >= 0)
    text = with_models((name,), models_dir)[0]
    assert decide(state, p, text).tobytes() == decide(redealt(state, seat, shuffle_key), p, text).tobytes()


@pytest.mark.parametrize("preset, players", [("musta_maija", 4), ("house", 3), ("turned", 6), ("black_trump", 2)])
def test_the_committed_model_plays_alike_on_both_engines_and_warns_under_other_rules(preset, players):
    rules = MustaMaijaRules.preset(preset)
    seats = ("learned", "greedy", "mc(determinizations=2, base=learned)", "random", "learned", "greedy")[:players]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pd.testing.assert_frame_equal(records("reference", rules, players, 11, np.arange(8), seats),
                                      records("compiled", rules, players, 11, np.arange(8), seats))
    said = {str(w.message) for w in caught}
    assert said == (set() if (preset, players) == ("musta_maija", 4) else
                    {f"{DEFAULT_MODEL}.json: a model trained for musta_maija at 4 players plays {preset} at "
                     f"{players} players"})


# --- training ------------------------------------------------------------------------------------

def test_train_fits_a_network_with_hidden_units(tmp_path):
    """``--hidden 2`` (``trained_network``: the file's width and units, another ``--hidden`` refused): the file
    plays alike on both engines."""
    path = trained_network("musta_maija", features, tmp_path)
    seats = (learned(path), "greedy", learned(path), "random")
    pd.testing.assert_frame_equal(records("reference", MustaMaijaRules(), 4, 9, np.arange(4), seats),
                                  records("compiled", MustaMaijaRules(), 4, 9, np.arange(4), seats))


@pytest.mark.long
def test_train_writes_generations_with_provenance_and_resumes(tmp_path):
    """Two small generations: each names its parent and teacher; a second run finds them and trains nothing."""
    args = dict(players=3, generations=2, positions=60, teacher="mc(determinizations=2)", seed=5, out=tmp_path,
                progress=False)
    paths = train("musta_maija", "five_cards", **args)
    first, second = (cpol.load_model(str(p)).content for p in paths)
    assert [p.name for p in paths] == ["five_cards_3p_g1.json", "five_cards_3p_g2.json"]
    assert (first["parent"], second["parent"]) == (None, first["digest"])
    assert first["teacher"] == "mc(determinizations=2, base='greedy')"
    assert second["teacher"] == "mc(determinizations=2, base='learned(model=five_cards_3p_g1)')"
    assert second["positions"] == 60 and second["fit"]["candidates"] > 60
    stamps = [p.stat().st_mtime_ns for p in paths]
    assert train("musta_maija", "five_cards", **args) == paths and [p.stat().st_mtime_ns for p in paths] == stamps
