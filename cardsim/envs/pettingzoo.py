"""PettingZoo AEC environments for every cardsim game: ``env(game, rules=..., players=..., seed=...)``.

The AEC loop RL users know (``env.reset(seed=)``; ``for agent in env.agent_iter(): obs, reward,
termination, truncation, info = env.last(); env.step(action)``) over the step API. Agents are
``player_0`` … ``player_{n-1}`` (seat ``s`` is ``player_s``).

- **Actions**: ``Discrete(n)``, the game's tokens (``cardsim.envs.codings.<game>``): one protocol
  decision is one to a few actions of the same agent (the cards of an addition one by one, then
  ``END`` where a shorter decision is also legal); ``obs["action_mask"]`` marks the legal ones.
- **Observation**: ``{"observation": Box(0, 1, (k,), float32), "action_mask": Box(0, 1, (n,), int8)}``,
  the seat's view (``Game.view``) as the fixed-shape vector of ``codings``; agents not to act see
  an all-zero mask.
- **Rewards**: 0 until the game ends, then ``cardsim.envs.returns`` (zero-sum, in (-1, 1)); a game
  stopped by ``max_turns`` ends with truncations instead of terminations.
- **Seeding**: ``reset(seed=s)`` deals game 0 of seed ``s``; each later ``reset()`` deals the next
  game index of the same seed, so a run of episodes is game 0, 1, 2, ... of a study's seed.
- ``render_mode="ansi"``: ``render()`` returns the position as text (when asked: ansi text is not
  printed by ``step``).
- ``policies``: the seats' built-in policies (as in ``cardsim.new_game``); they never act by
  themselves, but ``env.table.policy_tokens()`` spells the acting seat's built-in decision, for
  scripted opponents (``notebooks/train_env.ipynb``).
"""
from __future__ import annotations

from cardsim.envs.extra import require

_pz = require("pettingzoo", "pettingzoo", "cardsim.envs.pettingzoo")
_spaces = require("gymnasium.spaces", "gymnasium", "cardsim.envs.pettingzoo")

import numpy as np  # noqa: E402

from cardsim.envs.codings import coding  # noqa: E402
from cardsim.envs.table import Table, default_players  # noqa: E402


class CardsimEnv(_pz.AECEnv):
    """One cardsim game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "cardsim_v0", "is_parallelizable": False}

    def __init__(self, game: str, rules=None, players: int | None = None, seed: int = 0,
                 render_mode: str | None = None, policies=None) -> None:
        super().__init__()
        from cardsim import api
        from cardsim.games import spec

        self.game = game
        self.rules = api.rules(game, rules)
        self.players = spec(game).check_players(self.rules, default_players(self.rules) if players is None else players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardsim_{game}_v0"}
        self._seed, self._next, self._policies = seed, 0, policies
        self._coding = coding(game)
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        n, k = self._coding.actions.actions, self._coding.size(self.players)
        self.observation_spaces = {a: _spaces.Dict({"observation": _spaces.Box(0.0, 1.0, (k,), np.float32),
                                                    "action_mask": _spaces.Box(0, 1, (n,), np.int8)})
                                   for a in self.possible_agents}  # one space object per agent: each seeds apart
        self.action_spaces = {a: _spaces.Discrete(n) for a in self.possible_agents}
        self.table: Table | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return self.metadata["name"]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._next = seed, 0
        self.table = Table(self.game, self.rules, self.players, self._seed, self._next, policies=self._policies)
        self._next += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = self.table.mask() if seat == self.table.seat else np.zeros(self._coding.actions.actions, np.int8)
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.step(int(action))
        if self.table.is_over:
            done = self.truncations if self.table.truncated() else self.terminations
            for a, r in zip(self.possible_agents, self.table.returns()):
                self.rewards[a] = r
                done[a] = True
        else:
            self.agent_selection = self.possible_agents[self.table.seat]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.text() if self.table is not None else f"{self.game}: not reset yet"

    def close(self) -> None:
        self.table = None


def env(game: str, rules=None, players: int | None = None, seed: int = 0, render_mode: str | None = None,
        policies=None) -> CardsimEnv:
    """A PettingZoo AEC env of ``game`` (a preset name, string form or rules object as ``rules``)."""
    return CardsimEnv(game, rules=rules, players=players, seed=seed, render_mode=render_mode, policies=policies)
