"""The skill ladder's plot: each main effect (or variant against the baseline) against the rung.

One panel per contrast, one line per seat: the contrast's shift of the seat's rate (pp)
at each rung, weakest rung left, with its 95% interval, as ``effects.csv`` (a sweep or
factorial) or ``summary.csv``'s paired shifts hold it; a hollow marker where the contrast
does not survive correction for many comparisons (``multiplicity``). One file per player
count: ``skill_<players>p.png``.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.study.folder.storage import atomic_write  # noqa: E402

COLUMNS = 4
"""Panels per row."""


def names(players: tuple[int, ...]) -> list[str]:
    return [f"skill_{n}p.png" for n in players]


def render(contrasts: pd.DataFrame, rungs: tuple[str, ...], outcome: str, players: tuple[int, ...],
           folder: Path) -> list[str]:
    """Draw ``names(players)`` from corrected contrasts (``multiplicity.adjust``'s columns, one
    ``policy`` per rung); return the file names."""
    written = []
    for n, file in zip(players, names(players)):
        here = contrasts.loc[(contrasts.players == n) & contrasts.measure.str.startswith(f"{outcome}_rate_")]
        if "effect" in here:
            here = here.loc[here.effect == "main"]
        label = (here.knob + "=" + here.level) if "knob" in here else here.variant
        panels = list(dict.fromkeys(label))
        rows = -(-len(panels) // COLUMNS)
        fig, axes = plt.subplots(rows, min(COLUMNS, len(panels)), squeeze=False, sharex=True, layout="constrained",
                                 figsize=(3.2 * min(COLUMNS, len(panels)) + 1, 2.6 * rows + 1))
        fig.suptitle(f"each effect along the skill ladder, {n} players:\nshift of every seat's {outcome} rate (pp), "
                     "95% intervals\n(hollow: does not survive Holm correction)")
        x = np.arange(len(rungs))
        for ax, name in zip(axes.flat, panels):
            part = here.loc[label == name]
            for s in range(n):
                seat = part.loc[part.measure == f"{outcome}_rate_{s}"].set_index("policy").reindex(list(rungs))
                est = 100 * seat.estimate.to_numpy(float)
                err = 100 * np.clip([seat.estimate - seat.lo, seat.hi - seat.estimate], 0, None)
                at = x + 0.08 * (s - (n - 1) / 2)
                ax.errorbar(at, est, yerr=err, color=f"C{s % 10}", lw=1, capsize=2, label=f"seat {s}")
                kept = seat.survives.fillna(False).astype(bool).to_numpy()
                ax.scatter(at[~kept], est[~kept], s=14, facecolors="white", edgecolors=f"C{s % 10}", zorder=3)
            ax.axhline(0, color="grey", lw=0.8)
            ax.set(title=name, xticks=x)
            ax.set_xticklabels(rungs, rotation=30, ha="right", fontsize=7)
        for ax in list(axes.flat)[len(panels):]:
            ax.set_visible(False)
        axes[0, 0].legend(fontsize=7)
        atomic_write(folder / file, lambda p: fig.savefig(p, format="png", dpi=100))
        plt.close(fig)
        written.append(file)
    return written
