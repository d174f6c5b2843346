"""The study's PNG plots, drawn from ``summary.csv`` rows and the length histograms.

Three figures per policy, one panel per player count: the outcome rate by seat with
Wilson intervals (variants side by side), the game-length distributions per variant,
and the paired differences against the baseline with their intervals. Matplotlib
with the Agg backend; nothing here computes a statistic that ``stats`` does not.
"""
from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.study.stats import Measures  # noqa: E402
from cardsim.study.storage import atomic_write  # noqa: E402

PANEL = (4.2, 3.4)
"""Inches per panel (width, height)."""
MIN_WIDTH = 8.0
"""Inches: room for the two-line title and the legend beside a single panel."""


def render(summary: pd.DataFrame, histograms: pd.DataFrame, m: Measures, baseline: str, folder: Path) -> list[str]:
    """Write every plot of the study into ``folder`` (``histograms``: ``stats.length_histograms``);
    return the file names."""
    colors = {v: f"C{i % 10}" for i, v in enumerate(summary.variant.unique())}  # one colour per variant
    written = []
    for policy, rows in summary.groupby("policy", sort=False):
        tag = f"{rows.game.iloc[0]}, policy {policy}, {int(rows.games.max()):,} games per cell"
        figures = {f"{m.outcome}_by_seat": _outcome_by_seat(rows, m.outcome, tag, colors),
                   "length": _lengths(rows, histograms.loc[histograms.policy == policy], m.lengths, tag, colors)}
        if rows.variant.nunique() > 1:
            figures["paired"] = _paired(rows.loc[rows.variant != baseline], m, baseline, tag, colors)
        for name, fig in figures.items():
            file = f"{name}_{_slug(policy)}.png"
            atomic_write(folder / file, lambda p: fig.savefig(p, format="png", dpi=100))
            plt.close(fig)
            written.append(file)
    return written


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def _panels(rows: int, players: list[int], title: str):
    fig, axes = plt.subplots(rows, len(players), squeeze=False, sharey="row",
                             figsize=(max(MIN_WIDTH, PANEL[0] * len(players)), PANEL[1] * rows + 0.8), layout="constrained")
    fig.suptitle(title)
    return fig, axes


def _legend(fig, axes) -> None:
    """One legend for the figure, with every variant that any panel drew."""
    seen = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    fig.legend(seen.values(), seen.keys(), title="variant", loc="outside right upper", fontsize="small")


def _side_by_side(ax, x: np.ndarray, i: int, k: int, mean, lo, hi, label: str, color: str, bars: bool) -> None:
    """Series ``i`` of ``k`` at positions ``x``: bars or points with interval whiskers."""
    width = 0.8 / k
    pos = x - 0.4 + width * (i + 0.5)
    mean = np.asarray(mean, dtype=float)
    err = np.clip([mean - np.asarray(lo, dtype=float), np.asarray(hi, dtype=float) - mean], 0, None)  # rounding
    if bars:
        ax.bar(pos, mean, width, yerr=err, capsize=2, label=label, color=color)
    else:
        ax.errorbar(pos, mean, yerr=err, fmt="o", capsize=3, label=label, color=color)


def _outcome_by_seat(rows: pd.DataFrame, outcome: str, tag: str, colors: dict[str, str]):
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    fig, axes = _panels(1, players, f"{outcome} rate by seat (Wilson 95% intervals)\n{tag}")
    for ax, n in zip(axes[0], players):
        seats = np.arange(n)
        for i, v in enumerate(variants):
            r = rows.loc[(rows.variant == v) & (rows.players == n)].iloc[0]
            _side_by_side(ax, seats, i, len(variants), *([r[f"{outcome}_{s}_{j}"] for j in seats]
                                                         for s in ("rate", "lo", "hi")), v, colors[v], bars=True)
        ax.axhline(1 / n, color="grey", lw=0.8, ls=":")
        ax.set(title=f"{n} players", xlabel="seat (0 = dealer)", xticks=seats)
    axes[0, 0].set_ylabel(f"{outcome} rate")
    _legend(fig, axes)
    return fig


def _lengths(rows: pd.DataFrame, histograms: pd.DataFrame, lengths: tuple[str, ...], tag: str,
             colors: dict[str, str]):
    players = sorted(rows.players.unique())
    fig, axes = _panels(len(lengths), players, f"game length of finished games\n{tag}")
    for row, c in zip(axes, lengths):
        for ax, n in zip(row, players):
            here = histograms.loc[(histograms.players == n) & (histograms.measure == c)]
            if here.empty:
                continue
            for v, bins in here.groupby("variant", sort=False):
                ax.stairs(bins.density, np.append(bins.left, bins.right.iloc[-1]), label=v, color=colors[v])
            ax.set(title=f"{n} players", xlabel=c, ylabel="density")
    _legend(fig, axes)
    return fig


def _paired(rows: pd.DataFrame, m, baseline: str, tag: str, colors: dict[str, str]):
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    fig, axes = _panels(2, players, f"paired difference against {baseline} (95% intervals)\n{tag}")
    for col, n in enumerate(players):
        seats = np.arange(n)
        top, bottom = axes[0, col], axes[1, col]
        for i, v in enumerate(variants):
            r = rows.loc[(rows.variant == v) & (rows.players == n)].iloc[0]
            _side_by_side(top, seats, i, len(variants), *([r[f"{m.outcome}_diff{s}_{j}"] for j in seats]
                                                          for s in ("", "_lo", "_hi")), v, colors[v], bars=False)
            _side_by_side(bottom, np.arange(len(m.lengths)), i, len(variants),
                          *([r[f"{c}_diff{s}"] for c in m.lengths] for s in ("", "_lo", "_hi")), v, colors[v],
                          bars=False)
        for ax in (top, bottom):
            ax.axhline(0, color="grey", lw=0.8)
        top.set(title=f"{n} players", xlabel="seat (0 = dealer)", xticks=seats)
        bottom.set(xlabel="mean game length", xticks=np.arange(len(m.lengths)), xticklabels=m.lengths)
    axes[0, 0].set_ylabel(f"{m.outcome} rate − {baseline}")
    axes[1, 0].set_ylabel(f"mean length − {baseline}")
    _legend(fig, axes)
    return fig
