"""The knobs of Eights (README.md) and its presets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardsim.core.rules import Rules, knob


@dataclass(frozen=True)
class EightsRules(Rules):
    GAME: ClassVar[str] = "eights"
    PRESETS: ClassVar[dict] = {"crazy": {}, "plain": {"eights_wild": False}}
    DEFAULT_PRESET: ClassVar[str] = "crazy"

    hand_size: int = knob(5, "cards dealt to each seat (E-1)", minimum=1, maximum=8)
    eights_wild: bool = knob(True, "an eight plays on anything and names the suit to follow (E-4)")
    max_turns: int | None = knob(500, "decisions before truncation (E-7; None = no limit)", minimum=1,
                                 allow_none=True, type=int)

