"""What an endgame choice says of its seat's hand, read as ``greedy``'s (``mc(beliefs=reads)``).

``mc(beliefs=reads)`` deals its worlds so that every other seat's hidden cards avoid what the table has
read from that seat's choices (``compiled.determinize``), as Moska's ``mc`` does (``games/moska/reads.py``).
A choice is read as ``greedy``'s (``policies.py``); a seat that does not play ``greedy`` is misread, and a
world meets the reads only as far as the hidden cards allow. ``barred[q]`` collects the reads of seat
``q``'s decisions; a draw from the stock brings unseen cards and drops them, and cards picked up (MM-12) leave
them (they are known). So only choices made with the stock empty are read: before that every attack and
every defence is followed by a draw. Both engines keep the reads only while some seat reads (``reads``).

The reads, from what the whole table sees (the cards played, the table, the trump after the decision's
declaration, the defender's hand size; never a hand):

- **An attack** with the stock empty (MM-13: at most ``cap`` cards, the defender's hand size). ``greedy``
  holding the Black Maria attacks with it and the ``cap - 1`` lowest other spades; otherwise with the ``cap``
  lowest cards of one suit. So an attack without the Black Maria says the seat does not hold it. Of the
  attack's suit (the other spades, with the Black Maria): fewer cards than it could play say it holds no more
  of them; as many say it holds none ranked below the highest it played.
- **A defence** with the stock empty: ``greedy`` beats with ``beat_with(table, hand)`` (the Black Maria
  willing only with ``black_maria="highest_trump"``). An attack card left unbeaten (not the Black Maria)
  says the seat holds no card of the attack's suit ranked above the lowest card left (an unused one would
  have beaten a lower card), no trump when the attack is not of trumps (the willing trumps beat what the
  suit left), and with ``"highest_trump"`` not the Black Maria. The beaters it played are not barred.

Scalar here (hands as int masks, cards.py), for the reference engine; ``compiled.read`` is its twin.
"""
from __future__ import annotations

from cardsim.games.musta_maija.cards import BLACK_MARIA, RANKS, SPADES, cards, rank, suit
from cardsim.games.musta_maija.policies import HIGHEST_TRUMP

MARIA = 1 << BLACK_MARIA


def ranks_of(s: int, ranks: range) -> int:
    """Both copies of the cards of suit ``s`` with the given ranks."""
    return sum((1 << s * RANKS + r) | (1 << 52 + s * RANKS + r) for r in ranks)


def attack(played: int, cap: int) -> int:
    """The cards an attack of ``played`` with the stock empty says its seat does not hold (``cap``: the most it
    could play, MM-13)."""
    if played & MARIA:
        s, rest, room, bar = SPADES, played & ~MARIA, cap - 1, 0
    else:
        s, rest, room, bar = suit(cards(played)[0]), played, cap, MARIA
    ranks = [rank(c) for c in cards(rest)]
    if len(ranks) < room:
        bar |= ranks_of(s, range(RANKS))
    elif ranks:
        bar |= ranks_of(s, range(max(ranks)))
    return bar & ~played


def defence(table: int, beaten: int, beaters: int, trump: int, black_maria: str) -> int:
    """The cards a defence with the stock empty says its seat does not hold: ``table`` the attack, ``beaten``
    the attack cards it beat with ``beaters``; ``trump`` after the decision's declaration."""
    left = table & ~beaten & ~MARIA
    if not left:
        return 0
    s = suit(cards(table)[0])
    bar = ranks_of(s, range(min(rank(c) for c in cards(left)) + 1, RANKS)) & ~MARIA
    if black_maria == HIGHEST_TRUMP:
        bar |= MARIA
    if 0 <= trump != s:
        bar |= ranks_of(trump, range(RANKS))
    return bar & ~beaters
