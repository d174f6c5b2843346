"""Musta-Maija throughput: games/s of the reference and compiled engines and their ratio, wall and per
CPU-second, for each player count and policy, the two engines one right after the other in one process
(the compiled engine warmed first: its compile time is printed apart).

    .venv/bin/python benchmarks/bench_musta_maija.py             # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_musta_maija.py --quick     # a few seconds
    .venv/bin/python benchmarks/bench_musta_maija.py --games 500 --compiled-games 100000 --rules black_trump
"""
from throughput import compare, parser

if __name__ == "__main__":
    compare("musta_maija", parser(__doc__, rules="musta_maija", players=(2, 4, 6), games=500,
                                  compiled_games=50_000).parse_args())
