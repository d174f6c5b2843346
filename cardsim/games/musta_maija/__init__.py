"""Musta-Maija (docs/rules/musta_maija.md): rules, reference and compiled engines, policies."""
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, SHEDDING, columns
from cardsim.games.musta_maija.compiled import simulate
from cardsim.games.musta_maija.policies import POLICIES
from cardsim.games.musta_maija.seating import play
from cardsim.games.musta_maija.rules import OPTIONS, MustaMaijaRules

COLUMNS = COMMON + SHEDDING + columns("""
    finish_order         str    seats in the order they went out (MM-14), e.g. "2,0,3"; the loser is not in it
    black_maria_holder   int64  seat holding the queen of spades at the end, -1 if no hand holds it (discarded
                                under black_maria='highest_trump', or on the table when truncated)
    trump_suit           int64  trump suit at the end: 0 ♣, 1 ♦, 2 ♥ (spades are never trump), -1 if none
    trump_declared_turn  int64  decision at which a marriage declared the trump, -1 if never
""")

GAME = GameSpec(
    name="musta_maija",
    rules=MustaMaijaRules,
    min_players=2,
    max_players=8,
    policies=POLICIES,
    columns=COLUMNS,
    play=play,
    compiled=simulate,
    options=OPTIONS,
)
