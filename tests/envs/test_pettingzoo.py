"""The PettingZoo environments pass PettingZoo's own api_test and seed_test for every game and
a few rule variants; the observation is the seat's view only; the missing extra names itself."""
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardsim.envs.pettingzoo import env  # noqa: E402
from cardsim.envs.resample import resample  # noqa: E402
from tests.envs.setups import SETUPS  # noqa: E402

pytestmark = pytest.mark.rl
VARIANTS = {
    "uno": [(None, 4), ("stacking", 2), ("deck_2018(custom_wild='swap_hands', target_score=60)", 5)],
    "molotow": [(None, 4), ("molotow(players=3, hands=2)", 3)],
    "moska": [(None, 4), ("turamoska", 3), ("moska(defender_self_attack=True, attack_cap=None)", 2)],
    "musta_maija": [(None, 4), ("musta_maija(trump='turned', must_beat='free')", 2), (None, 7)],
}
CASES = [(g, r, p) for g in sorted(SETUPS) for r, p in VARIANTS[g]]


@pytest.mark.parametrize("game, rules, players", CASES)
def test_api_test(game, rules, players):
    api_test(env(game, rules, players=players, seed=3), num_cycles=60)


@pytest.mark.parametrize("game, rules, players", CASES)
def test_seed_test(game, rules, players):
    seed_test(lambda: env(game, rules, players=players), num_cycles=60)


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_reset_deals_the_next_game_of_the_seed_and_render_shows_the_position(game):
    e = env(game, players=4, seed=11, render_mode="ansi")
    e.reset(seed=11)
    first = e.table.play.view(0)
    e.reset()
    assert e.table.play._engine.game_index == 1
    e.reset(seed=11)
    assert e.table.play.view(0) == first
    text = e.render()
    assert f"seat {e.table.seat} to act" in text and "actions:" in text


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_seat_observes_only_its_view(game):
    """Deal the cards a seat cannot see again: its observation and mask stay the same."""
    e = env(game, players=4, seed=5)
    e.reset()
    rng = np.random.default_rng(0)
    for step in range(120):
        agent = e.agent_selection
        seat = e.agent_name_mapping[agent]
        before = e.observe(agent)
        other = e.table.copy()
        resample(other, seat, 1000 + step)
        hidden_changed = any(other.play.view(q)["hand"] != e.table.play.view(q)["hand"] for q in range(4) if q != seat)
        e.table, kept = other, e.table
        after = e.observe(agent)
        e.table = kept
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])
        if step == 0:
            assert hidden_changed
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("module, blocked, package", [("pettingzoo", "pettingzoo", "pettingzoo"),
                                                     ("openspiel", "pyspiel", "open-spiel"),
                                                     ("ismcts", "pyspiel", "open-spiel")])
def test_without_the_extra_the_import_names_it(module, blocked, package):
    code = (f"import sys; sys.modules[{blocked!r}] = None\n"
            f"try:\n    import cardsim.envs.{module}\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == (f"cardsim.envs.{module} needs {package} (cardsim's 'rl' extra): "
                           "pip install \"cardsim[rl]\"")
