"""The ladder's figure, ``ladder.png``, drawn from a ``ladder.Report``.

Left: each policy's rating (Elo scale, the first policy at 0) with its 95% bootstrap
interval. Right: the "A among B" matrix — A's loss rate, win rate or mean score in one
seat among B in all the others, with its interval — coloured by its distance from
the average seat (red: worse than average, blue: better). A ladder that seats generations
of a learned model (``learned(model=NAME_g<k>)``, also inside ``mc(base=...)``) gets a third
panel: the ratings over the generations, a line per model family (the policy string with its
generation left out), the other policies as dotted lines with their interval as a band.
Matplotlib with the Agg backend; nothing here computes a statistic the report does not hold.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from cardsim.study.ladder.tables import ALL, Report, generations  # noqa: E402
from cardsim.study.folder.storage import atomic_write  # noqa: E402

FILE = "ladder.png"


def render(report: Report, title: str, folder: Path) -> list[str]:
    """Write ``ladder.png`` into ``folder``; return its name."""
    policies = list(report.ratings.policy)
    k = len(policies)
    families = generations(policies)
    ratios = [1, 1.3, 1] if families else [1, 1.3]
    fig, axes = plt.subplots(1, len(ratios), figsize=(5 + 2.2 * k + 4.5 * bool(families), 1.6 + 0.9 * k),
                             layout="constrained", gridspec_kw={"width_ratios": ratios})
    fig.suptitle(title)
    _ratings(axes[0], report)
    _matrix(axes[1], report, policies)
    if families:
        _generations(axes[2], report, families)
    atomic_write(folder / FILE, lambda p: fig.savefig(p, format="png", dpi=100))
    plt.close(fig)
    return [FILE]


def _ratings(ax, report: Report) -> None:
    r = report.ratings
    y = np.arange(len(r))[::-1]
    err = np.clip([r.rating - r.lo, r.hi - r.rating], 0, None)  # NaN intervals draw no whisker
    ax.errorbar(r.rating, y, xerr=np.nan_to_num(err), fmt="o", capsize=4, color="C0")
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set(yticks=y, yticklabels=_wrapped(r.policy), xlabel=f"rating (Elo scale, {r.policy.iloc[0]} = 0)",
           title="Bradley–Terry rating, 95% bootstrap interval")


def _matrix(ax, report: Report, policies: list[str]) -> None:
    rate = report.measure.is_rate
    t = report.table.loc[report.table.among != ALL].set_index(["policy", "among"])
    k = len(policies)
    values = np.full((k, k), np.nan)
    for (a, b), row in t.iterrows():
        values[policies.index(a), policies.index(b)] = row.value
    scale = 100 if rate else 1
    spread = np.nanmax(np.abs(values - report.parity)) if np.isfinite(values).any() else 1
    # red is worse than the average seat: a high loss rate, a low win rate or score
    ax.imshow(values - report.parity, cmap="RdBu_r" if report.measure.kind == "loser" else "RdBu",
              vmin=-spread, vmax=spread, aspect="auto")  # cells as wide as the panel: long policy names fit
    digits, unit = (1, "%") if rate else (2, "")
    for (a, b), row in t.iterrows():
        i, j = policies.index(a), policies.index(b)
        bounds = "" if np.isnan(row.lo) else f"\n[{scale * row.lo:.{digits}f}, {scale * row.hi:.{digits}f}]"
        dark = abs(row.value - report.parity) > 0.6 * spread
        ax.text(j, i, f"{scale * row.value:.{digits}f}{unit}{bounds}", ha="center", va="center", fontsize="small",
                color="white" if dark else "black")
    ax.set(xticks=range(k), yticks=range(k), xticklabels=_wrapped(policies), yticklabels=_wrapped(policies),
           xlabel="B (every other seat)", ylabel="A (one seat)",
           title=f"{report.measure.name} of A among B (95% interval); average seat "
                 f"{scale * report.parity:.{digits}f}{unit}")
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right", rotation_mode="anchor")


def _generations(ax, report: Report, families: dict[str, list[tuple[int, str]]]) -> None:
    r = report.ratings.set_index("policy")
    in_family = {policy for members in families.values() for _, policy in members}
    for i, (family, members) in enumerate(families.items()):
        x = [g for g, _ in members]
        rows = r.loc[[policy for _, policy in members]]
        err = np.nan_to_num(np.clip([rows.rating - rows.lo, rows.hi - rows.rating], 0, None))
        ax.errorbar(x, rows.rating, yerr=err, fmt="-o", capsize=4, color=f"C{i}", label=family)
    for j, (policy, row) in enumerate(r.drop(index=list(in_family)).iterrows()):
        color = f"C{len(families) + j}"
        ax.axhline(row.rating, color=color, lw=1, ls=":", label=f"{policy} {row.rating:+.0f}")
        if np.isfinite(row.lo) and row.hi > row.lo:
            ax.axhspan(row.lo, row.hi, color=color, alpha=0.12)
    every = sorted({g for members in families.values() for g, _ in members})
    ax.set(xticks=every, xlim=(every[0] - 0.5, every[-1] + 0.5), xlabel="generation",
           ylabel=f"rating (Elo scale, {report.ratings.policy.iloc[0]} = 0)",
           title="rating by generation (95% interval)")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, [_wrap(t) for t in labels], fontsize="small", loc="best")


WIDTH = 24
"""The characters of a tick label's line: a longer policy string is broken (``_wrapped``)."""


def _wrapped(labels) -> list[str]:
    """Long policy strings broken after their commas, or, where a part is still longer than ``WIDTH``,
    after the opening brackets of its nested policies (``mc(base=`` / ``'learned(model=``), to fit a tick."""
    return [_wrap(label) if len(label) > 16 else label for label in labels]


def _wrap(label: str) -> str:
    lines = []
    for part in label.split(", "):
        while len(part) > WIDTH and "(" in part[1:WIDTH]:
            cut = part.rindex("(", 1, WIDTH) + 1
            lines.append(part[:cut])
            part = part[cut:]
        lines.append(part)
    return _join(label, lines)


def _join(label: str, lines: list[str]) -> str:
    """The lines again, a comma kept where the label had one."""
    out, at = [], 0
    for line in lines:
        at = label.index(line, at) + len(line)
        out.append(line + ("," if label[at:at + 2] == ", " else ""))
    return "\n".join(out)
