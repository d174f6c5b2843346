"""``report.html`` in a real browser: headless Chromium opens the page and says which tables
it holds and whether every image decoded; the page loads nothing from elsewhere."""
import json
import re
import shutil
import struct
from pathlib import Path

import pandas as pd
import pytest

from cardsim.cli import main
from cardsim.study import run_study
from cardsim.study.report.explore import headline
from cardsim.study.report.html import write_report
from chromium import Browser
from test_study_designs import FACTORIAL

ROOT = Path(__file__).resolve().parents[2]

FACTS = """JSON.stringify({
  tables: Object.fromEntries([...document.querySelectorAll('table')].map(t => [t.id, t.tBodies[0].rows.length])),
  images: [...document.images].map(i => [i.alt, i.complete, i.naturalWidth, i.naturalHeight]),
  outside: [...document.querySelectorAll('[src], [href]')].map(e => e.getAttribute('src') || e.getAttribute('href'))
           .filter(u => !u.startsWith('data:')),
  scripts: document.scripts.length,
  command: document.getElementById('command').textContent,
})"""


def _facts(page: Browser) -> dict:
    return json.loads(page.evaluate(FACTS))


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def expected_tables(folder) -> dict[str, int]:
    """Table id -> rows, from the folder's own files: the page must show all of them."""
    summary = pd.read_csv(folder / "summary.csv")
    manifest = json.loads((folder / "manifest.json").read_text())
    groups = list(dict.fromkeys(zip(summary.players, summary.policy)))
    variants = summary.variant.nunique()
    ids = {"headline": len(headline(manifest)), "provenance": None, "rules": variants}  # the same rows as explore's
    for n, p in groups:
        key = f"{n}-{p}".replace(",", "_")
        ids |= {f"rates-{key}": variants, f"paired-{key}": variants - 1}
        if "loser_tv" in summary.columns or "winner_tv" in summary.columns:
            ids[f"fairness-{key}"] = variants
    if (folder / "effects.csv").exists():
        effects = pd.read_csv(folder / "effects.csv")
        for n, p in groups:
            here = effects.loc[(effects.players == n) & (effects.policy == p)]
            ids[f"effects-{n}-{p}".replace(",", "_")] = len(here.drop_duplicates(["effect", "knob", "level", "knob_b",
                                                                                  "level_b"]))
    assert len(manifest["cells"]) == len(summary)
    return ids


def check_in_chromium(folder, screenshot=None) -> dict:
    """Open ``folder/report.html`` in Chromium: every expected table with its rows, every plot
    of the manifest decoded at its own size, nothing loaded from elsewhere, no script."""
    manifest = json.loads((folder / "manifest.json").read_text())
    plots = [n for n in manifest["outputs"] if n.endswith(".png")]
    with Browser() as page:
        page.open(folder / "report.html")
        facts = _facts(page)
        if screenshot is not None:
            page.screenshot(screenshot)
    for ident, rows in expected_tables(folder).items():
        assert ident in facts["tables"], ident
        assert rows is None and facts["tables"][ident] > 0 or facts["tables"][ident] == rows, ident
    stepped = ["precision"] if manifest.get("precision") else []  # drawn from the manifest, not a file
    assert [alt for alt, *_ in facts["images"]] == stepped + plots
    for (alt, complete, width, height), name in zip(facts["images"][len(stepped):], plots):
        assert complete and (width, height) == _png_size((folder / name).read_bytes()), alt
    assert all(complete and width > 0 for _, complete, width, _ in facts["images"][:len(stepped)])
    assert facts["outside"] == [] and facts["scripts"] == 0
    return facts


def test_report_html_opens_in_chromium_with_every_table_and_image(finished_copy, tmp_path, capsys):
    assert main(["report", str(finished_copy), "--html"]) == 0
    assert capsys.readouterr().out == f"wrote {finished_copy / 'report.html'}\n"
    facts = check_in_chromium(finished_copy, screenshot=tmp_path / "page.png")
    assert "fairness-3-greedy_random_random" in facts["tables"]
    manifest = json.loads((finished_copy / "manifest.json").read_text())
    assert facts["command"] == " ".join(manifest["command"])  # the folder's own: it was copied from the run's
    assert manifest["command"][:3] == ["cardsim", "run", manifest["study_file"]] and manifest["command"][3] == "--out"
    width, height = _png_size((tmp_path / "page.png").read_bytes())
    assert width == 1400 and height > 2000  # the whole page, not the window


def test_the_report_of_a_factorial_run_to_a_precision_shows_its_effects_and_steps(write_study, tmp_path):
    out = run_study(write_study(FACTORIAL), precision=12, out=tmp_path / "f")
    write_report(out)
    facts = check_in_chromium(out)
    assert "effects-2-random" in facts["tables"] and "fairness-3-random" in facts["tables"]
    assert facts["command"] == f"cardsim run {tmp_path / 'study.toml'} --precision 12 --max-games 1000000 --out {out}"
    text = (out / "report.html").read_text()
    assert "lives=3 × dealer_lives=1" in text and "largest clear knob effect" in text or "no knob effect" in text
    assert "<td class=\"name\">precision</td>" in text and "<h2>Precision</h2>" in text
    assert facts["images"][0][0] == "precision"
    assert "<th class=\"name\"></th>" not in text  # "What was run" and its like: no empty header row (issue 28)


def test_the_browser_check_fails_on_an_image_that_does_not_decode(finished_copy):
    page = write_report(finished_copy)
    text = page.read_text()
    first = re.search(r"base64,([A-Za-z0-9+/=]{200})", text)
    page.write_text(text.replace(first.group(1), "A" * 200, 1))  # the PNG header is gone
    with pytest.raises(AssertionError, match="loser_by_seat"):
        check_in_chromium(finished_copy)


def test_report_html_needs_no_games_parquet_and_names_a_missing_plot(finished_copy):
    (finished_copy / "games.parquet").unlink()
    write_report(finished_copy)
    assert "<table id=\"rates-2-random\">" in (finished_copy / "report.html").read_text()
    (finished_copy / "length_random.png").unlink()
    with pytest.raises(ValueError, match="the plot length_random.png of the manifest is missing"):
        write_report(finished_copy)


WIDE = """JSON.stringify((() => {
  const top = node => { const r = document.createRange(); r.selectNodeContents(node);
                       return r.getBoundingClientRect().top; };
  const cells = [...document.querySelectorAll('td.estimate')];
  return {page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
          under: cells.filter(td => top(td.querySelector('.ci')) > top(td.firstChild) + 5).length,
          broken: cells.filter(td => td.querySelector('.ci').getClientRects().length > 1).length};
})())"""
"""The page's width and its window's; how many estimate cells show their interval on a line under the estimate,
and in how many the interval itself is broken over lines."""


def test_a_six_player_report_fits_the_page_each_interval_under_its_estimate(tmp_path):
    """At 5 and 6 players the rates and paired tables are wider than the page: an interval moves under its
    estimate (never broken inside) and nothing scrolls sideways (``results/moska_variants``: 2 to 6 players)."""
    folder = tmp_path / "moska_variants"
    shutil.copytree(ROOT / "results" / "moska_variants", folder, ignore=shutil.ignore_patterns("games.parquet"))
    text = write_report(folder).read_text()
    assert "<td class=\"estimate\">15.69 <span class=\"ci\">[15.62, 15.76]</span></td>" in text  # 6 players, greedy
    with Browser() as page:
        page.open(folder / "report.html")
        facts = json.loads(page.evaluate(WIDE))
    width, window = facts["page"]
    assert width <= window  # no sideways scroll
    assert facts["under"] > 0 and facts["broken"] == 0
