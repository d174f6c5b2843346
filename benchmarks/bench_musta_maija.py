"""Musta-Maija throughput: games/s of the reference and compiled engines and their ratio, for
each player count and policy, measured in the same run (the table's "vector" columns are the
compiled engine: "vector" is its alias).

    .venv/bin/python benchmarks/bench_musta_maija.py             # 2, 4, 6 players; random, greedy
    .venv/bin/python benchmarks/bench_musta_maija.py --quick     # a few seconds
    .venv/bin/python benchmarks/bench_musta_maija.py --games 500 --vector-games 100000 --rules black_trump
"""
from throughput import compare, parser

if __name__ == "__main__":
    compare("musta_maija", parser(__doc__, rules="musta_maija", players=(2, 4, 6), games=500,
                                  vector_games=50_000).parse_args())
