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
from cardsim.envs.codings import one_hot, relative, rotate
from cardsim.games.uno.cards import COLOURS, K
from cardsim.games.uno.cards import name as kind_name

import numpy as np

DRAW, PASS, COLOUR, TARGET = K, K + 1, K + 3, K + 7
MAX_SEATS = 10
CHOICES = ("start_colour", "stack", "challenge", "card", "target", "colour")
COPIES = 8
"""Counts of a kind are scaled by this (no deck holds more copies of a kind)."""


def context(game) -> tuple[str, int, int]:
    """The kind of the waiting choice (the view's ``kind``, read from the compiled state's ``phase``, whose
    codes 0-5 are ``CHOICES`` in order: a whole view costs more than the step), the chooser, the players."""
    return CHOICES[int(game._engine.state[0]["phase"])], game.to_act, game.players


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


def fast(engine, seat: int, players: int) -> np.ndarray:
    """``segments`` of the view, read straight from the compiled state (the step's cost is mostly the view's
    lists): the same vector, tested equal to the view's."""
    s = engine.state[0]
    order = [(seat + j) % players for j in range(players)]
    rel = [(q - seat) % players for q in range(players)]
    phase, current = int(s["phase"]), int(s["current"])
    over = phase == len(CHOICES)
    target = engine.rules.target_score or 500
    max_turns = engine.rules.max_turns
    parts = [
        np.minimum(s["hands"][seat, :K] / COPIES, 1.0), np.minimum(s["shown"][order, seat, :K] / COPIES, 1.0),
        np.minimum(s["discard"][:K] / COPIES, 1.0), one_hot(int(s["top"]), K), one_hot(int(s["colour"]), 4),
        one_hot(-1 if over else phase, len(CHOICES)), np.minimum(s["size"][order], 100) / 100,
        one_hot(-1 if over else rel[current], players),
        one_hot(-1 if s["wd4_player"] < 0 else rel[int(s["wd4_player"])], players),
        np.minimum(s["scores"][order], target) / target,
        [float(s["direction"] > 0), min(int(s["pending"]), 40) / 40, float(s["challenge_open"]),
         min(int(s["end"] - s["ptr"]), 120) / 120, min(int(s["hand_turns"]), max_turns) / max_turns],
    ]
    return np.concatenate([np.asarray(p, dtype=np.float32).ravel() for p in parts])


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
