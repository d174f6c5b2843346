"""Uno throughput: games/s of the reference and compiled engines and their ratio, wall and per CPU-second,
for each player count and policy, the two engines one right after the other in one process (the compiled
engine warmed first: its compile time is printed apart); hands/s too (a game is one hand unless the rules
set ``target_score``). With ``--rlcard``, instead: the compiled engine beside the rlcard package's own
``UnoGame`` loop (random play), in this process.

    .venv/bin/python benchmarks/bench_uno.py                 # 2 and 4 players; random, greedy
    .venv/bin/python benchmarks/bench_uno.py --quick         # a few seconds
    .venv/bin/python benchmarks/bench_uno.py --compiled-games 500000 --jobs 2 --rules stacking

rlcard is not a dependency of cardsim: install it in a benchmark environment of its own, e.g.

    python3 -m venv /tmp/bench-uno && /tmp/bench-uno/bin/pip install -e . rlcard
    /tmp/bench-uno/bin/python benchmarks/bench_uno.py --rlcard --players 4 --policies random

The rlcard loop is the one its own UnoGame offers: ``init_game``, then ``get_legal_actions``
and ``step`` with a uniformly random legal action until ``is_over``. Rounds alternate between
the two (so that a busy machine slows both alike); CPU seconds are this process's.
"""
from __future__ import annotations

import argparse

import numpy as np

import cardsim
from throughput import compare, parser, peer_missing, shrink, timed, warm_up

RLCARD = "python3 -m venv /tmp/bench-uno && /tmp/bench-uno/bin/pip install -e . rlcard"


def rlcard_hands(players: int, hands: int, seed: int) -> None:
    """``hands`` random-play hands of rlcard's own UnoGame loop."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    choose = np.random.RandomState(seed + 1)
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[choose.randint(len(legal))])


def against_rlcard(args: argparse.Namespace, rounds: int = 3) -> None:
    """The compiled engine (one process, ``n_jobs=1``) and rlcard's UnoGame, random play, side by side."""
    shrink(args)
    rl_hands, hands = max(100, args.games), args.compiled_games
    print(f"uno vs rlcard: random play, {rounds} alternating rounds of {rl_hands:,} rlcard hands "
          f"and {hands:,} compiled hands, one process")
    warm_up("uno", args.rules, args.players[0], "random")
    print(f"{'players':>7} {'rlcard h/s':>11} {'compiled h/s':>13} {'ratio':>7} {'(CPU: rlcard':>13} {'compiled':>10}"
          f" {'ratio)':>7}")
    for players in args.players:
        rules = cardsim.rules("uno", args.rules)
        rl, co = np.zeros(2), np.zeros(2)
        for r in range(rounds):
            rl += timed(lambda: rlcard_hands(players, rl_hands, args.seed + r))
            co += timed(lambda: cardsim.simulate("uno", rules, players=players, games=hands, seed=args.seed,
                                                 first_game=r * hands, policy="random"))
        rl_rate, co_rate = rounds * rl_hands / rl, rounds * hands / co
        print(f"{players:>7} {rl_rate[0]:>11,.0f} {co_rate[0]:>13,.0f} {co_rate[0] / rl_rate[0]:>6.0f}x"
              f" {rl_rate[1]:>13,.0f} {co_rate[1]:>10,.0f} {co_rate[1] / rl_rate[1]:>6.0f}x", flush=True)


def main() -> None:
    p = parser(__doc__, rules="official", players=(2, 4), games=1_000, compiled_games=200_000)
    p.add_argument("--rlcard", action="store_true",
                   help="only: the compiled engine beside rlcard's own UnoGame loop, random play (rlcard must be "
                        "installed in this environment; it is not a cardsim dependency)")
    args = p.parse_args()
    if not args.rlcard:
        compare("uno", args, hands=True)
    elif peer_missing("rlcard", "rlcard", "bench_uno.py --rlcard", RLCARD):
        raise SystemExit(1)
    else:
        against_rlcard(args)


if __name__ == "__main__":
    main()
