"""The study's PNG plots, drawn from ``summary.csv`` rows and the length histograms.

Three figures per policy, one panel per player count: the outcome rate by seat in %
with Wilson intervals (variants side by side), the game-length distributions per
variant, and the differences against the baseline with their intervals (rates in
percentage points; a variant with another deck is marked unpaired). Matplotlib with
the Agg backend draws the same bytes from the same rows (``verify`` re-draws and
compares them); the outcome and difference figures need only ``summary.csv``, the
length figures the histograms of ``games.parquet``. Nothing here computes a statistic
that ``stats`` does not.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.study import testhooks  # noqa: E402
from cardsim.study.stats import Measures  # noqa: E402
from cardsim.study.storage import atomic_write  # noqa: E402

PANEL = (4.2, 3.4)
"""Inches per panel (width, height)."""
MIN_WIDTH = 8.0
"""Inches: room for the two-line title and the legend beside a single panel."""


def render(summary: pd.DataFrame, histograms: pd.DataFrame | None, m: Measures, baseline: str, folder: Path,
           unpaired: tuple[str, ...] = ()) -> list[str]:
    """Write every plot of the study into ``folder`` (``histograms``: ``stats.length_histograms``;
    None draws only the figures of ``summary``; ``unpaired``: the variants with another deck than the
    baseline's); return the file names, in ``names`` order."""
    colors = {v: f"C{i % 10}" for i, v in enumerate(summary.variant.unique())}  # one colour per variant
    slugs = _slugs(list(summary.policy.unique()))
    written = []
    for policy, rows in summary.groupby("policy", sort=False):
        tag = f"{rows.game.iloc[0]}, policy {policy}, {int(rows.games.max()):,} games per cell"
        figures = {f"{m.outcome}_by_seat": lambda: _outcome_by_seat(rows, m.outcome, tag, colors)}
        if histograms is not None:
            figures["length"] = lambda: _lengths(rows, histograms.loc[histograms.policy == policy], m.lengths, tag,
                                                 colors)
        if rows.variant.nunique() > 1:
            figures["paired"] = lambda: _paired(rows.loc[rows.variant != baseline], m, baseline, tag, colors,
                                                unpaired)
        for name, draw in figures.items():
            file = f"{name}_{slugs[policy]}.png"
            testhooks.pause("plot")
            fig = draw()
            atomic_write(folder / file, lambda p: fig.savefig(p, format="png", dpi=100))
            plt.close(fig)
            written.append(file)
    return written


def names(policies: list[str], outcome: str, variants: int) -> list[str]:
    """The plot files of a study with these cell policies (in order) and this many variants."""
    slugs = _slugs(policies)
    kinds = [f"{outcome}_by_seat", "length", *(["paired"] if variants > 1 else [])]
    return [f"{kind}_{slugs[p]}.png" for p in policies for kind in kinds]


def _slugs(policies: list[str]) -> dict[str, str]:
    """A file-name part per policy: its letters and digits, made unique by a short hash where two agree."""
    plain = {p: re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-") for p in policies}
    clash = {s for s in plain.values() if list(plain.values()).count(s) > 1}
    return {p: s if s not in clash else f"{s}-{hashlib.sha256(p.encode()).hexdigest()[:6]}" for p, s in plain.items()}


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


def _side_by_side(ax, x: np.ndarray, i: int, k: int, mean, lo, hi, label: str, color: str, bars: bool,
                  scale: float = 1) -> None:
    """Series ``i`` of ``k`` at positions ``x``: bars or points with interval whiskers (values times ``scale``)."""
    width = 0.8 / k
    pos = x - 0.4 + width * (i + 0.5)
    mean, lo, hi = (scale * np.asarray(v, dtype=float) for v in (mean, lo, hi))
    err = np.clip([mean - lo, hi - mean], 0, None)  # rounding
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
                                                         for s in ("rate", "lo", "hi")), v, colors[v], bars=True,
                          scale=100)
        ax.axhline(100 / n, color="grey", lw=0.8, ls=":")
        ax.set(title=f"{n} players", xlabel="seat (0 = dealer)", xticks=seats)
    axes[0, 0].set_ylabel(f"{outcome} rate (%)")
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


def _paired(rows: pd.DataFrame, m, baseline: str, tag: str, colors: dict[str, str], unpaired: tuple[str, ...]):
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    unpaired = set(unpaired) & set(variants)
    label = {v: f"{v} (unpaired: another deck)" if v in unpaired else v for v in variants}
    kind = "paired difference" if not unpaired else "difference (paired where the deck is the same)"
    fig, axes = _panels(2, players, f"{kind} against {baseline} (95% intervals)\n{tag}")
    for col, n in enumerate(players):
        seats = np.arange(n)
        top, bottom = axes[0, col], axes[1, col]
        for i, v in enumerate(variants):
            r = rows.loc[(rows.variant == v) & (rows.players == n)].iloc[0]
            _side_by_side(top, seats, i, len(variants), *([r[f"{m.outcome}_diff{s}_{j}"] for j in seats]
                                                          for s in ("", "_lo", "_hi")), label[v], colors[v],
                          bars=False, scale=100)
            _side_by_side(bottom, np.arange(len(m.lengths)), i, len(variants),
                          *([r[f"{c}_diff{s}"] for c in m.lengths] for s in ("", "_lo", "_hi")), label[v], colors[v],
                          bars=False)
        for ax in (top, bottom):
            ax.axhline(0, color="grey", lw=0.8)
        top.set(title=f"{n} players", xlabel="seat (0 = dealer)", xticks=seats)
        bottom.set(xlabel="mean game length", xticks=np.arange(len(m.lengths)), xticklabels=m.lengths)
    axes[0, 0].set_ylabel(f"{m.outcome} rate − {baseline} (pp)")
    axes[1, 0].set_ylabel(f"mean length − {baseline}")
    _legend(fig, axes)
    return fig
