"""Moska for agents: tokens of its decisions and its observation.

Tokens (``ACTIONS``, 157 ids): ``c`` (0-51) plays card ``c`` (an opening, an addition or a
give-back spells its cards in ascending code); a defence spells each kill as ``52 + a`` (the
attack card ``a``) then ``k`` (its killer), the attack cards ascending, then each self-attack pair
as ``104 + x`` (the defender's own card ``x``) then its killer, ``x`` ascending (M-10, M-14); ``156``
is ``END`` (add nothing, kill nothing more, ...). Card codes are ``suit * 13 + rank``
(``core/cards.py``).
"""
from __future__ import annotations

from cardsim.core.cards import FRENCH52
from cardsim.envs.actions import Coding
from cardsim.envs.codings import cards, one_hot, relative, rotate

DECK = 52
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
