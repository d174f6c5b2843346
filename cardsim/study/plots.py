"""The study's PNG plots, drawn from ``summary.csv`` rows, the length histograms and ``effects.csv``.

Per policy, one panel per player count: the outcome rate by seat in % with Wilson
intervals (variants side by side), the game-length distributions per variant, the
differences against the baseline with their intervals (rates in percentage points; a
variant with another deck is marked unpaired), and each variant's fairness. A sweep
adds its rates and lengths against the knob's value, a sweep or factorial the chart of
its effects; a factorial's many variants are shown by these instead of side by side. Matplotlib with
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
from cardsim.study.design import Design  # noqa: E402
from cardsim.study.stats import Measures  # noqa: E402
from cardsim.study.storage import atomic_write  # noqa: E402

PANEL = (4.2, 3.4)
"""Inches per panel (width, height)."""
MIN_WIDTH = 8.0
"""Inches: room for the two-line title and the legend beside a single panel."""


def render(summary: pd.DataFrame, histograms: pd.DataFrame | None, m: Measures, baseline: str, folder: Path,
           unpaired: tuple[str, ...] = (), design: Design | None = None,
           effects: pd.DataFrame | None = None) -> list[str]:
    """Write every plot of the study into ``folder`` (``histograms``: ``stats.length_histograms``;
    None draws only the figures of ``summary`` and ``effects``; ``unpaired``: the variants with
    another deck than the baseline's; ``design`` and ``effects``: a sweep's or factorial's); return
    the file names, in ``names`` order. A factorial's many variants are shown by the effects and
    fairness figures instead of the figures by variant; a summary without fairness columns (an
    earlier cardsim's) draws no fairness figure."""
    colors = {v: f"C{i % 10}" for i, v in enumerate(summary.variant.unique())}  # one colour per variant
    slugs = _slugs(list(summary.policy.unique()))
    kind = design.kind if design is not None else None
    written = []
    for policy, rows in summary.groupby("policy", sort=False):
        tag = f"{rows.game.iloc[0]}, policy {policy}, {int(rows.games.max()):,} games per cell"
        figures = {}
        if kind != "factorial":
            figures[f"{m.outcome}_by_seat"] = lambda: _outcome_by_seat(rows, m.outcome, tag, colors)
            if histograms is not None:
                figures["length"] = lambda: _lengths(rows, histograms.loc[histograms.policy == policy], m.lengths,
                                                     tag, colors)
            if rows.variant.nunique() > 1:
                figures["paired"] = lambda: _paired(rows.loc[rows.variant != baseline], m, baseline, tag, colors,
                                                    unpaired)
        if f"{m.outcome}_tv" in rows.columns:
            figures["fairness"] = lambda: fairness_chart(rows, m, tag)
        if kind == "sweep":
            figures["knob"] = lambda: knob_rates(rows, design, m, tag)
        if kind is not None and effects is not None:
            figures["effects"] = lambda: effects_chart(effects.loc[effects.policy == policy], m, tag)
        for name, draw in figures.items():
            file = f"{name}_{slugs[policy]}.png"
            testhooks.pause("plot")
            fig = draw()
            atomic_write(folder / file, lambda p: fig.savefig(p, format="png", dpi=100))
            plt.close(fig)
            written.append(file)
    return written


def names(policies: list[str], outcome: str, variants: int, kind: str | None = None,
          fairness: bool = True) -> list[str]:
    """The plot files of a study with these cell policies (in order), this many variants, a sweep's
    or factorial's ``kind`` (None: named variants) and, with ``fairness``, the fairness figures."""
    slugs = _slugs(policies)
    kinds = [f"{outcome}_by_seat", "length", *(["paired"] if variants > 1 else [])] if kind != "factorial" else []
    kinds += [*(["fairness"] if fairness else []), *(["knob"] if kind == "sweep" else []),
              *(["effects"] if kind else [])]
    return [f"{k}_{slugs[p]}.png" for p in policies for k in kinds]


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


def knob_rates(rows: pd.DataFrame, design: Design, m: Measures, tag: str):
    """A sweep: each seat's outcome rate (Wilson 95%) and the mean lengths against the knob's
    value, one column of panels per player count (the values in the design's order)."""
    knob = design.knobs[0]
    values = list(design.levels[knob])
    names = {design.cells[v][0]: v for v in design.cells}
    players = sorted(rows.players.unique())
    fig, axes = _panels(1 + bool(m.lengths), players, f"{m.outcome} rate and length against {knob} "
                                                      f"(base {design.reference[knob]}; 95% intervals)\n{tag}")
    x = np.arange(len(values))
    for col, n in enumerate(players):
        here = rows.loc[rows.players == n].set_index("variant").reindex([names[v] for v in values])
        top = axes[0, col]
        for s in range(n):
            mean = 100 * here[f"{m.outcome}_rate_{s}"].to_numpy(float)
            err = 100 * np.clip([here[f"{m.outcome}_rate_{s}"] - here[f"{m.outcome}_lo_{s}"],
                                 here[f"{m.outcome}_hi_{s}"] - here[f"{m.outcome}_rate_{s}"]], 0, None)
            top.errorbar(x, mean, yerr=err, marker="o", capsize=3, label=f"seat {s}", color=f"C{s % 10}")
        top.axhline(100 / n, color="grey", lw=0.8, ls=":")
        top.set(title=f"{n} players", xticks=x, xticklabels=values, xlabel=knob)
        if m.lengths:
            bottom = axes[1, col]
            for i, c in enumerate(m.lengths):
                bottom.plot(x, here[f"{c}_mean"].to_numpy(float), marker="s", label=f"mean {c}", color=f"C{i}",
                            ls="--")
            bottom.set(xticks=x, xticklabels=values, xlabel=knob, ylabel="mean length (finished games)")
            bottom.legend(fontsize="small")
    axes[0, 0].set_ylabel(f"{m.outcome} rate (%)")
    _seat_legend(fig, axes[0])
    return fig


def effects_chart(table: pd.DataFrame, m: Measures, tag: str):
    """Every main effect and two-knob interaction (``effects.csv`` rows of one policy) with its
    95% interval: seat rates in percentage points (one colour per seat), then each length."""
    players = sorted(table.players.unique())
    labels = list(dict.fromkeys(_effect_label(r) for r in table.itertuples()))
    rows = [f"{m.outcome}_rate"] + [f"{c}_mean" for c in m.lengths]
    height = 0.25 * len(labels) + 1.2
    fig, axes = plt.subplots(len(rows), len(players), squeeze=False, sharey=True, layout="constrained",
                             figsize=(_width(labels, players), height * len(rows) + 1.2))
    fig.suptitle(f"main effects (against the base's level) and two-knob interactions, paired 95% intervals\n{tag}")
    y = np.arange(len(labels))[::-1]
    for col, n in enumerate(players):
        here = table.loc[table.players == n]
        for row, measure in enumerate(rows):
            ax = axes[row, col]
            series = ([(f"{measure}_{s}", f"seat {s}", f"C{s % 10}", 100) for s in range(n)]
                      if row == 0 else [(measure, measure.removesuffix("_mean"), "k", 1)])
            for i, (name, label, color, scale) in enumerate(series):
                part = here.loc[here.measure == name]
                at = y[[labels.index(_effect_label(r)) for r in part.itertuples()]] + 0.6 * (i + 0.5) / len(series) - 0.3
                mean = scale * part.estimate.to_numpy(float)
                err = scale * np.clip([part.estimate - part.lo, part.hi - part.estimate], 0, None)
                ax.errorbar(mean, at, xerr=err, fmt="o", ms=3, capsize=2, color=color, label=label)
            ax.axvline(0, color="grey", lw=0.8)
            ax.set(yticks=y, yticklabels=labels, title=f"{n} players" if row == 0 else "",
                   xlabel=f"effect on {m.outcome} rate (pp)" if row == 0 else f"effect on mean {series[0][1]}")
    _seat_legend(fig, axes[0])
    return fig


def fairness_chart(rows: pd.DataFrame, m: Measures, tag: str):
    """Each variant's fairness per player count: the spread (max - min seat rate) and the
    total-variation distance from equal seats, in percentage points with exact 95% intervals."""
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    fig, axes = plt.subplots(1, len(players), squeeze=False, sharey=True, layout="constrained",
                             figsize=(_width(variants, players), 0.3 * len(variants) + 2.4))
    fig.suptitle(f"fairness of the seats' {m.outcome} rates, exact 95% intervals\n{tag}")
    y = np.arange(len(variants))[::-1]
    for ax, n in zip(axes[0], players):
        here = rows.loc[rows.players == n].set_index("variant").reindex(variants)
        for i, (name, label, color) in enumerate([("spread", "spread (max - min rate)", "C0"),
                                                  ("tv", "total-variation distance", "C3")]):
            mean = 100 * here[f"{m.outcome}_{name}"].to_numpy(float)
            err = 100 * np.clip([here[f"{m.outcome}_{name}"] - here[f"{m.outcome}_{name}_lo"],
                                 here[f"{m.outcome}_{name}_hi"] - here[f"{m.outcome}_{name}"]], 0, None)
            ax.errorbar(mean, y + 0.15 - 0.3 * i, xerr=err, fmt="o", ms=4, capsize=2, color=color, label=label)
        ax.set(title=f"{n} players", yticks=y, yticklabels=variants, xlabel="percentage points")
        ax.set_xlim(left=0)
    _seat_legend(fig, axes[0], title=None, where="outside lower center")
    return fig


def _effect_label(r) -> str:
    main = f"{r.knob}={r.level}"
    return main if r.effect == "main" else f"{main} × {r.knob_b}={r.level_b}"


def _width(labels: list[str], players: list[int]) -> float:
    """Inches: the panels plus room for the longest y tick label."""
    return max(MIN_WIDTH, PANEL[0] * len(players) + 0.075 * max(map(len, labels)) + 0.5)


def _seat_legend(fig, axes, title: str | None = "seat", where: str = "outside right upper") -> None:
    """One legend for the figure from the panel that drew the most series."""
    handles, labels = max((ax.get_legend_handles_labels() for ax in axes), key=lambda hl: len(hl[1]))
    fig.legend(handles, labels, title=title, loc=where, fontsize="small", ncols=1 if "right" in where else 2)
