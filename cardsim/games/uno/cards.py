"""Uno card kinds, deck contents, points and the lookup tables both engines share.

Uno has duplicate cards, so a card is a *kind* (an index below ``K``) and a hand is a
count per kind, never a bitmask. The layout::

    kind  0..12   red     0 1 2 3 4 5 6 7 8 9 S R +2     (colour * 13 + symbol)
    kind 13..25   yellow  ...
    kind 26..38   green   ...
    kind 39..51   blue    ...
    kind 52 W  (Wild)   53 W+4 (Wild Draw Four)   54 SH (Shuffle Hands)   55 CW (custom wild)

Kinds 54 and 55 exist only in the 2018 deck (U-2). This file holds facts and tables,
not rules of play: those live in ``reference.py`` (and their twins in ``compiled.py``).
"""
from __future__ import annotations

import numpy as np

COLOURS = "RYGB"
SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
WILD, WD4, SHUFFLE, CUSTOM = 52, 53, 54, 55
K = 56
WILD_NAMES = {WILD: "W", WD4: "W+4", SHUFFLE: "SH", CUSTOM: "CW"}
DECK_SIZES = {"classic": 108, "2018": 112}


def colour_of(kind: int) -> int:
    """Printed colour 0..3 of a kind, -1 for the wild kinds."""
    return kind // 13 if kind < WILD else -1


def symbol_of(kind: int) -> int:
    """Number 0..9 or SKIP/REVERSE/DRAW_TWO of a coloured kind; the kind itself for a wild."""
    return kind % 13 if kind < WILD else kind


def name(kind: int) -> str:
    return WILD_NAMES.get(kind) or COLOURS[colour_of(kind)] + SYMBOLS[symbol_of(kind)]


def parse(text: str) -> int:
    """Kind from its name: ``"R5"``, ``"YS"``, ``"GR"``, ``"B+2"``, ``"W"``, ``"W+4"``, ``"SH"``, ``"CW"``."""
    text = text.strip().upper()
    for kind, label in WILD_NAMES.items():
        if text == label:
            return kind
    if len(text) < 2 or text[0] not in COLOURS or text[1:] not in SYMBOLS:
        raise ValueError(f"unknown Uno card {text!r}: expected e.g. R5, YS, GR, B+2, W, W+4, SH, CW")
    return COLOURS.index(text[0]) * 13 + SYMBOLS.index(text[1:])


def counts_of(text: str) -> list[int]:
    """A hand (counts per kind) from space-separated names, e.g. ``counts_of("R5 R5 W")``."""
    counts = [0] * K
    for word in text.split():
        counts[parse(word)] += 1
    return counts


def kinds(counts) -> tuple[int, ...]:
    """The kinds of a hand (counts per kind), copies repeated, in kind order."""
    return tuple(k for k in range(K) for _ in range(counts[k]))


def names(counts) -> str:
    return " ".join(name(k) for k in kinds(counts)) or "-"


def copies(deck: str) -> list[int]:
    """Copies of each kind in the deck (U-1, U-2)."""
    n = [0] * K
    for c in range(4):
        for s in range(13):
            n[c * 13 + s] = 1 if s == 0 else 2
    n[WILD] = n[WD4] = 4
    if deck == "2018":
        n[SHUFFLE], n[CUSTOM] = 1, 3
    return n


def deck_cards(deck: str) -> list[int]:
    """The deck in canonical order (kinds ascending, copies adjacent): what the deal permutes."""
    return [k for k, n in enumerate(copies(deck)) for _ in range(n)]


def _make_points() -> np.ndarray:
    """U-19: numbers their face value, S/R/+2 20, W and W+4 50, SH and CW 40."""
    pts = np.zeros(K, dtype=np.int64)
    for k in range(WILD):
        pts[k] = symbol_of(k) if symbol_of(k) < SKIP else 20
    pts[WILD] = pts[WD4] = 50
    pts[SHUFFLE] = pts[CUSTOM] = 40
    return pts


def _make_legal_table() -> np.ndarray:
    """``LEGAL[colour, top, kind]``: may ``kind`` go on ``top`` when ``colour`` is current (U-6, U-12).

    Wild kinds are always True here; the Wild Draw Four's own condition (U-13) depends
    on the hand and is checked apart.
    """
    table = np.zeros((4, K, K), dtype=bool)
    for c in range(4):
        for top in range(K):
            for k in range(K):
                table[c, top, k] = (k >= WILD or colour_of(k) == c
                                    or (top < WILD and symbol_of(k) == symbol_of(top)))
    return table


def _make_greedy_tables() -> tuple[np.ndarray, np.ndarray]:
    """``GREEDY_BASE[colour, top, kind]`` and ``GREEDY_BY_COLOUR[colour, top, kind]``.

    The greedy policy's score of a legal kind is ``BASE + BY_COLOUR * (cards held of
    the kind's colour)``: a card of the current colour 3000 + symbol (action cards,
    then high numbers, first), a number/symbol match in another colour 2000 + the count
    of that colour held, then the wilds: W+4 1400, W 1300, CW 1200, SH 1100.
    """
    base = np.zeros((4, K, K), dtype=np.int16)
    by_colour = np.zeros((4, K, K), dtype=np.int16)
    wild_scores = {WD4: 1400, WILD: 1300, CUSTOM: 1200, SHUFFLE: 1100}
    for c in range(4):
        for top in range(K):
            for k in range(K):
                if k >= WILD:
                    base[c, top, k] = wild_scores[k]
                elif colour_of(k) == c:
                    base[c, top, k] = 3000 + symbol_of(k)
                elif top < WILD and symbol_of(k) == symbol_of(top):
                    base[c, top, k] = 2000
                    by_colour[c, top, k] = 1
    return base, by_colour


POINTS = _make_points()
LEGAL = _make_legal_table()
GREEDY_BASE, GREEDY_BY_COLOUR = _make_greedy_tables()
GREEDY_WILDS = (WD4, WILD, CUSTOM, SHUFFLE)
"""The wilds in the order ``greedy`` plays them (their ``GREEDY_BASE`` scores)."""
KIND_COLOUR = np.array([max(colour_of(k), 0) for k in range(K)], dtype=np.int64)
"""Colour of each kind with the wilds mapped to 0 (used only where masked by a coloured-kind flag)."""
