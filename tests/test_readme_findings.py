"""The findings tables of the README and of docs/findings.md are the ones ``experiments/findings.py``
prints from the committed ``results/`` folders (summaries, knob effects, ladders): every number in a
table is in a committed file. The README's headline numbers are those of docs/findings.md."""
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HEADLINE = README[README.index("## Findings"):README.index("\n## ", README.index("## Findings") + 1)]
FINDINGS_PAGE = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
PROFILES = re.compile(r"<!-- profiles: experiments/findings.py --profiles -->\n(.*?)\n<!-- /profiles -->", re.S)
"""The balance section of docs/findings.md: ``experiments/findings.py --profiles`` as printed."""
SKILL = re.compile(r"<!-- skill: experiments/findings.py --skill -->\n(.*?)\n<!-- /skill -->", re.S)
"""The skill-ladder section of docs/findings.md: ``experiments/findings.py --skill`` as printed."""
PER_COUNT = re.compile(r"<!-- per-count: experiments/findings.py --per-count -->\n(.*?)\n<!-- /per-count -->", re.S)
"""Moska's seat edge per player count in docs/findings.md: ``experiments/findings.py --per-count`` as printed."""
GENERATIONS = re.compile(r"<!-- generations: experiments/findings.py --generations -->\n(.*?)\n<!-- /generations -->",
                         re.S)
"""docs/players.md's table of the generation ladders' replications: ``experiments/findings.py --generations``."""
STRENGTH = re.compile(r"<!-- strength: experiments/findings.py --strength -->\n(.*?)\n<!-- /strength -->", re.S)
"""The README's ratings of every game's players: ``experiments/findings.py --strength``."""
PAGES = {"README.md": HEADLINE,
         "docs/findings.md": PER_COUNT.sub("", SKILL.sub("", PROFILES.sub("", FINDINGS_PAGE)))}
HEADER = re.compile(r"^(\w+), (\d+) players, policy `([^`]+)`, [\d,]+ games per variant", re.MULTILINE)
STUDY = {"moska": "moska_variants", "musta_maija": "musta_maija_variants", "uno": "uno_house_rules",
         "molotow": "molotow_rules"}


def _findings():
    spec = importlib.util.spec_from_file_location("findings", ROOT / "experiments" / "findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLES = [(page, *m.groups()) for page, text in PAGES.items() for m in HEADER.finditer(text)]


def test_the_findings_page_shows_a_table_for_every_game():
    assert {game for page, game, _, _ in TABLES if page == "docs/findings.md"} == set(STUDY)


def test_the_readme_shows_a_headline_table_and_the_ladders():
    assert [page for page, *_ in TABLES].count("README.md") >= 1
    assert _findings().ladder_table() in HEADLINE
    assert "not yet replicated" not in _findings().ladder_table()  # every ladder's ratings checked on fresh deals


QUOTED = re.compile(r"^([^|\n][^\n]*:)\n\n((?:\|[^\n]*\n?)+)", re.MULTILINE)


@pytest.mark.parametrize("page", PAGES)
def test_every_table_of_a_findings_page_is_printed_from_the_committed_results(page):
    """Every table (with the line that names it) is one that experiments/findings.py prints from a
    committed summary.csv, effects.csv or ladder: rates, paired shifts, knob effects, ladders."""
    printed = set(_findings().every_table())
    quoted = [f"{head}\n\n{body.rstrip()}" for head, body in QUOTED.findall(PAGES[page])]
    assert quoted and len(quoted) == PAGES[page].count("\n|---")
    assert [q.splitlines()[0] for q in quoted if q not in printed] == []


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)?", text))


def test_every_number_of_the_readme_headline_prose_is_in_the_findings_page():
    """The README's headline sentences summarise docs/findings.md: updating one without the other fails."""
    prose = "\n".join(line for line in HEADLINE.splitlines() if not line.startswith("|") and not HEADER.match(line))
    prose = re.sub(r"\([^)]*\.png\)", "", prose)
    missing = _numbers(prose) - _numbers(FINDINGS_PAGE)
    assert not missing, f"README headline numbers not in docs/findings.md: {sorted(missing)}"


def test_the_balance_section_is_printed_from_the_committed_profiles():
    """docs/findings.md's "fairest, most skilful, least decided by the deal" section is the text that
    experiments/findings.py prints from results/profile_<game>/ and their replications."""
    section = PROFILES.search(FINDINGS_PAGE)
    assert section and section.group(1).strip() == _findings().profile_tables().strip()
    assert section.group(1).count("### ") == 4  # every game


def test_the_per_count_section_is_printed_from_the_committed_profile():
    """docs/findings.md's Moska seat edge at every player count is what experiments/findings.py prints from
    results/profile_moska_players/ and its replication."""
    section = PER_COUNT.search(FINDINGS_PAGE)
    assert section and section.group(1).strip() == _findings().fairness_by_players().strip()
    assert "3 players" in section.group(1) and "6 players" in section.group(1)


def test_the_skill_ladder_section_is_printed_from_the_committed_skill_studies():
    """docs/findings.md's skill-ladder section is what experiments/findings.py prints from
    results/skill_moska/ and results/skill_musta_maija/ (effects.csv rung by rung, skill.csv's verdicts)."""
    section = SKILL.search(FINDINGS_PAGE)
    assert section and section.group(1).strip() == _findings().skill_tables().strip()
    assert section.group(1).count("### ") == 2  # Moska's knobs and Musta-Maija's fixed trump
    assert _findings()._rung("learned(model='moska_4p_g2')") == "learned g2"
    assert _findings()._rung("mc(determinizations=8)") == "mc(8)" and _findings()._rung("greedy") == "greedy"


def test_a_ranking_is_stated_only_where_the_intervals_separate():
    import pandas as pd

    rows = pd.DataFrame({"variant": ["a", "b", "c"], "estimate": [1.0, 2.0, 5.0], "lo": [0.5, 1.4, 4.0],
                         "hi": [1.5, 2.6, 6.0]})
    f = _findings()
    assert f.superlative(rows, "highest").startswith("`c` (highest; its interval apart")
    assert f.superlative(rows.iloc[:2].assign(lo=[0.5, 1.4], hi=[1.5, 2.6]), "lowest").startswith("not separated")


def test_the_generation_steps_on_the_players_page_are_printed_from_the_committed_replications():
    """Every committed ladder replication's steps, with both runs' intervals and the corrected verdict, as
    ``experiments/findings.py --generations`` prints them from the ``replication.csv`` files."""
    page = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    printed = _findings().generation_steps()
    assert GENERATIONS.search(page).group(1) == printed
    assert printed.count("| `moska_aggregate` |") == 3 and "replicated |" in printed and "no finding |" in printed


def test_the_readme_rates_every_games_players_from_the_committed_oracle_ladders_and_their_replications():
    """The README's table of how strong each player is: every game's oracle ladder's ratings with their intervals,
    and each rating's verdict on fresh deals, as ``experiments/findings.py --strength`` prints them."""
    printed = _findings().strength()
    assert STRENGTH.search(README).group(1) == printed
    assert printed.count("\n| moska<br>`moska_4p_net_g2` | +") == 1
    assert "not yet replicated" not in printed and "of 20 ratings replicated" in printed
