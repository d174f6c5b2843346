"""Print the findings tables (docs/findings.md, the README's headline) from the committed results/ folders.

Every number in those tables comes from here, so each is in a committed file
(tests/test_readme_findings.py checks it): a study's ``summary.csv`` (seat rates, lengths,
paired differences), a knob study's ``effects.csv`` (main effects) and a ladder's
``ladder.csv`` and ``ratings.csv``.

    python experiments/findings.py                 # all studies, 4 players: rates, shifts under greedy and mc
    python experiments/findings.py --players 2     # another table size
    python experiments/findings.py --knobs         # the knob studies' main effects
    python experiments/findings.py --ladder        # the four ladders in one table
    python experiments/findings.py --findings      # the headline findings, corrected, replicated, by skill
    python experiments/findings.py --profiles      # the balance profiles: fairest, most skilful, least decided by the deal
    python experiments/findings.py --per-count     # Moska's seat edge at 3 to 6 players, learned tuned to each cell
    python experiments/findings.py --generations   # the learned players' generation steps, replicated on fresh deals
    python experiments/findings.py --strength      # every game's players rated beside greedy, replicated (README)

``--findings`` prints each headline claim (``CLAIMS``) with its correction for many comparisons
(Holm p and BH q within its study's family, from the committed tables: ``cardsim.study.report.multiplicity``),
its replication (``results/<study>_replication/replication.csv``, else "not yet replicated") and its
skill verdict (the top two rungs of ``Claim.rungs``, compared from the committed tables). A claim is
stated as a finding only if it survives correction and replicated; one that does not survive says
"no difference detected (±x pp)", x the larger end of its 95% interval.
"""
from __future__ import annotations

import argparse
import functools
import json
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from cardsim.games import spec
from cardsim.study import replication
from cardsim.study.ladder.tables import GENERATION
from cardsim.study.report import multiplicity
from cardsim.study.report import skill

RESULTS = Path(__file__).resolve().parents[1] / "results"
STUDIES = ("moska_variants", "musta_maija_variants", "uno_house_rules", "molotow_rules")
KNOBS = ("moska_knobs", "musta_maija_knobs", "uno_knobs", "moska_knobs_learned", "moska_knobs_mc")
TWINS = ("learned", "mc")
"""A variant study's 4-player twins under stronger self-play, weakest first: ``<name>_learned`` (Moska's small
network, the strongest affordable player) and ``<name>_mc``."""
LADDERS = ("moska", "musta_maija", "uno", "molotow")
TARGETS = {"moska": ("mc among greedy loses ≤ 15%", lambda lo, hi, greedy: _side(-hi, -lo, -0.15)),
           "musta_maija": ("mc among greedy loses ≤ 15%", lambda lo, hi, greedy: _side(-hi, -lo, -0.15)),
           "uno": ("mc among greedy wins ≥ 30%", lambda lo, hi, greedy: _side(lo, hi, 0.30)),
           "molotow": ("mc beats greedy by ≥ 1 per game", lambda lo, hi, greedy: _side(lo - greedy, hi - greedy, 1))}
"""Issue 16's targets for the ladder table, each decided on mc's 95% interval among greedy (and the
greedy seats' figure at the same tables): met, missed, or undecided while the interval holds the target."""


def _side(lo: float, hi: float, target: float) -> str:
    """"met" when the interval [lo, hi] lies at or above the target, "**missed**" when below, else undecided."""
    return "met" if lo >= target else "**missed**" if hi < target else "undecided (the interval holds it)"


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
        fresh = _rating_verdicts(results / f"ladder_{game}")
        rating = lambda p: _rated(ratings, p, fresh)  # noqa: E731
        target, reached = TARGETS[game]
        for mc in [p for p in ratings.index if p.startswith("mc")]:
            worlds = re.search(r"determinizations=(\d+)", mc)
            label = game if worlds is None else f"{game}, mc with {worlds.group(1)} worlds"
            met = reached(*table.loc[(mc, "greedy"), ["lo", "hi", "among_value"]])
            lines.append(f"| {label} | {table.measure.iloc[0]} | {cell('greedy', 'random')} | {cell(mc, 'greedy')} "
                         f"| {target}: {met} | {rating('greedy')} | {rating(mc)} |")
    return ("ladders, 4 players, random, greedy and mc(determinizations=32, base=greedy) (and, where a row says "
            "so, mc with more worlds), every seating (rates in %, Wilson 95% intervals; Molotow: sticks minus "
            "potatoes per game; ratings: Bradley-Terry on the Elo scale, random = 0, bootstrap 95% "
            "intervals, each replicated on fresh deals unless it says otherwise; a target is met or missed only "
            "when the interval is clear of it):\n\n" + "\n".join(lines))


def _rating_verdicts(ladder: Path) -> dict[str, str]:
    """Each rating's verdict on fresh deals, by policy, from the ladder's ``<folder>_replication/replication.csv``
    (Holm over the ladder's claims); empty when the ladder is not replicated."""
    again = ladder.with_name(ladder.name + "_replication") / replication.TABLE
    if not again.is_file():
        return {}
    table = replication.read(again)
    return dict(table.loc[table.effect == "rating", ["policy", "verdict"]].itertuples(index=False))


def _rated(ratings: pd.DataFrame, policy: str, fresh: dict[str, str]) -> str:
    """A ladder's rating of ``policy`` with its 95% interval (``ratings.csv`` by policy), and its verdict on fresh
    deals (``_rating_verdicts``) unless it replicated."""
    verdict = fresh.get(policy, "not yet replicated")
    return "{:+.0f} [{:+.0f}, {:+.0f}]".format(*ratings.loc[policy, ["rating", "lo", "hi"]]) + (
        "" if verdict == "replicated" else f" ({verdict})")


def study_tables(name: str, groups: list[tuple[int, str]] | None = None, results: Path = RESULTS) -> list[str]:
    """A variant study's rate and paired-shift tables for each (players, policy) of ``groups`` (default:
    every one it holds), then, where 4 players are asked for, its 4-player twins' (``TWINS``: the learned
    network's, then ``mc``'s) where committed."""
    summary = pd.read_csv(results / name / "summary.csv")
    manifest = json.loads((results / name / "manifest.json").read_text(encoding="utf-8"))
    held, baseline = unpaired(manifest), manifest["study"]["baseline"]
    groups = groups or list(summary.groupby(["players", "policy"]).groups)
    out = [t for players, policy in groups
           for t in (table(summary, players, policy, held), shifts(summary, players, policy, baseline, held))]
    for twin in TWINS:
        if (results / f"{name}_{twin}").is_dir() and any(players == 4 for players, _ in groups):
            other = pd.read_csv(results / f"{name}_{twin}" / "summary.csv")
            policy = other.policy.iloc[0]
            out += [table(other, 4, policy, held), shifts(other, 4, policy, baseline, held)]
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
    return out + [claims_table(results)]


class Claim(NamedTuple):
    """A headline claim: what it says (``text``), the contrast of a committed study it rests on (a
    variant against the baseline, or a knob level's main effect), and the ``rungs`` where the same
    contrast was measured, weakest first: (study, policy)."""

    text: str
    study: str
    players: int
    policy: str
    level: str
    measure: str
    knob: str = ""
    rungs: tuple[tuple[str, str], ...] = ()


NET = "learned(model='moska_4p_net_g2')"
"""Moska's strongest affordable player: the small network's second generation (+64 Elo over ``greedy``, ``mc``
+83; results/ladder_moska_network), a rung between ``greedy`` and ``mc``."""
_MOSKA_KNOBS = (("moska_knobs", "random"), ("moska_knobs", "greedy"), ("moska_knobs_learned", NET),
                ("moska_knobs_mc", "mc"))
_MOSKA = (("moska_variants", "random"), ("moska_variants", "greedy"), ("moska_variants_learned", NET),
          ("moska_variants_mc", "mc"))
_MM_KNOBS = (("musta_maija_knobs", "random"), ("musta_maija_knobs", "greedy"))
_MM = (("musta_maija_variants", "random"), ("musta_maija_variants", "greedy"), ("musta_maija_variants_mc", "mc"))
_UNO = (("uno_house_rules", "random"), ("uno_house_rules", "greedy"), ("uno_house_rules_mc", "mc"))
_MOLOTOW = (("molotow_rules", "random"), ("molotow_rules", "greedy"), ("molotow_rules_mc", "mc"))
CLAIMS = (
    Claim("Moska: adding with kill ranks moves loss onto seat 2", "moska_knobs", 4, "greedy", "attack_and_kill",
          "loser_rate_2", "continuation", _MOSKA_KNOBS),
    Claim("Moska: adding with kill ranks lengthens the game", "moska_knobs", 4, "greedy", "attack_and_kill",
          "turns_mean", "continuation", _MOSKA_KNOBS),
    Claim("Moska: an attack cap of 1 shortens the game", "moska_knobs", 4, "greedy", "1", "turns_mean",
          "attack_cap", _MOSKA_KNOBS),
    Claim("Moska: no attack cap against a cap of 6, game length", "moska_knobs", 4, "greedy", "None", "turns_mean",
          "attack_cap", _MOSKA_KNOBS),
    Claim("Moska: no attack cap against a cap of 6, seat 2's loss", "moska_knobs", 4, "greedy", "None",
          "loser_rate_2", "attack_cap", _MOSKA_KNOBS),
    Claim("Moska under the learned network: adding with kill ranks moves loss onto seat 2", "moska_knobs_learned",
          4, NET, "attack_and_kill", "loser_rate_2", "continuation", _MOSKA_KNOBS),
    Claim("Moska under the learned network: no trump-two swap, seat 1's loss", "moska_knobs_learned", 4, NET,
          "False", "loser_rate_1", "trump_two_swap", _MOSKA_KNOBS[1:]),
    Claim("Moska under mc: adding with kill ranks moves loss onto seat 2", "moska_knobs_mc", 4, "mc",
          "attack_and_kill", "loser_rate_2", "continuation", _MOSKA_KNOBS),
    Claim("Moska under mc: no trump-two swap shifts seat 1's loss", "moska_knobs_mc", 4, "mc", "False",
          "loser_rate_1", "trump_two_swap", _MOSKA_KNOBS[1:]),
    Claim("Turamoska moves loss onto seat 2", "moska_variants", 4, "greedy", "turamoska", "loser_rate_2",
          rungs=_MOSKA),
    Claim("Turamoska under the learned network moves loss onto seat 2", "moska_variants_learned", 4, NET,
          "turamoska", "loser_rate_2", rungs=_MOSKA),
    Claim("Turamoska under mc moves loss onto seat 2", "moska_variants_mc", 4, "mc", "turamoska", "loser_rate_2",
          rungs=_MOSKA),
    Claim("Turamoska without a cap under mc moves loss onto seat 2", "moska_variants_mc", 4, "mc",
          "turamoska_nocap", "loser_rate_2", rungs=_MOSKA),
    Claim("Musta-Maija: a fixed trump (diamonds) shortens the game", "musta_maija_knobs", 4, "greedy", "diamonds",
          "turns_mean", "trump", _MM_KNOBS),
    Claim("Musta-Maija: a fixed trump (diamonds) helps seat 1, the first attacker", "musta_maija_knobs", 4,
          "greedy", "diamonds", "loser_rate_1", "trump", _MM_KNOBS),
    Claim("Musta-Maija under mc: diamonds as trump helps seat 1", "musta_maija_variants_mc", 4, "mc", "diamonds",
          "loser_rate_1", rungs=_MM),
    Claim("Musta-Maija under mc: a turned trump helps seat 1", "musta_maija_variants_mc", 4, "mc", "turned",
          "loser_rate_1", rungs=_MM),
    Claim("Musta-Maija: without the duty to beat, random games are longer", "musta_maija_knobs", 4, "random",
          "free", "turns_mean", "must_beat", _MM_KNOBS),
    Claim("Uno: drawing until playable lengthens a hand", "uno_knobs", 4, "greedy", "until_playable", "turns_mean",
          "draw_rule", (("uno_knobs", "random"), ("uno_knobs", "greedy"))),
    Claim("Uno under mc: drawing until playable lengthens a hand", "uno_house_rules_mc", 4, "mc",
          "draw_until_playable", "turns_mean", rungs=_UNO),
    Claim("Molotow: the Swiss reading makes more shared wins", "molotow_rules", 4, "greedy", "swiss", "winner_none",
          rungs=_MOLOTOW),
    Claim("Molotow under mc: the Swiss reading makes more shared wins", "molotow_rules_mc", 4, "mc", "swiss",
          "winner_none", rungs=_MOLOTOW),
)
"""The README's headline claims, each printed with its correction, replication and skill verdict."""
MARGIN = 0.5
"""Top two rungs agree within this (pp for rates, decisions for lengths): as a ``[skill]`` study's default."""


@functools.lru_cache(maxsize=None)
def contrasts(name: str, results: Path = RESULTS) -> pd.DataFrame:
    """A committed study's contrasts, corrected for many comparisons within its families (its level
    ``alpha`` from the manifest): a knob study's effects (Holm and BH recomputed from the committed
    intervals when the table predates them), a variant study's paired shifts, and, for a study with
    ties (``winner_none``), each variant's change of the tie rate against the baseline as a family of
    its own (unpaired two-proportion intervals: the summary holds no per-game tie contrast)."""
    folder = results / name
    study = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["study"]
    alpha = study.get("alpha", multiplicity.ALPHA)
    if (folder / "effects.csv").exists():
        effects = _effects(folder)
        return effects if "p_holm" in effects else multiplicity.adjust(effects, alpha)
    summary = pd.read_csv(folder / "summary.csv")
    return multiplicity.variant_table(summary, study["baseline"], alpha)


def _row(table: pd.DataFrame, claim: Claim, study: str, policy: str) -> pd.Series | None:
    """The claim's contrast in a study's table at ``policy`` (None where that table lacks it)."""
    here = table.loc[(table.players == claim.players) & (table.policy == policy) & (table.measure == claim.measure)]
    here = (here.loc[(here.effect == "main") & (here.knob == claim.knob) & (here.level == claim.level)]
            if claim.knob else here.loc[here.variant == claim.level])
    return here.iloc[0] if len(here) else None


def _replication(claim: Claim, results: Path) -> str:
    path = results / f"{claim.study}_replication" / replication.TABLE
    if not path.exists():
        return "not yet replicated"
    table = replication.read(path)
    row = _row(table, claim, claim.study, claim.policy)
    return "not yet replicated" if row is None else str(row.verdict)


def _skill(claim: Claim, results: Path) -> tuple[str, str, str]:
    """The skill verdict of the claim's top two rungs, the rungs (``second → top``) and how it reads (the
    difference with its interval): unpaired from the committed tables (the rungs play the same deals, so
    this interval is wider than the paired one a ``[skill]`` study computes)."""
    found = [(policy, r) for study, policy in claim.rungs
             if (r := _row(contrasts(study, results), claim, study, policy)) is not None]
    if len(found) < 2:
        return "not settled", "one rung only", "one rung only"
    (second, a), (top, b) = found[-2:]
    se = np.hypot((a.hi - a.lo) / 2, (b.hi - b.lo) / 2) / 1.959964
    d = b.estimate - a.estimate
    scale, unit = _unit(claim.measure)
    lo, hi = d - 1.959964 * se, d + 1.959964 * se
    rungs = f"{_rung(second)} → {_rung(top)}"
    return skill.verdict(lo, hi, MARGIN / scale), rungs, f"{rungs}, unpaired: {_diff(d, lo, hi, scale, 2)} {unit}"


def _unit(measure: str) -> tuple[float, str]:
    return (1, "decisions") if measure.endswith("_mean") else (100, "pp")


def _digits(scale: float, lo: float, hi: float) -> int:
    """Decimals that show an interval's width (2, or more for a narrow one)."""
    width = scale * (hi - lo)
    return 2 if not width > 0 else int(min(4, max(2, np.ceil(-np.log10(width)) + 1)))


def assess(claim: Claim, results: Path = RESULTS) -> dict:
    """What the committed files say of a claim: its row (estimate, interval, Holm p, BH q, family
    size), replication, skill verdict and status (``finding`` only when it survives correction,
    replicated and is settled at the top of its rungs)."""
    table = contrasts(claim.study, results)
    row = _row(table, claim, claim.study, claim.policy)
    if row is None:
        raise ValueError(f"{claim.study}: no contrast {claim.knob or 'variant'}={claim.level}, {claim.measure}, "
                         f"{claim.players} players, {claim.policy}")
    size = int((table.measure.map(multiplicity.family) == multiplicity.family(claim.measure)).sum()
               if claim.measure != "winner_none" else (table.measure == "winner_none").sum())
    replicated = _replication(claim, results)
    verdict, rungs, moved = _skill(claim, results)
    scale, unit = _unit(claim.measure)
    if not row.survives:
        status = (f"no difference detected (±{scale * max(abs(row.lo), abs(row.hi)):.{_digits(scale, row.lo, row.hi)}f}"
                  f" {unit})")
    elif replicated != "replicated":
        status = {"underpowered": "replication underpowered", "not replicated": "not replicated: no finding"}.get(
            replicated, replicated)
    elif verdict != "settled at the top":
        status = "replicated, not settled with skill"
    else:
        status = "finding"
    return {"claim": claim, "row": row, "family": size, "replication": replicated, "skill": verdict,
            "rungs": rungs, "moved": moved, "status": status}


def finding_line(a: dict) -> str:
    """One printed claim: its status first, then the number, its correction, replication and skill."""
    c, r = a["claim"], a["row"]
    scale, unit = _unit(c.measure)
    return (f"- {c.text}: **{a['status']}**. `{c.policy}`, {c.players} players (`{c.study}`): "
            f"{_diff(r.estimate, r.lo, r.hi, scale, _digits(scale, r.lo, r.hi))} {unit}; Holm p = {r.p_holm:.2g}, BH q = {r.q_bh:.2g} "
            f"among {a['family']} tests; replication: {a['replication']}; skill: {a['skill']} ({a['moved']}).")


def findings(results: Path = RESULTS) -> str:
    """Every headline claim, one line each (``finding_line``), under the line that says how to read them."""
    lines = [finding_line(assess(c, results)) for c in CLAIMS]
    return ("headline claims, each with Holm p and BH q within its study's family, alpha 0.05, its replication "
            "on fresh deals and its skill verdict (top two rungs within ±0.5 pp or decisions):\n\n"
            + "\n".join(lines))


def claims_table(results: Path = RESULTS) -> str:
    """The headline claims as one table (``assess``): what the README quotes, each claim with its player, its
    effect and interval, Holm p, replication, skill verdict (the top two rungs) and status."""
    rows = []
    for c in CLAIMS:
        a = assess(c, results)
        r, (scale, unit) = a["row"], _unit(c.measure)
        rows.append(f"| {c.text} | `{_rung(c.policy)}` (`{c.study}`) | "
                    f"{_diff(r.estimate, r.lo, r.hi, scale, _digits(scale, r.lo, r.hi))} {unit} | {r.p_holm:.2g} | "
                    f"{a['replication']} | {a['skill']} ({a['rungs']}) | **{a['status']}** |")
    return ("headline claims, 4 players: each effect with its 95% interval, Holm p within its study's family "
            "(alpha 0.05), its replication on fresh deals and its skill verdict (the top two rungs within ±0.5 pp "
            "or decisions):\n\n| claim | player (study) | effect | Holm p | replication | skill (top two rungs) | status |\n"
            "|---|---|---|---|---|---|---|\n" + "\n".join(rows))


PROFILES = ("moska", "musta_maija", "uno", "molotow")
BALANCE = (("seat_edge", "seat edge (pp)", 100, "lowest", "fairest"),
           ("rating_gap_random", "rating gap over random (Elo)", 1, "highest", "most skilful"),
           ("luck_share_skill", "luck share: strongest alone among random", 1, "lowest", "least decided by luck"),
           ("luck_share_deal", "luck share of the deal", 1, "lowest", "least decided by the deal"),
           ("decided_share", "decided share", 1, "highest", "decided latest"))
"""The profile figures in the balance tables: measure, heading, scale, which end is the superlative, its word."""


def _profile(game: str, results: Path) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """``results/profile_<game>/profile.csv`` and its replication's verdicts (None when not replicated)."""
    table = pd.read_csv(results / f"profile_{game}" / "profile.csv")
    path = results / f"profile_{game}_replication" / "replication.csv"
    return table, (replication.read(path) if path.exists() else None)


def _cell(row: pd.Series, scale: float, verdicts: pd.DataFrame | None) -> str:
    digits = 2 if scale == 100 else (1 if abs(row.estimate) >= 10 else 3)
    text = f"{row.estimate * scale:+.{digits}f} [{row.lo * scale:+.{digits}f}, {row.hi * scale:+.{digits}f}]"
    if isinstance(row.get("survives"), (bool, np.bool_)) and row.survives:
        text += "*"
    if verdicts is not None:
        v = verdicts.loc[(verdicts.variant == row.variant) & (verdicts.players == row.players)
                         & (verdicts.measure == row.measure)]
        if len(v) and v.verdict.iloc[0] == "replicated":
            text += " R"
    return text


def superlative(rows: pd.DataFrame, end: str) -> str:
    """The variant at ``end`` of ``rows`` (one measure, one per variant), and whether its 95% interval is
    apart from every other variant's: a ranking is stated only where the intervals separate."""
    if len(rows) < 2:
        return "one variant only"
    best = rows.loc[rows.estimate.idxmin() if end == "lowest" else rows.estimate.idxmax()]
    others = rows.loc[rows.variant != best.variant]
    close = others.loc[(others.lo <= best.hi) & (others.hi >= best.lo), "variant"].tolist()
    if close:
        return f"not separated: `{best.variant}` {end} by its point, its interval overlapping " + \
            ", ".join(f"`{v}`" for v in close)
    return f"`{best.variant}` ({end}; its interval apart from every other variant's)"


def profile_tables(results: Path = RESULTS, players: int = 4) -> str:
    """Per game: the profile figures of every variant (``*``: survives Holm within its family, ``R``:
    replicated on fresh deals), the option values, and which variant is fairest, most skilful and least
    decided by the deal, where the intervals say so."""
    out = []
    for game in PROFILES:
        if not (results / f"profile_{game}" / "profile.csv").exists():
            continue
        table, verdicts = _profile(game, results)
        table = table.loc[table.players == players]
        policy = table.policy.iloc[0]
        shown = [b for b in BALANCE if (table.measure == b[0]).any()]
        head = "| variant | " + " | ".join(b[1] for b in shown) + " |"
        lines = [f"### {game} ({players} players, `{policy}` profiled)", "", head,
                 "|" + "---|" * (len(shown) + 1)]
        for variant, rows in table.groupby("variant", sort=False):
            by = {r.measure: r for _, r in rows.iterrows()}
            lines.append(f"| `{variant}` | " + " | ".join(_cell(by[m], scale, verdicts) if m in by else ""
                                                          for m, _, scale, _, _ in shown) + " |")
        options = table.loc[table.measure.str.startswith("option_value_")]
        if len(options):
            lines += ["", "Option values (pp; a seat forbidden the option against the same seat unrestricted, "
                      "same deals; positive: the option helps its holder):", "",
                      "| variant | " + " | ".join(f"`{o.removeprefix('option_value_')}`"
                                                 for o in options.measure.unique()) + " |",
                      "|" + "---|" * (options.measure.nunique() + 1)]
            for variant, rows in options.groupby("variant", sort=False):
                by = {r.measure: r for _, r in rows.iterrows()}
                lines.append(f"| `{variant}` | " + " | ".join(_cell(by[m], 100, verdicts) if m in by else ""
                                                              for m in options.measure.unique()) + " |")
        lines.append("")
        for measure, heading, _, end, word in shown:
            rows = table.loc[table.measure == measure]
            lines.append(f"- {word} ({heading}): {superlative(rows, end)}")
        out.append("\n".join(lines))
    return "\n\n".join(out)


PER_COUNT = "profile_moska_players"
"""The committed profile of Moska's presets at every player count, each cell's ``learned`` tuned to it."""


def fairness_by_players(results: Path = RESULTS, measures: tuple[str, ...] = ("seat_edge", "rating_gap_random")) -> str:
    """Moska's seat edge (and rating gap) per preset and player count from ``results/profile_moska_players``
    (``*``: survives Holm within its family; ``R``: replicated on fresh deals), and the fairest variant at each
    count where the intervals say so."""
    table = pd.read_csv(results / PER_COUNT / "profile.csv")
    path = results / f"{PER_COUNT}_replication" / "replication.csv"
    verdicts = replication.read(path) if path.exists() else None
    counts = sorted(table.players.unique())
    policy = table.policy.iloc[0]
    out = []
    for measure, heading, scale, end, word in (b for b in BALANCE if b[0] in measures):
        rows = table.loc[table.measure == measure]
        lines = [f"#### {heading}, `{policy}` at each count", "",
                 "| variant | " + " | ".join(f"{n} players" for n in counts) + " |", "|" + "---|" * (len(counts) + 1)]
        for variant, by_variant in rows.groupby("variant", sort=False):
            by = {r.players: r for _, r in by_variant.iterrows()}
            lines.append(f"| `{variant}` | " + " | ".join(_cell(by[n], scale, verdicts) if n in by else ""
                                                          for n in counts) + " |")
        lines.append("")
        lines += [f"- {word} at {n} players: {superlative(rows.loc[rows.players == n], end)}" for n in counts]
        out.append("\n".join(lines))
    return "\n\n".join(out)


SKILL = ("skill_moska", "skill_musta_maija")
"""The committed skill-ladder studies: every knob effect at every rung (self-play), on the same deals."""


def _rung(policy: str) -> str:
    """A rung's short name for a heading: ``learned(model='moska_4p_g2')`` is ``learned g2``,
    ``learned(model='moska_4p_net_g2')`` (a network, ``cardsim train --hidden``) ``learned net g2``."""
    if m := re.fullmatch(r"learned\(model='\w+?(_net)?_g(\d+)'\)", policy):
        return f"learned {'net ' if m[1] else ''}g{m[2]}"
    if m := re.fullmatch(r"mc\(determinizations=(\d+)\)", policy):
        return f"mc({m[1]})"
    return policy


def skill_tables(results: Path = RESULTS, players: int = 4) -> str:
    """Per skill study: each main effect on every seat's loss rate and on length at every rung
    (``*``: survives Holm within its rung's family), the top two rungs' paired difference and the
    verdict (``skill.csv``), and how many seat effects settled."""
    out = []
    for name in SKILL:
        folder = results / name
        if not (folder / skill.FILE).exists():
            continue
        study = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["study"]
        rungs, margin = study["skill"]["rungs"], study["skill"].get("margin", MARGIN)
        effects = _effects(folder)
        effects = effects.loc[(effects.effect == "main") & (effects.players == players)]
        verdicts = pd.read_csv(folder / skill.FILE, keep_default_na=False, na_values=[""])
        verdicts = verdicts.loc[(verdicts.effect == "main") & (verdicts.players == players)]
        games = int(pd.read_csv(folder / "summary.csv").query("players == @players").games.min())
        measures = [m for m in effects.measure.unique() if m.startswith("loser_rate_") or m == "turns_mean"]
        lines = [f"### `{name}`: {study['description']}", "",
                 f"{players} players, at least {games:,} games per cell and rung; effects in pp (seat loss "
                 f"rates) or decisions (`turns_mean`), 95% intervals; the verdict compares the top two rungs "
                 f"within ±{margin:g}.", "",
                 "| effect | measure | " + " | ".join(f"`{_rung(r)}`" for r in rungs) + " | top two | verdict |",
                 "|" + "---|" * (len(rungs) + 4)]
        counts = dict.fromkeys(skill.VERDICTS, 0)
        for (knob, level, reference), rows in effects.groupby(["knob", "level", "reference"], sort=False):
            for measure in measures:
                scale, _ = _unit(measure)
                by = rows.loc[rows.measure == measure].set_index("policy")
                cells = [_diff(r.estimate, r.lo, r.hi, scale, 2) + ("*" if r.survives else "")
                         for r in (by.loc[rung] for rung in rungs)]
                v = verdicts.loc[(verdicts.knob == knob) & (verdicts.level == level)
                                 & (verdicts.measure == measure)].iloc[0]
                if measure != "turns_mean":
                    counts[v.verdict] += 1
                lines.append(f"| `{knob}={level}` against `{reference}` | `{measure}` | " + " | ".join(cells)
                             + f" | {_diff(v.difference, v.difference_lo, v.difference_hi, scale, 2)} | {v.verdict} |")
        lines += ["", f"Seat effects: {counts['settled at the top']} settled at the top, {counts['still moving']} "
                  f"still moving, {counts['undetermined']} undetermined (of {sum(counts.values())})."]
        lines += _skill_replication(results, name, players)
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _skill_replication(results: Path, name: str, players: int) -> list[str]:
    """A skill study's line on fresh deals (``<name>_replication``, where committed): its seat effects' verdicts
    there, and how the seat effects that survive correction at a rung fared (``replication.csv``)."""
    folder = results / f"{name}_replication"
    if not (folder / replication.TABLE).exists():
        return []
    fresh = pd.read_csv(folder / replication.FRESH / skill.FILE, keep_default_na=False, na_values=[""])
    fresh = fresh.loc[(fresh.effect == "main") & (fresh.players == players) & fresh.measure.str.startswith("loser_rate_")]
    table = replication.read(folder / replication.TABLE)
    seats = table.loc[(table.effect == "main") & (table.players == players) & table.measure.str.startswith("loser_rate_")]
    tried = seats.verdict.value_counts()
    verdicts = fresh.verdict.value_counts()
    return ["", f"On fresh deals (`results/{name}_replication`, `cardsim replicate`): "
                f"{verdicts.get('settled at the top', 0)} settled at the top, {verdicts.get('still moving', 0)} still "
                f"moving, {verdicts.get('undetermined', 0)} undetermined (of {len(fresh)}); of the seat effects that "
                f"survive correction at a rung, {tried.get('replicated', 0)} replicated, "
                f"{tried.get('not replicated', 0)} not replicated, {tried.get('underpowered', 0)} underpowered."]


def _generation(policy: str) -> tuple[str, str]:
    """A learned model's family and generation in a policy string (``ladder.tables.GENERATION``):
    ``learned(model='moska_4p_g3')`` is ``("moska_4p", "3")``."""
    match = GENERATION.search(policy)
    return match.group(1).removeprefix("model=").strip("'\"").removesuffix("_g"), match.group(2)


def generation_steps(results: Path = RESULTS) -> str:
    """The generation ladders replicated on fresh deals (``results/ladder_*_replication`` with steps): every step
    of a model's generations over the one before, in the original ladder and on the fresh deals, each 95% interval
    and its verdict, corrected with the ladder's other claims (``cardsim.study.replication``); then how many of
    the ladders' ratings replicated."""
    rows, ratings = [], []
    for place in sorted(results.glob("ladder_*_replication")):
        table = replication.read(place / replication.TABLE)
        if not (table.effect == "step").any():  # no generations (a base or an oracle ladder): --ladder's, --strength's
            continue
        name = place.name.removesuffix("_replication").removeprefix("ladder_")
        ratings.append(table.loc[table.effect == "rating", "verdict"])
        for r in table.loc[table.effect == "step"].itertuples():
            (family, k), (_, h) = _generation(r.policy), _generation(r.reference)
            search = " (searched)" if r.policy.startswith(("mc(", "oracle(")) else ""
            rows.append(f"| `{name}` | `{family}`{search} g{k} − g{h} | {_diff(r.estimate, r.lo, r.hi, 1)} | "
                        f"{_diff(r.fresh_estimate, r.fresh_lo, r.fresh_hi, 1)} | {r.verdict} |")
    verdicts = pd.concat(ratings)
    return ("the generation ladders replicated on fresh deals: each step, Elo (95% bootstrap interval), the "
            "verdict corrected for the ladder's claims:\n\n"
            "| ladder | step | original | fresh deals | verdict |\n|---|---|---|---|---|\n" + "\n".join(rows) +
            f"\n\nTheir ratings against each ladder's first policy: {(verdicts == 'replicated').sum()} of "
            f"{len(verdicts)} replicated{''.join(f', {n} {v}' for v, n in verdicts.value_counts().items() if v != 'replicated')}.")


STRENGTH = ("learned", "mc", "mc(base='learned')", "oracle", "oracle(base='learned')")
"""The columns of ``strength``: the policies every game's ``ladder_<game>_oracle`` seats beside ``greedy``."""


def strength(results: Path = RESULTS) -> str:
    """Every game's players rated in its oracle ladder (``results/ladder_<game>_oracle``: ``greedy``, the default
    ``learned``, ``mc`` over each, ``oracle`` over each), Elo with ``greedy`` = 0 and 95% bootstrap intervals from
    ``ratings.csv``, and each rating's verdict on fresh deals (``results/ladder_<game>_oracle_replication``,
    corrected by Holm with the ladder's other claims); a rating not replicated says its verdict."""
    rows, verdicts = [], []
    for game in LADDERS:
        folder = results / f"ladder_{game}_oracle"
        ratings = pd.read_csv(folder / "ratings.csv").set_index("policy")
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        (rules,) = (r["describe"] for r in manifest["rules"].values())
        fresh = _rating_verdicts(folder)
        verdicts += [fresh.get(policy, "not yet replicated") for policy in STRENGTH]
        cells = [_rated(ratings, policy, fresh) for policy in STRENGTH]
        label = game if rules == spec(game).rules().describe() else f"`{rules}`"  # the default preset goes unsaid
        rows.append(f"| {label}<br>`{', '.join(manifest['models'])}` | " + " | ".join(cells) + " |")
    head = " | ".join(f"`{p.replace(chr(39), '')}`" for p in STRENGTH)  # mc(base=learned): no quotes to wrap at
    return ("Each game's players at a 4-player table under its default rules unless named, `learned` its default "
            "model, named under the game (`results/ladder_<game>_oracle`: every pair, each seat in turn), "
            "Bradley–Terry on the Elo scale with `greedy` = 0, bootstrap 95% intervals; "
            "`mc` searches 32 worlds; an `oracle` sees every hand and is not a fair player; a rating holds for this "
            "company of six policies:\n\n"
            f"| game | {head} |\n|---|" + "---|" * len(STRENGTH) + "\n" + "\n".join(rows) +
            f"\n\n{verdicts.count('replicated')} of {len(verdicts)} ratings replicated on fresh deals "
            "(`results/ladder_<game>_oracle_replication`, Holm over each ladder's claims).")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--knobs", action="store_true", help="the knob studies' main effects")
    parser.add_argument("--ladder", action="store_true", help="the ladders' table")
    parser.add_argument("--findings", action="store_true", help="the headline claims, corrected, replicated, by skill")
    parser.add_argument("--claims", action="store_true", help="the headline claims as one table (the README's)")
    parser.add_argument("--profiles", action="store_true", help="the balance profiles' tables")
    parser.add_argument("--skill", action="store_true", help="the skill-ladder studies' effects, rung by rung")
    parser.add_argument("--per-count", action="store_true", help="Moska's seat edge at every player count")
    parser.add_argument("--generations", action="store_true", help="the generation ladders' steps, replicated")
    parser.add_argument("--strength", action="store_true", help="every game's players rated, replicated (README)")
    parser.add_argument("studies", nargs="*", default=None)
    args = parser.parse_args(argv)
    if args.profiles:
        print(profile_tables(players=args.players))
        return
    if args.skill:
        print(skill_tables(players=args.players))
        return
    if args.per_count:
        print(fairness_by_players())
        return
    if args.generations:
        print(generation_steps())
        return
    if args.strength:
        print(strength())
        return
    if args.findings:
        print(findings())
        return
    if args.claims:
        print(claims_table())
        return
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
