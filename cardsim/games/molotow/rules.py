"""Molotow Jass rules objects: the knobs of ``docs/rules/molotow.md`` and its presets.

Only what a table agrees on before the first deal lives here; how a hand is played
is in ``reference.py`` (readable) and ``compiled.py`` (fast).
"""
from __future__ import annotations

from dataclasses import dataclass

from cardsim.core.rules import Rules, knob
from cardsim.games.molotow.cards import CARD_POINTS

UNDERTRUMP = ("seed", "forbidden", "allowed")
BIG_HAND = ("seed", "one_each")
OPTIONS = {
    "trump_instead": "MJ-9: play a trump on a plain lead while holding the led suit",
    "undertrump": "MJ-10: play a trump lower than one already in the trick on a plain lead",
    "keep_buur": "MJ-11: keep the trump Under back when it is the only card that would follow suit or "
                 "satisfy MJ-10",
}
"""The optional actions a seat may be forbidden (``greedy(forbid=undertrump)``, restricted play): name -> the
rule that offers it. A policy with ``forbid`` never takes them while another legal card remains
(``reference.allowed_moves``)."""


@dataclass(frozen=True)
class MolotowRules(Rules):
    """The knobs of Molotow Jass (MJ-1, MJ-4, MJ-10, MJ-16, MJ-17, MJ-19)."""

    GAME = "molotow"
    PRESETS = {
        "molotow": {},
        "swiss": {"undertrump": "forbidden", "big_hand": "one_each"},
        "mittlere": {"players": 3},
    }
    DEFAULT_PRESET = "molotow"

    players: int = knob(4, "MJ-1: 4 players, or 3 at the 'Mittlere' table (12 cards each)", choices=(3, 4))
    undertrump: str = knob("seed", "MJ-10: after a trump on a plain lead, 'seed' = follow, overtrump or else "
                           "undertrump; 'forbidden' = no lower trump unless only trumps; 'allowed' = free",
                           choices=UNDERTRUMP)
    big_hand: str = knob("seed", "MJ-16/17: the others of a 100+ or all-points hand get 3 sticks/potatoes "
                         "('seed') or one each ('one_each')", choices=BIG_HAND)
    hands: int = knob(12, "MJ-19: hands in a game; the deal passes to the right after each", minimum=1)
    last_trick_bonus: int = knob(5, "MJ-4: points for the last trick; a hand's points total 152 + this "
                                 "(at most 47, so that only one player can reach 100)", minimum=0, maximum=47)
    max_turns: int | None = knob(None, "stop a game after this many cards played (truncated, no winner); "
                                 "None = play every hand", minimum=1, allow_none=True, type=int)

    @property
    def total_points(self) -> int:
        """All the card points of a hand, 157 with the seed's bonus (MJ-4, MJ-17)."""
        return CARD_POINTS + self.last_trick_bonus

    def check_players(self, players: int) -> None:
        if players != self.players:
            hint = "use the preset mittlere or players=3" if players == 3 else "use the preset molotow or players=4"
            raise ValueError(f"molotow rules are for {self.players} players (knob players), not {players}; {hint}")
