"""Musta-Maija's knobs and presets (docs/rules/musta_maija.md); no game logic here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from cardsim.core.rules import Rules, knob
from cardsim.games.musta_maija.cards import RANKS, card_list, two_decks

OPTIONS: dict[str, str] = {
    "declare": "declaring a marriage's suit trump (MM-5), a choice at any of the holder's decisions under trump='marriage'",
}
"""The optional actions a seat may be forbidden (``forbid=OPTION``, issue 27's restricted play), with their rules."""


@dataclass(frozen=True)
class MustaMaijaRules(Rules):
    GAME: ClassVar[str] = "musta_maija"
    trump: str = knob("marriage", "how the trump suit is chosen: a declared marriage (MM-5), always "
                      "diamonds (MM-6) or the turned stock card (MM-7)",
                      choices=("marriage", "diamonds", "turned"))
    black_maria: str = knob("unbeatable", "the queen of spades beats nothing (MM-2) or is the highest "
                            "trump (MM-3); nothing ever beats it", choices=("unbeatable", "highest_trump"))
    hand_size: int = knob(6, "cards dealt to each player (MM-4); a defender draws back up to it (MM-11, MM-12), "
                          "an attacker too with refill='to_hand_size' (MM-9)", minimum=1)
    refill: str = knob("played", "what an attacker draws (MM-9): as many cards as they played (the seed), or up "
                       "to hand_size (the house rule used before)", choices=("played", "to_hand_size"))
    must_beat: str = knob("all_if_possible", "the duty to beat (MM-10): a defender who can beat every attack card "
                          "must (the seed), or no duty at all (the house rule used before)",
                          choices=("all_if_possible", "free"))
    max_turns: int = knob(10_000, "decisions before a game is stopped as truncated (MM-16)", minimum=1)
    repetition: bool = knob(False, "MM-18: with the stock empty, an attack that would begin in the position one of "
                                   "the last 64 began in ends the game (no loser)")

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "musta_maija": {},
        "diamonds": {"trump": "diamonds"},
        "turned": {"trump": "turned"},
        "black_trump": {"black_maria": "highest_trump"},
        "five_cards": {"hand_size": 5},
        "house": {"refill": "to_hand_size", "must_beat": "free"},
    }
    DEFAULT_PRESET: ClassVar[str] = "musta_maija"

    def check_players(self, players: int) -> None:
        """The deal must fit the deck (MM-1, MM-4); a turned trump needs a non-spade in the stock (MM-7)."""
        n_cards = len(card_list(players))
        stock = n_cards - players * self.hand_size
        if stock < 0:
            raise ValueError(f"musta_maija knob hand_size={self.hand_size} needs {players * self.hand_size} "
                             f"cards for {players} players; the deck has {n_cards}")
        spades = RANKS * (2 if two_decks(players) else 1) - (1 if two_decks(players) else 0)
        if self.trump == "turned" and stock <= spades:
            raise ValueError(f"musta_maija knob trump='turned' needs a stock of more than {spades} cards "
                             f"(all spades) to turn a non-spade; hand_size={self.hand_size} with {players} "
                             f"players leaves {stock}")
