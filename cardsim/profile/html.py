"""The profile's section of ``report.html``: the profile table and chart, from the folder's own files.

``section(folder)`` is "" for a folder without ``profile.csv`` (every other study), so the page
of a study calls it unconditionally (``cardsim.study.htmlreport``). Nothing here computes a figure.
"""
from __future__ import annotations

import base64
import html
from pathlib import Path

from cardsim.profile import chart, files, table as tables
from cardsim.profile.text import _scale


def section(folder: Path) -> str:
    """The HTML of the profile section, or "" without a profile."""
    if not (folder / files.TABLE).is_file():
        return ""
    t = tables.parse((folder / files.TABLE).read_text(encoding="utf-8"))
    e = html.escape
    parts = ["<h2 id=\"profile\">Balance profile</h2>",
             "<p class=\"note\">Each figure with its 95% interval; rates in percentage points. A tested figure is "
             "bold when it survives Holm correction within its family (fairness, skill, luck, option, length) at the "
             "study's alpha. The player each figure rests on is named beside it (docs/profiles.md).</p>"]
    for n, block in t.groupby("players", sort=False):
        rows = []
        for r in block.itertuples():
            k, unit = _scale(r)
            value = "" if r.estimate != r.estimate else f"{k * r.estimate:+.3f} [{k * r.lo:+.3f}, {k * r.hi:+.3f}]{unit}"
            bold = " class=\"clear\"" if r.survives else ""
            holm = "" if r.p_holm != r.p_holm else f"{r.p_holm:.3g}"
            rows.append(f"<tr><td class=\"name\">{e(r.variant)}</td><td class=\"name\">{e(r.measure)}</td>"
                        f"<td{bold}>{e(value)}</td><td>{e(holm)}</td><td class=\"name\">{e(r.policy)}</td>"
                        f"<td class=\"name\">{e(r.note)}</td></tr>\n")
        parts.append(f"<table id=\"profile-{n}\"><caption>{n} players</caption><thead><tr><th class=\"name\">variant"
                     "</th><th class=\"name\">figure</th><th>estimate [95%]</th><th>p (Holm)</th><th class=\"name\">"
                     "player</th><th class=\"name\">note</th></tr></thead><tbody>\n" + "".join(rows)
                     + "</tbody></table>")
    if (folder / chart.FILE).is_file():
        png = base64.b64encode((folder / chart.FILE).read_bytes()).decode()
        parts.append(f"<figure><img alt=\"{chart.FILE}\" src=\"data:image/png;base64,{png}\">"
                     f"<figcaption>{chart.FILE}</figcaption></figure>")
    return "\n".join(parts)
