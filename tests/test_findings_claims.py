"""The headline claims of ``experiments/findings.py --findings``: each printed with its correction for many
comparisons, its replication and its skill verdict, and stated as a finding only when it survives
correction and replicated. docs/findings.md quotes them as printed."""
import importlib.util
import json
import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
REPLICATION = ("replicated", "not yet replicated", "not replicated", "underpowered", "no finding")
SKILL = ("settled at the top", "still moving", "undetermined", "not settled")
LINE = re.compile(r"^- (?P<text>.+?): \*\*(?P<status>[^*]+)\*\*\. `(?P<policy>[^`]+)`, \d+ players \(`[^`]+`\): "
                  r"(?P<number>[+-]\d[^;]*); Holm p = (?P<holm>[\d.e+-]+), BH q = (?P<q>[\d.e+-]+) among \d+ tests; "
                  r"replication: (?P<replication>[a-z ]+); skill: (?P<skill>[a-z ]+) \(.+\)\.$")


def _findings():
    spec = importlib.util.spec_from_file_location("findings", ROOT / "experiments" / "findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FINDINGS = _findings()


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_every_printed_claim_carries_its_correction_replication_and_skill_verdict():
    lines = _lines(FINDINGS.findings())
    assert len(lines) == len(FINDINGS.CLAIMS)
    for line in lines:
        m = LINE.match(line)
        assert m, f"a printed claim without its correction, replication or skill verdict: {line}"
        assert m["replication"] in REPLICATION and m["skill"] in SKILL, line


def test_a_claim_is_stated_as_a_finding_only_when_it_survives_correction_and_replicated():
    for claim in FINDINGS.CLAIMS:
        a = FINDINGS.assess(claim)
        if not a["row"].survives:
            assert a["status"].startswith("no difference detected (±"), claim
        elif a["replication"] != "replicated":
            assert a["status"] in ("not yet replicated", "replication underpowered", "not replicated: no finding"), claim
        assert (a["status"] == "finding") == (bool(a["row"].survives) and a["replication"] == "replicated"
                                              and a["skill"] == "settled at the top"), claim


def test_the_findings_page_quotes_the_claims_as_printed():
    page = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert FINDINGS.findings() in page


def test_the_readme_quotes_every_claim_in_one_table_with_its_replication_and_skill_verdict():
    """The README's claims table is ``findings.py --claims`` as printed: a row per claim, each with its
    interval, Holm p, replication verdict, skill verdict (the top two rungs) and the status they give."""
    table = FINDINGS.claims_table()
    assert table in (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == len(FINDINGS.CLAIMS)
    for row, claim in zip(rows, FINDINGS.CLAIMS):
        a = FINDINGS.assess(claim)
        assert row[4] == a["replication"] in REPLICATION and row[5].startswith(a["skill"]), row
        assert re.fullmatch(r"\(\S.* → \S.*\)", row[5].removeprefix(a["skill"]).strip()), row
        assert row[6] == f"**{a['status']}** |", row


def test_a_rung_of_the_network_is_named_apart_from_the_linear_generation_of_the_same_number():
    assert FINDINGS._rung("learned(model='moska_4p_net_g2')") == "learned net g2"
    assert FINDINGS._rung("learned(model='moska_4p_g2')") == "learned g2"


def _study(results: Path, name: str, rows: list[dict]) -> None:
    folder = results / name
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"study": {"baseline": "base", "game": "moska"}}))
    labels = {"game": "moska", "players": 4, "effect": "main", "knob": "k", "reference": "a", "knob_b": "",
              "level_b": "", "reference_b": "", "games": 100000, "combinations": 1, "paired": True}
    pd.DataFrame([labels | r for r in rows]).to_csv(folder / "effects.csv", index=False)


@pytest.fixture
def results(tmp_path):
    """A knob study at two rungs: level b shifts seat 1 by 2 pp at both (significant, settled), level c by
    0.1 pp (nothing survives); no replication yet."""
    rows = [{"policy": policy, "level": level, "measure": "loser_rate_1", "estimate": est, "lo": est - 0.002,
             "hi": est + 0.002} for policy in ("greedy", "mc") for level, est in (("b", 0.02), ("c", 0.001))]
    _study(tmp_path, "knobs", rows)
    return tmp_path


def _claim(level: str):
    return FINDINGS.Claim("k moves seat 1", "knobs", 4, "mc", level, "loser_rate_1", "k",
                          (("knobs", "greedy"), ("knobs", "mc")))


def test_an_unreplicated_claim_says_so_and_a_null_one_says_no_difference_detected(results):
    assert FINDINGS.assess(_claim("b"), results)["status"] == "not yet replicated"
    null = FINDINGS.assess(_claim("c"), results)
    assert null["status"] == "no difference detected (±0.30 pp)"
    assert "the same" not in FINDINGS.finding_line(null)


@pytest.mark.parametrize("verdict, status", [("replicated", "finding"), ("not replicated", "not replicated: no finding"),
                                             ("underpowered", "replication underpowered")])
def test_a_replicated_claim_settled_at_the_top_is_a_finding(results, verdict, status):
    folder = results / "knobs_replication"
    folder.mkdir()
    table = pd.DataFrame([{"players": 4, "policy": "mc", "effect": "main", "knob": "k", "level": "b",
                           "reference": "a", "knob_b": "", "level_b": "", "reference_b": "",
                           "measure": "loser_rate_1", "verdict": verdict}])
    (folder / "replication.csv").write_text("# cardsim replicate knobs\n" + table.to_csv(index=False))
    a = FINDINGS.assess(_claim("b"), results)
    assert (a["replication"], a["skill"], a["status"]) == (verdict, "settled at the top", status)
