"""Properties of whole games: card conservation and legality after every move (checked
by an oracle written here from the rules text, not by the engine's own checks), one
loser per finished game, determinism, compiled engine = reference engine, and the
``house`` preset = the records of the rules before MM-9's ``refill`` and MM-10's
``must_beat`` existed."""
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core.records import frame
from cardsim.games import spec
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija import seating
from cardsim.games.musta_maija.cards import BLACK_MARIA, card_list, mask, rank, suit
from cardsim.games.musta_maija.rules import MustaMaijaRules

from .strategies import setups

GAME = spec("musta_maija")


def oracle_beats(beater: int, card: int, trump: int, black_maria: str) -> bool:
    """MM-2, MM-3, MM-8 read straight from the rules file."""
    if card == BLACK_MARIA:
        return False
    if beater == BLACK_MARIA:
        return black_maria == "highest_trump"
    same = suit(beater) == suit(card)
    return (same and rank(beater) > rank(card)) or (not same and suit(beater) == trump)


def oracle_can_beat_all(hand: int, table: int, trump: int, black_maria: str) -> bool:
    """MM-10 "can beat every attack card", by Hall's theorem read off MM-2, MM-3, MM-8.

    The table holds one suit s. A card of suit s in hand beats the attack cards below its
    rank; a trump (s not trump) or a highest-trump Black Maria beats any; nothing beats
    the Black Maria. Attack sets with the same lowest rank have the same beaters, so
    Hall's condition need only be checked on "every attack card of rank >= r".
    """
    attack = ref.cards(table)
    if BLACK_MARIA in attack:
        return False
    s = suit(attack[0])
    own = [x for x in ref.cards(hand) if x != BLACK_MARIA]
    maria_beats = black_maria == "highest_trump" and bool(hand >> BLACK_MARIA & 1)
    anything = sum(suit(x) == trump != s for x in own) + maria_beats
    return all(sum(rank(a) >= rank(low) for a in attack)
               <= sum(suit(x) == s and rank(x) > rank(low) for x in own) + anything for low in attack)


def check_move(event, rules: MustaMaijaRules) -> None:
    kind, seat, hand, cards, extra = event
    if kind == "attack":  # MM-9, MM-13
        chosen = ref.cards(cards)
        assert chosen and cards & ~hand == 0 and len({suit(x) for x in chosen}) == 1
        assert extra is None or len(chosen) <= extra
    elif kind == "defence":  # MM-10
        pairs, trump, must = extra
        beaters = [b for b, _ in pairs]
        beaten = [a for _, a in pairs]
        assert len(set(beaters)) == len(beaters) and len(set(beaten)) == len(beaten)
        assert mask(beaters) & ~hand == 0 and mask(beaten) & ~cards == 0
        assert all(oracle_beats(b, a, trump, rules.black_maria) for b, a in pairs)
        bound = rules.must_beat == "all_if_possible" and oracle_can_beat_all(hand, cards, trump, rules.black_maria)
        assert must == bound and (not bound or mask(beaten) == cards)
    else:  # MM-5
        held = {(suit(x), rank(x)) for x in ref.cards(hand)}
        assert rules.trump == "marriage" and cards != 3 and {(cards, 10), (cards, 11)} <= held


@given(setups(mc=True))
def test_cards_are_conserved_and_only_legal_moves_are_made(setup):
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    every = mask(card_list(players))
    t = None
    for t in seating.play_states(rules, players, seed, 0, seats):
        parts = [*t.hands, mask(t.stock), t.table, t.discard]
        assert sum(parts) == every and np.bitwise_or.reduce(np.array(parts, dtype=object)) == every
        assert len(t.stock) == len(set(t.stock))
    for event in t.events:
        check_move(event, rules)


@given(setups())
def test_an_attacker_refills_by_the_refill_knob(setup):
    """MM-9 over whole games: ``played`` draws as many as played, ``to_hand_size`` up to the hand size."""
    rules, players, policy, seed = setup
    seats = GAME.seat_policies(policy, players)
    before = None
    for t in seating.play_states(rules, players, seed, 0, seats):
        attacks = [e for e in t.events if e[0] == "attack"]
        if before is not None and len(attacks) > before[0]:
            _, seat, hand, played, _ = attacks[-1]
            n, stock = len(ref.cards(played)), before[1]
            wanted = n if rules.refill == "played" else max(0, rules.hand_size - len(ref.cards(hand)) + n)
            assert len(stock) - len(t.stock) == min(wanted, len(stock))
            assert t.hands[seat] == (hand & ~played) | mask(stock[:min(wanted, len(stock))])
        before = (len(attacks), list(t.stock))

@given(setups())
def test_a_finished_game_has_exactly_one_loser_or_a_recorded_truncation(setup):
    rules, players, policy, seed = setup
    rec = cardsim.replay("musta_maija", rules, players=players, seed=seed, game=3, policy=policy).record
    if rec["truncated"]:  # MM-16 at max_turns decisions; MM-18 (the repetition knob) before it
        assert rec["loser"] == -1
        assert rec["turns"] == rules.max_turns or (rules.repetition and rec["turns"] < rules.max_turns)
    else:
        assert rec["turns"] <= rules.max_turns and rec["first_out"] >= 0
        assert rec["loser"] >= 0 or rules.black_maria == "highest_trump"  # everyone out at once
        if rules.black_maria == "unbeatable" and players <= 5:
            assert rec["loser"] == rec["black_maria_holder"]  # MM-14
        order = [int(s) for s in rec["finish_order"].split(",")]  # MM-14: every seat but the loser, once
        everyone = sorted(order + [rec["loser"]] * (rec["loser"] >= 0))
        assert order[0] == rec["first_out"] and everyone == list(range(players))


@given(setups(), st.integers(0, 50))
def test_compiled_equals_reference_on_random_knobs_players_policies_and_seeds(setup, first):
    rules, players, policy, seed = setup
    kw = dict(players=players, games=4, seed=seed, policy=policy, first_game=first)
    v = cardsim.simulate("musta_maija", rules, engine="compiled", **kw)
    r = cardsim.simulate("musta_maija", rules, engine="reference", **kw)
    pd.testing.assert_frame_equal(v, r)


def test_determinism_alone_in_a_batch_shifted_chunked_in_jobs_and_blind_to_global_rngs():
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
    for chunks in (dict(chunk_size=7), dict(chunk_size=4, n_jobs=2)):
        pd.testing.assert_frame_equal(batch, cardsim.simulate("musta_maija", r, players=6, games=30, seed=4,
                                                              policy=["greedy", "random"] * 3, **chunks))


def differential(games_per_case: int, seed: int) -> int:
    """Compiled vs reference over every preset, player count and policy mix; mismatching games."""
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
    assert differential(games_per_case=3, seed=11) == 0  # 6 presets x 7 player counts x 3 = 378 games


@pytest.mark.slow
def test_differential_slow(scaled):
    per_case = -(-scaled(10_000) // 126)  # 6 presets x 7 player counts x 3 policy mixes = 126 cases
    mismatches = differential(games_per_case=per_case, seed=12)
    print(f"musta_maija slow differential: {per_case * 126} games, {mismatches} mismatches")
    assert mismatches == 0


@pytest.mark.slow
def test_one_deck_unbeatable_loser_always_holds_the_black_maria(scaled):
    """MM-14 on the compiled engine: with one deck and an unbeatable Black Maria, loser = holder."""
    games = scaled(1_000_000, floor=20_000)
    exceptions = 0
    for players in (2, 3, 4, 5):
        df = cardsim.simulate("musta_maija", players=players, games=games // 4, seed=players,
                              policy=("greedy", "random", "greedy", "random", "greedy") if players == 5 else "random")
        done = df[~df.truncated]
        exceptions += int((done.loser != done.black_maria_holder).sum())
    print(f"musta_maija Black Maria invariant: {games // 4 * 4} games, {exceptions} exceptions")
    assert exceptions == 0


HOUSE_RECORDS = Path(__file__).parent / "data" / "house_records.csv"


@pytest.mark.long
def test_the_house_preset_reproduces_the_records_of_the_previous_rules():
    """``house`` = the rules before MM-9's ``refill`` and MM-10's ``must_beat`` existed.

    data/house_records.csv was written by the lockstep engine of commit fd01dc1 (the
    previous rules, no such knobs, no ``finish_order``): each row is game ``game`` of
    ``cardsim.simulate("musta_maija", rules, players=..., seed=..., policy=seats)``,
    seats "mixed" meaning random, greedy, random, ... The same games under the same rules
    with ``refill="to_hand_size", must_beat="free"`` must give the same records.
    """
    stored = pd.read_csv(HOUSE_RECORDS)
    cells = stored.groupby(["rules", "seed", "players", "seats"], sort=False)
    assert len(cells) == 7 * 7 * 3 and stored.truncated.any() and (stored.trump_declared_turn >= 0).any()
    for (rules, seed, players, seats), cell in cells:
        policy = [("random", "greedy")[s % 2] for s in range(players)] if seats == "mixed" else seats
        house = cardsim.rules("musta_maija", rules, refill="to_hand_size", must_beat="free")
        for engine in ("reference", "compiled"):
            fresh = cardsim.simulate("musta_maija", house, players=players, games=len(cell), seed=seed, policy=policy,
                                     first_game=int(cell.game.iloc[0]), engine=engine)
            pd.testing.assert_frame_equal(fresh[cell.columns[4:]], cell[cell.columns[4:]].reset_index(drop=True),
                                          check_dtype=False)
