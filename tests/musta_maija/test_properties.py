"""Properties of whole games: card conservation and legality after every move (checked
by an oracle written here from the rules text, not by the engine's own checks), one
loser per finished game, determinism, and vector engine = reference engine."""
import importlib
import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core.records import frame
from cardsim.games import spec
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija.cards import BLACK_MARIA, card_list, mask, rank, suit
from cardsim.games.musta_maija.rules import MustaMaijaRules

GAME = spec("musta_maija")


@st.composite
def setups(draw, max_players=8):
    """Random knobs, player count, per-seat policies and seed that the rules accept."""
    players = draw(st.integers(2, max_players))
    knobs = dict(trump=draw(st.sampled_from(["marriage", "diamonds", "turned"])),
                 black_maria=draw(st.sampled_from(["unbeatable", "highest_trump"])),
                 hand_size=draw(st.integers(1, 9)),
                 max_turns=draw(st.sampled_from([1, 2, 7, 40, 10_000])))
    rules = MustaMaijaRules(**knobs)
    try:
        rules.check_players(players)
    except ValueError:
        rules = rules.replace(hand_size=5)
    seats = draw(st.sampled_from(["random", "greedy", "mixed"]))
    policy = [draw(st.sampled_from(["random", "greedy"])) for _ in range(players)] if seats == "mixed" else seats
    return rules, players, policy, draw(st.integers(0, 2**32))


def oracle_beats(beater: int, card: int, trump: int, black_maria: str) -> bool:
    """MM-2, MM-3, MM-8 read straight from the rules file."""
    if card == BLACK_MARIA:
        return False
    if beater == BLACK_MARIA:
        return black_maria == "highest_trump"
    same = suit(beater) == suit(card)
    return (same and rank(beater) > rank(card)) or (not same and suit(beater) == trump)


def check_move(event, rules: MustaMaijaRules) -> None:
    kind, seat, hand, cards, extra = event
    if kind == "attack":  # MM-9, MM-13
        chosen = ref.cards(cards)
        assert chosen and cards & ~hand == 0 and len({suit(x) for x in chosen}) == 1
        assert extra is None or len(chosen) <= extra
    elif kind == "defence":  # MM-10
        pairs, trump = extra
        beaters = [b for b, _ in pairs]
        beaten = [a for _, a in pairs]
        assert len(set(beaters)) == len(beaters) and len(set(beaten)) == len(beaten)
        assert mask(beaters) & ~hand == 0 and mask(beaten) & ~cards == 0
        assert all(oracle_beats(b, a, trump, rules.black_maria) for b, a in pairs)
    else:  # MM-5
        held = {(suit(x), rank(x)) for x in ref.cards(hand)}
        assert rules.trump == "marriage" and cards != 3 and {(cards, 10), (cards, 11)} <= held


@given(setups())
def test_cards_are_conserved_and_only_legal_moves_are_made(setup):
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    every = mask(card_list(players))
    t = None
    for t in ref.play_states(rules, players, seed, 0, seats):
        parts = [*t.hands, mask(t.stock), t.table, t.discard]
        assert sum(parts) == every and np.bitwise_or.reduce(np.array(parts, dtype=object)) == every
        assert len(t.stock) == len(set(t.stock))
    for event in t.events:
        check_move(event, rules)


@given(setups())
def test_a_finished_game_has_exactly_one_loser_or_a_recorded_truncation(setup):
    rules, players, policy, seed = setup
    rec = cardsim.replay("musta_maija", rules, players=players, seed=seed, game=3, policy=policy).record
    if rec["truncated"]:
        assert rec["loser"] == -1 and rec["turns"] == rules.max_turns
    else:
        assert rec["turns"] <= rules.max_turns and rec["first_out"] >= 0
        assert rec["loser"] >= 0 or rules.black_maria == "highest_trump"  # everyone out at once
        if rules.black_maria == "unbeatable" and players <= 5:
            assert rec["loser"] == rec["black_maria_holder"]  # MM-14


@given(setups(), st.integers(0, 50))
def test_vector_equals_reference_on_random_knobs_players_policies_and_seeds(setup, first):
    rules, players, policy, seed = setup
    kw = dict(players=players, games=4, seed=seed, policy=policy, first_game=first)
    v = cardsim.simulate("musta_maija", rules, engine="vector", **kw)
    r = cardsim.simulate("musta_maija", rules, engine="reference", **kw)
    pd.testing.assert_frame_equal(v, r)


def test_determinism_alone_in_a_batch_and_shifted_and_blind_to_global_rngs():
    r = cardsim.rules("musta_maija", "black_trump")
    random.seed(1)
    np.random.seed(1)
    batch = cardsim.simulate("musta_maija", r, players=6, games=30, seed=4, policy=["greedy", "random"] * 3)
    random.seed(2)
    np.random.seed(2)
    shifted = cardsim.simulate("musta_maija", r, players=6, games=10, seed=4, first_game=20,
                               policy=["greedy", "random"] * 3)
    pd.testing.assert_frame_equal(batch.iloc[20:].reset_index(drop=True), shifted)
    alone = cardsim.replay("musta_maija", r, players=6, seed=4, game=25, policy=["greedy", "random"] * 3)
    assert alone.record == batch.iloc[25].to_dict()
    pd.testing.assert_frame_equal(batch, cardsim.simulate("musta_maija", r, players=6, games=30, seed=4,
                                                          policy=["greedy", "random"] * 3, chunk_size=7))


def differential(games_per_case: int, seed: int) -> int:
    """Vector vs reference over every preset, player count and policy mix; mismatching games."""
    mismatches = 0
    for i, preset in enumerate(GAME.rules.PRESETS):
        for players in range(2, 9):
            for policy in ("random", "greedy", "mixed"):
                seats = (tuple(("random", "greedy")[s % 2] for s in range(players)) if policy == "mixed"
                         else (policy,) * players)
                rules = GAME.rules.preset(preset)
                games = np.arange(games_per_case, dtype=np.int64) + 1000 * i
                v = frame(GAME.compiled(rules, players, seed, games, seats), GAME.columns)
                r = frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
                mismatches += int((v != r).any(axis=1).sum())
    return mismatches


def test_differential_ci_sized():
    assert differential(games_per_case=3, seed=11) == 0  # 5 presets x 7 player counts x 3 = 315 games


@pytest.mark.slow
def test_differential_slow(scaled):
    per_case = -(-scaled(10_000) // 105)  # 5 presets x 7 player counts x 3 policy mixes = 105 cases
    mismatches = differential(games_per_case=per_case, seed=12)
    print(f"musta_maija slow differential: {per_case * 105} games, {mismatches} mismatches")
    assert mismatches == 0


@pytest.mark.slow
def test_one_deck_unbeatable_loser_always_holds_the_black_maria(scaled):
    """MM-14 on the vector engine: with one deck and an unbeatable Black Maria, loser = holder."""
    games = scaled(1_000_000, floor=20_000)
    exceptions = 0
    for players in (2, 3, 4, 5):
        df = cardsim.simulate("musta_maija", players=players, games=games // 4, seed=players,
                              policy=("greedy", "random", "greedy", "random", "greedy") if players == 5 else "random")
        done = df[~df.truncated]
        exceptions += int((done.loser != done.black_maria_holder).sum())
    print(f"musta_maija Black Maria invariant: {games // 4 * 4} games, {exceptions} exceptions")
    assert exceptions == 0


def test_tail_hand_off_to_the_reference_engine_changes_no_record():
    """Game 321 (6 players, greedy, seed 1) circles until truncated: it is handed off after 1,000 decisions."""
    vector = importlib.import_module("cardsim.games.musta_maija.vector")
    rules = cardsim.rules("musta_maija", max_turns=1500)
    games, seats = np.arange(315, 325), ("greedy",) * 6
    handed = frame(vector.vector(rules, 6, 1, games, seats), GAME.columns)
    numpy_only = frame(vector.vector(rules, 6, 1, games, seats, handoff=False), GAME.columns)
    pd.testing.assert_frame_equal(handed, numpy_only)
    assert handed.truncated.sum() == 1 and handed.turns.max() == 1500 > vector.HANDOFF_TURNS
    reference_rows = frame([GAME.play(rules, 6, 1, int(g), seats).record for g in games], GAME.columns)
    pd.testing.assert_frame_equal(handed, reference_rows)
