"""Moska for agents: tokens of its decisions and its observation.

Tokens (``ACTIONS``, 157 ids): ``c`` (0-51) plays card ``c`` (an opening, an addition or a
give-back spells its cards in ascending code); a defence spells each kill as ``52 + a`` (the
attack card ``a``) then ``k`` (its killer), the attack cards ascending, then each self-attack pair
as ``104 + x`` (the defender's own card ``x``) then its killer, ``x`` ascending (M-10, M-14); ``156``
is ``END`` (add nothing, kill nothing more, ...). Card codes are ``suit * 13 + rank``
(``core/cards.py``).
"""
from __future__ import annotations


import numpy as np
from numba import njit

from cardsim.core import jit
from cardsim.core.cards import FRENCH52
from cardsim.envs.actions import Coding
from cardsim.envs.codings import blank, cards, one_hot, relative, rotate
from cardsim.games.moska import compiled as c
from cardsim.games.moska.reference import TRUMP_TWO_RANK

DECK = 52
RANKS = FRENCH52.n_ranks
TARGET, SELF = DECK, 2 * DECK
KINDS = ("open", "defend", "add", "give_back")


def tokens(decision, context=None) -> tuple[int, ...]:
    cards_, kills, pairs = decision.move
    if not kills and not pairs:
        return tuple(x for x in range(DECK) if cards_ >> x & 1)
    return (*(t for a, k in kills for t in (TARGET + a, k)), *(t for x, k in pairs for t in (SELF + x, k)))


def token_name(t: int) -> str:
    if t < TARGET:
        return FRENCH52.name(t)
    if t < SELF:
        return f"kill {FRENCH52.name(t - TARGET)}"
    return f"self-attack {FRENCH52.name(t - SELF)}"


ACTIONS = Coding(size=3 * DECK, tokens=tokens, token_name=token_name, max_tokens=2 * DECK + 1)


def layout(players: int) -> list[tuple[str, int]]:
    return [("hand", DECK), ("known", DECK * players), ("added", DECK * players), ("attack", DECK),
            ("unkilled", DECK), ("kills", DECK), ("discard", DECK), ("allowed", DECK),
            ("bottom_card", DECK), ("trump", 4), ("kind", len(KINDS)), ("hand_sizes", players),
            ("out", players), ("attacker", players), ("defender", players), ("to_act", players),
            ("stock", 1), ("trump_two_in_stock", 1), ("room", 1), ("step_room", 1), ("excess", 1),
            ("gone", 1), ("defender_start_hand", 1)]


def segments(v: dict, players: int) -> list:
    seat = v["seat"]
    kind = KINDS.index(v["kind"]) if v["kind"] in KINDS else -1
    return [
        ("hand", cards(v["hand"], DECK)),
        ("known", [cards(h, DECK) for h in rotate(v["known"], seat, players)]),
        ("added", [cards(h, DECK) for h in rotate(v["added"], seat, players)]),
        ("attack", cards(v["attack"], DECK)), ("unkilled", cards(v["unkilled"], DECK)),
        ("kills", cards(v["kills"], DECK)), ("discard", cards(v["discard"], DECK)),
        ("allowed", cards(v["allowed"], DECK)), ("bottom_card", one_hot(v["bottom_card"], DECK)),
        ("trump", one_hot(v["trump"], 4)), ("kind", one_hot(kind, len(KINDS))),
        ("hand_sizes", [n / DECK for n in rotate(v["hand_sizes"], seat, players)]),
        ("out", [float(q in v["out"]) for q in rotate(range(players), seat, players)]),
        ("attacker", one_hot(relative(v["attacker"], seat, players), players)),
        ("defender", one_hot(relative(v["defender"], seat, players), players)),
        ("to_act", one_hot(relative(v["to_act"], seat, players), players)),
        ("stock", [v["stock"] / DECK]), ("trump_two_in_stock", [float(v["trump_two_in_stock"])]),
        ("room", [min(v["room"], DECK) / DECK]), ("step_room", [max(v["step_room"], 0) / DECK]),
        ("excess", [v["excess"] / DECK]), ("gone", [v["gone"] / DECK]),
        ("defender_start_hand", [v["defender_start_hand"] / DECK]),
    ]


@njit(cache=True)
def _cards(mask, out, at: int) -> None:
    for x in range(DECK):
        if jit.has(mask, x):
            out[at + x] = 1.0


@njit(cache=True)
def _seat(q: int, seat: int, players: int, out, at: int) -> None:
    if q >= 0:
        out[at + (q - seat) % players] = 1.0


@njit(cache=True)
def _observe(state, params, seat: int, players: int, to_act: int, out) -> None:
    """``segments`` of the view of ``seat`` into ``out`` (zeros), from the compiled state ``state[0]``."""
    s, p = state[0], params[0]
    _cards(s.hands[seat], out, 0)
    i = DECK
    for j in range(players):
        q = (seat + j) % players
        _cards(s.known[q] | s.added[q], out, i + j * DECK)
        _cards(s.added[q], out, i + (players + j) * DECK)
    i += 2 * DECK * players
    for mask in (s.attack, s.unkilled, s.kills, s.discard, c.allowed_of(p, s.attack, s.kills)):
        _cards(mask, out, i)
        i += DECK
    stock = s.stock_size - s.drawn
    bottom = s.stock[s.stock_size - 1] if stock > 0 else -1
    if bottom >= 0:
        out[i + bottom] = 1.0
    i += DECK
    out[i + s.trump] = 1.0
    i += 4
    if s.phase != c.OVER:
        out[i + s.phase] = 1.0
    i += len(KINDS)
    for j in range(players):
        q = (seat + j) % players
        out[i + j] = jit.popcount(s.hands[q]) / DECK
        out[i + players + j] = 1.0 if (s.out >> q) & 1 else 0.0
    i += 2 * players
    for q in (s.attacker, s.defender, to_act):
        _seat(q, seat, players, out, i)
        i += players
    two = s.trump * RANKS + TRUMP_TWO_RANK
    out[i] = stock / DECK
    out[i + 1] = 1.0 if p.swap != 0 and stock > 1 and bottom == s.turned and bottom != two else 0.0
    out[i + 2] = min(c.room(s, p), DECK) / DECK
    out[i + 3] = s.step_room / DECK if s.phase == c.ADD or s.phase == c.GIVE_BACK else 0.0
    out[i + 4] = s.excess / DECK if s.phase == c.GIVE_BACK else 0.0
    out[i + 5] = s.gone / DECK
    out[i + 6] = s.start_hand / DECK


def fast(engine, seat: int, players: int) -> np.ndarray:
    """``segments`` of the view, read straight from the compiled state in numba: the same vector, tested
    equal to the view's."""
    out = blank(layout, players)
    _observe(engine.state, engine.params, seat, players, engine.to_act(), out)
    return out
