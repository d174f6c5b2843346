"""The documentation describes the code it ships with: each game page names every preset, knob,
policy, record column, replay event column and action of its game; every rule ID the pages cite exists in docs/rules; and no
file of the project points at a path outside the repository. (The site's links and API reference
are checked by ``mkdocs build --strict`` in CI.)"""
import importlib
import re
from pathlib import Path

import pytest

from cardsim.core.records import EVENTS
from cardsim.games import BUILT_IN as GAMES, spec

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULE_ID = re.compile(r"\b(M|MM|U|MJ)-(\d+b?)\b")
OUTSIDE = ("shared" + "/", "seeds" + "/0")
"""Paths of the workshop the project was written in, not of the repository (spelt in two parts so
that a search for them finds nothing here)."""


def _page(game: str) -> str:
    return (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")


def _documented(name: str, text: str) -> bool:
    """``name`` appears as code; a per-seat column ``score_2`` may appear as ``score_<s>``."""
    seat = re.fullmatch(r"(\w+)_\d", name)
    return f"`{name}`" in text or (seat is not None and f"`{seat.group(1)}_<s>`" in text)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_names_every_preset_knob_policy_and_column(game):
    g = spec(game)
    text = _page(game)
    names = [*g.rules.PRESETS, *g.rules.knobs(), *g.policies, *(c.name for c in g.columns)]
    missing = [n for n in names if not _documented(n, text)]
    assert not missing, f"docs/games/{game}.md does not name {missing}"


def test_the_records_page_names_every_column_of_every_game():
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    missing = [(game, c.name) for game in GAMES for c in spec(game).columns if not _documented(c.name, text)]
    assert not missing


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_names_its_replay_events_columns_and_actions(game):
    book = importlib.import_module(f"cardsim.games.{game}.events").BOOK
    own = [c.name for c in book.columns if c not in EVENTS]
    missing = [n for n in [*own, *book.phrases] if not _documented(n, _page(game))]
    assert not missing, f"docs/games/{game}.md does not name {missing}"


def test_the_records_page_names_every_shared_event_column():
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    assert all(_documented(c.name, text) for c in EVENTS)


def _defined_rule_ids() -> set[str]:
    ids = set()
    for path in (DOCS / "rules").glob("*.md"):
        ids |= {f"{p}-{n}" for p, n in re.findall(r"^- \*\*(M|MM|U|MJ)-(\d+b?)\b", path.read_text(encoding="utf-8"),
                                                     flags=re.MULTILINE)}
    return ids


def test_the_rules_files_define_the_rule_ids_the_code_cites():
    """The IDs the rule-scenario tests are named after are defined, e.g. M-9 and MJ-10."""
    assert {"M-1", "M-9", "M-14b", "M-22", "MM-1", "MM-17", "U-1", "U-21", "MJ-1", "MJ-19"} <= _defined_rule_ids()


def test_every_rule_id_the_pages_cite_exists():
    defined = _defined_rule_ids()
    pages = [ROOT / "README.md", *DOCS.glob("*.md"), *(DOCS / "games").glob("*.md"), DOCS / "rules" / "index.md"]
    cited = {(path.relative_to(ROOT).as_posix(), f"{p}-{n}") for path in pages
             for p, n in RULE_ID.findall(path.read_text(encoding="utf-8"))}
    assert not {c for c in cited if c[1] not in defined}


def _project_files():
    for top in ("README.md", "cardsim", "tests", "docs", "notebooks", "experiments", "benchmarks", "mkdocs.yml",
                "pyproject.toml", ".ci"):
        path = ROOT / top
        for f in [path] if path.is_file() else sorted(path.rglob("*")):
            if f.is_file() and f.suffix in {".md", ".py", ".toml", ".ipynb", ".yml", ""} and "__pycache__" not in f.parts:
                yield f


def test_no_file_names_a_path_outside_the_repository():
    found = [(f.relative_to(ROOT).as_posix(), s) for f in _project_files()
             for s in OUTSIDE if s in f.read_text(encoding="utf-8", errors="replace")]
    assert not found


@pytest.mark.parametrize("patch", sorted((ROOT / "benchmarks").glob("*.diff")), ids=lambda p: p.name)
def test_a_measured_change_the_docs_cite_still_applies(patch):
    """A benchmark's ``.diff`` (a change measured but not landed) applies to today's tree, so its command still runs."""
    import subprocess
    done = subprocess.run(["git", "apply", "--check", str(patch)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
