"""``cardsim.envs.vector.UnoTables``: many Uno tables stepped in one compiled call give, table by table, what
the PettingZoo env's ``Table`` (the step API) gives for the same game and actions: the seat to act, its legal
action ids, its observation, the returns, and at the end the game's record (the step API's, itself tested
against the reference engine's, tests/play/test_differential.py)."""
import numpy as np
import pytest

import cardsim
from cardsim.envs.table import Table
from cardsim.envs.vector import UnoTables


def record_game(record) -> int:
    return record["game"]


def _random_actions(rng, mask):
    return (rng.random(mask.shape) * mask).argmax(1)


@pytest.mark.parametrize("rules, players, seed", [
    (None, 4, 3), ("stacking", 3, 11), ("deck_2018", 5, 7), ("official(target_score=200)", 2, 5),
    ("draw_until_playable", 6, 1)])
def test_the_tables_step_as_the_step_api_does(rules, players, seed):
    n = 6
    tables = UnoTables(n, rules=rules, players=players, seed=seed)
    r = cardsim.rules("uno", rules)
    mirror = [Table("uno", r, players, seed, i) for i in range(n)]
    obs, mask, seat = tables.reset()
    rng = np.random.default_rng(seed)
    ended_games = 0
    for _ in range(20000):
        for i, t in enumerate(mirror):
            assert seat[i] == t.seat
            assert mask[i].tolist() == t.mask().tolist()
            assert np.array_equal(obs[i], t.observation(t.seat))
        actions = _random_actions(rng, mask)
        obs, mask, seat, returns, ended = tables.step(actions)
        for i, t in enumerate(mirror):
            t.step(int(actions[i]))
            assert ended[i] == t.is_over
            if t.is_over:
                assert returns[i].tolist() == pytest.approx(t.returns())
                assert tables.finished[ended_games] == t.play.record()
                ended_games += 1
                assert tables.games[i] == record_game(tables.finished[ended_games - 1]) + n
                mirror[i] = Table("uno", r, players, seed, int(tables.games[i]))
            else:
                assert not returns[i].any()
        if ended_games >= 12:
            break
    assert ended_games >= 12


def test_an_illegal_action_is_one_line_and_moves_no_table():
    tables = UnoTables(3, seed=2)
    obs, mask, seat = tables.reset()
    before = tables.states.copy()
    actions = mask.argmax(1).copy()
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=r"table 1 \(game 1, seat \d\): action \d+ is not legal; legal: \[") as err:
        tables.step(actions)
    assert "\n" not in str(err.value)
    assert all(np.array_equal(tables.states[f], before[f]) for f in before.dtype.names)  # fields, not padding
    with pytest.raises(ValueError, match="expected 3 actions"):
        tables.step(actions[:2])


@pytest.mark.parametrize("n, seed, match", [(0, 1, "n must be an integer >= 1"), (2.5, 1, "n must be"),
                                            (2, -1, "seed must be an integer >= 0")])
def test_bad_arguments_are_one_line(n, seed, match):
    with pytest.raises(ValueError, match=match):
        UnoTables(n, seed=seed)


def test_the_arrays_handed_out_are_read_only():
    obs, mask, seat = UnoTables(2).reset()
    with pytest.raises(ValueError):
        mask[0, 0] = 1
