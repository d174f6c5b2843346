"""Many Uno tables stepped at once in compiled code: an agent loop at the engine's speed.

The PettingZoo env (``cardsim.envs.pettingzoo``) steps one table from Python, and PettingZoo's own
loop costs more per step than the game does. ``UnoTables(n, rules=..., players=4, seed=0)`` holds
``n`` tables and steps them all in one numba call, with the PettingZoo env's action ids and
observations (``cardsim.envs.codings.uno``):

- table ``i`` plays game indices ``i, i + n, i + 2n, ...`` of ``seed``, the deals ``simulate`` plays,
  and a table whose game ends is dealt its next game within the same call;
- ``reset() -> (obs, mask, seat)``: ``obs`` (n, k) float32, the observation of each table's seat to act
  (what the PettingZoo env's ``observe`` gives that seat); ``mask`` (n, 73) int8, its legal action ids;
  ``seat`` (n,) int64, the seat to act;
- ``step(actions) -> (obs, mask, seat, returns, ended)``: takes ``actions[i]`` at table ``i``;
  ``returns`` (n, players) float32 holds each seat's return (``envs.returns``: zero-sum) at a table whose
  game ended at this step, 0 elsewhere; ``ended`` (n,) bool; at an ended table ``obs``, ``mask`` and ``seat``
  are already its next game's;
- ``finished``: the records of the games ended so far (the rows ``simulate`` writes), in the order they
  ended.

An illegal action is one ``ValueError`` line naming the table, the action and the legal ones, and no
table moves. The arrays returned are the object's own, read-only, overwritten by the next call: copy
what you keep. Needs no extra (numpy and numba only).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.core import jit
from cardsim.envs.codings.uno import ACTIONS, COLOUR, DRAW, PASS, TARGET, observe_state
from cardsim.games.uno import compiled as c
from cardsim.games.uno.cards import K
from cardsim.games.uno.reference import CARD, CHALLENGE, OVER, STACK, START_COLOUR
from cardsim.games.uno.reference import COLOUR as NAME_COLOUR

OPTIONS = K + 1
"""Room for a choice's legal options (``compiled.legal_decisions``)."""


@njit(cache=True)
def token_of(s, move: int) -> int:
    """The action id of ``move`` at the waiting choice of ``s`` (``codings.uno.tokens``)."""
    phase = s.phase
    if phase == CARD or phase == STACK:
        return DRAW if move < 0 else move
    if phase == CHALLENGE:
        return PASS + move
    if phase == START_COLOUR or phase == NAME_COLOUR:
        return COLOUR + move
    return TARGET + (move - s.current) % s.players - 1


@njit(cache=True)
def _show(s, i: int, obs, mask, moves, seat, options, target: int, max_turns: int) -> None:
    """Row ``i`` of ``obs``, ``mask``, ``moves`` and ``seat``: the seat to act at table ``s``, its legal ids, the
    move each legal id stands for (what ``_step`` applies), its view."""
    seat[i] = s.current
    mask[i, :] = 0
    for j in range(c.legal_decisions(s, options)):
        t = token_of(s, options[j])
        mask[i, t], moves[i, t] = 1, options[j]
    obs[i, :] = 0
    observe_state(s, s.current, s.players, target, max_turns, obs[i])


@njit(cache=True)
def _deal(states, works, i: int, params, players: int, seed: np.uint64, game: int) -> None:
    c.new_game(states[i], params, players, jit.game_key(seed, game), works[i])
    states[i].reads = False  # only mc reads the table (as play_games)


@njit(cache=True)
def _reset(states, works, params, players: int, seed: np.uint64, games, obs, mask, moves, seat, options,
           target: int, max_turns: int) -> None:
    for i in range(len(games)):
        _deal(states, works, i, params, players, seed, games[i])
        _show(states[i], i, obs, mask, moves, seat, options, target, max_turns)


@njit(cache=True)
def _step(states, works, params, players: int, seed: np.uint64, games, actions, obs, mask, moves, seat, options,
          target: int, max_turns: int, returns, ended, records, indices) -> tuple[int, int]:
    """Every table takes its action; ``(-1, ended games)``, or ``(i, 0)`` with nothing applied when table ``i``'s
    action is not legal. An ended game's record goes to ``records`` (its index to ``indices``), the next is dealt."""
    n = len(games)
    for i in range(n):
        if actions[i] < 0 or actions[i] >= mask.shape[1] or mask[i, actions[i]] == 0:
            return i, 0
    done = 0
    for i in range(n):
        s = states[i]
        c.apply(s, moves[i, actions[i]], params, works[i])
        returns[i, :] = 0.0
        ended[i] = s.phase == OVER
        if ended[i]:
            c.record_into(s, records, done)
            indices[done] = games[i]
            done += 1
            if not s.truncated and s.winner >= 0:  # envs.returns: the winner's outcome less the mean outcome
                for q in range(players):
                    returns[i, q] = (1.0 if q == s.winner else 0.0) - 1.0 / players
            games[i] += n
            _deal(states, works, i, params, players, seed, games[i])
        _show(s, i, obs, mask, moves, seat, options, target, max_turns)
    return -1, done


class UnoTables:
    """``n`` Uno tables stepped together (see the module docstring)."""

    def __init__(self, n: int, rules=None, players: int = 4, seed: int = 0) -> None:
        from cardsim import api
        from cardsim.core.game import SEED_LIMIT, integer_expected
        from cardsim.envs.codings import coding
        from cardsim.games import spec

        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"UnoTables: n must be an integer >= 1 (the tables), not {n!r}")
        if (expected := integer_expected(seed, 0, SEED_LIMIT)):
            raise ValueError(f"UnoTables: seed must be {expected}, not {seed!r}")
        self.rules = api.rules("uno", rules)
        self.players = spec("uno").check_players(self.rules, players)
        self.n, self.seed = int(n), np.uint64(seed)
        self.params = c.params_of(self.rules)
        self.states = np.zeros(self.n, c.STATE)
        self.works = np.repeat(c.new_work(self.rules), self.n)
        self.actions = ACTIONS.actions
        self._obs = np.zeros((self.n, coding("uno").size(self.players)), dtype=np.float32)
        self._mask = np.zeros((self.n, self.actions), dtype=np.int8)
        self._moves = np.zeros((self.n, self.actions), dtype=np.int64)
        self._seat = np.zeros(self.n, dtype=np.int64)
        self._returns = np.zeros((self.n, self.players), dtype=np.float32)
        self._ended = np.zeros(self.n, dtype=np.bool_)
        self._records = np.zeros((self.n, len(c.RECORD)), dtype=np.int64)
        self._indices = np.zeros(self.n, dtype=np.int64)
        self._options = np.zeros(OPTIONS, dtype=np.int64)
        self._limits = (self.rules.target_score or 500, self.rules.max_turns)
        self.games = np.arange(self.n, dtype=np.int64)
        self.finished: list[dict] = []

    def reset(self):
        """Deal games ``0 .. n-1`` again (``finished`` emptied): the first observations."""
        self.games[:] = np.arange(self.n)
        self.finished = []
        _reset(self.states, self.works, self.params, self.players, self.seed, self.games, self._obs, self._mask,
               self._moves, self._seat, self._options, *self._limits)
        return _frozen(self._obs, self._mask, self._seat)

    def step(self, actions):
        """Take ``actions[i]`` (an action id) at every table ``i``; see the module docstring."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"UnoTables.step: expected {self.n} actions (one per table), not shape {actions.shape}")
        bad, done = _step(self.states, self.works, self.params, self.players, self.seed, self.games, actions,
                          self._obs, self._mask, self._moves, self._seat, self._options, *self._limits, self._returns,
                          self._ended, self._records, self._indices)
        if bad >= 0:
            legal = np.flatnonzero(self._mask[bad]).tolist()
            raise ValueError(f"UnoTables.step: table {bad} (game {self.games[bad]}, seat {self._seat[bad]}): action "
                             f"{actions[bad]} is not legal; legal: {legal}")
        for row, game in zip(self._records[:done], self._indices[:done]):
            record = {"game": int(game), **dict(zip(c.RECORD, (int(v) for v in row)))}
            record["truncated"] = bool(record["truncated"])
            self.finished.append(record)
        return (*_frozen(self._obs, self._mask, self._seat), *_frozen(self._returns, self._ended))


def _frozen(*arrays) -> tuple[np.ndarray, ...]:
    """Read-only views of the object's arrays."""
    out = []
    for a in arrays:
        v = a.view()
        v.flags.writeable = False
        out.append(v)
    return tuple(out)
