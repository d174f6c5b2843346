"""The fixed action spaces (cardsim.envs.actions, codings): every legal decision is reachable by
its own token sequence, every sequence of legal tokens ends in a decision, and stepping a game by
the tokens of the seats' built-in decisions gives the reference engine's record exactly."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.envs.actions import Selection
from cardsim.envs.table import Table
from tests.envs.setups import SETUPS

GAMES = sorted(SETUPS)
pytestmark = pytest.mark.parametrize("game", GAMES)


def table(game, players, seed, index):
    """Game ``index`` of ``seed`` with default rules (Molotow's for the player count)."""
    rules = "mittlere" if game == "molotow" and players == 3 else None
    return Table(game, rules, players, seed, index)


def positions(table, rng, every=1):
    """The table stepped by random legal tokens, yielding its positions at the start of decisions."""
    k = 0
    while not table.is_over:
        if not table.chosen() and k % every == 0:
            yield table
        k += 1
        table.step(rng.choice(table.legal_actions()))


def test_every_decision_is_spelled_once_and_reached_by_its_tokens(game):
    rng = random.Random(1)
    for t in positions(table(game, 3, 5, 2), rng):
        decisions = list(t.play.legal())
        context = t.coding.actions.context(t.play) if t.coding.actions.context else None
        spelled = [t.coding.actions.tokens(d, context) for d in decisions]
        assert len(set(spelled)) == len(spelled)
        for d, tokens in zip(decisions, spelled):
            s = Selection(t.coding.actions, decisions, context)
            done = None
            for tok in tokens:
                assert done is None and tok in s.legal()
                done = s.choose(tok)
            if done is None:
                done = s.choose(t.coding.actions.end)
            assert done == d.i
            assert t.play.is_legal(d.move)


def test_random_legal_tokens_always_complete_a_legal_decision(game):
    rng = random.Random(2)
    for t in positions(table(game, 4, 7, 3), rng):
        decisions = list(t.play.legal())
        s = Selection(t.coding.actions, decisions, t.coding.actions.context(t.play) if t.coding.actions.context else None)
        done = None
        for _ in range(t.coding.actions.max_tokens):
            done = s.choose(rng.choice(s.legal()))
            if done is not None:
                break
        assert done is not None and 0 <= done < len(decisions)


def test_an_illegal_token_names_the_legal_ones(game):
    t = table(game, 3, 0, 0)
    bad = next(a for a in range(t.coding.actions.actions) if a not in t.legal_actions())
    with pytest.raises(ValueError, match=r"action \d+ .* is not legal after nothing yet; legal actions: \d+ \("):
        t.step(bad)


@settings(max_examples=30)
@given(data=st.data())
def test_stepping_by_the_seats_decisions_gives_the_reference_record(game, data):
    rules, players, policy, seed, index = data.draw(SETUPS[game])
    t = Table(game, rules, players, seed, index, policies=policy)
    while not t.is_over:
        at = t.selection
        for tok in t.policy_tokens():
            t.step(tok)
        if t.selection is at:  # a decision that longer ones extend (or an empty one): END makes it
            t.step(t.coding.actions.end)
    expected = cardsim.replay(game, rules, players=players, seed=seed, game=index, policy=policy).record
    assert t.play.record() == expected


@settings(max_examples=5)
@given(data=st.data())
def test_the_fast_observation_equals_the_views(game, data):
    rules, players, _, seed, index = data.draw(SETUPS[game])
    t = Table(game, rules, players, seed, index)
    rng = random.Random(seed)
    while True:
        for seat in range(players):
            slow = t.coding.observe(t.play.view(seat), [], players)
            assert (t.coding.observe_game(t.play, seat, []) == slow).all(), (t.play.turn, seat)
        if t.is_over:
            break
        t.step(rng.choice(t.legal_actions()))
