"""The study's PNG plots, drawn from ``summary.csv`` rows, the length histograms and ``effects.csv``.

One idea per figure, each drawn at the width of a page (``WIDTH`` inches at ``DPI``: it
is shown at its own size in the documentation's column and in ``report.html``), small
multiples wrapped into rows of at most three panels. Per policy:

- ``<outcome>_by_seat``: the outcome rate of each seat, a line per variant, Wilson 95%
  intervals as whiskers, a panel per player count (the dotted line: equal seats);
- ``length``: the distribution (ECDF) of the first length measure of the finished games,
  a line per variant, panels sharing the probability axis (from the histograms);
- ``paired``: the forest plot of the paired differences against the baseline, a row per
  variant and player count: each seat's rate (pp) and each mean length, 95% intervals
  (a variant with another deck is marked unpaired);
- ``means``: with several player counts, each mean length against the players, a line
  per variant;
- ``fairness``: each variant's spread and total-variation distance, panels sharing the axis;
- a sweep's ``knob``: rates and mean lengths against the knob's value;
- a sweep's or factorial's ``effects``: the heatmap of the main effects and two-knob
  interactions, on each seat's rate and on the mean length, the value written in the cell
  whose interval excludes 0.

A factorial's many variants are shown by ``effects`` and ``fairness`` instead of the
figures by variant. Matplotlib with the Agg backend draws the same bytes from the same
rows (``verify`` re-draws and compares them); only ``length`` needs the histograms of
``games.parquet``. Drawing is quick: a few artists per series (no loop over points),
``DPI`` 100; a run with several jobs draws its figures in as many forked processes at once
(``render``'s ``jobs``), the same bytes. ``precision_chart`` draws a ``--precision`` run's steps from its manifest
(``report.html``). Nothing here computes a statistic that ``stats`` does not.
"""
from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import re
import signal
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardsim.core.processes import die_with_parent, stop_signals_blocked, unblock_stop_signals  # noqa: E402
from cardsim.study.hooks import NONE, Hooks  # noqa: E402
from cardsim.study.plan.design import Design  # noqa: E402
from cardsim.study.report import layout  # noqa: E402
from cardsim.study.report.stats import Measures  # noqa: E402
from cardsim.study.folder.storage import atomic_write  # noqa: E402

WIDTH = 9.6
"""Inches: a figure's width, 960 pixels at ``DPI``, the documentation's content column."""
DPI = 100
COLUMNS = 3
"""Panels per row of a figure of small multiples."""
PANEL_HEIGHT = 2.6
"""Inches per row of panels."""
INTERVALS = "95% intervals (whiskers; narrower than a dot where they do not show)"


def render(summary: pd.DataFrame, histograms: pd.DataFrame | None, m: Measures, baseline: str, folder: Path,
           unpaired: tuple[str, ...] = (), design: Design | None = None,
           effects: pd.DataFrame | None = None, hooks: Hooks = NONE, jobs: int = 1,
           meanwhile: Callable[[], None] = lambda: None) -> list[str]:
    """Write every plot of the study into ``folder`` (``histograms``: ``stats.length_histograms``;
    None draws only the figures of ``summary`` and ``effects``; ``unpaired``: the variants with
    another deck than the baseline's; ``design`` and ``effects``: a sweep's or factorial's); return
    the file names, in ``names`` order. A summary without fairness columns (an earlier cardsim's)
    draws no fairness figure. ``hooks``: a test's seams (``cardsim.study.hooks``). ``jobs`` > 1 draws the
    figures in that many forked processes at once (``_draw_all``): the same bytes, in less wall time.
    ``meanwhile``: what this process does while they draw (with one process: before drawing)."""
    colors = {v: f"C{i % 10}" for i, v in enumerate(summary.variant.unique())}  # one colour per variant
    slugs = _slugs(list(summary.policy.unique()))
    kind = design.kind if design is not None else None
    todo: list[tuple[str, Any, tuple]] = []
    for policy, rows in summary.groupby("policy", sort=False):
        tag = f"{rows.game.iloc[0]}, policy {policy}, {int(rows.games.max()):,} games per cell"
        figures: dict[str, tuple] = {}
        if kind != "factorial":
            figures[f"{m.outcome}_by_seat"] = (outcome_by_seat, (rows, m.outcome, tag, colors))
            if histograms is not None:
                figures["length"] = (length_ecdf, (rows, histograms.loc[histograms.policy == policy],
                                                   m.lengths, tag, colors))
            if rows.variant.nunique() > 1:
                figures["paired"] = (forest, (rows.loc[rows.variant != baseline], m, baseline, tag, colors,
                                              unpaired))
            if rows.players.nunique() > 1 and m.lengths and f"{m.outcome}_tv" in rows.columns:  # as ``names``
                figures["means"] = (means_by_players, (rows, m.lengths, tag, colors))
        if f"{m.outcome}_tv" in rows.columns:
            figures["fairness"] = (fairness_chart, (rows, m, tag))
        if kind == "sweep":
            figures["knob"] = (knob_rates, (rows, design, m, tag))
        if kind is not None and effects is not None:
            figures["effects"] = (effects_heatmap, (effects.loc[effects.policy == policy], m, tag))
        todo += [(f"{name}_{slugs[policy]}.png", draw, args) for name, (draw, args) in figures.items()]
    _draw_all(folder, todo, jobs, hooks, meanwhile)
    return [file for file, _, _ in todo]


def _draw_all(folder: Path, todo: list[tuple[str, Any, tuple]], jobs: int, hooks: Hooks,
              meanwhile: Callable[[], None]) -> None:
    """Draw and write each ``(file, draw, args)``: here, after ``meanwhile``, or with ``jobs`` > 1 (and
    ``fork``) in a pool of forked processes, which inherit this one's imports and fonts, so a figure costs
    no start-up, while this process does ``meanwhile``. Each child dies with this process and ignores
    Ctrl-C (``die_with_parent``); leaving early (an error, Ctrl-C) kills the pool. A figure's bytes do not
    depend on the process that draws it."""
    jobs = min(jobs, len(todo))
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        meanwhile()
        for file, draw, args in todo:
            hooks.pause("plot")
            _draw_file(folder / file, draw, args)
        return
    with drawing_pool(jobs) as pool:
        pending = []
        for file, draw, args in todo:
            hooks.pause("plot")
            pending.append(pool.apply_async(_draw_file, (folder / file, draw, args)))
        meanwhile()
        for result in pending:
            result.get()
        pool.close()  # the drawers end of themselves; leaving early, ``with`` kills them
        pool.join()


@contextmanager
def drawing_pool(jobs: int) -> Iterator[Any]:
    """A pool of ``jobs`` forked drawing processes (``_drawer``), terminated when the block is left. They are
    forked with SIGINT and SIGTERM held back (``stop_signals_blocked``): a drawer that the pool terminates while
    it starts (the run stopped meanwhile) dies quietly instead of running the run's handler it inherited."""
    with ExitStack() as stack:
        with stop_signals_blocked():
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(
                jobs, initializer=_drawer, initargs=(os.getpid(),)))
        yield pool


def _drawer(parent: int) -> None:
    """A drawing process: dies with ``parent``, ignores Ctrl-C, and is stopped by SIGTERM (not the
    run's handler, inherited by the fork, that turns it into an interrupt); then the two may arrive."""
    die_with_parent(parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    unblock_stop_signals()


STYLE = {"axes.titley": 1.0}
"""Panel titles at a fixed height: matplotlib otherwise moves each one clear of top-side tick labels,
which these plots do not draw, at a tenth of a figure's drawing time."""


def _draw_file(path: Path, draw: Any, args: tuple) -> None:
    with matplotlib.rc_context(STYLE):
        fig = draw(*args)
        atomic_write(path, lambda p: fig.savefig(p, format="png", dpi=DPI))
    plt.close(fig)


def names(policies: list[str], outcome: str, variants: int, kind: str | None = None,
          fairness: bool = True, players: dict[str, int] | None = None) -> list[str]:
    """The plot files of a study with these cell policies (in order), this many variants, a sweep's or
    factorial's ``kind`` (None: named variants), ``players``: the number of player counts of each
    policy's cells, and, with ``fairness``, the fairness figures (and the mean lengths by players:
    both came with the fairness columns)."""
    slugs = _slugs(policies)
    out = []
    for p in policies:
        kinds = ([f"{outcome}_by_seat", "length", *(["paired"] if variants > 1 else []),
                  *(["means"] if (players or {}).get(p, 1) > 1 and fairness else [])] if kind != "factorial" else [])
        kinds += [*(["fairness"] if fairness else []), *(["knob"] if kind == "sweep" else []),
                  *(["effects"] if kind else [])]
        out += [f"{k}_{slugs[p]}.png" for k in kinds]
    return out


def _slugs(policies: list[str]) -> dict[str, str]:
    """A file-name part per policy: its letters and digits, made unique by a short hash where two agree."""
    plain = {p: re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-") for p in policies}
    clash = {s for s in plain.values() if list(plain.values()).count(s) > 1}
    return {p: s if s not in clash else f"{s}-{hashlib.sha256(p.encode()).hexdigest()[:6]}" for p, s in plain.items()}


def _grid(panels: int, title: str, height: float = PANEL_HEIGHT, sharex: bool | str = False,
          sharey: bool | str = False, legend_rows: int = 1):
    """A figure ``WIDTH`` wide with ``panels`` panels in rows of ``COLUMNS`` (the unused ones hidden)."""
    cols = min(COLUMNS, panels)
    rows = math.ceil(panels / cols)
    fig, axes = plt.subplots(rows, cols, squeeze=False, sharex=sharex, sharey=sharey,
                             figsize=(WIDTH, height * rows + 0.7 + 0.25 * legend_rows))
    for ax in axes.flat[panels:]:
        ax.set_visible(False)
    layout.title(fig, title)
    return fig, list(axes.flat[:panels])


def _legend(fig, axes, title: str | None = "variant") -> None:
    """One legend below the panels, with every series any panel drew (in the order first drawn); then the
    panels placed around it (``layout.fit``)."""
    seen: dict[str, Any] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    legend = fig.legend(seen.values(), seen.keys(), title=title, loc="lower center", fontsize="small",
                        ncols=min(len(seen), 5), title_fontsize="small")
    layout.fit(fig, legend)


def _whiskers(mean, lo, hi) -> np.ndarray:
    mean, lo, hi = (np.asarray(v, dtype=float) for v in (mean, lo, hi))
    return np.clip([mean - lo, hi - mean], 0, None)  # rounding


def _legend_rows(n: int) -> int:
    return math.ceil(n / 5)


def outcome_by_seat(rows: pd.DataFrame, outcome: str, tag: str, colors: dict[str, str]):
    """Each seat's outcome rate (%), a line per variant with its Wilson 95% intervals, a panel per player count."""
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    fig, axes = _grid(len(players), f"{outcome} rate by seat, Wilson {INTERVALS}\n{tag}",
                      legend_rows=_legend_rows(len(variants)))
    for ax, n in zip(axes, players):
        seats = np.arange(n)
        here = rows.loc[rows.players == n].set_index("variant")
        shift = 0.3 * (np.arange(len(variants)) / max(len(variants) - 1, 1) - 0.5) if len(variants) > 1 else [0]
        for i, v in enumerate(variants):
            if v not in here.index:
                continue
            r = here.loc[v]
            mean, lo, hi = (100 * r[[f"{outcome}_{s}_{j}" for j in seats]].to_numpy(float) for s in ("rate", "lo", "hi"))
            ax.errorbar(seats + shift[i], mean, yerr=_whiskers(mean, lo, hi), fmt="o-", ms=3.5, lw=1, capsize=2,
                        label=v, color=colors[v])
        ax.axhline(100 / n, color="grey", lw=0.8, ls=":")
        ax.set(title=f"{n} players", xticks=seats)
        ax.set_xlabel("seat (0 = dealer)", fontsize="small")
    axes[0].set_ylabel(f"{outcome} rate (%)")
    _legend(fig, axes)
    return fig


def length_ecdf(rows: pd.DataFrame, histograms: pd.DataFrame, lengths: tuple[str, ...], tag: str,
                colors: dict[str, str]):
    """The ECDF of the first length measure of the finished games, a line per variant, a panel per player
    count (from the histograms: the share of games at most each bin's right edge), the x axis up to the
    99.5th percentile of the longest variant, or to the histograms' last bin of the longest games. A length
    the rules fix (one value in every game of a panel, as Molotow's turns) is drawn as its single step in
    the middle of the panel, and said in words."""
    measure = lengths[0]
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    fig, axes = _grid(len(players), f"distribution of {measure} in the finished games (ECDF)\n{tag}", sharey=True,
                      legend_rows=_legend_rows(len(variants)))
    for ax, n in zip(axes, players):
        here = histograms.loc[(histograms.players == n) & (histograms.measure == measure)]
        held = here.loc[here.density > 0]
        fixed = len(held) and held.right.max() - held.left.min() <= 1  # one value in every game
        value = (held.left.min() + held.right.max()) / 2 if fixed else 0.0
        right = 0.0
        for v, bins in here.groupby("variant", sort=False):
            if fixed:  # the step at the value itself, not at its bin's right edge
                x, cdf = np.array([value - 2, value, value + 2]), np.array([1.0, 1.0])
            else:
                cdf = np.cumsum(bins.density.to_numpy(float) * (bins.right - bins.left).to_numpy(float))
                x = np.append(bins.left.iloc[0], bins.right.to_numpy(float))
                right = max(right, x[1:][np.searchsorted(cdf, 0.995 * cdf[-1])] if len(cdf) else 0)
            ax.step(x, np.append(0.0, cdf), where="post", lw=1.2, label=v, color=colors[v])
        if fixed:  # ticks clear of the panel's edges, where a neighbour's would meet them
            ax.set(xlim=(value - 2, value + 2), xticks=[value - 1, value, value + 1])
            ax.text(0.5, 0.5, f"every finished game: {value:g} {measure}", transform=ax.transAxes, ha="center",
                    va="center", fontsize="small", bbox={"facecolor": "white", "edgecolor": "#ccc"})
        elif right:  # not into the last bin where it holds the longest 0.5% (``stats.TAIL``)
            edges = np.unique(np.append(here.left.to_numpy(float), here.right.to_numpy(float)))
            tail = len(edges) > 2 and edges[-1] - edges[-2] > edges[1] - edges[0]
            ax.set_xlim(edges[0], min(right, edges[-2]) if tail else right)
        ax.set(title=f"{n} players", ylim=(0, 1))
        ax.set_xlabel(measure, fontsize="small")
        ax.grid(alpha=0.3, lw=0.5)
    axes[0].set_ylabel("share of games ≤ x")
    _legend(fig, axes)
    return fig


def forest(rows: pd.DataFrame, m: Measures, baseline: str, tag: str, colors: dict[str, str],
           unpaired: tuple[str, ...]):
    """The paired differences against ``baseline``, a row per (player count, variant): each seat's outcome
    rate in pp (a colour per seat) and each mean length, with 95% intervals."""
    order = rows.sort_values("players", kind="stable")
    label = [f"{n}p  {v}" + (" (unpaired: another deck)" if v in unpaired else "") for n, v in zip(order.players, order.variant)]
    y = np.arange(len(order))[::-1].astype(float)
    panels = 1 + len(m.lengths)
    widths = [2.2] + [1] * len(m.lengths)
    kind = "paired difference" if not set(unpaired) & set(rows.variant) else "difference (paired where the deck is the same)"
    fig, axes = plt.subplots(1, panels, sharey=True, width_ratios=widths, squeeze=False,
                             figsize=(WIDTH, 0.24 * len(order) + 1.9))
    axes = list(axes[0])
    layout.title(fig, f"{kind} against {baseline} (Δ = variant − {baseline}), {INTERVALS}\n{tag}")
    seats = max(order.players)
    offsets = 0.6 * (np.arange(seats) / max(seats - 1, 1) - 0.5)
    for s in range(seats):
        mean, lo, hi = (100 * order[f"{m.outcome}_diff{x}_{s}"].to_numpy(float) for x in ("", "_lo", "_hi"))
        axes[0].errorbar(mean, y + offsets[s], xerr=_whiskers(mean, lo, hi), fmt="o", ms=2.5, lw=0.9, capsize=1.5,
                         color=f"C{s % 10}", label=f"seat {s}")
    axes[0].set_xlabel(f"Δ {m.outcome} rate (pp)")
    for ax, c in zip(axes[1:], m.lengths):
        mean, lo, hi = (order[f"{c}_diff{x}"].to_numpy(float) for x in ("", "_lo", "_hi"))
        ax.errorbar(mean, y, xerr=_whiskers(mean, lo, hi), fmt="s", ms=3, lw=0.9, capsize=1.5, color="k")
        ax.set_xlabel(f"Δ mean {c}")
    for ax in axes:
        ax.axvline(0, color="grey", lw=0.8)
        for b in np.flatnonzero(np.diff(order.players.to_numpy()))[::1]:  # a line between player counts
            ax.axhline(y[b] - 0.5, color="#ccc", lw=0.6)
        ax.grid(axis="x", alpha=0.3, lw=0.5)
    axes[0].set(yticks=y, yticklabels=label, ylim=(-0.6, len(order) - 0.4))
    axes[0].tick_params(axis="y", labelsize="small")
    _legend(fig, axes[:1], title=None)
    return fig


def means_by_players(rows: pd.DataFrame, lengths: tuple[str, ...], tag: str, colors: dict[str, str]):
    """Each mean length of the finished games against the number of players, a line per variant."""
    variants = list(rows.variant.unique())
    fig, axes = _grid(len(lengths), f"mean length of the finished games by players (the paired differences, "
                                    f"with intervals: paired_*.png)\n{tag}", height=3.0, sharex=True,
                      legend_rows=_legend_rows(len(variants)))
    for ax, c in zip(axes, lengths):
        for v in variants:
            here = rows.loc[rows.variant == v].sort_values("players")
            ax.plot(here.players, here[f"{c}_mean"], "o-", ms=3.5, lw=1.2, label=v, color=colors[v])
        ax.set(title=f"mean {c}", xticks=sorted(rows.players.unique()))
        ax.set_xlabel("players", fontsize="small")
        ax.grid(alpha=0.3, lw=0.5)
    _legend(fig, axes)
    return fig


def knob_rates(rows: pd.DataFrame, design: Design, m: Measures, tag: str):
    """A sweep: each seat's outcome rate (Wilson 95%) against the knob's value, a panel per player
    count (the values in the design's order), and each mean length in a last panel per player count."""
    knob = design.knobs[0]
    values = list(design.levels[knob])
    names_ = {design.cells[v][0]: v for v in design.cells}
    players = sorted(rows.players.unique())
    fig, axes = _grid(len(players) * (1 + bool(m.lengths)), f"{m.outcome} rate and mean length against {knob} "
                      f"(base {design.reference[knob]})\nWilson {INTERVALS}\n{tag}",
                      legend_rows=_legend_rows(max(players) + len(m.lengths)))
    x = np.arange(len(values))
    for i, n in enumerate(players):
        here = rows.loc[rows.players == n].set_index("variant").reindex([names_[v] for v in values])
        top = axes[i]
        for s in range(n):
            mean, lo, hi = (100 * here[f"{m.outcome}_{k}_{s}"].to_numpy(float) for k in ("rate", "lo", "hi"))
            top.errorbar(x, mean, yerr=_whiskers(mean, lo, hi), fmt="o-", ms=3.5, lw=1, capsize=2, label=f"seat {s}",
                         color=f"C{s % 10}")
        top.axhline(100 / n, color="grey", lw=0.8, ls=":")
        top.set(title=f"{n} players: {m.outcome} rate (%)", xticks=x, xticklabels=values)
        if m.lengths:
            bottom = axes[len(players) + i]
            for j, c in enumerate(m.lengths):
                bottom.plot(x, here[f"{c}_mean"].to_numpy(float), "s--", ms=3.5, label=f"mean {c}",
                            color=f"C{(max(players) + j) % 10}")
            bottom.set(title=f"{n} players: mean length", xticks=x, xticklabels=values)
        for ax in (top, *([bottom] if m.lengths else [])):
            ax.set_xlabel(knob, fontsize="small")
    _legend(fig, axes, title=None)
    return fig


def _effect_label(r) -> str:
    main = f"{r.knob}={r.level}"
    return main if r.effect == "main" else f"{main} × {r.knob_b}={r.level_b}"


def effects_heatmap(table: pd.DataFrame, m: Measures, tag: str):
    """Every main effect and two-knob interaction (``effects.csv`` rows of one policy), as a heatmap: a
    panel per player count of the effect on each seat's rate (pp, one colour scale for them all), and a
    panel of the effect on the first mean length at each player count. A cell whose 95% interval excludes
    0 shows its value; the others are pale. Colour: the sign and size of the effect (red: more often the
    outcome seat, purple: longer), on one scale for the seat panels and one for the lengths."""
    players = sorted(table.players.unique())
    keys = list(dict.fromkeys(_effect_label(r) for r in table.itertuples()))
    row_of = {label: i for i, label in enumerate(keys)}
    unpaired = {_effect_label(r) for r in table.itertuples() if not r.paired}
    labels = [f"{k} (unpaired: another deck)" if k in unpaired else k for k in keys]
    length = f"{m.lengths[0]}_mean" if m.lengths else None
    panels = len(players) + (length is not None)
    cols = 2 if panels > 1 else 1
    per_row = 0.19 * len(labels) + 0.9
    fig, axes = plt.subplots(math.ceil(panels / cols), cols, squeeze=False,
                             figsize=(WIDTH, per_row * math.ceil(panels / cols) + 1.0))
    flat = list(axes.flat)
    for ax in flat[panels:]:
        ax.set_visible(False)
    layout.title(fig, f"main effects (against the base's level) and two-knob interactions; the value shown where "
                      f"the paired 95% interval excludes 0\n{tag}")
    table = table.assign(row=[row_of[_effect_label(r)] for r in table.itertuples()],
                         clear=(table.lo > 0) | (table.hi < 0))
    seat_rows = table.loc[table.measure.str.startswith(f"{m.outcome}_rate_")]
    scale = max(1e-9, float(np.nanpercentile(100 * seat_rows.estimate.abs(), 98))) if len(seat_rows) else 1.0
    for ax, n in zip(flat, players):
        here = seat_rows.loc[seat_rows.players == n]
        seat = here.measure.str.rsplit("_", n=1).str[1].astype(int).to_numpy()
        _cells(ax, here.row.to_numpy(), seat, 100 * here.estimate.to_numpy(float), here.clear.to_numpy(),
                       len(labels), n, scale, "{:+.2f}")
        ax.set(title=f"{n} players: {m.outcome} rate (pp)", xticks=np.arange(n),
               xticklabels=[f"seat {s}" for s in range(n)])
        _effect_ticks(ax, labels, show=flat.index(ax) % cols == 0)
    if length is not None:
        ax = flat[len(players)]
        here = table.loc[table.measure == length]
        column = np.searchsorted(players, here.players.to_numpy())
        values = here.estimate.to_numpy(float)
        spread = max(1e-9, float(np.nanpercentile(np.abs(values), 98))) if len(values) else 1.0
        _cells(ax, here.row.to_numpy(), column, values, here.clear.to_numpy(), len(labels), len(players),
                       spread, "{:+.1f}", cmap="PuOr_r")
        ax.set(title=f"mean {m.lengths[0]}", xticks=np.arange(len(players)),
               xticklabels=[f"{n}p" for n in players])
        _effect_ticks(ax, labels, show=panels % cols == 1 or cols == 1)
    layout.fit(fig)
    return fig


def _cells(ax, rows: np.ndarray, columns: np.ndarray, values: np.ndarray, clear: np.ndarray, height: int,
           width: int, scale: float, text: str, cmap: str = "RdBu_r") -> None:
    """One heatmap (``values`` at ``rows`` x ``columns``, colour from -``scale`` to ``scale``), the clear cells'
    values written in them, the others pale."""
    grid = np.full((height, width), np.nan)
    grid[rows, columns] = values
    ax.imshow(grid, cmap=cmap, vmin=-scale, vmax=scale, aspect="auto", interpolation="nearest")
    pale = np.zeros((height, width, 4))
    pale[rows[~clear], columns[~clear]] = (1, 1, 1, 0.8)  # white over the cells whose interval holds 0
    ax.imshow(pale, aspect="auto", interpolation="nearest")
    for r, c, v in zip(rows[clear], columns[clear], values[clear]):
        ax.text(c, r, text.format(v), ha="center", va="center", fontsize=6.5,
                color="white" if abs(v) > 0.6 * scale else "black")


def _effect_ticks(ax, labels: list[str], show: bool) -> None:
    ax.set_yticks(np.arange(len(labels)), labels if show else [""] * len(labels), fontsize="x-small")
    ax.tick_params(axis="x", labelsize="small")


def fairness_chart(rows: pd.DataFrame, m: Measures, tag: str):
    """Each variant's fairness per player count: the spread (max - min seat rate) and the
    total-variation distance from equal seats, in percentage points with exact 95% intervals,
    the panels sharing both axes."""
    players = sorted(rows.players.unique())
    variants = list(rows.variant.unique())
    height = 0.2 * len(variants) + 1.2
    fig, axes = _grid(len(players), f"fairness of the seats' {m.outcome} rates, exact {INTERVALS}\n{tag}",
                      height=height, sharex=True, sharey=True)
    y = np.arange(len(variants))[::-1]
    for ax, n in zip(axes, players):
        here = rows.loc[rows.players == n].set_index("variant").reindex(variants)
        for i, (name, label, color) in enumerate([("spread", "spread (max − min rate)", "C0"),
                                                  ("tv", "total-variation distance", "C3")]):
            mean, lo, hi = (100 * here[f"{m.outcome}_{name}{k}"].to_numpy(float) for k in ("", "_lo", "_hi"))
            ax.errorbar(mean, y + 0.15 - 0.3 * i, xerr=_whiskers(mean, lo, hi), fmt="o", ms=3, lw=0.9, capsize=1.5,
                        color=color, label=label)
        ax.set(title=f"{n} players", yticks=y)
        ax.set_yticklabels(variants, fontsize="x-small")
        ax.set_xlabel("percentage points", fontsize="small")
        ax.grid(axis="x", alpha=0.3, lw=0.5)
    axes[0].set_xlim(left=0)
    _legend(fig, axes, title=None)
    return fig


def precision_chart(precision: dict[str, Any], title: str):
    """A ``--precision`` run's steps (its manifest's ``precision``): the widest seat-rate (or seat-contrast)
    half-width after each step against the games per cell, on log scales, with the target and the 1/√n line
    through the first step (where the rule aims its next step)."""
    steps = pd.DataFrame(precision["steps"])
    games, width = steps.games.to_numpy(float), steps.widest_half_width_pp.to_numpy(float)
    fig, ax = plt.subplots(layout="constrained", figsize=(WIDTH * 0.6, 3.4))
    span = np.geomspace(games[0], max(games[-1], precision["max_games"] if len(games) == 1 else games[-1]) * 1.2, 50)
    ax.plot(span, width[0] * np.sqrt(games[0] / span), color="grey", lw=0.8, ls="--", label="1/√n from the first step")
    of = " of a seat contrast" if precision.get("of") == "contrasts" else ""
    ax.plot(games, width, "o-", color="C0", label=f"widest 95% half-width{of} after the step")
    ax.axhline(precision["pp"], color="C3", lw=1, label=f"target ±{precision['pp']:g} pp")
    for g, w in zip(games, width):
        ax.annotate(f"{int(g):,}: ±{w:.2f}", (g, w), textcoords="offset points", xytext=(5, 5), fontsize="small")
    ax.set(xscale="log", yscale="log", xlabel="games per cell", ylabel="pp",
           title=f"{title}: ±{precision['pp']:g} pp " + ("reached" if precision["reached"] else "not reached")
           + f" in {len(games)} steps")
    ax.grid(alpha=0.3, lw=0.5, which="both")
    ax.legend(fontsize="small")
    return fig
