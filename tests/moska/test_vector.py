"""The Moska vector engine against the reference engine, record for record.

Differential tests (hypothesis) over every knob, 2-8 players, both policies and mixed
seats, seeds and game offsets; a CI-sized run over the presets; a ``slow`` run of
``scaled(10_000)`` games; the invariants of ``benchmarks/invariants_moska.py`` (card
conservation after every tick, legal moves, one result per game) on random knobs.
Small batch capacities make games leave the batch and new deals take their places
(compaction) within a few games.
"""
import importlib.util
import pathlib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core.cards import BIT
from cardsim.core.records import frame
from cardsim.games.moska import GAME, reference, vector
from cardsim.games.moska.rules import MoskaRules

from .strategies import setups


def reference_frame(rules, players, seed, games, seats) -> pd.DataFrame:
    return frame([reference.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)


def vector_frame(rules, players, seed, games, seats, capacity=vector.CAPACITY) -> pd.DataFrame:
    return frame(vector.simulate(rules, players, seed, games, seats, capacity=capacity), GAME.columns)


def assert_same_records(rules, players, seed, games, seats, capacity=vector.CAPACITY) -> None:
    want = reference_frame(rules, players, seed, games, seats)
    got = vector_frame(rules, players, seed, games, seats, capacity)
    bad = (want != got).any(axis=1).to_numpy()
    assert not bad.any(), (f"{rules.describe()} {players}p {seats} seed {seed}: games "
                           f"{want.game[bad].tolist()[:5]}\n{want[bad].head(3)}\n{got[bad].head(3)}")
    pd.testing.assert_frame_equal(want, got)


@given(setups(), st.integers(1, 12))
def test_every_column_of_every_record_equals_the_reference(cell, capacity):
    rules, players, seats, seed, first = cell
    assert_same_records(rules, players, seed, np.arange(first, first + 12), seats, capacity)


@pytest.mark.parametrize("preset", ["moska", "turamoska", "pyhaselka", "taraki"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_ci_sized_run_equals_the_reference(preset, players):
    seats = ("greedy", "random") * 4
    for policy in ("random", "greedy", seats[:players]):
        policy = (policy,) * players if isinstance(policy, str) else policy
        assert_same_records(MoskaRules.preset(preset), players, 11, np.arange(40), policy, capacity=16)


def test_cycling_greedy_game_is_fast_forwarded_exactly():
    # game 18209 of seed 1 (4 greedy players) cycles until M-21 truncates it at 10,000 decisions
    rules, seats = MoskaRules(), ("greedy",) * 4
    got = vector_frame(rules, 4, 1, np.array([18209]), seats)
    assert bool(got.truncated[0]) and got.turns[0] == rules.max_turns
    assert_same_records(rules, 4, 1, np.array([18209]), seats)
    assert_same_records(rules.replace(max_turns=777), 4, 1, np.array([18209]), seats)


@given(setups(), st.integers(1, 30))
def test_a_game_is_the_same_alone_in_any_batch_and_in_any_chunk(cell, k):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 30)
    whole = vector_frame(rules, players, seed, games, seats)
    alone = vector_frame(rules, players, seed, games[k - 1:k], seats)
    pd.testing.assert_frame_equal(whole.iloc[k - 1:k].reset_index(drop=True), alone)
    pd.testing.assert_frame_equal(whole, vector_frame(rules, players, seed, games, seats, capacity=k))


def test_vector_is_the_default_engine_and_jobs_do_not_change_rows():
    kw = dict(players=5, games=60, seed=3, policy=["greedy", "random", "random", "greedy", "random"])
    default = cardsim.simulate("moska", "turamoska", **kw)
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", engine="reference", **kw))
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", n_jobs=2, chunk_size=7, **kw))


def test_empty_game_list_gives_empty_columns():
    cols = vector.simulate(MoskaRules(), 4, 0, np.array([], dtype=np.int64), ("random",) * 4)
    assert set(cols) == {c.name for c in GAME.columns} and all(len(v) == 0 for v in cols.values())


@pytest.mark.slow
def test_slow_differential_run_equals_the_reference(scaled):
    n = scaled(10_000)
    cells_ = [(preset, players, policy) for preset in ("moska", "turamoska", "pyhaselka", "taraki")
              for players, policy in ((4, "greedy"), (4, "random"), (3, "mixed"), (6, "random"), (2, "greedy"))]
    per_cell = -(-n // len(cells_))
    for i, (preset, players, policy) in enumerate(cells_):
        seats = ("greedy", "random", "random")[:players] if policy == "mixed" else (policy,) * players
        assert_same_records(MoskaRules.preset(preset), players, 100 + i, np.arange(per_cell), seats)


def _invariants_script():
    """``benchmarks/invariants_moska.py``: its checked engine counts violated invariants while it plays."""
    path = pathlib.Path(__file__).parents[2] / "benchmarks" / "invariants_moska.py"
    spec = importlib.util.spec_from_file_location("invariants_moska", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


INVARIANTS = _invariants_script()
VIOLATIONS = ("cards", "table", "out_holds_cards", "illegal_open", "illegal_kill", "illegal_self_attack",
              "illegal_add", "illegal_give_back", "result", "determinism")


@given(setups(), st.integers(1, 12))
def test_cards_are_conserved_moves_are_legal_and_each_game_has_one_result(cell, capacity):
    rules, players, seats, seed, first = cell
    counts = INVARIANTS.check_games(rules, players, seed, np.arange(first, first + 24), seats, capacity)
    assert counts["games"] == 24 and {k: counts[k] for k in VIOLATIONS if counts[k]} == {}


def test_the_invariant_checks_see_a_duplicated_card():
    class Duplicating(INVARIANTS.CheckedEngine):
        def end_round(self, b, m):
            super().end_round(b, m)
            b.hands[:, 0] |= np.where(m & (b.rounds == 3), BIT[51], np.uint64(0))

    engine = Duplicating(MoskaRules(), 4, 1, ("random",) * 4, capacity=64)
    for _ in engine.run(np.arange(64)):
        pass
    assert engine.violations["cards"] > 0
