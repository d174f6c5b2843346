"""Musta-Maija's events: the columns it adds to ``core.records.EVENTS``, how a raw event reads, its text.

The reference engine records one raw tuple per event (``reference.Table.note``). A
decision is an attack or a defence, with a marriage declared at its start if any. Actions:
``deal`` a seat's hand (MM-4); ``reshuffle`` a spade on top of the stock, shuffled back,
and ``turn`` the card turned for trump and put under the stock (MM-7); ``declare`` a
marriage (MM-5); ``attack`` the cards played to the ``target`` seat (MM-9, MM-13);
``beat`` one attack card (``on``) beaten with a card, or nothing beaten (MM-10);
``discard`` the beaten pairs, attack card then beater; ``pick_up`` the unbeaten cards
(MM-12); ``draw`` cards from the top of the stock (MM-9, MM-11, MM-12); ``out`` a seat
out (MM-14); ``truncated`` and ``table`` (cards left on the table) at ``max_turns``
(MM-16); ``repetition`` the game stopped before an attack that would repeat a position
(MM-18; the table is empty then); ``final`` each seat's cards at the end.
"""
from __future__ import annotations

from cardsim.core.cards import FRENCH52
from cardsim.core.boards import Board
from cardsim.core.records import EVENT_PHRASES, EVENTS, EventBook, card_names, columns, sizes
from cardsim.games.musta_maija.cards import cards as sorted_cards
from cardsim.games.musta_maija.cards import name

COLUMNS = EVENTS + columns("""
    stock  int64  cards in the stock after the event (a turned trump is its last card, MM-7)
    trump  str    the trump suit after the event, ♣ ♦ ♥ ('' while none is declared, MM-5)
    on     str    a `beat` event: the attack card beaten, else ''
""")

PHRASES = EVENT_PHRASES | {  # and deal, table, final
    "reshuffle": "the stock's top card {cards} is a spade: the stock is shuffled again (MM-7)",
    "turn": "{cards} is turned and put under the stock: {trump} is trump (MM-7)",
    "declare": "seat {seat} declares {trump} trump with its king and queen (MM-5)",
    "attack": "seat {seat} attacks seat {target} with {cards}",
    "draw": "seat {seat} draws {cards} (stock {stock})",
    "beat": ("seat {seat} beats {on} with {cards}", "seat {seat} beats nothing"),
    "discard": "the beaten cards are discarded: {cards}",
    "pick_up": "seat {seat} picks up {cards} (MM-12)",
    "out": "seat {seat} is out (MM-14)",
    "truncated": "stopped after max_turns decisions: truncated (MM-16)",
    "repetition": "stopped: an attack would begin as one of the last 64 began, the stock empty: no loser (MM-18)",
}


def row(raw: tuple) -> tuple:
    """The values of ``COLUMNS`` for one raw event of ``reference.Table.note``; a hand mask's cards read
    lowest rank first, other cards in the order they moved; a copy-1 card has a prime."""
    decision, seat, action, cards, target, held, stock, trump, on = raw
    return (decision, seat, action, card_names(cards, name, sorted_cards), target,
            sizes(h.bit_count() for h in held), stock, FRENCH52.suits[trump] if trump >= 0 else "",
            name(on) if on >= 0 else "")


def boards(log: list[tuple]) -> list[Board]:
    """The table after each raw event: the hands, the attack cards with the cards that beat them
    (``attack``, ``beat``; gone at ``discard`` and ``pick_up``), the stock and the trump (with the
    turned card under the stock while it lasts)."""
    out, table, under = [], [], ""
    for decision, seat, action, cards, target, held, stock, trump, on in log:
        moved = card_names(cards, name, sorted_cards).split()
        if action == "attack":
            table += [[c] for c in moved]
        elif action == "beat" and on >= 0:
            attack = next((p for p in table if p == [name(on)]), None)
            table.append([name(on), *moved]) if attack is None else attack.extend(moved)
        elif action == "discard":
            table = [p for p in table if len(p) == 1]
        elif action == "pick_up":
            table = []
        elif action == "turn":
            under = moved[0]
        state = (f"trump {FRENCH52.suits[trump]}" if trump >= 0 else "no trump yet") + (
            f" · under the stock: {under}" if stock and under else "")
        out.append(Board(tuple(tuple(card_names(h, name, sorted_cards).split()) for h in held),
                         tuple(map(tuple, table)), stock, state))
    return out

BOOK = EventBook(COLUMNS, row, PHRASES, boards)
