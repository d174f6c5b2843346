"""Molotow's events: the columns it adds to ``core.records.EVENTS``, how a raw event reads, its text.

The reference engine records one raw tuple per event (``reference.Hand.note``). Each
card played is one decision. Actions: ``deal`` a seat's nine (or twelve) cards (MJ-5);
``play`` a card (MJ-6…MJ-11); ``trump`` the suit set by the first card that does not
follow (MJ-8); ``take`` the trick's cards, in the order played, to its winner (MJ-12);
``tie_draw`` a card drawn by a seat of a three-way tie, one row per seat and attempt
(MJ-15); ``score`` a seat's points, sticks and potatoes for the hand (MJ-4, MJ-13…MJ-18);
``truncated`` and ``table`` (the cards of the unfinished trick) when ``max_turns``
stops the game; ``final`` each seat's cards at the end.
"""
from __future__ import annotations

from cardsim.core.boards import Board
from cardsim.core.records import EVENT_PHRASES, EVENTS, EventBook, card_names, columns, sizes
from cardsim.games.molotow.cards import DECK, NO_TRUMP

COLUMNS = EVENTS + columns("""
    hand      int64  the hand of the game, from 0 (MJ-19); its dealer is seat hand % players
    trick     Int64  the trick of the hand, from 0 (empty outside tricks: the deal, the scores)
    trump     str    the hand's trump suit after the event, ♠ ♥ ♦ ♣ ('' while none is set, MJ-8)
    points    Int64  a `score` event: the seat's card points for the hand (MJ-4), else empty
    sticks    Int64  a `score` event: the sticks the seat gets for the hand, else empty
    potatoes  Int64  a `score` event: the potatoes the seat gets for the hand, else empty
""")

PHRASES = EVENT_PHRASES | {  # and table, final
    "deal": "hand {hand}: seat {seat} is dealt {cards}",
    "play": "trick {trick}: seat {seat} plays {cards}",
    "trump": "seat {seat} did not follow: {trump} is trump (MJ-8)",
    "take": "seat {seat} takes trick {trick}: {cards}",
    "tie_draw": "seat {seat} draws {cards} (three-way tie, MJ-15)",
    "score": "hand {hand}: seat {seat} has {points} points, {sticks} sticks, {potatoes} potatoes",
    "truncated": "stopped after max_turns cards: truncated, hand {hand} is not scored",
}


def row(raw: tuple) -> tuple:
    """The values of ``COLUMNS`` for one raw event of ``reference.Hand.note``; a hand mask's cards read
    lowest card first, other cards in the order they moved."""
    decision, seat, action, cards, held, hand, trick, trump, scored = raw
    points, sticks, potatoes = scored or (None, None, None)
    return (decision, seat, action, card_names(cards, DECK.name), -1, sizes(h.bit_count() for h in held), hand,
            trick, "" if trump == NO_TRUMP else DECK.suits[trump], points, sticks, potatoes)


def boards(log: list[tuple]) -> list[Board]:
    """The table after each raw event: the hands, the trick's cards in the order played (gone at
    ``take`` and at a new hand's ``deal``), the hand, the trick and the trump; there is no stock."""
    out, trick = [], []
    for decision, seat, action, cards, held, hand, number, trump, scored in log:
        if action == "play":
            trick += card_names(cards, DECK.name).split()
        elif action in ("take", "deal"):
            trick = []
        state = (f"hand {hand}" + ("" if number is None else f" · trick {number}")
                 + f" · trump {'none yet' if trump == NO_TRUMP else DECK.suits[trump]}")
        out.append(Board(tuple(tuple(card_names(h, DECK.name).split()) for h in held), tuple((c,) for c in trick),
                         0, state))
    return out

BOOK = EventBook(COLUMNS, row, PHRASES, boards)
