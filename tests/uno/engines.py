"""Both Uno engines behind one face, so that a scenario test runs on each: the reference module
itself, and ``COMPILED``, which builds compiled states from the same hand-made positions
(``compiled.state_from``) and reads them back like ``reference.State``."""
from __future__ import annotations

import numpy as np

from cardsim.core import rng
from cardsim.games.uno import compiled as C
from cardsim.games.uno import reference
from cardsim.games.uno.cards import K
from cardsim.games.uno.rules import UnoRules


class View:
    """A compiled game read (and, for ``pending_draw``, written) like a ``reference.State``."""

    def __init__(self, state: np.ndarray, rules: UnoRules, policies: tuple[str, ...]) -> None:
        self.state, self.s = state, state[0]
        self.rules = rules
        self.params, self.policy, self.work = C.params_of(rules), C.policy_of(policies), C.new_work(rules)[0]

    def __getattr__(self, name: str):
        field = {"pending_draw": "pending", "successful_challenges": "successes"}.get(name, name)
        value = self.s[field]
        return value.item() if isinstance(value, np.generic) else value

    @property
    def pending_draw(self) -> int:
        return int(self.s["pending"])

    @pending_draw.setter
    def pending_draw(self, total: int) -> None:
        """A stacked total waiting for the player whose decision has begun: their choice becomes ``STACK``."""
        self.s["pending"] = total
        self.s["phase"] = C.turn_phase(self.s)

    @property
    def hands(self) -> list[list[int]]:
        return [[int(n) for n in self.s["hands"][p]] for p in range(self.players)]

    @property
    def pile(self) -> list[int]:
        return [int(c) for c in self.s["pile"][self.s["ptr"]:self.s["end"]]]

    @property
    def discard(self) -> list[int]:
        return [int(n) for n in self.s["discard"]]


class Compiled:
    """The functions of ``reference.py`` that scenario tests call, run on compiled states."""

    name = "compiled"

    @staticmethod
    def make_state(players: int, hands: list[str], top: str, *, rules: UnoRules | None = None,
                   policy: str = "random", **position) -> View:
        rules = rules or UnoRules()
        r = reference.make_state(players, hands, top, rules=rules, policy=policy, **position)
        return View(C.state_from(r), rules, (policy,) * players)

    @staticmethod
    def new_state(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> View:
        v = View(np.zeros(1, C.STATE), rules, policies)
        v.s["key"], v.s["players"] = np.uint64(rng.game_key(seed, game)), players
        return v

    @staticmethod
    def deal(v: View, hand_no: int) -> None:
        """The first hand (later hands are dealt by ``end_hand``, checked through the records)."""
        assert hand_no == 0
        C.new_game(v.s, v.params, v.players, v.s["key"], v.work)

    @staticmethod
    def start_with_card(v: View, dealer: int) -> None:
        C.start_with_card(v.s, dealer, v.params, v.work)

    @staticmethod
    def play_card(v: View, kind: int, fixed: reference.Fixed) -> None:
        """The current player plays ``kind``; a wild's target and colour come from ``fixed``."""
        v.s["phase"] = C.CARD
        C.apply(v.s, kind, v.params, v.work)
        while v.s["phase"] in (C.TARGET, C.COLOUR):
            choice = fixed.target(v.current) if v.s["phase"] == C.TARGET else fixed.colour(v.current)
            C.apply(v.s, choice, v.params, v.work)

    @staticmethod
    def decide(v: View) -> None:
        """The choices of one decision, by the seats' policies, until the turn passes (or the game ends)."""
        turns = v.turns
        while v.s["phase"] != C.OVER and v.turns == turns:
            C.apply(v.s, C.decide(v.s, v.params, v.policy, v.work), v.params, v.work)

    @staticmethod
    def draw_cards(v: View, player: int, n: int) -> list[int]:
        drawn = []
        for _ in range(n):
            card = C.draw_card(v.s, player, v.work)
            if card < 0:
                break
            drawn.append(card)
        return drawn

    @staticmethod
    def legal_cards(v: View, player: int) -> list[bool]:
        return [v.s["hands"][player, k] > 0 and C.playable(v.s, player, k) for k in range(K)]

    @staticmethod
    def hand_points(v: View, winner: int) -> int:
        return C.hand_points(v.s, winner)


ENGINES = {"reference": reference, "compiled": Compiled}

