"""OpenSpiel's ISMCTS bot (Cowling et al. 2012) as a cardsim seat: ``openspiel_ismcts(simulations=N)``.

It seats through the bring-your-own-policy path (``docs/play.md``): ``openspiel_ismcts(100)``
returns a policy class (``cardsim.envs.ismcts:ismcts_100``, the name records and manifests give
it) for ``simulate``, ``compare``, ``ladder`` or a study file (``policies = ["greedy",
"cardsim.envs.ismcts:ismcts_100"]``; budgets ``SIMULATIONS`` are defined at import, others once
``openspiel_ismcts`` made them). At each decision it searches the OpenSpiel game of
``cardsim.envs.openspiel`` from the seat's position: every simulation starts from a world dealt
again from the seat's information state (``resample_from_infostate``), so what the seat cannot see
never reaches the search; a multi-token decision (a Moska addition) is one search per token.
A leaf is valued by one play-out to the end with cardsim's compiled ``random`` policy in every
seat (``rollout``: OpenSpiel's ``RandomRolloutEvaluator`` would step the Python game action by
action, hundreds of times slower), with uniform priors; ``uct_c = 2``; the move the most visited. Its random numbers are keyed by the game index, the seat and the decision, so a
game replays (and ``cardsim verify`` re-runs) to the same record.
"""
from __future__ import annotations

import hashlib

from cardsim.envs.extra import require

pyspiel = require("pyspiel", "open-spiel", "cardsim.envs.ismcts")
_ismcts = require("open_spiel.python.algorithms.ismcts", "open-spiel", "cardsim.envs.ismcts")
_mcts = require("open_spiel.python.algorithms.mcts", "open-spiel", "cardsim.envs.ismcts")

import numpy as np  # noqa: E402

from cardsim.envs import openspiel as cos  # noqa: E402
from cardsim.envs.rollout import random_returns  # noqa: E402
from cardsim.envs.table import Table  # noqa: E402

SIMULATIONS = (10, 30, 100, 300, 1000)
UCT_C = 2.0
_GAMES: dict[tuple, object] = {}


def _position(legal):
    """The step adapter (``cardsim/play/<game>.py`` ``Engine``) whose decisions ``legal`` lists: the
    protocol hands a policy ``(view, legal)``, and ``legal`` holds the adapter's bound ``name``."""
    return legal._name.__self__


def _openspiel_game(game: str, rules, players: int):
    key = (game, rules.describe(), players)
    if key not in _GAMES:
        _GAMES[key] = cos.load(game, rules, players=players, deals=1)
    return _GAMES[key]


def _key(*words) -> int:
    return int.from_bytes(hashlib.sha256(repr(words).encode()).digest()[:4], "little")


class RandomPlayouts(_mcts.Evaluator):
    """OpenSpiel's evaluator interface: a leaf's value is one compiled random play-out, priors uniform."""

    def evaluate(self, state):
        return np.array(state.returns() if state.is_terminal() else random_returns(state.table))

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTS:
    """An ISMCTS seat with ``SIMULATIONS`` simulations per token (subclassed per budget)."""

    simulations = 100
    timeout = 600.0
    """Seconds per decision (``cardsim.play.user``): the first search of a process loads the OpenSpiel
    game and compiles its play-outs (over 120 s for Molotow on a cold cache at a load of 6 on 2 cores),
    and a large budget searches several tokens."""

    def __init__(self) -> None:
        self.seat, self.game_index = 0, 0

    def reset(self, seat: int, game_index: int) -> None:
        self.seat, self.game_index = seat, game_index

    def __call__(self, view: dict, legal) -> int:
        engine = _position(legal)
        from cardsim.play.game import Game

        play = Game(engine.copy(), view["game"], ())
        table = Table.of(view["game"], play)
        game = _openspiel_game(view["game"], engine.rules, engine.players)
        rng = np.random.RandomState(_key(self.game_index, self.seat, view["turn"], self.simulations))
        bot = _ismcts.ISMCTSBot(game, RandomPlayouts(), UCT_C, self.simulations, random_state=rng)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
        while True:  # one search per token, from the tokens chosen so far, until they make a decision
            done = table.selection.choose(int(bot.step(cos.state_at(game, table.copy()))))
            if done is not None:
                return done


def openspiel_ismcts(simulations: int = 100) -> type:
    """The ISMCTS seat with ``simulations`` simulations per decision token, as a policy class."""
    if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations < 2:
        raise ValueError(f"openspiel_ismcts: simulations must be an integer >= 2 (the first one only expands "
                         f"the root), not {simulations!r}")
    name = f"ismcts_{simulations}"
    if name not in globals():
        cls = type(name, (ISMCTS,), {"simulations": simulations, "__qualname__": name, "__module__": __name__,
                                     "__doc__": f"OpenSpiel's ISMCTS, {simulations} simulations per token."})
        globals()[name] = cls
    return globals()[name]


for _n in SIMULATIONS:
    openspiel_ismcts(_n)
