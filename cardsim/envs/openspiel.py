"""Every cardsim game as an OpenSpiel Python game: ``pyspiel.load_game("cardsim_moska", {...})``.

Importing this module registers ``cardsim_moska``, ``cardsim_musta_maija``, ``cardsim_uno`` and
``cardsim_molotow``. Parameters: ``players`` (0: the rules' own, 4 or Molotow's ``players`` knob),
``rules`` (a preset name or string form as ``rules_parameter`` writes it, "" for the default;
``load`` takes rules as cardsim does), ``seed`` and ``deals``. Each game is sequential,
imperfect-information and zero-sum (``cardsim.envs.returns``; terminal rewards only), played over
the step API:

- **Chance** is explicit and happens once: the first node deals game ``i`` of ``seed``, ``i``
  uniform over ``0 .. deals - 1``. Everything random after the deal (the stock, reshuffles, ...) is
  fixed by that game's key, as in ``cardsim.simulate``.
- **Actions** are the game's tokens (``cardsim.envs.codings``): one protocol decision is one to a
  few actions of the same player; ``legal_actions()`` is ascending.
- **Information state string**: the acting player's view (``Game.view``, everything the rules let
  the seat know: its hand, the table, what is known of the other hands, the counts) and the tokens
  it has chosen at the decision under way. It abstracts over the order of past plays (not perfect
  recall): positions the seat cannot tell apart by its view are one information state.
- **Observation**: the same string; the tensor is the view as ``codings``' fixed-shape vector.
- ``resample_from_infostate(player, sampler)`` deals the cards ``player`` cannot see again, keeping
  what it knows (``cardsim.envs.resample``), so OpenSpiel's ``ISMCTSBot`` searches it.
"""
from __future__ import annotations

from cardsim.envs.extra import require

pyspiel = require("pyspiel", "open-spiel", "cardsim.envs.openspiel")

import numpy as np  # noqa: E402

from cardsim.envs.codings import coding  # noqa: E402
from cardsim.envs.resample import resample  # noqa: E402
from cardsim.envs.table import Table, default_players  # noqa: E402

DEALS = 1000
"""The default number of deals the chance node draws from (parameter ``deals``)."""
GAMES = ("moska", "musta_maija", "uno", "molotow")
MAX_LENGTH = 2**31 - 1


def short_name(game: str) -> str:
    return f"cardsim_{game}"


_RULES_CODE = str.maketrans({"(": "[", ")": "]", ",": ";", "=": ":", " ": ""})
_RULES_TEXT = str.maketrans({"[": "(", "]": ")", ";": ", ", ":": "="})


def rules_parameter(rules) -> str:
    """A rules object as the ``rules`` parameter: its string form with ``( ) , =`` written ``[ ] ; :``,
    which OpenSpiel's game strings leave alone (``turamoska[attack_cap:None]``)."""
    return rules.describe().translate(_RULES_CODE)


def rules_of(parameter: str) -> str:
    """The string form a ``rules`` parameter stands for."""
    return parameter.translate(_RULES_TEXT)


def _decisions_bound(game: str, rules) -> int:
    """An upper bound on a game's decisions, from its rules (OpenSpiel's ``max_game_length``)."""
    if game == "molotow":
        return rules.max_turns or 36 * rules.hands
    if game == "uno":
        return rules.max_turns * (1 if rules.target_score is None else 1000)
    return rules.max_turns


def game_type(game: str) -> pyspiel.GameType:
    from cardsim.games import spec

    g = spec(game)
    return pyspiel.GameType(
        short_name=short_name(game), long_name=f"cardsim {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players, min_num_players=g.min_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": 0, "rules": "", "seed": 0, "deals": DEALS})


class CardsimGame(pyspiel.Game):
    """One cardsim game under fixed rules, players and seed (see the module docstring)."""

    NAME = ""

    def __init__(self, params=None) -> None:
        from cardsim import api
        from cardsim.games import spec

        game = self.NAME
        params = {"players": 0, "rules": "", "seed": 0, "deals": DEALS, **(params or {})}
        self.game = game
        self.cardsim_rules = api.rules(game, rules_of(params["rules"]) or None)
        players = int(params["players"]) or default_players(self.cardsim_rules)
        self.players = spec(game).check_players(self.cardsim_rules, players)
        self.seed, self.deals = int(params["seed"]), int(params["deals"])
        if self.deals < 1:
            raise ValueError(f"{short_name(game)}: deals must be at least 1, not {self.deals}")
        self.coding = coding(game)
        length = 1 + _decisions_bound(game, self.cardsim_rules) * self.coding.actions.max_tokens
        info = pyspiel.GameInfo(
            num_distinct_actions=self.coding.actions.actions, max_chance_outcomes=self.deals,
            num_players=self.players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=min(length, MAX_LENGTH))
        super().__init__(game_type(game), info, params)

    def new_initial_state(self, table: Table | None = None):
        """The chance node of the deal; or, given a ``Table``, a state at that table's position."""
        return CardsimState(self, table)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CardsimObserver(self)


class CardsimState(pyspiel.State):
    """A position: the chance node of the deal (``table`` None), or a ``Table`` of the step API."""

    def __init__(self, game: CardsimGame, table: Table | None = None) -> None:
        super().__init__(game)
        self.table = table

    def _game(self) -> CardsimGame:
        return self.get_game()  # the Python game object: its cardsim rules, players, seed and deals

    def current_player(self) -> int:
        if self.table is None:
            return pyspiel.PlayerId.CHANCE
        if self.table.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.table.seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._game().deals
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            g = self._game()
            self.table = Table(g.game, g.cardsim_rules, g.players, g.seed, int(action))
        else:
            self.table.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal game {action}"
        return self._game().coding.actions.name(action)

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.is_over

    def returns(self) -> list[float]:
        return [0.0] * self._game().players if self.table is None else self.table.returns()

    def infostate(self, player: int) -> str:
        """``player``'s view and, when it is to act, its tokens chosen so far: the information state string."""
        if self.table is None:
            return f"p{player} before the deal"
        mine = self.table.chosen() if player == self.table.seat else []
        return f"p{player} {self.table.play.view(player)} chosen {mine}"

    def resample_from_infostate(self, player: int, probability_sampler) -> CardsimState:
        """A copy with the cards ``player`` cannot see dealt again (a world key drawn from the sampler)."""
        if self.table is None or self.table.is_over:
            return self.clone()
        clone = self.clone()
        key = int(probability_sampler() * 2**53) * 2**11 + 1
        resample(clone.table, player, key)
        return clone

    def __str__(self) -> str:
        if self.table is None:
            return "before the deal"
        t = self.table
        hands = [t.play.view(q)["hand"] for q in range(t.players)]
        where = "over" if t.is_over else f"seat {t.seat} to act, chosen {t.chosen()}"
        return f"{t.game} decision {t.play.turn}, {where}; hands {hands}; seat 0 sees {t.play.view(0)}"


class CardsimObserver:
    """OpenSpiel's observer for a cardsim game: the information state string and the view's vector."""

    def __init__(self, game: CardsimGame) -> None:
        self.coding, self.players = game.coding, game.players
        self.tensor = np.zeros(self.coding.size(game.players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardsimState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.table.observation(player)

    def string_from(self, state: CardsimState, player: int) -> str:
        return state.infostate(player)


def _register(game: str) -> None:
    cls = type(f"Cardsim_{game}", (CardsimGame,), {"NAME": game, "__doc__": f"cardsim {game} as an OpenSpiel game."})
    globals()[cls.__name__] = cls
    pyspiel.register_game(game_type(game), cls)


def load(game: str, rules=None, players: int | None = None, seed: int = 0, deals: int = DEALS):
    """``pyspiel.load_game`` of a cardsim game (``rules`` a preset name or string form)."""
    from cardsim import api

    r = api.rules(game, rules)
    params = {"players": default_players(r) if players is None else players,
              "rules": "" if rules is None else rules_parameter(r), "seed": seed, "deals": deals}
    return pyspiel.load_game(short_name(game), params)


def state_at(game, table: Table) -> CardsimState:
    """An OpenSpiel state of ``game`` (from ``load``) at the position of ``table`` (not copied)."""
    return CardsimState(game, table)


for _name in GAMES:
    _register(_name)
