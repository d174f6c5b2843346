"""The profile table: every figure of every variant and player count, corrected for many comparisons.

``compute`` reads a profile study's ``games.parquet`` cell by cell and calls each measure module
(``fairness``, ``skill``, ``luck``, ``options``, ``length``); ``correct`` adds, per **family** (one
measure module's figures over all the profile's variants and player counts), Holm's adjusted p
(``p_holm``), the Benjamini-Hochberg q (``q_bh``), Bonferroni simultaneous intervals (``sim_lo``,
``sim_hi``: each side of the 95% interval stretched by z(1 - alpha / 2m) / z(0.975), m the family's
tested figures) and ``survives`` (``p_holm <= alpha``), with statsmodels' ``multipletests`` as
``cardsim.study.multiplicity`` uses it. Descriptive figures (no null) are left out of the families.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from cardsim import api, games as registry
from cardsim.profile import fairness, length, luck, options, skill
from cardsim.profile.design import restricted
from cardsim.profile.rows import COLUMNS as ROW_COLUMNS
from cardsim.study.folder import storage
from cardsim.study.ladder.tables import measure_of
from cardsim.study.plan.seatings import seatings
from cardsim.study.plan.spec import Study, policy_label
from cardsim.study.report.stats import LEVEL, measures

CORRECTIONS = ("p_holm", "q_bh", "sim_lo", "sim_hi", "survives")
COLUMNS = ("game", *ROW_COLUMNS[:-1], *CORRECTIONS, ROW_COLUMNS[-1])
"""``profile.csv``'s columns."""


def compute(study: Study, folder: Path) -> pd.DataFrame:
    """The corrected profile table of a profile study's folder (its ``games.parquet``)."""
    spec = registry.spec(study.game)
    columns = [c.name for c in spec.columns]
    m = measures(columns)
    prof = study.profile
    read = [*dict.fromkeys(["game", "truncated", m.outcome, *m.lengths, *measure_of(columns).columns(
        max(study.players))])]
    features = luck.features_module(study.game)
    rows: list[dict] = []
    for variant, rules in study.variants.items():
        for n in study.players:
            def records(seats) -> pd.DataFrame:
                got = storage.read_games(folder, where={"variant": variant, "players": n,
                                                        "policy": policy_label(seats)},
                                         columns=[c for c in read if c in columns or c == "game"])
                return got.sort_values("game").reset_index(drop=True)

            def events(i: int) -> pd.DataFrame:
                return api.replay(study.game, rules, players=n, seed=study.seed, game=i, policy=prof.policy).events

            self_play = records(prof.policy)
            outcome = self_play[m.outcome].to_numpy()
            rows += fairness.figures(variant, n, prof.policy, outcome)
            ladder = {s: records(s) for s in seatings(prof.ladder, n, "pairs")}
            rows += skill.figures(variant, n, prof.ladder, columns, m.outcome, ladder, study.games)
            x = None if features is None else features.deal_features(rules, n, study.seed, self_play.game.to_numpy())
            rows += luck.figures(variant, n, prof.policy, outcome, x)
            for option in prof.options:
                rows += options.figures(variant, n, prof.policy, option, m.outcome, outcome,
                                        [records(restricted(prof, option, n, r))[m.outcome].to_numpy()
                                         for r in range(n)])
            rows += length.figures(variant, n, prof.policy, self_play)
            scored = "score_0" in columns
            shares = [np.nan if outcome[i] < 0 else length.decided_by_score(events(i), int(outcome[i])) if scored
                      else length.decided_at(events(i), int(outcome[i]), int(self_play.turns[i]), m.outcome == "loser")
                      for i in range(min(prof.replays, study.games))]
            rows += length.decisiveness(variant, n, prof.policy, shares, scored)
    table = pd.DataFrame(rows, columns=list(ROW_COLUMNS))
    return correct(table.assign(game=study.game), study.alpha)[list(COLUMNS)]


def correct(table: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """``table`` with ``CORRECTIONS`` added, each family on its own (see the module docstring)."""
    holm, q, r = (np.full(len(table), np.nan) for _ in range(3))
    p = table.p.to_numpy(float)
    for f in dict.fromkeys(table.family):
        rows = np.flatnonzero((table.family == f).to_numpy() & ~np.isnan(p))
        if len(rows):
            holm[rows] = multipletests(p[rows], alpha=alpha, method="holm")[1]
            q[rows] = multipletests(p[rows], alpha=alpha, method="fdr_bh")[1]
            r[rows] = sps.norm.ppf(1 - alpha / (2 * len(rows))) / sps.norm.ppf(0.5 + LEVEL / 2)
    est = table.estimate.to_numpy(float)
    return table.assign(p_holm=holm, q_bh=q, sim_lo=est - (est - table.lo) * r, sim_hi=est + (table.hi - est) * r,
                        survives=~np.isnan(holm) & (holm <= alpha))


def csv_text(table: pd.DataFrame) -> str:
    """The text of ``profile.csv``."""
    return table.to_csv(index=False, float_format="%.6g", lineterminator="\n")


def parse(text: str) -> pd.DataFrame:
    """A ``profile.csv``'s table."""
    return pd.read_csv(io.StringIO(text), keep_default_na=False,
                       na_values={c: [""] for c in ("estimate", "lo", "hi", "null", "p", *CORRECTIONS[:-1])},
                       dtype={c: "str" for c in ("game", "variant", "family", "measure", "policy", "note")})
