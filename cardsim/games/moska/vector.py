"""Moska vector engine: many games in numpy lockstep, record for record equal to ``reference.py``.

It follows the DECISION PROTOCOL of ``reference.py`` (deal, decisions, draws) on a
struct of arrays, one row per game. It is written to be fast, not to be read next to
the rules: read ``reference.py`` for that; rule IDs are cited where they are applied.
It does not trace moves (``cardsim.replay`` does, with the reference engine).

Layout. A batch (``Batch``) holds up to ``capacity`` live games. Hands are ``uint64``
card masks (card ``c`` = bit ``c``, see core/cards.py), shape (n, players). The stock
is the front of the deal's permutation, kept as prefix masks ``cum[slot, j]`` = the
first ``j`` stock cards, plus ``bottom``, the card under the stock (the turned card, or
the trump 2 after an M-6 swap); ``drawn`` counts cards taken from the stock. The round
on the table is three masks: ``att`` (every attack card of the round), ``unk`` (the
unkilled ones), ``kil`` (kill cards).

Lockstep. Every game is in one of three phases: ``OPEN`` (a round starts), ``DEFEND``
(one defence decision) or ``ADD`` (one addition step: every adder's decision, the
give-back of M-12, the refills). Each tick runs the three phase functions, in that
order, on the games in that phase, so a game advances by up to three phases per tick.
Finished games leave the batch (compaction) and new deals take their places, so the
slow tail of a study does not hold a nearly empty batch.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from cardsim.core import rng
from cardsim.core.cards import BIT, FRENCH52, np_count, np_lowest_bit
from cardsim.games.moska.rules import DECK_SIZE, MoskaRules
from cardsim.games.moska.vector_policies import RANKS, ZERO, Views, index, make_twin, rank_cards, rank_set

CAPACITY = 32_768
"""Live games per batch (at most): large enough to amortise numpy's per-call overhead (about 15 MiB)."""
OPEN, DEFEND, ADD = 0, 1, 2
NO_CAP = DECK_SIZE
TRUMP_TWO_RANK = 0


def _make_kill_table() -> np.ndarray:
    """``KILL[t * 52 + a]``: mask of the cards that kill card ``a`` when suit ``t`` is trump (M-10).

    Row ``t * 52 + a``; bits are card codes. Same suit and higher rank, or any trump
    when ``a`` is not a trump.
    """
    table = np.zeros(4 * DECK_SIZE, dtype=np.uint64)
    for trump in range(4):
        for a in range(DECK_SIZE):
            suit, rank = divmod(a, RANKS)
            higher = sum(1 << (suit * RANKS + r) for r in range(rank + 1, RANKS))
            table[trump * DECK_SIZE + a] = higher | (FRENCH52.suit_mask(trump) if suit != trump else 0)
    return table


KILL = _make_kill_table()


def _make_next_table(players: int) -> np.ndarray:
    """``NEXT[out * players + seat]``: the next seat clockwise after ``seat`` not in the bitmask ``out``.

    ``seat`` itself when every other seat is out (as ``reference.next_active``).
    """
    table = np.zeros((1 << players) * players, dtype=np.int64)
    for out in range(1 << players):
        for seat in range(players):
            steps = [(seat + k) % players for k in range(1, players + 1)]
            table[out * players + seat] = next((p for p in steps if not out >> p & 1), seat)
    return table


@dataclass
class Batch:
    """Live games as arrays (one row per game); ``slot`` indexes the engine's stock table ``cum``."""

    row: np.ndarray
    slot: np.ndarray
    key: np.ndarray
    hands: np.ndarray
    out: np.ndarray
    """Bit ``p`` set when seat ``p`` is out (M-18)."""
    finish: np.ndarray
    """``finish_order`` packed: the ``j``-th seat out, plus one, in bits ``4j .. 4j+3``."""
    trump: np.ndarray
    turned: np.ndarray
    bottom: np.ndarray
    drawn: np.ndarray
    attacker: np.ndarray
    defender: np.ndarray
    start_hand: np.ndarray
    att: np.ndarray
    unk: np.ndarray
    kil: np.ndarray
    gone: np.ndarray
    phase: np.ndarray
    live: np.ndarray
    truncated: np.ndarray
    loser: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    swaps: np.ndarray
    overplays: np.ndarray
    pickups: np.ndarray
    self_attacks: np.ndarray

    def __len__(self) -> int:
        return len(self.row)

    def take(self, idx: np.ndarray) -> Batch:
        return Batch(**{f.name: getattr(self, f.name)[idx] for f in dataclasses.fields(self)})

    def put(self, idx: np.ndarray, part: Batch) -> None:
        for f in dataclasses.fields(self):
            getattr(self, f.name)[idx] = getattr(part, f.name)

    @staticmethod
    def concat(parts: Sequence[Batch]) -> Batch:
        return Batch(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                        for f in dataclasses.fields(Batch)})


MASK_MOVES = ("open", "add", "give_back")
"""Policy methods that return a card mask (the others return a card code or -1)."""
COUNTERS = ("turns", "rounds", "overplays", "pickups", "self_attacks")
"""What a cycle of play adds to (the other record fields stay the same in a cycle)."""
CYCLES_FROM = 300
"""Decisions after which a deterministic game is watched for cycles (normal games end sooner; the
jump is exact whenever it happens, this only keeps the watching off the common case)."""
RECORD_FIELDS = ("turns", "truncated", "loser", "rounds", "trump", "swaps", "overplays", "pickups", "self_attacks")


class Engine:
    """One study cell (rules, players, seed, seat policies) played on batches of games."""

    def __init__(self, rules: MoskaRules, players: int, seed: int, policies: Sequence[str],
                 capacity: int = CAPACITY) -> None:
        rules.check_players(players)
        self.rules, self.players, self.seed = rules, players, seed
        self.capacity = capacity
        self.hand_size = rules.hand_size
        self.dealt = players * rules.hand_size
        self.front = DECK_SIZE - self.dealt - 1
        """Stock cards above the turned card."""
        self.cap = NO_CAP if rules.attack_cap is None else rules.attack_cap
        twins = [make_twin(p) for p in policies]
        kinds = sorted({type(t) for t in twins}, key=lambda t: t.__name__)
        self.twins = [k() for k in kinds]
        self.seat_twin = np.array([kinds.index(type(t)) for t in twins], dtype=np.int64)
        self.drawing_seats = sum(1 << p for p, t in enumerate(twins) if not t.DETERMINISTIC)
        """Seats (bits) whose policy draws random numbers."""
        self.next_table = _make_next_table(players)
        self.cum = np.zeros((capacity, self.front + 1), dtype=np.uint64)
        self.snap = np.zeros((capacity, players + 1), dtype=np.uint64)
        """Cycle detection (by slot): a state at a round start (hands, attacker, stock) saved by Brent's method."""
        self.snap_at = np.full((capacity, len(COUNTERS)), -1, dtype=np.int64)
        """The counters (``COUNTERS``) when ``snap`` was saved; ``snap_at[:, 0] = -1``: nothing saved."""
        self.brent = np.ones((capacity, 2), dtype=np.int64)
        """Rounds since ``snap`` was saved, and the number of rounds after which it is saved again."""
        self.free = list(range(capacity))[::-1]

    # --- deal (M-4, M-5) ------------------------------------------------------------------

    def deal(self, rows: np.ndarray, games: np.ndarray) -> Batch:
        """New games at ``rows`` of the output: the deal of the DECISION PROTOCOL."""
        n, P, H = len(rows), self.players, self.hand_size
        key = rng.game_key(self.seed, games.astype(np.uint64))
        perm = rng.permutation(key, rng.Stream.DEAL, DECK_SIZE)
        by_seat = np.bitwise_or.reduce(BIT[perm[:, :self.dealt]].reshape(n, H, P), axis=1)
        hands = np.roll(by_seat, 1, axis=1)  # card j goes to seat (1 + j) % P
        turned = perm[:, self.dealt]
        slot = np.array([self.free.pop() for _ in range(n)], dtype=np.int64)
        self.cum[slot, 0] = 0
        self.cum[slot, 1:] = np.bitwise_or.accumulate(BIT[perm[:, self.dealt + 1:]], axis=1)
        self.snap_at[slot, 0] = -1
        self.brent[slot] = 1
        zeros = np.zeros(n, dtype=np.int64)
        empty = np.zeros(n, dtype=np.uint64)
        return Batch(
            row=rows, slot=slot, key=key, hands=hands, out=zeros.copy(), finish=zeros.copy(), trump=turned // RANKS,
            turned=BIT[turned], bottom=BIT[turned], drawn=zeros.copy(), attacker=np.full(n, 1 % P, dtype=np.int64),
            defender=zeros.copy(), start_hand=zeros.copy(), att=empty.copy(), unk=empty.copy(), kil=empty.copy(),
            gone=zeros.copy(), phase=np.full(n, OPEN, dtype=np.int8), live=np.ones(n, dtype=bool),
            truncated=np.zeros(n, dtype=bool), loser=np.full(n, -1, dtype=np.int64), turns=zeros.copy(),
            rounds=zeros.copy(), swaps=zeros.copy(), overplays=zeros.copy(), pickups=zeros.copy(),
            self_attacks=zeros.copy())

    # --- small pieces ---------------------------------------------------------------------

    def stock_left(self, b: Batch) -> np.ndarray:
        return self.front + 1 - b.drawn

    def hand(self, b: Batch, seat: np.ndarray) -> np.ndarray:
        return b.hands[np.arange(len(b)), seat]

    def set_hand(self, b: Batch, seat: np.ndarray, value: np.ndarray, m: np.ndarray) -> None:
        rows = np.flatnonzero(m)
        b.hands[rows, seat[rows]] = value[rows]

    def next_active(self, b: Batch, seat: np.ndarray) -> np.ndarray:
        """M-7, M-16: the next seat clockwise after ``seat`` that is not out (``seat`` if none)."""
        return self.next_table[b.out * self.players + seat]

    def is_out(self, b: Batch, seat: np.ndarray) -> np.ndarray:
        return (b.out >> seat) & 1 == 1

    def allowed(self, b: Batch) -> np.ndarray:
        """M-11: cards of the ranks that may be added now (``continuation``)."""
        seen = b.att | b.kil if self.rules.continuation == "attack_and_kill" else b.att
        return rank_cards(rank_set(seen))

    def room(self, b: Batch, defender_hand: np.ndarray) -> np.ndarray:
        """M-9: attack cards the cap still allows (``cap_mode``, ``cap_to_defender_hand``)."""
        if self.rules.cap_mode == "round":
            hand, used = b.start_hand, np_count(b.att)
        else:
            hand, used = np_count(defender_hand), np_count(b.unk)
        limit = np.minimum(self.cap, hand) if self.rules.cap_to_defender_hand else np.full(len(b), self.cap)
        return np.maximum(0, limit - used)

    def views(self, b: Batch, turn: np.ndarray, hand: np.ndarray, room: np.ndarray) -> Views:
        return Views(b.key, turn, hand, b.trump, self.stock_left(b), room)

    def choose(self, m: np.ndarray, seat: np.ndarray, method: str, v: Views, *args: np.ndarray) -> np.ndarray:
        """The move of the deciding seat of each game where ``m`` (elsewhere 0 or -1).

        A twin is asked only for the games it decides in (mixed seats), and only for
        the deciding games when they are few.
        """
        groups = [m] if len(self.twins) == 1 else [m & (self.seat_twin[seat] == k) for k in range(len(self.twins))]
        out = None
        for twin, rows in zip(self.twins, groups):
            if rows.sum() * 2 >= len(rows):
                move = getattr(twin, method)(v, *args)
            else:
                idx = np.flatnonzero(rows)
                move = np.zeros(len(rows), dtype=np.uint64) if method in MASK_MOVES else np.full(len(rows), -1)
                move[idx] = getattr(twin, method)(v.take(idx), *(a[idx] for a in args))
            out = move if out is None else np.where(rows, move, out)
        return out

    # --- decisions, stock, end --------------------------------------------------------------

    def decide(self, b: Batch, m: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Start a decision of ``seat`` where ``m``: M-21 truncation, then the M-6 swap; its turn."""
        idx, _, _ = self.decide_rows(b, np.flatnonzero(m), seat[m])
        m = np.zeros(len(b), dtype=bool)
        m[idx] = True
        return m, b.turns - m

    def decide_rows(self, b: Batch, idx: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``decide`` for the games at ``idx``: the games that go on, their deciding seats and turns."""
        stop = b.turns[idx] == self.rules.max_turns
        if stop.any():
            b.truncated[idx[stop]] = True
            b.live[idx[stop]] = False
            idx, seat = idx[~stop], seat[~stop]
        if self.rules.trump_two_swap:
            self.swap_trump_two(b, idx, seat)
        turn = b.turns[idx]
        b.turns[idx] = turn + 1
        return idx, seat, turn

    def swap_trump_two(self, b: Batch, idx: np.ndarray, seat: np.ndarray) -> None:
        """M-6: the holder of the trump 2 swaps it for the turned card while that is under the stock."""
        two = BIT[b.trump[idx] * RANKS + TRUMP_TWO_RANK]
        can = (b.drawn[idx] <= self.front) & (b.bottom[idx] == b.turned[idx]) & (b.hands[idx, seat] & two != ZERO)
        if can.any():
            r, p, two = idx[can], seat[can], two[can]
            b.hands[r, p] ^= two | b.turned[r]
            b.bottom[r] = two
            b.swaps[r] += 1

    def refill(self, b: Batch, m: np.ndarray, seat: np.ndarray) -> None:
        """M-13: draw up to ``hand_size`` from the stock front; M-18: no cards and no stock = out."""
        self.refill_rows(b, np.flatnonzero(m), seat[m])

    def refill_rows(self, b: Batch, r: np.ndarray, p: np.ndarray) -> None:
        """``refill`` of seat ``p[i]`` in the game at row ``r[i]``."""
        if not r.size:
            return
        slot, start = b.slot[r], b.drawn[r]
        hand = b.hands[r, p]
        left = self.front + 1 - start
        n = np.minimum(np.maximum(self.hand_size - np_count(hand), 0), left)
        end = start + n
        hand |= self.cum[slot, np.minimum(end, self.front)] & ~self.cum[slot, np.minimum(start, self.front)]
        hand |= np.where((n > 0) & (end == self.front + 1), b.bottom[r], ZERO)  # the card under the stock
        b.drawn[r] = end
        b.hands[r, p] = hand
        out = (left == n) & (hand == ZERO) & ((b.out[r] >> p) & 1 == 0)
        if out.any():
            r, p = r[out], p[out]
            b.finish[r] |= (p + 1) << (4 * np_count(b.out[r].astype(np.uint64)))
            b.out[r] |= 1 << p

    def check_end(self, b: Batch, m: np.ndarray) -> None:
        """M-19, M-20: stock empty and at most one seat holding cards: that seat loses (-1: nobody)."""
        r = np.flatnonzero(m & (b.drawn > self.front))
        if not r.size:
            return
        holders = b.hands[r] != ZERO
        n = holders.sum(axis=1)
        end = n <= 1
        if end.any():
            r, holders, n = r[end], holders[end], n[end]
            b.loser[r] = np.where(n == 1, holders.argmax(axis=1), -1)
            b.live[r] = False

    # --- the phases of a round (M-15) -------------------------------------------------------

    def opening(self, b: Batch) -> None:
        """A round starts (M-7); M-8: the attacker opens; M-13: refills; then the end check."""
        b.rounds += 1
        A = b.attacker
        D = b.defender = self.next_active(b, A)
        b.start_hand = np_count(self.hand(b, D))
        b.att[:] = b.unk[:] = b.kil[:] = ZERO
        b.gone[:] = 0
        m, turn = self.decide(b, b.live.copy(), A)
        hand = self.hand(b, A)
        cards = self.choose(m, A, "open", self.views(b, turn, hand, self.room(b, self.hand(b, D))))
        cards = np.where(m, cards, ZERO)
        self.set_hand(b, A, hand & ~cards, m)
        b.att = cards
        b.unk = cards.copy()
        self.refill(b, m, A)
        self.check_end(b, m)
        b.phase[:] = DEFEND

    def defence(self, b: Batch) -> None:
        """M-15 defence step: kills in ascending attack-card order (M-10), then M-14 self-attacks."""
        D = b.defender
        m, turn = self.decide(b, b.live.copy(), D)
        hand = self.hand(b, D)
        v = self.views(b, turn, hand, self.room(b, hand))  # one view: its draws are hashed once
        rest = np.where(m, b.unk, ZERO)
        while rest.any():
            low = np_lowest_bit(rest)
            a = index(low)
            killers = KILL[b.trump * DECK_SIZE + np.maximum(a, 0)] & hand
            do, kb = self.ask_killer(b, D, "kill", v, hand, low, a, killers)
            hand &= ~kb
            b.unk &= ~np.where(do, low, ZERO)
            b.kil |= kb
            b.gone += do
            rest ^= low
        if self.rules.defender_self_attack:
            hand = self.self_attacks(b, m, v, D, hand)
        self.set_hand(b, D, hand, m)
        emptied = m & (hand == ZERO)
        b.phase[:] = ADD
        if emptied.any():  # [decision] a defender without cards is not attacked further
            self.end_round(b, emptied)

    def ask_killer(self, b: Batch, D: np.ndarray, what: str, v: Views, hand: np.ndarray, low: np.ndarray,
                   card: np.ndarray, killers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ask the defenders holding a killer of ``card`` (bit ``low``) whether and with which
        killer to kill it (``what``: "kill", M-10, or "self_attack", M-14); return the games
        that kill and the killer's bit (0 elsewhere)."""
        asked = (low != ZERO) & (killers != ZERO)
        if not asked.any():
            return asked, np.zeros_like(low)
        v.hand, v.room = hand, self.room(b, hand)
        k = self.choose(asked, D, what, v, card, killers)
        do = asked & (k >= 0)
        return do, np.where(do, BIT[np.maximum(k, 0)], ZERO)

    def self_attacks(self, b: Batch, m: np.ndarray, v: Views, D: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """M-14: for each card ``c`` ascending that may be self-attacked now, the policy may do it."""
        above = np.where(m, ~ZERO, ZERO)  # cards not yet looked at
        while True:
            fits = self.room(b, hand) >= 1
            if self.rules.attack_cap is not None:
                fits &= b.gone + 2 <= self.rules.attack_cap  # "virpiminen" (M-14, TARAKI 3.5.3)
            above = np.where(fits, above, ZERO)
            low = np_lowest_bit(hand & self.allowed(b) & above)
            if not low.any():
                return hand
            c = index(low)
            killers = KILL[b.trump * DECK_SIZE + np.maximum(c, 0)] & hand & ~low
            do, kb = self.ask_killer(b, D, "self_attack", v, hand, low, c, killers)
            cb = np.where(do, low, ZERO)
            hand &= ~(kb | cb)
            b.att |= cb
            b.kil |= kb
            b.gone += 2 * do
            b.self_attacks += do
            above &= ~(low | (low - np.uint64(1)))

    def addition(self, b: Batch) -> None:
        """M-11 addition step: every non-defender adds at once; M-12 over-play; M-13 refills."""
        P, n = self.players, len(b)
        rows = np.arange(n)[:, None]
        D, A = b.defender, b.attacker
        room, ok = self.room(b, self.hand(b, D)), self.allowed(b)
        order = (A[:, None] + np.arange(P)) % P  # seats clockwise from the attacker
        seats = list(order.T)
        asked = ((order != D[:, None]) & ((b.out[:, None] >> order) & 1 == 0)
                 & (b.hands[rows, order] & ok[:, None] != ZERO) & (b.live & (room >= 1))[:, None])
        added = np.zeros((n, P), dtype=np.uint64)
        made = np.zeros((n, P), dtype=bool)
        for o in range(P):
            idx = np.flatnonzero(asked[:, o] & b.live)
            if not idx.size:
                continue
            idx, p, turn = self.decide_rows(b, idx, order[idx, o])
            hand = b.hands[idx, p]
            v = Views(b.key[idx], turn, hand, b.trump[idx], self.front + 1 - b.drawn[idx], room[idx])
            added[idx, o] = self.choose(np.ones(len(idx), dtype=bool), p, "add", v, hand & ok[idx], room[idx])
            made[idx, o] = True
        r = np.flatnonzero(b.live & (added != ZERO).any(axis=1))  # the games where cards were added
        excess = np.zeros(n, dtype=np.int64)
        excess[r] = np_count(added[r]).sum(axis=1) - room[r]
        over = excess > 0
        stays = added[r]
        if over.any():
            b.overplays += over
            stays = self.give_back(b, over, excess, added, made, seats, room)[r]
        stays = np.where(b.live[r, None], stays, ZERO)
        order = order[r]
        b.hands[r[:, None], order] &= ~stays
        table = np.bitwise_or.reduce(stays, axis=1)
        b.att[r] |= table
        b.unk[r] |= table
        for o in range(P):
            put = stays[:, o] != ZERO
            self.refill_rows(b, r[put], order[put, o])
        self.check_end(b, b.live)
        b.phase[:] = DEFEND
        ended = b.live.copy()
        ended[r[table != ZERO]] = False
        if ended.any():
            self.end_round(b, ended)

    def give_back(self, b: Batch, over: np.ndarray, excess: np.ndarray, added: np.ndarray, made: np.ndarray,
                  seats: list[np.ndarray], room: np.ndarray) -> np.ndarray:
        """M-12: the excess goes back (``excess_return``); returns the cards that stay, per adder."""
        if self.rules.excess_return == "defender":
            D = b.defender
            m, turn = self.decide(b, over, D)
            pool = np.bitwise_or.reduce(added, axis=1)
            back = self.choose(m, D, "give_back", self.views(b, turn, self.hand(b, D), room), pool, excess)
            return added & ~np.where(m, back, ZERO)[:, None]
        stays = added.copy()
        excess = np.where(over, excess, 0)
        for o in range(self.players - 1, -1, -1):  # the last over-players take theirs back first
            p = seats[o]
            mine = added[:, o]
            asked = b.live & made[:, o] & (excess > 0)
            if not asked.any():
                continue
            part = asked & (np_count(mine) > excess)
            back = mine
            if part.any():
                part, turn = self.decide(b, part, p)
                chosen = self.choose(part, p, "give_back", self.views(b, turn, self.hand(b, p), room), mine, excess)
                back = np.where(part, chosen, mine)
            back = np.where(asked, back, ZERO)
            stays[:, o] = mine & ~back
            excess -= np_count(back)
        return stays

    def end_round(self, b: Batch, m: np.ndarray) -> None:
        """M-16 (all killed: the defender attacks next) or M-17 (pick up, the attack passes on)."""
        D = b.defender
        pick = np.where(m, b.unk, ZERO)
        self.set_hand(b, D, self.hand(b, D) | pick, m)
        b.pickups += pick != ZERO
        self.refill(b, m, D)
        passes = (pick != ZERO) | self.is_out(b, D)
        b.attacker = np.where(m, np.where(passes, self.next_active(b, D), D), b.attacker)
        b.phase[m] = OPEN
        self.check_end(b, m)

    # --- the lockstep loop ----------------------------------------------------------------

    def skip_cycles(self, b: Batch) -> None:
        """Fast-forward long games that play in a cycle, to within one cycle of truncation (M-21).

        A game whose seats still in play all use policies without draws is deterministic:
        once its state at a round start (hands, attacker, stock) repeats after ``L``
        decisions, it repeats every ``L`` decisions until ``max_turns``. Brent's method
        finds the repeat; the jump adds whole cycles to the turn and round counters, so
        the record is the one of playing every decision.
        """
        long = b.live & (b.phase == OPEN) & (b.turns >= CYCLES_FROM)
        if self.drawing_seats:
            long &= b.out & self.drawing_seats == self.drawing_seats  # every seat that draws is out
        idx = np.flatnonzero(long)
        if not idx.size:
            return
        slot = b.slot[idx]
        state = np.concatenate([b.hands[idx], (b.attacker[idx] * 64 + b.drawn[idx]).astype(np.uint64)[:, None]], axis=1)
        now = np.stack([getattr(b, f)[idx] for f in COUNTERS], axis=1)
        saved = self.snap_at[slot]
        same = (saved[:, 0] >= 0) & (state == self.snap[slot]).all(axis=1)
        cycle = now - saved
        jumps = np.where(same, (self.rules.max_turns - now[:, 0]) // np.maximum(cycle[:, 0], 1), 0)
        now += jumps[:, None] * cycle
        for j, f in enumerate(COUNTERS):
            getattr(b, f)[idx] = now[:, j]
        seen, at = self.brent[slot, 0] + 1, self.brent[slot, 1]
        save = same | (seen >= at)
        self.snap[slot[save]] = state[save]
        self.snap_at[slot[save]] = now[save]
        self.brent[slot, 0] = np.where(save, 0, seen)
        self.brent[slot, 1] = np.where(save & ~same, 2 * at, at)

    def tick(self, b: Batch) -> None:
        """Advance every live game by its phase functions (OPEN, then DEFEND, then ADD)."""
        self.skip_cycles(b)
        for phase, step in ((OPEN, self.opening), (DEFEND, self.defence), (ADD, self.addition)):
            m = b.live & (b.phase == phase)
            if m.all():
                step(b)
            elif m.any():
                idx = np.flatnonzero(m)
                part = b.take(idx)
                step(part)
                b.put(idx, part)

    def run(self, games: np.ndarray) -> Iterator[Batch]:
        """Play ``games``; yields finished games (a ``Batch``) as they leave the batch."""
        queue = 0
        b: Batch | None = None
        while True:
            if b is not None:
                done = ~b.live
                if done.any() and (done.sum() * 8 >= len(b) or queue == len(games)):
                    finished = b.take(np.flatnonzero(done))
                    self.free.extend(finished.slot.tolist())
                    yield finished
                    b = b.take(np.flatnonzero(~done))
            size = 0 if b is None else len(b)
            room = min(self.capacity - size, len(games) - queue)
            if room > 0 and (size == 0 or room * 4 >= self.capacity):
                new = self.deal(np.arange(queue, queue + room), games[queue:queue + room])
                b = new if b is None or size == 0 else Batch.concat([b, new])
                queue += room
            if b is None or len(b) == 0:
                return
            self.tick(b)


def simulate(rules: MoskaRules, players: int, seed: int, games: np.ndarray,
             policies: tuple[str, ...], capacity: int = CAPACITY) -> dict[str, np.ndarray]:
    """The records of ``games`` (an int64 array of game indices), one array per column of ``GAME.columns``.

    At most ``capacity`` games are played at once; the records do not depend on it.
    """
    games = np.asarray(games, dtype=np.int64)
    n = len(games)
    engine = Engine(rules, players, seed, policies, capacity=max(1, min(capacity, n)))
    cols = {f: np.zeros(n, dtype=bool if f == "truncated" else np.int64) for f in RECORD_FIELDS}
    finish = np.zeros(n, dtype=np.int64)
    for done in engine.run(games):
        for f in RECORD_FIELDS:
            cols[f][done.row] = getattr(done, f)
        finish[done.row] = done.finish
    cols["game"] = games
    cols["trump_suit"] = cols.pop("trump")
    cols["first_out"] = finish % 16 - 1
    cols["finish_order"] = finish_strings(finish, players)
    return cols


def finish_strings(finish: np.ndarray, players: int) -> np.ndarray:
    """``"2,0,3"`` per game from the packed ``Batch.finish`` (M-18); each distinct order is written once."""
    codes, which = np.unique(finish, return_inverse=True)
    seats = [[int(c) >> 4 * j & 15 for j in range(players)] for c in codes]
    text = np.array([",".join(str(p - 1) for p in order if p) for order in seats], dtype=object)
    return text[which]
