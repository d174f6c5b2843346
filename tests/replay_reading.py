"""Reading a replay's events table, for the independent checkers (tests/<game>/checker.py).

The checkers re-play a game from ``Replay.events`` alone, with the rules written out
from docs/rules/<game>.md; they import nothing of cardsim. This module is the part they
share: a cursor over the rows that says where a check failed, the events every game
reads alike (the deal, a truncated game's table, the final hands) and the record check.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import pandas as pd


class CheckError(AssertionError):
    """The events break a rule, lose or duplicate a card, or disagree with the record."""


NEW = object()
"""``take(..., decision=NEW)``: the event opens the next decision."""


class Events:
    """The rows of an events table, read in order; ``take`` checks each one it hands out.

    ``decisions`` counts the decisions read so far: the first event of a decision must
    carry number ``decisions`` (so numbers run 0, 1, 2, ... with none skipped), the
    other events of the decision the same number, every other event none.
    """

    def __init__(self, table: pd.DataFrame) -> None:
        self.rows = [{k: (None if v is pd.NA or (isinstance(v, float) and pd.isna(v)) else v) for k, v in r.items()}
                     for r in table.to_dict("records")]
        self.at = 0
        self.decisions = 0

    def peek(self) -> dict[str, Any] | None:
        return self.rows[self.at] if self.at < len(self.rows) else None

    def fail(self, message: str) -> None:
        where = f"event {self.at - 1}: {self.rows[self.at - 1]}" if 0 < self.at <= len(self.rows) else "end"
        raise CheckError(f"{message} ({where})")

    def take(self, actions: str | Iterable[str], seat: int | None = None, decision: Any = None) -> dict[str, Any]:
        """The next event; it must be one of ``actions``, by ``seat`` (if given), and be part of
        a new decision (``NEW``), of decision number ``decision`` (an int) or of none (``None``)."""
        actions = (actions,) if isinstance(actions, str) else tuple(actions)
        event = self.peek()
        self.at += 1
        if event is None:
            self.fail(f"the events end where {' or '.join(actions)} should come")
        if event["action"] not in actions:
            self.fail(f"expected {' or '.join(actions)}, found {event['action']}")
        if seat is not None and event["seat"] != seat:
            self.fail(f"expected seat {seat}, found seat {event['seat']}")
        if decision is NEW:
            decision = self.decisions
            self.decisions += 1
        if event["decision"] != decision:
            self.fail(f"expected decision number {decision}, found {event['decision']}")
        return event

    def expect(self, event: dict[str, Any], **state: Any) -> None:
        """The state columns of ``event`` must read ``state`` (what the checker worked out)."""
        for name, value in state.items():
            if event[name] != value:
                self.fail(f"column {name} reads {event[name]!r}, the rules give {value!r}")

    def done(self) -> None:
        if self.peek() is not None:
            self.at += 1
            self.fail("events left after the game ended")

    def move(self, card: str, source: set[str], target: set[str], what: str) -> None:
        """``card`` leaves ``source`` (``what``: named where it is not there) for ``target``."""
        if card not in source:
            self.fail(f"{card} is not in {what}")
        source.remove(card)
        target.add(card)

    def deal(self, players: int, hand_size: int, give: Callable[[int, str], None]) -> list[dict[str, Any]]:
        """The ``deal`` events, seat 0 first: ``hand_size`` cards each, each card handed to
        ``give(seat, card)`` (which takes it from the deck). Returns the events, for their state columns."""
        events = [self.take("deal", seat) for seat in range(players)]
        for seat, event in enumerate(events):
            if len(cards(event)) != hand_size:
                self.fail(f"seat {seat} is dealt {len(cards(event))} cards, not hand_size")
            for card in cards(event):
                give(seat, card)
        return events

    def truncation(self, table: set[str], state: Callable[[dict[str, Any]], None]) -> None:
        """A game stopped at ``max_turns``: ``truncated``, then ``table`` with the cards left on it."""
        state(self.take("truncated", -1))
        event = self.take("table", -1)
        if set(cards(event)) != table:
            self.fail("the cards left on the table are not the table's")
        state(event)

    def finals(self, hands: list[set[str]], state: Callable[[dict[str, Any]], None]) -> None:
        """The ``final`` events, seat 0 first: each lists the cards its seat holds (``hands[seat]``)."""
        for seat, held in enumerate(hands):
            event = self.take("final", seat)
            if set(cards(event)) != held:
                self.fail(f"seat {seat}'s final cards are not what it holds")
            state(event)


def cards(event: dict[str, Any]) -> list[str]:
    """The card names of an event, in the order they move."""
    return event["cards"].split()


def hand_sizes(counts: Iterable[int]) -> str:
    """The ``hand_sizes`` text the rules give: cards per seat, seat 0 first."""
    return " ".join(str(n) for n in counts)


def same(got: Any, want: Any, what: str) -> None:
    """A record column the checker recomputed from the events."""
    if got != want:
        raise CheckError(f"record {what} is {got!r}; the events give {want!r}")


def same_record(record: dict[str, Any], **columns: Any) -> None:
    """The record's ``columns`` the checker recomputed from the events, checked in the order given."""
    for name, value in columns.items():
        same(record[name], value, name)


def finish(out: list[int]) -> dict[str, Any]:
    """A shedding game's ``first_out`` and ``finish_order`` from the seats in the order they went out."""
    return {"first_out": out[0] if out else -1, "finish_order": ",".join(map(str, out))}
