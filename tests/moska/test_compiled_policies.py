"""The compiled Moska policies choose what ``policies.py`` chooses, draw for draw, on any view."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.games.moska import compiled_policies as C
from cardsim.games.moska.policies import GreedyPolicy, RandomPolicy, View

SCALAR = {C.RANDOM: RandomPolicy(), C.GREEDY: GreedyPolicy()}
masks = st.integers(1, 2**52 - 1)


def setup(code, hand, turn, trump, stock_left, room):
    v = View(key=rng.game_key(5, turn), turn=turn, seat=1, hand=hand, trump=trump, stock_left=stock_left, room=room)
    head = np.uint64(rng.mix(v.key, rng.Stream.POLICY, turn))
    return SCALAR[code], v, head


views = st.tuples(st.sampled_from([C.RANDOM, C.GREEDY]), masks, st.integers(0, 10_000), st.integers(0, 3),
                  st.integers(0, 30), st.integers(1, 8))


@given(views)
def test_open_and_add(args):
    code, hand, turn, trump, stock_left, room = args
    policy, v, head = setup(*args)
    assert int(C.open_move(code, head, np.uint64(hand), trump, room)) == policy.open(v)
    assert int(C.add_move(code, head, np.uint64(hand), room, trump, stock_left)) == policy.add(v, hand, room)


@given(views, st.integers(0, 51))
def test_kill_and_self_attack(args, card):
    code, killers, turn, trump, stock_left, room = args
    policy, v, head = setup(*args)
    killers &= ~(1 << card)
    if killers:
        assert C.kill_move(code, head, card, np.uint64(killers), trump, stock_left) == policy.kill(v, card, killers)
        assert C.self_attack_move(code, head, card, np.uint64(killers), trump) == policy.self_attack(v, card, killers)


@given(views, st.data())
def test_give_back(args, data):
    code, cards, turn, trump, stock_left, room = args
    policy, v, head = setup(*args)
    e = data.draw(st.integers(1, len(list(cards_of(cards)))))
    assert int(C.give_back_move(code, head, np.uint64(cards), e, trump)) == policy.give_back(v, cards, e)
