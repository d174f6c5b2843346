"""``profile.png``: the variants side by side, one panel per headline figure, 95% intervals.

Panels (where the profile has them): the seat edge (pp), the rating gap of the profiled player
over each weaker ladder policy (Elo), the two luck shares (0..1), every option value (pp) and the
decided share. One marker per variant (and player count), with its interval as a bar; a hollow
marker is a tested figure that does not survive correction, a filled one a figure that does.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.study.folder.storage import atomic_write  # noqa: E402

FILE = "profile.png"
PANELS = (("seat_edge", "seat edge (pp)", 100), ("rating_gap_", "rating gap (Elo)", 1),
          ("luck_share_skill", "luck share: strongest among weakest", 1), ("luck_share_deal", "luck share: deal", 1),
          ("option_value_", "option value (pp)", 100), ("decided_share", "decided share", 1))


def render(table: pd.DataFrame, title: str, folder: Path) -> str:
    """Draw the chart into ``folder``; return its name."""
    panels = [(key, label, scale) for key, label, scale in PANELS if table.measure.str.startswith(key).any()]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels), 4.2), squeeze=False)
    variants = list(dict.fromkeys(table.variant))
    for ax, (key, label, scale) in zip(axes[0], panels):
        rows = table.loc[table.measure.str.startswith(key)]
        series = list(dict.fromkeys(zip(rows.players, rows.measure)))
        width = 0.8 / max(len(series), 1)
        for j, (n, measure) in enumerate(series):
            part = rows.loc[(rows.players == n) & (rows.measure == measure)]
            x = np.array([variants.index(v) for v in part.variant]) + (j - (len(series) - 1) / 2) * width
            est = part.estimate.to_numpy() * scale
            err = np.abs(np.vstack([est - part.lo.to_numpy() * scale, part.hi.to_numpy() * scale - est]))
            name = measure[len(key):] if key.endswith("_") else ""
            kept = part.survives.to_numpy(bool) | part.p.isna().to_numpy()
            colour = f"C{j % 10}"
            ax.errorbar(x, est, yerr=err, fmt="none", capsize=3, color=colour, label=f"{n}p {name}".strip())
            ax.scatter(x, est, edgecolors=colour, facecolors=np.where(kept, colour, "white"), zorder=3)
        if key in ("seat_edge", "option_value_", "rating_gap_"):
            ax.axhline(0, color="grey", lw=0.8)
        if key == "luck_share_skill":
            ax.axhline(1, color="grey", lw=0.8)
        if "share" in key:
            ax.set_ylim(min(0.0, ax.get_ylim()[0]), max(1.05, ax.get_ylim()[1]))
        ax.set_xticks(range(len(variants)), variants, rotation=30, ha="right", fontsize=8)
        ax.set_title(label, fontsize=9)
        if len(series) > 1:
            ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    atomic_write(folder / FILE, lambda p: fig.savefig(p, format="png", dpi=100, metadata={"Software": None}))
    plt.close(fig)
    return FILE
