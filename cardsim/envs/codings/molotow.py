"""Molotow Jass for agents: tokens of its decisions and its observation.

A decision is one card played (``games/molotow/reference.py``), spelled by one token
(``ACTIONS``, 37 ids): ``c`` (0-35) plays card ``c`` (``games/molotow/cards.py``); ``36`` is ``END``,
never legal here.
"""
from __future__ import annotations


import numpy as np
from numba import njit

from cardsim.core import jit
from cardsim.envs.actions import Coding
from cardsim.envs.codings import blank, cards, one_hot, relative, rotate
from cardsim.games.molotow.cards import DECK as JASS
from cardsim.games.molotow.cards import NO_TRUMP

DECK = JASS.size
KINDS = ("lead", "follow")


def tokens(decision, context=None) -> tuple[int, ...]:
    return (decision.move,)


def token_name(t: int) -> str:
    return f"play {JASS.name(t)}"


ACTIONS = Coding(size=DECK, tokens=tokens, token_name=token_name, max_tokens=1)


def layout(players: int) -> list[tuple[str, int]]:
    return [("hand", DECK), ("trick", DECK * players), ("played", DECK), ("taken", DECK * players),
            ("ruled_out", DECK * players), ("led", 4), ("trump", 4), ("kind", len(KINDS)),
            ("leader", players), ("to_act", players), ("trump_setter", players), ("dealer", players),
            ("hand_sizes", players), ("sticks", players), ("potatoes", players), ("trick_no", 1), ("hand_no", 1)]


def segments(v: dict, players: int) -> list:
    seat = v["seat"]
    by_seat = [[] for _ in range(players)]
    for j, card in enumerate(v["trick"]):
        by_seat[(v["leader"] + j) % players].append(card)
    kind = KINDS.index(v["kind"]) if v["kind"] in KINDS else -1
    hands = v["rules"]["hands"]
    return [
        ("hand", cards(v["hand"], DECK)),
        ("trick", [cards(t, DECK) for t in rotate(by_seat, seat, players)]),
        ("played", cards(v["played"], DECK)),
        ("taken", [cards(t, DECK) for t in rotate(v["taken"], seat, players)]),
        ("ruled_out", [cards(t, DECK) for t in rotate(v["ruled_out"], seat, players)]),
        ("led", one_hot(v["led"], 4)), ("trump", one_hot(v["trump"], 4)), ("kind", one_hot(kind, len(KINDS))),
        ("leader", one_hot(relative(v["leader"], seat, players), players)),
        ("to_act", one_hot(relative(v["to_act"], seat, players), players)),
        ("trump_setter", one_hot(relative(v["trump_setter"], seat, players), players)),
        ("dealer", one_hot(relative(v["dealer"], seat, players), players)),
        ("hand_sizes", [n / 12 for n in rotate(v["hand_sizes"], seat, players)]),
        ("sticks", np.minimum(np.array(rotate(v["sticks"], seat, players), dtype=np.float32) / (10 * hands), 1.0)),
        ("potatoes", np.minimum(np.array(rotate(v["potatoes"], seat, players), dtype=np.float32) / (10 * hands), 1.0)),
        ("trick_no", [min(v["trick_no"], 12) / 12]), ("hand_no", [min(v["hand_no"], hands) / hands]),
    ]


@njit(cache=True)
def _cards(mask, out, at: int) -> None:
    for c in range(DECK):
        if jit.has(mask, c):
            out[at + c] = 1.0


@njit(cache=True)
def _seat(q: int, seat: int, players: int, out, at: int) -> None:
    if q >= 0:
        out[at + (q - seat) % players] = 1.0


@njit(cache=True)
def _observe(state, seat: int, players: int, to_act: int, hands: int, out) -> None:
    """``segments`` of the view of ``seat`` into ``out`` (zeros), from the compiled state ``state[0]``."""
    s = state[0]
    _cards(s.held[seat], out, 0)
    i = DECK
    for j in range(s.trick_len):
        out[i + ((s.leader + j) % players - seat) % players * DECK + s.trick[j]] = 1.0
    i += DECK * players
    _cards(s.played, out, i)
    i += DECK
    for j in range(players):
        _cards(s.taken[(seat + j) % players], out, i + j * DECK)
    i += DECK * players
    for j in range(players):
        _cards(s.ruled_out[(seat + j) % players], out, i + j * DECK)
    i += DECK * players
    if s.trick_len > 0:
        out[i + s.led] = 1.0
    i += 4
    if s.trump != NO_TRUMP:
        out[i + s.trump] = 1.0
    i += 4
    if to_act >= 0:
        out[i + (0 if s.trick_len == 0 else 1)] = 1.0
    i += 2
    for q in (s.leader, to_act, s.setter, s.dealer):
        _seat(q, seat, players, out, i)
        i += players
    for j in range(players):
        out[i + j] = jit.popcount(s.held[(seat + j) % players]) / 12
    i += players
    for j in range(players):
        out[i + j] = min(s.sticks[(seat + j) % players] / (10 * hands), 1.0)
        out[i + players + j] = min(s.potatoes[(seat + j) % players] / (10 * hands), 1.0)
    i += 2 * players
    out[i] = min(s.trick_no, 12) / 12
    out[i + 1] = min(s.hand_no, hands) / hands


def fast(engine, seat: int, players: int) -> np.ndarray:
    """``segments`` of the view, read straight from the compiled state in numba: the same vector, tested
    equal to the view's."""
    out = blank(layout, players)
    _observe(engine.state, seat, players, engine.to_act(), engine.rules.hands, out)
    return out
