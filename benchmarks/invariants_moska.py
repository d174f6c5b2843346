"""Moska vector engine invariants on many games: counts of violations per preset.

The same invariants as the reference engine's property tests, checked inside the vector
engine (``CheckedEngine``) while it plays:

- ``cards``: after every tick each of the 52 cards is in exactly one place (a hand, the
  table, the stock, the discard pile);
- ``table``: unkilled cards are attack cards, one kill card per killed attack card;
- ``out_holds_cards``: a seat that is out holds no cards (M-18);
- ``illegal_<move>``: a move outside what the rules allow (M-8 opening shape and room,
  M-10 killers, M-11/M-9 additions, M-12 give-backs of exactly the excess, M-14);
- ``result``: a finished game has exactly one loser who is not in ``finish_order`` and
  everyone else went out, or nobody is left (M-20), or it was truncated (M-21);
- ``determinism``: a sample of games replayed alone and in another batch differ.

    .venv/bin/python benchmarks/invariants_moska.py                   # 1,000,000 games per preset, 4 players
    .venv/bin/python benchmarks/invariants_moska.py --games 20000 --quick-check
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from joblib import Parallel, delayed

from cardsim.core.cards import BIT, np_count
from cardsim.games.moska import vector
from cardsim.games.moska.rules import MoskaRules
from cardsim.games.moska.vector_policies import ALL_CARDS, RANK_MASK, ZERO

PRESETS = ("moska", "turamoska", "pyhaselka", "taraki")
SEATINGS = (("random",) * 4, ("greedy",) * 4, ("random", "greedy", "random", "greedy"))


class CheckedEngine(vector.Engine):
    """The vector engine, counting every violated invariant while it plays."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.violations: Counter[str] = Counter()
        self.discard = np.zeros(self.capacity, dtype=np.uint64)

    def count(self, name: str, bad: np.ndarray) -> None:
        self.violations[name] += int(np.count_nonzero(bad))

    def deal(self, rows, games):
        b = super().deal(rows, games)
        self.discard[b.slot] = ZERO
        return b

    def choose(self, m, seat, method, v, *args):
        move = super().choose(m, seat, method, v, *args)
        if method == "open":
            shape_ok = np.ones(len(move), dtype=bool)
            for r in range(len(RANK_MASK)):
                shape_ok &= np_count(move & RANK_MASK[r]) != 1
            n = np_count(move)
            bad = (move == ZERO) | (move & ~v.hand != ZERO) | (n > v.room) | ((n > 1) & ~shape_ok)
        elif method in ("kill", "self_attack"):
            killers = args[1]
            bad = (move >= 0) & (killers & BIT[np.maximum(move, 0)] == ZERO)
        elif method == "add":
            cands, room = args
            bad = (move & ~cands != ZERO) | (np_count(move) > room)
        else:
            cards, excess = args
            bad = (move & ~cards != ZERO) | (np_count(move) != excess)
        self.count(f"illegal_{method}", m & bad)
        return move

    def end_round(self, b, m):
        self.discard[b.slot[m]] |= ((b.att | b.kil) & ~b.unk)[m]
        super().end_round(b, m)

    def tick(self, b):
        super().tick(b)
        live = b.live
        stock = self.cum[b.slot, self.front] & ~self.cum[b.slot, np.minimum(b.drawn, self.front)]
        stock |= np.where(b.drawn <= self.front, b.bottom, ZERO)
        table = np.where(b.phase == vector.OPEN, ZERO, b.att | b.kil)  # cleared when the next round opens
        places = [*b.hands.T, table, stock, self.discard[b.slot]]
        total = sum(np_count(p) for p in places)
        union = np.bitwise_or.reduce(np.stack(places, axis=1), axis=1)
        self.count("cards", live & ((total != 52) | (union != ALL_CARDS)))
        one_kill_each = np_count(b.kil) == np_count(b.att & ~b.unk)
        self.count("table", live & (b.phase != vector.OPEN) & ((b.unk & ~b.att != ZERO) | ~one_kill_each))
        out_cards = np.zeros(len(b), dtype=bool)
        for p in range(self.players):
            out_cards |= ((b.out >> p) & 1 == 1) & (b.hands[:, p] != ZERO)
        self.count("out_holds_cards", live & out_cards)


def check_records(cols: dict[str, np.ndarray], players: int) -> Counter[str]:
    """``result``: one loser not among those out and everyone else out, or M-20, or M-21."""
    order = np.array([s.split(",") if s else [] for s in cols["finish_order"]], dtype=object)
    n_out = np.array([len(o) for o in order])
    loser_in = np.array([str(l) in o for l, o in zip(cols["loser"], order)])
    lost = (cols["loser"] >= 0) & ~cols["truncated"] & (n_out == players - 1) & ~loser_in
    nobody = (cols["loser"] == -1) & ~cols["truncated"] & (n_out == players)
    cut = cols["truncated"] & (cols["loser"] == -1)
    return Counter(result=int(np.count_nonzero(~(lost | nobody | cut))), everyone_out=int(nobody.sum()),
                   truncated=int(cut.sum()))


def check_games(rules: MoskaRules, players: int, seed: int, games: np.ndarray, seats: tuple[str, ...],
                capacity: int = vector.CAPACITY) -> Counter[str]:
    """Play ``games`` on the checked engine: violations and outcome counts (and ``games``)."""
    n = len(games)
    engine = CheckedEngine(rules, players, seed, seats, capacity=max(1, min(capacity, n)))
    cols = {f: np.zeros(n, dtype=bool if f == "truncated" else np.int64) for f in vector.RECORD_FIELDS}
    finish = np.zeros(n, dtype=np.int64)
    for done in engine.run(games):
        for f in vector.RECORD_FIELDS:
            cols[f][done.row] = getattr(done, f)
        finish[done.row] = done.finish
    cols["finish_order"] = vector.finish_strings(finish, players)
    counts = engine.violations + check_records(cols, players)
    sample = np.arange(0, n, max(1, n // 50))
    alone = vector.simulate(rules, players, seed, games[sample], seats, capacity=7)
    counts["determinism"] += int(sum(np.count_nonzero(alone[f] != cols[f][sample])
                                     for f in ("turns", "loser", "rounds", "pickups")))
    counts["games"] += n
    return counts


def run_chunk(preset: str, players: int, seed: int, start: int, size: int, seats: tuple[str, ...]) -> Counter[str]:
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
    print(f"moska vector invariants: {args.games:,} games per preset, {args.players} players, "
          f"seatings rotate {['/'.join(s) for s in SEATINGS]}")
    for preset in args.presets:
        start = time.perf_counter()
        tasks = [delayed(run_chunk)(preset, args.players, args.seed, s, min(args.chunk, args.games - s),
                                    SEATINGS[i % len(SEATINGS)][:args.players] + ("random",) * (args.players - 4))
                 for i, s in enumerate(range(0, args.games, args.chunk))]
        total: Counter[str] = Counter()
        for counts in Parallel(n_jobs=args.jobs, return_as="generator")(tasks):
            total += counts
        keys = ("cards", "table", "out_holds_cards", "illegal_open", "illegal_kill", "illegal_self_attack",
                "illegal_add", "illegal_give_back", "result", "determinism")
        line = ", ".join(f"{k}={total[k]}" for k in keys)
        print(f"{preset}: {total['games']:,} games in {time.perf_counter() - start:.0f} s; violations: {line}; "
              f"everyone out at once (M-20): {total['everyone_out']}, truncated (M-21): {total['truncated']}",
              flush=True)


if __name__ == "__main__":
    main()
