"""Uno throughput: hands/s of the vector and reference engines and their ratio, measured in
the same run for each player count and policy. A game is one hand unless the rules set
``target_score`` (then the hands/s columns count every hand of a match).

    .venv/bin/python benchmarks/bench_uno.py                 # 2 and 4 players; random, greedy
    .venv/bin/python benchmarks/bench_uno.py --quick         # a few seconds
    .venv/bin/python benchmarks/bench_uno.py --vector-games 200000 --jobs 2 --rules stacking

For scale: rlcard's own Uno game loop plays about 2,000 random 4-player hands/s on a
machine like ours; the target for the vector engine is 25x that.
"""
from throughput import compare, parser

if __name__ == "__main__":
    compare("uno", parser(__doc__, rules="official", players=(2, 4), games=1_000, vector_games=100_000).parse_args())
