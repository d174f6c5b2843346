"""The effects of a sweep or factorial: what each knob does on its own, and in pairs.

Game i deals the same cards in every variant, so every effect is a *per-game
contrast* averaged with a Student t 95% interval (``stats.paired_mean``), as the
paired differences of ``summary.csv`` are. For a game i and a measure y (the
indicator ``[outcome_i = s]`` of seat s, or a length, which is left out of the
contrasts of a game truncated in any cell the contrast uses):

- **main effect** of knob A at level a against its reference level a0 (the base's):
  ``d_i = mean over R of [y_i(A=a, r) - y_i(A=a0, r)]``, R the combinations r of the
  other knobs' levels for which both cells exist;
- **interaction** of A at a and B at b (against a0, b0):
  ``d_i = mean over R of [y_i(a, b, r) - y_i(a, b0, r) - y_i(a0, b, r) + y_i(a0, b0, r)]``,
  R the combinations of the remaining knobs for which all four cells exist (zero when
  the effect of A does not depend on B).

In a sweep (one knob) the main effect of a level is its paired difference against
the base. Rows of ``effects.csv``: one per (players, policy, effect, measure), with
``estimate``, ``lo``, ``hi``, the games averaged (``games``), ``|R|`` (``combinations``) and
whether game i deals the same cards in every cell of the contrast (``paired``).
Measures are named as in ``summary.csv``: ``loser_rate_2``, ``turns_mean``.
Nothing here runs games or writes files.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from cardsim.core.rules import Rules
from cardsim.study.plan.design import Design
from cardsim.study.report.stats import Measures, paired_mean

COLUMNS = ("game", "players", "policy", "effect", "knob", "level", "reference", "knob_b", "level_b", "reference_b",
           "measure", "estimate", "lo", "hi", "games", "combinations", "paired")


def effects(games: pd.DataFrame, design: Design, m: Measures, game: str,
            rules: dict[str, Rules] | None = None) -> pd.DataFrame:
    """``effects.csv`` rows of the records ``games`` (columns ``variant``, ``players``, ``policy``,
    ``game``, ``truncated``, the outcome and the lengths), grouped by (players, policy) in order.

    ``paired`` says whether, at every combination of the other knobs, the cells the contrast
    compares deal game i the same cards (their ``rules`` agree on the knobs marked ``deck``;
    True without ``rules``): when not, the interval is still valid, as that of a difference of
    independent means."""
    row_of = {v: i for i, v in enumerate(design.cells)}
    plan = [(c | {"paired": rules is None or paired(c, rules)},
             np.array([row_of[v] for v in c["weights"]]), np.array(list(c["weights"].values())))
            for c in contrasts(design)]
    rows = []
    for (players, policy), group in games.groupby(["players", "policy"], sort=False):
        ys = per_game(group, list(design.cells), m, int(players))
        for contrast, used, weights in plan:
            labels = {k: v for k, v in contrast.items() if k not in ("weights", "groups")}
            for measure, y in ys.items():
                d = weights @ y[used]
                d = d[~np.isnan(d)]
                mean, lo, hi = paired_mean(d)
                rows.append({"game": game, "players": players, "policy": policy, **labels, "measure": measure,
                             "estimate": mean, "lo": lo, "hi": hi, "games": len(d)})
    return pd.DataFrame(rows, columns=list(COLUMNS))


def paired(contrast: dict, rules: dict[str, Rules]) -> bool:
    """Whether the cells a contrast compares at each combination of the other knobs shuffle the same deck."""
    return all(rules[v].same_deck(rules[group[0]]) for group in contrast["groups"] for v in group)


def contrasts(design: Design) -> list[dict]:
    """Every main effect and two-knob interaction of the design: its labels, ``combinations``
    (|R|), ``weights`` (variant -> weight of its y_i in d_i) and ``groups`` (the cells compared at
    each combination of the other knobs), in a fixed order: the main effects knob by knob and
    level by level, then the interactions pair by pair."""
    knobs, cells = design.knobs, {levels: v for v, levels in design.cells.items()}
    ref = tuple(design.reference[k] for k in knobs)
    out = []
    for a, ka in enumerate(knobs):
        for la in _others(design, ka):
            terms = {ka: {la: 1.0, ref[a]: -1.0}}
            out.append(_contrast(design, cells, terms, {"effect": "main", "knob": ka, "level": la,
                                                        "reference": ref[a], "knob_b": "", "level_b": "",
                                                        "reference_b": ""}))
    for (a, ka), (b, kb) in itertools.combinations(enumerate(knobs), 2):
        for la, lb in itertools.product(_others(design, ka), _others(design, kb)):
            terms = {ka: {la: 1.0, ref[a]: -1.0}, kb: {lb: 1.0, ref[b]: -1.0}}
            out.append(_contrast(design, cells, terms, {"effect": "interaction", "knob": ka, "level": la,
                                                        "reference": ref[a], "knob_b": kb, "level_b": lb,
                                                        "reference_b": ref[b]}))
    return [c for c in out if c["combinations"] > 0]


def _others(design: Design, knob: str) -> list[str]:
    return [x for x in design.levels[knob] if x != design.reference[knob]]


def _contrast(design: Design, cells: dict[tuple[str, ...], str], terms: dict[str, dict[str, float]],
              labels: dict[str, str]) -> dict:
    """The weights of a contrast: the product of ``terms`` (knob -> level -> sign) over every
    combination of the other knobs whose cells all exist, divided by their number."""
    knobs = design.knobs
    rest = [k for k in knobs if k not in terms]
    weights: dict[str, float] = {}
    groups: list[tuple[str, ...]] = []
    for r in itertools.product(*(design.levels[k] for k in rest)):
        fixed = dict(zip(rest, r))
        corner = {}
        for choice in itertools.product(*(signs.items() for signs in terms.values())):
            levels = fixed | {k: level for k, (level, _) in zip(terms, choice)}
            variant = cells.get(tuple(levels[k] for k in knobs))
            if variant is None:
                break
            corner[variant] = float(np.prod([sign for _, sign in choice]))
        else:
            groups.append(tuple(corner))
            for v, w in corner.items():
                weights[v] = weights.get(v, 0.0) + w
    count = len(groups)
    return labels | {"combinations": count, "weights": {v: w / count for v, w in weights.items()} if count else {},
                     "groups": groups}


def per_game(group: pd.DataFrame, variants: list[str], m: Measures, players: int) -> dict[str, np.ndarray]:
    """Measure name -> a (variants x games) array, rows in ``variants`` order, games in
    index order: seat indicators, and lengths with NaN for truncated games."""
    group = group.sort_values(["game"], kind="stable")
    by_variant = {v: cell for v, cell in group.groupby("variant", sort=False)}
    missing = [v for v in variants if v not in by_variant]
    if missing:
        raise ValueError(f"no records of variant {missing[0]} at {players} players")
    games = by_variant[variants[0]].game.to_numpy()
    if any(not np.array_equal(by_variant[v].game.to_numpy(), games) for v in variants):
        raise ValueError(f"the variants at {players} players do not hold the same game indices: no pairing")
    outcome = np.stack([by_variant[v][m.outcome].to_numpy() for v in variants])
    truncated = np.stack([by_variant[v].truncated.to_numpy() for v in variants])
    out = {f"{m.outcome}_rate_{s}": (outcome == s).astype(float) for s in range(players)}
    for c in m.lengths:
        out[f"{c}_mean"] = np.where(truncated, np.nan, np.stack([by_variant[v][c].to_numpy(float)
                                                                  for v in variants]))
    return out
