"""Uno ``mc`` (MC.md): CPU milliseconds per choice, self-play hands/s, and strength — the win rate of one
``mc`` seat among ``greedy`` ones, rotated over the seats, beside greedy's own rate on the same deals.

    .venv/bin/python benchmarks/bench_uno_mc.py                        # 4 players, official, D = 32
    .venv/bin/python benchmarks/bench_uno_mc.py --determinizations 32 128 --games 5000 --jobs 2
    .venv/bin/python benchmarks/bench_uno_mc.py --quick

Speed, one process, CPU seconds: ``search`` (one ``mc`` choice) timed on positions of ``--speed-games``
greedy games where the mc seat would choose (``ms/choice``: every choice; ``ms/search``: those with more than
one candidate), and ``mc`` self-play (every seat) as hands/s and milliseconds per protocol decision (a
decision is one or more choices, the record's ``turns``). Strength: ``--games`` games per seating, the mc
seat in each seat in turn (``first_game`` apart, so every seat sees other deals); 95% normal intervals.
Never an assertion — read the numbers.
"""
from __future__ import annotations

import numpy as np

import cardsim
from cardsim.core import jit
from cardsim.games.uno import compiled as C
from mc_bench import cpu, mc, ms_per_call, parser, proportion, seatings, shrink
from throughput import warm_up


def positions(rules, players: int, games: int, seed: int) -> list[np.ndarray]:
    """Every choice of seat ``game % players`` in greedy games, as compiled states."""
    params, table, work = C.params_of(rules), C.policy_of(("greedy",) * players), C.new_work(rules)[0]
    out = []
    for g in range(games):
        state = np.zeros(1, C.STATE)
        s = state[0]
        C.new_game(s, params, players, np.uint64(jit.game_key(np.uint64(seed), np.uint64(g))), work)
        s["reads"] = True  # as in a game with an mc seat: the table reads the choices
        while s["phase"] != C.OVER:
            if s["current"] == g % players:
                out.append(state.copy())
            C.apply(s, C.choose(s, table), params, work)
    return out


def search_speed(rules, players: int, determinizations: int, seed: int, games: int) -> str:
    """ms per choice, ms per searched choice, choices, share searched."""
    states = positions(rules, players, games, seed)
    params, work = C.params_of(rules), C.new_work(rules)[0]
    policy = C.policy_of((mc(determinizations),) * players)
    searched = sum(C.candidates(s[0], work) > 1 for s in states)
    ms = ms_per_call(lambda s: C.search(s[0], params, policy, work), states)
    return (f"{ms:>10.3f} {ms * len(states) / max(searched, 1):>10.3f}"
            f" {len(states):>8,} {searched / len(states):>8.0%}")


def self_play(rules, players: int, determinizations: int, seed: int, games: int) -> str:
    """hands/s and ms per decision of mc self-play, one process."""
    out = {}
    seconds = cpu(lambda: out.setdefault("df", cardsim.simulate("uno", rules, players=players, games=games,
                                                                seed=seed, policy=mc(determinizations))))
    return f"{out['df'].hands.sum() / seconds:>12,.1f} {1000 * seconds / out['df'].turns.sum():>11.3f}"


def wins(rules, players: int, policy: str, seed: int, games: int, jobs: int) -> str:
    """The win rate of ``policy`` in one seat among greedy ones, ``games`` per seating."""
    won = 0
    for p, seats in enumerate(seatings(policy, "greedy", players)):
        df = cardsim.simulate("uno", rules, players=players, games=games, seed=seed, policy=seats,
                              first_game=p * games, n_jobs=jobs)
        won += int((df.winner == p).sum())
    return proportion(won, games * players)


def main() -> None:
    p = parser(__doc__, games=5_000, speed_games=200, self_play_games=200, determinizations=[32])
    p.add_argument("--rules", default="official", help="a preset or string form")
    p.add_argument("--players", type=int, nargs="+", default=[4])
    args = p.parse_args()
    shrink(args, games=100, speed_games=10, self_play_games=10)
    rules = cardsim.rules("uno", args.rules)
    print(f"uno mc, {args.rules}: speed per CPU-second of one process; self-play {args.self_play_games:,} games")
    warm_up("uno", args.rules, 2, mc(1))
    print(f"{'players':>7} {'D':>5} {'ms/choice':>10} {'ms/search':>10} {'choices':>8} {'searched':>8}"
          f" {'selfplay h/s':>12} {'ms/decision':>11}")
    for players in args.players:
        for d in args.determinizations:
            print(f"{players:>7} {d:>5} {search_speed(rules, players, d, args.seed, args.speed_games)}"
                  f" {self_play(rules, players, d, args.seed, args.self_play_games)}", flush=True)
    print(f"\nstrength: one seat among greedy, {args.games:,} games per seating (n_jobs={args.jobs}), 95% intervals")
    print(f"{'players':>7} {'policy':>26} {'win rate':>17} {'parity':>7}")
    for players in args.players:
        for policy in ["greedy"] + [mc(d) for d in args.determinizations]:
            print(f"{players:>7} {policy:>26} {wins(rules, players, policy, args.seed, args.games, args.jobs):>17}"
                  f" {1 / players:>7.1%}", flush=True)


if __name__ == "__main__":
    main()
