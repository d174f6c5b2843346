"""Molotow Jass throughput: games/s and hands/s of the vector and reference engines and their
ratio, measured in the same run, at the 4-player table (`molotow`) and the 3-player one
(`mittlere`). A game is ``hands`` hands (12).

    .venv/bin/python benchmarks/bench_molotow.py            # 20,000 vector / 200 reference games
    .venv/bin/python benchmarks/bench_molotow.py --quick    # a smoke run

For scale: jass-kit's Schieber game loop plays about 400 random hands/s here; the target
for the vector engine is 100x that.
"""
from throughput import compare, parser

if __name__ == "__main__":
    args = parser(__doc__, rules="molotow", players=(4,), games=200, vector_games=20_000).parse_args()
    compare("molotow", args, cells=[(args.rules, 4), ("mittlere", 3)])
