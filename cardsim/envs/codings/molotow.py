"""Molotow Jass for agents: tokens of its decisions and its observation.

A decision is one card played (``games/molotow/reference.py``), spelled by one token
(``ACTIONS``, 37 ids): ``c`` (0-35) plays card ``c`` (``games/molotow/cards.py``); ``36`` is ``END``,
never legal here.
"""
from __future__ import annotations

import numpy as np

from cardsim.envs.actions import Coding
from cardsim.envs.codings import cards, one_hot, relative, rotate
from cardsim.games.molotow.cards import DECK as JASS

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
