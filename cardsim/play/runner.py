"""Games with user seats, played on the step API: records and replays.

A game with any user seat (``cardsim.play.user``) runs here, in Python: built-in seats decide
by ``Game.policy_decision()`` (the compiled policies), user seats by their policy, each
decision within the seat's time limit. Its records equal the step API's game for game, and
depend on the jobs and chunks only as much as the user's policy does (not at all when it
decides from ``(view, legal)`` and what ``reset(seat, game_index)`` gives it).

A user policy that raises, returns something that is not one of ``legal``, or does not
return in time stops the run with ``PolicyFailure``: one line naming the seat, the game
index, the decision and the ``cardsim replay`` command that shows the game up to it.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from numbers import Integral
from typing import Any

import numpy as np

from cardsim.core.records import EVENTS, EventBook, Replay, Setup, sizes
from cardsim.core.rules import Rules
from cardsim.play import engine_class
from cardsim.play.game import Decision, Game
from cardsim.play.user import UserPolicy, is_user_seat, resolve


class PolicyFailure(ValueError):
    """A user policy failed at a decision (one line: seat, game, decision, how to replay it)."""


class _Late(BaseException):
    """Raised inside a policy that ran past its time limit (not an ``Exception``: ``except
    Exception`` in the policy does not swallow it)."""


def spec_of(seat: Any) -> str:
    return str(seat)


def replay_command(game: str, rules: Rules, players: int, seed: int, index: int, seats: tuple) -> str:
    return Setup(game, rules, players, seed, index, tuple(spec_of(p) for p in seats)).command()


def _call(player, view, legal, timeout: float):
    """The player's answer within ``timeout`` seconds: ``("ok", answer)``, ``("raised", exc)`` or
    ``("late", None)``. A timer signal interrupts it in the main thread; elsewhere a helper thread
    runs it and is abandoned when late."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def late(signum, frame):
            raise _Late()
        previous = signal.signal(signal.SIGALRM, late)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return "ok", player(view, legal)
        except _Late:
            return "late", None
        except Exception as err:  # noqa: BLE001 - any failure of user code is reported, in one line
            return "raised", err
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    box: list = []

    def run():
        try:
            box.append(("ok", player(view, legal)))
        except Exception as err:  # noqa: BLE001
            box.append(("raised", err))
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout)
    return box[0] if box else ("late", None)


def _index(answer: Any, legal) -> int | None:
    """The index an answer means: a ``Decision`` of this state or an int index of ``legal``."""
    if isinstance(answer, Decision):
        i = answer.i
        return i if 0 <= i < len(legal._made) and legal._made[i] == answer else None
    if isinstance(answer, Integral) and not isinstance(answer, (bool, np.bool_)) and answer >= 0:
        try:
            legal[int(answer)]
        except IndexError:
            return None
        return int(answer)
    return None


class Table:
    """The seats of one chunk of games: user players made once per seat, built-in seats as they are."""

    def __init__(self, game: str, rules: Rules, players: int, seed: int, seats: tuple) -> None:
        self.game, self.rules, self.players, self.seed, self.seats = game, rules, players, seed, tuple(seats)
        self.users: dict[int, UserPolicy] = {q: resolve(p) for q, p in enumerate(seats) if is_user_seat(p)}
        self.players_of = {q: u.seat() for q, u in self.users.items()}
        self.engine = engine_class(game)

    def new_game(self, index: int) -> Game:
        for q, player in self.players_of.items():
            reset = getattr(player, "reset", None)
            if reset is not None:
                reset(q, index)
        return Game(self.engine(self.rules, self.players, self.seed, index, self.seats), self.game, self.seats)

    def decide(self, g: Game, index: int) -> int:
        """The index the seat to act takes: its built-in policy's, or its user policy's (checked)."""
        seat = g.to_act
        user = self.users.get(seat)
        if user is None:
            return g.policy_decision()
        legal = g.legal()
        status, answer = _call(self.players_of[seat], g.view(seat), legal, user.timeout)
        if status == "ok":
            i = _index(answer, legal)
            if i is not None:
                return i
            what = f"returned {answer!r:.60}, not a legal decision (an index 0..{len(legal) - 1} or a Decision of legal)"
        elif status == "raised":
            what = f"raised {type(answer).__name__}: {answer}"
        else:
            what = f"did not decide within {user.timeout:g} s"
        raise PolicyFailure(f"seat {seat} policy {user.spec} {what} in {self.game} game {index}, decision {g.turn}; "
                            f"see it: {replay_command(self.game, self.rules, self.players, self.seed, index, self.seats)}"
                            .replace("\n", " "))

    def play(self, index: int) -> Game:
        g = self.new_game(index)
        while not g.is_over:
            g.apply(self.decide(g, index))
        return g


def records(game: str, rules: Rules, players: int, seed: int, seats: tuple, games) -> Iterator[dict]:
    """The record of each game index of ``games``, played with these seats (any of them a user's)."""
    table = Table(game, rules, players, seed, seats)
    for index in games:
        yield table.play(int(index)).record()


BOOK = EventBook(EVENTS, lambda raw: raw, {"decides": "seat {seat}: {cards}", "fails": "seat {seat} fails: {cards}",
                                   "over": "the game is over"})
"""A step replay's events: one per decision (its name) and, for a failing policy, the failure."""


def replay(game: str, rules: Rules, players: int, seed: int, index: int, seats: tuple) -> Replay:
    """Game ``index`` stepped with these seats, one event per decision: what ``cardsim replay`` shows
    for a game with user seats. A failing policy ends it with the failure; the record is then empty."""
    table = Table(game, rules, players, seed, seats)
    g = table.new_game(index)
    log: list[tuple] = []
    record: dict = {}
    while not g.is_over:
        seat, turn = g.to_act, g.turn
        try:
            i = table.decide(g, index)
        except PolicyFailure as failure:
            log.append((turn, seat, "fails", str(failure).split("; see it:")[0], -1, sizes(g.view(seat)["hand_sizes"])))
            break
        name = g.legal()[i].name
        g.apply(i)
        log.append((turn, seat, "decides", name, -1, sizes(g.view(seat)["hand_sizes"])))
    if g.is_over:
        record = g.record()
        log.append((None, -1, "over", "", -1, sizes(g.view(0)["hand_sizes"])))
    return Replay(game, record, log, Setup(game, rules, players, seed, index, tuple(spec_of(p) for p in seats)), BOOK)
