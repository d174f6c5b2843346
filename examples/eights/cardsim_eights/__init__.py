"""Eights, a small Crazy Eights (README.md, rules E-1 .. E-7): the ``GameSpec`` cardsim finds through the
``cardsim.games`` entry point of this distribution. A reference engine only: cardsim then plays it
in plain Python everywhere (no compiled engine is needed to plug a game in)."""
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, Column

from cardsim_eights.engine import POLICIES, play
from cardsim_eights.rules import EightsRules

COLUMNS = COMMON + (
    Column("winner", "int64", "seat that emptied its hand first, or held the fewest cards when blocked (E-6); "
                              "-1 when truncated"),
    Column("blocked", "bool", "nobody could play or draw: the fewest cards won (E-6)"),
    Column("draws", "int64", "cards drawn from the stock (E-5)"),
    Column("eights", "int64", "eights played as wild cards (E-4)"),
)

GAME = GameSpec(name="eights", rules=EightsRules, min_players=2, max_players=6, policies=POLICIES,
                columns=COLUMNS, play=play, rules_page="examples/eights/README.md (cardsim-eights)")
