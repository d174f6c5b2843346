"""Reading a replay's events table, for the independent checkers (tests/<game>/checker.py).

The checkers re-play a game from ``Replay.events`` alone, with the rules written out
from docs/rules/<game>.md; they import nothing of cardsim. This module is the part they
share: a cursor over the rows that says where a check failed.
"""
from __future__ import annotations

from typing import Any, Iterable

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
