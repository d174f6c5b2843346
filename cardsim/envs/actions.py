"""A fixed action space over the step API's decisions: a decision is a short sequence of tokens.

A game's ``Coding`` (``cardsim.envs.codings``) names ``size`` tokens and spells each legal
decision of the step API as a tuple of them in a canonical order (a Moska addition: its cards in
ascending code; a Uno choice: one card kind, colour, ...), given the position's ``context`` (what
kind of decision it is, where the game needs that to read a move). ``Selection`` walks the decisions of one position
token by token, the way an agent with a fixed action space chooses: the legal tokens are the
next tokens of the decisions that still match what was chosen so far. A decision is made once the
tokens chosen spell it and spell no other decision's beginning; where they spell a decision that
is also the beginning of longer ones (an empty addition, a defence killing one card where it could
kill two), the token ``END`` (the last id, ``size``) makes the shorter one. So every legal decision
is reachable, each by exactly one sequence, and every sequence of legal tokens ends in a decision.
The first token of a position is always asked for, even when one decision is legal (the protocol's
decision is the seat's turn; an agent sees each).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class Coding:
    """A game's fixed action space: ``size`` tokens plus ``END``; ``tokens(decision, context)`` spells a
    decision of a position whose ``context(game)`` is ``context``."""

    size: int
    tokens: Callable[[object, object], tuple[int, ...]]
    token_name: Callable[[int], str]
    max_tokens: int
    """The most tokens a decision takes (``END`` included): bounds a game's length in actions."""
    context: Callable[[object], object] = None
    """What ``tokens`` needs to know of a position besides its decisions (None: nothing)."""

    @property
    def end(self) -> int:
        return self.size

    @property
    def actions(self) -> int:
        """How many action ids: the tokens and ``END``."""
        return self.size + 1

    def name(self, token: int) -> str:
        return "end" if token == self.end else self.token_name(token)


class Selection:
    """The tokens chosen so far at one position, over its legal decisions (``Decision`` objects)."""

    def __init__(self, coding: Coding, decisions: Sequence, context: object = None) -> None:
        self.coding = coding
        self.decisions = decisions
        self.spelled = [coding.tokens(d, context) for d in decisions]
        self.chosen: list[int] = []
        self._open = list(range(len(decisions)))

    def legal(self) -> list[int]:
        """The legal tokens now, ascending."""
        n = len(self.chosen)
        nexts = {self.spelled[i][n] for i in self._open if len(self.spelled[i]) > n}
        if any(len(self.spelled[i]) == n for i in self._open):
            nexts.add(self.coding.end)
        return sorted(nexts)

    def choose(self, token: int) -> int | None:
        """Take ``token``; the index of the decision it completes, or None while more tokens are needed.
        ValueError for a token that is not legal now."""
        n = len(self.chosen)
        if token == self.coding.end:
            done = [i for i in self._open if len(self.spelled[i]) == n]
            if not done:
                raise ValueError(self._illegal(token))
            return self.decisions[done[0]].i
        still = [i for i in self._open if len(self.spelled[i]) > n and self.spelled[i][n] == token]
        if not still:
            raise ValueError(self._illegal(token))
        self.chosen.append(token)
        self._open = still
        if len(still) == 1 and len(self.spelled[still[0]]) == n + 1:
            return self.decisions[still[0]].i
        return None

    def _illegal(self, token: int) -> str:
        legal = ", ".join(f"{t} ({self.coding.name(t)})" for t in self.legal())
        so_far = " ".join(self.coding.name(t) for t in self.chosen) or "nothing yet"
        return (f"action {token} ({self.coding.name(token) if 0 <= token <= self.coding.end else 'out of range'}) "
                f"is not legal after {so_far}; legal actions: {legal}")
