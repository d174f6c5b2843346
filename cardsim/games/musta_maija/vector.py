"""Musta-Maija vector engine: many games in numpy lockstep, game-for-game equal to
reference.py (whose docstring is the decision protocol). Not for reading the rules.

Every game of the batch plays one round per step: an attack decision, then a defence
decision. A hand is two ``uint64`` words per seat (``lo`` copy 0, ``hi`` copy 1;
cards.py); the stock is the rest of the shuffled deck, drawn through prefix masks
(``pre_lo[row, i]`` = the cards of deck positions < i), so drawing k cards is one XOR.
Finished games are written out and compacted away after every phase.

The tail hand-off: once at most ``HANDOFF_GAMES`` games are left and all of them have
made ``HANDOFF_TURNS`` decisions (ten times a long game; only games circling towards
truncation get there), they are finished by the reference engine from the same
position: one numpy step costs about 1 ms whatever the batch size, a reference round
about 0.1 ms. ``vector(..., handoff=False)`` plays them to the end in numpy (tested equal).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from cardsim.core import rng
from cardsim.games.musta_maija import policies, reference
from cardsim.games.musta_maija.cards import BM_BIT, DIAMONDS, KING, QUEEN, RANKS, SPADES, SUITS, card_list, np_count
from cardsim.games.musta_maija.rules import MustaMaijaRules

MAX_PLAYERS = 8
HANDOFF_GAMES = 8
HANDOFF_TURNS = 1000


def _make_next_in() -> np.ndarray:
    """``NEXT_IN[n, out, seat]``: the next seat to the left of ``seat`` not in the ``out`` bitmask.

    Layout: n players (2..8) x out-mask (bit s = seat s is out) x seat; ``seat`` itself
    if every other seat is out.
    """
    table = np.zeros((MAX_PLAYERS + 1, 1 << MAX_PLAYERS, MAX_PLAYERS), dtype=np.int64)
    for n in range(2, MAX_PLAYERS + 1):
        for out in range(1 << n):
            for seat in range(n):
                others = [(seat + k) % n for k in range(1, n) if not out >> ((seat + k) % n) & 1]
                table[n, out, seat] = others[0] if others else seat
    return table


def _make_last_in() -> np.ndarray:
    """``LAST_IN[n, out]``: the one seat still in, or -1 if none or several (MM-14)."""
    table = np.full((MAX_PLAYERS + 1, 1 << MAX_PLAYERS), -1, dtype=np.int64)
    for n in range(2, MAX_PLAYERS + 1):
        for seat in range(n):
            table[n, ((1 << n) - 1) ^ (1 << seat)] = seat
    return table


def _make_card_bits() -> tuple[np.ndarray, np.ndarray]:
    """``BIT_LO[code]``, ``BIT_HI[code]``: a card code (0..103) as its bit in the copy-0 / copy-1 word."""
    codes = np.arange(104, dtype=np.uint64)
    one = np.uint64(1)
    lo = np.where(codes < 52, one << (codes % np.uint64(52)), np.uint64(0))
    hi = np.where(codes >= 52, one << (codes % np.uint64(52)), np.uint64(0))
    return lo, hi


NEXT_IN = _make_next_in()
LAST_IN = _make_last_in()
BIT_LO, BIT_HI = _make_card_bits()
KINGS = np.array([1 << (s * RANKS + KING) for s in range(SUITS)], dtype=np.uint64)
QUEENS = np.array([1 << (s * RANKS + QUEEN) for s in range(SUITS)], dtype=np.uint64)
NO_CAP = 1 << 20


@dataclass
class Batch:
    """The games still playing, one entry per game (hands: one row per game, one column per seat)."""

    idx: np.ndarray        # position of the game in the output
    row: np.ndarray        # row of the game in the deck prefix masks
    key: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    top: np.ndarray        # next stock position
    trump: np.ndarray
    declared: np.ndarray
    attacker: np.ndarray
    defender: np.ndarray
    out: np.ndarray        # bitmask of seats out
    finish: np.ndarray     # finish_order packed: the j-th seat out, plus one, in bits 4j .. 4j+3
    turns: np.ndarray
    rounds: np.ndarray
    t_lo: np.ndarray       # the attack cards on the table
    t_hi: np.ndarray

    def take(self, keep: np.ndarray) -> Batch:
        return Batch(*(getattr(self, f.name)[keep] for f in fields(self)))


@dataclass(frozen=True)
class Game:
    """What stays fixed during a batch: rules, players, seat policies and the deck prefix masks."""

    rules: MustaMaijaRules
    players: int
    seats: tuple[str, ...]
    deck: np.ndarray
    pre_lo: np.ndarray
    pre_hi: np.ndarray
    n_cards: int


# --- the deal (MM-4, MM-6, MM-7) ------------------------------------------------------


def _deal(rules: MustaMaijaRules, players: int, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shuffled decks (codes, one row per game), the seat of each dealt position, the trumps."""
    codes = np.array(card_list(players), dtype=np.int64)
    deck = codes[rng.permutation(keys, rng.Stream.DEAL, len(codes))]
    seats = np.array(reference.deal_order(players, rules.hand_size), dtype=np.int64)
    trump = np.full(len(keys), DIAMONDS if rules.trump == "diamonds" else -1, dtype=np.int64)
    if rules.trump == "turned":
        trump = _turn_trump(deck, len(seats), keys)
    return deck, seats, trump


def _suit(code: np.ndarray) -> np.ndarray:
    return (code % 52) // RANKS


def _turn_trump(deck: np.ndarray, dealt: int, keys: np.ndarray) -> np.ndarray:
    """MM-7 in place: reshuffle the stock while its top is a spade; turn the top to the bottom."""
    attempt = 0
    need = np.nonzero(_suit(deck[:, dealt]) == SPADES)[0]
    while len(need):
        order = rng.permutation(keys[need], rng.Stream.RESHUFFLE, deck.shape[1] - dealt, attempt)
        deck[need, dealt:] = np.take_along_axis(deck[need, dealt:], order, axis=1)
        attempt += 1
        need = need[_suit(deck[need, dealt]) == SPADES]
    deck[:, dealt:] = np.roll(deck[:, dealt:], -1, axis=1)
    return _suit(deck[:, -1])


def _start(rules: MustaMaijaRules, players: int, seed: int, games: np.ndarray,
           seats: tuple[str, ...]) -> tuple[Game, Batch]:
    keys = rng.game_key(np.uint64(seed), games.astype(np.uint64))
    deck, deal_seats, trump = _deal(rules, players, keys)
    bits_lo, bits_hi = BIT_LO[deck], BIT_HI[deck]
    n = len(games)
    lo = np.zeros((n, players), dtype=np.uint64)
    hi = np.zeros((n, players), dtype=np.uint64)
    dealt = len(deal_seats)
    for seat in range(players):
        mine = np.nonzero(deal_seats == seat)[0]
        lo[:, seat] = np.bitwise_or.reduce(bits_lo[:, mine], axis=1)
        hi[:, seat] = np.bitwise_or.reduce(bits_hi[:, mine], axis=1)
    pre_lo = np.zeros((n, deck.shape[1] + 1), dtype=np.uint64)
    pre_hi = np.zeros_like(pre_lo)
    pre_lo[:, 1:] = np.bitwise_or.accumulate(bits_lo, axis=1)
    pre_hi[:, 1:] = np.bitwise_or.accumulate(bits_hi, axis=1)
    g = Game(rules, players, tuple(policies.policy_name(p) for p in seats), deck, pre_lo, pre_hi, deck.shape[1])
    zeros = np.zeros(n, dtype=np.int64)
    b = Batch(idx=np.arange(n), row=np.arange(n), key=keys, lo=lo, hi=hi, top=np.full(n, dealt),
              trump=trump, declared=zeros - 1, attacker=zeros + 1 % players,
              defender=zeros + NEXT_IN[players, 0, 1 % players], out=zeros.copy(), finish=zeros.copy(),
              turns=zeros.copy(), rounds=zeros.copy(), t_lo=zeros.astype(np.uint64), t_hi=zeros.astype(np.uint64))
    return g, b


# --- phases -------------------------------------------------------------------------------


def _by_policy(g: Game, seat: np.ndarray, fn, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """``fn(policy, *arrays)`` for each policy, on the games whose deciding ``seat`` plays it."""
    names = sorted(set(g.seats))
    if len(names) == 1 or not len(seat):
        return fn(names[0], *arrays)
    plays = np.array([names.index(p) for p in g.seats])[seat]
    result = None
    for i, name in enumerate(names):
        m = np.nonzero(plays == i)[0]
        if len(m):
            part = fn(name, *(a[m] for a in arrays))
            if result is None:
                result = tuple(np.zeros(len(seat), dtype=p.dtype) for p in part)
            for whole, p in zip(result, part):
                whole[m] = p
    return result


def _hand(b: Batch, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ar = np.arange(len(seat))
    return b.lo[ar, seat], b.hi[ar, seat]


def _set_hand(b: Batch, seat: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
    ar = np.arange(len(seat))
    b.lo[ar, seat] = lo
    b.hi[ar, seat] = hi


def _offer_marriage(g: Game, b: Batch, seat: np.ndarray) -> None:
    """MM-5: a player holding king and queen of a suit other than spades may declare it trump."""
    if g.rules.trump != "marriage" or (b.trump >= 0).all():
        return
    lo, hi = _hand(b, seat)
    both = lo | hi
    free = b.trump < 0
    options = np.stack([free & ((both & KINGS[s]) != 0) & ((both & QUEENS[s]) != 0) & (s != SPADES)
                        for s in range(SUITS)])
    if not options.any():
        return

    def declaration(policy, *args):
        return (policies.np_declaration(policy, *args),)

    (suit,) = _by_policy(g, seat, declaration, lo, hi, options.T, b.key, b.turns)
    now = suit >= 0
    b.trump = np.where(now, suit, b.trump)
    b.declared = np.where(now, b.turns, b.declared)


def _draw_up(g: Game, b: Batch, seat: np.ndarray) -> None:
    """MM-9 (``refill="to_hand_size"``), MM-11, MM-12: draw up to ``hand_size`` from the stock."""
    _draw(g, b, seat, g.rules.hand_size - np_count(*_hand(b, seat)))


def _draw(g: Game, b: Batch, seat: np.ndarray, wanted: np.ndarray) -> None:
    """Draw ``wanted`` cards per game from the stock (fewer if it runs out)."""
    if (b.top >= g.n_cards).all():
        return
    k = np.clip(wanted, 0, g.n_cards - b.top)
    d = np.nonzero(k)[0]
    row, top, seat = b.row[d], b.top[d], seat[d]
    b.lo[d, seat] |= g.pre_lo[row, top + k[d]] ^ g.pre_lo[row, top]
    b.hi[d, seat] |= g.pre_hi[row, top + k[d]] ^ g.pre_hi[row, top]
    b.top = b.top + k


def _go_out_if_empty(g: Game, b: Batch, seat: np.ndarray) -> None:
    """MM-14: no cards once the stock is empty: out (the first one is recorded)."""
    lo, hi = _hand(b, seat)
    empty = ((lo | hi) == 0) & (b.top >= g.n_cards) & ((b.out >> seat) & 1 == 0)
    n_out = np.bitwise_count(b.out.astype(np.uint64)).astype(np.int64)
    b.finish = b.finish | (empty * (seat + 1)) << (4 * n_out)
    b.out = b.out | (empty << seat)


def _attack(g: Game, b: Batch) -> None:
    """The attack decision (MM-5, MM-9, MM-13)."""
    seat = b.attacker
    b.defender = NEXT_IN[g.players, b.out, seat]
    _offer_marriage(g, b, seat)
    lo, hi = _hand(b, seat)
    endgame = b.top >= g.n_cards
    cap = np.where(endgame, np_count(*_hand(b, b.defender)), NO_CAP)
    b.t_lo, b.t_hi = _by_policy(g, seat, policies.np_attack, lo, hi, b.trump, cap, endgame, b.key, b.turns)
    _set_hand(b, seat, lo ^ b.t_lo, hi ^ b.t_hi)
    if g.rules.refill == reference.PLAYED:
        _draw(g, b, seat, np_count(b.t_lo, b.t_hi))
    else:
        _draw_up(g, b, seat)
    _go_out_if_empty(g, b, seat)
    b.turns = b.turns + 1
    b.rounds = b.rounds + 1


def _defend(g: Game, b: Batch) -> None:
    """The defence decision (MM-5, MM-10..MM-12) and the next attacker."""
    seat = b.defender
    _offer_marriage(g, b, seat)
    lo, hi = _hand(b, seat)

    def defence(policy, lo, hi, t_lo, t_hi, trump, endgame, must, key, turn):
        return policies.np_defence(policy, lo, hi, t_lo, t_hi, trump, g.rules.black_maria, endgame, must, key, turn)

    endgame = b.top >= g.n_cards
    must = np.zeros(len(seat), dtype=bool)
    if g.rules.must_beat == reference.ALL_IF_POSSIBLE:  # MM-10: the duty binds when every card can be beaten
        full = policies.np_beat_with(b.t_lo, b.t_hi, lo, hi, b.trump, g.rules.black_maria)
        must = (full[2] | full[3]) == 0
    b_lo, b_hi, u_lo, u_hi = _by_policy(g, seat, defence, lo, hi, b.t_lo, b.t_hi, b.trump, endgame, must, b.key,
                                        b.turns)
    _set_hand(b, seat, (lo & ~b_lo) | u_lo, (hi & ~b_hi) | u_hi)
    b.t_lo = np.zeros_like(b.t_lo)
    b.t_hi = np.zeros_like(b.t_hi)
    _draw_up(g, b, seat)
    _go_out_if_empty(g, b, seat)
    b.turns = b.turns + 1
    stays = ((u_lo | u_hi) == 0) & ((b.out >> seat) & 1 == 0)
    b.attacker = np.where(stays, seat, NEXT_IN[g.players, b.out, seat])


# --- records ----------------------------------------------------------------------------

def _retire(g: Game, b: Batch, done: np.ndarray, res: dict[str, np.ndarray], truncated: bool) -> Batch:
    """Write the records of the ``done`` games and compact them out of the batch."""
    if not done.any():
        return b
    d = b.take(done)
    i = d.idx
    holds = (d.lo & BM_BIT) != 0
    res["turns"][i] = d.turns
    res["truncated"][i] = truncated
    res["loser"][i] = -1 if truncated else LAST_IN[g.players, d.out]
    res["rounds"][i] = d.rounds
    res["first_out"][i] = d.finish % 16 - 1
    res["finish"][i] = d.finish
    res["black_maria_holder"][i] = np.where(holds.any(axis=1), np.argmax(holds, axis=1), -1)
    res["trump_suit"][i] = d.trump
    res["trump_declared_turn"][i] = d.declared
    return b.take(~done)


def _finished(g: Game, b: Batch) -> np.ndarray:
    return np.bitwise_count(b.out.astype(np.uint64)).astype(np.int64) >= g.players - 1


def _reference_table(g: Game, b: Batch, i: int) -> reference.Table:
    """Game ``i`` of the batch, at the start of a round, as the reference engine's table."""
    hands = [int(b.lo[i, s]) | int(b.hi[i, s]) << 52 for s in range(g.players)]
    stock = [int(c) for c in g.deck[b.row[i], b.top[i]:]]
    out = [(int(b.finish[i]) >> 4 * j & 15) - 1 for j in range(g.players) if int(b.finish[i]) >> 4 * j & 15]
    t = reference.Table(g.rules, g.players, int(b.key[i]), hands, stock, trump=int(b.trump[i]),
                        declared_turn=int(b.declared[i]), attacker=int(b.attacker[i]), out=out,
                        turns=int(b.turns[i]), rounds=int(b.rounds[i]))
    t.discard = reference.mask(card_list(g.players)) & ~(sum(hands) | reference.mask(stock))
    return t


def _hand_off(g: Game, b: Batch, res: dict[str, np.ndarray]) -> None:
    """Finish the few long games left with the reference engine (see the module docstring)."""
    for i, game in enumerate(b.idx):
        t = _reference_table(g, b, i)
        for _ in reference.play_on(t, g.seats):
            pass
        for name, value in reference.record(t, int(res["game"][game])).items():
            if name != "finish_order":
                res[name][game] = value
        res["finish"][game] = sum((seat + 1) << 4 * j for j, seat in enumerate(t.out))


def vector(rules: MustaMaijaRules, players: int, seed: int, games: np.ndarray,
           seats: tuple[str, ...], handoff: bool = True) -> dict[str, np.ndarray]:
    """The vector engine's ``GameSpec.vector``: one array per record column."""
    games = np.asarray(games, dtype=np.int64)
    res = {name: np.zeros(len(games), dtype=np.int64) for name in
           ("turns", "loser", "rounds", "first_out", "finish", "black_maria_holder", "trump_suit",
            "trump_declared_turn")}
    res["game"] = games.copy()
    res["truncated"] = np.zeros(len(games), dtype=bool)
    g, b = _start(rules, players, seed, games, seats)
    while len(b.idx):
        if handoff and len(b.idx) <= HANDOFF_GAMES and b.turns.min() >= HANDOFF_TURNS:
            _hand_off(g, b, res)
            break
        b = _retire(g, b, b.turns >= rules.max_turns, res, truncated=True)  # MM-16
        _attack(g, b)
        b = _retire(g, b, b.turns >= rules.max_turns, res, truncated=True)
        _defend(g, b)
        b = _retire(g, b, _finished(g, b), res, truncated=False)
    finish = res.pop("finish")
    res["finish_order"] = np.array([",".join(str((int(f) >> 4 * j & 15) - 1) for j in range(players)
                                             if int(f) >> 4 * j & 15) for f in finish], dtype=object)
    return res
