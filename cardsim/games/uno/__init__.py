"""Uno (``docs/rules/uno.md``, U-1..U-21): rules, reference and compiled engines, policies.

The record adds to the common columns: ``winner`` (dealer-relative seat of the first
hand; -1 when truncated), ``points`` (U-19: what the winner scored in the hand, or
their match total with ``target_score``), ``hands`` (hands played: 1 without
``target_score``), and whole-game counters ``cards_drawn``, ``reshuffles``,
``challenges``, ``successful_challenges``.
"""
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, columns
from cardsim.games.uno.compiled import simulate
from cardsim.games.uno.policies import NAMES
from cardsim.games.uno.seating import play
from cardsim.games.uno import rules
from cardsim.games.uno.rules import UnoRules

COLUMNS = COMMON + columns("""
    winner                 int64  seat (of the first hand's dealer) that won the hand, or the match with
                                  target_score; -1 when truncated
    points                 int64  U-19 points the winner scored: the hand's, or the match total with target_score
    hands                  int64  hands played (1 without target_score; the truncated hand counts)
    cards_drawn            int64  cards drawn from the draw pile during play (deal and starter excluded)
    reshuffles             int64  times the discard pile was reshuffled into the draw pile (U-8)
    challenges             int64  Wild Draw Fours challenged (U-14)
    successful_challenges  int64  challenges that caught an illegal Wild Draw Four
""")

GAME = GameSpec(name="uno", rules=UnoRules, min_players=2, max_players=10, policies=NAMES,
                columns=COLUMNS, play=play, compiled=simulate, options=rules.OPTIONS)
