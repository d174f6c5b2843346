"""``profile.txt``: the profile table as ``cardsim profile`` prints it, one block per player count."""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.study.plan.spec import Study

def _scale(r) -> tuple[float, str]:
    """Rates in pp; Elo points, shares and lengths as they are."""
    if r.measure in ("seat_edge", "spread") or r.measure.startswith("option_value_") or r.measure == "deal_hit_rate":
        return 100, " pp"
    return 1, ""


def format_table(table: pd.DataFrame, study: Study, title: str) -> str:
    """The table as text: figure, player, estimate [95%], Holm p and whether it survives, per variant."""
    lines = [title, f"replication seed: {(study.seed + 1) % 2**64} (`cardsim profile ... --seed` it, or --replicate); "
             f"families corrected with Holm and BH at alpha {study.alpha:g}; * = survives Holm",
             "seats dealer-relative (seat 0 deals); pp = percentage points"]
    for n, block in table.groupby("players", sort=False):
        lines.append(f"\n{n} players")
        for variant, rows in block.groupby("variant", sort=False):
            lines.append(f"  {variant}")
            for r in rows.itertuples():
                k, unit = _scale(r)
                test = "" if np.isnan(r.p) else f"  p_holm {r.p_holm:.3g}{' *' if r.survives else ''}"
                lines.append(f"    {r.measure:<26} {k * r.estimate:+10.3f} [{k * r.lo:+.3f}, {k * r.hi:+.3f}]{unit}"
                             f"{test}  ({r.policy}{'; ' + r.note if r.note else ''})")
    return "\n".join(lines)
