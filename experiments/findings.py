"""Print the findings tables (docs/findings.md, the README's headline) from the committed results/<study>/summary.csv files.

Every number in those tables comes from here, so each is in a committed summary.csv
(tests/test_readme_findings.py checks it):

    python experiments/findings.py                 # all studies, 4 players
    python experiments/findings.py --players 2     # another table size
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from cardsim.games import spec

RESULTS = Path(__file__).resolve().parents[1] / "results"
STUDIES = ("moska_variants", "musta_maija_variants", "uno_house_rules", "molotow_rules")


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


def _diff(d: float, lo: float, hi: float, scale: float = 100, digits: int = 1) -> str:
    return f"{scale * d:+.{digits}f} [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"


def unpaired(manifest: dict) -> set[str]:
    """The variants whose deck differs from the baseline's (``Rules.same_deck``): game i deals other cards,
    so their differences are of independent games, not paired ones (still valid, only wider)."""
    study = manifest["study"]
    rules = {v: spec(study["game"]).rules.from_dict(k) for v, k in study["variants"].items()}
    return {v for v, r in rules.items() if not r.same_deck(rules[study["baseline"]])}


def table(summary: pd.DataFrame, players: int, policy: str, unpaired: set[str] = frozenset()) -> str:
    """One markdown table: a row per variant; outcome rate by seat (%), mean turns, paired deltas
    (marked "unpaired" for a variant with another deck)."""
    rows = summary.loc[(summary.players == players) & (summary.policy == policy)]
    outcome = "loser" if "loser_rate_0" in summary else "winner"
    seats = range(players)
    head = ["variant", *(f"{outcome} seat {s} %" for s in seats), f"no {outcome} %", "turns mean",
            "Δ turns vs baseline"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in rows.iterrows():
        cells = [f"`{r.variant}`", *(_pct(r[f"{outcome}_rate_{s}"], r[f"{outcome}_lo_{s}"], r[f"{outcome}_hi_{s}"])
                                     for s in seats),
                 f"{100 * r[f'{outcome}_none'] / r.games:.2f}", f"{r.turns_mean:.1f}", _diff(r.turns_diff, r.turns_diff_lo, r.turns_diff_hi, 1, 2)
                 + (" unpaired" if r.variant in unpaired else "")]
        lines.append("| " + " | ".join(cells) + " |")
    games = int(rows.games.max()) if len(rows) else 0
    return (f"{summary.game.iloc[0]}, {players} players, policy `{policy}`, {games:,} games per variant "
            f"(rates in %, Wilson 95% intervals; Δ paired, 95% interval):\n\n" + "\n".join(lines))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("studies", nargs="*", default=list(STUDIES))
    args = parser.parse_args(argv)
    for name in args.studies:
        summary = pd.read_csv(RESULTS / name / "summary.csv")
        manifest = json.loads((RESULTS / name / "manifest.json").read_text(encoding="utf-8"))
        print(f"### {name}\n\n{table(summary, args.players, args.policy, unpaired(manifest))}\n")


if __name__ == "__main__":
    main()
