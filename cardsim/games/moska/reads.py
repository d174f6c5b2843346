"""What a Moska seat's choices say of its hand, read as ``greedy``'s: the cards it does not hold.

``mc(beliefs=reads)`` deals its worlds so that every other seat's hidden cards avoid what the table
has read from that seat's choices (``compiled.determinize``), the way Uno's ``mc`` reads the draws and
plays (``uno/reference.py``). Reading every seat as ``greedy`` (``policies.GreedyPolicy``) is a model, the
one the play-outs use; a seat that does not play greedy is misread, and a world meets the reads only as
far as the cards go. Each read uses only what the whole table sees: the decision, its kind, the trump,
the table, the room and allowed ranks of the step, the stock's size. ``State.barred[q]`` collects the
reads of seat ``q``'s decisions since its last draw from the stock (a draw brings unseen cards, so the
reads are dropped then); the engines keep them only while some seat reads (``State.reads``).

The reads (``below(c)``: the cards of code below ``c``; ``plain``: not trump; ``low``: ranks 2..T):
- **open** one card ``c``: a plain ``c`` says no plain card of a lower rank, nor of its rank and a lower
  code (greedy opens its lowest plain card when it has no low plain pair); a trump ``c`` says no plain
  card at all, nor a lower trump. Openings of several cards are not read.
- **kill**, for each unkilled attack card ``a`` in ascending code while the six-card limit allows a kill
  (M-14), with ``K`` its killers (M-10): killed with a plain ``k``: no plain killer below ``k``; with a
  trump ``k``: no plain killer, no trump killer below ``k``; left unkilled: no killer at all, or, for a
  plain ``a`` while the stock holds cards, no plain killer and no low trump (greedy keeps J..A trumps).
- **add** ``A`` with room ``R`` (M-11): with ``E`` the allowed plain cards (low ones while the stock holds
  cards), when ``A`` is within ``E``: fewer than ``R`` cards say no other card of ``E``; ``R`` cards say no
  other card of ``E`` below the highest of ``A`` (greedy adds the lowest codes of ``E``).
- self-attacks (M-14) and give-backs (M-12) are not read.
"""
from __future__ import annotations

from cardsim.core.cards import FRENCH52, count
from cardsim.games.moska.policies import LOW_CARDS


def below(card: int) -> int:
    """The cards of code below ``card``."""
    return (1 << card) - 1


def opening(cards: int, trump: int) -> int:
    """The cards an opening of ``cards`` says its seat does not hold."""
    if count(cards) != 1:
        return 0
    c = cards.bit_length() - 1
    trumps = FRENCH52.suit_mask(trump)
    plain = ((1 << 52) - 1) & ~trumps
    if FRENCH52.suit(c) == trump:
        return plain | (trumps & below(c))
    lower = sum(FRENCH52.rank_mask(r) for r in range(FRENCH52.rank(c)))
    return plain & (lower | (FRENCH52.rank_mask(FRENCH52.rank(c)) & below(c)))


def kill(attack: int, killer: int, killers_of: int, trump: int, stock_left: int) -> int:
    """The cards the defender's choice of ``killer`` (-1: none) for ``attack`` says it does not hold;
    ``killers_of``: every card that kills ``attack`` (``KILL[trump][attack]``)."""
    trumps = FRENCH52.suit_mask(trump)
    plain = killers_of & ~trumps
    if killer >= 0:
        if FRENCH52.suit(killer) == trump:
            return plain | (killers_of & trumps & below(killer))
        return plain & below(killer)
    if FRENCH52.suit(attack) != trump and stock_left > 0:
        return plain | (trumps & LOW_CARDS)
    return killers_of


def addition(cards: int, allowed: int, room: int, trump: int, stock_left: int) -> int:
    """The cards an addition of ``cards`` (room ``room``, ``allowed`` the cards of allowed ranks) says its
    seat does not hold."""
    eligible = allowed & ~FRENCH52.suit_mask(trump)
    if stock_left > 0:
        eligible &= LOW_CARDS
    if cards & ~eligible:
        return 0
    if count(cards) < room:
        return eligible & ~cards
    return eligible & ~cards & below(cards.bit_length() - 1)

