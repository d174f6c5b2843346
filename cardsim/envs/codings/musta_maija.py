"""Musta-Maija for agents: tokens of its decisions and its observation.

Card codes are 0..103 (``games/musta_maija/cards.py``: 0..51 the first deck, 52..103 the second,
used with 6-8 players). Tokens (``ACTIONS``, 213 ids): ``208 + s`` declares suit ``s`` trump by a
marriage (MM-5), first when the seat declares; then an attack (MM-9) spells its cards ``c`` (0-103)
in ascending code; a defence (MM-10) spells the attack cards it beats as ``104 + a``, ascending,
then its beaters ``c``, ascending (sets, matched one to one as the engine checks). ``212`` is
``END`` (beat nothing, or stop before more cards).
"""
from __future__ import annotations


import numpy as np
from numba import njit

from cardsim.core import jit
from cardsim.envs.actions import Coding
from cardsim.envs.codings import blank, cards, one_hot, relative, rotate
from cardsim.games.musta_maija import compiled as c
from cardsim.games.musta_maija.cards import name

DECK = 104
BEAT, DECLARE = DECK, 2 * DECK
SUITS = "♣♦♥♠"
KINDS = ("attack", "defend")


def _codes(mask: int) -> list[int]:
    return [x for x in range(DECK) if mask >> x & 1]


def tokens(decision, context=None) -> tuple[int, ...]:
    declare, cards_, beaten = decision.move
    head = (DECLARE + declare,) if declare >= 0 else ()
    return (*head, *(BEAT + a for a in _codes(beaten)), *_codes(cards_))


def token_name(t: int) -> str:
    if t < BEAT:
        return name(t)
    if t < DECLARE:
        return f"beat {name(t - BEAT)}"
    return f"declare {SUITS[t - DECLARE]}"


ACTIONS = Coding(size=2 * DECK + 4, tokens=tokens, token_name=token_name, max_tokens=2 * DECK + 2)


def layout(players: int) -> list[tuple[str, int]]:
    return [("hand", DECK), ("known", DECK * players), ("table", DECK), ("discard", DECK), ("turned", DECK),
            ("trump", 4), ("may_declare", 4), ("kind", len(KINDS)), ("hand_sizes", players), ("out", players),
            ("attacker", players), ("defender", players), ("to_act", players), ("stock", 1),
            ("attack_cap", 1), ("declared", 1)]


def segments(v: dict, players: int) -> list:
    seat = v["seat"]
    kind = KINDS.index(v["kind"]) if v["kind"] in KINDS else -1
    return [
        ("hand", cards(v["hand"], DECK)),
        ("known", [cards(h, DECK) for h in rotate(v["known"], seat, players)]),
        ("table", cards(v["table"], DECK)), ("discard", cards(v["discard"], DECK)),
        ("turned", one_hot(v["turned"], DECK)), ("trump", one_hot(v["trump"], 4)),
        ("may_declare", cards(v["may_declare"], 4)), ("kind", one_hot(kind, len(KINDS))),
        ("hand_sizes", [min(n, DECK) / DECK for n in rotate(v["hand_sizes"], seat, players)]),
        ("out", [float(q in v["out"]) for q in rotate(range(players), seat, players)]),
        ("attacker", one_hot(relative(v["attacker"], seat, players), players)),
        ("defender", one_hot(relative(v["defender"], seat, players), players)),
        ("to_act", one_hot(relative(v["to_act"], seat, players), players)),
        ("stock", [v["stock"] / DECK]), ("attack_cap", [max(v["attack_cap"], 0) / DECK]),
        ("declared", [float(v["declared_turn"] >= 0)]),
    ]


@njit(cache=True)
def _cards(words, out, at: int) -> None:
    """Two words of card bits (codes 0-51, then 52-103) as 0/1 entries."""
    for x in range(52):
        if jit.has(words[0], x):
            out[at + x] = 1.0
        if jit.has(words[1], x):
            out[at + 52 + x] = 1.0


@njit(cache=True)
def _seat(q: int, seat: int, players: int, out, at: int) -> None:
    if q >= 0:
        out[at + (q - seat) % players] = 1.0


@njit(cache=True)
def _observe(state, params, seat: int, players: int, to_act: int, out) -> None:
    """``segments`` of the view of ``seat`` into ``out`` (zeros), from the compiled state ``state[0]``."""
    s, p = state[0], params[0]
    over = s.phase == c.OVER
    _cards(s.hands[seat], out, 0)
    i = DECK
    for j in range(players):
        _cards(s.known[(seat + j) % players], out, i + j * DECK)
    i += DECK * players
    _cards(s.table, out, i)
    _cards(s.discard, out, i + DECK)
    i += 2 * DECK
    if s.turned >= 0:
        out[i + s.turned] = 1.0
    i += DECK
    if s.trump >= 0:
        out[i + s.trump] = 1.0
    i += 4
    if not over and seat == s.seat:
        options = c.may_declare(s, p, s.seat)
        for x in range(4):
            if (options >> x) & 1:
                out[i + x] = 1.0
    i += 4
    if not over:
        out[i + s.phase] = 1.0
    i += len(KINDS)
    for j in range(players):
        q = (seat + j) % players
        out[i + j] = min(jit.popcount(s.hands[q, 0]) + jit.popcount(s.hands[q, 1]), DECK) / DECK
        out[i + players + j] = 1.0 if (s.out >> q) & 1 else 0.0
    i += 2 * players
    for q in (s.attacker, s.defender, to_act):
        _seat(q, seat, players, out, i)
        i += players
    stock = s.n_cards - s.top
    out[i] = stock / DECK
    d = s.defender
    if not over and stock == 0:
        out[i + 1] = (jit.popcount(s.hands[d, 0]) + jit.popcount(s.hands[d, 1])) / DECK
    out[i + 2] = 1.0 if s.declared_turn >= 0 else 0.0


def fast(engine, seat: int, players: int) -> np.ndarray:
    """``segments`` of the view, read straight from the compiled state in numba: the same vector, tested
    equal to the view's."""
    out = blank(layout, players)
    _observe(engine.state, engine.params, seat, players, engine.to_act(), out)
    return out
