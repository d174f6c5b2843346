"""Molotow Jass throughput: games/s of the reference and compiled engines and their ratio, wall and per
CPU-second, with hands/s (a game is ``hands`` hands: 12), at the 4-player table (`molotow`) and the 3-player
one (`mittlere`), the two engines one right after the other in one process (the compiled engine warmed first:
its compile time is printed apart); with ``--jass-kit``, the jass-kit package's lean Schieber loop after them.

    .venv/bin/python benchmarks/bench_molotow.py             # 200,000 compiled / 200 reference games a row
    .venv/bin/python benchmarks/bench_molotow.py --quick     # a few seconds
    /tmp/bench-jass/bin/python benchmarks/bench_molotow.py --jass-kit

jass-kit is not a dependency of cardsim: install it in a separate environment for this benchmark only,
e.g. ``python3 -m venv /tmp/bench-jass && /tmp/bench-jass/bin/pip install -e . jass-kit``. Its loop:
deal (``deal_random_hand``), a random trump, then 36 random legal cards (``RuleSchieber.get_valid_cards``,
``GameSim.action_play_card``), without agents or observations; its ratio is against the compiled engine's
4-player random row, per CPU-second.
"""
from __future__ import annotations

import numpy as np

from throughput import compare, parser, peer_missing, timed

JASS_KIT = "python3 -m venv /tmp/bench-jass && /tmp/bench-jass/bin/pip install -e . jass-kit"
TABLES = (("molotow", 4), ("mittlere", 3))
"""(preset, players) of each row."""


def jass_kit_hands(hands: int, seed: int) -> None:
    """``hands`` random-play hands of jass-kit's lean Schieber loop."""
    from jass.game.const import MAX_TRUMP
    from jass.game.game_sim import GameSim
    from jass.game.game_util import deal_random_hand
    from jass.game.rule_schieber import RuleSchieber

    rule = RuleSchieber()
    sim = GameSim(rule=rule)
    r = np.random.default_rng(seed)
    np.random.seed(seed)  # deal_random_hand shuffles with numpy's global generator
    for h in range(hands):
        sim.init_from_cards(hands=deal_random_hand(), dealer=h % 4)
        sim.action_trump(int(r.integers(0, MAX_TRUMP + 1)))
        while not sim.is_done():
            s = sim.state
            valid = rule.get_valid_cards(s.hands[s.player], s.current_trick, s.nr_cards_in_trick, s.trump)
            sim.action_play_card(int(r.choice(np.flatnonzero(valid))))


def main() -> None:
    p = parser(__doc__, rules=None, players=(), games=200, compiled_games=200_000)
    p.add_argument("--jass-kit", action="store_true", help="also time jass-kit's Schieber loop (random play)")
    p.add_argument("--jass-kit-hands", type=int, default=3000, help="jass-kit hands (--quick: a tenth)")
    args = p.parse_args()
    jass_kit = args.jass_kit and not peer_missing("jass", "jass-kit", "bench_molotow.py --jass-kit", JASS_KIT)
    compiled = compare("molotow", args, cells=TABLES, hands=True)
    if jass_kit:
        hands = max(30, args.jass_kit_hands // 10) if args.quick else args.jass_kit_hands
        wall, cpu = timed(lambda: jass_kit_hands(hands, args.seed))
        ours = compiled.get(("molotow", 4, "random"))
        ratio = f"; compiled molotow 4p random: {ours.hands_cpu / (hands / cpu):,.0f}x per CPU-second" if ours else ""
        print(f"jass-kit Schieber loop (deal, trump, 36 random legal cards), {hands:,} hands: "
              f"{hands / wall:,.0f} hands/s, {hands / cpu:,.0f} hands/CPU-s{ratio}", flush=True)


if __name__ == "__main__":
    main()
