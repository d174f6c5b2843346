"""The OpenSpiel games pass OpenSpiel's own random simulation test (clone, serialisation, legal
actions, returns, game length), resampling keeps the player's information state, and OpenSpiel's
ISMCTS bot plays through it."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from cardsim.envs import openspiel as cos  # noqa: E402

pytestmark = pytest.mark.rl
CASES = [("moska", None, 3), ("moska", "turamoska(defender_self_attack=True)", 2),
         ("musta_maija", None, 4), ("musta_maija", "musta_maija(trump='turned')", 6),
         ("uno", None, 4), ("uno", "stacking(target_score=60)", 3),
         ("molotow", None, 4), ("molotow", "mittlere(hands=1)", 3)]


@pytest.mark.parametrize("game, rules, players", CASES)
def test_random_sim_test_with_serialisation(game, rules, players):
    pyspiel.random_sim_test(cos.load(game, rules, players=players, deals=20), num_sims=2, serialize=True,
                            verbose=False)


def play_to(state, rng, steps):
    """``state`` dealt and stepped by random legal actions ``steps`` times (fewer if the game ends)."""
    state.apply_action(int(rng.integers(state.get_game().max_chance_outcomes())))
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game", cos.GAMES)
def test_resampling_keeps_the_information_state_and_deals_the_hidden_cards_again(game):
    g = cos.load(game, players=4, deals=50)
    rng = np.random.default_rng(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for steps in (0, 5, 17, 40, 90):
        state = play_to(g.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.legal_actions() == state.legal_actions()
        assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
        changed += str(world) != str(state)
        while not world.is_terminal():  # the world plays on to an end
            world.apply_action(int(rng.choice(world.legal_actions())))
    assert changed >= 3


@pytest.mark.parametrize("game", cos.GAMES)
def test_ismcts_plays_through_resampling(game):
    g = cos.load(game, players=3 if game != "molotow" else 4, deals=10)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 4,
                           random_state=np.random.RandomState(1))
    state = play_to(g.new_initial_state(), np.random.default_rng(0), 3)
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("game", cos.GAMES)
def test_the_ismcts_seat_plays_through_the_user_policy_path_and_replays(game):
    import cardsim
    from cardsim.envs.ismcts import openspiel_ismcts

    seat = openspiel_ismcts(4)
    assert seat.__module__ == "cardsim.envs.ismcts" and seat.__qualname__ == "ismcts_4"
    policy = [seat, "greedy", "random", "greedy"]
    first = cardsim.simulate(game, None, players=4, games=1, seed=2, policy=policy)
    again = cardsim.simulate(game, None, players=4, games=1, seed=2, policy=policy)
    assert first.equals(again)


@pytest.mark.parametrize("game", cos.GAMES)
def test_the_ismcts_seat_decides_from_its_information_set_only(game):
    """Deal the cards the seat cannot see again: its decision stays the same."""
    from cardsim.envs.ismcts import openspiel_ismcts
    from cardsim.envs.resample import resample
    from cardsim.envs.table import Table

    seat = openspiel_ismcts(8)()
    t = Table(game, None, 4, 6, 0)
    rng = np.random.default_rng(5)
    for step in range(12):
        me = t.seat
        seat.reset(me, 0)
        other = t.copy()
        resample(other, me, 77 + step)
        assert seat(t.play.view(me), t.play.legal()) == seat(other.play.view(me), other.play.legal())
        at = t.selection
        while t.selection is at and not t.is_over:
            t.step(int(rng.choice(t.legal_actions())))
        if t.is_over:
            break


@pytest.mark.parametrize("game", ["moska", "uno"])
def test_openspiels_rl_environment_plays_an_episode(game):
    from open_spiel.python import rl_environment

    e = rl_environment.Environment(cos.load(game, players=3, deals=10), seed=0)
    rng = np.random.default_rng(1)
    step = e.reset()
    while not step.last():
        p = step.observations["current_player"]
        step = e.step([int(rng.choice(step.observations["legal_actions"][p]))])
    assert abs(sum(step.rewards)) < 1e-9 and max(step.rewards) > 0


STUDY = """
name = "ismcts"
game = "uno"
seed = 4
games = 2
players = 3
policies = [["greedy", "cardsim.envs.ismcts:ismcts_10", "random"]]

[variants.official]
preset = "official"
"""


def test_a_study_file_seats_ismcts_and_verifies(tmp_path, capsys):
    import json

    from cardsim.cli import main

    (tmp_path / "ismcts.toml").write_text(STUDY)
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "ismcts.toml"), "--out", str(out), "--quiet"]) == 0, capsys.readouterr().err
    (named,) = json.loads((out / "manifest.json").read_text())["user_policies"]
    assert named["spec"] == "cardsim.envs.ismcts:ismcts_10" and named["qualname"] == "ismcts_10"
    assert main(["verify", str(out)]) == 0, capsys.readouterr()


@pytest.mark.parametrize("bad", [1, 0, 2.5, True])
def test_a_bad_ismcts_budget_is_one_clear_line(bad):
    from cardsim.envs.ismcts import openspiel_ismcts

    with pytest.raises(ValueError, match=r"openspiel_ismcts: simulations must be an integer >= 2"):
        openspiel_ismcts(bad)
