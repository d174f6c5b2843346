"""A ladder's study from ``cardsim ladder``'s arguments (``ladder_study``) and its tables read back (``read``).

The ladder's study is checked like a study file (``Study.from_dict``: rules, player
count, each policy with its parameters); ``pipeline.run_ladder`` runs it as any study
(lock, resume, all-or-nothing folder, manifest) into ``results/ladder_<game>`` unless
``out`` says otherwise. The manifest keeps the ``cardsim ladder`` command that re-creates it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import pandas as pd

from cardsim import api
from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, integer_expected
from cardsim.core.rules import Rules, split_calls
from cardsim.study.ladder import files as ladder_files
from cardsim.study.ladder.tables import STEP_COLUMNS
from cardsim.study.plan.seatings import SEATINGS
from cardsim.study.plan.spec import Study

GAMES = 10_000
"""Games per seating when none is given."""


@dataclass(frozen=True)
class LadderResult:
    """A finished ladder: its folder, ``ladder.csv``, ``ratings.csv`` and ``steps.csv`` as tables (``steps``
    empty where the ladder has no two generations of a model, or was written before it had them), and
    ``ladder.txt``."""

    folder: Path
    table: pd.DataFrame
    ratings: pd.DataFrame
    text: str
    steps: pd.DataFrame


def ladder_study(game: str, rules: str | Rules | None = None, *, policies: str | Sequence[str], players: int = 4,
                 games: int = GAMES, seed: int = 0, seatings: str = "pairs", engine: str = "compiled") -> Study:
    """The study of a ladder of ``policies`` (a list, or one string separated by commas outside
    parentheses) at ``players`` seats; ``ValueError`` (one line) for anything that cannot run."""
    r = api.rules(game, rules)
    names = split_calls(policies) if isinstance(policies, str) else policies
    if not isinstance(names, (list, tuple)) or len(names) < 2:
        raise ValueError(f"--policies: expected two or more policies separated by commas, not {policies!r}")
    for option, value, limit in (("--games", games, GAME_LIMIT), ("--seed", seed, SEED_LIMIT)):
        expected = integer_expected(value, 1 if option == "--games" else 0, limit)
        if expected:
            raise ValueError(f"{option}: expected {expected}, not {value!r}")
    if seatings not in SEATINGS:
        raise ValueError(f"--seatings: expected one of {', '.join(SEATINGS)}, not {seatings!r}")
    variant = r.describe()
    study = Study.from_dict({
        "name": f"ladder_{game}", "game": game, "seed": seed, "games": games, "players": players,
        "variants": {variant: r.to_dict()}, "baseline": variant, "engine": engine,
        "ladder": {"policies": list(names), "seatings": seatings}}, where="cardsim ladder")
    return replace(study, description=f"ladder of {', '.join(study.ladder.policies)} at {players} players")


def read(folder: str | Path) -> LadderResult:
    """The tables of a ladder's folder."""
    folder = Path(folder)
    table, ratings = (pd.read_csv(folder / name, keep_default_na=False, na_values=[""])
                      for name in (ladder_files.TABLE, ladder_files.RATINGS))
    steps = (pd.read_csv(folder / ladder_files.STEPS, keep_default_na=False, na_values=[""])
             if (folder / ladder_files.STEPS).is_file() else pd.DataFrame(columns=list(STEP_COLUMNS)))
    return LadderResult(folder, table, ratings, (folder / ladder_files.TEXT).read_text(encoding="utf-8"), steps)
