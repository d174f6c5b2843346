"""What the table of a replayed game shows after each event, and that picture in HTML.

A ``Board`` is one moment of a ``Replay``: each seat's cards, the cards in play on the
table (in piles: an attack card and the card that killed it, a trick's cards one by one,
Uno's discard top), the cards left in the stock and a line of state (the trump, Uno's
colour and direction). Each game's ``EventBook.boards`` folds its raw events into one
board per event; ``html`` draws a board as cards (the notebooks' ``Replay._repr_html_``
and ``Replay.widget``). A seat's view shows that seat's cards and only the number of the
others' (face down): what the seat may see, nothing more.
"""
from __future__ import annotations

import html as _html
from dataclasses import dataclass

RED = set("♥♦")
UNO = {"R": "#d62728", "Y": "#e8b400", "G": "#2ca02c", "B": "#1f62b4"}
"""Uno's colours by the first letter of a card's name; a wild card (``W``) is black."""
STYLE = ("<style>.cs-board{font-family:system-ui,sans-serif;font-size:13px;line-height:1.5}"
         ".cs-board .cs-card{display:inline-block;min-width:1.9em;padding:0.05em 0.25em;margin:0.1em;"
         "border:1px solid #999;border-radius:4px;background:#fff;text-align:center;font-weight:600}"
         ".cs-board .cs-back{background:repeating-linear-gradient(45deg,#4a6fa5,#4a6fa5 3px,#6d8fc4 3px,"
         "#6d8fc4 6px);color:transparent}"
         ".cs-board .cs-pile{display:inline-block;margin-right:0.6em;white-space:nowrap}"
         ".cs-board td{padding:0.15em 0.6em;vertical-align:top;text-align:left}"
         ".cs-board .cs-acting td{background:#fff6d5}.cs-board caption{text-align:left;font-weight:600}</style>")


@dataclass(frozen=True)
class Board:
    """The table after one event: ``hands[s]`` the card names seat ``s`` holds; ``table`` the piles in
    play (each a tuple of card names, the first laid first); ``stock`` the cards left to draw;
    ``state`` a line of what else is public (the trump suit and the card under the stock, Uno's
    colour and direction)."""

    hands: tuple[tuple[str, ...], ...]
    table: tuple[tuple[str, ...], ...]
    stock: int
    state: str


def card(name: str) -> str:
    """One card as HTML: its name, red for hearts and diamonds, in its colour for Uno."""
    color = "#c00" if RED & set(name) else UNO.get(name[:1], "#111")
    return f"<span class=\"cs-card\" style=\"color:{color}\">{_html.escape(name)}</span>"


def backs(count: int) -> str:
    """``count`` cards face down."""
    return "<span class=\"cs-card cs-back\">??</span>" * count + (f" ({count})" if count else "—")


def html(board: Board, caption: str, seat: int | None = None, acting: int = -1) -> str:
    """The board as an HTML table: a row per seat (``acting`` marked), then the table, the stock and the
    state. ``seat``: draw only that seat's cards face up (its view); None: every seat's."""
    rows = []
    for s, hand in enumerate(board.hands):
        shown = "".join(card(c) for c in hand) if seat is None or s == seat else backs(len(hand))
        who = f"seat {s}" + (" (you)" if s == seat else "")
        rows.append(f"<tr class=\"{'cs-acting' if s == acting else ''}\"><td>{who}</td><td>{shown or '—'}</td></tr>")
    table = "".join(f"<span class=\"cs-pile\">{''.join(card(c) for c in pile)}</span>" for pile in board.table)
    rows.append(f"<tr><td>table</td><td>{table or '—'}</td></tr>")
    rows.append(f"<tr><td>stock</td><td>{board.stock} cards{' · ' + _html.escape(board.state) if board.state else ''}"
                "</td></tr>")
    return f"{STYLE}<table class=\"cs-board\"><caption>{_html.escape(caption)}</caption>{''.join(rows)}</table>"
