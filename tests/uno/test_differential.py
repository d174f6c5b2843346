"""Differential tests: the compiled engine's records equal the reference engine's, game for
game (CI-sized here; the `slow` one plays >= 10,000 hands, sized with `scaled`)."""
import itertools

import pandas as pd
import pytest

import cardsim

PRESETS = ("official", "stacking", "deck_2018", "draw_until_playable")
VARIANTS = PRESETS + ("deck_2018(custom_wild='swap_hands')", "deck_2018(custom_wild='everyone_draws_one')",
                      "official(wd4_challenge=False)", "official(target_score=200)")
POLICIES = ("random", "greedy", "random(bluff=0.2, challenge=0.8)",
            ["greedy(bluff=0.5)", "random", "greedy(challenge=1)", "random(bluff=1)", "greedy", "random"])


def both(rules, players, policy, games, seed, first_game=0):
    if isinstance(policy, list):
        policy = (policy * 2)[:players]
    kw = dict(players=players, games=games, seed=seed, policy=policy, first_game=first_game)
    return (cardsim.simulate("uno", rules, engine="compiled", **kw),
            cardsim.simulate("uno", rules, engine="reference", **kw))


@pytest.mark.parametrize("rules, players", list(itertools.product(VARIANTS, (2, 4, 6))))
def test_compiled_equals_reference_ci(rules, players):
    for i, policy in enumerate(POLICIES):
        com, ref = both(rules, players, policy, games=10, seed=100 + i, first_game=1000 * i)
        pd.testing.assert_frame_equal(com, ref)


@pytest.mark.slow
def test_compiled_equals_reference_slow(scaled):
    cells = list(itertools.product(VARIANTS, (2, 3, 4, 6, 10), POLICIES))
    per_cell = -(-scaled(10_000) // len(cells))
    mismatches = hands = 0
    for i, (rules, players, policy) in enumerate(cells):
        com, ref = both(rules, players, policy, games=per_cell, seed=2026, first_game=i * per_cell)
        mismatches += int((com != ref).any(axis=1).sum())
        hands += int(ref.hands.sum())
    print(f"uno slow differential: {len(cells) * per_cell} games, {hands} hands, {mismatches} mismatches")
    assert len(cells) * per_cell >= scaled(10_000) and mismatches == 0
