"""The per-game record (one row per game) and the replay of one game (one row per event).

Record columns and event columns are documented here, once; each game adds its own.

Every game's record has the common columns; shedding games (Moska, Musta-Maija) add
the shedding columns; each game adds its own in its ``GameSpec.columns``. Engines
return plain dicts (reference) or dicts of arrays (compiled); ``frame`` turns either
into a DataFrame with the same dtypes, so the two engines compare equal.

Seats are dealer-relative: seat 0 is the dealer of the (first) hand, seat 1 the
player who acts after the dealer (to the dealer's left; counter-clockwise in Jass).

A ``Replay`` is one game played by the reference engine: its record, the ``Setup`` that
re-creates it, and its events. The engine records each event as a small tuple (codes and
masks, no strings: the reference engine is also the oracle of the differential tests and
must stay quick); the game's ``EventBook`` turns them into the ``events`` table and the
text, only when they are asked for.
"""
from __future__ import annotations

import json
import shlex
import textwrap
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from cardsim.core import boards as pictures
from cardsim.core.boards import Board
from cardsim.core.cards import cards_of

if TYPE_CHECKING:
    from cardsim.core.rules import Rules


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str
    doc: str


def columns(table: str, seats: Iterable[int] = ()) -> tuple[Column, ...]:
    """The columns of a table written as text, one column a line: its name, its dtype, then its doc, white
    space between; a line that starts with white space goes on with the doc above. A name with ``{s}``
    stands for one column per seat of ``seats``, with ``{s}`` in the name and the doc that seat."""
    rows: list[list[str]] = []
    for line in textwrap.dedent(table).strip("\n").splitlines():
        if line[:1].isspace():
            rows[-1][2] += " " + line.strip()
        else:
            rows.append(line.split(None, 2))
    return tuple(Column(name.replace("{s}", str(s)), dtype, doc.replace("{s}", str(s)))
                 for name, dtype, doc in rows for s in (seats if "{s}" in name else ("",)))


COMMON = columns("""
    game       int64  game index within the study; game i deals the same cards under every variant
    turns      int64  decisions made by the players (the unit of `max_turns`)
    truncated  bool   the game was stopped without a result: at `max_turns` decisions (M-21, MM-16), or with
               fewer by the repetition rule (M-23, MM-18; `ends` tells them apart)
""")

SHEDDING = columns("""
    loser      int64  seat left holding cards (-1 if none: truncated, or everyone out at once)
    rounds     int64  attack rounds played (an opening and everything until the table clears)
    first_out  int64  seat that went out first (TARAKI's winner), -1 if nobody did
""")


def frame(rows: Iterable[Mapping[str, Any]] | Mapping[str, np.ndarray], columns: tuple[Column, ...]) -> pd.DataFrame:
    """A DataFrame with exactly ``columns`` (order and dtypes) from rows or from arrays."""
    if isinstance(rows, Mapping):
        data = {c.name: np.asarray(rows[c.name]).astype(c.dtype) for c in columns}
    else:
        rows = list(rows)
        data = {c.name: np.array([r[c.name] for r in rows], dtype=c.dtype) for c in columns}
    return pd.DataFrame(data)


ENDS = ("finished", "repetition", "max_turns")
"""How a game ended (``ends``): with its result, stopped by the repetition rule (M-23, MM-18), or at
``max_turns`` decisions (M-21, MM-16 and the other games' truncation)."""


def ends(truncated: np.ndarray, turns: np.ndarray, max_turns: int) -> np.ndarray:
    """How each game ended (``ENDS``), read from its record: a game the repetition rule stops is truncated
    before ``max_turns`` decisions; one stopped by ``max_turns`` made them all."""
    truncated, turns = np.asarray(truncated, dtype=bool), np.asarray(turns)
    return np.array(ENDS, dtype=object)[np.where(~truncated, 0, np.where(turns < max_turns, 1, 2))]


def finish_strings(finish: np.ndarray, players: int) -> np.ndarray:
    """The ``finish_order`` column (``"2,0,3"``) from packed orders: the ``j``-th seat out, plus one,
    in bits ``4j .. 4j+3`` (how the compiled shedding engines keep it); each distinct order is written once."""
    codes, which = np.unique(np.asarray(finish, dtype=np.int64), return_inverse=True)
    text = [",".join(str((int(c) >> 4 * j & 15) - 1) for j in range(players) if int(c) >> 4 * j & 15) for c in codes]
    return np.array(text, dtype=object)[which.reshape(-1)]


EVENTS = columns("""
    decision    Int64  number of the decision the event belongs to, from 0, as the record's `turns` counts them
                       (one decision can be several events: a marriage and an attack, a play and the colour
                       named); empty for what the rules do by themselves: the deal, forced draws, refills,
                       reshuffles, a trick taken, scores
    seat        int64  the seat that acts, or that receives or gives up the cards; -1 for the table
    action      str    what happens, one word per kind of event (each game's page lists them)
    cards       str    the cards that move, by name, space-separated, in the order they move; '' if none
    target      int64  the other seat the action aims at (the defender attacked, a swap partner), -1 if none
    hand_sizes  str    cards each seat holds after the event, seat 0 first, space-separated
""")
"""The event columns every game shares; a game's ``EventBook.columns`` starts with them."""


def sizes(counts: Iterable[int]) -> str:
    """The ``hand_sizes`` text of cards held per seat, e.g. ``"6 6 5 7"``."""
    return " ".join(map(str, counts))


def card_names(cards: int | Iterable[int], name: Callable[[int], str],
               in_order: Callable[[int], Iterable[int]] = cards_of) -> str:
    """The ``cards`` text of an event: a hand mask's cards (``in_order``: lowest code first unless a game
    says otherwise) or card codes in the order they moved, each by ``name``, space-separated."""
    return " ".join(map(name, in_order(cards) if isinstance(cards, int) else cards))


EVENT_PHRASES: dict[str, str | tuple[str, str]] = {
    "deal": "seat {seat} is dealt {cards}",
    "table": ("left on the table: {cards}", "nothing is left on the table"),
    "final": ("seat {seat} ends with {cards}", "seat {seat} ends with no cards"),
}
"""The text of the actions the games share, from ``EVENTS`` columns alone; a game's ``EventBook.phrases``
starts from them (``EVENT_PHRASES | {...}``) and rewords those its rules tell otherwise."""


@dataclass(frozen=True)
class EventBook:
    """How a game's events read: its columns, a row per raw event, a line of text per event.

    ``row(raw)`` gives the values of ``columns`` (``EVENTS`` + the game's own) for one raw
    event tuple of the engine. ``phrases[action]`` is the event's text, a ``str.format``
    template over its row; a pair is (text with cards, text when ``cards`` is empty).
    """

    columns: tuple[Column, ...]
    row: Callable[[tuple], tuple]
    phrases: Mapping[str, str | tuple[str, str]]
    boards: Callable[[list[tuple]], list[Board]] | None = None
    """The board after each raw event of a game's log (``core.boards``), for the notebooks' pictures."""

    def rows(self, log: Iterable[tuple]) -> list[dict[str, Any]]:
        """One dict per raw event, keyed by the column names (empty values are None)."""
        names = [c.name for c in self.columns]
        return [dict(zip(names, self.row(raw))) for raw in log]

    def text(self, row: Mapping[str, Any]) -> str:
        """The words of one event row."""
        phrase = self.phrases[row["action"]]
        if isinstance(phrase, tuple):
            phrase = phrase[0] if row["cards"] else phrase[1]
        return phrase.format(**row)


@dataclass(frozen=True)
class Setup:
    """What re-creates one game: the game, its rules, players, seed, game index and seat policies."""

    game: str
    rules: Rules
    players: int
    seed: int
    index: int
    policies: tuple[str, ...]

    def policy_option(self) -> str:
        """``--policy`` of ``cardsim replay``: one name for self-play, else one per seat, commas between."""
        return self.policies[0] if len(set(self.policies)) == 1 else ",".join(self.policies)

    def command(self) -> str:
        return shlex.join(["cardsim", "replay", self.game, self.rules.describe(), "--players", str(self.players),
                           "--seed", str(self.seed), "--game", str(self.index), "--policy", self.policy_option()])

    def header(self) -> list[str]:
        who = (f"policy {self.policies[0]} at every seat" if len(set(self.policies)) == 1
               else "policies " + ", ".join(f"seat {s} {p}" for s, p in enumerate(self.policies)))
        return [f"{self.game} {self.rules.describe()} · {self.players} players · seed {self.seed} · game {self.index}"
                f" · {who}",
                f"re-create: {self.command()}",
                "numbered lines are decisions (from 0; the record's turns counts them); the others are what the "
                "rules do"]


@dataclass
class Replay:
    """One game replayed by the reference engine: its record, what re-creates it, its events.

    ``log`` holds the engine's raw event tuples, ``book`` reads them; ``events`` (a
    DataFrame, one row per event) and the text (``str()``) are built on first use.
    """

    game: str
    record: dict[str, Any]
    log: list[tuple] = field(default_factory=list)
    setup: Setup | None = None
    book: EventBook | None = None

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        """One dict per event, keyed by the book's column names (empty decisions are None)."""
        return self.book.rows(self.log) if self.book else []

    @cached_property
    def events(self) -> pd.DataFrame:
        """The game as a table: one row per event, ``EVENTS`` then the game's own columns."""
        columns = self.book.columns if self.book else EVENTS
        return pd.DataFrame({c.name: pd.array([r[c.name] for r in self.rows], dtype=c.dtype) for c in columns})

    def lines(self) -> list[str]:
        """One line per event: the decision number (blank for what the rules do), then its text."""
        width = len(str(max([r["decision"] for r in self.rows if r["decision"] is not None], default=0)))
        return [f"{'' if r['decision'] is None else r['decision']:>{width}}  {self.book.text(r)}" for r in self.rows]

    def __str__(self) -> str:
        head = ", ".join(f"{k}={v}" for k, v in self.record.items())
        return "\n".join([*(self.setup.header() if self.setup else []), *self.lines(),
                          f"-- {self.game} record: {head}"])

    def render(self, fmt: str = "text") -> str:
        """The replay as ``"text"`` (``str()``), ``"csv"`` (the events table) or ``"json"`` (setup, record, events)."""
        if fmt == "text":
            return str(self)
        if fmt == "csv":
            return self.events.to_csv(index=False).rstrip("\n")
        if fmt == "json":
            return self.to_json()
        raise ValueError(f"unknown replay format {fmt!r}; known formats: text, csv, json")

    def to_json(self) -> str:
        doc: dict[str, Any] = {"game": self.game}
        if self.setup:
            doc.update(rules=self.setup.rules.describe(), players=self.setup.players, seed=self.setup.seed,
                       game_index=self.setup.index, policies=list(self.setup.policies), command=self.setup.command())
        doc["record"] = self.record
        doc["events"] = json.loads(self.events.to_json(orient="records", force_ascii=False))
        return json.dumps(doc, ensure_ascii=False, default=_plain)

    def _repr_pretty_(self, p, cycle) -> None:  # IPython shows the game, not the object
        p.text(str(self))

    @cached_property
    def boards(self) -> list[Board]:
        """The table after each event (``core.boards.Board``), one per row of ``events``."""
        if self.book is None or self.book.boards is None:
            raise ValueError(f"{self.game} has no pictures of its table")
        return self.book.boards(self.log)

    def html(self, event: int = -1, seat: int | None = None) -> str:
        """The table after event ``event`` (an index of ``events``; -1: the last) as HTML cards, with the
        event's text: every seat's cards, or with ``seat`` that seat's view (the others face down)."""
        if not -len(self.rows) <= event < len(self.rows):
            raise IndexError(f"event {event} is not one of the game's {len(self.rows)} events")
        event %= len(self.rows)
        row = self.rows[event]
        head = (f"{self.setup.game} {self.setup.rules.describe()} · {self.setup.players} players · game "
                f"{self.setup.index} · " if self.setup else f"{self.game} · ")
        number = "" if row["decision"] is None else f"decision {row['decision']}: "
        caption = f"{head}event {event} of {len(self.rows) - 1}: {number}{self.book.text(row)}"
        return pictures.html(self.boards[event], caption, seat, acting=row["seat"])

    def _repr_html_(self) -> str | None:  # Jupyter draws the end of the game; ``widget()`` steps through it
        if self.book is None or self.book.boards is None:
            return None  # a game without pictures of its table (a plug-in's): Jupyter shows the text
        return self.html()

    def widget(self, seat: int | None = None):
        """A slider over the events and the table after the chosen one (``html``): an ipywidgets box for
        a notebook (the ``notebooks`` extra)."""
        try:
            import ipywidgets
        except ImportError:
            raise ImportError("Replay.widget needs ipywidgets: pip install 'cardsim[notebooks]'") from None
        slider = ipywidgets.IntSlider(value=0, min=0, max=len(self.rows) - 1, description="event",
                                      continuous_update=True, layout=ipywidgets.Layout(width="95%"))
        view = ipywidgets.HTML(self.html(0, seat))
        slider.observe(lambda change: setattr(view, "value", self.html(change["new"], seat)), names="value")
        return ipywidgets.VBox([slider, view])


def _plain(value: Any) -> Any:
    """numpy scalars as the Python values ``json`` writes."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
