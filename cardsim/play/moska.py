"""Moska on the step API (``cardsim.new_game("moska", ...)``): its decisions, names and views.

A decision is one of the reference protocol's (``games/moska/reference.py``): an opening, a
defence step, an addition or a give-back (M-8 … M-14). Its ``move`` is
``(cards, kills, pairs)``: ``cards`` the card mask of the opening, addition or give-back (of a
defence: the defender's own cards it self-attacks), ``kills`` the ``(attack card, killer)``
pairs of the defence, ``pairs`` its self-attack ``(card, killer)`` pairs (M-14); unused parts
are ``()``.

Canonical order of ``legal()``:

- **opening** (M-8, M-9): the single cards, lowest code first; then the unions of same-rank
  groups of at least two cards within the room, rank by rank from the lowest rank, each
  rank's options being "none" first, then its groups by size and then by codes;
- **defence** (M-10, M-14): as the protocol asks it, the unkilled attack cards lowest first,
  each "left unkilled" first, then each legal killer lowest first; then the self-attack pairs,
  own cards lowest first, each "not attacked" first, then each legal killer lowest first.
  Index 0 is therefore "kill nothing";
- **addition** (M-11): sets of the seat's cards of the allowed ranks, at most the step's room,
  by size (the empty set first: add nothing), then by codes (lowest first);
- **give-back** (M-12): the sets of exactly the excess from the pool, by codes.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import njit

from cardsim.core import rng
from cardsim.core.cards import FRENCH52, cards_of
from cardsim.core.records import finish_strings
from cardsim.games.moska import compiled as c
from cardsim.games.moska import compiled_policies as pol
from cardsim.games.moska import reference
from cardsim.play.base import BaseEngine

RANKS = FRENCH52.n_ranks
KIND = {c.OPEN: "open", c.DEFEND: "defend", c.ADD: "add", c.GIVE_BACK: "give_back"}
KILL = [[int(x) for x in row] for row in reference.KILL]


# The engine's functions over the 1-element arrays: numba takes an array from Python in a few
# microseconds, a record in tens (benchmarks/bench_step.py).
@njit(cache=True)
def _deal(state, params, key, work):
    w = work[0]
    c.deal(state[0], params[0], key, w.u, w.perm, w.count)
    return c.to_act(state[0])


@njit(cache=True)
def _fill(move, cards, killer):
    m = move[0]
    m.cards = cards
    m.killer[:] = killer


@njit(cache=True)
def _apply(state, params, move, cards, killer):
    _fill(move, cards, killer)
    c.apply(state[0], params[0], move[0])
    return c.to_act(state[0])


@njit(cache=True)
def _is_legal(state, params, move, cards, killer):
    _fill(move, cards, killer)
    return c.is_legal(state[0], params[0], move[0])


@njit(cache=True)
def _choose(state, params, table, move, work):
    c.choose(state[0], params[0], table, move[0], work[0])


CARD_NAMES = [FRENCH52.name(x) for x in range(FRENCH52.size)]


def names(cards) -> str:
    return " ".join(CARD_NAMES[x] for x in (cards_of(cards) if isinstance(cards, int) else cards))


def rank_cards(mask: int) -> int:
    """Every card of the ranks present in ``mask`` (M-11)."""
    ranks = 0
    for x in cards_of(mask):
        ranks |= 1 << (x % RANKS)
    return sum(ranks << (RANKS * s) for s in range(4))


class Engine(BaseEngine):
    """A Moska game over ``compiled.STATE``."""

    def __init__(self, rules, players, seed, game_index, seats) -> None:
        super().__init__(rules, players, seed, game_index, seats)
        self.params = c.make_params(rules, players)
        self.p = {name: int(self.params[0][name]) for name in c.PARAMS.names}
        self.table = pol.table(self.seats)
        self.state, self.work = np.zeros(1, c.STATE), c.new_work()
        self.move = np.zeros(1, c.MOVE)
        c.seat_forbids(self.state[0], self.table)  # before the deal: a seat forbidden to swap keeps the 2
        self.seat = int(_deal(self.state, self.params, np.uint64(rng.game_key(seed, game_index)), self.work))
        self.state[0]["reads"] = pol.reads_of(self.table)  # as run_games: the engine reads only for mc(beliefs=reads)

    def copy(self):
        other = super().copy()
        other.move = np.zeros(1, c.MOVE)
        return other

    # --- state --------------------------------------------------------------------------
    def turn(self) -> int:
        return int(self.state[0]["turns"])

    def _room(self, start_hand, attack, dhand, unkilled) -> int:
        """M-9 (compiled ``room_of``)."""
        p = self.p
        hand, used = (dhand.bit_count(), unkilled.bit_count()) if p["cap_unkilled"] \
            else (start_hand, attack.bit_count())
        limit = min(int(p["cap"]), hand) if p["cap_to_hand"] else int(p["cap"])
        return max(0, limit - used)

    def _allowed(self, attack: int, kills: int) -> int:
        return rank_cards(attack | kills if self.p["kill_ranks"] else attack)

    def _self_attack_killers(self, hand, attack, kills, unkilled, start_hand, gone, card) -> int:
        """M-14 (compiled ``self_attack_killers``)."""
        p = self.p
        if not p["self_attack"] or not hand >> card & 1 or not self._allowed(attack, kills) >> card & 1:
            return 0
        if self._room(start_hand, attack, hand, unkilled) < 2 or gone + 2 > p["leave_limit"]:
            return 0
        if p["cap_unkilled"] and hand.bit_count() - 2 < unkilled.bit_count():
            return 0
        return KILL[int(self.state[0]["trump"])][card] & hand & ~(1 << card)

    # --- decisions ----------------------------------------------------------------------
    def moves(self):
        s = self.state[0]
        phase, hand = int(s["phase"]), int(s["hands"][s["seat"]])
        if phase == c.OPEN:
            return self._openings(hand, self._room_now(s))
        if phase == c.ADD:
            pool = list(cards_of(hand & int(s["step_allowed"])))
            return ((sum(1 << x for x in cs), (), ()) for k in range(min(int(s["step_room"]), len(pool)) + 1)
                    for cs in combinations(pool, k))
        if phase == c.GIVE_BACK:
            pool = list(cards_of(self._give_back_pool(s)))
            return ((sum(1 << x for x in cs), (), ()) for cs in combinations(pool, int(s["excess"])))
        return self._defences()

    def _room_now(self, s) -> int:
        return self._room(int(s["start_hand"]), int(s["attack"]), int(s["hands"][s["defender"]]), int(s["unkilled"]))

    def _give_back_pool(self, s) -> int:
        """M-12 (compiled ``give_back_pool``): every added card, or (``excess_return="last"``) the seat's own."""
        if self.p["excess"] != c.BY_LAST:
            pool = 0
            for q in range(self.players):
                pool |= int(s["added"][q])
            return pool
        return int(s["added"][s["seat"]])

    def _openings(self, hand: int, room: int):
        if room >= 1:
            for x in cards_of(hand):
                yield 1 << x, (), ()
        groups = []
        for r in range(RANKS):
            held = [x for x in cards_of(hand) if x % RANKS == r]
            if len(held) >= 2:
                groups.append([sum(1 << x for x in cs) for k in range(2, len(held) + 1)
                               for cs in combinations(held, k)])

        def unions(i: int, mask: int, n: int):
            if i == len(groups):
                if mask:
                    yield mask, (), ()
                return
            yield from unions(i + 1, mask, n)
            for g in groups[i]:
                k = g.bit_count()
                if n + k <= room:
                    yield from unions(i + 1, mask | g, n + k)
        yield from unions(0, 0, 0)

    def _defences(self):
        s, p = self.state[0], self.p
        trump, limit = int(s["trump"]), p["leave_limit"]
        attacked = list(cards_of(int(s["unkilled"])))
        start_hand = int(s["start_hand"])

        def kill_step(i, hand, attack, kills, unkilled, gone, done):
            if i == len(attacked):
                yield from self_step(0, hand, attack, kills, unkilled, gone, tuple(done), 0, ())
                return
            a = attacked[i]
            yield from kill_step(i + 1, hand, attack, kills, unkilled, gone, done)
            if gone < limit:
                for k in cards_of(KILL[trump][a] & hand):
                    yield from kill_step(i + 1, hand & ~(1 << k), attack, kills | 1 << k, unkilled & ~(1 << a),
                                         gone + 1, done + [(a, k)])

        def self_step(low, hand, attack, kills, unkilled, gone, done, cards, pairs):
            if not p["self_attack"]:
                yield cards, done, pairs
                return
            cands = hand & self._allowed(attack, kills) & ~((1 << low) - 1)
            if not cands:
                yield cards, done, pairs
                return
            x = (cands & -cands).bit_length() - 1
            yield from self_step(x + 1, hand, attack, kills, unkilled, gone, done, cards, pairs)
            for k in cards_of(self._self_attack_killers(hand, attack, kills, unkilled, start_hand, gone, x)):
                yield from self_step(x + 1, hand & ~(1 << x | 1 << k), attack | 1 << x, kills | 1 << k, unkilled,
                                     gone + 2, done, cards | 1 << x, pairs + ((x, k),))

        return kill_step(0, int(s["hands"][s["defender"]]), int(s["attack"]), int(s["kills"]),
                         int(s["unkilled"]), int(s["gone"]), [])

    def name(self, move) -> str:
        cards, kills, pairs = move
        phase = int(self.state[0]["phase"])
        if phase == c.OPEN:
            return f"open with {names(cards)}"
        if phase == c.ADD:
            return f"add {names(cards)}" if cards else "add nothing"
        if phase == c.GIVE_BACK:
            return f"take back {names(cards)}"
        parts = [", ".join(f"{CARD_NAMES[a]} with {CARD_NAMES[k]}" for a, k in kills)] if kills else []
        parts = ["kill " + parts[0]] if parts else []
        if pairs:
            parts.append("self-attack " + ", ".join(f"{CARD_NAMES[x]} with {CARD_NAMES[k]}" for x, k in pairs))
        return "; ".join(parts) if parts else "kill nothing"

    def _killers(self, move) -> np.ndarray:
        """``MOVE.killer`` of a move: the killer of each attack card it kills, -1 elsewhere."""
        killer = np.full(c.DECK_SIZE, -1, dtype=np.int8)
        for a, k in move[1] + move[2]:
            killer[a] = k
        return killer

    def apply(self, move) -> None:
        self.seat = int(_apply(self.state, self.params, self.move, np.uint64(move[0]), self._killers(move)))

    def is_legal(self, move) -> bool:
        return bool(_is_legal(self.state, self.params, self.move, np.uint64(move[0]), self._killers(move)))

    def policy_move(self):
        s, m = self.state[0], self.move[0]
        _choose(self.state, self.params, self.table, self.move, self.work)
        cards = int(m["cards"])
        if int(s["phase"]) != c.DEFEND:
            return cards, (), ()
        kills = tuple((a, int(m["killer"][a])) for a in cards_of(int(s["unkilled"])) if m["killer"][a] >= 0)
        return cards, kills, tuple((x, int(m["killer"][x])) for x in cards_of(cards))

    # --- what a seat sees ---------------------------------------------------------------
    def view(self, seat: int) -> dict:
        s = self.state[0]
        phase, players = int(s["phase"]), self.players
        stock = int(s["stock_size"] - s["drawn"])
        over = phase == c.OVER
        two = int(s["trump"]) * RANKS + reference.TRUMP_TWO_RANK
        bottom = int(s["stock"][s["stock_size"] - 1]) if stock else -1
        return {
            "game": "moska", "seat": seat, "players": players, "turn": int(s["turns"]),
            "kind": "over" if over else KIND[phase], "to_act": self.seat,
            "hand": list(cards_of(int(s["hands"][seat]))),
            "hand_sizes": [int(s["hands"][q]).bit_count() for q in range(players)],
            "known": [list(cards_of(int(s["known"][q]) | int(s["added"][q]))) for q in range(players)],
            "attack": list(cards_of(int(s["attack"]))), "unkilled": list(cards_of(int(s["unkilled"]))),
            "kills": list(cards_of(int(s["kills"]))), "discard": list(cards_of(int(s["discard"]))),
            "stock": stock, "bottom_card": bottom, "trump": int(s["trump"]),
            "trump_two_in_stock": bool(self.p["swap"] and stock > 1 and bottom == int(s["turned"]) and bottom != two),
            "attacker": int(s["attacker"]), "defender": int(s["defender"]),
            "defender_start_hand": int(s["start_hand"]), "gone": int(s["gone"]),
            "room": self._room_now(s),
            "allowed": list(cards_of(self._allowed(int(s["attack"]), int(s["kills"])))),
            "step_room": int(s["step_room"]) if phase in (c.ADD, c.GIVE_BACK) else -1,
            "added": [list(cards_of(int(s["added"][q]))) for q in range(players)],
            "excess": int(s["excess"]) if phase == c.GIVE_BACK else 0,
            "out": [q for q in range(players) if int(s["out"]) >> q & 1],
            "rules": self.rules_view(),
        }

    def record(self) -> dict:
        s = self.state[0]
        out = np.zeros(len(c.RECORD_FIELDS), dtype=np.int64)
        c.write_record(s, out)
        row = dict(zip(c.RECORD_FIELDS, (int(v) for v in out)))
        finish = row.pop("finish")
        row["truncated"] = bool(row["truncated"])
        row["game"] = self.game_index
        row["first_out"] = finish % 16 - 1
        row["finish_order"] = str(finish_strings(np.array([finish]), self.players)[0])
        return row
