"""Moska rules: the knobs of docs/rules/moska.md and the four presets of seed 000/001.

This file only says which rules a table plays; how they are played is in
``reference.py`` (the readable oracle) and ``compiled.py`` (the fast engine).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from cardsim.core.rules import Rules, knob

DECK_SIZE = 52
OPTIONS: dict[str, str] = {
    "swap": "M-6: the holder of the trump 2 exchanges it for the turned trump card (with trump_two_swap)",
    "self_attack": "M-14: the defender attacks and kills their own cards (with defender_self_attack, TARAKI)",
    "continuation": "M-11: additions of the ranks of kill cards (with continuation=attack_and_kill); "
                    "attack ranks stay allowed",
}
"""The optional actions a seat may be forbidden (``greedy(forbid=swap+self_attack)``, restricted play): a
forbidden seat never takes them (``policies.FORBID`` says how each engine applies them)."""


@dataclass(frozen=True)
class MoskaRules(Rules):
    """One Moska variant; defaults are plain Moska (seed 000)."""

    GAME: ClassVar[str] = "moska"
    DEFAULT_PRESET: ClassVar[str] = "moska"
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "moska": {},
        "turamoska": {"continuation": "attack_and_kill"},
        "pyhaselka": {"continuation": "attack_and_kill", "attack_cap": None, "cap_to_defender_hand": False},
        "taraki": {"trump_two_swap": False, "defender_self_attack": True, "defender_closes": True,
                   "excess_return": "attacker"},
    }

    continuation: str = knob("attack", "M-11: ranks allowed in additions: of attack cards, or of attack and kill cards",
                             choices=("attack", "attack_and_kill"))
    attack_cap: int | None = knob(6, "M-9: most attack cards at one defender (None = no cap)",
                                  type=int, minimum=1, maximum=DECK_SIZE, allow_none=True)
    cap_to_defender_hand: bool = knob(True, "M-9: the cap is also the defender's hand size")
    cap_mode: str = knob("round", "M-9: count all attack cards of the round, or only the unkilled ones",
                         choices=("round", "unkilled"))
    trump_two_swap: bool = knob(True, "M-6: the trump 2 may be exchanged for the turned trump card")
    defender_self_attack: bool = knob(False, "M-14: the defender may attack and kill their own cards, and at most "
                                             "attack_cap (6 if None) cards leave their hand in a round (TARAKI)")
    defender_closes: bool = knob(False, "M-14b: a defender who has killed every card on the table ends the round")
    excess_return: str = knob("defender", "M-12: who decides which over-played cards go back: the defender, the "
                                          "round's attacker, or the last over-players",
                              choices=("defender", "attacker", "last"))
    hand_size: int = knob(6, "M-3: cards dealt and refilled to", minimum=1, maximum=(DECK_SIZE - 1) // 2)
    max_turns: int = knob(10_000, "M-21: decisions before a game is truncated", minimum=1)
    repetition: bool = knob(False, "M-23: with the stock empty, a round that would begin in the position one of "
                                   "the last 64 began in ends the game (no loser)")

    def check_players(self, players: int) -> None:
        # M-3: every hand is dealt and one card is left to turn for trump
        if players * self.hand_size + 1 > DECK_SIZE:
            raise ValueError(f"moska: {players} players x hand_size {self.hand_size} + 1 trump card exceeds "
                             f"{DECK_SIZE} cards; allowed hand_size for {players} players: "
                             f"at most {(DECK_SIZE - 1) // players}")
