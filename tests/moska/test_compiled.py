"""The Moska compiled engine against the reference engine, record for record; its state API.

Differential tests (hypothesis) over every knob, 2-8 players, both policies and mixed
seats, seeds and game offsets; a CI-sized run over the presets; a ``slow`` run of
``scaled(10_000)`` games; the invariants of ``benchmarks/invariants_moska.py`` (card
conservation after every decision, legal moves, one result per game) on random knobs.
Records do not depend on how games are split into calls, chunks or jobs. The state API:
a copied mid-game state plays out without touching the original, and playing out from
any decision gives the record of the game played straight through. A cold compile is
announced and cached where NUMBA_CACHE_DIR says.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core.records import finish_strings, frame
from cardsim.games.moska import GAME, compiled
from cardsim.games.moska.rules import MoskaRules

from .states import INVARIANTS, Game, assert_same_decision, hidden_cards_dealt_again
from .strategies import setups


def reference_frame(rules, players, seed, games, seats) -> pd.DataFrame:
    return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)


def compiled_frame(rules, players, seed, games, seats) -> pd.DataFrame:
    return frame(compiled.simulate(rules, players, seed, games, seats), GAME.columns)


def assert_same_records(rules, players, seed, games, seats) -> None:
    want = reference_frame(rules, players, seed, games, seats)
    got = compiled_frame(rules, players, seed, games, seats)
    bad = (want != got).any(axis=1).to_numpy()
    assert not bad.any(), (f"{rules.describe()} {players}p {seats} seed {seed}: games "
                           f"{want.game[bad].tolist()[:5]}\n{want[bad].head(3)}\n{got[bad].head(3)}")
    pd.testing.assert_frame_equal(want, got)


@given(setups())
def test_every_column_of_every_record_equals_the_reference(cell):
    rules, players, seats, seed, first = cell
    assert_same_records(rules, players, seed, np.arange(first, first + 12), seats)


@pytest.mark.parametrize("preset", ["moska", "turamoska", "pyhaselka", "taraki"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_ci_sized_run_equals_the_reference(preset, players):
    seats = ("greedy", "random") * 4
    for policy in ("random", "greedy", seats[:players]):
        policy = (policy,) * players if isinstance(policy, str) else policy
        assert_same_records(MoskaRules.preset(preset), players, 11, np.arange(40), policy)


TARAKI = MoskaRules.preset("taraki")
REPORTED_TARAKI = TARAKI.replace(defender_closes=False, excess_return="defender")
ISSUE_12_GAMES = [  # the games of issue 12 that broke a rule before protocol v2 (see test_reference_reproductions)
    (MoskaRules(), 2, 11, 22, "greedy"),  # M-6
    (TARAKI, 4, 99, 941, "random"), (REPORTED_TARAKI, 4, 99, 941, "random"),  # M-14 six cards
    (TARAKI.replace(hand_size=12), 4, 13, 16, "random"), (REPORTED_TARAKI.replace(hand_size=12), 4, 13, 16, "random"),
    (TARAKI, 2, 11, 8, "random"), (REPORTED_TARAKI, 2, 11, 8, "random"),  # M-14 no virpiminen
    (TARAKI.replace(cap_mode="unkilled"), 4, 5, 0, "random"),  # M-14 unkilled-mode hand check
    (REPORTED_TARAKI.replace(cap_mode="unkilled"), 4, 5, 0, "random"),
    (MoskaRules.preset("pyhaselka"), 3, 11, 2, "greedy"),  # M-15
]


@pytest.mark.parametrize("rules, players, seed, game, policy", ISSUE_12_GAMES)
def test_the_games_of_issue_12_equal_the_reference(rules, players, seed, game, policy):
    """Rules M-6, M-14, M-15 of docs/rules/moska.md (revised): the reproduced games, on both engines."""
    assert_same_records(rules, players, seed, np.array([game]), (policy,) * players)


def test_a_cycling_greedy_game_is_played_to_truncation():
    # game 18209 of seed 1 (4 greedy players) cycles until M-21 truncates it at 10,000 decisions
    rules, seats = MoskaRules(), ("greedy",) * 4
    got = compiled_frame(rules, 4, 1, np.array([18209]), seats)
    assert bool(got.truncated[0]) and got.turns[0] == rules.max_turns
    assert_same_records(rules, 4, 1, np.array([18209]), seats)
    assert_same_records(rules.replace(max_turns=777), 4, 1, np.array([18209]), seats)


@given(setups(), st.integers(1, 30))
def test_a_game_is_the_same_alone_and_in_any_split_of_the_games(cell, k):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 30)
    whole = compiled_frame(rules, players, seed, games, seats)
    alone = compiled_frame(rules, players, seed, games[k - 1:k], seats)
    pd.testing.assert_frame_equal(whole.iloc[k - 1:k].reset_index(drop=True), alone)
    parts = [compiled_frame(rules, players, seed, games[i:i + k], seats) for i in range(0, len(games), k)]
    pd.testing.assert_frame_equal(whole, pd.concat(parts, ignore_index=True))


def test_compiled_is_the_default_engine_and_jobs_and_chunks_do_not_change_rows():
    kw = dict(players=5, games=60, seed=3, policy=["greedy", "random", "random", "greedy", "random"])
    default = cardsim.simulate("moska", "turamoska", **kw)
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", engine="reference", **kw))
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", engine="vector", **kw))
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", n_jobs=2, chunk_size=7, **kw))
    pd.testing.assert_frame_equal(default, cardsim.simulate("moska", "turamoska", chunk_size=1, **kw))


def test_empty_game_list_gives_empty_columns():
    cols = compiled.simulate(MoskaRules(), 4, 0, np.array([], dtype=np.int64), ("random",) * 4)
    assert set(cols) == {c.name for c in GAME.columns} and all(len(v) == 0 for v in cols.values())


def test_seeds_up_to_two_to_the_64_minus_one():
    seed = 2**64 - 1
    assert_same_records(MoskaRules(), 3, seed, np.array([0, 7, 2**40]), ("random",) * 3)


@pytest.mark.slow
def test_slow_differential_run_equals_the_reference(scaled):
    n = scaled(10_000)
    cells_ = [(preset, players, policy) for preset in ("moska", "turamoska", "pyhaselka", "taraki")
              for players, policy in ((4, "greedy"), (4, "random"), (3, "mixed"), (6, "random"), (2, "greedy"))]
    per_cell = -(-n // len(cells_))
    for i, (preset, players, policy) in enumerate(cells_):
        seats = ("greedy", "random", "random")[:players] if policy == "mixed" else (policy,) * players
        assert_same_records(MoskaRules.preset(preset), players, 100 + i, np.arange(per_cell), seats)


FIVE_GAMES = "import cardsim; print(cardsim.simulate('moska', players=3, games=5, seed=1).loser.tolist())"


def test_a_cold_compile_is_announced_on_stderr_and_cached_in_NUMBA_CACHE_DIR(tmp_path):
    """A fresh process with an empty cache compiles and says so; the cache lands in NUMBA_CACHE_DIR (so a
    read-only install works); the next process loads it silently and plays the same games."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    cold = subprocess.run([sys.executable, "-c", FIVE_GAMES], env=env, capture_output=True, text=True, check=True)
    assert re.search(r"cardsim: compiled the moska engine in \d+\.\d s \(once; cached in ", cold.stderr)
    assert str(tmp_path) in cold.stderr and list(tmp_path.rglob("compiled.run_plain-*.nbi"))
    warm = subprocess.run([sys.executable, "-c", FIVE_GAMES], env=env, capture_output=True, text=True, check=True)
    assert "compiled the moska engine" not in warm.stderr
    want = cardsim.simulate("moska", players=3, games=5, seed=1).loser.tolist()
    assert cold.stdout == warm.stdout == f"{want}\n"




@given(setups())
def test_cards_are_conserved_moves_are_legal_and_each_game_has_one_result(cell):
    rules, players, seats, seed, first = cell
    counts = INVARIANTS.check_games(rules, players, seed, np.arange(first, first + 24), seats)
    assert counts["games"] == 24 and counts["decisions"] > 0
    assert {k: counts[k] for k in INVARIANTS.VIOLATIONS if counts[k]} == {}


def test_the_invariant_checks_see_a_duplicated_card_a_false_known_card_and_an_illegal_opening():
    g = Game(MoskaRules(), 4, 1, 0, ("random",) * 4)
    counts = np.zeros(len(INVARIANTS.VIOLATIONS) + len(INVARIANTS.OUTCOMES), dtype=np.int64)
    INVARIANTS.check_state(g.s, g.p, counts)
    assert not counts.any()
    hand = int(g.s["hands"][1])
    g.s["known"][0] = hand & -hand  # a card of seat 1 said to be in seat 0's hand
    INVARIANTS.check_state(g.s, g.p, counts)
    assert counts[INVARIANTS.KNOWN] == 1 and counts[INVARIANTS.CARDS] == 0
    g.s["hands"][0] |= g.s["known"][0]  # now it is in both hands
    INVARIANTS.check_state(g.s, g.p, counts)
    assert counts[INVARIANTS.CARDS] == 1
    move = np.zeros(1, compiled.MOVE)[0]
    move["cards"] = hand & -hand | 1 << (hand.bit_length() - 1)  # two cards: lowest and highest code
    INVARIANTS.check_move(g.s, g.p, move, counts)
    same_rank = (hand & -hand).bit_length() % 13 == hand.bit_length() % 13
    assert counts[INVARIANTS.ILLEGAL_OPEN] == int(not same_rank)


# --- the state API ------------------------------------------------------------------------

@given(setups(), st.integers(0, 200))
def test_a_copied_mid_game_state_plays_out_and_leaves_the_original_unchanged(cell, decisions):
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    for _ in range(decisions):
        if compiled.to_act(g.s) < 0:
            break
        g.step()
    before = g.state.copy()
    copy = np.zeros(1, compiled.STATE)
    compiled.copy_state(copy, g.s)
    assert copy.tobytes() == before.tobytes()
    out = g.play_out(copy)
    assert compiled.to_act(out) == -1
    assert g.state.tobytes() == before.tobytes()  # the original is untouched
    assert g.record(out) == g.record(g.play_out())  # and plays out to the same end


@given(setups(), st.data())
def test_playing_out_from_any_decision_gives_the_record_of_the_game_played_straight_through(cell, data):
    rules, players, seats, seed, game = cell
    straight = compiled.simulate(rules, players, seed, np.array([game]), seats)
    g = Game(rules, players, seed, game, seats)
    stop = data.draw(st.integers(0, int(straight["turns"][0])))
    for _ in range(stop):
        g.step()
    rec = g.record(g.play_out())
    for f in ("turns", "truncated", "loser", "rounds", "swaps", "overplays", "pickups", "self_attacks"):
        assert rec[f] == straight[f][0], f
    assert rec["trump_suit"] == straight["trump_suit"][0]
    assert finish_strings(np.array([rec["finish"]]), players)[0] == straight["finish_order"][0]


@given(setups())
def test_a_decision_depends_only_on_the_deciding_seats_view(cell):
    """``choose`` reads the seat's own hand and public facts: at every decision of a game, dealing the
    cards the seat cannot see again (other hands, the stock) changes nothing it decides."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    gen = np.random.default_rng(game)
    a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
    for _ in range(300):
        seat = compiled.to_act(g.s)
        if seat < 0:
            break
        other = hidden_cards_dealt_again(g.s, g.p, seat, players, gen)
        assert_same_decision(g, other, a, b)
        g.step()
