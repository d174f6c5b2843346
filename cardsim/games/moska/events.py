"""Moska's events: the columns it adds to ``core.records.EVENTS``, how a raw event reads, its text.

The reference engine records one raw tuple per event (``reference.State.note``). A
decision is one call of a seat's policy (the DECISION PROTOCOL): an opening, a defence
(its kills and M-14 pairs, or "kills nothing"), an addition (or "adds nothing"), a
give-back. Actions: ``deal`` a seat's hand (M-4); ``turn`` the trump card turned and put
under the stock (M-5); ``swap`` the trump 2 put under the stock for the turned card
(``on``, M-6); ``round`` a round begins: ``seat`` attacks ``target`` (M-7); ``open`` the
opening (M-8); ``kill`` an attack card (``on``) killed with a card, or nothing killed
(M-10); ``self_attack`` the defender's own card (``on``) killed with a card (M-14);
``add`` the cards an adder chooses (M-11; they leave the hand at ``lay``);
``give_back`` the cards a seat sends back and ``take_back`` the cards that go back to
an adder (M-12); ``lay`` the added cards that go on the table; ``draw`` cards from the
stock (M-13); ``discard`` the killed cards; ``pick_up`` the unkilled cards (M-16, M-17);
``out`` (M-18); ``lose`` / ``no_loser`` (M-19, M-20); ``truncated`` and ``table`` (the
cards left on it, M-21); ``repetition`` (the game stops before a round, M-23); ``final`` each seat's cards at the end.
"""
from __future__ import annotations

from cardsim.core.cards import FRENCH52
from cardsim.core.boards import Board
from cardsim.core.records import EVENT_PHRASES, EVENTS, EventBook, card_names, columns, sizes

COLUMNS = EVENTS + columns("""
    stock     int64  cards in the stock after the event (the turned card, or the trump 2, is its last)
    trump     str    the trump suit (M-5)
    round     int64  rounds begun so far (the record's `rounds`)
    unkilled  str    the unkilled attack cards on the table after the event
    on        str    a `kill` or `self_attack`: the attack card killed; a `swap`: the turned card taken; else ''
""")

PHRASES = EVENT_PHRASES | {  # and deal, table, final
    "turn": "{cards} is turned: {trump} is trump; it lies under the stock and is drawn last (M-5)",
    "swap": "seat {seat} puts {cards} under the stock and takes the turned {on} (M-6)",
    "round": "round {round}: seat {seat} attacks seat {target}",
    "open": "seat {seat} opens {cards}",
    "draw": "seat {seat} draws {cards} (stock {stock})",
    "kill": ("seat {seat} kills {on} with {cards}", "seat {seat} kills nothing"),
    "self_attack": "seat {seat} attacks own {on} and kills it with {cards} (M-14)",
    "add": ("seat {seat} adds {cards}", "seat {seat} adds nothing"),
    "give_back": "seat {seat} sends back {cards} (M-12)",
    "take_back": "seat {seat} takes back {cards} (M-12)",
    "lay": "seat {seat} puts {cards} on the table",
    "discard": "the killed cards go to the discard pile: {cards}",
    "pick_up": "seat {seat} picks up {cards} (M-17)",
    "out": "seat {seat} is out (M-18)",
    "lose": "seat {seat} loses (M-19)",
    "no_loser": "everyone is out at once: no loser (M-20)",
    "truncated": "stopped after max_turns decisions: truncated (M-21)",
    "repetition": "stopped: the round would begin as one of the last 64 began, the stock empty: no loser (M-23)",
}


def row(raw: tuple) -> tuple:
    """The values of ``COLUMNS`` for one raw event of ``reference.State.note``; a mask's cards read lowest
    code first (by suit ♣ ♦ ♥ ♠, then rank), other cards in the order they moved."""
    decision, seat, action, cards, target, held, stock, trump, rounds, unkilled, on = raw
    return (decision, seat, action, card_names(cards, FRENCH52.name), target, sizes(h.bit_count() for h in held),
            stock, FRENCH52.suits[trump], rounds, card_names(unkilled, FRENCH52.name),
            FRENCH52.name(on) if on >= 0 else "")


def boards(log: list[tuple]) -> list[Board]:
    """The table after each raw event: the hands, the attack cards with their kills (``open``, ``lay``,
    ``kill``, ``self_attack``; gone at ``discard`` and ``pick_up``), the stock, the trump and the card
    under the stock (the turned card, or the 2 a ``swap`` put there)."""
    out, table, under = [], [], ""
    for decision, seat, action, cards, target, held, stock, trump, rounds, unkilled, on in log:
        moved = card_names(cards, FRENCH52.name).split()
        if action in ("open", "lay"):
            table += [[c] for c in moved]
        elif action in ("kill", "self_attack") and on >= 0:
            attack = next((p for p in table if p == [FRENCH52.name(on)]), None)
            table.append([FRENCH52.name(on), *moved]) if attack is None else attack.extend(moved)
        elif action == "discard":
            table = [p for p in table if len(p) == 1]
        elif action == "pick_up":
            table = []
        elif action in ("turn", "swap"):
            under = moved[0]
        state = f"trump {FRENCH52.suits[trump]}" + (f" · under the stock: {under}" if stock else "")
        out.append(Board(tuple(tuple(card_names(h, FRENCH52.name).split()) for h in held),
                         tuple(map(tuple, table)), stock, state))
    return out

BOOK = EventBook(COLUMNS, row, PHRASES, boards)
