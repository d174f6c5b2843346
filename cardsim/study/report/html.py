"""``report.html``: one self-contained page that shares a finished study.

Read from the folder's ``manifest.json``, ``summary.csv``, ``effects.csv`` (sweeps and
factorials) and PNG plots; ``games.parquet`` is not needed, so a committed folder has
its page too. The page holds a headline, the tables (outcome rates with Wilson
intervals, paired differences against the baseline, a fairness ranking, the knobs'
effects), a ``--precision`` run's convergence curve (drawn here from the manifest), every
plot embedded as a ``data:`` URI, the manifest's provenance and the
command that re-creates the study. No script, no stylesheet or image from elsewhere:
the file alone is the report. A ladder's page (``render_ladder``) shows the ladder's own files
instead: its ratings, generation steps, each policy alone among each other and over all its
seats, and ``ladder.png`` (its cells are seatings, which a study's tables would list one by
one). A replication's page (``render_replication``) shows its ``replication.csv``, handed over by
``cardsim.study.replication``. Nothing here computes a statistic.
"""
from __future__ import annotations

import base64
import html
import io
import shlex
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from cardsim.core.search import unfair_note
from cardsim.profile import html as profile_html
from cardsim.study.folder import manifest as claims
from cardsim.study.report import plots as figures
from cardsim.study.folder import storage
from cardsim.study.report.explore import headline, outcome_column
from cardsim.study.report.summary import EFFECTS, parse_effects
from cardsim.study.report.stats import LENGTHS

REPORT = "report.html"
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1400px; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
td.estimate { white-space: normal; } .ci { white-space: nowrap; }
th { background: #f2f2f2; } td.name, th.name { text-align: left; white-space: normal; max-width: 60em; }
.table { overflow-x: auto; }
td.name { overflow-wrap: break-word; }
td.clear { font-weight: bold; } caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
code, pre { background: #f6f6f6; padding: 0.1em 0.3em; } pre { padding: 0.6em; overflow-x: auto; }
.note { color: #555; font-size: 0.9em; }
"""


def recreate_command(manifest: dict[str, Any], folder: Path) -> str:
    """The shell command that re-creates the study's records (the manifest's own, else ``cardsim run``)."""
    if manifest.get("command"):
        return shlex.join(manifest["command"])
    return shlex.join(["cardsim", "run", str(manifest.get("study_file")), "--games", str(manifest["study"]["games"]),
                       "--out", str(folder)])


def write_report(folder: str | Path) -> Path:
    """Write ``report.html`` into the study folder ``folder``; return its path."""
    folder = Path(folder)
    manifest = storage.read_manifest(folder)
    summary = pd.read_csv(folder / storage.SUMMARY)
    effects = parse_effects((folder / EFFECTS).read_text(encoding="utf-8"), str(folder / EFFECTS)) \
        if (folder / EFFECTS).exists() else None
    study = claims.study_of(manifest, folder / storage.MANIFEST, played=False)
    skipped = study.design.skipped if study.design is not None else ()
    if study.ladder is not None:
        from cardsim.study.ladder.run import read

        page = render_ladder(manifest, read(folder), _plots(folder, manifest), recreate_command(manifest, folder))
    else:
        page = render(manifest, summary, effects, _plots(folder, manifest), recreate_command(manifest, folder),
                      skipped, precision_png(manifest), profile_html.section(folder))
    storage.atomic_write(folder / REPORT, lambda p: p.write_text(page, encoding="utf-8"))
    return folder / REPORT


def precision_png(manifest: dict[str, Any]) -> bytes | None:
    """The convergence curve of a run stepped to a ``--precision`` (``plots.precision_chart`` of its
    manifest), as PNG bytes; None for a run of a fixed number of games."""
    if not manifest.get("precision"):
        return None
    fig = figures.precision_chart(manifest["precision"], manifest["study"]["name"])
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=figures.DPI)
    figures.plt.close(fig)
    return out.getvalue()


def render(manifest: dict[str, Any], summary: pd.DataFrame, effects: pd.DataFrame | None,
           plots: list[tuple[str, bytes]], command: str, skipped: tuple[str, ...] = (),
           precision: bytes | None = None, profile: str = "") -> str:
    """The page: ``plots`` are (file name, PNG bytes), embedded in that order; ``skipped``: the
    unplayable combinations a factorial left out; ``precision``: the PNG of ``precision_png``;
    ``profile``: a balance profile's section (``cardsim.profile.html``), "" for other studies."""
    study, o = manifest["study"], outcome_column(summary)
    groups = list(dict.fromkeys(zip(summary.players, summary.policy)))
    baseline = study["baseline"]
    unfair = unfair_note(summary.policy.astype(str))
    parts = [f"<h1>{_e(study['name'])}: {_e(study['game'])}</h1>",
             f"<p>{_e(study.get('description', ''))} <span class=\"note\">(the study's description: "
             "informational, as the run wrote it)</span></p>",
             *([f"<p class=\"note\" id=\"unfair\">{_e(unfair)}</p>"] if unfair else []),
             _table("headline", "What was run", ["", ""], [[k, v] for k, v in _headline(manifest, skipped).items()],
                    names=2),
             "<h2>Findings at a glance</h2>", _glance(summary, effects, o, groups, baseline),
             *([profile] if profile else []),
             "<h2>Re-create it</h2>",
             f"<pre id=\"command\">{_e(command)}</pre>",
             f"<p class=\"note\">Then <code>cardsim verify {_e(_folder_of(command))}</code> re-runs sampled games and "
             "checks every digest of the manifest.</p>",
             f"<h2>{_e(o.capitalize())} rate by seat</h2>",
             "<p class=\"note\">Rates in %, Wilson 95% intervals; seats dealer-relative (seat 0 deals); lengths are "
             "means over finished games; truncated: games stopped without a result"
             + ("; by repetition: those the repetition rule stopped (M-23, MM-18)" if "repeated" in summary.columns
                else "") + ".</p>"]
    parts += [_rates(summary, o, n, p) for n, p in groups]
    if summary.variant.nunique() > 1:
        parts += [f"<h2>Paired differences against <code>{_e(baseline)}</code></h2>",
                  "<p class=\"note\">Game i deals the same cards in every variant: per-game differences, Student t "
                  "95% intervals; seat rates in percentage points. Bold: the interval excludes 0.</p>"]
        parts += [_paired(summary, o, n, p, baseline) for n, p in groups]
    parts.append("<h2>Fairness: the fairest variants first</h2>")
    if f"{o}_tv" in summary.columns:
        parts.append("<p class=\"note\">Spread: the largest minus the smallest seat rate; TV: the total-variation "
                     "distance of the outcome seat from equal seats (the share of outcomes that would have to "
                     "change seat). Percentage points, exact 95% intervals (simultaneous Clopper-Pearson). Ranked "
                     "by TV, then spread.</p>")
        parts += [_fairness(summary, o, n, p) for n, p in groups]
    else:
        parts.append("<p class=\"note\">This summary.csv has no fairness columns (written by an earlier cardsim): "
                     "re-run the study to add them.</p>")
    if effects is not None:
        parts += ["<h2>Effects of the knobs</h2>",
                  "<p class=\"note\">Main effect: the change from the base's level, averaged over the other knobs' "
                  "levels; interaction: how much the main effect of one knob changes with the other (0 = they add "
                  "up). Per-game contrasts, Student t 95% intervals; seat rates in percentage points. Bold: the "
                  + ("effect survives Holm correction for many comparisons at the study's alpha (effects.csv's "
                     "survives)." if "survives" in effects else "interval excludes 0.") + "</p>"]
        parts += [_effects(effects, o, n, p) for n, p in groups]
    if precision is not None:
        pinned = ("every seat contrast (a cell's seat rate less its baseline cell's, paired on the same deals)"
                  if manifest["precision"].get("of") == "contrasts" else "every seat rate of every cell")
        parts += ["<h2>Precision</h2>",
                  f"<p class=\"note\">The run played in steps until {pinned} was pinned to the "
                  "target (the manifest's rule): the widest 95% half-width after each step.</p>",
                  _figure("precision", precision)]
    parts.append("<h2>Plots</h2>")
    parts += [_figure(name, png) for name, png in plots]
    parts += ["<h2>Provenance</h2>", _provenance(manifest)]
    return _page(f"cardsim: {study['name']}", parts)


def render_ladder(manifest: dict[str, Any], ladder, plots: list[tuple[str, bytes]], command: str) -> str:
    """A ladder's page (``ladder``: its ``LadderResult``): what was run, the ratings, the generation steps, each
    policy alone among each other and over all its seats, the figure, how to re-create it, the provenance."""
    study, table = manifest["study"], ladder.table
    measure = table.measure.iloc[0]
    value = (lambda x, lo, hi: _pct(x, lo, hi)) if measure != "mean score" else \
        (lambda x, lo, hi: _pct(x, lo, hi, signed=True, scale=1))
    unfair = unfair_note(pd.Series(study["ladder"]["policies"]))
    run = dict(headline(manifest))
    for key in ("baseline", "games per cell", "cells"):  # a study's words for what the seatings say below
        del run[key]
    run |= {"variants": " ".join(f"{v} ({r['describe']})" for v, r in manifest["rules"].items()),
            "policies": ", ".join(study["ladder"]["policies"]),
            "seatings": f"{len(manifest['cells']):,} ({study['ladder']['seatings']}), {study['games']:,} games each, "
                        "the same deals in every seating"}
    ratings = [[r.policy, "0 (pinned)" if r.Index == 0 else _pct(r.rating, r.lo, r.hi, signed=True, scale=1, digits=1),
                f"{r.wins:,.0f}", f"{r.losses:,.0f}"] for r in ladder.ratings.itertuples()]
    steps = [[s.family, f"g{s.generation} less g{s.previous_generation}",
              _pct(s.step, s.lo, s.hi, signed=True, scale=1, digits=1), s.verdict] for s in ladder.steps.itertuples()]
    pairs, alone = table.loc[table.among != "(all)"], table.loc[table.among == "(all)"]
    parts = [f"<h1>{_e(study['name'])}: {_e(study['game'])} ladder</h1>",
             f"<p>{_e(study.get('description', ''))} <span class=\"note\">(the study's description: "
             "informational, as the run wrote it)</span></p>",
             *([f"<p class=\"note\" id=\"unfair\">{_e(unfair)}</p>"] if unfair else []),
             _table("headline", "What was run", ["", ""], [[k, v] for k, v in run.items()], names=2),
             "<h2>Ratings</h2>",
             "<p class=\"note\">Bradley–Terry strengths on the Elo scale, the first policy pinned at 0, fitted to "
             "every game's outcomes between seats of different policies; 95% intervals from a bootstrap over deals "
             "(every seating of a deal resampled together).</p>",
             _table("ratings", "ratings.csv", ["policy", "rating [95%]", "pairwise wins", "pairwise losses"], ratings,
                    clear=[[False, i > 0 and _clear(r.lo, r.hi), False, False]
                           for i, r in enumerate(ladder.ratings.itertuples())])]
    if steps:
        parts += ["<h2>Generation steps</h2>",
                  "<p class=\"note\">Each model generation's rating less the one before it, with the 95% interval of "
                  "the difference from the same resamples; each verdict reads its own interval (<code>cardsim "
                  "replicate</code> corrects a ladder's claims together and plays it again on fresh deals).</p>",
                  _table("steps", "steps.csv", ["model", "step", "Elo [95%]", "verdict"], steps,
                         clear=[[False, False, v != "no difference detected", False] for *_, v in steps])]
    parts += [f"<h2>{_e(measure.capitalize())}: each policy alone among each other</h2>",
              f"<p class=\"note\">A in one seat, B in all the others, over every seating of that shape: A's "
              f"{_e(measure)} and the B seats'" + (", Wilson 95% intervals over the seat-games" if measure != "mean score"
                                                   else ", Student t 95% intervals over deals") + ".</p>",
              _table("among", "ladder.csv", ["A (one seat)", "among B", f"A's {measure} [95%]",
                                             f"B seats' {measure} [95%]", "seat-games"],
                     [[r.policy, r.among, value(r.value, r.lo, r.hi), value(r.among_value, r.among_lo, r.among_hi),
                       f"{r.seat_games:,}"] for r in pairs.itertuples()], names=2),
              _table("overall", f"each policy's {measure} over all its seats", ["policy", f"{measure} [95%]",
                                                                                 "seat-games"],
                     [[r.policy, value(r.value, r.lo, r.hi), f"{r.seat_games:,}"] for r in alone.itertuples()]),
              "<h2>Figure</h2>", *(_figure(name, png) for name, png in plots),
              "<h2>Re-create it</h2>", f"<pre id=\"command\">{_e(command)}</pre>",
              f"<p class=\"note\">Then <code>cardsim verify {_e(_folder_of(command))}</code> re-runs sampled games and "
              "checks every digest of the manifest.</p>",
              "<h2>Provenance</h2>", _provenance(manifest)]
    return _page(f"cardsim: {study['name']}", parts)


def render_replication(name: str, command: str, table: pd.DataFrame, labels: list[str]) -> str:
    """A replication's page (``cardsim.study.replication``): the command that made it, how many contrasts got each
    verdict, and every contrast in both runs with its correction, the fresh run's power and the verdict (bold:
    replicated). ``labels``: the columns of ``table`` that name a contrast."""
    shown = [c for c in labels if table[c].notna().any()]
    ci = lambda x, lo, hi: "" if pd.isna(x) else f"{x:+.4g} [{lo:+.4g}, {hi:+.4g}]"  # noqa: E731
    rows = [[*("" if pd.isna(r[c]) else r[c] for c in shown), ci(r.estimate, r.lo, r.hi), f"{r.p_holm:.3g}",
             ci(r.fresh_estimate, r.fresh_lo, r.fresh_hi), f"{r.fresh_p_holm:.3g}", f"{r.fresh_power:.2f}", r.verdict]
            for _, r in table.iterrows()]
    counts = table.verdict.value_counts()
    parts = [f"<h1>{_e(name)}: on fresh deals</h1>",
             f"<pre id=\"command\">{_e(command)}</pre>",
             "<ul id=\"verdicts\">" + "".join(f"<li><b>{n}</b> {_e(v)}</li>" for v, n in counts.items()) + "</ul>",
             "<p class=\"note\">Each contrast in the original run and on the fresh deals, each run corrected for its "
             "own many comparisons (Holm's p); <i>replicated</i>: the fresh contrast survives too, with the same "
             "sign; <i>underpowered</i>: it does not, and the fresh run had less than an 80% chance (power) to find "
             "an effect of the original's size; <i>no finding</i>: the original does not survive correction; "
             "<i>not replicated</i>: otherwise. Estimates in the contrast's own unit (a rate as a fraction, a "
             "length in decisions, a rating in Elo), with 95% intervals.</p>",
             _table("replication", "replication.csv", [*shown, "original [95%]", "Holm p", "fresh [95%]",
                                                       "fresh Holm p", "fresh power", "verdict"], rows,
                    names=len(shown), clear=[[False] * (len(shown) + 5) + [v == "replicated"]
                                             for v in table.verdict])]
    return _page(f"cardsim: {name} replicated", parts)


def _page(title: str, parts: list[str]) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{_e(title)}</title>"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{STYLE}</style></head>\n"
            "<body>\n" + "\n".join(parts) + "\n</body></html>\n")


def _figure(name: str, png: bytes) -> str:
    return (f"<figure><img alt=\"{_e(name)}\" src=\"data:image/png;base64,{base64.b64encode(png).decode()}\">"
            f"<figcaption>{_e(name)}</figcaption></figure>")


def _headline(manifest: dict[str, Any], skipped: tuple[str, ...]) -> dict[str, Any]:
    """``explore.headline``; a sweep's or factorial's variants said by their knobs, not listed."""
    out = dict(headline(manifest))
    design = manifest["study"].get("design")
    if design:
        knobs = [[design["knob"], design["values"]]] if design["kind"] == "sweep" else design["knobs"]
        out["variants"] = (f"{design['kind']} from {design['base']}: " + " × ".join(
            f"{k} {{{', '.join(map(str, v))}}}" for k, v in knobs) + f" ({len(manifest['rules'])} variants"
            + (f"; left out as unplayable: {', '.join(skipped)})" if skipped else ")"))
    if manifest.get("precision"):
        p = manifest["precision"]
        of = " per seat contrast" if p.get("of") == "contrasts" else ""
        out["games per cell"] += (f" (±{p['pp']:g} pp{of} " + ("reached" if p["reached"] else "not reached")
                                  + f" in {len(p['steps'])} steps)")
    return out


def _plots(folder: Path, manifest: dict[str, Any]) -> list[tuple[str, bytes]]:
    names = [n for n in manifest.get("outputs", []) if n.endswith(".png")] or sorted(p.name for p in
                                                                                       folder.glob("*.png"))
    missing = [n for n in names if not (folder / n).exists()]
    if missing:
        raise ValueError(f"{folder}: the plot {missing[0]} of the manifest is missing; `cardsim report {folder}` "
                         "re-renders the plots from games.parquet")
    return [(n, (folder / n).read_bytes()) for n in names]


def _folder_of(command: str) -> str:
    words = shlex.split(command)
    return words[words.index("--out") + 1] if "--out" in words[:-1] else "FOLDER"


def _e(x: object) -> str:
    return html.escape(str(x))


def _id(*words: object) -> str:
    return "-".join(str(w) for w in words).replace(",", "_").replace(" ", "_")


def _table(ident: str, caption: str, header: list[str], rows: Iterable[list], names: int = 1,
           clear: Iterable[Iterable[bool]] | None = None) -> str:
    """A table with ``id=ident``; the first ``names`` columns are left-aligned names; ``clear``
    marks (bold) the cells whose interval excludes 0."""
    rows = list(rows)
    flags = list(clear) if clear is not None else [[False] * len(r) for r in rows]
    head = "".join(f"<th class=\"{'name' if i < names else ''}\">{_e(h)}</th>" for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(_td(c, "name" if i < names else ("clear" if f else ""))
                                    for i, (c, f) in enumerate(zip(r, fl))) + "</tr>\n" for r, fl in zip(rows, flags))
    thead = f"<thead><tr>{head}</tr></thead>" if any(header) else ""  # a table of names and values has no header
    return (f"<div class=\"table\"><table id=\"{_e(ident)}\"><caption>{_e(caption)}</caption>{thead}<tbody>\n{body}"
            "</tbody></table></div>")


def _td(cell: object, kind: str) -> str:
    """A cell; an estimate with its interval (``_pct``'s ``x [lo, hi]``) may break before the interval, so that
    a table of many seats fits the page with each interval on a line under its estimate."""
    text = _e(cell)
    estimate, _, interval = text.partition(" [")
    if kind != "name" and interval and " " not in estimate:
        kind, text = f"{kind} estimate".strip(), f"{estimate} <span class=\"ci\">[{interval}</span>"
    return f"<td class=\"{kind}\">{text}</td>"


def _pct(x: float, lo: float | None = None, hi: float | None = None, signed: bool = False, scale: float = 100,
         digits: int = 2) -> str:
    if pd.isna(x):
        return ""
    f = f"{'+' if signed else ''}.{digits}f"
    if lo is None or pd.isna(lo):
        return f"{scale * x:{f}}"
    return f"{scale * x:{f}} [{scale * lo:{f}}, {scale * hi:{f}}]"


def _clear(lo: float, hi: float) -> bool:
    return not pd.isna(lo) and (lo > 0 or hi < 0)


def _lengths(summary: pd.DataFrame) -> list[str]:
    return [c for c in LENGTHS if f"{c}_mean" in summary.columns]


def _cells(summary: pd.DataFrame, n: int, p: str) -> pd.DataFrame:
    return summary.loc[(summary.players == n) & (summary.policy == p)]


def _rates(summary: pd.DataFrame, o: str, n: int, p: str) -> str:
    rows = _cells(summary, n, p)
    games = int(rows.games.max())
    repeated = "repeated" in summary.columns  # a study playing the repetition rule (M-23, MM-18)
    header = ["variant", *(f"seat {s} %" for s in range(n)), f"no {o} %", "truncated",
              *(["by repetition"] if repeated else []), *(f"mean {c}" for c in _lengths(summary))]
    body = [[r.variant, *(_pct(r[f"{o}_rate_{s}"], r[f"{o}_lo_{s}"], r[f"{o}_hi_{s}"]) for s in range(n)),
             _pct(r[f"{o}_none"] / r.games), int(r.truncated), *([int(r.repeated)] if repeated else []),
             *(_pct(r[f"{c}_mean"], scale=1, digits=1) for c in _lengths(summary))]
            for _, r in rows.iterrows()]
    return _table(_id("rates", n, p), f"{n} players, policy {p}, {games:,} games per variant", header, body)


def _paired(summary: pd.DataFrame, o: str, n: int, p: str, baseline: str) -> str:
    rows = _cells(summary, n, p).loc[lambda r: r.variant != baseline]
    lengths = _lengths(summary)
    header = ["variant", *(f"Δ seat {s} pp" for s in range(n)), *(f"Δ mean {c}" for c in lengths)]
    body, clear = [], []
    for _, r in rows.iterrows():
        seats = [(r[f"{o}_diff_{s}"], r[f"{o}_diff_lo_{s}"], r[f"{o}_diff_hi_{s}"]) for s in range(n)]
        lens = [(r[f"{c}_diff"], r[f"{c}_diff_lo"], r[f"{c}_diff_hi"]) for c in lengths]
        body.append([r.variant, *(_pct(*x, signed=True) for x in seats),
                     *(_pct(*x, signed=True, scale=1) for x in lens)])
        clear.append([False, *(_clear(x[1], x[2]) for x in seats + lens)])
    return _table(_id("paired", n, p), f"{n} players, policy {p}: minus {baseline}", header, body, clear=clear)


def _ranking(summary: pd.DataFrame, o: str, n: int, p: str) -> pd.DataFrame:
    return _cells(summary, n, p).sort_values([f"{o}_tv", f"{o}_spread", "variant"], kind="stable")


def _fairness(summary: pd.DataFrame, o: str, n: int, p: str) -> str:
    header = ["rank", "variant", "TV pp", "spread pp", "seat rates %"]
    body = [[i + 1, r.variant, _pct(r[f"{o}_tv"], r[f"{o}_tv_lo"], r[f"{o}_tv_hi"]),
             _pct(r[f"{o}_spread"], r[f"{o}_spread_lo"], r[f"{o}_spread_hi"]),
             " / ".join(_pct(r[f"{o}_rate_{s}"], digits=1) for s in range(n))]
            for i, (_, r) in enumerate(_ranking(summary, o, n, p).iterrows())]
    return _table(_id("fairness", n, p), f"{n} players, policy {p}", header, body, names=2)


def _effect_label(r: pd.Series) -> str:
    main = f"{r.knob}={r.level} (vs {r.reference})"
    return main if r.effect == "main" else f"{r.knob}={r.level} × {r.knob_b}={r.level_b}"


def _effects(effects: pd.DataFrame, o: str, n: int, p: str) -> str:
    here = effects.loc[(effects.players == n) & (effects.policy == p)]
    measures = list(dict.fromkeys(here.measure))
    seat = [m for m in measures if m.startswith(f"{o}_rate_")]
    header = ["effect", *(f"seat {m.rsplit('_', 1)[1]} pp" for m in seat),
              *(f"mean {m.removesuffix('_mean')}" for m in measures if m not in seat)]
    body, clear = [], []
    for _, rows in here.groupby(["effect", "knob", "level", "knob_b", "level_b"], sort=False, dropna=False):
        by = rows.set_index("measure")
        cells = [(by.loc[m, "estimate"], by.loc[m, "lo"], by.loc[m, "hi"], m in seat) for m in measures]
        body.append([_effect_label(rows.iloc[0]) + ("" if rows.paired.all() else " (unpaired: another deck)"),
                     *(_pct(e, lo, hi, signed=True, scale=100 if s else 1) for e, lo, hi, s in cells)])
        survives = by.survives if "survives" in by else None  # marked: survives correction (multiplicity)
        clear.append([False, *(_clear(lo, hi) if survives is None else bool(survives[m])
                               for m, (_, lo, hi, _) in zip(measures, cells))])
    return _table(_id("effects", n, p), f"{n} players, policy {p}", header, body, clear=clear)


def _glance(summary: pd.DataFrame, effects: pd.DataFrame | None, o: str, groups: list[tuple[int, str]],
            baseline: str) -> str:
    """One line per (players, policy): the fairest and least fair variant, the paired difference
    and the knob effect on a seat rate largest in size whose interval excludes 0."""
    items = []
    for n, p in groups:
        said = []
        if f"{o}_tv" in summary.columns and summary.variant.nunique() > 1:
            ranked = _ranking(summary, o, n, p)
            best, worst = ranked.iloc[0], ranked.iloc[-1]
            said.append(f"fairest <code>{_e(best.variant)}</code> (TV {_pct(best[f'{o}_tv'])} pp), "
                        f"least fair <code>{_e(worst.variant)}</code> (TV {_pct(worst[f'{o}_tv'])} pp)")
        elif f"{o}_tv" in summary.columns:
            r = _cells(summary, n, p).iloc[0]
            said.append(f"TV {_pct(r[f'{o}_tv'], r[f'{o}_tv_lo'], r[f'{o}_tv_hi'])} pp from equal seats")
        if summary.variant.nunique() > 1:
            diffs = [(r[f"{o}_diff_{s}"], r[f"{o}_diff_lo_{s}"], r[f"{o}_diff_hi_{s}"], r.variant, s)
                     for _, r in _cells(summary, n, p).iterrows() for s in range(n) if r.variant != baseline]
            diffs = [d for d in diffs if _clear(d[1], d[2])]
            if diffs:
                mean, lo, hi, variant, s = max(diffs, key=lambda d: abs(d[0]))
                said.append(f"largest clear change against <code>{_e(baseline)}</code>: <code>{_e(variant)}</code> "
                            f"seat {s}, {_pct(mean, lo, hi, signed=True)} pp")
            else:
                said.append(f"no seat rate differs clearly from <code>{_e(baseline)}</code>")
        if effects is not None:
            here = effects.loc[(effects.players == n) & (effects.policy == p) & effects.measure.str.startswith(o)]
            here = here.loc[(here.lo > 0) | (here.hi < 0)]
            if len(here):
                r = here.loc[here.estimate.abs().idxmax()]
                said.append(f"largest clear knob effect: {_e(_effect_label(r))} on seat {r.measure.rsplit('_', 1)[1]}, "
                            f"{_pct(r.estimate, r.lo, r.hi, signed=True)} pp")
            else:
                said.append("no knob effect on a seat rate is clear of 0")
        items.append(f"<li><b>{n} players, {_e(p)}</b>: {'; '.join(said)}</li>")
    return "<ul id=\"glance\">" + "".join(items) + "</ul>"


def _provenance(manifest: dict[str, Any]) -> str:
    package, machine = manifest["package"], manifest["machine"]
    git = package.get("git") or {}
    rows = [["study file", manifest.get("study_file")], ["seed", manifest["seed"]], ["engine", manifest["engine"]],
            ["cardsim", package["version"]], ["git revision", git.get("revision", "unknown")],
            ["game protocol", package.get("protocol", "not recorded (an earlier cardsim)")],
            ["tree had changes", git.get("dirty", "unknown")], ["created", manifest["created"]],
            *([f"machine: {k}", v] for k, v in machine.items()),
            *([f"execution: {k}", v] for k, v in manifest["execution"].items()),
            *([f"timing: {k}", v] for k, v in manifest["timings"].items()),
            ["records", f"{manifest['records']['rows']:,} rows of {manifest['records']['file']}, "
                        f"digest {manifest['records']['digest']}"],
            ["sample", f"{manifest['sample']['rows']:,} rows of {manifest['sample']['file']}, "
                       f"digest {manifest['sample']['digest']}"],
            ["digest recipe", manifest["digest"]],
            ["informational", "the run's word, derived from nothing else in the folder"
                              + (" (sealed: an edit is found by cardsim verify): " if "seal" in manifest else
                                 " (not sealed: an earlier cardsim): ") + ", ".join(claims.informational(manifest))]]
    for key in ("design", "precision"):
        if manifest.get(key) or manifest["study"].get(key):
            rows.append([key, manifest.get(key) or manifest["study"].get(key)])
    for user in manifest.get("user_policies", []):  # a user's player (cardsim.play.user): what names it
        rows.append([f"user policy {user['spec']}", f"{user['qualname']} of {user['file'] or user['module']}, "
                     f"sha256 {user['sha256']}, at most {user['timeout']:g} s a decision"])
    order = dict.fromkeys([*(c["variant"] for c in manifest["cells"]), *manifest["rules"]])  # the run's order
    variants = [[v, manifest["rules"][v]["describe"]] for v in order]
    return (_table("provenance", "manifest.json", ["", ""], rows, names=2)
            + _table("rules", "the rules of each variant (string form)", ["variant", "rules"], variants, names=2))
