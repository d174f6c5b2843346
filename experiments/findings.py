"""Print the findings tables (docs/findings.md, the README's headline) from the committed results/ folders.

Every number in those tables comes from here, so each is in a committed file
(tests/test_readme_findings.py checks it): a study's ``summary.csv`` (seat rates, lengths,
paired differences), a knob study's ``effects.csv`` (main effects) and a ladder's
``ladder.csv`` and ``ratings.csv``.

    python experiments/findings.py                 # all studies, 4 players: rates, shifts under greedy and mc
    python experiments/findings.py --players 2     # another table size
    python experiments/findings.py --knobs         # the knob studies' main effects
    python experiments/findings.py --ladder        # the four ladders in one table
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pandas as pd

from cardsim.games import spec

RESULTS = Path(__file__).resolve().parents[1] / "results"
STUDIES = ("moska_variants", "musta_maija_variants", "uno_house_rules", "molotow_rules")
KNOBS = ("moska_knobs", "musta_maija_knobs", "uno_knobs", "moska_knobs_mc")
LADDERS = ("moska", "musta_maija", "uno", "molotow")
TARGETS = {"moska": ("mc among greedy loses ≤ 15%", lambda mc, greedy: mc <= 0.15),
           "musta_maija": ("mc among greedy loses ≤ 15%", lambda mc, greedy: mc <= 0.15),
           "uno": ("mc among greedy wins ≥ 30%", lambda mc, greedy: mc >= 0.30),
           "molotow": ("mc beats greedy by ≥ 1 per game", lambda mc, greedy: mc - greedy >= 1)}
"""Issue 16's targets for the ladder table, each with its test on mc's figure among greedy
(point estimates) and the greedy seats' at the same tables."""


def _effects(folder: Path) -> pd.DataFrame:
    """A knob study's effects.csv, its levels as written ("None" is a level, not a missing value)."""
    return pd.read_csv(folder / "effects.csv", keep_default_na=False, na_values=[""])


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


def _diff(d: float, lo: float, hi: float, scale: float = 100, digits: int = 1) -> str:
    return f"{scale * d:+.{digits}f} [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"


def unpaired(manifest: dict) -> set[str]:
    """The variants whose deck differs from the baseline's (``Rules.same_deck``): game i deals other cards,
    so their differences are of independent games, not paired ones (still valid, only wider)."""
    study = manifest["study"]
    rules = {v: spec(study["game"]).rules.from_dict(k) for v, k in study["variants"].items()}
    return {v for v, r in rules.items() if not r.same_deck(rules[study["baseline"]])}


def table(summary: pd.DataFrame, players: int, policy: str, unpaired: set[str] = frozenset()) -> str:
    """One markdown table: a row per variant; outcome rate by seat (%), mean turns, paired deltas
    (marked "unpaired" for a variant with another deck)."""
    rows = summary.loc[(summary.players == players) & (summary.policy == policy)]
    outcome = "loser" if "loser_rate_0" in summary else "winner"
    seats = range(players)
    head = ["variant", *(f"{outcome} seat {s} %" for s in seats), f"no {outcome} %", "turns mean",
            "Δ turns vs baseline"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in rows.iterrows():
        cells = [f"`{r.variant}`", *(_pct(r[f"{outcome}_rate_{s}"], r[f"{outcome}_lo_{s}"], r[f"{outcome}_hi_{s}"])
                                     for s in seats),
                 f"{100 * r[f'{outcome}_none'] / r.games:.2f}", f"{r.turns_mean:.1f}", _diff(r.turns_diff, r.turns_diff_lo, r.turns_diff_hi, 1, 2)
                 + (" unpaired" if r.variant in unpaired else "")]
        lines.append("| " + " | ".join(cells) + " |")
    games = int(rows.games.max()) if len(rows) else 0
    return (f"{summary.game.iloc[0]}, {players} players, policy `{policy}`, {games:,} games per variant "
            f"(rates in %, Wilson 95% intervals; Δ paired, 95% interval):\n\n" + "\n".join(lines))


def _shift_table(head: str, rows: list[tuple[str, list[str], str]], outcome: str, seats: int) -> str:
    cols = [head, *(f"Δ {outcome} seat {s} pp" for s in range(seats)), "Δ turns"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join([name, *shifts, turns]) + " |" for name, shifts, turns in rows]
    return "\n".join(lines)


def shifts(summary: pd.DataFrame, players: int, policy: str, baseline: str, unpaired: set[str] = frozenset()) -> str:
    """One markdown table: each variant's paired shift of every seat's rate (pp) and of the mean
    length against the baseline: what a rule change does, to be read across policies."""
    rows = summary.loc[(summary.players == players) & (summary.policy == policy)]
    outcome = "loser" if "loser_rate_0" in summary else "winner"
    body = [(f"`{r.variant}`" + (" unpaired" if r.variant in unpaired else ""),
             [_diff(r[f"{outcome}_diff_{s}"], r[f"{outcome}_diff_lo_{s}"], r[f"{outcome}_diff_hi_{s}"], 100, 2)
              for s in range(players)], _diff(r.turns_diff, r.turns_diff_lo, r.turns_diff_hi, 1, 2))
            for _, r in rows.iterrows() if r.variant != baseline]
    games = int(rows.games.min()) if len(rows) else 0
    return (f"{summary.game.iloc[0]}, {players} players, policy `{policy}`, paired shifts against "
            f"`{baseline}`, {games:,} games per variant or more (95% intervals):\n\n"
            + _shift_table("variant", body, outcome, players))


def knob_effects(effects: pd.DataFrame, players: int, policy: str) -> str:
    """One markdown table: every knob level's main effect (averaged over the other knobs' levels)
    on every seat's rate (pp) and on the mean length, against the knob's reference level."""
    main = effects.loc[(effects.effect == "main") & (effects.players == players) & (effects.policy == policy)]
    outcome = "loser" if main.measure.str.startswith("loser").any() else "winner"
    body = []
    for (knob, level, ref), g in main.groupby(["knob", "level", "reference"], sort=False):
        by = g.set_index("measure")
        cell = lambda m, scale, digits: _diff(by.estimate[m], by.lo[m], by.hi[m], scale, digits)  # noqa: E731
        body.append((f"`{knob}` {level} (vs {ref})" + ("" if by.paired.all() else " unpaired"),
                     [cell(f"{outcome}_rate_{s}", 100, 2) for s in range(players)], cell("turns_mean", 1, 2)))
    return (f"{effects.game.iloc[0]}, {players} players, policy `{policy}`, knob main effects "
            f"({int(main.games.min()):,} games per cell or more; 95% intervals):\n\n"
            + _shift_table("knob level", body, outcome, players))


def ladder_table(results: Path = RESULTS) -> str:
    """One markdown table: for each game's ladder, greedy alone among random, mc alone among greedy
    (rates in %, Molotow's mean score per game, each beside the other seats' at the same tables)
    and the Bradley-Terry ratings, with 95% intervals; a ladder that also holds mc with more worlds
    has a row for each mc."""
    lines = ["| game | measure | greedy among random | mc among greedy | target | rating greedy | rating mc |",
             "|---|---|---|---|---|---|---|"]
    for game in LADDERS:
        table = pd.read_csv(results / f"ladder_{game}" / "ladder.csv").set_index(["policy", "among"])
        ratings = pd.read_csv(results / f"ladder_{game}" / "ratings.csv").set_index("policy")
        scale = 1 if table.measure.iloc[0] == "mean score" else 100
        cell = lambda a, b: (  # A's figure with its interval, then the B seats' at the same tables
            _pct(*table.loc[(a, b), ["value", "lo", "hi"]]) + f" ({b} seats {100 * table.loc[(a, b), 'among_value']:.2f})"
            if scale == 100 else "{:+.2f} [{:+.2f}, {:+.2f}]".format(*table.loc[(a, b), ["value", "lo", "hi"]])
            + f" ({b} seats {table.loc[(a, b), 'among_value']:+.2f})")
        rating = lambda p: "{:+.0f} [{:+.0f}, {:+.0f}]".format(*ratings.loc[p, ["rating", "lo", "hi"]])  # noqa: E731
        target, reached = TARGETS[game]
        for mc in [p for p in ratings.index if p.startswith("mc")]:
            worlds = re.search(r"determinizations=(\d+)", mc)
            label = game if worlds is None else f"{game}, mc with {worlds.group(1)} worlds"
            met = "met" if reached(*table.loc[(mc, "greedy"), ["value", "among_value"]]) else "**missed**"
            lines.append(f"| {label} | {table.measure.iloc[0]} | {cell('greedy', 'random')} | {cell(mc, 'greedy')} "
                         f"| {target}: {met} | {rating('greedy')} | {rating(mc)} |")
    return ("ladders, 4 players, random, greedy and mc(determinizations=32, base=greedy) (and, where a row says "
            "so, mc with more worlds), every seating (rates in %, Wilson 95% intervals; Molotow: sticks minus "
            "potatoes per game; ratings: Bradley-Terry on the Elo scale, random = 0, bootstrap 95% "
            "intervals):\n\n" + "\n".join(lines))


def study_tables(name: str, groups: list[tuple[int, str]] | None = None, results: Path = RESULTS) -> list[str]:
    """A variant study's rate and paired-shift tables for each (players, policy) of ``groups`` (default:
    every one it holds), then, where the study has its ``<name>_mc`` twin and 4 players are asked for,
    the twin's tables under ``mc``."""
    summary = pd.read_csv(results / name / "summary.csv")
    manifest = json.loads((results / name / "manifest.json").read_text(encoding="utf-8"))
    held, baseline = unpaired(manifest), manifest["study"]["baseline"]
    groups = groups or list(summary.groupby(["players", "policy"]).groups)
    out = [t for players, policy in groups
           for t in (table(summary, players, policy, held), shifts(summary, players, policy, baseline, held))]
    if (results / f"{name}_mc").is_dir() and any(players == 4 for players, _ in groups):
        mc = pd.read_csv(results / f"{name}_mc" / "summary.csv")
        out += [table(mc, 4, "mc", held), shifts(mc, 4, "mc", baseline, held)]
    return out


def every_table(results: Path = RESULTS) -> list[str]:
    """Every table this script can print from the committed folders, each with its header line:
    what a findings page may quote (tests/test_readme_findings.py)."""
    out = [t for name in STUDIES for t in study_tables(name, results=results)]
    for name in KNOBS:
        if (results / name / "effects.csv").exists():
            effects = _effects(results / name)
            out += [knob_effects(effects, players, policy)
                    for (players, policy), _ in effects.groupby(["players", "policy"])]
    if all((results / f"ladder_{game}").is_dir() for game in LADDERS):
        out.append(ladder_table(results))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--knobs", action="store_true", help="the knob studies' main effects")
    parser.add_argument("--ladder", action="store_true", help="the ladders' table")
    parser.add_argument("studies", nargs="*", default=None)
    args = parser.parse_args(argv)
    if args.ladder:
        print(ladder_table())
        return
    if args.knobs:
        for name in args.studies or KNOBS:
            effects = _effects(RESULTS / name)
            print(f"### {name}\n\n{knob_effects(effects, args.players, args.policy)}\n")
        return
    for name in args.studies or STUDIES:
        print(f"### {name}\n\n" + "\n\n".join(study_tables(name, [(args.players, args.policy)])) + "\n")

if __name__ == "__main__":
    main()
