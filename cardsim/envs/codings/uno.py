"""Uno for agents: tokens of its choices and its observation.

One step of the step API is one choice of the protocol (``games/uno/reference.py``, "Choices"),
spelled by one token (``ACTIONS``, 73 ids): ``k`` (0-55) plays card kind ``k`` (``games/uno/cards.py``;
a Draw Two's kind also stacks it, U-11); ``56`` draws (for the turn, U-7, or the stacked total); ``57``
lets a Wild Draw Four pass and ``58`` challenges it (U-14); ``59 + c`` names colour ``c`` (R, Y, G, B);
``63 + j`` swaps hands with the seat ``j + 1`` places after the chooser (U-16). ``72`` is ``END``,
never legal here (no choice spells another's beginning).
"""
from __future__ import annotations


from cardsim.envs.actions import Coding
from cardsim.envs.codings import blank, one_hot, relative, rotate
from cardsim.games.uno.cards import COLOURS, K
from cardsim.games.uno.cards import name as kind_name

import numpy as np
from numba import njit

DRAW, PASS, COLOUR, TARGET = K, K + 1, K + 3, K + 7
MAX_SEATS = 10
CHOICES = ("start_colour", "stack", "challenge", "card", "target", "colour")
N_CHOICES = len(CHOICES)
"""The compiled state's ``phase`` codes 0-5 are the choices in this order; 6 is over."""
COPIES = 8
"""Counts of a kind are scaled by this (no deck holds more copies of a kind)."""


def context(game) -> tuple[str, int, int]:
    """The kind of the waiting choice (the view's ``kind``, read from the compiled state's ``phase``, whose
    codes 0-5 are ``CHOICES`` in order: a whole view costs more than the step), the chooser, the players."""
    return CHOICES[int(game._engine.state["phase"][0])], game.to_act, game.players


def tokens(decision, context) -> tuple[int, ...]:
    kind, seat, players = context
    move = decision.move
    if kind in ("card", "stack"):
        return (DRAW if move < 0 else move,)
    if kind == "challenge":
        return (PASS + move,)
    if kind in ("colour", "start_colour"):
        return (COLOUR + move,)
    return (TARGET + (move - seat) % players - 1,)


def token_name(t: int) -> str:
    if t < K:
        return f"play {kind_name(t)}"
    if t == DRAW:
        return "draw"
    if t < COLOUR:
        return "challenge" if t == PASS + 1 else "let it pass"
    if t < TARGET:
        return f"name {COLOURS[t - COLOUR]}"
    return f"swap with the seat {t - TARGET + 1} after"


ACTIONS = Coding(size=TARGET + MAX_SEATS - 1, tokens=tokens, token_name=token_name, max_tokens=1, context=context)


def counts(kinds) -> np.ndarray:
    out = np.zeros(K, dtype=np.float32)
    for k in kinds:
        out[k] += 1.0 / COPIES
    return np.minimum(out, 1.0)


@njit(cache=True)
def _observe(state, seat: int, players: int, target: int, max_turns: int, out: np.ndarray) -> None:
    """``segments`` of the view of ``seat`` into ``out`` (zeros), from the compiled state ``state[0]``."""
    observe_state(state[0], seat, players, target, max_turns, out)


@njit(cache=True)
def observe_state(s, seat: int, players: int, target: int, max_turns: int, out: np.ndarray) -> None:
    """``segments`` of the view of ``seat`` into ``out`` (zeros), from the compiled state record ``s``."""
    i = 0
    for k in range(K):
        out[i + k] = min(s.hands[seat, k] / COPIES, 1.0)
    i += K
    for j in range(players):
        q = (seat + j) % players
        for k in range(K):
            out[i + k] = min(s.shown[q, seat, k] / COPIES, 1.0)
        i += K
    for k in range(K):
        out[i + k] = min(s.discard[k] / COPIES, 1.0)
    i += K
    out[i + s.top] = 1.0
    i += K
    if s.colour >= 0:
        out[i + s.colour] = 1.0
    i += 4
    over = s.phase == N_CHOICES
    if not over:
        out[i + s.phase] = 1.0
    i += N_CHOICES
    for j in range(players):
        out[i + j] = min(s.size[(seat + j) % players], 100) / 100
    i += players
    if not over:
        out[i + (s.current - seat) % players] = 1.0
    i += players
    if s.wd4_player >= 0:
        out[i + (s.wd4_player - seat) % players] = 1.0
    i += players
    for j in range(players):
        out[i + j] = min(s.scores[(seat + j) % players], target) / target
    i += players
    out[i] = 1.0 if s.direction > 0 else 0.0
    out[i + 1] = min(s.pending, 40) / 40
    out[i + 2] = 1.0 if s.challenge_open else 0.0
    out[i + 3] = min(s.end - s.ptr, 120) / 120
    out[i + 4] = min(s.hand_turns, max_turns) / max_turns


def fast(engine, seat: int, players: int) -> np.ndarray:
    """``segments`` of the view, read straight from the compiled state in numba (the view's lists cost
    more than the step): the same vector, tested equal to the view's."""
    out = blank(layout, players)
    _observe(engine.state, seat, players, engine.rules.target_score or 500, engine.rules.max_turns, out)
    return out


def layout(players: int) -> list[tuple[str, int]]:
    return [("hand", K), ("shown", K * players), ("discard", K), ("top", K), ("colour", 4),
            ("choice", len(CHOICES)), ("hand_sizes", players), ("to_act", players), ("wd4_player", players),
            ("scores", players), ("direction", 1), ("pending", 1), ("challenge_open", 1), ("pile", 1),
            ("hand_turns", 1)]


def segments(v: dict, players: int) -> list:
    seat = v["seat"]
    choice = CHOICES.index(v["kind"]) if v["kind"] in CHOICES else -1
    target = v["rules"]["target_score"] or 500
    return [
        ("hand", counts(v["hand"])), ("shown", [counts(h) for h in rotate(v["shown"], seat, players)]),
        ("discard", counts(v["discard"])), ("top", one_hot(v["top"], K)), ("colour", one_hot(v["colour"], 4)),
        ("choice", one_hot(choice, len(CHOICES))),
        ("hand_sizes", [min(n, 100) / 100 for n in rotate(v["hand_sizes"], seat, players)]),
        ("to_act", one_hot(relative(v["to_act"], seat, players), players)),
        ("wd4_player", one_hot(relative(v["wd4_player"], seat, players), players)),
        ("scores", [min(x, target) / target for x in rotate(v["scores"], seat, players)]),
        ("direction", [float(v["direction"] > 0)]), ("pending", [min(v["pending"], 40) / 40]),
        ("challenge_open", [float(v["challenge_open"])]), ("pile", [min(v["pile"], 120) / 120]),
        ("hand_turns", [min(v["hand_turns"], v["rules"]["max_turns"]) / v["rules"]["max_turns"]]),
    ]
