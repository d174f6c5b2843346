"""``UnoRules``: the knobs of ``docs/rules/uno.md`` and its named presets (not the play)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardsim.core.rules import Rules, knob
from cardsim.games.uno.cards import DECK_SIZES

OPTIONS: dict[str, str] = {
    "stack": "U-11: answer a pending Draw Two with a Draw Two (only where stack_draw_two allows it)",
    "challenge": "U-14: challenge a Wild Draw Four (only where wd4_challenge allows it)",
    "bluff": "U-13: play a Wild Draw Four while holding a card of the current colour (an illegal play, caught only "
             "by a challenge)",
}
"""The optional actions a seat may be forbidden (``greedy(forbid=stack+challenge)``, restricted play: COMMON
convention of issue 27). Drawing while a card could be played (U-7) is not one: no built-in policy ever does it;
a drawn playable card is always played (the protocol makes no choice of it)."""


@dataclass(frozen=True)
class UnoRules(Rules):
    """Uno rules knobs; defaults are the official rules of the seed (preset ``official``)."""

    GAME: ClassVar[str] = "uno"
    DEFAULT_PRESET: ClassVar[str] = "official"
    PRESETS: ClassVar[dict] = {
        "official": {},
        "stacking": {"stack_draw_two": True},
        "deck_2018": {"deck": "2018"},
        "draw_until_playable": {"draw_rule": "until_playable"},
    }

    deck: str = knob("classic", "U-2: 'classic' 108 cards, '2018' adds Shuffle Hands and 3 custom wilds",
                     choices=("classic", "2018"), deck=True)
    hand_size: int = knob(7, "U-4: cards dealt to each player", minimum=1, maximum=50)
    draw_rule: str = knob("one", "U-7: a player who does not play draws 'one' card or 'until_playable'",
                          choices=("one", "until_playable"))
    stack_draw_two: bool = knob(False, "U-11: a Draw Two may be answered with a Draw Two (house rule)")
    wd4_challenge: bool = knob(True, "U-14: the player hit by a Wild Draw Four may challenge it")
    custom_wild: str = knob("wild", "U-16: rule of the 3 blank wilds of the 2018 deck",
                            choices=("wild", "swap_hands", "everyone_draws_one"))
    target_score: int | None = knob(None, "U-20: None = one hand per game; N = hands until someone has N points",
                                    minimum=1, allow_none=True, type=int)
    max_turns: int = knob(5000, "U-21: decisions per hand before it is stopped as truncated", minimum=1)

    def check(self) -> None:
        if self.custom_wild != "wild" and self.deck != "2018":
            raise ValueError(f"uno knob custom_wild={self.custom_wild!r} needs deck='2018' "
                             "(the classic deck has no customizable wilds)")

    def check_players(self, players: int) -> None:
        # U-4, U-5: the deal must leave 5 cards, so that a starting card other than one of
        # the 4 Wild Draw Fours always exists [decision]
        cards = DECK_SIZES[self.deck]
        if self.hand_size * players + 5 > cards:
            raise ValueError(f"uno: hand_size={self.hand_size} for {players} players needs "
                             f"{self.hand_size * players + 5} cards (the hands and 5 to turn a starting card "
                             f"from), the {self.deck} deck has {cards}")
