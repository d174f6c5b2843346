"""``benchmarks/seat_among.py``: each policy in every seat in turn among the other policy, the same deals for every
policy; its loss rate is the losses of the rotated seat over all those games."""
import os
import re
import subprocess
import sys
from pathlib import Path

import cardsim

ROOT = Path(__file__).resolve().parents[1]


def test_each_policy_is_rated_in_every_seat_on_the_same_deals():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "seat_among.py"), "moska", "--others", "random",
                          "--policies", "greedy,random", "--games", "80", "--players", "4", "--seed", "5"],
                         capture_output=True, text=True, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    rates = dict(re.findall(r"^(\w+)\s+loses\s+([\d.]+)% .* of 80 among random", out.stdout, re.M))
    for policy in ("greedy", "random"):
        lost = 0
        for seat in range(4):
            seats = ["random"] * 4
            seats[seat] = policy
            lost += int((cardsim.simulate("moska", players=4, games=20, seed=5, policy=seats).loser == seat).sum())
        assert float(rates[policy]) == round(100 * lost / 80, 2)
