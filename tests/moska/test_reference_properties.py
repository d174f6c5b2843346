"""Property tests of the Moska reference engine over random knobs, 2-8 players, policies and seeds.

Card conservation after every move, only legal moves (the engine raises ``IllegalMove``
on any other), the cap (M-9), TARAKI's six cards (M-14) and the swap's moment (M-6) at
every move, exactly one loser per finished game, determinism (twice, in a batch, with
``first_game`` shifted, with the global RNGs disturbed), common random numbers.
"""
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import rng
from cardsim.core.cards import FRENCH52, cards_of, count
from cardsim.games.moska import reference as R
from cardsim.games.moska.rules import MoskaRules

from .strategies import RULES, setups
from .trace import last, last_action


def where_cards_are(s: R.State) -> list[int]:
    """Every card's places: hands, stock, table, discard (each card must be in exactly one)."""
    places = [c for h in s.hands for c in cards_of(h)] + list(s.stock)
    return places + list(cards_of(s.table.cards)) + list(cards_of(s.discard))


class CheckMoves:
    """An ``on_move`` hook checking the invariants of the rules after every move of one game."""

    def __init__(self) -> None:
        self.start = 0  # the defender's hand when the round began

    def __call__(self, s: R.State) -> None:
        assert sorted(where_cards_are(s)) == list(range(FRENCH52.size)), last(s)
        assert s.table.unkilled & ~s.table.attack == 0
        assert all(not (s.out[p] and s.hands[p]) for p in range(s.players))
        self.check_swap(s)
        if last_action(s) == "round":
            self.start = s.hands[s.defender]
        if s.table.attack:
            self.check_round(s)

    @staticmethod
    def check_swap(s: R.State) -> None:
        """M-6: after the deal's swap, the trump 2 never waits in a hand while the turned card is under the
        stock (only between the event that brings it, the deal or its draw, and the swap that follows)."""
        two = FRENCH52.card(s.trump, 0)
        brought = last_action(s) in ("deal", "turn") or (last_action(s) == "draw" and s.log[-1][3][-1] == two)
        if s.rules.trump_two_swap and s.stock and s.stock[-1] == s.turned and not brought:
            assert not any(h >> two & 1 for h in s.hands), last(s)

    def check_round(self, s: R.State) -> None:
        """M-9 in the knob's cap_mode; M-14: at most attack_cap (6 if None) cards leave the defender's hand."""
        r, d = s.rules, s.defender
        cap = 52 if r.attack_cap is None else r.attack_cap
        if r.cap_mode == "round":
            assert count(s.table.attack) <= min(cap, s.table.start_hand if r.cap_to_defender_hand else 52)
        else:
            assert count(s.table.unkilled) <= min(cap, count(s.hands[d]) if r.cap_to_defender_hand else 52)
        if r.defender_self_attack:
            assert count(self.start & ~s.hands[d]) <= (6 if r.attack_cap is None else r.attack_cap), last(s)


@given(setups())
def test_cards_are_conserved_and_each_finished_game_has_one_loser(setup):
    rules, players, seats, seed, game = setup
    t = R.play(rules, players, seed, game, seats, on_move=CheckMoves())  # IllegalMove = an illegal move
    rec = t.record
    order = [int(p) for p in rec["finish_order"].split(",")] if rec["finish_order"] else []
    assert len(set(order)) == len(order) and rec["first_out"] == (order[0] if order else -1)
    if rec["truncated"]:  # M-21 at max_turns decisions; M-23 (the repetition knob) before it
        assert rec["loser"] == -1
        assert rec["turns"] == rules.max_turns or (rules.repetition and rec["turns"] < rules.max_turns)
    else:
        assert rec["loser"] in range(players) and sorted(order + [rec["loser"]]) == list(range(players))
        assert rec["turns"] <= rules.max_turns
    assert rec["swaps"] <= int(rules.trump_two_swap)  # M-6: at most once, never in TARAKI
    turned = R.deal(rules, players, rng.game_key(seed, game)).turned
    if rules.trump_two_swap and not rec["truncated"]:  # the whole stock was drawn: the 2 was swapped on arrival
        assert rec["swaps"] == int(FRENCH52.rank(turned) != 0)
    assert rec["self_attacks"] == 0 or rules.defender_self_attack


@given(setups())
def test_the_same_game_alone_twice_or_in_a_batch_is_the_same(setup):
    rules, players, seats, seed, game = setup
    random.seed(game)
    np.random.seed(game % 2**32)
    a = R.play(rules, players, seed, game, seats)
    random.seed(game + 1)
    np.random.seed((game + 1) % 2**32)
    b = R.play(rules, players, seed, game, seats)
    assert a.record == b.record and a.log == b.log
    first = max(0, game - 2)
    df = cardsim.simulate("moska", rules, players=players, games=3, seed=seed, policy=list(seats),
                          engine="reference", first_game=first)
    assert df.loc[df.game == game].iloc[0].to_dict() == a.record
    shifted = cardsim.simulate("moska", rules, players=players, games=1, seed=seed, policy=list(seats),
                               engine="reference", first_game=game)
    assert shifted.iloc[0].to_dict() == a.record


@given(RULES, st.integers(0, 2**32), st.integers(0, 10**6), st.data())
def test_game_i_deals_the_same_cards_under_every_variant(rules, seed, game, data):
    players = data.draw(st.integers(2, min(8, 51 // rules.hand_size)))
    deals = [R.play(r.replace(hand_size=rules.hand_size, max_turns=1), players, seed, game, ("greedy",) * players)
             for r in [rules, *MoskaRules.presets().values()]]
    assert len({tuple(t.events.cards[:players + 1]) for t in deals}) == 1  # the deal and the turned card
    assert len({t.record["trump_suit"] for t in deals}) == 1


def test_an_illegal_policy_move_is_refused():
    class Cheat(R.make_policy("greedy").__class__):
        def kill(self, v, attack, killers):
            return attack  # a card cannot kill itself
    with pytest.raises(R.IllegalMove):
        R.run(R.deal(MoskaRules(), 3, 1), [Cheat()] * 3)


@pytest.mark.slow
def test_slow_many_reference_games_finish_with_one_loser(scaled):
    n = scaled(10_000)
    configs = [(preset, players, policy) for preset in MoskaRules.PRESETS for players in (2, 4, 6)
               for policy in ("random", "greedy")]
    per = -(-n // len(configs))
    total = 0
    for preset, players, policy in configs:
        df = cardsim.simulate("moska", preset, players=players, games=per, seed=2026, policy=policy,
                              engine="reference")
        done = df[~df.truncated]
        assert done.loser.between(0, players - 1).all(), (preset, players, policy)
        assert (df.truncated.sum() / len(df)) < 0.01
        total += len(df)
    assert total >= n
