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

The rlcard loops are the ones its own UnoGame offers: ``init_game``, then ``get_legal_actions``
and a uniformly random legal action until ``is_over``, the action made by ``step`` (which also
builds the next player's observed state, ``get_state``) or by ``round.proceed_round`` (the same
game without the state: rlcard's fastest loop, the fair peer). Rounds alternate between the
three (so that a busy machine slows all alike); CPU seconds are this process's; printed: the
median and the range over ``--rounds``.
"""
from __future__ import annotations

import argparse

import numpy as np

import cardsim
from throughput import compare, parser, peer_missing, shrink, timed, warm_up

RLCARD = "python3 -m venv /tmp/bench-uno && /tmp/bench-uno/bin/pip install -e . rlcard"


def rlcard_hands(players: int, hands: int, seed: int, state: bool) -> int:
    """``hands`` random-play hands of rlcard's own UnoGame loop; the actions taken.

    ``state``: each action through ``UnoGame.step``, which also builds the next player's state
    (``get_state``: what an agent observes); else through ``game.round.proceed_round``, the call
    ``step`` makes before it, which plays the same game without building a state (the same
    actions from the same seeds: the counts returned are equal), rlcard's fastest loop."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    choose = np.random.RandomState(seed + 1)
    actions = 0
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            action = legal[choose.randint(len(legal))]
            if state:
                game.step(action)
            else:
                game.round.proceed_round(game.players, action)
            actions += 1
    return actions


def against_rlcard(args: argparse.Namespace) -> None:
    """The compiled engine (one process, ``n_jobs=1``) and rlcard's UnoGame, random play, side by side:
    rlcard's loop with and without its per-step ``get_state``, rounds alternating, per CPU-second."""
    shrink(args)
    rounds, rl_hands, hands = args.rounds, max(100, args.games), args.compiled_games
    print(f"uno vs rlcard: random play, {rounds} alternating rounds of {rl_hands:,} rlcard hands per loop "
          f"and {hands:,} compiled hands, one process; hands per CPU-second, median [range] of the rounds")
    warm_up("uno", args.rules, args.players[0], "random")
    for players in args.players:
        rules = cardsim.rules("uno", args.rules)
        rates: dict[str, list[float]] = {"rlcard step (get_state)": [], "rlcard proceed_round": [], "compiled": []}
        for r in range(rounds):
            seen = []
            for name, state in (("rlcard step (get_state)", True), ("rlcard proceed_round", False)):
                box = []
                _, cpu = timed(lambda: box.append(rlcard_hands(players, rl_hands, args.seed + r, state)))
                rates[name].append(rl_hands / cpu)
                seen.append(box[0])
            assert seen[0] == seen[1], "the two rlcard loops played different games"
            _, cpu = timed(lambda: cardsim.simulate("uno", rules, players=players, games=hands, seed=args.seed,
                                                    first_game=r * hands, policy="random"))
            rates["compiled"].append(hands / cpu)
        compiled = np.median(rates["compiled"])
        print(f"{players} players:")
        for name, xs in rates.items():
            ratio = "" if name == "compiled" else f"   compiled / this: {compiled / np.median(xs):.0f}x " \
                f"[{min(rates['compiled']) / max(xs):.0f}x .. {max(rates['compiled']) / min(xs):.0f}x]"
            print(f"  {name:24} {np.median(xs):>10,.0f} h/CPU-s [{min(xs):,.0f} .. {max(xs):,.0f}]{ratio}",
                  flush=True)


def main() -> None:
    p = parser(__doc__, rules="official", players=(2, 4), games=1_000, compiled_games=200_000)
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds of --rlcard (default 5)")
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
