"""Molotow Jass throughput per core: hands/s of the compiled and reference engines and their ratio, at the
4-player table (`molotow`) and the 3-player one (`mittlere`); with ``--jass-kit``, the jass-kit package's
lean Schieber loop beside them. All in one process, timed in CPU seconds of this process
(``time.process_time``), so the figures are per core. A game is ``hands`` hands (12).

    .venv/bin/python benchmarks/bench_molotow.py             # 200,000 compiled / 200 reference games a row
    .venv/bin/python benchmarks/bench_molotow.py --quick     # a smoke run
    /tmp/bench-jass/bin/python benchmarks/bench_molotow.py --jass-kit

jass-kit is not a dependency of cardsim: install it in a separate environment for this benchmark only,
e.g. ``python3 -m venv /tmp/bench-jass && /tmp/bench-jass/bin/pip install -e . jass-kit``. Its loop:
deal (``deal_random_hand``), a random trump, then 36 random legal cards (``RuleSchieber.get_valid_cards``,
``GameSim.action_play_card``), without agents or observations.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import cardsim


def rate(engine: str, rules: str, players: int, policy: str, games: int, seed: int) -> float:
    """Hands per CPU-second of one engine playing games ``0 .. games-1`` (one process)."""
    start = time.process_time()
    cardsim.simulate("molotow", rules, players=players, games=games, seed=seed, policy=policy, engine=engine)
    return games * cardsim.rules("molotow", rules).hands / (time.process_time() - start)


def jass_kit_rate(hands: int, seed: int) -> float | None:
    """Hands per CPU-second of jass-kit's lean Schieber loop; None if jass-kit is not installed."""
    try:
        from jass.game.const import MAX_TRUMP
        from jass.game.game_sim import GameSim
        from jass.game.game_util import deal_random_hand
        from jass.game.rule_schieber import RuleSchieber
    except ImportError:
        return None
    rule = RuleSchieber()
    sim = GameSim(rule=rule)
    r = np.random.default_rng(seed)
    np.random.seed(seed)  # deal_random_hand shuffles with numpy's global generator
    start = time.process_time()
    for h in range(hands):
        sim.init_from_cards(hands=deal_random_hand(), dealer=h % 4)
        sim.action_trump(int(r.integers(0, MAX_TRUMP + 1)))
        while not sim.is_done():
            s = sim.state
            valid = rule.get_valid_cards(s.hands[s.player], s.current_trick, s.nr_cards_in_trick, s.trump)
            sim.action_play_card(int(r.choice(np.flatnonzero(valid))))
    return hands / (time.process_time() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="reference-engine games a row")
    p.add_argument("--compiled-games", type=int, default=200_000, help="compiled-engine games a row")
    p.add_argument("--policies", nargs="+", default=["random", "greedy"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jass-kit", action="store_true", help="also time jass-kit's Schieber loop (random play)")
    p.add_argument("--jass-kit-hands", type=int, default=3000)
    p.add_argument("--quick", action="store_true", help="a few seconds: 1/10 of every count")
    args = p.parse_args()
    if args.quick:
        args.games, args.compiled_games, args.jass_kit_hands = 20, 20_000, 300
    cardsim.simulate("molotow", players=4, games=1, engine="compiled")  # compile or load the cache: not timed
    print(f"molotow, per core: reference {args.games:,} games, compiled {args.compiled_games:,} games a row "
          f"(12 hands a game)")
    print(f"{'rules':>9} {'players':>7} {'policy':>7} {'reference h/s':>14} {'compiled h/s':>13} {'ratio':>6}")
    compiled_random_4p = None
    for rules, players in (("molotow", 4), ("mittlere", 3)):
        for policy in args.policies:
            ref = rate("reference", rules, players, policy, args.games, args.seed)
            fast = rate("compiled", rules, players, policy, args.compiled_games, args.seed)
            if (players, policy) == (4, "random"):
                compiled_random_4p = fast
            print(f"{rules:>9} {players:>7} {policy:>7} {ref:>14,.0f} {fast:>13,.0f} {fast / ref:>6.0f}", flush=True)
    if args.jass_kit:
        jk = jass_kit_rate(args.jass_kit_hands, args.seed)
        if jk is None:
            print("jass-kit is not installed here: see this script's docstring")
        else:
            ratio = f"; compiled random 4p = {compiled_random_4p / jk:,.0f}x" if compiled_random_4p else ""
            print(f"jass-kit Schieber loop (deal, trump, 36 random legal cards), {args.jass_kit_hands:,} hands: "
                  f"{jk:,.0f} hands/s{ratio}")


if __name__ == "__main__":
    main()
