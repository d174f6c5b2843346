"""Where a study plot's panels go: margins measured from the text around them, without drawing.

Matplotlib's constrained layout finds the margins by laying out every artist of the figure
(each axis's ticks and labels) before the figure is drawn, which is then done again: a third
of a plot's time (issue 29). A study plot's text is known before it is drawn: the tick labels
(the locator's values through the formatter), the axis labels, the panel titles, the figure's
title and its legend. ``fit`` measures those strings with the Agg renderer's font metrics (no
layout, no drawing) and places a regular grid of panels with ``subplots_adjust``; the legend
goes below the panels, centred. It is an estimate in one respect: every x axis is taken to
hold one line of tick labels, which is what these plots draw.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties

EDGE = 0.08
"""Inches left empty at each edge of the figure."""
GAP = 0.12
"""Inches between the text of one panel and the next panel's."""
TICK = 7 / 72
"""Inches of a tick and its pad (3.5 points each, matplotlib's defaults)."""
LABEL_PAD = 4 / 72
TITLE_PAD = 6 / 72
TITLE_SIZE = "medium"
"""The font size of every study plot's title (``fig.suptitle``)."""


def title(fig: Figure, text: str) -> None:
    """The figure's title, its top ``EDGE`` below the figure's (matplotlib's default, 2% of the height,
    grows with a tall figure), a line wider than the figure wrapped between words."""
    width, height = fig.get_size_inches()
    size = FontProperties(size=TITLE_SIZE).get_size_in_points()
    renderer = fig.canvas.get_renderer()
    lines = [_wrap(line, width - 2 * EDGE, size, renderer) for line in text.split("\n")]
    fig.suptitle("\n".join(lines), fontsize=TITLE_SIZE, y=1 - EDGE / height, va="top")


def _wrap(line: str, room: float, size: float, renderer) -> str:
    """``line`` broken between words into lines at most ``room`` inches wide (a word wider stays whole)."""
    out = [""]
    for word in line.split(" "):
        wider = f"{out[-1]} {word}" if out[-1] else word
        if out[-1] and _width(wider, size, renderer) > room:
            out.append(word)
        else:
            out[-1] = wider
    return "\n".join(out)


def fit(fig: Figure, legend=None) -> None:
    """Place ``fig``'s grid of panels (one ``GridSpec``, hidden panels included) and ``legend`` (a
    figure legend, or None) so that no text overlaps another or is cut off."""
    renderer = fig.canvas.get_renderer()
    width, height = fig.get_size_inches()
    axes = _grid(fig)
    in_columns, in_rows = [_shown(column) for column in axes.T], [_shown(row) for row in axes]
    left = EDGE + max((_left_of(ax, renderer) for ax in in_columns[0]), default=0)
    between = GAP + max((_left_of(ax, renderer) for column in in_columns[1:] for ax in column), default=0)
    below = [max((_below(ax, renderer) for ax in row), default=0) for row in in_rows]
    above = [max((_above(ax, renderer) for ax in row), default=0) for row in in_rows]
    title = fig.get_suptitle()
    top = EDGE + (_height(title, FontProperties(size=TITLE_SIZE).get_size_in_points(), renderer) + TITLE_PAD
                  if title else 0) + above[0]
    bottom = EDGE + below[-1] + (legend.get_window_extent(renderer).height / fig.dpi + GAP if legend else 0)
    right = EDGE + _overhang(axes, renderer)
    rows, cols = axes.shape
    panel_w = (width - left - right - (cols - 1) * between) / cols
    gap_h = max((b + a for b, a in zip(below[:-1], above[1:])), default=0) + GAP
    panel_h = (height - top - bottom - (rows - 1) * gap_h) / rows
    fig.subplots_adjust(left=left / width, right=1 - right / width, top=1 - top / height, bottom=bottom / height,
                        wspace=between / panel_w, hspace=gap_h / panel_h)
    if legend is not None:
        legend.set_bbox_to_anchor((0.5, EDGE / height), transform=fig.transFigure)


def _grid(fig: Figure) -> np.ndarray:
    """The figure's panels by their place in the grid (rows x columns; None where none is)."""
    spec = fig.axes[0].get_subplotspec().get_gridspec()
    grid = np.full(spec.get_geometry(), None, dtype=object)
    for ax in fig.axes:
        place = ax.get_subplotspec()
        grid[place.rowspan.start, place.colspan.start] = ax
    return grid


def _shown(line: np.ndarray) -> list:
    """The panels of a row or column of the grid that are drawn."""
    return [ax for ax in line if ax is not None and ax.get_visible()]


def _left_of(ax, renderer) -> float:
    """Inches the y axis's tick labels and label take left of the panel."""
    yaxis = ax.yaxis
    labels = _tick_labels(yaxis) if yaxis.get_tick_params().get("labelleft", True) else []
    size = yaxis.get_major_ticks(1)[0].label1.get_fontsize()
    ticks = max((_width(text, size, renderer) for text in labels), default=0)
    label = yaxis.label
    return TICK + ticks + (_height(label.get_text(), label.get_fontsize(), renderer) + LABEL_PAD
                           if label.get_text() else 0)


def _below(ax, renderer) -> float:
    """Inches the x axis's tick labels and label take below the panel."""
    xaxis = ax.xaxis
    size = xaxis.get_major_ticks(1)[0].label1.get_fontsize()
    ticks = _height("0", size, renderer) if xaxis.get_tick_params().get("labelbottom", True) else 0
    label = xaxis.label
    return TICK + ticks + (_height(label.get_text(), label.get_fontsize(), renderer) + LABEL_PAD
                           if label.get_text() else 0)


def _above(ax, renderer) -> float:
    title = ax.title
    return _height(title.get_text(), title.get_fontsize(), renderer) + TITLE_PAD if title.get_text() else 0


def _overhang(axes: np.ndarray, renderer) -> float:
    """Inches the last x tick label of a right-hand panel can reach past its right edge (half its width)."""
    out = 0.0
    for ax in _shown(axes[:, -1]):
        labels = _tick_labels(ax.xaxis)
        if labels:
            out = max(out, _width(labels[-1], ax.xaxis.get_major_ticks(1)[0].label1.get_fontsize(), renderer) / 2)
    return out


def _tick_labels(axis) -> list[str]:
    """The tick labels the axis will draw: its locator's values in view, through its formatter."""
    lo, hi = sorted(axis.get_view_interval())
    values = [v for v in axis.get_major_locator()() if lo - 1e-9 * abs(hi - lo) <= v <= hi + 1e-9 * abs(hi - lo)]
    return [text for text in axis.get_major_formatter().format_ticks(values) if text]


def _width(text: str, size: float, renderer) -> float:
    return max((renderer.get_text_width_height_descent(line, FontProperties(size=size), ismath=False)[0]
                for line in text.split("\n")), default=0) / renderer.dpi


def _height(text: str, size: float, renderer) -> float:
    """Inches of ``text``'s lines at ``size`` points (matplotlib's line spacing, 1.2)."""
    line = renderer.get_text_width_height_descent("lp", FontProperties(size=size), ismath=False)[1]
    return 1.2 * line * (text.count("\n") + 1) / renderer.dpi
