"""The built documentation site in headless Chromium: build it, open a page, ask what it shows.

Shared by ``tests/test_site.py`` (the checks) and ``scripts/site_screenshots.py`` (the
committed screenshots), so that the screenshots show the pages the test checked.
Test support only: nothing in cardsim uses it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "study"))
from chromium import Browser  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 900
"""A laptop's browser window: both of Material's sidebars show from 1220 px on."""
PAGES = {"home": "index.html", "findings": "findings/index.html", "moska": "games/moska/index.html"}
"""The pages the screenshots show (the test checks every page of the site)."""

FACTS = r"""JSON.stringify((() => {
  const article = document.querySelector('article.md-content__inner');
  const column = article.getBoundingClientRect();
  const own = e => { const c = e.cloneNode(true); c.querySelectorAll('ul, ol, pre, code, table').forEach(x => x.remove());
                     return c.textContent; };
  return {
    column: column.width,
    runs_on: [...article.querySelectorAll('p, li')].map(own).filter(t => /\n\s*([-*+]|\d+\.)\s+\S/.test(t))
             .map(t => t.trim()),
    tables: [...article.querySelectorAll("table")].map(t => ({width: Math.max(t.getBoundingClientRect().width, t.scrollWidth),
             head: t.rows[0].textContent.trim().slice(0, 60)})),
    images: [...article.querySelectorAll('img')].map(i => ({src: i.getAttribute('src'), complete: i.complete,
             natural: i.naturalWidth, shown: i.getBoundingClientRect().width})),
    code: [...article.querySelectorAll('pre > code')].map(c => ({overflow: getComputedStyle(c).overflowX,
             wider: c.scrollWidth > c.clientWidth + 1, right: c.getBoundingClientRect().right - column.right})),
  };
})())"""
"""What a page shows, from its article: the column's width; the text of paragraphs and list items
(their nested lists and code left out) in which a line starts like a list item, i.e. a list the
Markdown meant and the page ran into the text; each table's width; each image's source, whether
it loaded and its natural and shown widths; each code block's overflow."""


def build(site: Path) -> None:
    """``mkdocs build --strict`` of the project into ``site`` (an ``AssertionError`` with its output on failure)."""
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def facts(page: Browser) -> dict:
    return json.loads(page.evaluate(FACTS))


def browser() -> Browser:
    return Browser(WIDTH, HEIGHT)
