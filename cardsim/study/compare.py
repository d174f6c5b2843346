"""``cardsim compare``: a quick paired comparison of rules without a study file.

``study`` turns the command's arguments into an in-memory study (one variant per
rules string, named by it; the first is the baseline), checked like a study file;
``table`` prints a summary as the paired table: each variant's seat rates, and under
each one its paired differences against the baseline, mean lengths and fairness.
Nothing here plays games or writes files.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from cardsim import api
from cardsim.core.search import unfair_note
from cardsim.study.report.explore import outcome_column
from cardsim.study.plan.spec import Study, StudyError
from cardsim.study.report.stats import LENGTHS

WHERE = "compare"


def study(game: str, rules: Sequence[str], *, players: Sequence[int], games: int, seed: int = 0,
          policies: Sequence[str] = ("greedy",), engine: str = "compiled") -> Study:
    """The study of ``cardsim compare``: every ``rules`` string a variant (the first the baseline)."""
    if len(rules) < 2:
        raise StudyError(WHERE, "RULES", "expected at least two rules to compare")
    variants = {}
    for text in rules:
        if text.strip() in variants:
            raise StudyError(WHERE, "RULES", f"{text!r} is given twice")
        try:
            variants[text.strip()] = api.rules(game, text).to_dict()
        except ValueError as err:
            raise StudyError(WHERE, f"rules {text!r}", str(err)) from None
    policy = [p.split(",") if "," in p else p for p in policies]
    return Study.from_dict({"name": WHERE, "description": f"cardsim compare {game} " + " ".join(rules),
                            "game": game, "seed": seed, "games": games, "players": list(players), "policies": policy,
                            "variants": variants, "baseline": next(iter(variants)), "engine": engine}, where=WHERE)


def table(summary: pd.DataFrame, baseline: str) -> str:
    """The paired table of a compare study's ``summary.csv`` rows, one block per (players, policy)."""
    o = outcome_column(summary)
    lengths = [c for c in LENGTHS if f"{c}_mean" in summary.columns]
    blocks = []
    for (n, p), rows in summary.groupby(["players", "policy"], sort=False):
        head = (f"{rows.game.iloc[0]}, {n} players, policy {p}, {int(rows.games.max()):,} games per variant: "
                f"{o} rate by seat in % (Wilson 95%); under each variant its paired difference against {baseline} "
                f"(Δ, pp and turns, 95%); fairness in pp (exact 95%)")
        if unfair_note([p]):
            head += "\n" + unfair_note([p])
        header = ["variant", *(f"seat {s}" for s in range(n)), *(f"mean {c}" for c in lengths), "spread", "TV"]
        lines = []
        for _, r in rows.iterrows():
            lines.append([r.variant, *(_fmt(r[f"{o}_rate_{s}"], r[f"{o}_lo_{s}"], r[f"{o}_hi_{s}"], 100)
                                       for s in range(n)),
                          *(_fmt(r[f"{c}_mean"], scale=1, digits=1) for c in lengths),
                          _fmt(r[f"{o}_spread"], r[f"{o}_spread_lo"], r[f"{o}_spread_hi"], 100),
                          _fmt(r[f"{o}_tv"], r[f"{o}_tv_lo"], r[f"{o}_tv_hi"], 100)])
            if r.variant != baseline:
                lines.append(["  Δ", *(_fmt(r[f"{o}_diff_{s}"], r[f"{o}_diff_lo_{s}"], r[f"{o}_diff_hi_{s}"], 100,
                                            signed=True) for s in range(n)),
                              *(_fmt(r[f"{c}_diff"], r[f"{c}_diff_lo"], r[f"{c}_diff_hi"], 1, signed=True)
                                for c in lengths), "", ""])
        widths = [max(len(str(x)) for x in column) for column in zip(header, *lines)]
        text = [head, "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))]
        text += ["  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(line, widths))).rstrip()
                 for line in lines]
        blocks.append("\n".join(text))
    return "\n\n".join(blocks)


def _fmt(x: float, lo: float = np.nan, hi: float = np.nan, scale: float = 100, signed: bool = False,
         digits: int = 2) -> str:
    if pd.isna(x):
        return ""
    f = f"{'+' if signed else ''}.{digits}f"
    return f"{scale * x:{f}}" if pd.isna(lo) else f"{scale * x:{f}} [{scale * lo:{f}}, {scale * hi:{f}}]"
