"""Musta-Maija on the step API: its decisions, names and views.

A decision is one of the reference protocol's (``games/musta_maija/reference.py``): an attack
or a defence, each with the marriage the seat may declare first (MM-5). Its ``move`` is
``(declare, cards, beaten)``: ``declare`` the suit declared trump (-1: none), ``cards`` the
attack's cards or the defence's beaters, ``beaten`` the attack cards the defence beats (``0``
in an attack), as card masks (bit = card code, 0..103: ``games/musta_maija/cards.py``). A
defence names sets, not pairs: it is legal when the beaters can be matched one to one with
the cards they beat (MM-10), as the compiled engine checks it.

Canonical order of ``legal()``: the declaration first (none, then the suits the seat may
declare, lowest first); within it, an **attack** (MM-9, MM-13) by suit (lowest first), then by
size (1 card first), then by codes; a **defence** (MM-10) by the number of cards beaten
(0 first: beat nothing; only all of them under the duty to beat), then the beaten cards by
codes, then the beaters by codes.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import njit

from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.core.records import finish_strings
from cardsim.games.musta_maija import compiled as c
from cardsim.games.musta_maija import compiled_policies as pol
from cardsim.games.musta_maija.cards import SUITS, name, suit
from cardsim.games.musta_maija.reference import beats
from cardsim.play.base import BaseEngine

SUIT_NAMES = "♣♦♥♠"


# The engine's functions over the 1-element arrays: numba takes an array from Python in a few
# microseconds, a record in tens (benchmarks/bench_step.py).
@njit(cache=True)
def _deal(state, params, key, work):
    w = work[0]
    c.deal(state[0], params[0], key, w.u, w.order, w.tmp, w.count)
    return c.to_act(state[0])


@njit(cache=True)
def _fill(move, declare, c0, c1, b0, b1):
    m = move[0]
    m.declare = declare
    m.cards[0], m.cards[1], m.beaten[0], m.beaten[1] = c0, c1, b0, b1


@njit(cache=True)
def _apply(state, params, move, declare, c0, c1, b0, b1):
    _fill(move, declare, c0, c1, b0, b1)
    c.apply(state[0], params[0], move[0])
    return c.to_act(state[0])


@njit(cache=True)
def _is_legal(state, params, move, declare, c0, c1, b0, b1):
    _fill(move, declare, c0, c1, b0, b1)
    return c.is_legal(state[0], params[0], move[0])


@njit(cache=True)
def _choose(state, params, table, move, work):
    c.choose(state[0], params[0], table, move[0], work[0])


@njit(cache=True)
def _may_declare(state, params):
    return c.may_declare(state[0], params[0], state[0].seat)


@njit(cache=True)
def _duty_to_beat(state, params, trump):
    return c.duty_to_beat(state[0], params[0], trump)
M52 = (1 << 52) - 1


def joined(pair) -> int:
    return int(pair[0]) | int(pair[1]) << 52


CARD_NAMES = [name(x) for x in range(104)]


def names(mask: int) -> str:
    return " ".join(CARD_NAMES[x] for x in cards_of(mask))


def matched(beaters: tuple[int, ...], beaten: tuple[int, ...], ok) -> bool:
    """Whether every beaten card gets its own beater (``ok(b, x)``): augmenting paths."""
    owner: dict[int, int] = {}

    def place(x: int, seen: set) -> bool:
        for b in beaters:
            if b not in seen and ok(b, x):
                seen.add(b)
                if b not in owner or place(owner[b], seen):
                    owner[b] = x
                    return True
        return False
    return all(place(x, set()) for x in beaten)


class Engine(BaseEngine):
    """A Musta-Maija game over ``compiled.STATE``."""

    def __init__(self, rules, players, seed, game_index, seats) -> None:
        super().__init__(rules, players, seed, game_index, seats)
        self.params = c.make_params(rules, players)
        self.table = pol.table(self.seats)
        self.state, self.work = np.zeros(1, c.STATE), c.new_work()
        self.move = np.zeros(1, c.MOVE)
        self.seat = int(_deal(self.state, self.params, np.uint64(rng.game_key(seed, game_index)), self.work))
        self.state[0]["reads"] = pol.reads_of(self.table)  # as run_games: the engine reads only for mc(beliefs=reads)

    def copy(self):
        other = super().copy()
        other.move = np.zeros(1, c.MOVE)
        return other

    def turn(self) -> int:
        return int(self.state[0]["turns"])

    def _hand(self, seat: int) -> int:
        return joined(self.state[0]["hands"][seat])

    def _declarations(self) -> list[int]:
        options = int(_may_declare(self.state, self.params))
        return [-1] + [x for x in range(SUITS) if options >> x & 1]

    def moves(self):
        s = self.state[0]
        hand = list(cards_of(self._hand(int(s["seat"]))))
        if int(s["phase"]) == c.ATTACK:
            cap = self._attack_cap(s)
            cap = len(hand) if cap < 0 else cap
            for d in self._declarations():
                for x in range(SUITS):
                    held = [y for y in hand if suit(y) == x]
                    for k in range(1, min(cap, len(held)) + 1):
                        for cs in combinations(held, k):
                            yield d, sum(1 << y for y in cs), 0
            return
        table = list(cards_of(joined(s["table"])))
        rule = self.rules.black_maria
        for d in self._declarations():
            trump = d if d >= 0 else int(s["trump"])
            sizes = [len(table)] if _duty_to_beat(self.state, self.params, trump) else range(len(table) + 1)
            for k in sizes:
                for xs in combinations(table, k):
                    able = [b for b in hand if any(beats(b, x, trump, rule) for x in xs)]
                    for bs in combinations(able, k):
                        if matched(bs, xs, lambda b, x, t=trump: beats(b, x, t, rule)):
                            yield d, sum(1 << b for b in bs), sum(1 << x for x in xs)

    def _attack_cap(self, s) -> int:
        """MM-13 (compiled ``attack_cap``): the defender's hand size once the stock is empty; -1: no cap."""
        return -1 if int(s["n_cards"] - s["top"]) else self._hand(int(s["defender"])).bit_count()

    def name(self, move) -> str:
        d, cards, beaten = move
        head = f"declare {SUIT_NAMES[d]} trump (marriage), " if d >= 0 else ""
        if int(self.state[0]["phase"]) == c.ATTACK:
            return f"{head}attack with {names(cards)}"
        if not beaten:
            return f"{head}beat nothing (pick up)"
        left = joined(self.state[0]["table"]) & ~beaten
        return f"{head}beat {names(beaten)} with {names(cards)}" + (f" (pick up {names(left)})" if left else "")

    def _words(self, move) -> tuple:
        """A move as ``MOVE``'s fields: the declaration, then the two words of the cards and of the beaten."""
        d, cards, beaten = move
        return (d, np.uint64(cards & M52), np.uint64(cards >> 52), np.uint64(beaten & M52),
                np.uint64(beaten >> 52))

    def apply(self, move) -> None:
        self.seat = int(_apply(self.state, self.params, self.move, *self._words(move)))

    def is_legal(self, move) -> bool:
        return bool(_is_legal(self.state, self.params, self.move, *self._words(move)))

    def policy_move(self):
        m = self.move[0]
        _choose(self.state, self.params, self.table, self.move, self.work)
        return int(m["declare"]), joined(m["cards"]), joined(m["beaten"])

    def view(self, seat: int) -> dict:
        s = self.state[0]
        phase, players = int(s["phase"]), self.players
        stock = int(s["n_cards"] - s["top"])
        over = phase == c.OVER
        return {
            "game": "musta_maija", "seat": seat, "players": players, "turn": int(s["turns"]),
            "kind": "over" if over else ("attack" if phase == c.ATTACK else "defend"), "to_act": self.seat,
            "hand": list(cards_of(self._hand(seat))),
            "hand_sizes": [self._hand(q).bit_count() for q in range(players)],
            "known": [list(cards_of(joined(s["known"][q]))) for q in range(players)],
            "table": list(cards_of(joined(s["table"]))), "discard": list(cards_of(joined(s["discard"]))),
            "stock": stock, "turned": int(s["turned"]), "trump": int(s["trump"]),
            "declared_turn": int(s["declared_turn"]),
            "attacker": int(s["attacker"]), "defender": int(s["defender"]),
            "may_declare": [x for x in self._declarations() if x >= 0] if not over and seat == int(s["seat"]) else [],
            "attack_cap": -1 if over else self._attack_cap(s),
            "out": [q for q in range(players) if int(s["out"]) >> q & 1],
            "rules": self.rules_view(),
        }

    def record(self) -> dict:
        out = np.zeros(len(c.RECORD), dtype=np.int64)
        c.record(self.state[0], out)
        row = dict(zip(c.RECORD, (int(v) for v in out)))
        finish = row.pop("finish")
        row["truncated"] = bool(row["truncated"])
        row["game"] = self.game_index
        row["first_out"] = finish % 16 - 1
        row["finish_order"] = str(finish_strings(np.array([finish]), self.players)[0])
        return row
