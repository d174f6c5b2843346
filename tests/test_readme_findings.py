"""The README's findings tables are the ones ``experiments/findings.py`` prints from the
committed ``results/<study>/summary.csv`` files: every number in a table is in a summary."""
import importlib.util
import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FINDINGS = README[README.index("## Findings"):README.index("\n## ", README.index("## Findings") + 1)]
HEADER = re.compile(r"^(\w+), (\d+) players, policy `([^`]+)`, [\d,]+ games per variant", re.MULTILINE)
STUDY = {"moska": "moska_variants", "musta_maija": "musta_maija_variants", "uno": "uno_house_rules",
         "molotow": "molotow_rules"}


def _findings():
    spec = importlib.util.spec_from_file_location("findings", ROOT / "experiments" / "findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLES = [m.groups() for m in HEADER.finditer(FINDINGS)]


def test_the_findings_show_a_table_for_every_game():
    assert {game for game, _, _ in TABLES} == set(STUDY)


@pytest.mark.parametrize("game, players, policy", TABLES, ids=[f"{g}-{n}p-{p}" for g, n, p in TABLES])
def test_a_findings_table_is_printed_from_its_committed_summary(game, players, policy):
    summary = pd.read_csv(ROOT / "results" / STUDY[game] / "summary.csv")
    assert _findings().table(summary, int(players), policy) in FINDINGS
