"""Uno's events: the columns it adds to ``core.records.EVENTS``, how a raw event reads, its text.

The reference engine records one raw tuple per event (``reference.State.note``); a
decision is one or more events with its number (a play and the colour named; a
challenge and the turn after it), everything else is what the rules do. Actions:

``deal`` a seat's hand (U-4); ``starter`` the starting card the dealer turns, and
``starter_back`` a Wild Draw Four that may not start (U-5); ``play`` a card; ``colour``
the colour named (U-5, U-12); ``draw`` the card(s) drawn on the turn (U-7); ``penalty``
cards a seat must draw (U-11, U-13, U-14, U-16, U-18); ``no_stack`` a stacked Draw Two
not answered (U-11); ``challenge`` / ``no_challenge`` a Wild Draw Four (U-14);
``reshuffle`` the new draw pile, in drawing order (U-8); ``shuffle`` a seat's hand dealt
by Shuffle Hands (U-15); ``swap`` the hand a seat takes from ``target`` (U-16); ``out``
the seat that wins the hand (U-18); ``score`` its points (U-19); ``truncated`` (U-21)
and ``table`` (the discard pile left on the table, its top card last); ``final`` each
seat's hand at the end of the game.
"""
from __future__ import annotations

from cardsim.core.boards import Board
from cardsim.core.records import EVENT_PHRASES, EVENTS, EventBook, card_names, columns, sizes
from cardsim.games.uno.cards import COLOURS, name

COLUMNS = EVENTS + columns("""
    hand       int64  the hand of the game, from 0 (several only with target_score, U-20)
    stock      int64  cards in the draw pile after the event
    top        str    the top card of the discard pile ('' before the starting card is turned)
    colour     str    the current colour, R Y G B ('' while a wild starting card waits for a colour)
    direction  int64  1 = seat 0, 1, 2, ...; -1 after a Reverse (U-10)
    pending    int64  a stacked Draw Two total waiting for the next player (U-11)
    points     Int64  points scored (a `score` event, U-19), else empty
""")

PHRASES = EVENT_PHRASES | {  # and deal, final
    "starter": "the dealer turns the starting card {cards}",
    "starter_back": "{cards} may not start: it goes back into the draw pile, which is shuffled (U-5)",
    "reshuffle": "the cards under {top} are shuffled into a new draw pile: {cards} (U-8)",
    "colour": "seat {seat} names {colour}",
    "play": "seat {seat} plays {cards}",
    "draw": ("seat {seat} draws {cards} (stock {stock})", "seat {seat} cannot draw: no card is left (U-8)"),
    "penalty": ("seat {seat} must draw {cards} (stock {stock})", "seat {seat} must draw, but no card is left (U-8)"),
    "no_stack": "seat {seat} does not stack a Draw Two and takes {pending} (U-11)",
    "challenge": "seat {seat} challenges the Wild Draw Four of seat {target} (U-14)",
    "no_challenge": "seat {seat} does not challenge (U-14)",
    "shuffle": "Shuffle Hands deals seat {seat} {cards} (U-15)",
    "swap": "seat {seat} swaps hands with seat {target} and gets {cards} (U-16)",
    "out": "seat {seat} is out and wins hand {hand} (U-18)",
    "score": "seat {seat} scores {points} (U-19)",
    "truncated": "hand {hand} stopped after max_turns decisions: truncated (U-21)",
    "table": "left on the table: the discard pile {cards}",
}


def row(raw: tuple) -> tuple:
    """The values of ``COLUMNS`` for one raw event of ``reference.State.note``."""
    decision, seat, action, cards, target, held, hand, stock, top, colour, direction, pending, points = raw
    return (decision, seat, action, card_names(cards, name), target, sizes(held), hand, stock,
            name(top) if top >= 0 else "", COLOURS[colour] if colour >= 0 else "", direction, pending, points)


def boards(log: list[tuple]) -> list[Board]:
    """The table after each raw event. The engine records hand sizes, not hands, so the hands are
    followed from the events: ``deal`` (every seat's at the first), ``shuffle``, ``swap`` and ``final``
    give a seat's whole hand,
    ``draw`` and ``penalty`` add cards, ``play`` takes one. The table is the discard pile's top card;
    the state the colour, the direction and a stacked Draw Two waiting."""
    out, hands = [], None
    for i, (decision, seat, action, cards, target, held, hand, stock, top, colour, direction, pending,
            points) in enumerate(log):
        hands = hands if hands is not None and len(hands) == len(held) else [[] for _ in held]
        moved = [name(c) for c in cards]
        if action == "deal":  # the cards are dealt before the deal events are noted: every seat's at its first
            for later in log[i:i + len(held)]:
                if later[2] == "deal":
                    hands[later[1]] = [name(c) for c in later[3]]
        elif action in ("shuffle", "swap", "final"):
            hands[seat] = moved
        elif action in ("draw", "penalty"):
            hands[seat] = hands[seat] + moved
        elif action == "play":
            hands[seat] = list(hands[seat])
            hands[seat].remove(moved[0])
        state = (f"hand {hand} · colour {COLOURS[colour] if colour >= 0 else 'not named yet'} · "
                 f"{'seat 0, 1, 2, ...' if direction == 1 else 'reversed'}" + (f" · +{pending} waiting" if pending
                                                                                 else ""))
        out.append(Board(tuple(tuple(h) for h in hands), ((name(top),),) if top >= 0 else (), stock, state))
    return out

BOOK = EventBook(COLUMNS, row, PHRASES, boards)
