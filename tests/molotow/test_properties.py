"""Property tests of Molotow: cards played once, only legal cards, 157 points a hand, one result a game,
determinism, and the compiled twins (legal moves, policies, scoring) equal to the scalar ones on random input."""
import random

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core.cards import cards_of
from cardsim.games.molotow import hands_table
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow import policies as pol
from cardsim.games.molotow.cards import DECK, NO_TRUMP, TRUMP_POWER, UNDER
from cardsim.games.molotow.reference import Decision, legal_moves, score_hand, tie_draw
from cardsim.games.molotow.rules import MolotowRules
from cardsim.games.molotow.seating import play_game

from .states import compiled_score, position_state
from .strategies import policies, positions, random_position, rules_and_players

seeds = st.integers(0, 2**32)


def is_legal(card: int, hand: int, trick: list[int], trump: int, undertrump: str) -> bool:
    """MJ-6…MJ-11 written a second way, card by card, as an oracle for ``legal_moves``."""
    def suit(c):
        return c // 9

    def power(c):
        return TRUMP_POWER[c % 9]

    if not trick or (trump != NO_TRUMP and card == DECK.card(trump, UNDER)):
        return True                                            # MJ-6 lead; MJ-11 the Buur is always playable
    others = [c for c in cards_of(hand) if trump == NO_TRUMP or c != DECK.card(trump, UNDER)]
    if not others:
        return True
    led = suit(trick[0])
    can_follow = any(suit(c) == led for c in others)
    if trump == NO_TRUMP or led == trump:
        return suit(card) == led or not can_follow             # MJ-7
    card_trumps = suit(card) == trump
    free = not can_follow or suit(card) == led or card_trumps  # MJ-9
    in_trick = [c for c in trick if suit(c) == trump]
    if not in_trick or undertrump == "allowed":
        return free
    top = max(power(c) for c in in_trick)
    lower = card_trumps and power(card) < top
    if undertrump == "forbidden":
        return free and (not lower or all(suit(c) == trump for c in others))
    if can_follow or any(suit(c) == trump and power(c) > top for c in others):
        return suit(card) == led or (card_trumps and not lower)
    if any(suit(c) == trump for c in others):
        return card_trumps
    return True


@given(rules_and_players(), seeds, st.integers(0, 10**6), st.data())
def test_every_card_played_once_and_only_legal_cards(rp, seed, game, data):
    rules, players = rp
    seats = data.draw(policies(players))
    seats = (seats,) * players if isinstance(seats, str) else tuple(seats)
    log: list[Decision] = []
    play_game(rules, players, seed, game, seats, log)
    for d in log:
        assert d.hand == d.held[d.seat]
        together = d.out
        for h in d.held:
            assert together & h == 0                             # no card in two places
            together |= h
        assert together == DECK.full                             # conservation after every move
        assert d.legal & ~d.hand == 0 and d.legal >> d.card & 1  # only legal cards are played
        assert d.legal == sum(1 << c for c in cards_of(d.hand) if is_legal(c, d.hand, list(d.trick), d.trump,
                                                                              rules.undertrump))
    for start in range(0, len(log) - 35, 36):
        assert sorted(d.card for d in log[start:start + 36]) == list(range(36))  # each card once a hand


@given(rules_and_players(), seeds, st.data())
def test_every_hand_totals_all_the_points(rp, seed, data):
    rules, players = rp
    seats = data.draw(policies(players))
    table = hands_table(rules, players, seed, 30, seats)
    pts = table[[f"points_{s}" for s in range(4)]].sum(axis=1)
    assert (pts == rules.total_points).all()
    assert rules.total_points == 152 + rules.last_trick_bonus
    pd.testing.assert_frame_equal(table, hands_table(rules, players, seed, 30, seats, engine="reference"))


@given(rules_and_players(), seeds)
def test_one_result_per_game_a_winner_a_shared_win_or_a_truncation(rp, seed):
    rules, players = rp
    df = cardsim.simulate("molotow", rules, players=players, games=40, seed=seed, policy="random")
    full = rules.hands * 36
    assert (df.truncated == (df.turns < full)).all()
    assert (df.turns == min(full, rules.max_turns or full)).all()
    done, cut = df[~df.truncated], df[df.truncated]
    assert (cut.winner == -1).all() and (cut.winners == 0).all()
    scores = done[[f"score_{s}" for s in range(players)]].to_numpy()
    best = scores == scores.max(axis=1, keepdims=True)
    assert (done.winners == (best * (1 << np.arange(players))).sum(axis=1)).all()
    assert (done.winner == np.where(best.sum(axis=1) == 1, best.argmax(axis=1), -1)).all()
    if players == 3:
        assert (df[["score_3", "sticks_3", "potatoes_3"]] == 0).all().all()


@given(rules_and_players(max_hands=2), seeds, st.integers(0, 5000), st.data())
def test_game_i_is_game_i_alone_in_a_batch_and_on_either_engine(rp, seed, first, data):
    rules, players = rp
    seats = data.draw(policies(players))
    random.seed(seed)
    np.random.seed(seed % 2**32)
    batch = cardsim.simulate("molotow", rules, players=players, games=12, seed=seed, first_game=first, policy=seats)
    random.random(), np.random.random()
    alone = cardsim.simulate("molotow", rules, players=players, games=1, seed=seed, first_game=first + 5,
                             policy=seats)
    pd.testing.assert_frame_equal(batch.iloc[5:6].reset_index(drop=True), alone)
    shifted = cardsim.simulate("molotow", rules, players=players, games=7, seed=seed, first_game=first + 5,
                               policy=seats, engine="reference")
    pd.testing.assert_frame_equal(batch.iloc[5:].reset_index(drop=True), shifted)


@given(positions)
def test_legal_moves_equal_the_oracle_and_the_compiled_twin(position):
    hand, trick, trump, undertrump = position
    mask = legal_moves(hand, trick, trump, undertrump)
    assert mask == sum(1 << c for c in cards_of(hand) if is_legal(c, hand, trick, trump, undertrump))
    st, params = position_state(hand, trick, trump, undertrump)
    assert int(C.legal_cards(st[0], params)) == mask


def test_legal_moves_equal_the_oracle_and_the_compiled_twin_on_a_sweep():
    r = random.Random(2024)  # a local generator: the engines never see it
    sweep = [random_position(r) for _ in range(6000)]
    for undertrump in ("seed", "forbidden", "allowed"):
        want = [legal_moves(h, tr, t, undertrump) for h, tr, t, _ in sweep]
        assert want == [sum(1 << c for c in cards_of(h) if is_legal(c, h, tr, t, undertrump))
                        for h, tr, t, _ in sweep]
        got = []
        for h, tr, t, _ in sweep:
            st, params = position_state(h, tr, t, undertrump)
            got.append(int(C.legal_cards(st[0], params)))
        assert got == want


@given(positions, seeds, st.integers(0, 500))
def test_compiled_policies_equal_scalar_policies(position, key, turn):
    hand, trick, trump, undertrump = position
    legal = legal_moves(hand, trick, trump, undertrump)
    st, params = position_state(hand, trick, trump, undertrump, key=key, turn=turn)
    for name in pol.BASES:
        card = pol.choose(name, hand, legal, trick, trump, key, turn)
        assert legal >> card & 1
        assert C.base_card(st[0], params, pol.POLICIES.index(name), 0) == card


@st.composite
def hand_points(draw):
    """Points of one hand summing to the total, often with ties."""
    bonus = draw(st.sampled_from([5, 0, 1, 6]))
    players = draw(st.sampled_from([3, 4]))
    total = 152 + bonus
    tied = draw(st.integers(1, players - 1))
    value = draw(st.integers(0, total // tied))
    rest = total - tied * value
    cuts = sorted(draw(st.lists(st.integers(0, rest), min_size=players - tied - 1, max_size=players - tied - 1)))
    others = [b - a for a, b in zip([0, *cuts], [*cuts, rest])]
    return draw(st.permutations([value] * tied + others)), bonus, players


@given(hand_points(), st.sampled_from(["seed", "one_each"]), seeds, st.integers(0, 11))
def test_compiled_scoring_equals_reference(hp, big_hand, key, hand_no):
    pts, bonus, players = hp
    rules = MolotowRules(players=players, big_hand=big_hand, last_trick_bonus=bonus)
    drew = []
    got, lost = score_hand(list(pts), rules, lambda tied: drew.append(tied) or tie_draw(key, hand_no, tied)[0])
    assert compiled_score(list(pts), rules, key, hand_no) == (got, lost, bool(drew))
    assert sum(lost) <= 3 * players and sum(got) <= 3 * players
