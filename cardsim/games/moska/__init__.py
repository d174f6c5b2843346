"""Moska (docs/rules/moska.md): the ``GameSpec`` the library sees."""
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, SHEDDING, columns
from cardsim.games.moska import compiled, seating
from cardsim.games.moska.policies import POLICIES
from cardsim.games.moska import rules
from cardsim.games.moska.rules import MoskaRules

COLUMNS = COMMON + SHEDDING + columns("""
    finish_order  str    seats in the order they went out (M-18), e.g. "2,0,3"; the loser is not in it
    trump_suit    int64  trump suit of the deal (M-5): 0 ♣, 1 ♦, 2 ♥, 3 ♠
    swaps         int64  trump-two swaps made (M-6): 0 or 1
    overplays     int64  addition steps whose excess went back to the hands (M-12)
    pickups       int64  rounds in which the defender picked up unkilled cards (M-17)
    self_attacks  int64  cards the defender attacked and killed themselves (M-14, TARAKI)
""")

GAME = GameSpec(
    name="moska",
    rules=MoskaRules,
    min_players=2,
    max_players=8,
    policies=tuple(POLICIES),
    columns=COLUMNS,
    play=seating.play,
    compiled=compiled.simulate,
    options=rules.OPTIONS,
)
