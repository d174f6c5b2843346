"""Moska compiled-engine invariants on many games: counts of violations per preset.

A checked play loop built from the engine's state API (``deal``, ``choose``, ``apply``)
checks, in numba, with rule checks of its own (not the engine's helpers):

- ``cards``: after the deal and after every decision each of the 52 cards is in exactly
  one place (a hand, the table, the stock, the discard pile);
- ``table``: unkilled cards are attack cards, one kill card per killed attack card;
- ``out_holds_cards``: a seat that is out holds no cards (M-18);
- ``known``: the cards the state says are publicly known to be in a hand are in it;
- ``illegal_<move>``: a move outside what the rules allow (M-8 opening shape and room,
  M-10 killers, M-14 own cards, TARAKI's six cards and no "virpiminen", M-11/M-9
  additions, M-12 give-backs of exactly the excess of the added cards);
- ``turns``: a decision is awaited only before ``max_turns`` decisions (M-21);
- ``result``: a finished game has exactly one loser who is not in ``finish_order`` and
  everyone else went out, or nobody is left (M-20), or it was truncated (M-21), or, with
  ``repetition``, stopped before ``max_turns`` decisions with the stock empty (M-23);
- ``determinism``: a sample of games replayed alone by ``compiled.simulate`` differ.

    .venv/bin/python benchmarks/invariants_moska.py                   # 1,000,000 games per preset, 4 players
    .venv/bin/python benchmarks/invariants_moska.py --games 20000 --presets taraki
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from joblib import Parallel, delayed
from numba import njit

from cardsim.core import jit
from cardsim.core.jit import ONE, ZERO, bit, lowest, popcount
from cardsim.games.moska import compiled as C
from cardsim.games.moska.compiled_policies import reads_of, table
from cardsim.games.moska.rules import MoskaRules

PRESETS = ("moska", "turamoska", "pyhaselka", "taraki")
SEATINGS = (("random",) * 4, ("greedy",) * 4, ("random", "greedy", "random", "greedy"))
VIOLATIONS = ("cards", "table", "out_holds_cards", "known", "illegal_open", "illegal_kill", "illegal_self_attack",
              "illegal_add", "illegal_give_back", "turns", "result", "determinism")
OUTCOMES = ("everyone_out", "truncated", "repeated", "decisions")
(CARDS, TABLE, OUT_HOLDS_CARDS, KNOWN, ILLEGAL_OPEN, ILLEGAL_KILL, ILLEGAL_SELF_ATTACK, ILLEGAL_ADD,
 ILLEGAL_GIVE_BACK, TURNS, RESULT, DETERMINISM, EVERYONE_OUT, TRUNCATED, REPEATED, DECISIONS) = range(16)
ALL_CARDS = np.uint64((1 << 52) - 1)
RANKS = 13


# --- the rules, checked independently --------------------------------------------------------

@njit(cache=True)
def beats(attack: int, killer: int, trump: int) -> bool:
    """M-10: same suit and higher, or a trump on a non-trump."""
    a_suit, k_suit = attack // RANKS, killer // RANKS
    return (k_suit == a_suit and killer % RANKS > attack % RANKS) or (k_suit == trump and a_suit != trump)


@njit(cache=True)
def ranks_in(mask: np.uint64) -> int:
    """Bit ``r`` set when a card of rank ``r`` is in the mask."""
    out = 0
    for c in range(52):
        if mask >> np.uint64(c) & ONE:
            out |= 1 << (c % RANKS)
    return out


@njit(cache=True)
def room_now(s: np.void, p: np.void, defender_hand: np.uint64, attack: np.uint64, unkilled: np.uint64) -> int:
    """M-9 from the rules: what the cap still allows."""
    if p.cap_unkilled:
        hand, used = popcount(defender_hand), popcount(unkilled)
    else:
        hand, used = s.start_hand, popcount(attack)
    limit = min(p.cap, hand) if p.cap_to_hand else p.cap
    return max(0, limit - used)


@njit(cache=True)
def legal_opening(cards: np.uint64, hand: np.uint64, room: int) -> bool:
    """M-8: one card or same-rank groups of two or more; M-9: within the room."""
    n = popcount(cards)
    if n == 0 or cards & ~hand != ZERO or n > room:
        return False
    if n == 1:
        return True
    for r in range(RANKS):
        k = 0
        for suit in range(4):
            if cards >> np.uint64(suit * RANKS + r) & ONE:
                k += 1
        if k == 1:
            return False
    return True


@njit(cache=True)
def check_defence(s: np.void, p: np.void, m: np.void, counts: np.ndarray) -> None:
    """M-10 kills (TARAKI's six cards) then M-14 own cards, each checked on the table as it is then."""
    hand, attack, kills, unkilled, gone = s.hands[s.defender], s.attack, s.kills, s.unkilled, s.gone
    limit = p.leave_limit
    rest = unkilled
    while rest != ZERO:
        a = lowest(rest)
        rest &= rest - ONE
        k = m.killer[a]
        if k >= 0:
            if not (hand >> np.uint64(k) & ONE and beats(a, k, s.trump) and gone < limit):
                counts[ILLEGAL_KILL] += 1
            hand &= ~bit(k)
            unkilled &= ~bit(a)
            kills |= bit(k)
            gone += 1
    rest = m.cards
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        k = m.killer[c]
        seen = attack | kills if p.kill_ranks else attack
        ok = (p.self_attack != 0 and k >= 0 and k != c and hand >> np.uint64(c) & ONE and hand >> np.uint64(k) & ONE
              and beats(c, k, s.trump) and ranks_in(seen) >> (c % RANKS) & 1
              and room_now(s, p, hand, attack, unkilled) >= 2 and gone + 2 <= limit
              and (not p.cap_unkilled or popcount(hand) - 2 >= popcount(unkilled)))
        if not ok:
            counts[ILLEGAL_SELF_ATTACK] += 1
        hand &= ~(bit(c) | bit(max(k, 0)))
        attack |= bit(c)
        kills |= bit(max(k, 0))
        gone += 2


@njit(cache=True)
def check_move(s: np.void, p: np.void, m: np.void, counts: np.ndarray) -> None:
    """The decision ``m`` of the seat to act, against the rules."""
    hand = s.hands[s.seat]
    if s.phase == C.OPEN:
        if not legal_opening(m.cards, hand, room_now(s, p, s.hands[s.defender], s.attack, s.unkilled)):
            counts[ILLEGAL_OPEN] += 1
    elif s.phase == C.DEFEND:
        check_defence(s, p, m, counts)
    elif s.phase == C.ADD:
        seen = s.attack | s.kills if p.kill_ranks else s.attack
        allowed = ranks_in(seen)
        fits = popcount(m.cards) <= room_now(s, p, s.hands[s.defender], s.attack, s.unkilled)
        ranked = True
        for c in range(52):
            if m.cards >> np.uint64(c) & ONE and not allowed >> (c % RANKS) & 1:
                ranked = False
        if m.cards & ~hand != ZERO or not fits or not ranked or s.seat == s.defender:
            counts[ILLEGAL_ADD] += 1
    else:  # M-12: the defender, the attacker, or the last over-player from their own cards
        pool, total = ZERO, 0
        for q in range(p.players):
            pool |= s.added[q]
            total += popcount(s.added[q])
        judge = s.defender if p.excess == C.BY_DEFENDER else s.attacker
        if p.excess == C.BY_LAST:
            pool, judge = s.added[s.seat], s.seat
        excess = total - room_now(s, p, s.hands[s.defender], s.attack, s.unkilled)  # after whole take-backs
        if m.cards & ~pool != ZERO or popcount(m.cards) != excess or s.seat != judge:
            counts[ILLEGAL_GIVE_BACK] += 1


@njit(cache=True)
def check_state(s: np.void, p: np.void, counts: np.ndarray) -> None:
    """Card conservation, the table, seats that are out, the known cards."""
    places = popcount(s.attack | s.kills) + popcount(s.discard)
    union = s.attack | s.kills | s.discard
    for j in range(s.drawn, s.stock_size):
        union |= bit(s.stock[j])
    places += s.stock_size - s.drawn
    for q in range(p.players):
        places += popcount(s.hands[q])
        union |= s.hands[q]
        if s.out >> q & 1 and s.hands[q] != ZERO:
            counts[OUT_HOLDS_CARDS] += 1
        if s.known[q] & ~s.hands[q] != ZERO:
            counts[KNOWN] += 1
    if places != 52 or union != ALL_CARDS or s.attack & s.kills != ZERO:
        counts[CARDS] += 1
    if s.unkilled & ~s.attack != ZERO or popcount(s.kills) != popcount(s.attack & ~s.unkilled):
        counts[TABLE] += 1


@njit(cache=True)
def check_result(s: np.void, p: np.void, counts: np.ndarray) -> None:
    """One loser not among those out and everyone else out; or nobody left (M-20); or truncated (M-21); or
    stopped by repetition (M-23)."""
    out = 0
    for j in range(s.n_out):
        out |= 1 << ((s.finish >> (4 * j) & 15) - 1)
    everyone = (1 << p.players) - 1
    if s.truncated and s.turns < p.max_turns:
        ok = p.repetition != 0 and s.loser == -1 and s.drawn == s.stock_size
        counts[REPEATED] += 1
    elif s.truncated:
        ok = s.loser == -1 and s.turns == p.max_turns
        counts[TRUNCATED] += 1
    elif s.loser == -1:
        ok = out == everyone and s.n_out == p.players
        counts[EVERYONE_OUT] += 1
    else:
        ok = 0 <= s.loser < p.players and out == everyone & ~(1 << s.loser) and s.n_out == p.players - 1
    if not ok or s.swaps > p.swap or (s.self_attacks > 0 and not p.self_attack):
        counts[RESULT] += 1


@njit(cache=True)
def checked_games(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, out: np.ndarray,
                  counts: np.ndarray, w: np.void) -> None:
    """Play ``games`` on the state API (``policies``: a policy table, ``w``: a ``WORK`` record), checking every
    state and every decision; records into ``out``."""
    state, move = np.zeros(1, C.STATE), np.zeros(1, C.MOVE)
    s, m = state[0], move[0]
    for i in range(len(games)):
        C.deal(s, p, jit.game_key(seed, games[i]), w.u, w.perm, w.count)
        s.reads = reads_of(policies)  # as run_games: the reads of mc(beliefs=reads)
        check_state(s, p, counts)
        while C.to_act(s) >= 0:
            if s.turns >= p.max_turns:
                counts[TURNS] += 1
            C.choose(s, p, policies, m, w)
            check_move(s, p, m, counts)
            C.apply(s, p, m)
            counts[DECISIONS] += 1
            check_state(s, p, counts)
        check_result(s, p, counts)
        C.write_record(s, out[i])


def check_games(rules: MoskaRules, players: int, seed: int, games: np.ndarray, seats: tuple[str, ...]) -> Counter:
    """Play ``games`` on the checked loop: violations and outcome counts (and ``games``)."""
    games = np.asarray(games, dtype=np.int64)
    out = np.zeros((len(games), len(C.RECORD_FIELDS)), dtype=np.int64)
    counts = np.zeros(len(VIOLATIONS) + len(OUTCOMES), dtype=np.int64)
    checked_games(C.make_params(rules, players)[0], table(seats), np.uint64(seed), games, out, counts, C.new_work()[0])
    total = Counter(dict(zip(VIOLATIONS + OUTCOMES, counts.tolist())))
    sample = np.arange(0, len(games), max(1, len(games) // 50))
    alone = C.simulate(rules, players, seed, games[sample], seats)
    for j, f in enumerate(C.RECORD_FIELDS):
        if f != "finish":
            total["determinism"] += int(np.count_nonzero(alone[f].astype(np.int64) != out[sample, j]))
    total["games"] += len(games)
    return total


def run_chunk(preset: str, players: int, seed: int, start: int, size: int, seats: tuple[str, ...]) -> Counter:
    return check_games(MoskaRules.preset(preset), players, seed, np.arange(start, start + size, dtype=np.int64), seats)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games per preset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--chunk", type=int, default=50_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--presets", nargs="+", default=list(PRESETS))
    args = parser.parse_args(argv)
    print(f"moska compiled invariants: {args.games:,} games per preset, {args.players} players, "
          f"seatings rotate {['/'.join(s) for s in SEATINGS]}")
    # the workers import this file as a module (not ``__main__``), so they load its numba cache
    from invariants_moska import check_games as warm, run_chunk as task

    warm(MoskaRules(), args.players, 0, np.arange(1), ("random",) * args.players)  # compile once, here
    for preset in args.presets:
        start = time.perf_counter()
        tasks = [delayed(task)(preset, args.players, args.seed, s, min(args.chunk, args.games - s),
                                    (SEATINGS[i % len(SEATINGS)] * 2)[:args.players])
                 for i, s in enumerate(range(0, args.games, args.chunk))]
        total: Counter[str] = Counter()
        for counts in Parallel(n_jobs=args.jobs, return_as="generator")(tasks):
            total += counts
        line = ", ".join(f"{k}={total[k]}" for k in VIOLATIONS)
        print(f"{preset}: {total['games']:,} games, {total['decisions']:,} decisions checked in "
              f"{time.perf_counter() - start:.0f} s; violations: {line}; everyone out at once (M-20): "
              f"{total['everyone_out']}, truncated (M-21): {total['truncated']}, stopped by repetition (M-23): "
              f"{total['repeated']}", flush=True)


if __name__ == "__main__":
    main()
