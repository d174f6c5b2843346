"""Games on the compiled engine's state API, and positions with the same view, for the Moska tests."""
import importlib.util
import pathlib
import sys

import numpy as np

from cardsim.core import jit
from cardsim.games.moska import compiled
from cardsim.games.moska.compiled_policies import reads_of, table


class Game:
    """One game on the state API: its state, params, seat policies and scratch."""

    def __init__(self, rules, players, seed, game, seats):
        self.p = compiled.make_params(rules, players)[0]
        self.policies = table(seats)
        self.work = compiled.new_work()[0]
        self.state = np.zeros(1, compiled.STATE)
        self.move = np.zeros(1, compiled.MOVE)
        compiled.seat_forbids(self.state[0], self.policies)  # as run_games does, before the deal (M-6)
        compiled.deal(self.state[0], self.p, np.uint64(jit.game_key(np.uint64(seed), game)), np.zeros(52, np.uint64),
                      np.zeros(52, np.int64), np.zeros(jit.BUCKETS + 1, np.int64))
        self.state[0]["reads"] = reads_of(self.policies)  # as run_games does

    @property
    def s(self):
        return self.state[0]

    def step(self) -> None:
        compiled.choose(self.s, self.p, self.policies, self.move[0], self.work)
        assert compiled.is_legal(self.s, self.p, self.move[0])
        compiled.apply(self.s, self.p, self.move[0])

    def play_out(self, state=None) -> np.void:
        s = self.s if state is None else state[0]
        compiled.play_out(s, self.p, self.policies, np.zeros(1, compiled.MOVE)[0], self.work)
        return s

    def record(self, s) -> dict:
        out = np.zeros(len(compiled.RECORD_FIELDS), dtype=np.int64)
        compiled.write_record(s, out)
        return dict(zip(compiled.RECORD_FIELDS, out.tolist()))


def hidden_cards_dealt_again(s, p, seat: int, players: int, gen) -> np.ndarray:
    """A copy of state ``s`` in which the cards ``seat`` cannot see are dealt again: the other hands keep
    their sizes and their publicly known cards, the stock its size and the card under it, and the trump 2
    stays in the stock while the turned card lies under it with the swap on (M-6)."""
    other = np.zeros(1, compiled.STATE)
    compiled.copy_state(other, s)
    o = other[0]
    shown = [int(s["known"][q]) | int(s["added"][q]) for q in range(players)]  # added cards wait in the hand (M-12)
    hidden = [c for q in range(players) if q != seat for c in range(52) if (int(s["hands"][q]) & ~shown[q]) >> c & 1]
    stock = [int(c) for c in s["stock"][s["drawn"]:s["stock_size"] - 1]]
    two = int(s["trump"]) * 13
    kept = [two] if compiled.trump_two_in_stock(s, p, seat) else []
    pool = list(gen.permutation([c for c in hidden + stock if c not in kept]))
    for q in range(players):
        if q != seat:
            n = bin(int(s["hands"][q]) & ~shown[q]).count("1")
            o["hands"][q] = int(s["hands"][q]) & shown[q] | sum(1 << int(c) for c in pool[:n])
            pool = pool[n:]
    o["stock"][s["drawn"]:s["stock_size"] - 1] = gen.permutation(pool + kept)
    return other


def assert_same_decision(g, other, a, b) -> None:
    """The seat to act decides the same in ``g``'s state and in ``other`` (its hidden cards dealt again):
    the same cards and, in a defence, the same killer for every card on the table or played."""
    compiled.choose(g.s, g.p, g.policies, a[0], g.work)
    compiled.choose(other[0], g.p, g.policies, b[0], g.work)
    assert a["cards"][0] == b["cards"][0]
    if g.s["phase"] == compiled.DEFEND:
        for c in range(52):
            if int(g.s["unkilled"]) >> c & 1 or int(a["cards"][0]) >> c & 1:
                assert a["killer"][0][c] == b["killer"][0][c]


def invariants_script():
    """``benchmarks/invariants_moska.py``: its checked play loop counts violated invariants while it plays."""
    path = pathlib.Path(__file__).parents[2] / "benchmarks" / "invariants_moska.py"
    spec = importlib.util.spec_from_file_location("invariants_moska", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["invariants_moska"] = module  # numba's cache looks its functions' module up by name
    spec.loader.exec_module(module)
    return module


INVARIANTS = invariants_script()
